/* test-operation-index.c — TprofOperationIndex: statistics and histograms of rank selections against numpy, and its sort and selection. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats-reference.h"
#include "tprof-sorted-runs-private.h"

#define WORLD 8

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofOperationIndex, tprof_operation_index_free)

/* One operation of the fixture: its samples, index and numpy's answers. */
typedef struct
{
  const char          *name;
  GArray              *times;
  GArray              *ranks;
  TprofOperationIndex *index;
  StatsReference      *reference;   /* auto bins, every selection */
} Operation;

enum { FORWARD, ALLREDUCE, CHECKPOINT, EMPTY, CONSTANT, ZEROS, BIG, N_OPS };

static Operation ops[N_OPS] = {
  { "forward" }, { "allreduce" }, { "io/checkpoint" }, { "empty" }, { "constant" }, { "zeros" }, { "big" },
};

/* Rank selections, as masks and as reference.py takes them. */
static const char * const selections[] = { "all", "1,2,5", "0", "7", "3,4,5,6,7" };

static void
add_sample (Operation *op,
            int32_t    rank,
            double     value)
{
  g_array_append_val (op->times, value);
  g_array_append_val (op->ranks, rank);
}

static double
gauss (GRand *rand)
{
  double u = g_rand_double_range (rand, 1e-12, 1.0);
  double v = g_rand_double (rand);

  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

/* 8 ranks: forward (rank 5 slow), allreduce (no rank 7), io/checkpoint
 * (ranks 4 and 0 interleaved), empty, constant, zeros (ranks 0-3, 5 zeros
 * each), big (16000 tied samples). */
static void
make_fixture (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);

  for (int o = 0; o < N_OPS; o++)
    {
      ops[o].times = g_array_new (FALSE, FALSE, sizeof (double));
      ops[o].ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
    }
  for (int r = 0; r < WORLD; r++)
    for (int i = 0; i < 300; i++)
      add_sample (&ops[FORWARD], r, 0.010 * (r == 5 ? 3.0 : 1.0) * exp (0.3 * gauss (rand)));
  for (int r = 0; r < WORLD - 1; r++)
    for (int i = 0; i < 50; i++)
      add_sample (&ops[ALLREDUCE], r, g_rand_double_range (rand, 0.001, 0.004));
  for (int i = 0; i < 3; i++)
    {
      add_sample (&ops[CHECKPOINT], 4, g_rand_double_range (rand, 1.0, 2.0));
      add_sample (&ops[CHECKPOINT], 0, g_rand_double_range (rand, 1.0, 2.0));
    }
  for (int r = 0; r < WORLD; r++)
    for (int i = 0; i < 10; i++)
      add_sample (&ops[CONSTANT], r, 0.25);
  for (int r = 0; r < 4; r++)
    for (int i = 0; i < 20; i++)
      add_sample (&ops[ZEROS], r, i < 5 ? 0.0 : g_rand_double_range (rand, 1e-6, 1e-3));
  /* many ties and more samples than a direct selection handles */
  for (int r = 0; r < WORLD; r++)
    for (int i = 0; i < 2000; i++)
      add_sample (&ops[BIG], r, round (g_rand_double_range (rand, 0.0, 0.05 * (1 + r % 3)) * 1e4) / 1e4);
}

static TprofGatheredTime *
operation_samples (const Operation *op)
{
  return tprof_gathered_time_new ((const double *) op->times->data, (const int32_t *) op->ranks->data,
                                  op->times->len);
}

/* numpy's answers for @op on every selection, with histograms of @specs
 * (comma-separated, "-" for none) in @mode. */
static StatsReference *
operation_reference (const Operation *op,
                     const char      *mode,
                     const char      *specs,
                     const char      *only_selection)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  g_ptr_array_add (args, (char *) mode);
  g_ptr_array_add (args, (char *) specs);
  if (only_selection != NULL)
    g_ptr_array_add (args, (char *) only_selection);
  else
    for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
      g_ptr_array_add (args, (char *) selections[s]);
  g_ptr_array_add (args, NULL);
  return stats_reference_run ("selections", (const double *) op->times->data, (const int32_t *) op->ranks->data,
                              op->times->len, (const char **) args->pdata);
}

