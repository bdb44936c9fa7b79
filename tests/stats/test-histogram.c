/* test-histogram.c — tprof_histogram_*: edges, counts, 'auto' bins, log axis and per-rank rows against numpy. */
/* SPDX-License-Identifier: MIT */

#include <float.h>
#include <glib.h>
#include <math.h>

#include <tprof/capture.h>

#include "stats-reference.h"

/* Every sample lands, through find_bin, in a bin whose count includes it:
 * recounting with find_bin must give the histogram's counts. */
static void
assert_find_bin_recounts (const TprofHistogram    *hist,
                          const TprofGatheredTime *gt)
{
  g_autofree guint64 *recount = g_new0 (guint64, hist->n_bins);
  const double *times = tprof_gathered_time_times (gt);

  for (gsize i = 0; i < tprof_gathered_time_count (gt); i++)
    {
      ptrdiff_t bin = tprof_histogram_find_bin (hist, times[i]);

      if (bin >= 0)
        recount[bin]++;
    }

  g_assert_cmpmem (recount, hist->n_bins * sizeof (guint64),
                   hist->counts, hist->n_bins * sizeof (guint64));
}

static const double *
reference_get_prefixed (StatsReference *ref,
                        gsize           spec,
                        const char     *name,
                        gsize          *n_values)
{
  g_autofree char *key = g_strdup_printf ("h%" G_GSIZE_FORMAT "_%s", spec, name);

  return stats_reference_get (ref, key, n_values);
}

/* Compares @hist with the histogram reference.py printed for @spec; edges
 * within @edge_tol (0: bit for bit), counts exactly. */
static void
assert_histogram_matches_reference (const TprofHistogram    *hist,
                                    const TprofGatheredTime *gt,
                                    TprofHistogramFlags      flags,
                                    double                   edge_tol,
                                    StatsReference          *ref,
                                    gsize                    spec)
{
  gsize n_values, n_edges, n_counts, n_ranks;
  const double *edges, *counts, *expected_ranks;

  g_assert_nonnull (hist);
  if (flags & TPROF_HISTOGRAM_LOG)
    g_assert_cmpuint (hist->n_nonpositive, ==,
                      (guint64) *reference_get_prefixed (ref, spec, "n_nonpositive", &n_values));
  else
    g_assert_cmpuint (hist->n_nonpositive, ==, 0);

  g_assert_cmpuint (hist->n_bins, ==, (gsize) *reference_get_prefixed (ref, spec, "n_bins", &n_values));
  if (hist->n_bins == 0)
    return;

  edges = reference_get_prefixed (ref, spec, "edges", &n_edges);
  counts = reference_get_prefixed (ref, spec, "counts", &n_counts);
  g_assert_cmpuint (n_edges, ==, hist->n_bins + 1);
  for (gsize i = 0; i < n_edges; i++)
    {
      if (edge_tol == 0.0)
        g_assert_cmpfloat (hist->edges[i], ==, edges[i]);
      else
        stats_assert_close (hist->edges[i], edges[i], edge_tol);
    }
  for (gsize i = 0; i < n_counts; i++)
    g_assert_cmpuint (hist->counts[i], ==, (guint64) counts[i]);

  assert_find_bin_recounts (hist, gt);

  if (!(flags & TPROF_HISTOGRAM_SEPARATE_RANKS))
    {
      g_assert_cmpuint (hist->n_ranks, ==, 0);
      g_assert_null (hist->rank_counts);
      return;
    }

  expected_ranks = reference_get_prefixed (ref, spec, "ranks", &n_ranks);
  g_assert_cmpuint (hist->n_ranks, ==, n_ranks);
  for (gsize r = 0; r < n_ranks; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank_%d", hist->ranks[r]);
      const double *row;
      gsize n_row;

      g_assert_cmpint (hist->ranks[r], ==, (int32_t) expected_ranks[r]);
      row = reference_get_prefixed (ref, spec, name, &n_row);
      g_assert_cmpuint (n_row, ==, hist->n_bins);
      for (gsize b = 0; b < n_row; b++)
        g_assert_cmpuint (hist->rank_counts[r * hist->n_bins + b], ==, (guint64) row[b]);
    }

  /* The rows share the edges, so they add up to the combined counts. */
  for (gsize b = 0; b < hist->n_bins; b++)
    {
      guint64 total = 0;

      for (gsize r = 0; r < hist->n_ranks; r++)
        total += hist->rank_counts[r * hist->n_bins + b];
      g_assert_cmpuint (total, ==, hist->counts[b]);
    }
}

