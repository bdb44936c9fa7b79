/* test-slowest.c — the rule that calls a rank slowest only beyond noise, against hand-computed cases and the summary. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <math.h>
#include <tprof/capture.h>

/* Four ranks, one 50 % slower: the others' MAD is 0, the excess 50 %. */
static void
test_slowest_one_of_four (void)
{
  const double totals[] = { 2.0, 3.0, 2.0, 2.0 };

  g_assert_true (tprof_slowest_stands_out (totals, 4, 1));
  g_assert_false (tprof_slowest_stands_out (totals, 4, 0));
}

/* Four equal ranks but for noise (the demo's step): 3.35 s against a
 * median of 3.33 s is 0.6 %, under the 5 % floor. */
static void
test_slowest_noise (void)
{
  const double totals[] = { 3.35, 3.33, 3.33, 3.32 };

  g_assert_false (tprof_slowest_stands_out (totals, 4, 0));
}

/* The 5 % floor: the others 1.0 (MAD 0); 1.049 is in, 1.051 out. */
static void
test_slowest_floor (void)
{
  double totals[] = { 1.0, 1.0, 1.0, 1.049 };

  g_assert_false (tprof_slowest_stands_out (totals, 4, 3));
  totals[3] = 1.051;
  g_assert_true (tprof_slowest_stands_out (totals, 4, 3));
}

/* The robust z: the others 1.0, 1.1, 1.2, 1.3, 1.4 have median 1.2 and
 * MAD 0.1, so z = 0.6745 (x - 1.2) / 0.1 passes 3.5 at x = 1.7189. */
static void
test_slowest_robust_z (void)
{
  double totals[] = { 1.0, 1.1, 1.2, 1.3, 1.4, 1.71 };

  g_assert_false (tprof_slowest_stands_out (totals, 6, 5));
  totals[5] = 1.73;
  g_assert_true (tprof_slowest_stands_out (totals, 6, 5));
}

/* Two ranks: the other alone is the reference; one rank, NaN and an
 * index out of range are never slowest. */
static void
test_slowest_edges (void)
{
  const double two[] = { 1.0, 1.2 };
  const double with_nan[] = { 1.0, NAN, 1.0, 2.0 };

  g_assert_true (tprof_slowest_stands_out (two, 2, 1));
  g_assert_false (tprof_slowest_stands_out (two, 1, 0));
  g_assert_false (tprof_slowest_stands_out (two, 2, 2));
  g_assert_false (tprof_slowest_stands_out (with_nan, 4, 1));
  g_assert_true (tprof_slowest_stands_out (with_nan, 4, 3));
}

/* A summary carries the rule's answer for its slowest rank. */
static void
test_slowest_summary (void)
{
  const double times[] = { 1.0, 1.0, 1.5, 1.5, 1.0, 1.0, 1.01, 1.0 };
  const int32_t ranks[] = { 0, 0, 1, 1, 2, 2, 3, 3 };
  const double equal_times[] = { 1.0, 1.0, 1.0, 1.01 };
  const int32_t equal_ranks[] = { 0, 1, 2, 3 };
  TprofGatheredTime *gt = tprof_gathered_time_new (times, ranks, 8);
  TprofSummary s;

  g_assert_true (tprof_gathered_time_summarize (gt, &s));
  g_assert_cmpint (s.slowest_rank, ==, 1);
  g_assert_true (s.slowest_stands_out);
  tprof_gathered_time_free (gt);

  gt = tprof_gathered_time_new (equal_times, equal_ranks, 4);
  g_assert_true (tprof_gathered_time_summarize (gt, &s));
  g_assert_cmpint (s.slowest_rank, ==, 3);
  g_assert_false (s.slowest_stands_out);
  tprof_gathered_time_free (gt);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/slowest/one-of-four", test_slowest_one_of_four);
  g_test_add_func ("/analysis/slowest/noise", test_slowest_noise);
  g_test_add_func ("/analysis/slowest/floor", test_slowest_floor);
  g_test_add_func ("/analysis/slowest/robust-z", test_slowest_robust_z);
  g_test_add_func ("/analysis/slowest/edges", test_slowest_edges);
  g_test_add_func ("/analysis/slowest/summary", test_slowest_summary);
  return g_test_run ();
}