/* The mask (@world bytes) of @selection; NULL for "all". g_free() it. */
static guint8 *
mask_new (const char *selection,
          int         world)
{
  g_auto(GStrv) parts = NULL;
  guint8 *mask;

  if (g_str_equal (selection, "all"))
    return NULL;
  mask = g_new0 (guint8, world);
  parts = g_strsplit (selection, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    mask[atoi (parts[i])] = 1;
  return mask;
}

static double
ref_value (StatsReference *ref,
           guint           selection,
           const char     *name,
           gsize           i)
{
  g_autofree char *key = g_strdup_printf ("s%u_%s", selection, name);
  gsize n;
  const double *values = stats_reference_get (ref, key, &n);

  g_assert_cmpuint (i, <, n);
  return values[i];
}

static void
assert_summary (const TprofSummary *s,
                StatsReference     *ref,
                guint               selection,
                gboolean            moments_only)
{
  const double got[] = { s->count, s->sum, s->mean, s->std, s->min, s->max };

  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    stats_assert_close (got[i], ref_value (ref, selection, "summary", i), 1e-9);
  if (moments_only)
    {
      g_assert_true (isnan (s->median) && isnan (s->p95) && isnan (s->p99));
    }
  else
    {
      stats_assert_close (s->median, ref_value (ref, selection, "quantiles", 0), 1e-9);
      stats_assert_close (s->p95, ref_value (ref, selection, "quantiles", 1), 1e-9);
      stats_assert_close (s->p99, ref_value (ref, selection, "quantiles", 2), 1e-9);
    }
  g_assert_cmpuint (s->rank_count, ==, (gsize) ref_value (ref, selection, "rank_count", 0));
  stats_assert_close (s->imbalance, ref_value (ref, selection, "imbalance", 0), 1e-9);
  g_assert_cmpint (s->slowest_rank, ==, (int) ref_value (ref, selection, "slowest_rank", 0));
}

static void
test_summaries (void)
{
  for (guint o = 0; o < N_OPS; o++)
    for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
      {
        g_autofree guint8 *mask = mask_new (selections[s], WORLD);
        TprofSummary summary;

        g_test_message ("%s on ranks %s", ops[o].name, selections[s]);
        g_assert_true (tprof_operation_index_summarize (ops[o].index, mask, &summary));
        assert_summary (&summary, ops[o].reference, s, FALSE);
        g_assert_true (tprof_operation_index_summarize_moments (ops[o].index, mask, &summary));
        assert_summary (&summary, ops[o].reference, s, TRUE);

        if (mask == NULL)
          assert_summary (tprof_operation_index_summary (ops[o].index), ops[o].reference, s, FALSE);
      }
}

static void
test_rank_summaries (void)
{
  StatsReference *ref = ops[ALLREDUCE].reference;

  for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
    {
      g_autofree guint8 *mask = mask_new (selections[s], WORLD);
      g_autofree char *ranks_key = g_strdup_printf ("s%u_ranks", s);
      gsize n_want, n;
      g_autofree TprofRankSummary *ranks = tprof_operation_index_rank_summaries (ops[ALLREDUCE].index, mask, &n);

      g_assert_nonnull (ranks);
      stats_reference_get (ref, ranks_key, &n_want);
      g_assert_cmpuint (n, ==, n_want);
      for (gsize i = 0; i < n; i++)
        {
          g_autofree char *key = g_strdup_printf ("rank_%d", ranks[i].rank);

          g_assert_cmpuint (ranks[i].count, ==, (gsize) ref_value (ref, s, key, 0));
          stats_assert_close (ranks[i].sum, ref_value (ref, s, key, 1), 1e-12);
          stats_assert_close (ranks[i].mean, ref_value (ref, s, key, 2), 1e-12);
          stats_assert_close (ranks[i].std, ref_value (ref, s, key, 3), 1e-12);
          stats_assert_close (ranks[i].min, ref_value (ref, s, key, 4), 0.0);
          stats_assert_close (ranks[i].max, ref_value (ref, s, key, 5), 0.0);
          if (i > 0)
            g_assert_cmpint (ranks[i - 1].rank, <, ranks[i].rank);
        }
    }
}

/* @hist against histogram h<@spec> of selection @selection of @ref. */
static void
assert_histogram (const TprofHistogram *hist,
                  StatsReference       *ref,
                  guint                 selection,
                  guint                 spec,
                  const char           *what)
{
  g_autofree char *prefix = g_strdup_printf ("h%u_", spec);
  g_autofree char *edges_key = g_strconcat (prefix, "edges", NULL);
  g_autofree char *counts_key = g_strconcat (prefix, "counts", NULL);
  g_autofree char *n_bins_key = g_strconcat (prefix, "n_bins", NULL);

  g_test_message ("%s", what);
  g_assert_cmpuint (hist->n_bins, ==, (gsize) ref_value (ref, selection, n_bins_key, 0));
  for (gsize i = 0; i <= hist->n_bins; i++)
    stats_assert_close (hist->edges[i], ref_value (ref, selection, edges_key, i), 1e-12);
  for (gsize i = 0; i < hist->n_bins; i++)
    g_assert_cmpuint (hist->counts[i], ==, (guint64) ref_value (ref, selection, counts_key, i));

  for (gsize r = 0; r < hist->n_ranks; r++)
    {
      g_autofree char *key = g_strdup_printf ("%srank_%d", prefix, hist->ranks[r]);

      for (gsize i = 0; i < hist->n_bins; i++)
        g_assert_cmpuint (hist->rank_counts[r * hist->n_bins + i], ==, (guint64) ref_value (ref, selection, key, i));
    }
}

static void
test_histogram_auto (void)
{
  static const int with_hist[] = { FORWARD, ALLREDUCE, CHECKPOINT, CONSTANT, BIG };

  for (guint o = 0; o < G_N_ELEMENTS (with_hist); o++)
    for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
      {
        const Operation *op = &ops[with_hist[o]];
        g_autofree guint8 *mask = mask_new (selections[s], WORLD);
        g_autofree char *what = g_strdup_printf ("auto histogram of %s on ranks %s", op->name, selections[s]);
        g_autoptr(TprofHistogram) hist = tprof_operation_index_histogram (op->index, mask, TPROF_HISTOGRAM_AUTO_BINS,
                                                                          TPROF_HISTOGRAM_SEPARATE_RANKS);
        TprofSummary summary;

        g_assert_nonnull (hist);
        g_assert_true (tprof_operation_index_summarize_moments (op->index, mask, &summary));
        if (summary.count == 0)
          {
            /* a selection without samples (allreduce on rank 7) */
            g_assert_cmpuint (hist->n_bins, ==, 0);
            g_assert_cmpuint (hist->n_ranks, ==, 0);
            continue;
          }
        assert_histogram (hist, op->reference, s, 0, what);
      }
}

static void
test_histogram_bins (void)
{
  g_autofree guint8 *mask = mask_new ("1,2,5", WORLD);
  g_autoptr(StatsReference) ref = operation_reference (&ops[FORWARD], "linear", "17", "1,2,5");
  g_autoptr(TprofHistogram) hist = tprof_operation_index_histogram (ops[FORWARD].index, mask, 17,
                                                                    TPROF_HISTOGRAM_DEFAULT);

  g_assert_cmpuint (hist->n_ranks, ==, 0);
  g_assert_null (hist->rank_counts);
  assert_histogram (hist, ref, 0, 0, "17 bins of forward");
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Two runs' histograms share edges: a selection binned on a wider range
 * (the extent of all ranks) is numpy.histogram(..., range=); and the
 * selection's values come out whole. */
static void
test_histogram_range (void)
{
  g_autofree guint8 *mask = mask_new ("1,2,5", WORLD);
  Operation *op = &ops[FORWARD];
  g_autofree char *lo_text = NULL, *hi_text = NULL;
  g_autoptr(StatsReference) ref = NULL;
  g_autoptr(TprofHistogram) hist = NULL;
  g_autofree double *values = NULL;
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (double));
  const double *counts, *edges;
  double lo, hi, sel_lo, sel_hi;
  gsize n_counts, n_edges;
  size_t n = 0;

  g_assert_true (tprof_operation_index_extent (op->index, NULL, TPROF_HISTOGRAM_DEFAULT, &lo, &hi));
  g_assert_true (tprof_operation_index_extent (op->index, mask, TPROF_HISTOGRAM_DEFAULT, &sel_lo, &sel_hi));
  g_assert_cmpfloat (lo, <, sel_lo);
  lo_text = g_strdup_printf ("%.17g", lo);
  hi_text = g_strdup_printf ("%.17g", hi);
  {
    const char *args[] = { "17", lo_text, hi_text, "1,2,5", NULL };

    ref = stats_reference_run ("hist_range", (const double *) op->times->data, (const int32_t *) op->ranks->data,
                               op->times->len, args);
  }
  hist = tprof_operation_index_histogram_range (op->index, mask, 17, TPROF_HISTOGRAM_DEFAULT, lo, hi);
  counts = stats_reference_get (ref, "counts", &n_counts);
  edges = stats_reference_get (ref, "edges", &n_edges);
  g_assert_cmpuint (hist->n_bins, ==, n_counts);
  for (gsize i = 0; i < n_counts; i++)
    g_assert_cmpuint (hist->counts[i], ==, (guint64) counts[i]);
  for (gsize i = 0; i < n_edges; i++)
    stats_assert_close (hist->edges[i], edges[i], 1e-15);

  values = tprof_operation_index_values (op->index, mask, &n);
  for (guint i = 0; i < op->times->len; i++)
    if (mask[g_array_index (op->ranks, int32_t, i)])
      g_array_append_val (expected, g_array_index (op->times, double, i));
  g_assert_cmpuint (n, ==, expected->len);
  qsort (values, n, sizeof *values, compare_doubles);
  g_array_sort (expected, compare_doubles);
  g_assert_cmpmem (values, n * sizeof (double), expected->data, n * sizeof (double));

  /* nothing selected: no extent */
  {
    g_autofree guint8 *none = g_new0 (guint8, WORLD);

    g_assert_false (tprof_operation_index_extent (op->index, none, TPROF_HISTOGRAM_DEFAULT, &lo, &hi));
    g_assert_true (isnan (lo) && isnan (hi));
  }
}

static void
test_histogram_log (void)
{
  static const int log_ops[] = { FORWARD, ZEROS };

  for (guint o = 0; o < G_N_ELEMENTS (log_ops); o++)
    {
      const Operation *op = &ops[log_ops[o]];
      g_autoptr(StatsReference) ref = operation_reference (op, "log", "12", "all");
      g_autoptr(TprofHistogram) hist = tprof_operation_index_histogram (op->index, NULL, 12,
                                                                        TPROF_HISTOGRAM_LOG | TPROF_HISTOGRAM_SEPARATE_RANKS);
      g_autofree char *what = g_strdup_printf ("log histogram of %s", op->name);

      assert_histogram (hist, ref, 0, 0, what);
      /* 5 zeros on each of the 4 ranks of "zeros" stay off a log axis */
      g_assert_cmpuint (hist->n_nonpositive, ==, log_ops[o] == ZEROS ? 20 : 0);
      g_assert_cmpuint (hist->n_nonpositive, ==, (guint64) ref_value (ref, 0, "h0_n_nonpositive", 0));
    }

  /* the automatic count on a log axis still gives edges spanning the positive samples */
  {
    g_autoptr(TprofHistogram) hist = tprof_operation_index_histogram (ops[ZEROS].index, NULL, 0, TPROF_HISTOGRAM_LOG);
    guint64 total = 0;

    g_assert_cmpuint (hist->n_bins, >=, 1);
    for (gsize i = 0; i < hist->n_bins; i++)
      total += hist->counts[i];
    g_assert_cmpuint (total, ==, 60);
    stats_assert_close (hist->edges[hist->n_bins], ref_value (ops[ZEROS].reference, 0, "summary", 5), 0.0);
  }
}

/* 21 ranks of ragged sizes (some empty) and unlike distributions: more runs
 * than are counted side by side, and windows that must grow. */
static void
test_histogram_ragged (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  Operation ragged = { "ragged", g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (int32_t)) };
  const char *selection = "0,2,3,5,8,9,10,11,12,13,14,15,16,17,20";
  g_autofree guint8 *mask = mask_new (selection, 21);
  static const char * const bins[] = { "auto", "7", "300" };
  g_autoptr(StatsReference) all = NULL;
  g_autoptr(StatsReference) some = NULL;
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(TprofOperationIndex) index = NULL;

  for (int32_t r = 0; r < 21; r++)
    for (int i = 0; i < (r * 37) % 50; i++)
      add_sample (&ragged, r, r % 3 == 0 ? g_rand_double (rand) * 1e-3
                              : r % 3 == 1 ? exp (g_rand_double_range (rand, -12, 0))
                              : 0.5 + 1e-6 * g_rand_int_range (rand, 0, 4));
  gt = operation_samples (&ragged);
  index = tprof_operation_index_new (gt, NULL, NULL, NULL, NULL);
  all = operation_reference (&ragged, "linear", "auto,7,300", "all");
  some = operation_reference (&ragged, "linear", "auto,7,300", selection);

  for (guint b = 0; b < G_N_ELEMENTS (bins); b++)
    for (guint masked = 0; masked < 2; masked++)
      {
        gsize n_bins = g_str_equal (bins[b], "auto") ? TPROF_HISTOGRAM_AUTO_BINS : (gsize) atoi (bins[b]);
        g_autoptr(TprofHistogram) hist = tprof_operation_index_histogram (index, masked ? mask : NULL, n_bins,
                                                                          TPROF_HISTOGRAM_SEPARATE_RANKS);
        g_autofree char *what = g_strdup_printf ("ragged, %s bins, ranks %s", bins[b], masked ? selection : "all");

        assert_histogram (hist, masked ? some : all, 0, b, what);
      }
  g_array_unref (ragged.times);
  g_array_unref (ragged.ranks);
}

