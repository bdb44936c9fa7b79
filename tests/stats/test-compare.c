/* test-compare.c — tprof compare's statistics: the Mann-Whitney p-value against scipy, Holm's adjustment by hand, the interval's coverage, the verdicts. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "stats-reference.h"

/* Compares @base with @new_samples and checks p-value and medians against
 * scipy and numpy. */
static TprofComparison
check_against_scipy (const double *base, gsize n_base, const double *new_samples, gsize n_new)
{
  gsize n = n_base + n_new;
  g_autofree double *times = g_new (double, MAX (n, 1));
  g_autofree int32_t *ranks = g_new (int32_t, MAX (n, 1));
  g_autoptr(StatsReference) ref = NULL;
  TprofComparison c;

  for (gsize i = 0; i < n; i++)
    {
      times[i] = i < n_base ? base[i] : new_samples[i - n_base];
      ranks[i] = i < n_base ? 0 : 1;
    }
  g_assert_true (tprof_compare_samples (base, n_base, new_samples, n_new, &c));
  ref = stats_reference_run ("compare", times, ranks, n, NULL);
  stats_assert_close (c.p_value, stats_reference_get_one (ref, "p_value"), 1e-9);
  stats_assert_close (c.base_median, stats_reference_get_one (ref, "base_median"), 1e-15);
  stats_assert_close (c.new_median, stats_reference_get_one (ref, "new_median"), 1e-15);
  stats_assert_close (c.ratio, c.new_median / c.base_median, 1e-15);
  g_assert_cmpuint (c.base_count, ==, n_base);
  g_assert_cmpuint (c.new_count, ==, n_new);
  return c;
}

static double *
lognormal (GRand *rand, gsize n, double scale, double sigma)
{
  double *x = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    {
      /* Box-Muller */
      double u = g_rand_double (rand), v = g_rand_double (rand);
      double z = sqrt (-2.0 * log (1.0 - u)) * cos (2.0 * G_PI * v);

      x[i] = scale * exp (sigma * z);
    }
  return x;
}

static void
test_p_value_shifted_and_equal (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  g_autofree double *a = lognormal (rand, 3000, 1e-3, 0.3);
  /* 30 %: one run a side, a change must pass what its blocks let a whole run shift */
  g_autofree double *b = lognormal (rand, 2000, 1.3e-3, 0.3);
  g_autofree double *c = lognormal (rand, 2500, 1e-3, 0.3);
  TprofComparison slower = check_against_scipy (a, 3000, b, 2000);
  TprofComparison same = check_against_scipy (a, 3000, c, 2500);

  g_assert_cmpfloat (slower.p_value, <, 1e-10);
  g_assert_cmpint (slower.verdict, ==, TPROF_VERDICT_SLOWER);
  g_assert_cmpfloat (same.p_value, >, 0.01);
  g_assert_cmpint (same.verdict, ==, TPROF_VERDICT_SAME);
  /* and the other way round: faster */
  g_assert_cmpint (check_against_scipy (b, 2000, a, 3000).verdict, ==, TPROF_VERDICT_FASTER);
  g_rand_free (rand);
}

/* Timer readings repeat: many ties, inside each run and across them. */
static void
test_p_value_ties (void)
{
  double a[400], b[300];

  for (int i = 0; i < 400; i++)
    a[i] = 1e-6 * (1 + i % 7);
  for (int i = 0; i < 300; i++)
    b[i] = 1e-6 * (2 + i % 7);
  check_against_scipy (a, 400, b, 300);
  /* all equal: no difference at all */
  for (int i = 0; i < 300; i++)
    b[i] = a[i] = 5e-6;
  g_assert_cmpfloat (check_against_scipy (a, 300, b, 300).p_value, ==, 1.0);
}