/* Histograms of the same data with each of @bin_counts bins (or
 * TPROF_HISTOGRAM_AUTO_BINS), checked against one run of reference.py. */
static void
assert_histograms_match (const double        *times,
                         const int32_t       *ranks,
                         gsize                n,
                         const gsize         *bin_counts,
                         gsize                n_specs,
                         TprofHistogramFlags  flags,
                         double               edge_tol)
{
  g_autoptr(TprofGatheredTime) gt = tprof_gathered_time_new (times, ranks, n);
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StatsReference) ref = NULL;

  g_ptr_array_add (args, g_strdup ((flags & TPROF_HISTOGRAM_LOG) ? "log" : "linear"));
  for (gsize i = 0; i < n_specs; i++)
    g_ptr_array_add (args, bin_counts[i] == TPROF_HISTOGRAM_AUTO_BINS
                           ? g_strdup ("auto")
                           : g_strdup_printf ("%" G_GSIZE_FORMAT, bin_counts[i]));
  g_ptr_array_add (args, NULL);
  ref = stats_reference_run ("hist", times, ranks, n, (const char **) args->pdata);

  for (gsize i = 0; i < n_specs; i++)
    {
      g_autoptr(TprofHistogram) hist = tprof_histogram_compute (gt, bin_counts[i], flags);
      gsize n_values;

      g_test_message ("%" G_GSIZE_FORMAT " samples, %" G_GSIZE_FORMAT " bins, flags %d",
                      n, bin_counts[i], flags);
      assert_histogram_matches_reference (hist, gt, flags, edge_tol, ref, i);

      /* The public 'auto' rule, capped, is what compute() applied. */
      if (bin_counts[i] == TPROF_HISTOGRAM_AUTO_BINS && !(flags & TPROF_HISTOGRAM_LOG))
        g_assert_cmpuint (MIN (tprof_histogram_auto_bins (times, n), TPROF_HISTOGRAM_MAX_AUTO_BINS), ==,
                          (gsize) *reference_get_prefixed (ref, i, "n_bins", &n_values));
    }
}

static void
assert_histogram_matches (const double        *times,
                          const int32_t       *ranks,
                          gsize                n,
                          gsize                n_bins,
                          TprofHistogramFlags  flags,
                          double               edge_tol)
{
  assert_histograms_match (times, ranks, n, &n_bins, 1, flags, edge_tol);
}

