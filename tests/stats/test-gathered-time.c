/* test-gathered-time.c — TprofGatheredTime: accessors, statistics, selections and summaries against numpy. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/capture.h>

#include "stats-reference.h"

#define REL_TOL 1e-12

static TprofGatheredTime *
gathered_time_new_checked (const double  *times,
                           const int32_t *ranks,
                           gsize          n)
{
  TprofGatheredTime *gt = tprof_gathered_time_new (times, ranks, n);

  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, n);
  return gt;
}

/* Compares a TprofRankSummary-shaped result with reference.py's
 * [count, sum, mean, std, min, max]: numpy's numbers, bit for bit. */
static void
assert_summary_matches (const TprofRankSummary *s,
                        const double           *expected)
{
  g_assert_cmpuint (s->count, ==, (gsize) expected[0]);
  stats_assert_close (s->sum, expected[1], 0.0);
  stats_assert_close (s->mean, expected[2], 0.0);
  stats_assert_close (s->std, expected[3], 0.0);
  stats_assert_close (s->min, expected[4], 0.0);
  stats_assert_close (s->max, expected[5], 0.0);
}

static void
test_new_and_accessors (void)
{
  double times[] = { 0.5, 0.25, 2.0 };
  int32_t ranks[] = { 1, 0, 1 };
  g_autoptr(TprofGatheredTime) gt = gathered_time_new_checked (times, ranks, 3);
  g_autoptr(TprofGatheredTime) empty = gathered_time_new_checked (NULL, NULL, 0);
  g_autoptr(TprofGatheredTime) taken = NULL;
  g_autoptr(TprofGatheredTime) empty_take = NULL;
  double *owned_times = malloc (2 * sizeof (double));
  int32_t *owned_ranks = malloc (2 * sizeof (int32_t));

  /* new() copies: changing the caller's arrays changes nothing. */
  times[0] = 99.0;
  ranks[0] = 99;
  g_assert_cmpfloat (tprof_gathered_time_times (gt)[0], ==, 0.5);
  g_assert_cmpint (tprof_gathered_time_ranks (gt)[0], ==, 1);
  g_assert_cmpfloat (tprof_gathered_time_times (gt)[2], ==, 2.0);
  g_assert_false (tprof_gathered_time_is_empty (gt));

  g_assert_true (tprof_gathered_time_is_empty (empty));
  g_assert_null (tprof_gathered_time_times (empty));
  g_assert_null (tprof_gathered_time_ranks (empty));

  /* new_take() keeps the very arrays (malloc'd: the library frees them). */
  owned_times[0] = 1.0;
  owned_times[1] = 3.0;
  owned_ranks[0] = 4;
  owned_ranks[1] = 2;
  taken = tprof_gathered_time_new_take (owned_times, owned_ranks, 2);
  g_assert_nonnull (taken);
  g_assert_true (tprof_gathered_time_times (taken) == owned_times);
  g_assert_true (tprof_gathered_time_ranks (taken) == owned_ranks);
  g_assert_cmpuint (tprof_gathered_time_count (taken), ==, 2);
  g_assert_cmpuint (tprof_gathered_time_rank_count (taken), ==, 2);

  /* An empty take frees what it was given and reports no arrays. */
  empty_take = tprof_gathered_time_new_take (malloc (8), malloc (4), 0);
  g_assert_true (tprof_gathered_time_is_empty (empty_take));
  g_assert_null (tprof_gathered_time_times (empty_take));
  g_assert_null (tprof_gathered_time_ranks (empty_take));

  /* Samples without arrays are refused; what was given is still freed. */
  g_assert_null (tprof_gathered_time_new_take (NULL, malloc (4), 1));
  g_assert_null (tprof_gathered_time_new (NULL, NULL, 2));

  /* NULL is an empty selection everywhere, and free (NULL) is allowed. */
  g_assert_true (tprof_gathered_time_is_empty (NULL));
  g_assert_cmpuint (tprof_gathered_time_count (NULL), ==, 0);
  tprof_gathered_time_free (NULL);
}