static void
test_tiny_and_empty (void)
{
  const double one[] = { 2.0 }, two[] = { 1.0, 3.0 }, three[] = { 4.0, 4.0, 0.5 };
  TprofComparison c;

  check_against_scipy (one, 1, two, 2);
  check_against_scipy (two, 2, three, 3);
  check_against_scipy (one, 1, one, 1);

  g_assert_true (tprof_compare_samples (two, 2, NULL, 0, &c));
  g_assert_cmpint (c.verdict, ==, TPROF_VERDICT_ONLY_BASE);
  g_assert_true (isnan (c.p_value) && isnan (c.new_median) && isnan (c.ci_low));
  g_assert_true (tprof_compare_samples (NULL, 0, three, 3, &c));
  g_assert_cmpint (c.verdict, ==, TPROF_VERDICT_ONLY_NEW);
  g_assert_cmpfloat (c.new_median, ==, 4.0);
  g_assert_cmpstr (tprof_verdict_name (TPROF_VERDICT_ONLY_NEW), ==, "only-new");
  g_assert_cmpstr (tprof_verdict_name (TPROF_VERDICT_SLOWER), ==, "slower");
}

/* Holm on five p-values, by hand: sorted 0.001 0.01 0.02 0.04 0.3 times
 * 5 4 3 2 1 = 0.005 0.04 0.06 0.08 0.3, kept non-decreasing; a comparison
 * without a p-value takes no part. The verdict's p-values are adjusted so,
 * the per-sample ones (a thousandth of them here, every one significant)
 * too, apart, and the verdict follows the verdict's. */
static void
test_holm (void)
{
  const double p[] = { 0.04, 0.001, 0.3, 0.02, 0.01 };
  const double expected[] = { 0.08, 0.005, 0.3, 0.06, 0.04 };
  TprofComparison c[6];

  memset (c, 0, sizeof c);
  for (int i = 0; i < 5; i++)
    {
      c[i].p_value = p[i] / 1000.0;
      c[i].p_verdict_raw = p[i];
      c[i].noise_floor = NAN;
      c[i].base_count = c[i].new_count = 10;
      c[i].ratio = 1.5;
    }
  c[5].p_value = c[5].p_verdict_raw = c[5].noise_floor = NAN;
  c[5].base_count = 3;
  tprof_compare_decide (c, 6, 0.05, 0.02);
  for (int i = 0; i < 5; i++)
    {
      g_assert_cmpfloat_with_epsilon (c[i].p_verdict, expected[i], 1e-15);
      g_assert_cmpfloat_with_epsilon (c[i].p_adjusted, expected[i] / 1000.0, 1e-18);
    }
  g_assert_cmpint (c[1].verdict, ==, TPROF_VERDICT_SLOWER);   /* 0.005 */
  g_assert_cmpint (c[4].verdict, ==, TPROF_VERDICT_SLOWER);   /* 0.04 */
  g_assert_cmpint (c[3].verdict, ==, TPROF_VERDICT_SAME);     /* 0.06 */
  g_assert_cmpint (c[5].verdict, ==, TPROF_VERDICT_ONLY_BASE);
  /* a significant change smaller than min_change is no change */
  c[1].ratio = 1.01;
  tprof_compare_decide (c, 6, 0.05, 0.02);
  g_assert_cmpint (c[1].verdict, ==, TPROF_VERDICT_SAME);
  /* a calibrated noise floor above min_change raises the bar */
  c[1].ratio = 1.5;
  c[1].noise_floor = 0.6;
  tprof_compare_decide (c, 6, 0.05, 0.02);
  g_assert_cmpint (c[1].verdict, ==, TPROF_VERDICT_SAME);
  c[1].noise_floor = 0.4;
  tprof_compare_decide (c, 6, 0.05, 0.02);
  g_assert_cmpint (c[1].verdict, ==, TPROF_VERDICT_SLOWER);
  c[1].ratio = 1.0 / 1.45;
  tprof_compare_decide (c, 6, 0.05, 0.02);
  g_assert_cmpint (c[1].verdict, ==, TPROF_VERDICT_FASTER);
}

