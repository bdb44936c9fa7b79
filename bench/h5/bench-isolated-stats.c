/* bench-isolated-stats.c — what the viewer's open costs the library on many ranks: open and every operation's statistics, through the isolated reader against in process, in the same run. */
/* SPDX-License-Identifier: MIT */

/* The profile: PROFILE (the first argument), else tools/make-scenario.py
 * slow-node on TPROF_BENCH_RANKS ranks (default 10^5), 20 steps, written
 * into a temporary directory by the Python of the build (SCENARIO_PYTHON,
 * SCENARIO_SCRIPT). Measured, each in a fresh TprofProfileFile:
 *   open    tprof_profile_file_open{,_isolated}();
 *   stats   tprof_profile_file_operation_stats() of every operation, as
 *           the viewer asks for them before it shows its table.
 * Runs alternate between the two readers, with a pause after each (the
 * helper a close starts ahead of the next open is not timed starting;
 * TPROF_READER_SPARE=0 times it in each open); medians of N_RUNS.
 * TPROF_BENCH_ONLY=isolated or =in-process makes one run of that reader
 * alone and prints nothing: for `perf stat -e instructions`, which counts
 * the helper too. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <tprof/capture.h>

#define N_RUNS 5
/* longer than a helper's start on a busy machine */
#define SETTLE_US 500000

typedef TprofProfileFile *(*OpenFunc) (const char *path, TprofError *error);

typedef struct
{
  double open_ms;
  double stats_ms;
} Timing;

static double
elapsed_ms (gint64 since)
{
  return (g_get_monotonic_time () - since) / 1e3;
}

static Timing
time_open_stats (OpenFunc    open,
                 const char *path)
{
  TprofError error = { 0 };
  gint64 start = g_get_monotonic_time ();
  TprofProfileFile *pf = open (path, &error);
  Timing t;

  if (pf == NULL)
    g_error ("%s", error.message);
  t.open_ms = elapsed_ms (start);
  start = g_get_monotonic_time ();
  for (size_t op = 0; op < tprof_profile_file_n_operations (pf); op++)
    if (tprof_profile_file_operation_stats (pf, op, &error) == NULL)
      g_error ("%s", error.message);
  t.stats_ms = elapsed_ms (start);
  tprof_profile_file_close (pf);
  return t;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *values)
{
  qsort (values, N_RUNS, sizeof *values, compare_doubles);
  return values[N_RUNS / 2];
}

static void
report (const char *what,
        double     *here,
        double     *apart)
{
  double h = median (here), a = median (apart);

  printf ("  %-32s in process %7.1f ms, isolated %7.1f ms (medians of %d) = %.2fx\n", what, h, a, N_RUNS, a / h);
}

static char *
make_scenario (const char *dir,
               const char *ranks)
{
  char *path = g_build_filename (dir, "slow-node.h5", NULL);
  const char *argv[] = { SCENARIO_PYTHON, SCENARIO_SCRIPT, "slow-node", path, "--ranks", ranks, "--steps", "20",
                         NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                     &error) || !g_spawn_check_wait_status (status, &error))
    g_error ("make-scenario.py: %s", error->message);
  return path;
}

int
main (int    argc,
      char **argv)
{
  const char *ranks = g_getenv ("TPROF_BENCH_RANKS") != NULL ? g_getenv ("TPROF_BENCH_RANKS") : "100000";
  g_autofree char *dir = NULL;
  g_autofree char *made = NULL;
  const char *only = g_getenv ("TPROF_BENCH_ONLY");
  const char *path;
  double open_here[N_RUNS], open_apart[N_RUNS], stats_here[N_RUNS], stats_apart[N_RUNS];
  double total_here[N_RUNS], total_apart[N_RUNS];

  if (argc > 1)
    path = argv[1];
  else
    {
      dir = g_dir_make_tmp ("tprof-bench-isolated-stats-XXXXXX", NULL);
      path = made = make_scenario (dir, ranks);
    }
  /* as the viewer does: a helper kept started ahead of each open */
  tprof_profile_file_keep_helper_ready ();
  if (only != NULL)
    {
      time_open_stats (strcmp (only, "isolated") == 0 ? tprof_profile_file_open_isolated : tprof_profile_file_open,
                       path);
      if (made != NULL)
        {
          g_unlink (made);
          g_rmdir (dir);
        }
      return 0;
    }
  for (int i = 0; i < N_RUNS; i++)
    {
      Timing t;

      sync ();
      t = time_open_stats (tprof_profile_file_open, path);
      open_here[i] = t.open_ms;
      stats_here[i] = t.stats_ms;
      g_usleep (SETTLE_US);
      sync ();
      t = time_open_stats (tprof_profile_file_open_isolated, path);
      open_apart[i] = t.open_ms;
      stats_apart[i] = t.stats_ms;
      g_usleep (SETTLE_US);
    }
  printf ("bench-isolated-stats: %s\n", path);
  report ("open:", open_here, open_apart);
  report ("every operation's statistics:", stats_here, stats_apart);
  for (int i = 0; i < N_RUNS; i++)
    {
      total_here[i] = open_here[i] + stats_here[i];
      total_apart[i] = open_apart[i] + stats_apart[i];
    }
  report ("open and statistics:", total_here, total_apart);
  if (made != NULL)
    {
      g_unlink (made);
      g_rmdir (dir);
    }
  return 0;
}
