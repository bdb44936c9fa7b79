/* test-stats-parts.c — the summary of samples held in parts (the parallel save's statistics) against numpy on the whole: sums, std, and the counting search's exact quantiles. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "stats-reference.h"
#include "tprof-stats-parts-internal.h"

/* The parts' sorted copies, and the search run over them as the ranks of
 * a parallel save run it: probes out, counts summed, brackets narrowed. */
static void
search_parts (double **sorted, const gsize *len, gsize n_parts, gsize n, double min, double max,
              double *quantiles, int *rounds)
{
  TprofOrderSearch search;
  double probes[TPROF_ORDER_SEARCH_MAX];

  _tprof_order_search_init (&search, n, min, max);
  *rounds = 0;
  while (_tprof_order_search_probes (&search, probes))
    {
      uint64_t total[TPROF_ORDER_SEARCH_MAX] = { 0 };

      for (gsize p = 0; p < n_parts; p++)
        for (gsize t = 0; t < TPROF_ORDER_SEARCH_MAX; t++)
          total[t] += _tprof_sorted_count_at_or_below (sorted[p], len[p], probes[t]);
      _tprof_order_search_narrow (&search, total);
      g_assert_cmpint (++*rounds, <=, 64);
    }
  _tprof_order_search_quantiles (&search, quantiles);
}

/* @times cut into @n_parts pieces at random; every figure checked
 * against numpy on the whole array. */
static void
check_parts (const double *times, const int32_t *ranks, gsize n, gsize n_parts, guint32 seed)
{
  static const char *qs[] = { "0.5", "0.95", "0.99", NULL };
  g_autoptr(StatsReference) ref = stats_reference_run ("stats", times, ranks, n, qs);
  gsize n_summary, n_q;
  const double *summary = stats_reference_get (ref, "summary", &n_summary);
  const double *expected_q = stats_reference_get (ref, "quantiles", &n_q);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree gsize *cut = g_new0 (gsize, n_parts + 1);
  g_autofree gsize *len = g_new0 (gsize, n_parts);
  g_autofree double **sorted = g_new0 (double *, n_parts);
  TprofPartSums all;
  double ss = 0.0, mean, quantiles[TPROF_SUMMARY_N_QUANTILES];
  int rounds;

  for (gsize p = 1; p < n_parts; p++)
    cut[p] = (gsize) g_rand_int_range (rand, 0, (gint32) n + 1);
  cut[n_parts] = n;
  for (gsize p = 1; p < n_parts; p++)  /* insertion sort of the cuts */
    for (gsize q = p; q > 1 && cut[q - 1] > cut[q]; q--)
      {
        gsize t = cut[q];
        cut[q] = cut[q - 1];
        cut[q - 1] = t;
      }

  g_assert_cmpuint (n_summary, ==, 6);
  g_assert_cmpuint (n_q, ==, TPROF_SUMMARY_N_QUANTILES);
  _tprof_part_sums_init (&all);
  for (gsize p = 0; p < n_parts; p++)
    {
      TprofPartSums part;

      len[p] = cut[p + 1] - cut[p];
      _tprof_part_sums_init (&part);
      _tprof_part_sums_add (&part, times + cut[p], len[p]);
      _tprof_part_sums_merge (&all, &part);
    }
  g_assert_cmpuint (all.count, ==, (guint64) summary[0]);
  stats_assert_close (all.sum, summary[1], 1e-12);
  g_assert_cmpfloat (all.min, ==, summary[4]);
  g_assert_cmpfloat (all.max, ==, summary[5]);

  mean = all.sum / (double) all.count;
  for (gsize p = 0; p < n_parts; p++)
    ss += _tprof_part_squared_deviations (times + cut[p], len[p], mean);
  stats_assert_close (_tprof_std_of_squared_deviations (ss, all.count), summary[3], 1e-9);

  for (gsize p = 0; p < n_parts; p++)
    {
      g_autofree double *scratch = g_new (double, len[p] + 1);

      /* at least one element, so that an empty part has an array too */
      sorted[p] = g_new (double, len[p] + 1);
      memcpy (sorted[p], times + cut[p], len[p] * sizeof (double));
      _tprof_part_sort (sorted[p], len[p], scratch);
    }
  search_parts (sorted, len, n_parts, n, all.min, all.max, quantiles, &rounds);
  /* exact: the same order statistics, the same interpolation as numpy's */
  for (gsize i = 0; i < TPROF_SUMMARY_N_QUANTILES; i++)
    g_assert_cmpfloat (quantiles[i], ==, expected_q[i]);
  g_test_message ("%zu samples in %zu parts: %d rounds", n, n_parts, rounds);
  for (gsize p = 0; p < n_parts; p++)
    g_free (sorted[p]);
}

static void
test_parts_random (void)
{
  static const gsize sizes[] = { 1, 2, 3, 7, 100, 4096, 100003 };

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree double *times = NULL;
      g_autofree int32_t *ranks = NULL;

      stats_random_samples (sizes[i], 8, &times, &ranks);
      check_parts (times, ranks, sizes[i], 1 + i % 5, 11u + (guint32) i);
      check_parts (times, ranks, sizes[i], 16, 97u + (guint32) i);
    }
}

/* Ties, zeros and a spread over many decades: the search works on the
 * values' bit patterns, so these are where it could go wrong. */
static void
test_parts_ties_and_zeros (void)
{
  gsize n = 5000;
  g_autofree double *times = g_new (double, n);
  g_autofree int32_t *ranks = g_new0 (int32_t, n);

  for (gsize i = 0; i < n; i++)
    times[i] = i % 7 == 0 ? 0.0 : i % 3 == 0 ? 1e-9 : i % 5 == 0 ? 3600.0 : (double) (i % 4) * 1e-3;
  check_parts (times, ranks, n, 4, 5u);
  for (gsize i = 0; i < n; i++)
    times[i] = 0.0;
  check_parts (times, ranks, n, 3, 6u);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/stats-parts/random", test_parts_random);
  g_test_add_func ("/capture/stats-parts/ties-and-zeros", test_parts_ties_and_zeros);
  return g_test_run ();
}
