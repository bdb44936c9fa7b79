/* test-nesting.c — parents, self times and parent operations (docs/analysis.md) against reference.py's numpy implementation, on synthetic call trees. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "stats-reference.h"

enum { STEP, FORWARD, BACKWARD, ALLREDUCE, LAYER, RECURSE, UNTIMED, EMPTY, N_OPS };
/* ranks of the random trees */
enum { WORLD = 3 };

/* The samples of N_OPS operations; UNTIMED has no starts, EMPTY none. */
typedef struct
{
  GArray  *times[N_OPS];
  GArray  *ranks[N_OPS];
  GArray  *starts[N_OPS];
  GArray  *threads[N_OPS];
  gboolean grid;          /* ticks of 1/64 s (exact) or of 1 ns (rounded) */
} Trees;

static Trees *
trees_new (gboolean grid)
{
  Trees *t = g_new0 (Trees, 1);

  t->grid = grid;
  for (int op = 0; op < N_OPS; op++)
    {
      t->times[op] = g_array_new (FALSE, FALSE, sizeof (double));
      t->ranks[op] = g_array_new (FALSE, FALSE, sizeof (int32_t));
      t->starts[op] = g_array_new (FALSE, FALSE, sizeof (double));
      t->threads[op] = g_array_new (FALSE, FALSE, sizeof (int32_t));
    }
  return t;
}

static void
trees_free (Trees *t)
{
  for (int op = 0; op < N_OPS; op++)
    {
      g_array_unref (t->times[op]);
      g_array_unref (t->ranks[op]);
      g_array_unref (t->starts[op]);
      g_array_unref (t->threads[op]);
    }
  g_free (t);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Trees, trees_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofNesting, tprof_nesting_free)

static void
trees_add (Trees  *t,
           int     op,
           int32_t rank,
           int32_t thread,
           double  start,
           double  time)
{
  g_array_append_val (t->times[op], time);
  g_array_append_val (t->ranks[op], rank);
  g_array_append_val (t->starts[op], start);
  g_array_append_val (t->threads[op], thread);
}

static int
child_operation (int depth)
{
  static const int top[] = { FORWARD, BACKWARD, ALLREDUCE };

  if (depth == 0)
    return top[g_test_rand_int_range (0, 3)];
  return g_test_rand_int_range (0, 3) == 0 ? LAYER : RECURSE;
}

/* A random integer in [0, @max]. */
static int64_t
rand_ticks (int64_t max)
{
  int64_t x = (int64_t) floor (g_test_rand_double () * (double) (max + 1));

  return x < max ? x : max;
}

/* A sample at integer clock ticks, in seconds as a recorder makes them:
 * on the grid a tick is 1/64 s and every sum is exact; otherwise a tick
 * is a nanosecond of a clock read near 1000 s and shifted to a timeline,
 * so that start + time rounds (a child that stopped on its parent's tick
 * may seem to end an ulp after it). */
static void
trees_add_ticks (Trees  *t,
                 int     op,
                 int32_t rank,
                 int32_t thread,
                 int64_t start,
                 int64_t length)
{
  if (t->grid)
    trees_add (t, op, rank, thread, start / 64.0, length / 64.0);
  else
    trees_add (t, op, rank, thread, start * 1e-9 - 0.123456789, length * 1e-9);
}

/* A sample of @op over [@start, @start + @length) and, below depth 4, up
 * to 3 children laid out in it one after the other: a single child
 * sometimes fills its parent (equal intervals), a last child often ends
 * where its parent does, and lengths may be 0. */
static void
grow (Trees  *t,
      int     op,
      int     depth,
      int32_t rank,
      int32_t thread,
      int64_t start,
      int64_t length)
{
  int64_t end = start + length, pos = start;
  int n_children = depth < 4 ? g_test_rand_int_range (0, 4) : 0;

  trees_add_ticks (t, op, rank, thread, start, length);
  for (int c = 0; c < n_children; c++)
    {
      int64_t left = end - pos;
      int64_t gap = n_children == 1 && g_test_rand_bit () ? 0 : rand_ticks (left / 2);
      int64_t child = g_test_rand_bit () ? left - gap : rand_ticks (left - gap);

      grow (t, child_operation (depth), depth + 1, rank, thread, pos + gap, child);
      pos += gap + child;
    }
}

/* 3 ranks of 2 threads each, whose threads run at overlapping times;
 * steps follow each other, sometimes with no gap. */
