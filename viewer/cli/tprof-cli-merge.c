/* tprof-cli-merge.c — `tprof merge`: one profile from the spill files a running, killed or hung job left in a directory. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"
#include "tprof-spill-merge-internal.h"

/* "A (4 files), B (2 files)" */
static char *
job_list (const TprofSpillDirJob *jobs,
          gssize                  n)
{
  GString *out = g_string_new (NULL);

  for (gssize j = 0; j < n; j++)
    {
      if (j > 0)
        g_string_append (out, ", ");
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s (%zu file)", "%s (%zu files)", jobs[j].n_files),
                              jobs[j].token, jobs[j].n_files);
    }
  return g_string_free (out, FALSE);
}

/* The job to merge, or NULL with *@status set after printing why. */
static TprofSpillJob *
open_job (const char *dir,
          const char *token,
          int        *status)
{
  TprofSpillDirJob *jobs;
  TprofError error = { 0 };
  gssize n = _tprof_spill_dir_jobs (dir, &jobs, &error);
  g_autofree char *list = NULL;
  gboolean found = FALSE;
  TprofSpillJob *job = NULL;

  *status = TPROF_CLI_EXIT_FAILED;
  if (n < 0)
    {
      tprof_cli_library_error (dir, &error);
      return NULL;
    }
  list = job_list (jobs, n);
  for (gssize j = 0; j < n; j++)
    found = found || (token != NULL && g_str_equal (jobs[j].token, token));
  if (n == 0)
    tprof_cli_file_error (dir, "%s", _("holds no spill file (tprof-JOB-RANK.spill)"));
  else if (token == NULL && n > 1)
    *status = tprof_cli_usage_error ("merge", _("%s holds the spill files of %zd jobs: %s; choose one with --job"),
                                     dir, n, list);
  else if (token != NULL && !found)
    tprof_cli_file_error (dir, _("holds no spill file of job %s; its jobs: %s"), token, list);
  else if ((job = _tprof_spill_job_open (dir, token, &error)) == NULL)
    tprof_cli_library_error (dir, &error);
  free (jobs);
  return job;
}

/* Names on stderr every file of @job not used, every rank without a file,
 * and every damaged tail. */
static void
report_problems (const char                  *dir,
                 const TprofSpillJob         *job,
                 const TprofSpillMergeReport *report)
{
  for (size_t i = 0; i < job->n_refused; i++)
    tprof_cli_file_error (job->refused[i].path, _("not used: %s"), job->refused[i].problem);
  for (int r = 0; r < report->world_size; r++)
    {
      const TprofSpillMergeRank *rank = &report->ranks[r];

      if (!rank->has_file)
        tprof_cli_file_error (dir, _("rank %d has no usable spill file: the profile has no data of it"), r);
      else if (rank->status.tail == TPROF_SPILL_TAIL_DAMAGED)
        tprof_cli_file_error (_tprof_spill_reader_path (job->readers[r]),
                              _("damaged at byte %" PRIu64 " (%s): rank %d's samples before it are kept"),
                              rank->status.tail_offset, rank->status.problem, r);
    }
}

/* How a rank's file ends, for the table. */
static char *
file_state (const TprofSpillMergeRank *rank)
{
  if (!rank->has_file)
    return g_strdup (_("no file"));
  if (rank->status.tail == TPROF_SPILL_TAIL_DAMAGED)
    return g_strdup_printf (_("damaged at byte %" PRIu64), rank->status.tail_offset);
  if (rank->ended)
    return g_strdup (_("ended"));
  if (rank->signal != 0)
    return g_strdup_printf (_("signal %d"), (int) rank->signal);
  if (rank->status.tail == TPROF_SPILL_TAIL_UNFINISHED)
    return g_strdup_printf (_("unfinished flush at byte %" PRIu64), rank->status.tail_offset);
  return g_strdup (_("complete"));
}