static void
test_bin_counts (void)
{
  enum { N = 3000 };
  const gsize bin_counts[] = { 1, 2, 3, 7, 10, 30, 49, 100, 1000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autofree double *grid = g_new (double, N);

  stats_random_samples (N, 5, &times, &ranks);
  assert_histograms_match (times, ranks, N, bin_counts, G_N_ELEMENTS (bin_counts),
                           TPROF_HISTOGRAM_DEFAULT, 0.0);

  /* Values on a grid fall exactly on edges (or within an ulp of them),
   * where numpy's index corrections decide. */
  for (gsize i = 0; i < N; i++)
    grid[i] = (double) (i % 101) * 0.01;
  assert_histograms_match (grid, ranks, N, bin_counts, G_N_ELEMENTS (bin_counts),
                           TPROF_HISTOGRAM_DEFAULT, 0.0);
}

static void
test_auto_bins (void)
{
  enum { N = 4000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autofree double *data = g_new (double, N);
  const gsize sizes[] = { 2, 3, 10, 100, 1000, N };
  const gsize auto_spec = TPROF_HISTOGRAM_AUTO_BINS;

  stats_random_samples (N, 3, &times, &ranks);

  /* Log-normal: Freedman-Diaconis wins for large n, Sturges for small n. */
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    assert_histograms_match (times, ranks, sizes[i], &auto_spec, 1, TPROF_HISTOGRAM_DEFAULT, 0.0);

  /* Uniform data. */
  for (gsize i = 0; i < N; i++)
    data[i] = g_test_rand_double_range (2.0, 3.0);
  assert_histograms_match (data, ranks, N, &auto_spec, 1, TPROF_HISTOGRAM_DEFAULT, 0.0);

  /* IQR 0 (most samples equal, a few outliers): Sturges. */
  for (gsize i = 0; i < N; i++)
    data[i] = i % 50 == 0 ? 0.5 + (double) i * 1e-4 : 0.25;
  assert_histograms_match (data, ranks, N, &auto_spec, 1, TPROF_HISTOGRAM_DEFAULT, 0.0);

  /* Fewer than two values, or one distinct value: one bin. */
  g_assert_cmpuint (tprof_histogram_auto_bins (times, 1), ==, 1);
  g_assert_cmpuint (tprof_histogram_auto_bins (NULL, 0), ==, 1);
  for (gsize i = 0; i < N; i++)
    data[i] = 0.125;
  g_assert_cmpuint (tprof_histogram_auto_bins (data, N), ==, 1);
}

static void
test_single_value (void)
{
  const double times[] = { 0.75, 0.75, 0.75 };
  const int32_t ranks[] = { 0, 2, 2 };
  g_autoptr(TprofGatheredTime) gt = tprof_gathered_time_new (times, ranks, 3);
  g_autoptr(TprofHistogram) hist = tprof_histogram_compute (gt, 4, TPROF_HISTOGRAM_DEFAULT);

  /* numpy widens a single value v to [v - 0.5, v + 0.5]. */
  g_assert_cmpuint (hist->n_bins, ==, 4);
  g_assert_cmpfloat (hist->edges[0], ==, 0.25);
  g_assert_cmpfloat (hist->edges[4], ==, 1.25);
  g_assert_cmpuint (hist->counts[2], ==, 3);

  assert_histogram_matches (times, ranks, 3, 4, TPROF_HISTOGRAM_SEPARATE_RANKS, 0.0);
  assert_histogram_matches (times, ranks, 3, 1, TPROF_HISTOGRAM_DEFAULT, 0.0);
  assert_histogram_matches (times, ranks, 3, TPROF_HISTOGRAM_AUTO_BINS, TPROF_HISTOGRAM_DEFAULT, 0.0);
  assert_histogram_matches (times, ranks, 3, 5, TPROF_HISTOGRAM_LOG, 1e-14);
}

static void
test_log_axis (void)
{
  enum { N = 3000 };
  const gsize log_bins[] = { 20, 1, TPROF_HISTOGRAM_AUTO_BINS };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(TprofHistogram) hist = NULL;

  stats_random_samples (N, 4, &times, &ranks);
  /* Zeros (timer resolution) are left out and counted apart. */
  for (gsize i = 0; i < N; i += 97)
    times[i] = 0.0;

  /* numpy's power may use a vectorised pow a few ulps from libm's. */
  assert_histograms_match (times, ranks, N, log_bins, G_N_ELEMENTS (log_bins), TPROF_HISTOGRAM_LOG, 1e-14);
  assert_histogram_matches (times, ranks, N, 50,
                            TPROF_HISTOGRAM_LOG | TPROF_HISTOGRAM_SEPARATE_RANKS, 1e-14);

  /* The smallest and largest positive samples are the outer edges. */
  gt = tprof_gathered_time_new (times, ranks, N);
  hist = tprof_histogram_compute (gt, 10, TPROF_HISTOGRAM_LOG);
  {
    double smallest = INFINITY, largest = 0.0;

    for (gsize i = 0; i < N; i++)
      if (times[i] > 0.0)
        {
          smallest = MIN (smallest, times[i]);
          largest = MAX (largest, times[i]);
        }
    g_assert_cmpfloat (hist->edges[0], ==, smallest);
    g_assert_cmpfloat (hist->edges[10], ==, largest);
  }
  for (gsize b = 0; b < hist->n_bins; b++)
    g_assert_cmpfloat (hist->edges[b], <, hist->edges[b + 1]);
  g_assert_cmpuint (hist->n_nonpositive, ==, (N + 96) / 97);
}

/* Ranks overlaid on shared edges, @n_bins of them and numpy's 'auto', for
 * @n random samples on @n_ranks ranks; leaves the samples in @times, @ranks. */
static void
assert_random_overlays_match (gsize     n,
                              int32_t   n_ranks,
                              gsize     n_bins,
                              double  **times,
                              int32_t **ranks)
{
  const gsize bin_counts[] = { n_bins, TPROF_HISTOGRAM_AUTO_BINS };

  stats_random_samples (n, n_ranks, times, ranks);
  assert_histograms_match (*times, *ranks, n, bin_counts, G_N_ELEMENTS (bin_counts),
                           TPROF_HISTOGRAM_SEPARATE_RANKS, 0.0);
}

static void
test_separate_ranks (void)
{
  enum { N = 5000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;

  assert_random_overlays_match (N, 9, 40, &times, &ranks);

  /* Sparse, large rank numbers keep their rows in ascending order. */
  for (gsize i = 0; i < N; i++)
    ranks[i] = (int32_t) (i % 3) * 1000000 + 5;
  assert_histogram_matches (times, ranks, N, 25, TPROF_HISTOGRAM_SEPARATE_RANKS, 0.0);
}

static void
test_find_bin (void)
{
  const double times[] = { 1.0, 2.0, 3.0, 5.0 };
  const int32_t ranks[] = { 0, 0, 0, 0 };
  g_autoptr(TprofGatheredTime) gt = tprof_gathered_time_new (times, ranks, 4);
  g_autoptr(TprofHistogram) hist = tprof_histogram_compute (gt, 4, TPROF_HISTOGRAM_DEFAULT);
  TprofHistogram empty = { 0 };

  /* Edges 1, 2, 3, 4, 5: half-open bins, the last one closed. */
  g_assert_cmpfloat (hist->edges[1], ==, 2.0);
  g_assert_cmpint (tprof_histogram_find_bin (hist, 1.0), ==, 0);
  g_assert_cmpint (tprof_histogram_find_bin (hist, 1.999), ==, 0);
  g_assert_cmpint (tprof_histogram_find_bin (hist, 2.0), ==, 1);
  g_assert_cmpint (tprof_histogram_find_bin (hist, 4.5), ==, 3);
  g_assert_cmpint (tprof_histogram_find_bin (hist, 5.0), ==, 3);
  g_assert_cmpint (tprof_histogram_find_bin (hist, nextafter (5.0, 6.0)), ==, -1);
  g_assert_cmpint (tprof_histogram_find_bin (hist, nextafter (1.0, 0.0)), ==, -1);
  g_assert_cmpint (tprof_histogram_find_bin (hist, NAN), ==, -1);
  g_assert_cmpint (tprof_histogram_find_bin (hist, INFINITY), ==, -1);
  g_assert_cmpint (tprof_histogram_find_bin (&empty, 1.0), ==, -1);
  g_assert_cmpint (tprof_histogram_find_bin (NULL, 1.0), ==, -1);
  g_assert_cmpuint (hist->counts[0], ==, 1);
  g_assert_cmpuint (hist->counts[1], ==, 1);
  g_assert_cmpuint (hist->counts[2], ==, 1);
  g_assert_cmpuint (hist->counts[3], ==, 1);
}

static void
test_empty (void)
{
  const double zeros[] = { 0.0, 0.0 };
  const int32_t ranks[] = { 1, 2 };
  g_autoptr(TprofGatheredTime) empty = tprof_gathered_time_new (NULL, NULL, 0);
  g_autoptr(TprofGatheredTime) all_zero = tprof_gathered_time_new (zeros, ranks, 2);
  g_autoptr(TprofHistogram) hist = tprof_histogram_compute (empty, 10, TPROF_HISTOGRAM_SEPARATE_RANKS);
  g_autoptr(TprofHistogram) log_hist = tprof_histogram_compute (all_zero, TPROF_HISTOGRAM_AUTO_BINS,
                                                                TPROF_HISTOGRAM_LOG);
  g_autoptr(TprofHistogram) linear_zero = tprof_histogram_compute (all_zero, 3, TPROF_HISTOGRAM_DEFAULT);

  g_assert_nonnull (hist);
  g_assert_cmpuint (hist->n_bins, ==, 0);
  g_assert_cmpuint (hist->n_ranks, ==, 0);
  g_assert_cmpint (tprof_histogram_find_bin (hist, 0.0), ==, -1);

  /* Nothing positive on a log axis: no bins, every sample set apart. */
  g_assert_nonnull (log_hist);
  g_assert_cmpuint (log_hist->n_bins, ==, 0);
  g_assert_cmpuint (log_hist->n_nonpositive, ==, 2);

  /* On a linear axis zeros are ordinary samples. */
  g_assert_cmpuint (linear_zero->n_bins, ==, 3);
  g_assert_cmpuint (linear_zero->counts[1], ==, 2);

  tprof_histogram_free (NULL);
}

static void
test_absurd_ranges (void)
{
  /* A denormal width makes numpy's scale factor infinite (numpy itself
   * fails here); tprof must stay in bounds and still count every sample. */
  const double tiny[] = { 0.0, 5e-324, 1e-323, 0.0 };
  const double huge[] = { 0.0, 1e308, DBL_MAX, 3.0 };
  const double not_finite[] = { 1.0, NAN, INFINITY, 2.0, -INFINITY, 3.0 };
  const int32_t ranks[] = { 0, 1, 0, 1, 0, 1 };
  const struct { const double *times; gsize n; guint64 linear_total, log_total; } cases[] = {
    { tiny, G_N_ELEMENTS (tiny), 4, 4 },
    { huge, G_N_ELEMENTS (huge), 4, 4 },
    /* NaN and infinities are left out of the range and the counts, except
     * that -inf is as non-positive as 0 on a log axis. */
    { not_finite, G_N_ELEMENTS (not_finite), 3, 4 },
  };
  const TprofHistogramFlags flags[] = { TPROF_HISTOGRAM_DEFAULT, TPROF_HISTOGRAM_SEPARATE_RANKS,
                                        TPROF_HISTOGRAM_LOG | TPROF_HISTOGRAM_SEPARATE_RANKS };

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    for (gsize f = 0; f < G_N_ELEMENTS (flags); f++)
      {
        g_autoptr(TprofGatheredTime) gt = tprof_gathered_time_new (cases[c].times, ranks, cases[c].n);
        g_autoptr(TprofHistogram) hist = tprof_histogram_compute (gt, 10, flags[f]);
        guint64 total = 0;

        g_assert_nonnull (hist);
        for (gsize b = 0; b < hist->n_bins; b++)
          total += hist->counts[b];
        total += hist->n_nonpositive;
        g_assert_cmpuint (total, ==, (flags[f] & TPROF_HISTOGRAM_LOG) ? cases[c].log_total
                                                                      : cases[c].linear_total);
      }
}

static void
test_million_samples (void)
{
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;

  assert_random_overlays_match (1000000, 32, 100, &times, &ranks);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture/histogram/bin-counts", test_bin_counts);
  g_test_add_func ("/capture/histogram/auto-bins", test_auto_bins);
  g_test_add_func ("/capture/histogram/single-value", test_single_value);
  g_test_add_func ("/capture/histogram/log-axis", test_log_axis);
  g_test_add_func ("/capture/histogram/separate-ranks", test_separate_ranks);
  g_test_add_func ("/capture/histogram/find-bin", test_find_bin);
  g_test_add_func ("/capture/histogram/empty", test_empty);
  g_test_add_func ("/capture/histogram/absurd-ranges", test_absurd_ranges);
  g_test_add_func ("/capture/histogram/million-samples", test_million_samples);

  return g_test_run ();
}
