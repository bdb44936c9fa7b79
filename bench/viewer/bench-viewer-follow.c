/* bench-viewer-follow.c — tprof-viewer following a running job: one refresh over 10^6 new samples against the follower's read alone, and the CPU an unchanged spill costs. */
/* SPDX-License-Identifier: MIT */

/* Measured in one run on one spill folder (16 ranks x 3 operations):
 *   baseline   libcapture's follower reading and analysing what was
 *              appended (_tprof_spill_live_refresh(), as `tprof top`);
 *   viewer     the viewer's refresh of the same on the main thread:
 *              TprofFollow's poll and the snapshot profile the window then
 *              shows (its table rows); its worker's std and quantiles of
 *              every sample kept so far are timed apart (from the refresh's
 *              start until the result is in), since their cost grows with
 *              all that arrived, round after round;
 *   per round  each refresh's wall and CPU time and the page faults it
 *              took (a fresh page is zeroed by the kernel, which no
 *              instruction count shows), so that a cost growing with what
 *              was kept shows round after round; and the viewer's with
 *              its workers (the quantiles, the pages readied for the next
 *              poll), whose work is off the main thread, not gone; under
 *              `valgrind --tool=callgrind --separate-threads=yes` each
 *              refresh is also dumped apart ("round N viewer"), its
 *              instructions the stable measure on a busy machine;
 *   idle       with a display, a window following the folder while nothing
 *              is appended: the process's CPU ticks (/proc/self/stat) over
 *              TPROF_BENCH_IDLE_SECONDS (default 10) at the default poll
 *              interval and at 50 ms. */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_DUMP_STATS_AT
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void) (name))
#endif

#include "bench-spill-writer.h"
#include "tprof-application.h"
#include "tprof-follow.h"
#include "tprof-operation.h"
#include "tprof-spill-live-internal.h"
#include "tprof-window-private.h"

#define PER_REFRESH 1000000
#define ROUNDS      7
/* Before measuring idle: past GTK's cursor blinking (gtk-cursor-blink-timeout,
 * 10 s after the last input), which redraws the focused entry at frame rate. */
#define SETTLE_MS   12000

/* The main thread's CPU time: the quantile worker runs beside it. */
static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The whole process's CPU time: the refresh and its workers. */
static double
process_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The minor page faults this thread (RUSAGE_THREAD) or the process
 * (RUSAGE_SELF) took so far. */
static long
faults_of (int who)
{
  struct rusage usage;

  getrusage (who, &usage);
  return usage.ru_minflt;
}

static long
faults (void)
{
  return faults_of (RUSAGE_THREAD);
}

/* utime + stime of this process, in clock ticks. */
static long
cpu_ticks (void)
{
  g_autofree char *stat = NULL;
  const char *p;
  unsigned long utime = 0, stime = 0;

  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL) || (p = strrchr (stat, ')')) == NULL)
    return -1;
  /* after "pid (comm)": state, then fields 4..13, utime and stime are 14 and 15 */
  if (sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
    return -1;
  return (long) (utime + stime);
}

/* What the window does on "updated": the snapshot and its table rows. */
static gsize
viewer_refresh (TprofFollow *follow)
{
  g_autoptr(TprofProfile) profile = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  _tprof_follow_poll (follow);
  profile = _tprof_follow_snapshot (follow);
  for (gsize op = 0; op < _tprof_profile_get_n_operations (profile); op++)
    g_ptr_array_add (rows, _tprof_operation_new (_tprof_profile_get_name (profile, op), op,
                                                 _tprof_profile_get_summary (profile, op)));
  return rows->len;
}

/* Iterates the main context until @follow's quantile worker is done. */
static void
wait_quantiles (TprofFollow *follow)
{
  while (_tprof_follow_is_computing (follow))
    g_main_context_iteration (NULL, TRUE);
}