/* The verdict's blocks over arrays taken as one rank in order: B =
 * min (10, smaller size / 5) stretches, sample k in stretch k B / n, the
 * logs of their numpy medians; s^2 their variance pooled over both sides,
 * the difference of the mean logs over sqrt (2 * 2^2 s^2 + 2 s^2 / B)
 * against scipy.stats.t with 2 (B - 1) degrees of freedom (the spread
 * between runs bounded by twice the spread between blocks, no rank spread
 * with one rank); too few samples for two blocks: no test, "same". */
static void
test_flat_blocks (void)
{
  const double c[] = { 1.2, 1.9, 1.4, 1.1, 1.7, 1.3, 1.8, 1.25, 1.6, 1.45, 1.15, 1.75, 1.35, 1.5, 1.65, 1.55, 1.05 };
  const double d[] = { 1.3, 2.1, 1.5, 1.2, 1.8, 1.6, 1.9, 1.4, 1.7, 1.55, 1.25, 1.85, 1.45, 1.65, 1.35, 1.95 };
  const double e[] = { 2.0, 2.2, 1.9, 2.1, 2.3, 2.6, 2.4, 2.5, 2.7, 2.45 };
  const double f[] = { 2.9, 3.1, 2.8, 3.0, 3.2, 3.0, 3.3, 2.7, 3.1, 2.95, 3.4 };
  const double g[] = { 1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.02, 1.01, 0.99,
                       1.00, 1.03, 0.98, 1.01, 1.02, 0.99, 1.00, 1.01, 1.02, 0.98 };
  double h[G_N_ELEMENTS (g)];
  TprofComparison out;

  /* h is g reversed, 50 % slower: steady blocks, a change far beyond them */
  for (gsize i = 0; i < G_N_ELEMENTS (g); i++)
    h[i] = 1.5 * g[G_N_ELEMENTS (g) - 1 - i];

  g_assert_true (tprof_compare_samples (c, G_N_ELEMENTS (c), d, G_N_ELEMENTS (d), &out));
  g_assert_cmpint (out.verdict_test, ==, TPROF_VERDICT_TEST_BLOCKS);
  stats_assert_close (out.p_verdict, 0.6236475834194319, 1e-9);
  /* the interval: exp (d -+ t(0.975, 2 (B - 1)) error), as scipy's t.isf makes it */
  stats_assert_close (out.ci_low, 0.7031771352245202, 1e-9);
  stats_assert_close (out.ci_high, 1.6797200476645917, 1e-9);
  g_assert_cmpint (out.verdict, ==, TPROF_VERDICT_SAME);
  g_assert_true (tprof_compare_samples (e, G_N_ELEMENTS (e), f, G_N_ELEMENTS (f), &out));
  stats_assert_close (out.p_verdict, 0.39508802872479576, 1e-9);
  /* per sample, 10 against 11 values this far apart are "significant" */
  g_assert_cmpfloat (out.p_value, <, 0.001);
  g_assert_cmpint (out.verdict, ==, TPROF_VERDICT_SAME);
  g_assert_true (tprof_compare_samples (e, 9, f, G_N_ELEMENTS (f), &out));
  g_assert_cmpint (out.verdict_test, ==, TPROF_VERDICT_TEST_NONE);
  g_assert_true (isnan (out.p_verdict) && isnan (out.ci_low) && isnan (out.ci_high));
  g_assert_cmpint (out.verdict, ==, TPROF_VERDICT_SAME);
  g_assert_true (tprof_compare_samples (g, G_N_ELEMENTS (g), h, G_N_ELEMENTS (h), &out));
  g_assert_cmpint (out.verdict_test, ==, TPROF_VERDICT_TEST_BLOCKS);
  stats_assert_close (out.p_verdict, 3.2650305365691013e-07, 1e-8);
  stats_assert_close (out.ci_low, 1.439768043753216, 1e-9);
  stats_assert_close (out.ci_high, 1.5627517291845532, 1e-9);
  g_assert_cmpint (out.verdict, ==, TPROF_VERDICT_SLOWER);
  /* identical arrays: no difference at all */
  g_assert_true (tprof_compare_samples (c, G_N_ELEMENTS (c), c, G_N_ELEMENTS (c), &out));
  g_assert_cmpfloat (out.p_verdict, ==, 1.0);
}