/* 500 ranks of 10 samples: the runs are far fewer values than bins and
 * than selections would visit, so values are binned one by one and the
 * quartiles of the automatic bin count selected from one copy. */
static void
test_histogram_short_runs (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  Operation many = { "many", g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (int32_t)) };
  g_autoptr(GString) listed = g_string_new (NULL);
  const char *selection;
  g_autofree guint8 *mask = NULL;
  static const char * const bins[] = { "auto", "7", "300" };
  g_autoptr(StatsReference) all = NULL;
  g_autoptr(StatsReference) some = NULL;
  g_autoptr(TprofGatheredTime) gt = NULL;
  g_autoptr(TprofOperationIndex) index = NULL;

  /* ranks 0-99 and 250-499, listed one by one */
  for (int32_t r = 0; r < 500; r++)
    if (r < 100 || r >= 250)
      g_string_append_printf (listed, "%s%d", listed->len > 0 ? "," : "", r);
  selection = listed->str;
  mask = mask_new (selection, 500);
  for (int32_t r = 0; r < 500; r++)
    for (int i = 0; i < 10; i++)
      add_sample (&many, r, exp (g_rand_double_range (rand, -9, -5)) * (r == 123 ? 3 : 1));
  gt = operation_samples (&many);
  index = tprof_operation_index_new (gt, NULL, NULL, NULL, NULL);
  all = operation_reference (&many, "linear", "auto,7,300", "all");
  some = operation_reference (&many, "linear", "auto,7,300", selection);

  for (guint b = 0; b < G_N_ELEMENTS (bins); b++)
    for (guint masked = 0; masked < 2; masked++)
      {
        gsize n_bins = g_str_equal (bins[b], "auto") ? TPROF_HISTOGRAM_AUTO_BINS : (gsize) atoi (bins[b]);
        g_autoptr(TprofHistogram) hist = tprof_operation_index_histogram (index, masked ? mask : NULL, n_bins,
                                                                          TPROF_HISTOGRAM_SEPARATE_RANKS);
        g_autofree char *what = g_strdup_printf ("short runs, %s bins, %s", bins[b], masked ? "ranks 0-99,250-499" : "all ranks");

        assert_histogram (hist, masked ? some : all, 0, b, what);
      }
  g_array_unref (many.times);
  g_array_unref (many.ranks);
}