static void
test_basic_statistics (void)
{
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(StatsReference) ref = NULL;
  TprofRankSummary whole;
  gsize n_expected;
  const double *expected;

  stats_random_samples (1000, 7, &times, &ranks);
  gt = gathered_time_new_checked (times, ranks, 1000);
  ref = stats_reference_run ("stats", times, ranks, 1000, NULL);

  expected = stats_reference_get (ref, "summary", &n_expected);
  g_assert_cmpuint (n_expected, ==, 6);
  whole = (TprofRankSummary) {
    .count = tprof_gathered_time_count (gt),
    .sum = tprof_gathered_time_sum (gt),
    .mean = tprof_gathered_time_mean (gt),
    .std = tprof_gathered_time_std (gt),
    .min = tprof_gathered_time_min (gt),
    .max = tprof_gathered_time_max (gt),
  };
  assert_summary_matches (&whole, expected);
  g_assert_cmpuint (tprof_gathered_time_rank_count (gt), ==,
                    (gsize) stats_reference_get_one (ref, "rank_count"));
}

static void
test_small_counts (void)
{
  const double one[] = { 0.125 };
  const double two[] = { 1.0, 4.0 };
  const int32_t ranks[] = { 3, 3 };
  g_autoptr(TprofGatheredTime) single = gathered_time_new_checked (one, ranks, 1);
  g_autoptr(TprofGatheredTime) pair = gathered_time_new_checked (two, ranks, 2);

  /* Divisor N-1: undefined for one sample. */
  g_assert_true (isnan (tprof_gathered_time_std (single)));
  g_assert_cmpfloat (tprof_gathered_time_mean (single), ==, 0.125);
  g_assert_cmpfloat (tprof_gathered_time_min (single), ==, 0.125);
  g_assert_cmpfloat (tprof_gathered_time_max (single), ==, 0.125);
  g_assert_cmpfloat (tprof_gathered_time_quantile (single, 0.3), ==, 0.125);

  /* sqrt (((1-2.5)^2 + (4-2.5)^2) / 1) = sqrt (4.5) */
  g_assert_cmpfloat (tprof_gathered_time_std (pair), ==, sqrt (4.5));
  g_assert_cmpfloat (tprof_gathered_time_quantile (pair, 0.5), ==, 2.5);
}

static void
test_std_cancellation (void)
{
  enum { N = 2000 };
  double times[N];
  int32_t ranks[N] = { 0 };
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(StatsReference) ref = NULL;
  double sum = 0.0, sum_squares = 0.0, naive, exact;

  /* Huge offset, small spread: sum of squares minus squared sum cancels. */
  for (gsize i = 0; i < N; i++)
    times[i] = 1e9 + g_test_rand_double_range (-1.0, 1.0);

  gt = gathered_time_new_checked (times, ranks, N);
  ref = stats_reference_run ("stdev-exact", times, ranks, N, NULL);
  exact = stats_reference_get_one (ref, "stdev");

  for (gsize i = 0; i < N; i++)
    {
      sum += times[i];
      sum_squares += times[i] * times[i];
    }
  naive = sqrt (fabs (sum_squares - sum * sum / N) / (N - 1));

  /* The data really defeat the textbook formula... */
  g_assert_cmpfloat (fabs (naive - exact), >, 1e-3 * exact);
  /* ...and tprof still agrees with exact rational arithmetic. */
  stats_assert_close (tprof_gathered_time_std (gt), exact, REL_TOL);
  stats_assert_close (tprof_gathered_time_mean (gt), stats_reference_get_one (ref, "mean"), 1e-14);
}

static const char *const quantile_args[] = { "0", "0.5", "0.95", "1", "0.25", "0.75", "0.99",
                                             "0.1", "0.3333333333333333", "0.999", NULL };

static void
assert_quantiles_match (const double *times,
                        const int32_t *ranks,
                        gsize          n)
{
  g_autoptr(TprofGatheredTime) gt = gathered_time_new_checked (times, ranks, n);
  g_autoptr(StatsReference) ref = stats_reference_run ("stats", times, ranks, n,
                                                       (const char **) quantile_args);
  gsize n_qs = g_strv_length ((char **) quantile_args);
  g_autofree double *qs = g_new (double, n_qs);
  g_autofree double *batch = g_new (double, n_qs);
  gsize n_expected;
  const double *expected = stats_reference_get (ref, "quantiles", &n_expected);

  g_assert_cmpuint (n_expected, ==, n_qs);
  for (gsize i = 0; i < n_qs; i++)
    qs[i] = g_ascii_strtod (quantile_args[i], NULL);

  g_assert_true (tprof_gathered_time_quantiles (gt, qs, n_qs, batch));
  for (gsize i = 0; i < n_qs; i++)
    {
      /* numpy's exact formula: the results agree to the last bit. */
      g_assert_cmpfloat (batch[i], ==, expected[i]);
      g_assert_cmpfloat (tprof_gathered_time_quantile (gt, qs[i]), ==, expected[i]);
    }

  /* The selection works on a copy: the samples keep their order. */
  g_assert_cmpmem (tprof_gathered_time_times (gt), n * sizeof (double), times, n * sizeof (double));
}

