/* test-span-sort.c — the nesting's span sort against qsort in the reference order, on random spans full of ties. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-span-sort-private.h"

/* The reference order, written out here: rank, thread, start, end
 * descending, id. */
static int
reference_compare (const void *a,
                   const void *b)
{
  const TprofSpan *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* @n spans as @n_ops operations of ascending starts per rank, as gathered
 * samples come, on ranks @rank_lo + 0 .. @n_ranks - 1 (times @rank_step)
 * and @n_threads threads, starts and times drawn from few values so that
 * equal starts and equal ends abound; ids shuffled unless @ordered. */
static TprofSpan *
make_spans (GRand   *rand,
            size_t   n,
            size_t   n_ops,
            int32_t  rank_lo,
            int32_t  n_ranks,
            int32_t  rank_step,
            int32_t  n_threads,
            gboolean ordered)
{
  TprofSpan *spans = g_new (TprofSpan, n);

  for (size_t i = 0; i < n; i++)
    {
      size_t op = i * n_ops / n;
      double start = (double) g_rand_int_range (rand, 0, 6) + (double) (i % 7) * (ordered ? 1.0 : 0.0);

      spans[i] = (TprofSpan) {
        .start = start + (double) op * 0.5,
        .end = start + (double) op * 0.5 + 0.25 * g_rand_int_range (rand, 0, 4),
        /* in 64 bits: the step times the index may leave int32 on its way */
        .rank = (int32_t) ((int64_t) rank_lo + (int64_t) rank_step * g_rand_int_range (rand, 0, n_ranks)),
        .thread = g_rand_int_range (rand, 0, n_threads),
        .id = i,
      };
    }
  for (size_t i = n; !ordered && i > 1; i--)
    {
      size_t j = g_rand_int_range (rand, 0, (gint32) i);
      size_t id = spans[i - 1].id;

      spans[i - 1].id = spans[j].id;
      spans[j].id = id;
    }
  return spans;
}

static void
check_against_qsort (TprofSpan *spans,
                     size_t     n)
{
  TprofSpan *expected = g_memdup2 (spans, n * sizeof *spans);
  TprofSpan *in = g_memdup2 (spans, n * sizeof *spans);

  if (n > 0) /* g_memdup2 gives NULL for nothing, which qsort may not take */
    qsort (expected, n, sizeof *expected, reference_compare);
  g_assert_true (_tprof_span_sort (in, spans, n));
  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpint (spans[i].rank, ==, expected[i].rank);
      g_assert_cmpint (spans[i].thread, ==, expected[i].thread);
      g_assert_cmpfloat (spans[i].start, ==, expected[i].start);
      g_assert_cmpfloat (spans[i].end, ==, expected[i].end);
      g_assert_cmpuint (spans[i].id, ==, expected[i].id);
    }
  g_free (expected);
  g_free (in);
}

/* Many ranks and threads, each of several sizes (below and above the
 * insertion-sort cut), shuffled and in gathered order. */
static void
test_ties (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  static const size_t sizes[] = { 0, 1, 2, 15, 16, 17, 33, 500, 20000 };

  for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (int ordered = 0; ordered < 2; ordered++)
      for (int32_t n_ranks = 1; n_ranks <= 1000; n_ranks *= 10)
        {
          TprofSpan *spans = make_spans (rand, sizes[s], 1 + sizes[s] / 50, 0, n_ranks, 1, 3, ordered);

          check_against_qsort (spans, sizes[s]);
          g_free (spans);
        }
  g_rand_free (rand);
}

/* Negative ranks, and ranks spread too widely to bucket (one bucket). */
static void
test_rank_ranges (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  TprofSpan *negative = make_spans (rand, 5000, 4, -300, 600, 1, 2, TRUE);
  TprofSpan *sparse = make_spans (rand, 5000, 4, -2000000000, 40, 100000000, 4, FALSE);
  TprofSpan *extreme = make_spans (rand, 3000, 3, INT32_MIN, 2, INT32_MAX, 2, TRUE);

  check_against_qsort (negative, 5000);
  check_against_qsort (sparse, 5000);
  check_against_qsort (extreme, 3000);
  g_free (negative);
  g_free (sparse);
  g_free (extreme);
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/span-sort/ties", test_ties);
  g_test_add_func ("/stats/span-sort/rank-ranges", test_rank_ranges);
  return g_test_run ();
}