static Trees *
make_trees (gboolean grid)
{
  Trees *t = trees_new (grid);
  int64_t unit = grid ? 64 : 1000000000;

  for (int32_t rank = 0; rank < WORLD; rank++)
    for (int32_t thread = 0; thread < 2; thread++)
      {
        int64_t clock = grid ? 0 : 1000 * unit + rand_ticks (unit);

        for (int step = 0; step < 8; step++)
          {
            int64_t length = unit + rand_ticks (3 * unit);

            grow (t, STEP, 0, rank, thread, clock, length);
            clock += length + (g_test_rand_bit () ? 0 : rand_ticks (unit / 16));
          }
      }
  for (int i = 0; i < 20; i++)
    trees_add (t, UNTIMED, g_test_rand_int_range (0, 3), 0, 0.0, g_test_rand_double ());
  return t;
}

/* Each operation's samples in a shuffled file order. */
static void
trees_shuffle (Trees *t)
{
  for (int op = 0; op < N_OPS; op++)
    for (guint i = t->times[op]->len; i > 1; i--)
      {
        guint j = g_test_rand_int_range (0, i);

#define SWAP(array, type) \
        { type x = g_array_index (array, type, i - 1); \
          g_array_index (array, type, i - 1) = g_array_index (array, type, j); \
          g_array_index (array, type, j) = x; }
        SWAP (t->times[op], double);
        SWAP (t->ranks[op], int32_t);
        SWAP (t->starts[op], double);
        SWAP (t->threads[op], int32_t);
#undef SWAP
      }
}

static TprofGatheredTime *
trees_selection (const Trees *t,
                 int          op)
{
  guint n = t->times[op]->len;
  TprofGatheredTime *gt = tprof_gathered_time_new ((const double *) (gconstpointer) t->times[op]->data,
                                                   (const int32_t *) (gconstpointer) t->ranks[op]->data, n);

  if (op != UNTIMED && n > 0)
    tprof_gathered_time_set_timeline_take (gt, g_memdup2 (t->starts[op]->data, n * sizeof (double)),
                                           g_memdup2 (t->threads[op]->data, n * sizeof (int32_t)));
  return gt;
}

/* The operations' samples one after the other, with each one's operation. */
static StatsReference *
trees_reference (const Trees *t)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (int32_t));
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (int32_t));
  g_autofree char *n_ops = g_strdup_printf ("%d", N_OPS);
  g_autofree char *untimed = g_strdup_printf ("%d", UNTIMED);
  /* an empty selection has no starts but nothing to nest either */
  const char *args[] = { n_ops, t->times[UNTIMED]->len > 0 ? untimed : NULL, NULL };

  for (int32_t op = 0; op < N_OPS; op++)
    {
      g_array_append_vals (times, t->times[op]->data, t->times[op]->len);
      g_array_append_vals (ranks, t->ranks[op]->data, t->ranks[op]->len);
      g_array_append_vals (starts, t->starts[op]->data, t->starts[op]->len);
      g_array_append_vals (threads, t->threads[op]->data, t->threads[op]->len);
      for (guint i = 0; i < t->times[op]->len; i++)
        g_array_append_val (ops, op);
    }

  return stats_reference_run_files ("nesting", (StatsReferenceFile[]) {
      { "times.bin", times->data, times->len * sizeof (double) },
      { "ranks.bin", ranks->data, ranks->len * sizeof (int32_t) },
      { "starts.bin", starts->data, starts->len * sizeof (double) },
      { "threads.bin", threads->data, threads->len * sizeof (int32_t) },
      { "ops.bin", ops->data, ops->len * sizeof (int32_t) },
    }, 5, args);
}

static TprofNesting *
trees_nesting (const Trees       *t,
               TprofGatheredTime *gts[N_OPS])
{
  for (int op = 0; op < N_OPS; op++)
    gts[op] = trees_selection (t, op);
  return tprof_nesting_new ((const TprofGatheredTime *const *) gts, N_OPS, NULL);
}

/* Every sample's parent and self time, every operation's self sum and
 * parent operation; returns how many samples have a parent. */