static void
test_quantile (void)
{
  enum { N = 5001 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autofree double *pattern = g_new (double, N);
  double one = 1.0;
  int32_t rank = 0;
  g_autoptr(TprofGatheredTime) gt = NULL;
  double q_bad[] = { -0.01, 1.01, NAN };
  double out[3];

  stats_random_samples (N, 4, &times, &ranks);
  assert_quantiles_match (times, ranks, N);
  assert_quantiles_match (times, ranks, 2);
  assert_quantiles_match (times, ranks, 17);

  /* Inputs that trip naive pivot choices: sorted, reversed, constant,
   * organ pipe, few distinct values. */
  for (gsize i = 0; i < N; i++)
    pattern[i] = (double) i;
  assert_quantiles_match (pattern, ranks, N);
  for (gsize i = 0; i < N; i++)
    pattern[i] = (double) (N - i);
  assert_quantiles_match (pattern, ranks, N);
  for (gsize i = 0; i < N; i++)
    pattern[i] = 0.25;
  assert_quantiles_match (pattern, ranks, N);
  for (gsize i = 0; i < N; i++)
    pattern[i] = (double) MIN (i, N - i);
  assert_quantiles_match (pattern, ranks, N);
  for (gsize i = 0; i < N; i++)
    pattern[i] = (double) (i % 3);
  assert_quantiles_match (pattern, ranks, N);

  /* Out of [0, 1] or NaN: NaN, and the valid ones are unaffected. */
  gt = gathered_time_new_checked (&one, &rank, 1);
  for (gsize i = 0; i < G_N_ELEMENTS (q_bad); i++)
    g_assert_true (isnan (tprof_gathered_time_quantile (gt, q_bad[i])));
  g_assert_true (tprof_gathered_time_quantiles (gt, q_bad, 3, out));
  g_assert_true (isnan (out[0]) && isnan (out[1]) && isnan (out[2]));
}

static void
test_empty (void)
{
  int32_t wanted = 0;
  double q = 0.5;
  double out = 0.0;
  TprofRankSummary unset;
  TprofRankSummary *summaries = &unset;
  TprofSummary summary;
  g_autoptr(TprofGatheredTime) gt = gathered_time_new_checked (NULL, NULL, 0);
  g_autoptr(TprofGatheredTime) by_rank = tprof_gathered_time_get_rank (gt, &wanted, 1);
  g_autoptr(TprofGatheredTime) sliced = tprof_gathered_time_slice (gt, 1, -1, -2);

  g_assert_cmpuint (tprof_gathered_time_rank_count (gt), ==, 0);
  g_assert_cmpfloat (tprof_gathered_time_sum (gt), ==, 0.0);
  g_assert_true (isnan (tprof_gathered_time_mean (gt)));
  g_assert_true (isnan (tprof_gathered_time_std (gt)));
  g_assert_true (isnan (tprof_gathered_time_min (gt)));
  g_assert_true (isnan (tprof_gathered_time_max (gt)));
  g_assert_true (isnan (tprof_gathered_time_quantile (gt, 0.5)));
  g_assert_true (tprof_gathered_time_quantiles (gt, &q, 1, &out));
  g_assert_true (isnan (out));

  g_assert_nonnull (by_rank);
  g_assert_true (tprof_gathered_time_is_empty (by_rank));
  g_assert_nonnull (sliced);
  g_assert_true (tprof_gathered_time_is_empty (sliced));

  g_assert_cmpuint (tprof_gathered_time_rank_summaries (gt, &summaries), ==, 0);
  g_assert_null (summaries);

  memset (&summary, 0xab, sizeof summary);
  g_assert_true (tprof_gathered_time_summarize (gt, &summary));
  g_assert_cmpuint (summary.count, ==, 0);
  g_assert_cmpuint (summary.rank_count, ==, 0);
  g_assert_cmpfloat (summary.sum, ==, 0.0);
  g_assert_true (isnan (summary.mean) && isnan (summary.std));
  g_assert_true (isnan (summary.min) && isnan (summary.max));
  g_assert_true (isnan (summary.median) && isnan (summary.p95) && isnan (summary.p99));
  g_assert_true (isnan (summary.imbalance));
  g_assert_true (isnan (summary.imbalance_time));
  g_assert_cmpint (summary.slowest_rank, ==, -1);
}

static void
assert_selection_equals (const TprofGatheredTime *gt,
                         StatsReference          *ref)
{
  gsize n_times, n_ranks;
  const double *times = stats_reference_get (ref, "times", &n_times);
  const double *ranks = stats_reference_get (ref, "ranks", &n_ranks);

  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, n_times);
  for (gsize i = 0; i < n_times; i++)
    {
      g_assert_cmpfloat (tprof_gathered_time_times (gt)[i], ==, times[i]);
      g_assert_cmpint (tprof_gathered_time_ranks (gt)[i], ==, (int32_t) ranks[i]);
    }
}

