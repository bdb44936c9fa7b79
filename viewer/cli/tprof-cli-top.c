/* tprof-cli-top.c — `tprof top`: a running job's operations, straggler, stopped ranks and progress, refreshed from its spill files. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-top.h"

#define DEFAULT_INTERVAL 2.0

static volatile sig_atomic_t interrupted;

static void
on_signal (int signum)
{
  (void) signum;
  interrupted = 1;
}

static void
catch_signals (void)
{
  struct sigaction action = { 0 };

  action.sa_handler = on_signal;
  sigemptyset (&action.sa_mask);
  sigaction (SIGINT, &action, NULL);
  sigaction (SIGTERM, &action, NULL);
}

/* Sleeps @seconds, or less when interrupted. */
static void
wait_interval (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * 1e6);

  while (!interrupted && g_get_monotonic_time () < until)
    g_usleep ((gulong) MIN (until - g_get_monotonic_time (), 50000));
}

static double
wall_now (void)
{
  return (double) g_get_real_time () * 1e-6;
}

const char *
tprof_cli_top_profile (const TprofSpillLive *sl)
{
  for (int r = 0; r < sl->job->world_size; r++)
    if (sl->ranks[r].profile_path != NULL && *sl->ranks[r].profile_path != '\0')
      return sl->ranks[r].profile_path;
  return NULL;
}

/* The ranks whose spill file never appeared, as "3,5-7"; NULL when none. */
static char *
never_reported (const TprofSpillLive *sl,
                guint                *n)
{
  g_autoptr (GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (gint32 r = 0; r < sl->job->world_size; r++)
    if (!sl->ranks[r].has_file)
      g_array_append_val (ranks, r);
  *n = ranks->len;
  return ranks->len > 0 ? tprof_rank_expr_format ((const gint32 *) ranks->data, ranks->len) : NULL;
}

/* The lines printed when every rank with a file wrote END. */
static void
print_end (const TprofSpillLive *sl)
{
  const char *path = tprof_cli_top_profile (sl);
  guint n = 0;
  g_autofree char *absent = never_reported (sl, &n);

  if (absent != NULL)
    /* TRANSLATORS: %s is a rank expression (3,5-7) of ranks whose spill file never appeared */
    g_print (g_dngettext (GETTEXT_PACKAGE, "Rank %s never reported: it has no spill file.\n",
                          "Ranks %s never reported: they have no spill file.\n", n), absent);

  if (path != NULL)
    {
      g_autofree char *shown = tprof_cli_escape (path);

      g_print (_("The job ended; its profile is %s\n"), shown);
    }
  else
    g_print ("%s\n", _("The job ended without writing its profile; \"tprof merge\" makes one from its spill files."));
}

static int
follow (TprofSpillLive *sl,
        const char     *dir,
        double          interval,
        gboolean        once,
        gboolean        json)
{
  TprofCliTopProgress progress = { .rate = NAN, .op = -1 };
  gboolean tty = !json && isatty (STDOUT_FILENO);
  int status = TPROF_CLI_EXIT_OK;

  catch_signals ();
  for (;;)
    {
      TprofError error = { 0 };
      g_autofree char *text = NULL;

      if (progress.when > 0 && _tprof_spill_live_refresh (sl, &error) < 0)
        {
          status = tprof_cli_library_error (dir, &error);
          tprof_error_clear (&error);
          break;
        }
      tprof_cli_top_progress_update (&progress, sl->live, g_get_monotonic_time ());
      text = json ? tprof_cli_top_render_json (sl, &progress, wall_now ()) : tprof_cli_top_render (sl, &progress, wall_now ());
      if (tty)
        g_print ("\033[H\033[2J");
      status = tprof_cli_print (text);
      if (!tty && !json && status == TPROF_CLI_EXIT_OK)
        status = tprof_cli_print ("\n");
      if (status != TPROF_CLI_EXIT_OK)
        break;
      if (_tprof_spill_live_ended (sl))
        {
          if (!json)
            print_end (sl);
          break;
        }
      if (once)
        break;
      wait_interval (interval);
      if (interrupted)
        break;
    }
  g_free (progress.occurrences);
  return status;
}

static gboolean
parse_interval (const char *text,
                double     *interval,
                int        *status)
{
  char *end = NULL;

  *interval = DEFAULT_INTERVAL;
  if (text == NULL)
    return TRUE;
  *interval = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(*interval >= 0.05 && *interval <= 3600.0))
    {
      *status = tprof_cli_usage_error ("top", _("--interval \"%s\": not a number of seconds from 0.05 to 3600"),
                                       text);
      return FALSE;
    }
  return TRUE;
}

