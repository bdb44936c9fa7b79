/* test-select.c — the private selection code (in place and sampled, built into this test) and the small sorting network against a full sort. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <math.h>
#include <string.h>

#include "tprof-select-private.h"

typedef void (*PatternFunc) (double *values, gsize n);

static void
pattern_random (double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    values[i] = g_test_rand_double ();
}

static void
pattern_sorted (double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    values[i] = (double) i;
}

static void
pattern_reversed (double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    values[i] = (double) (n - i);
}

static void
pattern_constant (double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    values[i] = 0.5;
}

static void
pattern_few_distinct (double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    values[i] = (double) g_test_rand_int_range (0, 3);
}

static void
pattern_organ_pipe (double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    values[i] = (double) MIN (i, n - i);
}

/* Sorted, with the middle and the ends disturbed: the positions a median
 * of three or a ninther samples. */
static void
pattern_sampling_killer (double *values, gsize n)
{
  pattern_sorted (values, n);
  for (gsize i = 0; i + 1 < n; i += 2)
    if (i % 8 == 0)
      {
        double tmp = values[i];

        values[i] = values[n - 1 - i];
        values[n - 1 - i] = tmp;
      }
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Selects @k in a copy of @values and checks it against a full sort: the
 * right value at k, nothing larger before, nothing smaller after, and the
 * same multiset. */
static void
assert_select_matches_sort (const double *values,
                            gsize         n,
                            gsize         k)
{
  g_autofree double *selected = g_memdup2 (values, n * sizeof (double));
  g_autofree double *sorted = g_memdup2 (values, n * sizeof (double));

  qsort (sorted, n, sizeof (double), (int (*) (const void *, const void *)) compare_doubles);
  _tprof_select_nth (selected, n, k);

  g_assert_cmpfloat (selected[k], ==, sorted[k]);
  for (gsize i = 0; i < k; i++)
    g_assert_cmpfloat (selected[i], <=, selected[k]);
  for (gsize i = k + 1; i < n; i++)
    g_assert_cmpfloat (selected[i], >=, selected[k]);

  qsort (selected, n, sizeof (double), (int (*) (const void *, const void *)) compare_doubles);
  g_assert_cmpmem (selected, n * sizeof (double), sorted, n * sizeof (double));
}

static void
test_select_nth (void)
{
  const PatternFunc patterns[] = {
    pattern_random, pattern_sorted, pattern_reversed, pattern_constant,
    pattern_few_distinct, pattern_organ_pipe, pattern_sampling_killer,
  };
  const gsize sizes[] = { 1, 2, 3, 5, 16, 17, 18, 100, 129, 1001, 20000 };

  for (gsize p = 0; p < G_N_ELEMENTS (patterns); p++)
    for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        gsize n = sizes[s];
        g_autofree double *values = g_new (double, n);
        gsize ks[] = { 0, n / 2, n - 1, n / 3, (gsize) g_test_rand_int_range (0, (gint32) n) };

        patterns[p] (values, n);
        for (gsize i = 0; i < G_N_ELEMENTS (ks); i++)
          assert_select_matches_sort (values, n, ks[i]);
      }
}

static void
test_quantiles_consistent (void)
{
  enum { N = 10001 };
  const double qs[] = { 1.0, 0.0, 0.5, 0.5, 0.999, 0.25, 0.7500001, 2.0, -1.0 };
  double batch[G_N_ELEMENTS (qs)];
  g_autofree double *values = g_new (double, N);
  g_autofree double *sorted = NULL;

  pattern_random (values, N);
  sorted = g_memdup2 (values, N * sizeof (double));
  qsort (sorted, N, sizeof (double), (int (*) (const void *, const void *)) compare_doubles);

  /* Quantiles in any order, repeated, with one scratch copy... */
  g_assert_true (_tprof_select_quantiles (values, N, qs, G_N_ELEMENTS (qs), batch));
  /* ...give the sorted ends exactly, and NaN out of [0, 1]. */
  g_assert_cmpfloat (batch[0], ==, sorted[N - 1]);
  g_assert_cmpfloat (batch[1], ==, sorted[0]);
  g_assert_cmpfloat (batch[2], ==, sorted[N / 2]);
  g_assert_cmpfloat (batch[3], ==, sorted[N / 2]);
  g_assert_cmpfloat (batch[5], ==, sorted[N / 4]);
  g_assert_true (isnan (batch[7]) && isnan (batch[8]));
  /* Interpolated ones lie between their neighbours (h ~ 9990 and ~ 7500.001). */
  g_assert_cmpfloat (batch[4], >=, sorted[9989]);
  g_assert_cmpfloat (batch[4], <=, sorted[9991]);
  g_assert_cmpfloat (batch[6], >=, sorted[7500]);
  g_assert_cmpfloat (batch[6], <=, sorted[7501]);
}