static void
test_get_rank (void)
{
  enum { N = 3000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autoptr(TprofGatheredTime) gt = NULL;
  /* Ranks 2 and 5 exist, 40 does not, 5 is asked twice. */
  const int32_t wanted[] = { 5, 40, 2, 5 };
  const char *wanted_args[] = { "5", "40", "2", "5", NULL };
  const int32_t sparse_ranks[] = { INT32_MAX, 100000, -7, 100000, INT32_MIN };
  const double sparse_times[] = { 1.0, 2.0, 3.0, 4.0, 5.0 };
  const int32_t sparse_wanted[] = { INT32_MIN, 100000 };
  g_autoptr(TprofGatheredTime) selected = NULL;
  g_autoptr(TprofGatheredTime) none = NULL;
  g_autoptr(TprofGatheredTime) sparse = NULL;
  g_autoptr(TprofGatheredTime) sparse_selected = NULL;
  g_autoptr(StatsReference) ref = NULL;

  stats_random_samples (N, 8, &times, &ranks);
  gt = gathered_time_new_checked (times, ranks, N);
  selected = tprof_gathered_time_get_rank (gt, wanted, G_N_ELEMENTS (wanted));
  ref = stats_reference_run ("get-rank", times, ranks, N, wanted_args);
  assert_selection_equals (selected, ref);
  g_assert_cmpuint (tprof_gathered_time_rank_count (selected), ==, 2);

  none = tprof_gathered_time_get_rank (gt, NULL, 0);
  g_assert_true (tprof_gathered_time_is_empty (none));

  sparse = gathered_time_new_checked (sparse_times, sparse_ranks, 5);
  g_assert_cmpuint (tprof_gathered_time_rank_count (sparse), ==, 4);
  sparse_selected = tprof_gathered_time_get_rank (sparse, sparse_wanted, 2);
  g_assert_cmpuint (tprof_gathered_time_count (sparse_selected), ==, 3);
  g_assert_cmpfloat (tprof_gathered_time_times (sparse_selected)[0], ==, 2.0);
  g_assert_cmpfloat (tprof_gathered_time_times (sparse_selected)[1], ==, 4.0);
  g_assert_cmpfloat (tprof_gathered_time_times (sparse_selected)[2], ==, 5.0);
}

typedef struct
{
  ptrdiff_t start, stop, step;
} SliceCase;

static char *
format_bound (ptrdiff_t bound)
{
  return bound == TPROF_SLICE_DEFAULT ? g_strdup ("none")
                                      : g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) bound);
}

