/* test-alloc-failure.c — every statistics and histogram call under injected malloc failures: NULL/false, no leak, no crash. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/capture.h>

#include "stats-reference.h"

/* This executable's malloc family wins over libc's for the whole process
 * (libtprof-capture included); while a scenario runs it can fail one chosen
 * allocation and counts blocks so that leaks show. */
extern void *__libc_malloc (size_t size);
extern void *__libc_calloc (size_t n, size_t size);
extern void *__libc_realloc (void *ptr, size_t size);
extern void  __libc_free (void *ptr);

static gboolean injecting;
static long     allocations_until_failure;  /* the one to fail; < 0: none */
static long     allocations_seen;
static long     live_blocks;
static gboolean failure_injected;

static gboolean
allocation_fails (void)
{
  if (!injecting)
    return FALSE;

  if (allocations_seen++ == allocations_until_failure)
    {
      failure_injected = TRUE;
      return TRUE;
    }
  return FALSE;
}

static void
count_block (void *ptr)
{
  if (injecting && ptr != NULL)
    live_blocks++;
}

void *
malloc (size_t size)
{
  void *ptr;

  if (allocation_fails ())
    return NULL;
  ptr = __libc_malloc (size);
  count_block (ptr);
  return ptr;
}

void *
calloc (size_t n,
        size_t size)
{
  void *ptr;

  if (allocation_fails ())
    return NULL;
  ptr = __libc_calloc (n, size);
  count_block (ptr);
  return ptr;
}

void *
realloc (void   *ptr,
         size_t  size)
{
  void *moved;

  if (allocation_fails ())
    return NULL;
  moved = __libc_realloc (ptr, size);
  if (ptr == NULL)
    count_block (moved);
  return moved;
}

void
free (void *ptr)
{
  if (injecting && ptr != NULL)
    live_blocks--;
  __libc_free (ptr);
}

/* A scenario makes some calls and frees whatever they returned; it
 * reports whether the calls all succeeded. */
typedef gboolean (*Scenario) (const TprofGatheredTime *gt);

/* Runs @scenario failing its first allocation, then its second, and so on
 * until a run goes through without reaching the failure; each run must
 * leave no block behind, and the last one must succeed. */
static void
run_with_each_allocation_failing (Scenario                 scenario,
                                  const TprofGatheredTime *gt)
{
  for (long k = 0;; k++)
    {
      gboolean ok;

      allocations_until_failure = k;
      allocations_seen = 0;
      live_blocks = 0;
      failure_injected = FALSE;

      injecting = TRUE;
      ok = scenario (gt);
      injecting = FALSE;

      g_assert_cmpint (live_blocks, ==, 0);
      if (!failure_injected)
        {
          g_assert_true (ok);
          g_test_message ("%ld allocations, each failed once", k);
          return;
        }
    }
}

static gboolean
scenario_new (const TprofGatheredTime *gt)
{
  TprofGatheredTime *copy = tprof_gathered_time_new (tprof_gathered_time_times (gt),
                                                     tprof_gathered_time_ranks (gt),
                                                     tprof_gathered_time_count (gt));

  tprof_gathered_time_free (copy);
  return copy != NULL;
}

static gboolean
scenario_new_take (const TprofGatheredTime *gt)
{
  gsize n = tprof_gathered_time_count (gt);
  double *times = malloc (n * sizeof *times);
  int32_t *ranks = malloc (n * sizeof *ranks);
  TprofGatheredTime *taken;

  if (times == NULL || ranks == NULL)
    {
      free (times);
      free (ranks);
      return FALSE;
    }
  memcpy (times, tprof_gathered_time_times (gt), n * sizeof *times);
  memcpy (ranks, tprof_gathered_time_ranks (gt), n * sizeof *ranks);

  /* Freed by the selection, also when it fails. */
  taken = tprof_gathered_time_new_take (times, ranks, n);
  tprof_gathered_time_free (taken);
  return taken != NULL;
}

static gboolean
scenario_selections (const TprofGatheredTime *gt)
{
  const int32_t wanted[] = { 1, 3 };
  TprofGatheredTime *by_rank = tprof_gathered_time_get_rank (gt, wanted, 2);
  TprofGatheredTime *sliced = tprof_gathered_time_slice (gt, -2, TPROF_SLICE_DEFAULT, -3);
  gboolean ok = by_rank != NULL && sliced != NULL;

  tprof_gathered_time_free (by_rank);
  tprof_gathered_time_free (sliced);
  return ok;
}

