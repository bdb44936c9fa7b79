/* test-breakdown.c — the breakdown matrix: each child's total per rank, then the self time, on the ranks shown. */
/* SPDX-License-Identifier: MIT */

#include <glib.h>
#include <math.h>
#include <tprof/capture.h>

/* step (0) holds forward (1) and allreduce (3); load (2) sits at the top;
 * 3 ranks, rank 2 without allreduce and filtered out below. */
static const int64_t parents[] = { -1, 0, -1, 0 };
static const int64_t step_counts[] = { 2, 2, 2 }, forward_counts[] = { 2, 2, 2 };
static const int64_t load_counts[] = { 1, 0, 1 }, allreduce_counts[] = { 2, 2, 0 };
static const double step_sums[] = { 10, 12, 11 }, forward_sums[] = { 6, 9, 7 };
static const double load_sums[] = { 1, 0, 1 }, allreduce_sums[] = { 3, 2, 0 };
static const double step_self[] = { 1, 1, 4 };

static void
test_breakdown_matrix (void)
{
  const int64_t *counts[] = { step_counts, forward_counts, load_counts, allreduce_counts };
  const double *sums[] = { step_sums, forward_sums, load_sums, allreduce_sums };
  /* rows forward, allreduce, self; columns ranks 0, 1, 2 */
  const double want[] = { 6, 9, 7,   3, 2, 0,   1, 1, 4 };
  TprofBreakdown *b = tprof_breakdown_new (0, 4, parents, counts, sums, step_self, NULL, 3);

  g_assert_nonnull (b);
  g_assert_cmpuint (b->n_parts, ==, 3);
  g_assert_cmpuint (b->n_ranks, ==, 3);
  g_assert_cmpuint (b->children[0], ==, 1);
  g_assert_cmpuint (b->children[1], ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpfloat (b->values[i], ==, want[i]);
  tprof_breakdown_free (b);
}

/* A mask keeps its ranks' columns; unknown self time is NaN; a leaf has
 * the self part alone. */
static void
test_breakdown_mask_and_leaf (void)
{
  const int64_t *counts[] = { step_counts, forward_counts, load_counts, allreduce_counts };
  const double *sums[] = { step_sums, forward_sums, load_sums, allreduce_sums };
  const uint8_t mask[] = { 0, 1, 1 };
  TprofBreakdown *b = tprof_breakdown_new (0, 4, parents, counts, sums, NULL, mask, 3);

  g_assert_nonnull (b);
  g_assert_cmpuint (b->n_ranks, ==, 2);
  g_assert_cmpint (b->ranks[0], ==, 1);
  g_assert_cmpint (b->ranks[1], ==, 2);
  g_assert_cmpfloat (b->values[0], ==, 9);
  g_assert_cmpfloat (b->values[3], ==, 0);
  g_assert_true (isnan (b->values[4]));
  tprof_breakdown_free (b);

  /* load ran on ranks 0 and 2 only, with nothing inside */
  b = tprof_breakdown_new (2, 4, parents, counts, sums, load_sums, NULL, 3);
  g_assert_cmpuint (b->n_parts, ==, 1);
  g_assert_cmpuint (b->n_ranks, ==, 2);
  g_assert_cmpint (b->ranks[1], ==, 2);
  tprof_breakdown_free (b);
  g_assert_null (tprof_breakdown_new (4, 4, parents, counts, sums, NULL, NULL, 3));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/breakdown/matrix", test_breakdown_matrix);
  g_test_add_func ("/analysis/breakdown/mask-and-leaf", test_breakdown_mask_and_leaf);
  return g_test_run ();
}
