/* test-straggler.c — naming the straggler: the binomial tail against scipy, and the rule on ranks that stand out or do not. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "stats-reference.h"

typedef struct
{
  uint64_t k, n;
  double   p;
} Case;

static const Case cases[] = {
  { 1, 1, 0.5 }, { 30, 30, 0.5 }, { 30, 30, 0.125 }, { 184, 200, 0.25 }, { 60, 200, 0.25 },
  { 50, 200, 0.25 }, { 10, 200, 0.25 }, { 4, 30, 0.125 }, { 250500, 1000000, 0.25 },
  { 252000, 1000000, 0.25 }, { 3, 1000, 1e-4 }, { 999, 1000, 0.999 }, { 7, 12, 1.0 / 3 },
};

static void
test_binomial_against_scipy (void)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StatsReference) ref = NULL;
  const double *expected;
  gsize n;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char p[G_ASCII_DTOSTR_BUF_SIZE];

      g_ptr_array_add (args, g_strdup_printf ("%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s", cases[i].k,
                                              cases[i].n, g_ascii_dtostr (p, sizeof p, cases[i].p)));
    }
  g_ptr_array_add (args, NULL);
  ref = stats_reference_run ("binomial", NULL, NULL, 0, (const char **) args->pdata);
  expected = stats_reference_get (ref, "upper_tail", &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (cases));
  for (gsize i = 0; i < n; i++)
    {
      double got = tprof_binomial_upper_tail (cases[i].k, cases[i].n, cases[i].p);

      g_test_message ("P(X >= %" G_GUINT64_FORMAT "; %" G_GUINT64_FORMAT ", %g) = %.17g, scipy %.17g",
                      cases[i].k, cases[i].n, cases[i].p, got, expected[i]);
      /* Tails far below double precision's floor compare absolutely. The
       * first term's logarithm comes from lgamma of numbers up to 10^6
       * (about 1.3e7), whose rounding alone is ~3e-9 of the result. */
      if (expected[i] < 1e-300)
        g_assert_cmpfloat (got, <, 1e-290);
      else
        stats_assert_close (got, expected[i], 1e-8);
    }
}

static void
test_binomial_edges (void)
{
  g_assert_cmpfloat (tprof_binomial_upper_tail (0, 10, 0.3), ==, 1.0);
  g_assert_cmpfloat (tprof_binomial_upper_tail (11, 10, 0.3), ==, 0.0);
  g_assert_cmpfloat (tprof_binomial_upper_tail (3, 10, 0.0), ==, 0.0);
  g_assert_cmpfloat (tprof_binomial_upper_tail (3, 10, 1.0), ==, 1.0);
  g_assert_cmpfloat (fabs (tprof_binomial_upper_tail (10, 10, 0.5) - pow (0.5, 10)), <, 1e-18);
}

/* The demo's shape: 4 ranks, 200 occurrences, rank 1 last 184 times. */
static void
test_clear_straggler (void)
{
  const double wait[] = { 0.1, 5.1, 0.05, 0.02 };
  const uint64_t late[] = { 8, 184, 5, 3 };
  double p;

  g_assert_cmpint (tprof_straggler_name (wait, late, 4, 200, 0.25, &p), ==, 1);
  stats_assert_close (p, 4 * tprof_binomial_upper_tail (184, 200, 0.25), 1e-12);
  g_assert_cmpfloat (p, <, TPROF_STRAGGLER_ALPHA);
}

/* Last ranks in turn: the one that happened to cause the most wait does
 * not stand out. */
static void
test_no_clear_straggler (void)
{
  const double wait[] = { 0.70, 0.71, 0.69, 0.70, 0.70, 0.70, 0.52, 0.53 };
  const uint64_t late[] = { 4, 4, 4, 4, 4, 4, 3, 3 };
  double p;

  g_assert_cmpint (tprof_straggler_name (wait, late, 8, 30, 1.0 / 8, &p), ==, -1);
  g_assert_cmpfloat (p, ==, 1.0);
}