static void
test_sort (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  static const gsize sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 100000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint negative = 0; negative < 2; negative++)
      {
        gsize n = sizes[s];
        g_autofree double *values = g_new (double, MAX (n, 1));
        g_autofree double *expected = g_new (double, MAX (n, 1));
        g_autofree double *scratch = g_new (double, MAX (n, 1));

        for (gsize i = 0; i < n; i++)
          {
            switch (i % 5)
              {
              case 0: values[i] = g_rand_double (rand); break;
              case 1: values[i] = g_rand_double (rand) * 1e-310; break;  /* subnormal */
              case 2: values[i] = g_rand_double (rand) * 1e300; break;
              case 3: values[i] = 0.0; break;
              default: values[i] = round (g_rand_double (rand) * 10); break;
              }
            /* the second round mixes in negative values, which order reversed as bits */
            if (negative && i % 3 == 0)
              values[i] = -values[i] - (i % 2 ? 0.0 : 1e-3);
          }
        memcpy (expected, values, n * sizeof *values);
        qsort (expected, n, sizeof *expected, compare_doubles);
        _tprof_sort_doubles (values, n, scratch);
        for (gsize i = 0; i < n; i++)
          g_assert_cmpfloat (values[i], ==, expected[i]);
      }
}

static void
test_select_kth (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  enum { RUNS = 9, PER_RUN = 3000 };
  g_autofree double *all = g_new (double, RUNS * PER_RUN);
  g_autofree double *sorted_all = NULL;
  g_autofree double *scratch = g_new (double, PER_RUN);
  TprofSortedRun runs[RUNS];

  for (int r = 0; r < RUNS; r++)
    {
      double *run = all + r * PER_RUN;

      for (int i = 0; i < PER_RUN; i++)
        run[i] = round (g_rand_double_range (rand, 0, r + 1.0) * 100) / 100;  /* ties */
      _tprof_sort_doubles (run, PER_RUN, scratch);
      runs[r] = (TprofSortedRun) { .values = run, .len = PER_RUN };
    }
  sorted_all = g_memdup2 (all, sizeof (double) * RUNS * PER_RUN);
  qsort (sorted_all, RUNS * PER_RUN, sizeof (double), compare_doubles);

  for (gsize k = 0; k < RUNS * PER_RUN; k += 997)
    g_assert_cmpfloat (_tprof_sorted_runs_select_kth (runs, RUNS, RUNS * PER_RUN, k), ==, sorted_all[k]);
  g_assert_cmpfloat (_tprof_sorted_runs_select_kth (runs, RUNS, RUNS * PER_RUN, RUNS * PER_RUN - 1), ==,
                     sorted_all[RUNS * PER_RUN - 1]);
}