/* What was merged, and per rank until when it has data. */
static int
print_report (const char                  *out_path,
              const TprofSpillJob         *job,
              const TprofSpillMergeReport *report)
{
  const char *headers[] = { _("rank"), _("host"), _("samples"), _("flushes"), _("data until (s)"), _("file") };
  const gboolean left[] = { FALSE, TRUE, FALSE, FALSE, FALSE, TRUE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  g_autofree char *escaped = tprof_cli_escape (out_path);
  g_autofree char *text = NULL;
  GString *out = g_string_new (NULL);
  int status;

  g_string_append_printf (out, _("%s: %" PRIu64 " samples of %zu operations from %d of %d ranks (job %s)\n"),
                          escaped, report->samples, report->operations, report->ranks_with_data,
                          report->world_size, job->token);
  for (int r = 0; r < report->world_size; r++)
    {
      const TprofSpillMergeRank *rank = &report->ranks[r];
      /* the profile's host names are the headers' */
      const char *host = job->readers[r] != NULL ? _tprof_spill_reader_header (job->readers[r])->host : NULL;
      char *cells[] = {
        g_strdup_printf ("%d", r),
        tprof_cli_escape (host != NULL && host[0] != '\0' ? host : "—"),
        g_strdup_printf ("%" PRIu64, rank->samples),
        g_strdup_printf ("%" PRIu64, rank->flushes),
        isnan (rank->data_until) ? g_strdup ("—") : g_strdup_printf ("%.3f", rank->data_until),
        file_state (rank),
      };

      tprof_cli_table_add_row (table, cells);
    }
  text = tprof_cli_table_free_to_string (table);
  g_string_append (out, text);
  status = tprof_cli_print (out->str);
  g_string_free (out, TRUE);
  return status;
}

static int
run (const char *dir,
     const char *out_path,
     const char *token)
{
  TprofSpillMergeReport report = { 0 };
  TprofError error = { 0 };
  TprofSpillJob *job;
  int status;

  job = open_job (dir, token, &status);
  if (job == NULL)
    return status;
  if (job->n_readers == 0)
    {
      report_problems (dir, job, &(TprofSpillMergeReport) { 0 });
      status = tprof_cli_file_error (dir, _("none of the %zu spill files of job %s is readable"),
                                     job->n_refused, job->token);
      _tprof_spill_job_free (job);
      return status;
    }
  /* merged and written in one go, without holding the samples */
  if (_tprof_spill_merge_save (job, out_path, &report, &error) != 0)
    {
      /* read whole: what it read is said before why it was not written */
      if (report.saving)
        report_problems (dir, job, &report);
      status = tprof_cli_library_error (report.saving ? out_path : dir, &error);
    }
  else
    {
      report_problems (dir, job, &report);
      status = print_report (out_path, job, &report);
    }
  _tprof_spill_merge_report_clear (&report);
  _tprof_spill_job_free (job);
  return status;
}

int
tprof_cli_merge (int    argc,
                 char **argv)
{
  g_autofree char *out_path = NULL, *token = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_path, N_("The profile to write (required)"), N_("OUT") },
    { "job", 0, 0, G_OPTION_ARG_STRING, &token, N_("The job to merge, by its token, when DIR holds several"), N_("TOKEN") },
    { NULL }
  };
  GOptionContext *context;
  const char *files[1] = { NULL };
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("merge", _("DIR"),
                                   _("Writes one profile from the spill files (tprof-JOB-RANK.spill) that a "
                                     "job run with TPROF_SPILL_DIR or tprof-run --spill left in DIR: after it "
                                     "was killed, crashed or hung, or while it still runs."),
                                   _("Every flush a rank committed is read; its samples are put on one "
                                     "timeline with the clock offsets of the files' headers, which the profile "
                                     "keeps. The profile says, and this command prints, until when each rank "
                                     "has data (/ranks/data_until). A rank without a file, a file that cannot be "
                                     "used and a damaged file are named on standard error; the samples of the "
                                     "others (and those before the damage) are kept. The exit status is 1 only "
                                     "when no file is readable or OUT cannot be written; OUT is written through "
                                     "a temporary file and replaced only when complete."),
                                   entries);
  if (tprof_cli_parse (context, "merge", &argc, &argv, 1, (const char *[]) { "DIR" }, files, &status))
    {
      if (out_path == NULL)
        status = tprof_cli_usage_error ("merge", "%s", _("the profile to write is missing (-o OUT)"));
      else
        status = run (files[0], out_path, token);
    }
  g_option_context_free (context);
  return status;
}