/* The threshold itself: with 2 ranks and 30 occurrences, 25 late is
 * significant after the correction (p = 3.2e-4, scipy) and 22 is not
 * (p = 0.016). */
static void
test_threshold (void)
{
  const double wait[] = { 1.0, 2.0 };
  uint64_t late[] = { 5, 25 };

  g_assert_cmpint (tprof_straggler_name (wait, late, 2, 30, 0.5, NULL), ==, 1);
  late[0] = 8, late[1] = 22;
  g_assert_cmpint (tprof_straggler_name (wait, late, 2, 30, 0.5, NULL), ==, -1);
}

static void
test_nothing_to_name (void)
{
  const double none[] = { 0, 0, 0 };
  const uint64_t late[] = { 0, 0, 0 };
  double p = 0;

  g_assert_cmpint (tprof_straggler_name (none, late, 3, 0, 0.0, &p), ==, -1);
  g_assert_true (isnan (p));
  g_assert_cmpint (tprof_straggler_name (none, late, 3, 10, 1.0 / 3, &p), ==, -1);
  g_assert_true (isnan (p));
}

/* A barrier of 3 ranks at 40 occurrences: ranks arrive 1 ms apart in the
 * order @late_of (k) says is last, and all leave together. */
static TprofGatheredTime *
barrier (int (*late_of) (size_t k))
{
  size_t n = 3 * 40;
  double *times = g_new (double, n), *starts = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n), *threads = g_new0 (int32_t, n);
  TprofGatheredTime *gt;

  for (size_t i = 0; i < n; i++)
    {
      size_t k = i % 40;
      int32_t r = (int32_t) (i / 40);
      double begin = (double) k, lateness = r == late_of (k) ? 2e-3 : 1e-3 * ((r + 1) % 2);

      ranks[i] = r;
      starts[i] = begin + lateness;
      times[i] = begin + 3e-3 - starts[i];
    }
  gt = tprof_gathered_time_new_take (times, ranks, n);
  g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
  return gt;
}

static int always_two (size_t k) { (void) k; return 2; }
static int in_turn (size_t k) { return (int) (k % 3); }

static void
test_stragglers_over_operations (void)
{
  TprofGatheredTime *chronic = barrier (always_two), *rotating = barrier (in_turn);
  TprofStragglers *s = tprof_stragglers_new (3);
  TprofArrival arrival;
  double p;

  g_assert_true (tprof_stragglers_add (s, chronic, &arrival));
  g_assert_true (arrival.synchronising);
  g_assert_cmpint (tprof_stragglers_name (s, &p), ==, 2);
  g_assert_cmpuint (tprof_stragglers_late_count (s)[2], ==, 40);
  g_assert_cmpuint (tprof_stragglers_occurrences (s), ==, 40);
  stats_assert_close (tprof_stragglers_expected_late (s), 40.0 / 3, 1e-15);
  stats_assert_close (p, 3 * tprof_binomial_upper_tail (40, 40, 1.0 / 3), 1e-12);
  tprof_stragglers_free (s);

  s = tprof_stragglers_new (3);
  g_assert_true (tprof_stragglers_add (s, rotating, NULL));
  g_assert_cmpuint (tprof_stragglers_n_synchronising (s), ==, 1);
  g_assert_cmpint (tprof_stragglers_name (s, NULL), ==, -1);
  tprof_stragglers_free (s);

  g_assert_null (tprof_stragglers_new (0));
  tprof_gathered_time_free (chronic);
  tprof_gathered_time_free (rotating);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/straggler/binomial-against-scipy", test_binomial_against_scipy);
  g_test_add_func ("/stats/straggler/binomial-edges", test_binomial_edges);
  g_test_add_func ("/stats/straggler/clear", test_clear_straggler);
  g_test_add_func ("/stats/straggler/none-clear", test_no_clear_straggler);
  g_test_add_func ("/stats/straggler/threshold", test_threshold);
  g_test_add_func ("/stats/straggler/nothing-to-name", test_nothing_to_name);
  g_test_add_func ("/stats/straggler/over-operations", test_stragglers_over_operations);
  return g_test_run ();
}