/* Student's t distribution against scipy.stats.t (2 * sf); the quantiles
 * against mpmath's root of its regularized incomplete beta at 40 digits
 * (scipy's isf is off by up to 3e-10 there). */
static void
test_student_t (void)
{
  const double p[][3] = {
    { 0.5, 1, 0.7048327646991336 }, { 2.0, 3, 0.1393259685588431 },
    { 2.776445105, 4, 0.05000000001011946 }, { 10, 2.5, 0.004441495767307422 },
    { 1.3, 30.7, 0.2032771952705518 }, { 0.0, 5, 1.0 }, { 40, 8, 1.6785718879145774e-10 },
  };
  const double q[][3] = {
    { 0.025, 1, 12.706204736174704 }, { 0.025, 4, 2.7764451051977943 }, { 0.025, 7, 2.3646242515927853 },
    { 0.005, 13.3, 3.0010082317972017 }, { 0.1, 200, 1.285798793994801 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (p); i++)
    {
      stats_assert_close (tprof_student_t_p (p[i][0], p[i][1]), p[i][2], 1e-10);
      stats_assert_close (tprof_student_t_p (-p[i][0], p[i][1]), p[i][2], 1e-10);
    }
  for (guint i = 0; i < G_N_ELEMENTS (q); i++)
    stats_assert_close (tprof_student_t_upper (q[i][0], q[i][1]), q[i][2], 1e-10);
  g_assert_true (isnan (tprof_student_t_p (1.0, 0.0)));
  g_assert_true (isnan (tprof_student_t_upper (0.7, 3.0)));
}

/* The interval is the verdict's test's: it leaves out 1 exactly when the
 * test's p is below 0.05. Over 400 seeded pairs of runs of i.i.d. samples
 * whose true ratio of medians is 1.3 it covers the ratio at least as often
 * as 95% (with one run a side the test allows for whole runs to differ by
 * twice the spread between blocks, which i.i.d. samples do not: nearly
 * always). */
static void
test_interval_coverage (void)
{
  const gsize sizes[][2] = { { 200, 300 }, { 50, 50 }, { 1000, 800 } };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint covered = 0;

      for (guint trial = 0; trial < 400; trial++)
        {
          GRand *rand = g_rand_new_with_seed (1000 * s + trial);
          g_autofree double *a = lognormal (rand, sizes[s][0], 1.0, 0.5);
          g_autofree double *b = lognormal (rand, sizes[s][1], 1.3, 0.5);
          TprofComparison c;

          g_assert_true (tprof_compare_samples (a, sizes[s][0], b, sizes[s][1], &c));
          g_assert_cmpfloat (c.ci_low, <, c.ratio);
          g_assert_cmpfloat (c.ratio, <, c.ci_high);
          g_assert_cmpint (c.ci_low > 1.0 || c.ci_high < 1.0, ==, c.p_verdict_raw < 0.05);
          covered += c.ci_low <= 1.3 && 1.3 <= c.ci_high;
          g_rand_free (rand);
        }
      g_test_message ("%zu against %zu samples: the interval covered the true ratio in %u of 400",
                      sizes[s][0], sizes[s][1], covered);
      g_assert_cmpuint (covered, >=, 396);  /* 99% */
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/compare/p-value-shifted-and-equal", test_p_value_shifted_and_equal);
  g_test_add_func ("/capture/compare/p-value-ties", test_p_value_ties);
  g_test_add_func ("/capture/compare/tiny-and-empty", test_tiny_and_empty);
  g_test_add_func ("/capture/compare/holm", test_holm);
  g_test_add_func ("/capture/compare/student-t", test_student_t);
  g_test_add_func ("/capture/compare/flat-blocks", test_flat_blocks);
  g_test_add_func ("/capture/compare/interval-coverage", test_interval_coverage);
  return g_test_run ();
}