static void
test_slice (void)
{
  enum { N = 11 };
  const ptrdiff_t D = TPROF_SLICE_DEFAULT;
  const SliceCase cases[] = {
    { D, D, D }, { D, D, -1 }, { D, D, 2 }, { D, D, -3 }, { 2, 8, 1 }, { 8, 2, 1 },
    { 8, 2, -1 }, { 8, 2, -2 }, { -1, D, -1 }, { -3, -1, 1 }, { -1, -4, -1 },
    { -100, 100, 1 }, { 100, -100, -1 }, { 100, D, -4 }, { D, -100, -1 }, { 3, D, 100 },
    { D, 5, -1 }, { 5, D, -1 }, { -12, -11, 1 }, { 0, 0, 1 }, { 10, 11, 1 }, { 11, 10, -1 },
    { PTRDIFF_MAX, PTRDIFF_MIN + 1, -1 }, { PTRDIFF_MIN + 1, PTRDIFF_MAX, PTRDIFF_MAX },
    { D, D, PTRDIFF_MIN + 1 }, { 4, 4, -1 }, { 1, 10, 3 }, { -2, 0, -5 },
  };
  double times[N];
  int32_t ranks[N];
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(StatsReference) ref = NULL;

  for (gsize i = 0; i < N; i++)
    {
      times[i] = (double) i;
      ranks[i] = (int32_t) (100 + i);
    }
  gt = gathered_time_new_checked (times, ranks, N);

  /* Python does the slicing of range (N); the first argument is N. */
  g_ptr_array_add (args, g_strdup_printf ("%d", N));
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *start = format_bound (cases[c].start);
      g_autofree char *stop = format_bound (cases[c].stop);
      g_autofree char *step = format_bound (cases[c].step);

      g_ptr_array_add (args, g_strdup_printf ("%s,%s,%s", start, stop, step));
    }
  g_ptr_array_add (args, NULL);

  ref = stats_reference_run ("slice", times, ranks, N, (const char **) args->pdata);

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *name = g_strdup_printf ("case_%" G_GSIZE_FORMAT, c);
      g_autoptr(TprofGatheredTime) sliced =
        tprof_gathered_time_slice (gt, cases[c].start, cases[c].stop, cases[c].step);
      gsize n_expected;
      const double *expected = stats_reference_get (ref, name, &n_expected);

      g_test_message ("slice case %" G_GSIZE_FORMAT, c);
      g_assert_nonnull (sliced);
      g_assert_cmpuint (tprof_gathered_time_count (sliced), ==, (gsize) expected[0]);
      for (gsize i = 0; i < (gsize) expected[0]; i++)
        {
          g_assert_cmpfloat (tprof_gathered_time_times (sliced)[i], ==, expected[1 + i]);
          g_assert_cmpint (tprof_gathered_time_ranks (sliced)[i], ==, 100 + (int32_t) expected[1 + i]);
        }
    }

  g_assert_null (tprof_gathered_time_slice (gt, 0, 5, 0));
}

static void
assert_rank_summaries_match (const double  *times,
                             const int32_t *ranks,
                             gsize          n)
{
  g_autoptr(TprofGatheredTime) gt = gathered_time_new_checked (times, ranks, n);
  g_autoptr(StatsReference) ref = stats_reference_run ("stats", times, ranks, n, NULL);
  g_autofree TprofRankSummary *summaries = NULL;
  gsize n_expected;
  const double *expected_ranks = stats_reference_get (ref, "ranks", &n_expected);
  gsize n_summaries = tprof_gathered_time_rank_summaries (gt, &summaries);

  g_assert_cmpuint (n_summaries, ==, n_expected);
  for (gsize r = 0; r < n_summaries; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank_%d", summaries[r].rank);
      gsize n_values;

      g_assert_cmpint (summaries[r].rank, ==, (int32_t) expected_ranks[r]);
      assert_summary_matches (&summaries[r], stats_reference_get (ref, name, &n_values));
    }
}

