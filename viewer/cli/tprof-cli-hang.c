/* tprof-cli-hang.c — `tprof hang`: from a stopped job's spill files, the collective the ranks wait in, who never entered it, and what they do instead. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>
#include <tprof/tprof-hang.h>

#include "tprof-cli.h"

/* A call as "FUNCTION on COMMUNICATOR (collective N there)"; @tr: in the
 * user's language (the table) or not (JSON). */
static char *
call_text (const TprofHangRank *r, gboolean tr)
{
  if (r->sequence > 0)
    return g_strdup_printf (tr ? _("%s on %s (collective %" PRIu64 " there)") : "%s on %s (collective %" PRIu64 " there)",
                            r->function, r->communicator, r->sequence);
  if (r->communicator[0] != '\0')
    return g_strdup_printf (tr ? _("%s on %s") : "%s on %s", r->function, r->communicator);
  return g_strdup (r->function);
}

static char *
doing_text (const TprofHangRank *r, gboolean tr)
{
  char *call = call_text (r, tr), *text;

  switch (r->doing)
    {
    case TPROF_HANG_DOING_CALL:
      text = g_strdup_printf (tr ? _("in %s") : "in %s", call);
      break;
    case TPROF_HANG_DOING_AFTER:
      text = g_strdup_printf (tr ? _("no MPI call in flight; the last was %s") : "no MPI call in flight; the last was %s",
                              call);
      break;
    case TPROF_HANG_DOING_REGION:
      text = g_strdup_printf (tr ? _("in region %s") : "in region %s", r->function);
      break;
    case TPROF_HANG_DOING_NO_FILE:
      text = g_strdup (tr ? _("unknown: no spill file") : "unknown: no spill file");
      break;
    case TPROF_HANG_DOING_UNKNOWN:
    default:
      text = g_strdup (tr ? _("unknown: no hang state written") : "unknown: no hang state written");
      break;
    }
  g_free (call);
  return text;
}

static void
append_ranks (GString *out, const int *ranks, size_t n)
{
  g_string_append_c (out, '[');
  for (size_t i = 0; i < n; i++)
    g_string_append_printf (out, i > 0 ? ", %d" : "%d", ranks[i]);
  g_string_append_c (out, ']');
}