static gboolean
scenario_quantiles (const TprofGatheredTime *gt)
{
  const double qs[] = { 0.99, 0.5, 0.0 };
  double out[3];

  return tprof_gathered_time_quantiles (gt, qs, 3, out)
         && !isnan (tprof_gathered_time_quantile (gt, 0.5));
}

static gboolean
scenario_rank_count (const TprofGatheredTime *gt)
{
  /* No failure channel: the count must come out right regardless. */
  g_assert_cmpuint (tprof_gathered_time_rank_count (gt), ==, 5);
  return TRUE;
}

static gboolean
scenario_rank_summaries (const TprofGatheredTime *gt)
{
  TprofRankSummary *summaries = NULL;
  gsize n = tprof_gathered_time_rank_summaries (gt, &summaries);

  if (n == (gsize) -1)
    {
      g_assert_null (summaries);
      return FALSE;
    }
  free (summaries);
  return TRUE;
}

static gboolean
scenario_summarize (const TprofGatheredTime *gt)
{
  TprofSummary summary;

  return tprof_gathered_time_summarize (gt, &summary);
}

static gboolean
scenario_histograms (const TprofGatheredTime *gt)
{
  const TprofHistogramFlags flags[] = {
    TPROF_HISTOGRAM_DEFAULT, TPROF_HISTOGRAM_SEPARATE_RANKS,
    TPROF_HISTOGRAM_LOG, TPROF_HISTOGRAM_LOG | TPROF_HISTOGRAM_SEPARATE_RANKS,
  };
  gboolean ok = TRUE;

  for (gsize f = 0; f < G_N_ELEMENTS (flags); f++)
    for (gsize bins = 0; bins <= 7; bins += 7)
      {
        TprofHistogram *hist = tprof_histogram_compute (gt, bins, flags[f]);

        ok = ok && hist != NULL;
        tprof_histogram_free (hist);
      }

  /* Without scratch memory 'auto' falls back on Sturges: still >= 1. */
  ok = ok && tprof_histogram_auto_bins (tprof_gathered_time_times (gt),
                                        tprof_gathered_time_count (gt)) >= 1;
  return ok;
}

/* A copy of @gt on a timeline of 5 ranks and 2 threads. */
static TprofGatheredTime *
with_timeline (const TprofGatheredTime *gt)
{
  gsize n = tprof_gathered_time_count (gt);
  int32_t *ranks = malloc (n * sizeof *ranks);
  double *starts = malloc (n * sizeof *starts);
  int32_t *threads = malloc (n * sizeof *threads);
  TprofGatheredTime *timed = NULL;

  for (gsize i = 0; ranks != NULL && starts != NULL && threads != NULL && i < n; i++)
    {
      ranks[i] = (int32_t) (i % 5);
      starts[i] = (double) ((i * 7919) % n) * 1e-3;
      threads[i] = (int32_t) (i / 5 % 2);
    }
  if (ranks != NULL && starts != NULL && threads != NULL)
    timed = tprof_gathered_time_new (tprof_gathered_time_times (gt), ranks, n);
  if (timed != NULL)
    tprof_gathered_time_set_timeline_take (timed, starts, threads);
  else
    {
      free (starts);
      free (threads);
    }
  free (ranks);
  return timed;
}

static gboolean
scenario_time_analysis (const TprofGatheredTime *gt)
{
  TprofGatheredTime *timed = with_timeline (gt);
  TprofGatheredTime *some = timed != NULL ? tprof_gathered_time_slice (timed, 0, TPROF_SLICE_DEFAULT, 3) : NULL;
  const TprofGatheredTime *ops[] = { timed, NULL, some };
  TprofOccurrences *occ = NULL;
  TprofNesting *nesting = NULL;
  TprofError error = { 0 };
  TprofArrival arrival;
  double wait[5] = { 0 };
  gboolean ok = FALSE;

  if (some != NULL)
    {
      occ = tprof_occurrences_new (timed, 5, &error);
      g_assert_true (occ != NULL || error.code == TPROF_ERROR_NO_MEMORY);
      nesting = tprof_nesting_new (ops, G_N_ELEMENTS (ops), &error);
      g_assert_true (nesting != NULL || error.code == TPROF_ERROR_NO_MEMORY);
      ok = occ != NULL && nesting != NULL && tprof_arrival_analyze (timed, 5, &arrival, wait, NULL);
    }
  tprof_occurrences_free (occ);
  tprof_nesting_free (nesting);
  tprof_gathered_time_free (some);
  tprof_gathered_time_free (timed);
  return ok;
}