/* A job that ended cleanly and removed its spill files left a note
 * naming its profile: said instead of "no spill file". Its exit status,
 * or -1 when there is no such note. */
static int
print_ended (const char *dir,
             const char *token,
             gboolean    json)
{
  char found[17];
  g_autofree char *profile = _tprof_spill_dir_ended (dir, token, found);
  g_autofree char *shown = NULL;

  if (profile == NULL)
    return -1;
  if (json)
    {
      g_autoptr (GString) out = g_string_new ("{\"time\": ");

      tprof_cli_json_append_double (out, wall_now ());
      g_string_append (out, ", \"job\": ");
      tprof_cli_json_append_string (out, found);
      g_string_append (out, ", \"ended\": true, \"profile\": ");
      tprof_cli_json_append_string (out, profile);
      g_string_append (out, "}\n");
      return tprof_cli_print (out->str);
    }
  shown = tprof_cli_escape (profile);
  g_print (_("The job %s ended cleanly and removed its spill files; its profile is %s\n"), found, shown);
  return TPROF_CLI_EXIT_OK;
}

static int
run (const char *dir,
     const char *token,
     double      interval,
     gboolean    once,
     gboolean    json)
{
  TprofError error = { 0 };
  TprofSpillLive *sl;
  int status;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return tprof_cli_file_error (dir, "%s", _("not a directory of spill files"));
  sl = _tprof_spill_live_open (dir, token, &error);
  if (sl == NULL && (status = print_ended (dir, token, json)) >= 0)
    {
      tprof_error_clear (&error);
      return status;
    }
  if (sl == NULL)
    {
      status = tprof_cli_library_error (dir, &error);
      tprof_error_clear (&error);
      return status;
    }
  status = follow (sl, dir, interval, once, json);
  _tprof_spill_live_free (sl);
  return status;
}

int
tprof_cli_top (int    argc,
               char **argv)
{
  char *interval_text = NULL, *token = NULL, *format_text = NULL;
  gboolean once = FALSE;
  TprofCliFormat format = TPROF_CLI_FORMAT_TABLE;
  const GOptionEntry entries[] = {
    { "interval", 'n', 0, G_OPTION_ARG_STRING, &interval_text,
      N_("Seconds between refreshes (default 2)"), N_("SECS") },
    { "once", 0, 0, G_OPTION_ARG_NONE, &once, N_("Print one refresh and exit"), NULL },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default) or json (one object per refresh, on its own line)"), N_("FORMAT") },
    { "job", 0, 0, G_OPTION_ARG_STRING, &token,
      N_("The job to follow when the directory holds several (its 16-digit token)"), N_("TOKEN") },
    { NULL }
  };
  GOptionContext *context;
  const char *dir = NULL;
  double interval;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("top", _("DIR"),
                                   _("Follows a running job through the spill files its ranks append to "
                                     "DIR: the operations so far (count, mean, total), the straggler so "
                                     "far with its confidence, the ranks that stopped reporting (by host), "
                                     "the job's rate of progress, and the files that are missing or "
                                     "damaged. Refreshes in place on a terminal; otherwise prints one "
                                     "block of plain text per refresh."),
                                   _("Each refresh reads only what the files gained since the last one. "
                                     "Occurrence k of an operation counts once every rank has its k-th "
                                     "sample, except the ranks that ended or whose file is damaged before "
                                     "it; the straggler is named by the rule of \"tprof stragglers\" "
                                     "over the occurrences complete so far. A rank stopped reporting "
                                     "when it wrote no flush for 3 of its spill intervals. Exits on "
                                     "Ctrl+C, and by itself when every rank that has a spill file has "
                                     "ended, naming the profile the job wrote and the ranks that never "
                                     "reported."),
                                   entries);
  if (tprof_cli_parse (context, "top", &argc, &argv, 1, (const char *[]) { "DIR" }, &dir, &status)
      && parse_interval (interval_text, &interval, &status)
      && tprof_cli_parse_format ("top", format_text, &format, &status))
    {
      if (format == TPROF_CLI_FORMAT_CSV)
        status = tprof_cli_usage_error ("top", _("invalid --format \"csv\": expected table or json"));
      else
        status = run (dir, token, interval, once, format == TPROF_CLI_FORMAT_JSON);
    }
  g_option_context_free (context);
  g_free (format_text);
  g_free (interval_text);
  g_free (token);
  return status;
}
