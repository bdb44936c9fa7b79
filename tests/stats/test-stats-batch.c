/* test-stats-batch.c — the figures of many operations laid end to end (what a profile caches), against numpy per operation and per rank, and against the summary of each operation alone. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "stats-reference.h"
#include "tprof-analysis-internal.h"

/* Sizes on both sides of the batch's small-operation limit and of a
 * numpy buffer, and none at all. */
static const gsize op_sizes[] = { 0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 200, 0, 9000 };
#define N_OPS G_N_ELEMENTS (op_sizes)
#define N_RANKS 4

static void
assert_same (double actual, double expected)
{
  if (isnan (expected))
    g_assert_true (isnan (actual));
  else
    g_assert_cmpfloat (actual, ==, expected);
}

/* Operation @k (@x, @n samples, @ranks ascending) against numpy, its
 * runs (@parts, one per rank with samples) too. */
static void
check_against_numpy (gsize k, const double *x, const int32_t *ranks, gsize n, const TprofBatchSummary *s,
                     const TprofPartSums *parts, gsize n_parts)
{
  static const char *qs[] = { "0.5", "0.95", "0.99", NULL };
  g_autoptr(StatsReference) ref = stats_reference_run ("stats", x, ranks, n, qs);
  gsize n_summary, n_q, n_ranks;
  const double *summary = stats_reference_get (ref, "summary", &n_summary);
  const double *q = stats_reference_get (ref, "quantiles", &n_q);
  const double *distinct = stats_reference_get (ref, "ranks", &n_ranks);

  g_test_message ("operation %zu: %zu samples, %zu ranks", k, n, n_parts);
  g_assert_cmpuint (s->count, ==, (guint64) summary[0]);
  stats_assert_close (s->sum, summary[1], 1e-12);
  stats_assert_close (s->mean, summary[2], 1e-12);
  stats_assert_close (s->std, summary[3], 1e-9);
  assert_same (s->min, summary[4]);
  assert_same (s->max, summary[5]);
  /* the same order statistics and interpolation as numpy's: exact */
  assert_same (s->median, q[0]);
  assert_same (s->p95, q[1]);
  assert_same (s->p99, q[2]);
  g_assert_cmpuint (n_parts, ==, n_ranks);
  for (gsize i = 0; i < n_parts; i++)
    {
      g_autofree char *name = g_strdup_printf ("rank_%d", (int) distinct[i]);
      const double *rank = stats_reference_get (ref, name, &n_summary);

      g_assert_cmpuint (parts[i].count, ==, (guint64) rank[0]);
      stats_assert_close (parts[i].sum, rank[1], 1e-12);
      g_assert_cmpfloat (parts[i].min, ==, rank[4]);
      g_assert_cmpfloat (parts[i].max, ==, rank[5]);
    }
}

/* The figures the batch gives an operation are those its summary and
 * rank summaries give it alone, bit for bit: a file's cache, written from
 * one, is checked against the other. */
static void
check_against_alone (const double *x, const int32_t *ranks, gsize n, const TprofBatchSummary *s,
                     const TprofPartSums *parts, gsize n_parts)
{
  g_autoptr(TprofGatheredTime) gt = tprof_gathered_time_new (x, ranks, n);
  g_autofree TprofRankSummary *alone = NULL;
  TprofSummary sum;

  g_assert_true (tprof_gathered_time_summarize (gt, &sum));
  g_assert_cmpuint (s->count, ==, sum.count);
  g_assert_cmpfloat (s->sum, ==, sum.sum);
  assert_same (s->mean, sum.mean);
  assert_same (s->std, sum.std);
  assert_same (s->min, sum.min);
  assert_same (s->max, sum.max);
  assert_same (s->median, sum.median);
  assert_same (s->p95, sum.p95);
  assert_same (s->p99, sum.p99);
  g_assert_cmpuint (tprof_gathered_time_rank_summaries (gt, &alone), ==, n_parts);
  for (gsize i = 0; i < n_parts; i++)
    {
      g_assert_cmpuint (parts[i].count, ==, alone[i].count);
      g_assert_cmpfloat (parts[i].sum, ==, alone[i].sum);
      g_assert_cmpfloat (parts[i].min, ==, alone[i].min);
      g_assert_cmpfloat (parts[i].max, ==, alone[i].max);
    }
}

static int
compare_ranks (gconstpointer a, gconstpointer b)
{
  return *(const int32_t *) a - *(const int32_t *) b;
}

