/* test-core-stats.c — every statistic of a selection against values computed independently in core-reference.h, without GLib. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <tprof/capture.h>

#include "core-check.h"
#include "core-reference.h"

/* Library and reference may interpolate or accumulate in another order. */
#define REL_TOL 1e-12

static TprofGatheredTime *
make_step (double *times, int32_t *ranks)
{
  for (size_t i = 0; i < CORE_STEP_COUNT; i++)
    {
      times[i] = core_step_time (i);
      ranks[i] = core_step_rank (i);
    }
  return tprof_gathered_time_new (times, ranks, CORE_STEP_COUNT);
}

static void
test_summary (void)
{
  static double times[CORE_STEP_COUNT];
  static int32_t ranks[CORE_STEP_COUNT];
  TprofGatheredTime *gt = make_step (times, ranks);
  double *sorted = core_sorted_copy (times, CORE_STEP_COUNT);
  double rank_totals[CORE_WORLD_SIZE] = { 0 }, max_total = 0.0;
  int32_t slowest = -1;
  TprofSummary s;

  CHECK (gt != NULL);
  CHECK (tprof_gathered_time_summarize (gt, &s));
  CHECK_INT_EQ (CORE_STEP_COUNT, s.count);
  CHECK_INT_EQ (CORE_WORLD_SIZE, s.rank_count);
  /* multiples of 1/64: the sum is exact in any order */
  CHECK_DOUBLE_EQ (core_sum (times, CORE_STEP_COUNT), s.sum);
  CHECK_DOUBLE_EQ (core_sum (times, CORE_STEP_COUNT) / CORE_STEP_COUNT, s.mean);
  CHECK_DOUBLE_NEAR (core_std (times, CORE_STEP_COUNT), s.std, REL_TOL);
  CHECK_DOUBLE_EQ (sorted[0], s.min);
  CHECK_DOUBLE_EQ (sorted[CORE_STEP_COUNT - 1], s.max);
  CHECK_DOUBLE_NEAR (core_quantile (sorted, CORE_STEP_COUNT, 0.5), s.median, REL_TOL);
  CHECK_DOUBLE_NEAR (core_quantile (sorted, CORE_STEP_COUNT, 0.95), s.p95, REL_TOL);
  CHECK_DOUBLE_NEAR (core_quantile (sorted, CORE_STEP_COUNT, 0.99), s.p99, REL_TOL);

  for (size_t i = 0; i < CORE_STEP_COUNT; i++)
    rank_totals[ranks[i]] += times[i];
  for (int32_t r = 0; r < CORE_WORLD_SIZE; r++)
    if (rank_totals[r] > max_total)
      {
        max_total = rank_totals[r];
        slowest = r;
      }
  CHECK_INT_EQ (3, slowest);
  CHECK_INT_EQ (slowest, s.slowest_rank);
  CHECK_DOUBLE_NEAR (max_total / (core_sum (rank_totals, CORE_WORLD_SIZE) / CORE_WORLD_SIZE),
                     s.imbalance, REL_TOL);

  /* the one-statistic calls agree with the summary */
  CHECK_DOUBLE_EQ (s.sum, tprof_gathered_time_sum (gt));
  CHECK_DOUBLE_EQ (s.median, tprof_gathered_time_quantile (gt, 0.5));
  CHECK_DOUBLE_NEAR (core_quantile (sorted, CORE_STEP_COUNT, 0.25),
                     tprof_gathered_time_quantile (gt, 0.25), REL_TOL);
  CHECK (isnan (tprof_gathered_time_quantile (gt, 1.5)));

  free (sorted);
  tprof_gathered_time_free (gt);
}

static void
test_per_rank (void)
{
  static double times[CORE_STEP_COUNT];
  static int32_t ranks[CORE_STEP_COUNT];
  TprofGatheredTime *gt = make_step (times, ranks);
  TprofRankSummary *summaries = NULL;
  size_t n = tprof_gathered_time_rank_summaries (gt, &summaries);

  CHECK_INT_EQ (CORE_WORLD_SIZE, n);
  for (int32_t r = 0; r < CORE_WORLD_SIZE; r++)
    {
      static double mine[CORE_STEP_COUNT];
      size_t count = 0;
      const int32_t one_rank[] = { r };
      TprofGatheredTime *sub;

      for (size_t i = 0; i < CORE_STEP_COUNT; i++)
        if (ranks[i] == r)
          mine[count++] = times[i];

      CHECK_INT_EQ (r, summaries[r].rank);
      CHECK_INT_EQ (count, summaries[r].count);
      CHECK_DOUBLE_EQ (core_sum (mine, count), summaries[r].sum);
      CHECK_DOUBLE_NEAR (core_std (mine, count), summaries[r].std, REL_TOL);

      /* selecting a rank keeps its samples in their original order */
      sub = tprof_gathered_time_get_rank (gt, one_rank, 1);
      CHECK_INT_EQ (count, tprof_gathered_time_count (sub));
      for (size_t i = 0; i < count; i++)
        CHECK_DOUBLE_EQ (mine[i], tprof_gathered_time_times (sub)[i]);
      tprof_gathered_time_free (sub);
    }
  free (summaries);
  tprof_gathered_time_free (gt);
}

/* Samples recorded through a manager reach the profile unchanged, as rank 0. */
static void
test_recorded (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  const TprofGatheredTime *gt;
  double values[] = { 0.5, 0.25, 2.0, 0.125, 1.0 };

  for (size_t i = 0; i < 5; i++)
    tprof_time_manager_append_time (tm, "appended", values[i]);
  pt = tprof_time_manager_gather_local (tm);
  CHECK (pt != NULL);
  CHECK_INT_EQ (1, tprof_profiled_time_world_size (pt));
  gt = tprof_profiled_time_get (pt, "appended");
  CHECK (gt != NULL);
  CHECK_INT_EQ (5, tprof_gathered_time_count (gt));
  for (size_t i = 0; i < 5; i++)
    {
      CHECK_DOUBLE_EQ (values[i], tprof_gathered_time_times (gt)[i]);
      CHECK_INT_EQ (0, tprof_gathered_time_ranks (gt)[i]);
    }
  CHECK_DOUBLE_EQ (3.875, tprof_gathered_time_sum (gt));
  CHECK_DOUBLE_EQ (0.5, tprof_gathered_time_quantile (gt, 0.5));
  CHECK_DOUBLE_EQ (0.125, tprof_gathered_time_min (gt));
  CHECK_DOUBLE_EQ (2.0, tprof_gathered_time_max (gt));
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
}

static void
test_empty (void)
{
  TprofGatheredTime *gt = tprof_gathered_time_new (NULL, NULL, 0);
  TprofSummary s;

  CHECK (gt != NULL);
  CHECK (tprof_gathered_time_is_empty (gt));
  CHECK (isnan (tprof_gathered_time_mean (gt)));
  CHECK (isnan (tprof_gathered_time_quantile (gt, 0.5)));
  CHECK (tprof_gathered_time_summarize (gt, &s));
  CHECK_INT_EQ (0, s.count);
  CHECK_INT_EQ (-1, s.slowest_rank);
  tprof_gathered_time_free (gt);
}

int
main (void)
{
  test_summary ();
  test_per_rank ();
  test_recorded ();
  test_empty ();
  printf ("test-core-stats: OK\n");
  return 0;
}
