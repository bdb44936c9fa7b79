/* tprof-cli-trace.c — `tprof trace`: every sample on the timeline as Chrome trace-event JSON, for Perfetto and chrome://tracing. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <string.h>
#include <zlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef struct
{
  const char  *output;
  GArray      *ranks;     /* NULL: every rank */
  char       **ops;       /* NULL: every operation */
  double       from;      /* keep samples that overlap [from, to] */
  double       to;
} TraceOptions;

/* Microseconds, to the nanosecond, whatever the locale. */
static void
append_us (GString *out,
           double   secs)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (text, sizeof text, "%.3f", secs * 1e6));
}

static void
append_process_names (GString          *out,
                      TprofProfileFile *profile)
{
  for (int r = 0; r < tprof_profile_file_world_size (profile); r++)
    {
      const char *host = tprof_profile_file_hostname (profile, r);
      g_autofree char *label = host != NULL ? g_strdup_printf ("Rank %d (%s)", r, host)
                                            : g_strdup_printf ("Rank %d", r);

      g_string_append_printf (out, "%s{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, "
                                   "\"args\": {\"name\": ", r == 0 ? "" : ",\n", r);
      tprof_cli_json_append_string (out, label);
      g_string_append (out, "}}");
    }
}

/* One complete event ("ph": "X") per sample of @gt in the window. */
static void
append_events (GString                 *out,
               const char              *name,
               const TprofGatheredTime *gt,
               const TraceOptions      *options)
{
  const double *times = tprof_gathered_time_times (gt);
  const double *starts = tprof_gathered_time_starts (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  const int32_t *threads = tprof_gathered_time_threads (gt);
  GString *quoted = g_string_new (NULL);

  tprof_cli_json_append_string (quoted, name);
  for (size_t i = 0; i < tprof_gathered_time_count (gt); i++)
    {
      if (starts[i] + times[i] < options->from || starts[i] > options->to)
        continue;
      g_string_append_printf (out, ",\n{\"name\": %s, \"ph\": \"X\", \"ts\": ", quoted->str);
      append_us (out, starts[i]);
      g_string_append (out, ", \"dur\": ");
      append_us (out, times[i]);
      g_string_append_printf (out, ", \"pid\": %d, \"tid\": %d}", ranks[i], threads != NULL ? threads[i] : 0);
    }
  g_string_free (quoted, TRUE);
}

static gboolean
wanted_operation (const TraceOptions *options,
                  const char         *name)
{
  return options->ops == NULL || g_strv_contains ((const char *const *) options->ops, name);
}

/* gzip of @text, as the .gz suffix asks. */
static GBytes *
gzip_bytes (const GString *text)
{
  z_stream z = { 0 };
  GByteArray *out = g_byte_array_sized_new ((guint) MIN (text->len / 4 + 64, G_MAXUINT));
  guint8 chunk[1 << 16];
  int rc;

  /* 15 + 16: a gzip header and trailer around the deflate stream */
  if (deflateInit2 (&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    {
      g_byte_array_unref (out);
      return NULL;
    }
  z.next_in = (Bytef *) text->str;
  z.avail_in = 0;
  for (gsize done = 0;;)
    {
      if (z.avail_in == 0 && done < text->len)
        {
          gsize take = MIN (text->len - done, (gsize) G_MAXUINT32 / 2);

          z.next_in = (Bytef *) text->str + done;
          z.avail_in = (uInt) take;
          done += take;
        }
      z.next_out = chunk;
      z.avail_out = sizeof chunk;
      rc = deflate (&z, done == text->len ? Z_FINISH : Z_NO_FLUSH);
      g_byte_array_append (out, chunk, (guint) (sizeof chunk - z.avail_out));
      if (rc == Z_STREAM_END)
        break;
      if (rc != Z_OK && rc != Z_BUF_ERROR)
        {
          deflateEnd (&z);
          g_byte_array_unref (out);
          return NULL;
        }
    }
  deflateEnd (&z);
  return g_byte_array_free_to_bytes (out);
}

static int
save (const TraceOptions *options,
      const GString      *text)
{
  GError *error = NULL;
  gboolean saved;

  if (g_str_has_suffix (options->output, ".gz"))
    {
      g_autoptr(GBytes) gz = gzip_bytes (text);

      if (gz == NULL)
        return tprof_cli_file_error (options->output, _("could not compress the trace"));
      saved = tprof_plot_save_bytes (options->output, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz), &error);
    }
  else
    saved = tprof_plot_save_bytes (options->output, text->str, text->len, &error);
  if (!saved)
    {
      int status = tprof_cli_write_error (options->output, error);

      g_error_free (error);
      return status;
    }
  return TPROF_CLI_EXIT_OK;
}

static int
run (const char   *file,
     TraceOptions *options,
     const char   *ranks_expr)
{
  TprofProfileFile *profile = tprof_cli_open (file);
  GString *out;
  int status = TPROF_CLI_EXIT_OK;

  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  if (!tprof_cli_parse_ranks ("trace", ranks_expr, tprof_profile_file_world_size (profile), &options->ranks,
                              &status))
    {
      tprof_profile_file_close (profile);
      return status;
    }
  for (char **op = options->ops; op != NULL && *op != NULL && status == TPROF_CLI_EXIT_OK; op++)
    {
      size_t index;

      if (!tprof_cli_find_operation (profile, *op, &index))
        status = TPROF_CLI_EXIT_FAILED;
    }

  out = g_string_new ("{\"traceEvents\": [\n");
  append_process_names (out, profile);
  for (size_t op = 0; op < tprof_profile_file_n_operations (profile) && status == TPROF_CLI_EXIT_OK; op++)
    {
      const char *name = tprof_profile_file_operation_name (profile, op);
      TprofGatheredTime *gt;

      if (!wanted_operation (options, name))
        continue;
      gt = tprof_cli_read_operation (profile, op, options->ranks);
      if (gt == NULL)
        status = TPROF_CLI_EXIT_FAILED;
      else if (tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL)
        status = tprof_cli_file_error (file, _("has no timeline (its operations have no 'starts'): it was "
                                               "saved by an older tprof or by another program"));
      else if (tprof_gathered_time_count (gt) > 0)
        append_events (out, name, gt, options);
      tprof_gathered_time_free (gt);
    }
  g_string_append (out, "\n], \"displayTimeUnit\": \"ns\"}\n");
  if (status == TPROF_CLI_EXIT_OK)
    status = save (options, out);
  g_string_free (out, TRUE);
  if (options->ranks != NULL)
    g_array_unref (options->ranks);
  tprof_profile_file_close (profile);
  return status;
}

/* A number of seconds from @option, or a usage error. */
static gboolean
parse_seconds (const char *option,
               const char *text,
               double     *value,
               int        *status)
{
  char *end = NULL;

  if (text == NULL)
    return TRUE;
  *value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (*value))
    {
      *status = tprof_cli_usage_error ("trace", _("invalid %s \"%s\": expected seconds on the timeline"),
                                       option, text);
      return FALSE;
    }
  return TRUE;
}

int
tprof_cli_trace (int    argc,
                 char **argv)
{
  char *output = NULL, *ranks_expr = NULL, *from_text = NULL, *to_text = NULL;
  char **ops = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("The trace to write: .json, or .json.gz compressed (required)"), N_("OUT") },
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &ranks_expr, N_("Only these ranks, e.g. 0-3,8"), N_("EXPR") },
    { "op", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ops, N_("Only this operation (repeat for more)"), N_("NAME") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, N_("Only samples that end after SECS on the timeline"),
      N_("SECS") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, N_("Only samples that start before SECS"), N_("SECS") },
    { NULL }
  };
  TraceOptions options = { NULL, NULL, NULL, -INFINITY, INFINITY };
  GOptionContext *context;
  const char *file = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("trace", _("FILE"),
                                   _("Writes every sample of a profile with a timeline as one event of "
                                     "the Chrome trace-event format, which Perfetto (ui.perfetto.dev) and "
                                     "chrome://tracing open: a process per rank, a thread per thread, "
                                     "times in microseconds on the profile's timeline."),
                                   NULL, entries);
  if (!tprof_cli_parse (context, "trace", &argc, &argv, 1, (const char *[]) { "FILE" }, &file, &status)
      || !parse_seconds ("--from", from_text, &options.from, &status)
      || !parse_seconds ("--to", to_text, &options.to, &status))
    goto out;
  if (output == NULL)
    {
      status = tprof_cli_usage_error ("trace", _("missing -o OUT"));
      goto out;
    }
  if (!g_str_has_suffix (output, ".json") && !g_str_has_suffix (output, ".json.gz"))
    {
      status = tprof_cli_usage_error ("trace", _("cannot write \"%s\": the name must end in .json or .json.gz"),
                                      output);
      goto out;
    }
  options.output = output;
  options.ops = ops;
  status = run (file, &options, ranks_expr);

out:
  g_option_context_free (context);
  g_free (output);
  g_free (ranks_expr);
  g_free (from_text);
  g_free (to_text);
  g_strfreev (ops);
  return status;
}
