/* test-running-median.c — the private running median (built into this test) against a sort after every value, as its heaps outgrow malloc, their reserve and a move. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-running-median-private.h"

/* Past the size where the heaps leave malloc for their own mapping
 * (64 KiB, 8192 values), with both heaps crossing it. */
#define N_VALUES 40000
/* More than the values a mapped heap reserves at first (2^24): reserving
 * this much moves the heaps to a larger mapping. */
#define BEYOND_RESERVE (((size_t) 1 << 24) + 1)

typedef double (*PatternFunc) (gsize i, GRand *rand);

static double
pattern_random (gsize i, GRand *rand)
{
  (void) i;
  return (double) g_rand_int_range (rand, -1000000, 1000000);
}

static double
pattern_increasing (gsize i, GRand *rand)
{
  (void) rand;
  return (double) i;
}

static double
pattern_decreasing (gsize i, GRand *rand)
{
  (void) rand;
  return -(double) i;
}

static double
pattern_few_distinct (gsize i, GRand *rand)
{
  (void) i;
  return (double) g_rand_int_range (rand, 0, 3);
}

/* numpy's median of @n sorted values: its lerp at one half between the
 * two middle ones, b - (b - a) * 0.5, to the last bit. */
static double
median_of_sorted (const double *sorted, gsize n)
{
  double a, b;

  if (n % 2 == 1)
    return sorted[n / 2];
  a = sorted[n / 2 - 1];
  b = sorted[n / 2];
  return b - (b - a) * 0.5;
}

/* Inserts @x into @sorted (@n values, room for one more). */
static void
insert_sorted (double *sorted, gsize n, double x)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (sorted[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  memmove (sorted + lo + 1, sorted + lo, (n - lo) * sizeof *sorted);
  sorted[lo] = x;
}

/* Adds N_VALUES of @pattern, the median checked after each; midway the
 * heaps are made to reserve more than their first mapping holds. */
static void
check_pattern (gconstpointer data)
{
  PatternFunc pattern = (PatternFunc) data;
  TprofRunningMedian m = { 0 };
  GRand *rand = g_rand_new_with_seed (2027);
  double *sorted = g_new (double, N_VALUES);

  g_assert_true (isnan (_tprof_running_median_get (&m)));
  for (gsize i = 0; i < N_VALUES; i++)
    {
      double x = pattern (i, rand);

      if (i == N_VALUES / 2)
        {
          g_assert_true (_tprof_running_median_reserve (&m, BEYOND_RESERVE));
          g_assert_cmpuint (m.cap_lower, >=, i + BEYOND_RESERVE);
          g_assert_cmpuint (m.cap_upper, >=, i + BEYOND_RESERVE);
        }
      g_assert_true (_tprof_running_median_add (&m, x));
      insert_sorted (sorted, i, x);
      g_assert_cmpuint (_tprof_running_median_count (&m), ==, i + 1);
      if (_tprof_running_median_get (&m) != median_of_sorted (sorted, i + 1))
        g_error ("after %" G_GSIZE_FORMAT " values: median %.17g, sorted %.17g", i + 1,
                 _tprof_running_median_get (&m), median_of_sorted (sorted, i + 1));
    }
  /* both heaps held their share: each crossed into its own mapping */
  g_assert_cmpuint (m.n_lower * sizeof (double), >, 64 << 10);
  g_assert_cmpuint (m.n_upper * sizeof (double), >, 64 << 10);
  _tprof_running_median_clear (&m);
  g_assert_cmpuint (_tprof_running_median_count (&m), ==, 0);
  g_assert_true (m.lower == NULL && m.upper == NULL);
  g_free (sorted);
  g_rand_free (rand);
}

/* Reserving in the follower's way (room for a batch, then the batch),
 * the batches growing the heaps across the threshold. */
static void
test_batches (void)
{
  TprofRunningMedian m = { 0 };
  GRand *rand = g_rand_new_with_seed (7);
  double *sorted = g_new (double, N_VALUES);
  gsize n = 0;

  for (gsize batch = 1; n + batch <= N_VALUES; batch *= 2)
    {
      g_assert_true (_tprof_running_median_reserve (&m, batch));
      for (gsize i = 0; i < batch; i++, n++)
        {
          double x = g_rand_double (rand);

          g_assert_true (_tprof_running_median_add (&m, x));
          insert_sorted (sorted, n, x);
        }
      g_assert_cmpfloat (_tprof_running_median_get (&m), ==, median_of_sorted (sorted, n));
    }
  g_assert_cmpuint (n, >, 2 * 8192);
  _tprof_running_median_clear (&m);
  g_free (sorted);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/running-median/random", (gconstpointer) pattern_random, check_pattern);
  g_test_add_data_func ("/running-median/increasing", (gconstpointer) pattern_increasing, check_pattern);
  g_test_add_data_func ("/running-median/decreasing", (gconstpointer) pattern_decreasing, check_pattern);
  g_test_add_data_func ("/running-median/few-distinct", (gconstpointer) pattern_few_distinct, check_pattern);
  g_test_add_func ("/running-median/batches", test_batches);
  return g_test_run ();
}
