/* test-heatmap.c — the heat map of one operation (ranks x occurrences, maximum per cell) against numpy. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "stats-reference.h"

/* Random samples of @world ranks, rank r having @count[r] occurrences in
 * a shuffled file order, with random starts. */
static void
check_against_numpy (guint32 seed, int world, const size_t *count, const int32_t *rows, size_t n_rows,
                     size_t n_cols, TprofHeatmapValue value)
{
  GRand *rand = g_rand_new_with_seed (seed);
  size_t n = 0;
  double *times, *starts;
  int32_t *ranks;
  TprofGatheredTime *gt;
  TprofOccurrences *occ;
  TprofError error = { 0 };
  g_autofree double *cells = NULL;
  g_autofree char *cols_text = g_strdup_printf ("%zu", n_cols);
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StatsReference) ref = NULL;
  const double *expected;
  gsize n_expected;
  size_t used;

  for (int r = 0; r < world; r++)
    n += count[r];
  times = g_new (double, n);
  starts = g_new (double, n);
  ranks = g_new (int32_t, n);
  for (size_t i = 0, r = 0, k = 0; i < n; i++, k++)
    {
      while (k >= count[r])
        r++, k = 0;
      ranks[i] = (int32_t) r;
      times[i] = g_rand_double_range (rand, 1e-3, 2e-3) * (r == 1 ? 1.5 : 1.0);
      starts[i] = (double) g_rand_int_range (rand, 0, 1000) * 1e-2;   /* ties happen */
    }
  {
    StatsReferenceFile files[] = {
      { "times.bin", times, n * sizeof (double) },
      { "ranks.bin", ranks, n * sizeof (int32_t) },
      { "starts.bin", starts, n * sizeof (double) },
    };

    g_ptr_array_add (args, g_strdup (cols_text));
    g_ptr_array_add (args, g_strdup (value == TPROF_HEATMAP_DEVIATION ? "deviation" : "duration"));
    for (size_t i = 0; i < n_rows; i++)
      g_ptr_array_add (args, g_strdup_printf ("%d", rows[i]));
    g_ptr_array_add (args, NULL);
    ref = stats_reference_run_files ("heatmap", files, 3, (const char **) args->pdata);
  }
  gt = tprof_gathered_time_new_take (times, ranks, n);
  g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, g_new0 (int32_t, n)));
  occ = tprof_occurrences_new (gt, world, &error);
  g_assert_nonnull (occ);
  cells = g_new (double, n_rows * n_cols);
  used = tprof_heatmap_fill (occ, rows, n_rows, n_cols, value, cells);
  g_assert_cmpuint (used, ==, (size_t) stats_reference_get_one (ref, "n_cols"));
  expected = stats_reference_get (ref, "cells", &n_expected);
  g_assert_cmpuint (n_expected, ==, n_rows * used);
  for (size_t i = 0; i < n_expected; i++)
    stats_assert_close (cells[i], expected[i], 1e-12);
  /* when each column begins on the timeline */
  {
    g_autofree double *column_starts = g_new (double, n_cols);

    g_assert_cmpuint (tprof_heatmap_column_starts (occ, n_cols, column_starts), ==, used);
    expected = stats_reference_get (ref, "column_starts", &n_expected);
    g_assert_cmpuint (n_expected, ==, used);
    for (size_t j = 0; j < used; j++)
      stats_assert_close (column_starts[j], expected[j], 0.0);
  }
  /* the band across ranks of each column, numpy's quantiles */
  {
    g_autofree TprofHeatmapBand *band = g_new (TprofHeatmapBand, used);

    g_assert_true (tprof_heatmap_band (cells, n_rows, used, band));
    expected = stats_reference_get (ref, "band", &n_expected);
    g_assert_cmpuint (n_expected, ==, 5 * used);
    for (size_t j = 0; j < used; j++)
      {
        stats_assert_close (band[j].min, expected[5 * j], 1e-12);
        stats_assert_close (band[j].p5, expected[5 * j + 1], 1e-12);
        stats_assert_close (band[j].median, expected[5 * j + 2], 1e-12);
        stats_assert_close (band[j].p95, expected[5 * j + 3], 1e-12);
        stats_assert_close (band[j].max, expected[5 * j + 4], 1e-12);
      }
  }
  tprof_occurrences_free (occ);
  tprof_gathered_time_free (gt);
  g_rand_free (rand);
}

static void
test_heatmap_durations (void)
{
  const size_t count[] = { 40, 40, 37, 40 };

  /* 4 ranks, one with fewer occurrences; every column one occurrence,
   * then 7 columns of 5 or 6 occurrences */
  check_against_numpy (1, 4, count, (const int32_t[]) { 0, 1, 2, 3 }, 4, 40, TPROF_HEATMAP_DURATION);
  check_against_numpy (2, 4, count, (const int32_t[]) { 0, 1, 2, 3 }, 4, 7, TPROF_HEATMAP_DURATION);
  /* a subset of rows in another order, and more columns than occurrences */
  check_against_numpy (3, 4, count, (const int32_t[]) { 3, 1 }, 2, 100, TPROF_HEATMAP_DURATION);
}

static void
test_heatmap_deviations (void)
{
  const size_t count[] = { 25, 25, 25, 20, 25 };

  check_against_numpy (4, 5, count, (const int32_t[]) { 0, 1, 2, 3, 4 }, 5, 25, TPROF_HEATMAP_DEVIATION);
  check_against_numpy (5, 5, count, (const int32_t[]) { 4, 3, 1 }, 3, 6, TPROF_HEATMAP_DEVIATION);
}

/* A drifting series with gaps (NaN, as a trend's columns without samples),
 * for several window sizes, against numpy's median of each window. */
static void
test_rolling_median (void)
{
  enum { N = 200 };
  double series[N], out[N];
  int32_t zeros[N] = { 0 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (gsize j = 0; j < N; j++)
    series[j] = j % 37 == 5 ? NAN : 1e-3 * (1.0 + 0.004 * (double) j + 0.5 * g_rand_double (rand));
  for (gsize half = 0; half < 30; half += 7)
    {
      g_autofree char *arg = g_strdup_printf ("%zu", half);
      const char *args[] = { arg, NULL };
      g_autoptr(StatsReference) ref = stats_reference_run ("rolling-median", series, zeros, N, args);
      gsize n_expected;
      const double *expected = stats_reference_get (ref, "rolling_median", &n_expected);

      g_assert_true (tprof_rolling_median (series, N, half, out));
      g_assert_cmpuint (n_expected, ==, N);
      for (gsize j = 0; j < N; j++)
        stats_assert_close (out[j], expected[j], 0.0);
    }
  /* a window with no finite value */
  series[0] = series[1] = NAN;
  g_assert_true (tprof_rolling_median (series, 2, 0, out));
  g_assert_true (isnan (out[0]) && isnan (out[1]));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/heatmap/durations", test_heatmap_durations);
  g_test_add_func ("/stats/heatmap/deviations", test_heatmap_deviations);
  g_test_add_func ("/stats/heatmap/rolling-median", test_rolling_median);
  return g_test_run ();
}