static void
test_nan_terminates (void)
{
  enum { N = 3000 };
  g_autofree double *values = g_new (double, N);
  double q = 0.5;
  double out;

  /* NaN breaks the ordering, so the value is unspecified: the point is
   * that selection stays in bounds and ends. */
  pattern_random (values, N);
  for (gsize i = 0; i < N; i += 7)
    values[i] = NAN;
  for (gsize k = 0; k < N; k += 499)
    _tprof_select_nth (values, N, k);
  g_assert_true (_tprof_select_quantiles (values, N, &q, 1, &out));

  for (gsize i = 0; i < N; i++)
    values[i] = NAN;
  _tprof_select_nth (values, N, N / 2);
  g_assert_true (isnan (values[N / 2]));
}

/* The order statistics numpy's quantiles read, by the sampled scan of a
 * read-only array, against a full sort: exact values, exact extremes. */
static void
assert_sampled_matches_sort (const double *values,
                             gsize         n)
{
  const double qs[] = { 0.0, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0 };
  gsize ranks[2 * G_N_ELEMENTS (qs)];
  double found[G_N_ELEMENTS (ranks)];
  g_autofree double *before = g_memdup2 (values, n * sizeof (double));
  g_autofree double *sorted = g_memdup2 (values, n * sizeof (double));
  gsize n_ranks = _tprof_quantile_ranks (n, qs, G_N_ELEMENTS (qs), ranks);
  double min = 0, max = 0;

  qsort (sorted, n, sizeof (double), (int (*) (const void *, const void *)) compare_doubles);
  g_assert_cmpint (_tprof_select_ranks_sampled (values, n, ranks, n_ranks, found, &min, &max), ==, 1);
  for (gsize i = 0; i < n_ranks; i++)
    g_assert_cmpfloat (found[i], ==, sorted[ranks[i]]);
  g_assert_cmpfloat (min, ==, sorted[0]);
  g_assert_cmpfloat (max, ==, sorted[n - 1]);
  /* read-only */
  g_assert_cmpmem (values, n * sizeof (double), before, n * sizeof (double));
}

static void
test_sampled_select (void)
{
  const PatternFunc patterns[] = {
    pattern_random, pattern_sorted, pattern_reversed, pattern_constant,
    pattern_few_distinct, pattern_organ_pipe, pattern_sampling_killer,
  };
  /* one chunk, and (from 2^19 on, with two cores) several threads */
  const gsize sizes[] = { 70001, 600000 };

  for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gsize n = sizes[s];
      g_autofree double *values = g_new (double, n);

      for (gsize p = 0; p < G_N_ELEMENTS (patterns); p++)
        {
          patterns[p] (values, n);
          assert_sampled_matches_sort (values, n);
        }

      /* infinities are ordinary values */
      pattern_random (values, n);
      for (gsize i = 0; i < n; i += 101)
        values[i] = i % 2 ? INFINITY : -INFINITY;
      assert_sampled_matches_sort (values, n);
    }
}