static void
test_count (void)
{
  g_assert_cmpuint (tprof_operation_index_count (ops[BIG].index), ==, 16000);
  g_assert_cmpuint (tprof_operation_index_count (ops[EMPTY].index), ==, 0);
  for (guint o = 0; o < N_OPS; o++)
    {
      gsize n_ranks;
      const int32_t *ranks = tprof_operation_index_ranks (ops[o].index, &n_ranks);

      g_assert_cmpuint (n_ranks, ==, (gsize) ref_value (ops[o].reference, 0, "rank_count", 0));
      for (gsize i = 0; i < n_ranks; i++)
        g_assert_cmpint (ranks[i], ==, (int) ref_value (ops[o].reference, 0, "ranks", i));
    }
}

/* Samples grouped by rank (as files store them) take the path without
 * regrouping; it must answer exactly as the general one. */
static void
test_grouped_input (void)
{
  enum { N = 5000 };
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  g_autoptr(TprofGatheredTime) scattered = NULL;
  g_autoptr(TprofGatheredTime) grouped = NULL;
  g_autoptr(TprofOperationIndex) a = NULL;
  g_autoptr(TprofOperationIndex) b = NULL;
  const guint8 mask[] = { 1, 0, 1, 1, 0, 1 };
  TprofSummary sa, sb;
  g_autofree TprofRankSummary *ra = NULL;
  g_autofree TprofRankSummary *rb = NULL;
  gsize na, nb;

  stats_random_samples (N, 6, &times, &ranks);
  scattered = tprof_gathered_time_new (times, ranks, N);
  grouped = tprof_gathered_time_get_rank (scattered, (const int32_t[]) { 0, 1, 2, 3, 4, 5 }, 6);
  a = tprof_operation_index_new (scattered, NULL, NULL, NULL, NULL);
  b = tprof_operation_index_new (grouped, NULL, NULL, NULL, NULL);

  memset (&sa, 0, sizeof sa);  /* the padding compares too */
  memset (&sb, 0, sizeof sb);
  g_assert_true (tprof_operation_index_summarize (a, mask, &sa));
  g_assert_true (tprof_operation_index_summarize (b, mask, &sb));
  g_assert_cmpmem (&sa, sizeof sa, &sb, sizeof sb);
  ra = tprof_operation_index_rank_summaries (a, NULL, &na);
  rb = tprof_operation_index_rank_summaries (b, NULL, &nb);
  /* field by field: the struct's padding after `rank` holds whatever
   * the allocator left there */
  g_assert_cmpuint (na, ==, nb);
  for (gsize i = 0; i < na; i++)
    {
      g_assert_cmpint (ra[i].rank, ==, rb[i].rank);
      g_assert_cmpuint (ra[i].count, ==, rb[i].count);
      g_assert_cmpmem (&ra[i].sum, 5 * sizeof (double), &rb[i].sum, 5 * sizeof (double));
    }
}