static void
test_batch_operations (void)
{
  gsize total = 0, n_runs = 0;
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  uint64_t rows[N_OPS + 1] = { 0 };
  gsize op_runs[N_OPS + 1] = { 0 };
  g_autofree uint64_t *bounds = NULL;
  g_autofree TprofPartSums *parts = NULL;
  TprofBatchSummary figures[N_OPS];

  for (gsize k = 0; k < N_OPS; k++)
    total += op_sizes[k];
  stats_random_samples (total, N_RANKS, &times, &ranks);
  bounds = g_new0 (uint64_t, total + 1);
  parts = g_new0 (TprofPartSums, total + 1);
  /* each operation's ranks ascending, as files store them: its runs */
  for (gsize k = 0; k < N_OPS; k++)
    {
      rows[k + 1] = rows[k] + op_sizes[k];
      qsort (ranks + rows[k], op_sizes[k], sizeof *ranks, compare_ranks);
      op_runs[k] = n_runs;
      for (uint64_t i = rows[k]; i < rows[k + 1]; i++)
        if (i + 1 == rows[k + 1] || ranks[i + 1] != ranks[i])
          bounds[++n_runs] = i + 1;
    }
  op_runs[N_OPS] = n_runs;

  g_assert_true (_tprof_batch_summarize (times, rows, N_OPS, figures));
  _tprof_batch_part_sums (times, bounds, n_runs, parts);
  for (gsize k = 0; k < N_OPS; k++)
    {
      const double *x = times + rows[k];
      gsize n = op_sizes[k], n_parts = op_runs[k + 1] - op_runs[k];

      check_against_alone (x, ranks + rows[k], n, &figures[k], parts + op_runs[k], n_parts);
      check_against_numpy (k, x, ranks + rows[k], n, &figures[k], parts + op_runs[k], n_parts);
    }
}

/* Ties and zeros: the sorted copy and the interpolation between equal
 * neighbours. */
static void
test_batch_ties (void)
{
  double times[] = { 0.0, 0.0, 1e-3, 1e-3, 1e-3, 0.0, 5.0, 5.0, 5.0, 5.0, 2.0 };
  int32_t ranks[G_N_ELEMENTS (times)] = { 0 };
  uint64_t rows[] = { 0, 5, G_N_ELEMENTS (times) };
  TprofBatchSummary figures[2];

  g_assert_true (_tprof_batch_summarize (times, rows, 2, figures));
  for (gsize k = 0; k < 2; k++)
    {
      TprofPartSums part;

      _tprof_batch_part_sums (times + rows[k], (uint64_t[]) { 0, rows[k + 1] - rows[k] }, 1, &part);
      check_against_alone (times + rows[k], ranks, rows[k + 1] - rows[k], &figures[k], &part, 1);
      check_against_numpy (k, times + rows[k], ranks, rows[k + 1] - rows[k], &figures[k], &part, 1);
    }
}

/* Every small size, 1 to 16 values (the network's eight and fewer, the
 * insertion sort's few more), in random order and with many ties: the
 * quantiles read from the sorted copy are numpy's, exactly. */
static void
test_batch_small (void)
{
  enum { MAX_N = 16, N_SMALL = 2 * MAX_N };
  static const double tied[] = { 0.0, 1e-3, 1e-3, 2.5e-3, 5.0 };
  uint64_t rows[N_SMALL + 1] = { 0 };
  double times[N_SMALL * MAX_N];
  int32_t ranks[MAX_N] = { 0 };
  TprofBatchSummary figures[N_SMALL];

  for (gsize k = 0; k < N_SMALL; k++)
    {
      gsize n = k % MAX_N + 1;

      rows[k + 1] = rows[k] + n;
      for (uint64_t i = rows[k]; i < rows[k + 1]; i++)
        times[i] = k < MAX_N ? g_test_rand_double_range (0.0, 2.0)
                   : tied[g_test_rand_int_range (0, G_N_ELEMENTS (tied))];
    }
  g_assert_true (_tprof_batch_summarize (times, rows, N_SMALL, figures));
  for (gsize k = 0; k < N_SMALL; k++)
    {
      gsize n = (gsize) (rows[k + 1] - rows[k]);
      TprofPartSums part;

      _tprof_batch_part_sums (times + rows[k], (uint64_t[]) { 0, n }, 1, &part);
      check_against_alone (times + rows[k], ranks, n, &figures[k], &part, 1);
      check_against_numpy (k, times + rows[k], ranks, n, &figures[k], &part, 1);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/stats-batch/operations", test_batch_operations);
  g_test_add_func ("/capture/stats-batch/ties", test_batch_ties);
  g_test_add_func ("/capture/stats-batch/small", test_batch_small);
  return g_test_run ();
}