static gboolean
same_double (double a,
             double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* Where sampling cannot work it says so (0), and _tprof_quantiles_of()
 * then gives what a scratch copy gives. */
static void
test_sampled_fallback (void)
{
  enum { N = 100000 };
  const double qs[] = { 0.5, 0.95, 0.99, 0.1 };
  double sampled[G_N_ELEMENTS (qs)], copied[G_N_ELEMENTS (qs)];
  gsize ranks[2 * G_N_ELEMENTS (qs) + 20];
  double found[G_N_ELEMENTS (ranks)], min, max;
  g_autofree double *values = g_new (double, N);
  g_autofree double *scratch = NULL;
  gsize n_ranks;

  pattern_random (values, N);
  n_ranks = _tprof_quantile_ranks (N, qs, G_N_ELEMENTS (qs), ranks);

  /* too few values to pay, too many targets */
  g_assert_cmpint (_tprof_select_ranks_sampled (values, 1000, ranks, 1, found, &min, &max), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (ranks); i++)
    ranks[i] = i * 1000;
  g_assert_cmpint (_tprof_select_ranks_sampled (values, N, ranks, G_N_ELEMENTS (ranks), found,
                                                &min, &max), ==, 0);

  /* a NaN breaks the ordering the brackets rely on */
  values[N / 3] = NAN;
  n_ranks = _tprof_quantile_ranks (N, qs, G_N_ELEMENTS (qs), ranks);
  g_assert_cmpint (_tprof_select_ranks_sampled (values, N, ranks, n_ranks, found, &min, &max), ==, 0);
  scratch = g_memdup2 (values, N * sizeof (double));
  g_assert_true (_tprof_quantiles_of (values, N, qs, G_N_ELEMENTS (qs), sampled));
  g_assert_true (_tprof_select_quantiles (scratch, N, qs, G_N_ELEMENTS (qs), copied));
  for (gsize i = 0; i < G_N_ELEMENTS (qs); i++)
    g_assert_true (same_double (sampled[i], copied[i]));

  /* without NaN the two ways agree bit for bit, interpolation included */
  values[N / 3] = 0.5;
  memcpy (scratch, values, N * sizeof (double));
  g_assert_true (_tprof_quantiles_of (values, N, qs, G_N_ELEMENTS (qs), sampled));
  g_assert_true (_tprof_select_quantiles (scratch, N, qs, G_N_ELEMENTS (qs), copied));
  for (gsize i = 0; i < G_N_ELEMENTS (qs); i++)
    g_assert_true (same_double (sampled[i], copied[i]));
}

/* @values[0..@n) through the network against qsort, bit for bit; the
 * input untouched and nothing written past @n. */
static void
check_sort_few (const double *values, gsize n)
{
  double expected[TPROF_SORT_FEW], input[TPROF_SORT_FEW], got[TPROF_SORT_FEW + 1];

  memcpy (input, values, n * sizeof *input);
  memcpy (expected, values, n * sizeof *expected);
  if (n > 0)
    qsort (expected, n, sizeof *expected, (int (*) (const void *, const void *)) compare_doubles);
  got[n] = -1.0;
  _tprof_sort_few (values, n, got);
  g_assert_cmpfloat (got[n], ==, -1.0);
  g_assert_cmpmem (values, n * sizeof *values, input, n * sizeof *input);
  g_assert_cmpmem (got, n * sizeof *got, expected, n * sizeof *expected);
}

/* Every size up to eight: every input of 0s and 1s (a network that sorts
 * those sorts everything), every order of n distinct values, random
 * values with ties and infinities. */
static void
test_sort_few (void)
{
  for (gsize n = 0; n <= TPROF_SORT_FEW; n++)
    {
      double values[TPROF_SORT_FEW] = { 0 };
      gsize perm[TPROF_SORT_FEW];

      for (guint bits = 0; bits < (1u << n); bits++)
        {
          for (gsize i = 0; i < n; i++)
            values[i] = (bits >> i) & 1;
          check_sort_few (values, n);
        }
      /* permutations in lexicographic order */
      for (gsize i = 0; i < n; i++)
        perm[i] = i;
      for (;;)
        {
          gssize i = (gssize) n - 2, j = (gssize) n - 1;

          for (gsize k = 0; k < n; k++)
            values[k] = (double) perm[k] * 0.25 - 1.0;
          check_sort_few (values, n);
          while (i >= 0 && perm[i] > perm[i + 1])
            i--;
          if (i < 0)
            break;
          while (perm[j] < perm[i])
            j--;
          gsize t = perm[i];
          perm[i] = perm[j];
          perm[j] = t;
          for (gsize a = (gsize) i + 1, b = n - 1; a < b; a++, b--)
            t = perm[a], perm[a] = perm[b], perm[b] = t;
        }
      for (int round = 0; round < 200; round++)
        {
          for (gsize i = 0; i < n; i++)
            values[i] = g_test_rand_int_range (0, 4) == 0 ? INFINITY : (double) g_test_rand_int_range (0, 3) * 1e-3;
          check_sort_few (values, n);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture/select/nth", test_select_nth);
  g_test_add_func ("/capture/select/quantiles", test_quantiles_consistent);
  g_test_add_func ("/capture/select/nan-terminates", test_nan_terminates);
  g_test_add_func ("/capture/select/sampled", test_sampled_select);
  g_test_add_func ("/capture/select/sampled-fallback", test_sampled_fallback);
  g_test_add_func ("/capture/select/sort-few", test_sort_few);

  return g_test_run ();
}
