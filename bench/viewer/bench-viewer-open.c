/* bench-viewer-open.c — tprof-viewer opening a large profile: time to the table, to one operation's charts, a filter change, and peak memory. */
/* SPDX-License-Identifier: MIT */

/* The profile: 1024 ranks x 10 operations with a timeline, 10^8 samples in
 * all (TPROF_BENCH_SAMPLES sets another size; 10^9 makes a 24 GB file and
 * is not for CI; TPROF_BENCH_TIMELINE=0 leaves the starts and threads out,
 * 12 bytes a sample, so that 10^9 samples can be written in 24 GB). It is written once by a child process into
 * TPROF_BENCH_FILE (default /tmp/tprof-bench-open-N.h5) and kept, so that
 * this process's peak RSS is the viewer's alone.
 *
 * Measured, with the viewer's own TprofProfile (the window's code):
 *   open       load until the table can show (metadata and cache);
 *   select     read and index one operation, then its histogram and rank
 *              chart: what selecting it costs; against the same operation
 *              read in-process by libcapture (the floor of any reader);
 *   filter     a rank-filter change on it: statistics + histogram;
 *   peak RSS   against the selected operation's sample bytes (its
 *              durations and starts), while the straggler search runs in
 *              the background as it does in the window. */

#include "config.h"

#include "bench-rss.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tprof-profile.h"

#define WORLD 1024
#define N_OPS 10

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* xorshift64*: fast, reproducible, good enough for timings */
static inline guint64
next_random (guint64 *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 2685821657736338717ull;
}

static inline double
uniform (guint64 *state)
{
  return ((next_random (state) >> 11) + 0.5) / 9007199254740992.0;
}

/* Operation @op: every rank times it @per_rank times, one occurrence per
 * 0.1 s step; durations log-normal around 1..10 ms, rank 777 1.5x slower. */
static gboolean with_timeline = TRUE;

static TprofGatheredTime *
make_operation (int     op,
                gsize   per_rank)
{
  gsize n = per_rank * WORLD;
  double *times = g_new (double, n);
  double *starts = with_timeline ? g_new (double, n) : NULL;
  int32_t *ranks = g_new (int32_t, n);
  int32_t *threads = with_timeline ? g_new0 (int32_t, n) : NULL;
  guint64 state = 0x9E3779B97F4A7C15ull + (guint64) op;
  TprofGatheredTime *gt;

  for (gsize i = 0; i < n; i++)
    {
      int32_t r = (int32_t) (i / per_rank);
      gsize k = i % per_rank;
      double z = sqrt (-2.0 * log (uniform (&state))) * cos (2.0 * G_PI * uniform (&state));

      ranks[i] = r;
      times[i] = 0.001 * (1 + op) * (r == 777 ? 1.5 : 1.0) * exp (0.25 * z);
      if (starts != NULL)
        starts[i] = 0.1 * (double) k + 0.005 * op;
    }
  gt = tprof_gathered_time_new_take (times, ranks, n);
  if (with_timeline && !tprof_gathered_time_set_timeline_take (gt, starts, threads))
    g_error ("out of memory");
  return gt;
}

static void
write_profile (const char *path,
               gsize       n_samples)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  TprofError error = { 0 };
  gsize per_rank = MAX (n_samples / N_OPS / WORLD, 1);

  for (int op = 0; op < N_OPS; op++)
    {
      g_autofree char *name = g_strdup_printf ("op%02d", op);

      if (tprof_profiled_time_add (pt, name, make_operation (op, per_rank), &error) != 0)
        g_error ("%s", error.message);
    }
  if (tprof_profiled_time_save (pt, path, &error) != 0)
    g_error ("%s", error.message);
  tprof_profiled_time_free (pt);
}