/* TprofLive fed @gt's samples one by one on a timeline of 5 ranks. */
static gboolean
scenario_live (const TprofGatheredTime *gt)
{
  TprofGatheredTime *timed = with_timeline (gt);
  TprofLive *live = timed != NULL ? tprof_live_new (5) : NULL;
  TprofStragglers *s = NULL;
  TprofSummary summary;
  gboolean ok = live != NULL && tprof_live_operation (live, "op") == 0;

  for (gsize i = 0; ok && i < tprof_gathered_time_count (timed); i++)
    {
      ok = tprof_live_add (live, tprof_gathered_time_ranks (timed)[i], 0, 1, tprof_gathered_time_starts (timed) + i,
                           tprof_gathered_time_times (timed) + i);
      if (ok && i % 97 == 0)
        ok = tprof_live_update (live);
    }
  ok = ok && tprof_live_update (live) && tprof_live_summary (live, 0, &summary);
  if (ok)
    {
      s = tprof_live_stragglers (live);
      ok = s != NULL;
    }
  tprof_stragglers_free (s);
  tprof_live_free (live);
  tprof_gathered_time_free (timed);
  return ok;
}

static void
test_alloc_failure (gconstpointer data)
{
  enum { N = 500 };
  /* Small rank numbers get a lookup table, huge ones a sorted index. */
  const int32_t rank_strides[] = { 7, 500000000 };
  double times[N];
  int32_t ranks[N];

  for (gsize s = 0; s < G_N_ELEMENTS (rank_strides); s++)
    {
      g_autoptr(TprofGatheredTime) gt = NULL;

      for (gsize i = 0; i < N; i++)
        {
          times[i] = i % 10 == 0 ? 0.0 : g_test_rand_double_range (1e-4, 1e-2);
          ranks[i] = (int32_t) (i % 5) * rank_strides[s];
        }
      gt = tprof_gathered_time_new (times, ranks, N);
      g_assert_nonnull (gt);

      run_with_each_allocation_failing ((Scenario) data, gt);
    }
}

/* Large enough for the sampled quantiles (one pass, no scratch copy),
 * small enough for one thread: this malloc is not thread-safe. */
static void
test_alloc_failure_sampled (gconstpointer data)
{
  enum { N = 100000 };
  g_autofree double *times = g_new (double, N);
  g_autofree int32_t *ranks = g_new (int32_t, N);
  g_autoptr(TprofGatheredTime) gt = NULL;

  for (gsize i = 0; i < N; i++)
    {
      times[i] = g_test_rand_double_range (1e-4, 1e-2);
      ranks[i] = (int32_t) (i % 5) * 7;
    }
  gt = tprof_gathered_time_new (times, ranks, N);
  g_assert_nonnull (gt);

  run_with_each_allocation_failing ((Scenario) data, gt);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char    *path;
    Scenario       scenario;
    GTestDataFunc  run;
  } cases[] = {
    { "/capture/alloc-failure/new", scenario_new, test_alloc_failure },
    { "/capture/alloc-failure/new-take", scenario_new_take, test_alloc_failure },
    { "/capture/alloc-failure/selections", scenario_selections, test_alloc_failure },
    { "/capture/alloc-failure/quantiles", scenario_quantiles, test_alloc_failure },
    { "/capture/alloc-failure/rank-count", scenario_rank_count, test_alloc_failure },
    { "/capture/alloc-failure/rank-summaries", scenario_rank_summaries, test_alloc_failure },
    { "/capture/alloc-failure/summarize", scenario_summarize, test_alloc_failure },
    { "/capture/alloc-failure/histograms", scenario_histograms, test_alloc_failure },
    { "/capture/alloc-failure/time-analysis", scenario_time_analysis, test_alloc_failure },
    { "/capture/alloc-failure/live", scenario_live, test_alloc_failure },
    { "/capture/alloc-failure/sampled-quantiles", scenario_quantiles, test_alloc_failure_sampled },
    { "/capture/alloc-failure/sampled-summarize", scenario_summarize, test_alloc_failure_sampled },
    { "/capture/alloc-failure/sampled-histograms", scenario_histograms, test_alloc_failure_sampled },
  };

  g_test_init (&argc, &argv, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    g_test_add_data_func (cases[i].path, (gconstpointer) cases[i].scenario, cases[i].run);

  return g_test_run ();
}