static void
test_rank_summaries (void)
{
  enum { N = 4000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;

  stats_random_samples (N, 13, &times, &ranks);
  assert_rank_summaries_match (times, ranks, N);

  /* Large, sparse rank numbers: no world-sized table, same answers. */
  for (gsize i = 0; i < N; i++)
    ranks[i] = (int32_t) ((i % 5) * 100000 + (i % 5 == 4 ? INT32_MAX - 400000 : 0));
  ranks[7] = 3;  /* a rank with a single sample: std NaN */
  assert_rank_summaries_match (times, ranks, N);
}

static void
assert_summarize_matches (const double  *times,
                          const int32_t *ranks,
                          gsize          n)
{
  static const char *const args[] = { "0.5", "0.95", "0.99", NULL };
  g_autoptr(TprofGatheredTime) gt = gathered_time_new_checked (times, ranks, n);
  g_autoptr(StatsReference) ref = stats_reference_run ("stats", times, ranks, n, (const char **) args);
  TprofSummary s;
  TprofRankSummary whole;
  gsize n_values;
  const double *quantiles = stats_reference_get (ref, "quantiles", &n_values);

  g_assert_true (tprof_gathered_time_summarize (gt, &s));
  whole = (TprofRankSummary) { .count = s.count, .sum = s.sum, .mean = s.mean,
                               .std = s.std, .min = s.min, .max = s.max };
  assert_summary_matches (&whole, stats_reference_get (ref, "summary", &n_values));
  g_assert_cmpuint (s.rank_count, ==, (gsize) stats_reference_get_one (ref, "rank_count"));
  g_assert_cmpfloat (s.median, ==, quantiles[0]);
  g_assert_cmpfloat (s.p95, ==, quantiles[1]);
  g_assert_cmpfloat (s.p99, ==, quantiles[2]);
  stats_assert_close (s.imbalance, stats_reference_get_one (ref, "imbalance"), REL_TOL);
  stats_assert_close (s.imbalance_time, stats_reference_get_one (ref, "imbalance_time"), 1e-9);
  g_assert_cmpint (s.slowest_rank, ==, (int32_t) stats_reference_get_one (ref, "slowest_rank"));
}

static void
test_summarize (void)
{
  enum { N = 2500 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  /* Ranks 4 and 2 tie on the largest total (3.0): the lower rank wins. */
  const double tie_times[] = { 1.0, 2.0, 3.0, 1.5, 1.5, 0.5 };
  const int32_t tie_ranks[] = { 4, 4, 2, 9, 9, 0 };
  TprofSummary tie;
  g_autoptr(TprofGatheredTime) tied = NULL;

  stats_random_samples (N, 6, &times, &ranks);
  /* Make rank 3 a straggler. */
  for (gsize i = 0; i < N; i++)
    if (ranks[i] == 3)
      times[i] *= 4.0;
  assert_summarize_matches (times, ranks, N);

  tied = gathered_time_new_checked (tie_times, tie_ranks, G_N_ELEMENTS (tie_times));
  g_assert_true (tprof_gathered_time_summarize (tied, &tie));
  g_assert_cmpint (tie.slowest_rank, ==, 2);
  /* totals 3, 3, 3, 0.5: max 3 / mean 2.375 */
  g_assert_cmpfloat_with_epsilon (tie.imbalance, 3.0 / 2.375, 1e-15);
  g_assert_cmpuint (tie.rank_count, ==, 4);
  assert_summarize_matches (tie_times, tie_ranks, G_N_ELEMENTS (tie_times));
}

/* Statistics from per-rank totals alone (a profile's cache) under a rank
 * mask, against numpy on the selected ranks' samples. */
static void
test_rank_totals_summarize (void)
{
  enum { N = 3000, WORLD = 8 };
  static const char *const args[] = { "combined", "-", "1,3,4", "2", NULL };
  static const guint8 mask[][WORLD] = { { 0, 1, 0, 1, 1, 0, 0, 0 }, { 0, 0, 1, 0, 0, 0, 0, 0 } };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(StatsReference) ref = NULL;
  g_autofree TprofRankSummary *per_rank = NULL;
  int64_t count[WORLD] = { 0 };
  double sum[WORLD], min[WORLD], max[WORLD];
  size_t n_ranks;
  TprofSummary s;
  const guint8 none[WORLD] = { 0 };

  stats_random_samples (N, WORLD, &times, &ranks);
  for (gsize i = 0; i < N; i++)
    if (ranks[i] == 3)
      times[i] *= 3.0;
    else if (ranks[i] == 6)  /* rank 6 records nothing */
      ranks[i] = 5;
  gt = gathered_time_new_checked (times, ranks, N);
  n_ranks = tprof_gathered_time_rank_summaries (gt, &per_rank);
  for (int r = 0; r < WORLD; r++)
    sum[r] = 0.0, min[r] = max[r] = NAN;
  for (size_t i = 0; i < n_ranks; i++)
    {
      int r = per_rank[i].rank;

      count[r] = (int64_t) per_rank[i].count;
      sum[r] = per_rank[i].sum;
      min[r] = per_rank[i].min;
      max[r] = per_rank[i].max;
    }
  ref = stats_reference_run ("selections", times, ranks, N, (const char **) args);
  for (guint k = 0; k < G_N_ELEMENTS (mask); k++)
    {
      g_autofree char *prefix = g_strdup_printf ("s%u_", k);
      g_autofree char *name = g_strconcat (prefix, "summary", NULL);
      g_autofree char *imbalance = g_strconcat (prefix, "imbalance", NULL);
      g_autofree char *imbalance_time = g_strconcat (prefix, "imbalance_time", NULL);
      g_autofree char *slowest = g_strconcat (prefix, "slowest_rank", NULL);
      g_autofree char *rank_count = g_strconcat (prefix, "rank_count", NULL);
      gsize n_values;
      const double *expected = stats_reference_get (ref, name, &n_values);

      g_assert_true (tprof_rank_totals_summarize (count, sum, min, max, WORLD, mask[k], &s));
      g_assert_cmpuint (s.count, ==, (gsize) expected[0]);
      stats_assert_close (s.sum, expected[1], 1e-12);
      stats_assert_close (s.mean, expected[2], 1e-12);
      g_assert_cmpfloat (s.min, ==, expected[4]);
      g_assert_cmpfloat (s.max, ==, expected[5]);
      g_assert_cmpuint (s.rank_count, ==, (gsize) stats_reference_get_one (ref, rank_count));
      stats_assert_close (s.imbalance, stats_reference_get_one (ref, imbalance), 1e-12);
      stats_assert_close (s.imbalance_time, stats_reference_get_one (ref, imbalance_time), 1e-9);
      g_assert_cmpint (s.slowest_rank, ==, (int32_t) stats_reference_get_one (ref, slowest));
      /* what needs the samples is unknown, not guessed */
      g_assert_true (isnan (s.std) && isnan (s.median) && isnan (s.p95) && isnan (s.p99));
    }

  /* every rank: the straggler is rank 3, and rank 6 (no samples) is left out */
  g_assert_true (tprof_rank_totals_summarize (count, sum, min, max, WORLD, NULL, &s));
  g_assert_cmpuint (s.count, ==, N);
  g_assert_cmpuint (s.rank_count, ==, WORLD - 1);
  g_assert_cmpint (s.slowest_rank, ==, 3);

  g_assert_true (tprof_rank_totals_summarize (count, sum, min, max, WORLD, none, &s));
  g_assert_cmpuint (s.count, ==, 0);
  g_assert_cmpuint (s.rank_count, ==, 0);
  g_assert_true (isnan (s.mean) && isnan (s.min) && isnan (s.imbalance));
  g_assert_cmpint (s.slowest_rank, ==, -1);
}

static void
test_million_samples (void)
{
  enum { N = 1000000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;

  stats_random_samples (N, 64, &times, &ranks);
  assert_summarize_matches (times, ranks, N);

  /* Ranks spread over 1.26 million numbers: too wide for a small table,
   * narrow enough next to a million samples for one. */
  for (gsize i = 0; i < N; i++)
    ranks[i] *= 20000;
  assert_rank_summaries_match (times, ranks, N);
  /* beyond the table the summary pass keeps: the general path */
  assert_summarize_matches (times, ranks, N);
}

/* numpy's sum (pairwise within buffers of 8192 values, the buffers in
 * order), mean and std, bit for bit, also where a pass is split between
 * threads (from a million samples on, at buffer boundaries). */
static void
test_sum_bit_identical (void)
{
  const gsize sizes[] = { 1000, 1000003, 2100007 };

  for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gsize n = sizes[s], n_values;
      g_autofree double *times = NULL;
      g_autofree int32_t *ranks = NULL;
      g_autoptr(TprofGatheredTime) gt = NULL;
      g_autoptr(StatsReference) ref = NULL;
      const double *expected;
      TprofSummary summary;

      stats_random_samples (n, 16, &times, &ranks);
      gt = gathered_time_new_checked (times, ranks, n);
      ref = stats_reference_run ("stats", times, ranks, n, NULL);
      expected = stats_reference_get (ref, "summary", &n_values);

      g_assert_cmpfloat (tprof_gathered_time_sum (gt), ==, expected[1]);
      g_assert_cmpfloat (tprof_gathered_time_mean (gt), ==, expected[2]);
      g_assert_cmpfloat (tprof_gathered_time_std (gt), ==, expected[3]);
      g_assert_true (tprof_gathered_time_summarize (gt, &summary));
      g_assert_cmpfloat (summary.sum, ==, expected[1]);
      g_assert_cmpfloat (summary.mean, ==, expected[2]);
      g_assert_cmpfloat (summary.std, ==, expected[3]);
      g_assert_cmpfloat (summary.min, ==, expected[4]);
      g_assert_cmpfloat (summary.max, ==, expected[5]);
    }
}

/* Sub-selections keep each sample's start and thread with its time and
 * rank; a selection without a timeline gives none. */
static void
test_timeline_carried (void)
{
  enum { N = 9 };
  double times[N], starts[N];
  int32_t ranks[N], threads[N];
  const int32_t wanted[] = { 1 };
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(TprofGatheredTime) by_rank = NULL;
  g_autoptr(TprofGatheredTime) reversed = NULL;
  g_autoptr(TprofGatheredTime) bare = NULL;
  g_autoptr(TprofGatheredTime) bare_slice = NULL;

  for (int i = 0; i < N; i++)
    {
      times[i] = 0.5 + i;
      ranks[i] = i % 3;
      starts[i] = 100.0 + 10 * i;
      threads[i] = i / 3;
    }
  gt = gathered_time_new_checked (times, ranks, N);
  g_assert_null (tprof_gathered_time_starts (gt));
  g_assert_true (tprof_gathered_time_set_timeline_take (gt, g_memdup2 (starts, sizeof starts),
                                                        g_memdup2 (threads, sizeof threads)));
  g_assert_cmpmem (tprof_gathered_time_starts (gt), sizeof starts, starts, sizeof starts);

  by_rank = tprof_gathered_time_get_rank (gt, wanted, 1);
  g_assert_cmpuint (tprof_gathered_time_count (by_rank), ==, 3);
  for (int j = 0; j < 3; j++)
    {
      g_assert_cmpfloat (tprof_gathered_time_times (by_rank)[j], ==, times[1 + 3 * j]);
      g_assert_cmpfloat (tprof_gathered_time_starts (by_rank)[j], ==, starts[1 + 3 * j]);
      g_assert_cmpint (tprof_gathered_time_threads (by_rank)[j], ==, threads[1 + 3 * j]);
    }

  reversed = tprof_gathered_time_slice (gt, TPROF_SLICE_DEFAULT, TPROF_SLICE_DEFAULT, -2);
  g_assert_cmpuint (tprof_gathered_time_count (reversed), ==, 5);
  for (int j = 0; j < 5; j++)
    {
      g_assert_cmpfloat (tprof_gathered_time_starts (reversed)[j], ==, starts[N - 1 - 2 * j]);
      g_assert_cmpint (tprof_gathered_time_threads (reversed)[j], ==, threads[N - 1 - 2 * j]);
    }

  bare = gathered_time_new_checked (times, ranks, N);
  bare_slice = tprof_gathered_time_slice (bare, 1, 4, 1);
  g_assert_null (tprof_gathered_time_starts (bare_slice));
  g_assert_null (tprof_gathered_time_threads (bare_slice));
}

static void
count_release (void *user_data)
{
  (*(int *) user_data)++;
}

/* A shared selection reads its owner's arrays in place, sub-selections
 * copy them, and freeing it only calls release, once. */
static void
test_shared (void)
{
  double times[] = { 4.0, 1.0, 3.0, 2.0, 5.0 };
  int32_t ranks[] = { 0, 1, 0, 1, 1 };
  double starts[] = { 0.0, 0.5, 1.0, 1.5, 2.0 };
  int32_t rank1 = 1;
  int released = 0;
  TprofGatheredTime *gt = tprof_gathered_time_new_shared (times, ranks, starts, 5, count_release, &released);
  TprofGatheredTime *sub;

  g_assert_nonnull (gt);
  g_assert_true (tprof_gathered_time_times (gt) == times);
  g_assert_true (tprof_gathered_time_starts (gt) == starts);
  /* numpy.median([4, 1, 3, 2, 5]) */
  g_assert_cmpfloat (tprof_gathered_time_quantile (gt, 0.5), ==, 3.0);
  sub = tprof_gathered_time_get_rank (gt, &rank1, 1);
  g_assert_cmpuint (tprof_gathered_time_count (sub), ==, 3);
  g_assert_true (tprof_gathered_time_times (sub) != times);
  tprof_gathered_time_free (sub);
  /* a new timeline would replace arrays it does not own: refused */
  tprof_gathered_time_set_timeline_take (gt, g_memdup2 (starts, sizeof starts), NULL);
  g_assert_true (tprof_gathered_time_starts (gt) == starts);
  g_assert_cmpint (released, ==, 0);
  tprof_gathered_time_free (gt);
  g_assert_cmpint (released, ==, 1);
  g_assert_cmpfloat (times[0], ==, 4.0);
  g_assert_cmpfloat (starts[4], ==, 2.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture/stats/new-and-accessors", test_new_and_accessors);
  g_test_add_func ("/capture/stats/basic", test_basic_statistics);
  g_test_add_func ("/capture/stats/small-counts", test_small_counts);
  g_test_add_func ("/capture/stats/std-cancellation", test_std_cancellation);
  g_test_add_func ("/capture/stats/quantile", test_quantile);
  g_test_add_func ("/capture/stats/empty", test_empty);
  g_test_add_func ("/capture/stats/get-rank", test_get_rank);
  g_test_add_func ("/capture/stats/slice", test_slice);
  g_test_add_func ("/capture/stats/shared", test_shared);
  g_test_add_func ("/capture/stats/timeline-carried", test_timeline_carried);
  g_test_add_func ("/capture/stats/rank-summaries", test_rank_summaries);
  g_test_add_func ("/capture/stats/summarize", test_summarize);
  g_test_add_func ("/capture/stats/rank-totals-summarize", test_rank_totals_summarize);
  g_test_add_func ("/capture/stats/million-samples", test_million_samples);
  g_test_add_func ("/capture/stats/sum-bit-identical", test_sum_bit_identical);

  return g_test_run ();
}