static gsize
check_against_reference (const Trees *t)
{
  TprofGatheredTime *gts[N_OPS];
  g_autoptr(TprofNesting) nesting = trees_nesting (t, gts);
  g_autoptr(StatsReference) ref = trees_reference (t);
  gsize n_parent, n_self, n_sum, n_op, id = 0, offset[N_OPS + 1] = { 0 }, nested = 0;
  const double *parent = stats_reference_get (ref, "parent", &n_parent);
  const double *self = stats_reference_get (ref, "self", &n_self);
  const double *self_sum = stats_reference_get (ref, "self_sum", &n_sum);
  const double *parent_op = stats_reference_get (ref, "parent_op", &n_op);

  g_assert_nonnull (nesting);
  for (int op = 0; op < N_OPS; op++)
    offset[op + 1] = offset[op] + t->times[op]->len;
  g_assert_cmpuint (n_parent, ==, offset[N_OPS]);
  g_assert_cmpuint (n_self, ==, offset[N_OPS]);
  g_assert_cmpuint (n_sum, ==, N_OPS);
  g_assert_cmpuint (n_op, ==, N_OPS);
  for (int op = 0; op < N_OPS; op++)
    {
      size_t up;
      double by_rank[WORLD] = { 0 }, expected_by_rank[WORLD] = { 0 };
      gboolean timed = tprof_nesting_rank_self_sums (nesting, op, gts[op], WORLD, by_rank);

      for (guint i = 0; i < t->times[op]->len; i++, id++)
        {
          size_t p_op = SIZE_MAX, p_sample = SIZE_MAX;
          gboolean has = tprof_nesting_parent (nesting, op, i, &p_op, &p_sample);

          g_assert_cmpint (has, ==, parent[id] >= 0);
          if (has)
            g_assert_cmpuint (offset[p_op] + p_sample, ==, (gsize) parent[id]);
          nested += has;
          stats_assert_close (tprof_nesting_self_time (nesting, op, i) + 16.0, self[id] + 16.0, 1e-14);
          if (!isnan (self[id]))
            expected_by_rank[g_array_index (t->ranks[op], int32_t, i)] += self[id];
        }
      /* the same self times, summed rank by rank */
      g_assert_cmpint (timed, ==, !isnan (self_sum[op]));
      for (int r = 0; timed && r < WORLD; r++)
        stats_assert_close (by_rank[r] + 64.0, expected_by_rank[r] + 64.0, 1e-13);
      stats_assert_close (tprof_nesting_self_sum (nesting, op) + 64.0, self_sum[op] + 64.0, 1e-13);
      g_assert_cmpint (tprof_nesting_parent_operation (nesting, op, &up), ==, parent_op[op] >= 0);
      if (parent_op[op] >= 0)
        g_assert_cmpuint (up, ==, (gsize) parent_op[op]);
    }
  for (int op = 0; op < N_OPS; op++)
    tprof_gathered_time_free (gts[op]);
  return nested;
}

static void
test_random_trees (gconstpointer grid)
{
  for (int round = 0; round < 3; round++)
    {
      g_autoptr(Trees) t = make_trees (GPOINTER_TO_INT (grid));

      trees_shuffle (t);
      g_assert_cmpuint (check_against_reference (t), >, t->times[STEP]->len);
    }
}

/* The tree a training step gives, by hand: step > forward > layer,
 * step > allreduce, with a recursion below forward and, on another
 * thread at the same time, a sample that is no one's child. */
static void
test_training_step (void)
{
  g_autoptr(Trees) t = trees_new (TRUE);
  TprofGatheredTime *gts[N_OPS];
  g_autoptr(TprofNesting) nesting = NULL;
  size_t op, sample;

  for (int k = 0; k < 3; k++)
    {
      double s = 10.0 * k;

      trees_add (t, STEP, 0, 0, s, 10.0);
      trees_add (t, FORWARD, 0, 0, s + 1.0, 3.0);
      trees_add (t, LAYER, 0, 0, s + 1.0, 1.0);
      trees_add (t, RECURSE, 0, 0, s + 2.0, 2.0);
      trees_add (t, RECURSE, 0, 0, s + 2.5, 1.0);   /* inside the one above */
      trees_add (t, ALLREDUCE, 0, 0, s + 5.0, 4.0);
      trees_add (t, BACKWARD, 0, 1, s + 5.5, 1.0);  /* another thread */
      trees_add (t, UNTIMED, 0, 0, s + 6.0, 1.0);   /* has no starts */
    }
  nesting = trees_nesting (t, gts);
  g_assert_true (tprof_nesting_parent (nesting, LAYER, 1, &op, &sample));
  g_assert_cmpuint (op, ==, FORWARD);
  g_assert_cmpuint (sample, ==, 1);
  g_assert_true (tprof_nesting_parent (nesting, RECURSE, 3, &op, &sample));
  g_assert_true (op == RECURSE && sample == 2);
  g_assert_false (tprof_nesting_parent (nesting, BACKWARD, 0, &op, &sample));
  g_assert_cmpfloat (tprof_nesting_self_time (nesting, STEP, 2), ==, 3.0);
  g_assert_cmpfloat (tprof_nesting_self_time (nesting, FORWARD, 0), ==, 0.0);
  g_assert_cmpfloat (tprof_nesting_self_time (nesting, RECURSE, 0), ==, 1.0);
  g_assert_cmpfloat (tprof_nesting_self_sum (nesting, STEP), ==, 9.0);
  g_assert_true (tprof_nesting_parent_operation (nesting, FORWARD, &op) && op == STEP);
  g_assert_true (tprof_nesting_parent_operation (nesting, ALLREDUCE, &op) && op == STEP);
  g_assert_true (tprof_nesting_parent_operation (nesting, LAYER, &op) && op == FORWARD);
  /* half its samples are inside itself: those do not vote */
  g_assert_true (tprof_nesting_parent_operation (nesting, RECURSE, &op) && op == FORWARD);
  g_assert_false (tprof_nesting_parent_operation (nesting, STEP, &op));
  g_assert_false (tprof_nesting_parent_operation (nesting, BACKWARD, &op));
  /* without starts: no part in it */
  g_assert_true (isnan (tprof_nesting_self_sum (nesting, UNTIMED)));
  g_assert_true (isnan (tprof_nesting_self_time (nesting, UNTIMED, 0)));
  g_assert_false (tprof_nesting_parent (nesting, UNTIMED, 0, &op, &sample));
  g_assert_cmpfloat (tprof_nesting_self_sum (nesting, EMPTY), ==, 0.0);
  g_assert_false (tprof_nesting_parent (nesting, N_OPS, 0, &op, &sample));
  g_assert_true (isnan (tprof_nesting_self_time (nesting, STEP, 3)));
  for (int i = 0; i < N_OPS; i++)
    tprof_gathered_time_free (gts[i]);
  check_against_reference (t);
}