static void
bench_refresh (const char *dir,
               BenchRank  *ranks)
{
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(TprofFollow) follow = _tprof_follow_new (file, &error);
  TprofError tprof_error = { 0 };
  TprofSpillLive *plain = _tprof_spill_live_open (dir, NULL, &tprof_error);
  size_t steps = PER_REFRESH / (BENCH_WORLD * BENCH_N_OPS);
  double best_plain = INFINITY, best_viewer = INFINITY, cpu_plain = INFINITY, cpu_viewer = INFINITY;
  double last_viewer = 0, last_plain = 0, first_ready = 0, last_ready = 0;

  if (follow == NULL || plain == NULL)
    g_error ("cannot follow %s: %s", dir, follow == NULL ? error->message : tprof_error.message);
  wait_quantiles (follow);
  for (int round = 0; round < ROUNDS; round++)
    {
      double t, c, pc, ready = 0;
      long f, pf;

      for (int r = 0; r < BENCH_WORLD; r++)
        bench_rank_flush (&ranks[r], r, steps);
      /* the two in turns, so that neither always finds the bytes cached first */
      for (int which = 0; which < 2; which++)
        {
          gboolean viewer_first = round % 2 == 0;
          gboolean viewer = which == 0 ? viewer_first : !viewer_first;

          CALLGRIND_ZERO_STATS;
          pf = faults_of (RUSAGE_SELF);
          pc = process_cpu_s ();
          f = faults ();
          c = cpu_s ();
          t = bench_now_s ();
          if (viewer)
            g_assert (viewer_refresh (follow) == BENCH_N_OPS);
          else if (_tprof_spill_live_refresh (plain, &tprof_error) < 0)
            g_error ("%s", tprof_error.message);
          c = cpu_s () - c;
          f = faults () - f;
          {
            char name[64];

            snprintf (name, sizeof name, "round %d %s", round + 1, viewer ? "viewer" : "follower");
            CALLGRIND_DUMP_STATS_AT (name);
          }
          printf ("  round %d, %d x 10^6 kept: %-8s %7.2f ms wall, %7.2f ms CPU, %6ld page faults\n", round + 1,
                  round + 1, viewer ? "viewer" : "follower", (bench_now_s () - t) * 1e3, c * 1e3, f);
          if (viewer)
            {
              double start = t;

              t = bench_now_s () - start;
              /* the workers' figures and pages, before the follower is timed again */
              wait_quantiles (follow);
              ready = bench_now_s () - start;
              /* what the workers did off the main thread is moved, not gone */
              printf ("    with its workers (quantiles, the next poll's pages): %7.2f ms CPU, %6ld page faults, "
                      "done %7.2f ms after it began\n", (process_cpu_s () - pc) * 1e3, faults_of (RUSAGE_SELF) - pf,
                      ready * 1e3);
              best_viewer = fmin (best_viewer, t);
              cpu_viewer = fmin (cpu_viewer, c);
              last_viewer = t;
            }
          else
            {
              t = bench_now_s () - t;
              best_plain = fmin (best_plain, t);
              cpu_plain = fmin (cpu_plain, c);
              last_plain = t;
            }
        }
      if (round == 0)
        first_ready = ready;
      last_ready = ready;
    }
  printf ("refresh with %zu new samples (%d ranks x %d operations), best of %d:\n", steps * BENCH_WORLD * BENCH_N_OPS,
          BENCH_WORLD, BENCH_N_OPS, ROUNDS);
  printf ("  follower read + analysis alone (baseline): %7.2f ms\n", best_plain * 1e3);
  printf ("  viewer refresh (poll + snapshot + rows):   %7.2f ms  (target <= 100 ms)\n", best_viewer * 1e3);
  printf ("  ratio viewer / baseline: %.3f\n", best_viewer / best_plain);
  printf ("  main thread's CPU time (a busy machine's wall time hides it): baseline %.2f ms, viewer %.2f ms, "
          "ratio %.3f\n", cpu_plain * 1e3, cpu_viewer * 1e3, cpu_viewer / cpu_plain);
  printf ("  last round, %d x 10^6 samples kept: baseline %.2f ms, viewer %.2f ms, ratio %.3f\n", ROUNDS,
          last_plain * 1e3, last_viewer * 1e3, last_viewer / last_plain);
  printf ("  std and quantiles of all kept (worker, off the main thread) shown %.2f ms after the refresh "
          "began with 10^6 kept, %.2f ms with %d x 10^6\n", first_ready * 1e3, last_ready * 1e3, ROUNDS);
  _tprof_spill_live_free (plain);
}