static void
cancel_on_first_progress (double  fraction,
                          void   *user_data)
{
  __atomic_store_n ((int *) user_data, 1, __ATOMIC_RELAXED);
}

static void
test_refusals (void)
{
  const double with_nan[] = { 1.0, NAN, 2.0 };
  const double with_inf[] = { 1.0, INFINITY };
  const int32_t ranks[] = { 0, 0, 1 };
  g_autoptr(TprofGatheredTime) nan_gt = tprof_gathered_time_new (with_nan, ranks, 3);
  g_autoptr(TprofGatheredTime) inf_gt = tprof_gathered_time_new (with_inf, ranks, 2);
  TprofError error = { 0 };
  int cancel = 0;

  g_assert_null (tprof_operation_index_new (nan_gt, NULL, NULL, NULL, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  tprof_error_clear (&error);
  g_assert_null (tprof_operation_index_new (inf_gt, NULL, NULL, NULL, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  tprof_error_clear (&error);

  /* a build told to stop while it sorts */
  {
    g_autoptr(TprofGatheredTime) gt = operation_samples (&ops[BIG]);

    g_assert_null (tprof_operation_index_new (gt, cancel_on_first_progress, &cancel, &cancel, &error));
    g_assert_cmpint (error.code, ==, TPROF_ERROR_CANCELLED);
    g_assert_cmpstr (error.message, !=, "");
  }
}

static void
progress_cb (double  fraction,
             void   *user_data)
{
  double *last = user_data;

  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  make_fixture ();
  for (guint o = 0; o < N_OPS; o++)
    {
      g_autoptr(TprofGatheredTime) gt = operation_samples (&ops[o]);
      TprofError error = { 0 };
      double last_progress = 0.0;

      ops[o].index = tprof_operation_index_new (gt, progress_cb, &last_progress, NULL, &error);
      if (ops[o].index == NULL)
        g_error ("could not index %s: %s", ops[o].name, error.message);
      g_assert_cmpfloat (last_progress, ==, 1.0);
      ops[o].reference = operation_reference (&ops[o], "linear", o == EMPTY || o == ZEROS ? "-" : "auto", NULL);
    }

  g_test_add_func ("/stats/operation-index/count", test_count);
  g_test_add_func ("/stats/operation-index/summaries", test_summaries);
  g_test_add_func ("/stats/operation-index/rank-summaries", test_rank_summaries);
  g_test_add_func ("/stats/operation-index/histogram-auto", test_histogram_auto);
  g_test_add_func ("/stats/operation-index/histogram-bins", test_histogram_bins);
  g_test_add_func ("/stats/operation-index/histogram-log", test_histogram_log);
  g_test_add_func ("/stats/operation-index/histogram-range", test_histogram_range);
  g_test_add_func ("/stats/operation-index/histogram-ragged", test_histogram_ragged);
  g_test_add_func ("/stats/operation-index/histogram-short-runs", test_histogram_short_runs);
  g_test_add_func ("/stats/operation-index/grouped-input", test_grouped_input);
  g_test_add_func ("/stats/operation-index/refusals", test_refusals);
  g_test_add_func ("/stats/operation-index/sort", test_sort);
  g_test_add_func ("/stats/operation-index/select-kth", test_select_kth);

  ret = g_test_run ();

  for (guint o = 0; o < N_OPS; o++)
    {
      tprof_operation_index_free (ops[o].index);
      stats_reference_free (ops[o].reference);
      g_array_unref (ops[o].times);
      g_array_unref (ops[o].ranks);
    }
  return ret;
}