/* STEP holds 5 FORWARD samples in one sample; 2 of its 3 samples lie in
 * FORWARD samples. Each is mostly inside the other: the link of the
 * earlier operation (STEP in FORWARD) stands, FORWARD's is dropped. */
static void
test_cycle (void)
{
  g_autoptr(Trees) t = trees_new (TRUE);
  TprofGatheredTime *gts[N_OPS];
  g_autoptr(TprofNesting) nesting = NULL;
  size_t op;

  trees_add (t, STEP, 0, 0, 0.0, 10.0);
  for (int i = 0; i < 5; i++)
    trees_add (t, FORWARD, 0, 0, 1.0 + i, 0.5);
  for (int i = 0; i < 2; i++)
    {
      trees_add (t, FORWARD, 0, 0, 20.0 + 10 * i, 5.0);
      trees_add (t, STEP, 0, 0, 21.0 + 10 * i, 1.0);
    }
  nesting = trees_nesting (t, gts);
  g_assert_true (tprof_nesting_parent_operation (nesting, STEP, &op) && op == FORWARD);
  g_assert_false (tprof_nesting_parent_operation (nesting, FORWARD, &op));
  for (int i = 0; i < N_OPS; i++)
    tprof_gathered_time_free (gts[i]);
  check_against_reference (t);
}

/* Times handed in (append_time) get guessed starts: each began its time
 * before it was handed in, so children may overlap one another. STEP
 * [0, 10] holds FORWARD [1, 5], [2, 6] and [4, 9]: they cover [1, 9],
 * 8 s, not the 4 + 4 + 5 = 13 s their times add up to. */
static void
test_overlapping_children (void)
{
  g_autoptr(Trees) t = trees_new (TRUE);
  TprofGatheredTime *gts[N_OPS];
  g_autoptr(TprofNesting) nesting = NULL;

  trees_add (t, STEP, 0, 0, 0.0, 10.0);
  trees_add (t, FORWARD, 0, 0, 1.0, 4.0);
  trees_add (t, FORWARD, 0, 0, 2.0, 4.0);
  trees_add (t, FORWARD, 0, 0, 4.0, 5.0);
  trees_add (t, LAYER, 0, 0, 1.5, 1.0);   /* inside the first FORWARD */
  trees_add (t, LAYER, 0, 0, 2.5, 1.0);   /* inside the second */
  nesting = trees_nesting (t, gts);
  g_assert_cmpfloat (tprof_nesting_self_time (nesting, STEP, 0), ==, 2.0);
  for (size_t i = 0; i < 3; i++)
    g_assert_cmpfloat (tprof_nesting_self_time (nesting, FORWARD, i), >=, 0.0);
  /* the first layer's parent is the first FORWARD, which it covers 1 s of */
  g_assert_cmpfloat (tprof_nesting_self_time (nesting, FORWARD, 0), ==, 3.0);
  for (int i = 0; i < N_OPS; i++)
    tprof_gathered_time_free (gts[i]);
  check_against_reference (t);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/analysis/nesting/random-trees-on-grid", GINT_TO_POINTER (TRUE), test_random_trees);
  g_test_add_data_func ("/analysis/nesting/random-trees-rounded", GINT_TO_POINTER (FALSE), test_random_trees);
  g_test_add_func ("/analysis/nesting/training-step", test_training_step);
  g_test_add_func ("/analysis/nesting/cycle", test_cycle);
  g_test_add_func ("/analysis/nesting/overlapping-children", test_overlapping_children);
  return g_test_run ();
}