static void
count_paint (guint *n)
{
  (*n)++;
}

static gboolean
stop_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* A window following @dir, nothing appended, for @seconds: CPU ticks. */
static long
idle_ticks (TprofApplication *app,
            const char       *dir,
            guint             interval_ms,
            double            seconds,
            guint64          *polls,
            guint            *frames)
{
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  TprofWindow *window = _tprof_window_new (app);
  gboolean done = FALSE;
  long before;
  guint paints = 0;

  gtk_window_present (GTK_WINDOW (window));
  _tprof_window_open (window, file);
  if (window->follow == NULL)
    g_error ("the window does not follow %s: %s", dir, _tprof_window_get_error (window));
  _tprof_follow_set_interval (window->follow, interval_ms);
  /* settle: the first frames drawn, the cursor stopped blinking */
  g_timeout_add (SETTLE_MS, stop_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  *polls = _tprof_follow_get_n_reads (window->follow);
  g_signal_connect_swapped (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint", G_CALLBACK (count_paint), &paints);
  before = cpu_ticks ();
  done = FALSE;
  g_timeout_add ((guint) (seconds * 1000), stop_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  *polls = _tprof_follow_get_n_reads (window->follow) - *polls;
  before = cpu_ticks () - before;
  *frames = paints;
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return before;
}

static void
bench_idle (const char *dir)
{
  const char *env = g_getenv ("TPROF_BENCH_IDLE_SECONDS");
  double seconds = env != NULL ? g_ascii_strtod (env, NULL) : 10.0;
  const guint intervals[] = { TPROF_FOLLOW_DEFAULT_INTERVAL_MS, 50 };
  TprofApplication *app;
  g_autoptr(GError) error = NULL;
  long hz = sysconf (_SC_CLK_TCK);

  if (!gtk_init_check ())
    {
      printf ("idle: no display, not measured (run under xvfb-run)\n");
      return;
    }
  app = _tprof_application_new (G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("%s", error->message);
  g_application_hold (G_APPLICATION (app));
  for (guint i = 0; i < G_N_ELEMENTS (intervals); i++)
    {
      guint64 polls = 0;
      guint frames = 0;
      long ticks = idle_ticks (app, dir, intervals[i], seconds, &polls, &frames);

      printf ("idle, a window following an unchanged spill, polls every %u ms: %ld ticks of %ld Hz in %.0f s "
              "= %.2f %% of one CPU (%" G_GUINT64_FORMAT " polls, %u frames drawn)\n",
              intervals[i], ticks, hz, seconds, 100.0 * (double) ticks / (double) hz / seconds, polls, frames);
    }
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
}

int
main (void)
{
  g_autofree char *root = g_dir_make_tmp ("bench-follow-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (root, "spill", NULL);
  g_autofree char *command = NULL;
  BenchRank ranks[BENCH_WORLD] = { 0 };

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  /* the window's recent files go to the benchmark's folder, not the user's */
  g_setenv ("XDG_DATA_HOME", root, TRUE);
  g_set_prgname ("bench-viewer-follow");
  if (root == NULL || g_mkdir (dir, 0700) != 0)
    return 1;
  for (int r = 0; r < BENCH_WORLD; r++)
    {
      bench_rank_start (&ranks[r], dir, r);
      bench_rank_flush (&ranks[r], r, 1);
    }
  bench_refresh (dir, ranks);
  bench_idle (dir);
  for (int r = 0; r < BENCH_WORLD; r++)
    close (ranks[r].fd);
  command = g_strdup_printf ("rm -rf '%s'", root);
  return system (command) == 0 ? 0 : 1;
}
