/* tprof-cli-trace.c — `tprof trace`: every sample on the timeline as Chrome trace-event JSON, for Perfetto and chrome://tracing. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <string.h>

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

/* The JSON goes out in pieces of about this size: only one piece and one
 * operation's samples are in memory at a time. */
#define FLUSH_BYTES (1 << 20)

typedef struct
{
  TprofPlotStream *stream;
  GString         *pending;
  GError          *error;
} TraceWriter;

/* Writes what is pending when @force or when it has grown past
 * FLUSH_BYTES; FALSE once a write has failed. */
static gboolean
writer_flush (TraceWriter *writer,
              gboolean     force)
{
  if (writer->error != NULL)
    return FALSE;
  if (!force && writer->pending->len < FLUSH_BYTES)
    return TRUE;
  if (!tprof_plot_stream_write (writer->stream, writer->pending->str, writer->pending->len, &writer->error))
    return FALSE;
  g_string_truncate (writer->pending, 0);
  return TRUE;
}

static void
append_process_names (TraceWriter      *writer,
                      TprofProfileFile *profile)
{
  for (int r = 0; r < tprof_profile_file_world_size (profile) && writer_flush (writer, FALSE); r++)
    {
      const char *host = tprof_profile_file_hostname (profile, r);
      g_autofree char *label = host != NULL ? g_strdup_printf ("Rank %d (%s)", r, host)
                                            : g_strdup_printf ("Rank %d", r);

      g_string_append_printf (writer->pending, "%s{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, "
                                               "\"tid\": 0, \"args\": {\"name\": ", r == 0 ? "" : ",\n", r);
      tprof_cli_json_append_string (writer->pending, label);
      g_string_append (writer->pending, "}}");
    }
}

/* One complete event ("ph": "X") per sample of @gt in the window. */
static void
append_events (TraceWriter             *writer,
               const char              *name,
               const TprofGatheredTime *gt,
               const TraceOptions      *options)
{
  const double *times = tprof_gathered_time_times (gt);
  const double *starts = tprof_gathered_time_starts (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  const int32_t *threads = tprof_gathered_time_threads (gt);
  GString *quoted = g_string_new (NULL);
  GString *out = writer->pending;

  tprof_cli_json_append_string (quoted, name);
  for (size_t i = 0; i < tprof_gathered_time_count (gt) && writer_flush (writer, FALSE); i++)
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

/* Every wanted operation, read one at a time, into @writer. */
static int
write_trace (const char         *file,
             TprofProfileFile   *profile,
             const TraceOptions *options,
             TraceWriter        *writer)
{
  g_string_append (writer->pending, "{\"traceEvents\": [\n");
  append_process_names (writer, profile);
  for (size_t op = 0; op < tprof_profile_file_n_operations (profile) && writer->error == NULL; op++)
    {
      const char *name = tprof_profile_file_operation_name (profile, op);
      TprofGatheredTime *gt;
      gboolean no_timeline;

      if (!wanted_operation (options, name))
        continue;
      gt = tprof_cli_read_operation (profile, op, options->ranks);
      if (gt == NULL)
        return TPROF_CLI_EXIT_FAILED;
      no_timeline = tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL;
      if (!no_timeline)
        append_events (writer, name, gt, options);
      tprof_gathered_time_free (gt);
      if (no_timeline)
        return tprof_cli_no_timeline_error (file);
    }
  g_string_append (writer->pending, "\n], \"displayTimeUnit\": \"ns\"}\n");
  writer_flush (writer, TRUE);
  return TPROF_CLI_EXIT_OK;
}

static int
run (const char   *file,
     TraceOptions *options,
     const char   *ranks_expr)
{
  TprofProfileFile *profile = tprof_cli_open (file);
  TraceWriter writer = { NULL, NULL, NULL };
  int status = TPROF_CLI_EXIT_OK;

  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  if (!tprof_cli_parse_ranks ("trace", ranks_expr, tprof_profile_file_world_size (profile), profile,
                              &options->ranks,
                              &status))
    goto out;
  for (char **op = options->ops; op != NULL && *op != NULL; op++)
    {
      size_t index;

      if (!tprof_cli_find_operation (profile, *op, &index))
        {
          status = TPROF_CLI_EXIT_FAILED;
          goto out;
        }
    }

  writer.stream = tprof_plot_stream_open (options->output, g_str_has_suffix (options->output, ".gz"),
                                          &writer.error);
  if (writer.stream == NULL)
    {
      status = tprof_cli_write_error (options->output, writer.error);
      goto out;
    }
  writer.pending = g_string_sized_new (FLUSH_BYTES + 4096);
  status = write_trace (file, profile, options, &writer);
  if (status == TPROF_CLI_EXIT_OK && writer.error == NULL)
    tprof_plot_stream_commit (writer.stream, &writer.error);
  else
    tprof_plot_stream_abort (writer.stream);
  if (status == TPROF_CLI_EXIT_OK && writer.error != NULL)
    status = tprof_cli_write_error (options->output, writer.error);
  g_string_free (writer.pending, TRUE);

out:
  g_clear_error (&writer.error);
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