/* Written by a child, so that generating it leaves no trace in our RSS. */
static void
ensure_profile (const char *path,
                gsize       n_samples)
{
  pid_t pid;
  int status;
  double t0 = now_s ();

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  printf ("  writing %s (%zu samples, once)...\n", path, n_samples);
  fflush (stdout);
  pid = fork ();
  if (pid == 0)
    {
      write_profile (path, n_samples);
      _exit (0);
    }
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("could not write %s", path);
  printf ("  written in %.1f s\n", now_s () - t0);
}

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

static void
wait_for (Wait *wait)
{
  while (wait->result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

/* What the window computes to draw an operation: its histogram (automatic
 * bins) and each rank's summary, on the ranks of @mask. */
static void
compute_charts (const TprofOperationIndex *index,
                const guint8              *mask)
{
  TprofHistogram *hist = tprof_operation_index_histogram (index, mask, 0, 0);
  size_t n = 0;
  TprofRankSummary *ranks = tprof_operation_index_rank_summaries (index, mask, &n);
  TprofSummary summary;

  if (hist == NULL || ranks == NULL || !tprof_operation_index_summarize (index, mask, &summary))
    g_error ("charts: out of memory");
  tprof_histogram_free (hist);
  free (ranks);
}

int
main (int   argc,
      char *argv[])
{
  const char *size = g_getenv ("TPROF_BENCH_SAMPLES");
  gsize n_samples = size != NULL ? g_ascii_strtoull (size, NULL, 10) : 100000000;
  const char *file_env = g_getenv ("TPROF_BENCH_FILE");
  const char *timeline_env = g_getenv ("TPROF_BENCH_TIMELINE");
  g_autofree char *path = file_env != NULL ? g_strdup (file_env)
                                           : g_strdup_printf ("/tmp/tprof-bench-open-%zu.h5", n_samples);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TprofProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TprofOperationSamples) samples = NULL;
  g_autofree guint8 *mask = g_new0 (guint8, WORLD);
  TprofProfileFile *raw;
  TprofGatheredTime *gt;
  TprofError tprof_error = { 0 };
  Wait opened = { NULL }, read = { NULL };
  const gsize op = N_OPS - 1;
  double t0, open_s, select_s, raw_s, filter_ms[9];
  gsize base_rss, peak_rss, select_peak, op_bytes;
  double iso_s, index_s;
  guint64 op_count;

  with_timeline = timeline_env == NULL || strcmp (timeline_env, "0") != 0;
  if (!with_timeline && file_env == NULL)
    {
      g_free (path);
      path = g_strdup_printf ("/tmp/tprof-bench-open-%zu-no-timeline.h5", n_samples);
      g_object_unref (file);
      file = g_file_new_for_path (path);
    }
  ensure_profile (path, n_samples);
  base_rss = bench_status_bytes ("VmRSS");

  /* the table: metadata and cached statistics only */
  profile = _tprof_profile_new (file);
  t0 = now_s ();
  _tprof_profile_load_async (profile, NULL, done_cb, &opened);
  wait_for (&opened);
  if (!_tprof_profile_load_finish (profile, opened.result, &error))
    g_error ("%s", error->message);
  open_s = now_s () - t0;
  op_count = _tprof_profile_get_sample_count (profile, op);
  op_bytes = op_count * (with_timeline ? 2 : 1) * sizeof (double);

  /* one operation to its charts, with the straggler search under way */
  t0 = now_s ();
  _tprof_profile_read_samples_async (profile, op, NULL, done_cb, &read);
  wait_for (&read);
  samples = _tprof_profile_read_samples_finish (profile, read.result, &error);
  if (samples == NULL)
    g_error ("%s", error->message);
  compute_charts (_tprof_operation_samples_get_index (samples), NULL);
  select_s = now_s () - t0;
  select_peak = bench_status_bytes ("VmHWM");

  /* a rank-filter change: every other rank, then back */
  for (guint k = 0; k < G_N_ELEMENTS (filter_ms); k++)
    {
      for (int r = 0; r < WORLD; r++)
        mask[r] = (r + (int) k) % 2 == 0;
      t0 = now_s ();
      compute_charts (_tprof_operation_samples_get_index (samples), mask);
      filter_ms[k] = 1e3 * (now_s () - t0);
    }

  /* let the search finish: the peak includes it, as in the window */
  while (_tprof_profile_is_finding_stragglers (profile))
    g_main_context_iteration (NULL, TRUE);
  peak_rss = bench_status_bytes ("VmHWM");

  /* the floor: the same operation read in this process by libcapture */
  raw = tprof_profile_file_open (path, &tprof_error);
  if (raw == NULL)
    g_error ("%s", tprof_error.message);
  t0 = now_s ();
  gt = tprof_profile_file_read_operation (raw, op, NULL, 0, NULL, NULL, NULL, &tprof_error);
  raw_s = now_s () - t0;
  if (gt == NULL)
    g_error ("%s", tprof_error.message);
  tprof_profile_file_close (raw);
  /* the index alone */
  {
    TprofOperationIndex *index;

    t0 = now_s ();
    index = tprof_operation_index_new (gt, NULL, NULL, NULL, &tprof_error);
    index_s = now_s () - t0;
    tprof_operation_index_free (index);
  }
  tprof_gathered_time_free (gt);
  /* the read alone through the helper process, nothing else running */
  t0 = now_s ();
  raw = tprof_profile_file_open_isolated (path, &tprof_error);
  gt = raw != NULL ? tprof_profile_file_read_operation (raw, op, NULL, 0, NULL, NULL, NULL, &tprof_error) : NULL;
  iso_s = now_s () - t0;
  if (gt == NULL)
    g_error ("%s", tprof_error.message);
  tprof_gathered_time_free (gt);
  tprof_profile_file_close (raw);

  {
    double sorted[G_N_ELEMENTS (filter_ms)];
    double peak_target = 1.5 * (double) op_bytes + 300e6;

    memcpy (sorted, filter_ms, sizeof sorted);
    for (guint i = 1; i < G_N_ELEMENTS (sorted); i++)
      for (guint j = i; j > 0 && sorted[j] < sorted[j - 1]; j--)
        {
          double t = sorted[j];

          sorted[j] = sorted[j - 1];
          sorted[j - 1] = t;
        }
    printf ("bench-viewer-open: %zu samples, %d ranks, %d operations (%s)\n", n_samples, WORLD, N_OPS, path);
    printf ("  open to table (metadata + cache):      %8.3f s    target <= 1 s: %s\n",
            open_s, open_s <= 1.0 ? "met" : "NOT met");
    printf ("  select %" G_GUINT64_FORMAT "-sample operation to charts: %6.3f s    target <= 1.5 s: %s"
            "   (= %.2fx libcapture's in-process read alone, %.3f s)\n",
            op_count, select_s, select_s <= 1.5 ? "met" : "NOT met", select_s / raw_s, raw_s);
    printf ("    of which alone: isolated open + read %.3f s, index %.3f s\n", iso_s, index_s);
    printf ("  rank-filter change (stats + charts):   %8.1f ms   median of %zu, target <= 16 ms: %s\n",
            sorted[G_N_ELEMENTS (sorted) / 2], G_N_ELEMENTS (sorted),
            sorted[G_N_ELEMENTS (sorted) / 2] <= 16.0 ? "met" : "NOT met");
    printf ("  peak RSS when the charts show %.0f MB\n", select_peak / 1e6);
    printf ("  peak RSS %.0f MB (%.0f MB before opening); the operation's samples %.0f MB;"
            " target <= 1.5x + 300 MB = %.0f MB: %s\n",
            peak_rss / 1e6, base_rss / 1e6, op_bytes / 1e6, peak_target / 1e6,
            (double) peak_rss <= peak_target ? "met" : "NOT met");
  }
  _tprof_profile_close (profile);
  return 0;
}