static char *
render_json (const TprofHangReport *report)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "{\"hang\": %s, \"function\": ", report->hang ? "true" : "false");
  tprof_cli_json_append_string (out, report->function);
  g_string_append (out, ", \"communicator\": ");
  tprof_cli_json_append_string (out, report->communicator);
  g_string_append_printf (out, ", \"sequence\": %" PRIu64 ", \"waiting_ranks\": ", report->sequence);
  append_ranks (out, report->waiting, report->n_waiting);
  g_string_append (out, ", \"missing_ranks\": ");
  append_ranks (out, report->missing, report->n_missing);
  g_string_append (out, ", \"ranks\": [");
  for (size_t i = 0; i < report->n_ranks; i++)
    {
      const TprofHangRank *r = &report->ranks[i];
      char *doing = doing_text (r, FALSE);

      g_string_append_printf (out, "%s{\"rank\": %d, \"hostname\": ", i > 0 ? ", " : "", r->rank);
      tprof_cli_json_append_string (out, r->hostname);
      g_string_append (out, ", \"doing\": ");
      tprof_cli_json_append_string (out, doing);
      g_string_append (out, ", \"since\": ");
      tprof_cli_json_append_double (out, r->since);
      g_string_append_c (out, '}');
      g_free (doing);
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

static char *
ranks_text (const int *ranks, size_t n)
{
  GString *out = g_string_new (NULL);

  for (size_t i = 0; i < n; i++)
    g_string_append_printf (out, i > 0 ? ", %d" : "%d", ranks[i]);
  return g_string_free (out, FALSE);
}

/* The verdict in a sentence or two. */
static char *
render_verdict (const TprofHangReport *report)
{
  char *waiting, *missing, *text;

  if (!report->hang)
    return g_strdup (_("No hang seen: no rank wrote that a collective stayed in flight past its timeout.\n"));
  waiting = ranks_text (report->waiting, report->n_waiting);
  missing = ranks_text (report->missing, report->n_missing);
  if (report->n_missing > 0)
    text = g_strdup_printf (_("Hang: rank(s) %s wait in %s on %s (collective %" PRIu64 " there);\n"
                              "rank(s) %s never entered it.\n"),
                            waiting, report->function, report->communicator, report->sequence, missing);
  else
    text = g_strdup_printf (_("Hang: rank(s) %s wait in %s on %s (collective %" PRIu64 " there);\n"
                              "no member is missing from it.\n"),
                            waiting, report->function, report->communicator, report->sequence);
  g_free (waiting);
  g_free (missing);
  return text;
}

static const char *
role_text (TprofHangRole role)
{
  switch (role)
    {
    case TPROF_HANG_WAITING:
      return _("waiting");
    case TPROF_HANG_MISSING:
      return _("missing");
    case TPROF_HANG_OTHER:
    default:
      return "";
    }
}

/* The verdict, then every rank, grouped by host. */
static char *
render_table (const TprofHangReport *report)
{
  const char *headers[] = { _("Host"), _("Rank"), _("Role"), _("Doing"), _("Since (s)") };
  gboolean left[G_N_ELEMENTS (headers)] = { TRUE, FALSE, TRUE, TRUE, FALSE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  char *verdict = render_verdict (report), *rows, *text;

  for (size_t i = 0; i < report->n_ranks; i++)
    {
      const TprofHangRank *r = &report->ranks[i];
      gboolean same_host = i > 0 && g_str_equal (report->ranks[i - 1].hostname, r->hostname);
      char *cells[] = {
        same_host ? g_strdup ("") : tprof_cli_escape (r->hostname[0] != '\0' ? r->hostname : "?"),
        g_strdup_printf ("%d", r->rank),
        g_strdup (role_text (r->role)),
        doing_text (r, TRUE),
        isnan (r->since) ? g_strdup ("—") : g_strdup_printf ("%.3f", r->since),
      };

      tprof_cli_table_add_row (table, cells);
    }
  rows = tprof_cli_table_free_to_string (table);
  text = g_strconcat (verdict, "\n", rows, NULL);
  g_free (verdict);
  g_free (rows);
  return text;
}

static int
run (const char *dir, TprofCliFormat format)
{
  TprofError error = { 0 };
  TprofHangJob *job = tprof_hang_job_read (dir, &error);
  const TprofHangRankInput *ranks;
  TprofHangReport *report;
  size_t n;
  char *text;
  int status;

  if (job == NULL)
    return tprof_cli_library_error (dir, &error);
  for (size_t i = 0; i < tprof_hang_job_n_problems (job); i++)
    {
      char *problem = tprof_cli_escape (tprof_hang_job_problem (job, i));

      g_printerr (_("tprof: warning: %s\n"), problem);
      g_free (problem);
    }
  ranks = tprof_hang_job_ranks (job, &n);
  report = tprof_hang_decide (ranks, n);
  if (report == NULL)
    {
      tprof_hang_job_free (job);
      return tprof_cli_file_error (dir, "%s", g_strerror (ENOMEM));
    }
  text = format == TPROF_CLI_FORMAT_JSON ? render_json (report) : render_table (report);
  status = tprof_cli_print (text);
  if (status == TPROF_CLI_EXIT_OK && report->hang)
    status = TPROF_CLI_EXIT_HANG;
  g_free (text);
  tprof_hang_report_free (report);
  tprof_hang_job_free (job);
  return status;
}

int
tprof_cli_hang (int argc, char **argv)
{
  char *format_text = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text, N_("Output format: table (default) or json"),
      N_("FORMAT") },
    { NULL }
  };
  GOptionContext *context;
  TprofCliFormat format = TPROF_CLI_FORMAT_TABLE;
  const char *dir = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("hang", _("DIR"),
                                   _("Reads the spill files a job left in DIR (tprof-run --spill DIR "
                                     "--hang-timeout SECS) and names the collective its ranks wait in "
                                     "(communicator, its sequence number there, function), the ranks "
                                     "that never entered it, and what every rank does instead, grouped "
                                     "by host."),
                                   _("Each rank's watchdog writes its state when one MPI call stays in "
                                     "flight longer than the timeout. The collective named is the one the "
                                     "most ranks wait in; a member of its communicator that neither waits "
                                     "in it nor left it is missing. Times are seconds on the job's "
                                     "timeline (rank clocks put on rank 0's; 0 is when spilling began).\n\n"
                                     "Exit status: 0 when no hang is seen, 4 when one is, 1 when DIR "
                                     "cannot be read or holds no usable spill file, 2 on a usage error."),
                                   entries);
  if (!tprof_cli_parse (context, "hang", &argc, &argv, 1, (const char *[]) { "DIR" }, &dir, &status))
    goto out;
  if (!tprof_cli_parse_format ("hang", format_text, &format, &status))
    goto out;
  if (format == TPROF_CLI_FORMAT_CSV)
    {
      status = tprof_cli_usage_error ("hang", _("invalid --format \"csv\": expected table or json"));
      goto out;
    }
  status = run (dir, format);

out:
  g_option_context_free (context);
  g_free (format_text);
  return status;
}
