/* test-profile-index.c — the viewer's rank-filtered statistics and histograms, checked against numpy. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <string.h>
#include <tprof/capture.h>

#include "app-test-util.h"
#include "tprof-profile-index-private.h"

static char *fixture_dir;
static char *fixture_path;
static TprofProfileIndex *fixture;

static const char * const op_names[] = {
  "forward", "allreduce", "io/checkpoint", "empty", "constant", "zeros", "big",
};

/* Rank selections as mask and as the list reference.py takes. */
static const char * const selections[] = { "all", "1,2,5", "0", "7", "3,4,5,6,7" };

static void
assert_summary (const TprofSummary *s,
                GHashTable         *reference,
                const char         *what)
{
  GArray *want = app_test_reference_get (reference, "summary");
  const double *w = (const double *) want->data;
  const double got[] = { s->count, s->sum, s->mean, s->std, s->min, s->max,
                         s->median, s->p95, s->p99, s->rank_count, s->imbalance, s->slowest_rank };

  g_assert_cmpuint (want->len, ==, G_N_ELEMENTS (got));
  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    {
      g_autofree char *label = g_strdup_printf ("%s field %u", what, i);

      app_test_assert_close (got[i], w[i], 1e-9, label);
    }
}

static void
test_index_summaries (void)
{
  for (guint o = 0; o < G_N_ELEMENTS (op_names); o++)
    for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
      {
        g_autofree guint8 *mask = app_test_mask_new (selections[s], APP_TEST_BASIC_WORLD, NULL);
        g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "summary", op_names[o],
                                                              selections[s], NULL, NULL);
        g_autofree char *what = g_strdup_printf ("%s on ranks %s", op_names[o], selections[s]);
        TprofSummary summary;

        _tprof_profile_index_summarize (fixture, app_test_op_index (fixture, op_names[o]), mask, &summary);
        assert_summary (&summary, reference, what);

        if (mask == NULL)
          assert_summary (_tprof_profile_index_get_summary (fixture, app_test_op_index (fixture, op_names[o])), reference, what);
      }
}

static void
assert_histogram (const TprofHistogram *hist,
                  GHashTable           *reference,
                  gboolean              exact_edges,
                  const char           *what)
{
  GArray *edges = app_test_reference_get (reference, "edges");
  GArray *counts = app_test_reference_get (reference, "counts");

  g_assert_cmpuint (hist->n_bins, ==, counts->len);
  for (gsize i = 0; i <= hist->n_bins; i++)
    app_test_assert_close (hist->edges[i], g_array_index (edges, double, i), exact_edges ? 0.0 : 1e-12, what);
  for (gsize i = 0; i < hist->n_bins; i++)
    if (hist->counts[i] != (guint64) g_array_index (counts, double, i))
      g_error ("%s: bin %zu holds %" G_GUINT64_FORMAT ", numpy says %g", what, i,
               (guint64) hist->counts[i], g_array_index (counts, double, i));

  for (gsize r = 0; r < hist->n_ranks; r++)
    {
      g_autofree char *key = g_strdup_printf ("rank_%d", hist->ranks[r]);
      GArray *row = app_test_reference_get (reference, key);

      for (gsize i = 0; i < hist->n_bins; i++)
        g_assert_cmpuint (hist->rank_counts[r * hist->n_bins + i], ==, (guint64) g_array_index (row, double, i));
    }
}

static void
test_index_histogram_auto (void)
{
  static const char * const ops[] = { "forward", "allreduce", "io/checkpoint", "constant", "big" };

  for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
    for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
      {
        g_autofree guint8 *mask = app_test_mask_new (selections[s], APP_TEST_BASIC_WORLD, NULL);
        g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "hist", ops[o], selections[s], "auto", NULL);
        g_autofree char *what = g_strdup_printf ("auto histogram of %s on ranks %s", ops[o], selections[s]);
        g_autoptr(TprofHistogram) hist = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, ops[o]), mask, 0,
                                                                         TPROF_HISTOGRAM_SEPARATE_RANKS);

        if (g_hash_table_lookup (reference, "counts") == NULL || hist->n_bins == 0)
          {
            /* a selection without samples (allreduce on rank 7) */
            g_assert_cmpuint (hist->n_bins, ==, 0);
            continue;
          }
        assert_histogram (hist, reference, FALSE, what);
      }
}

static void
test_index_histogram_bins (void)
{
  g_autofree guint8 *mask = app_test_mask_new ("1,2,5", APP_TEST_BASIC_WORLD, NULL);
  g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "hist", "forward", "1,2,5", "17", NULL);
  g_autoptr(TprofHistogram) hist = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, "forward"), mask, 17,
                                                                   TPROF_HISTOGRAM_DEFAULT);

  g_assert_cmpuint (hist->n_ranks, ==, 0);
  g_assert_null (hist->rank_counts);
  assert_histogram (hist, reference, FALSE, "17 bins of forward");
}

static void
test_index_histogram_log (void)
{
  static const char * const ops[] = { "forward", "zeros" };

  for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
    {
      g_autoptr(TprofHistogram) hist = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, ops[o]), NULL, 12,
                                                                       TPROF_HISTOGRAM_LOG | TPROF_HISTOGRAM_SEPARATE_RANKS);
      g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "hist", ops[o], "all", "12", "log");
      g_autofree char *what = g_strdup_printf ("log histogram of %s", ops[o]);

      assert_histogram (hist, reference, FALSE, what);
      /* 5 zeros on each of the 4 ranks of "zeros" stay off a log axis */
      g_assert_cmpuint (hist->n_nonpositive, ==, g_str_equal (ops[o], "zeros") ? 20 : 0);
    }

  /* the automatic count on a log axis still gives edges spanning the positive samples */
  {
    g_autoptr(TprofHistogram) hist = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, "zeros"), NULL, 0,
                                                                     TPROF_HISTOGRAM_LOG);
    g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "summary", "zeros", "all", NULL, NULL);
    guint64 total = 0;

    g_assert_cmpuint (hist->n_bins, >=, 1);
    for (gsize i = 0; i < hist->n_bins; i++)
      total += hist->counts[i];
    g_assert_cmpuint (total, ==, 60);
    app_test_assert_close (hist->edges[hist->n_bins], g_array_index (app_test_reference_get (reference, "summary"), double, 5),
                           0.0, "log edges end at the max");
  }
}

static void
test_index_rank_summaries (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
    {
      g_autofree guint8 *mask = app_test_mask_new (selections[s], APP_TEST_BASIC_WORLD, NULL);
      g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "ranks", "allreduce", selections[s], NULL, NULL);
      g_autofree TprofRankSummary *ranks = NULL;
      gsize n = _tprof_profile_index_rank_summaries (fixture, app_test_op_index (fixture, "allreduce"), mask, &ranks);

      g_assert_cmpuint (n, ==, g_hash_table_size (reference));
      for (gsize i = 0; i < n; i++)
        {
          g_autofree char *key = g_strdup_printf ("rank_%d", ranks[i].rank);
          GArray *want = app_test_reference_get (reference, key);

          g_assert_cmpuint (ranks[i].count, ==, (gsize) g_array_index (want, double, 0));
          app_test_assert_close (ranks[i].sum, g_array_index (want, double, 1), 1e-12, key);
          app_test_assert_close (ranks[i].mean, g_array_index (want, double, 2), 1e-12, key);
          app_test_assert_close (ranks[i].min, g_array_index (want, double, 3), 0.0, key);
          app_test_assert_close (ranks[i].max, g_array_index (want, double, 4), 0.0, key);
          if (i > 0)
            g_assert_cmpint (ranks[i - 1].rank, <, ranks[i].rank);
        }
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

/* 21 ranks of ragged sizes (some empty) and unlike distributions: more runs
 * than are counted side by side, and windows that must grow. */
static void
test_index_histogram_ragged (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autofree char *path = g_build_filename (fixture_dir, "ragged.h5", NULL);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  TprofProfiledTime *pt = tprof_profiled_time_new (21);
  TprofError error = { 0 };
  g_autoptr(TprofProfileIndex) index = NULL;
  static const char * const bins[] = { "auto", "7", "300" };
  const char *selection = "0,2,3,5,8,9,10,11,12,13,14,15,16,17,20";
  g_autofree guint8 *mask = app_test_mask_new (selection, 21, NULL);

  for (int32_t r = 0; r < 21; r++)
    for (int i = 0; i < (r * 37) % 50; i++)
      {
        double v = r % 3 == 0 ? g_rand_double (rand) * 1e-3
                 : r % 3 == 1 ? exp (g_rand_double_range (rand, -12, 0))
                 : 0.5 + 1e-6 * g_rand_int_range (rand, 0, 4);

        g_array_append_val (times, v);
        g_array_append_val (ranks, r);
      }
  g_assert_cmpint (tprof_profiled_time_add (pt, "ragged",
                                            tprof_gathered_time_new ((double *) times->data, (int32_t *) ranks->data, times->len),
                                            &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  index = _tprof_profile_index_new (pt, NULL, NULL, NULL);
  tprof_profiled_time_free (pt);

  for (guint b = 0; b < G_N_ELEMENTS (bins); b++)
    for (guint all = 0; all < 2; all++)
      {
        const char *ranks_arg = all ? "all" : selection;
        g_autoptr(GHashTable) reference = app_test_reference (path, "hist", "ragged", ranks_arg, bins[b], NULL);
        g_autoptr(TprofHistogram) hist = _tprof_profile_index_histogram (index, 0, all ? NULL : mask,
                                                                         g_str_equal (bins[b], "auto") ? 0 : atoi (bins[b]),
                                                                         TPROF_HISTOGRAM_SEPARATE_RANKS);
        g_autofree char *what = g_strdup_printf ("ragged, %s bins, ranks %s", bins[b], ranks_arg);

        assert_histogram (hist, reference, FALSE, what);
      }
}

static void
test_index_sort (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  static const gsize sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 100000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
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
        }
      memcpy (expected, values, n * sizeof *values);
      qsort (expected, n, sizeof *expected, compare_doubles);
      _tprof_sort_nonnegative (values, n, scratch);
      g_assert_cmpmem (values, n * sizeof *values, expected, n * sizeof *expected);
    }
}

static void
test_index_select_kth (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  enum { RUNS = 9, PER_RUN = 3000 };
  g_autofree double *all = g_new (double, RUNS * PER_RUN);
  g_autofree double *sorted_all = NULL;
  g_autofree double *scratch = g_new (double, PER_RUN);
  TprofRun runs[RUNS];

  for (int r = 0; r < RUNS; r++)
    {
      double *run = all + r * PER_RUN;

      for (int i = 0; i < PER_RUN; i++)
        run[i] = round (g_rand_double_range (rand, 0, r + 1.0) * 100) / 100;  /* ties */
      _tprof_sort_nonnegative (run, PER_RUN, scratch);
      runs[r] = (TprofRun) { .values = run, .len = PER_RUN };
    }
  sorted_all = g_memdup2 (all, sizeof (double) * RUNS * PER_RUN);
  qsort (sorted_all, RUNS * PER_RUN, sizeof (double), compare_doubles);

  for (gsize k = 0; k < RUNS * PER_RUN; k += 997)
    g_assert_cmpfloat (_tprof_runs_select_kth (runs, RUNS, RUNS * PER_RUN, k), ==, sorted_all[k]);
  g_assert_cmpfloat (_tprof_runs_select_kth (runs, RUNS, RUNS * PER_RUN, RUNS * PER_RUN - 1), ==,
                     sorted_all[RUNS * PER_RUN - 1]);
}

static void
test_index_metadata (void)
{
  g_assert_cmpint (_tprof_profile_index_get_world_size (fixture), ==, APP_TEST_BASIC_WORLD);
  g_assert_cmpuint (_tprof_profile_index_get_n_operations (fixture), ==, APP_TEST_BASIC_N_OPS);
  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    g_assert_cmpstr (_tprof_profile_index_get_name (fixture, i), ==, op_names[i]);
  g_assert_cmpstr (_tprof_profile_index_get_hostname (fixture, 0), ==, "node-a");
  g_assert_cmpstr (_tprof_profile_index_get_hostname (fixture, 7), ==, "node-b");
  g_assert_null (_tprof_profile_index_get_hostname (fixture, 8));
  g_assert_cmpuint (_tprof_profile_index_get_n_samples (fixture, app_test_op_index (fixture, "big")), ==, 16000);
  g_assert_cmpuint (_tprof_profile_index_get_n_samples (fixture, app_test_op_index (fixture, "empty")), ==, 0);
}

/* Asks numpy for everything the tests below compare with, in one Python run. */
static void
prefetch_references (void)
{
  static const char * const hist_ops[] = { "forward", "allreduce", "io/checkpoint", "constant", "big" };
  g_autoptr(GPtrArray) queries = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
    {
      for (guint o = 0; o < G_N_ELEMENTS (op_names); o++)
        g_ptr_array_add (queries, g_strdupv ((char *[]) { "summary", (char *) op_names[o], (char *) selections[s], NULL }));
      for (guint o = 0; o < G_N_ELEMENTS (hist_ops); o++)
        g_ptr_array_add (queries, g_strdupv ((char *[]) { "hist", (char *) hist_ops[o], (char *) selections[s], "auto", NULL }));
      g_ptr_array_add (queries, g_strdupv ((char *[]) { "ranks", "allreduce", (char *) selections[s], NULL }));
    }
  g_ptr_array_add (queries, g_strdupv ((char *[]) { "hist", "forward", "1,2,5", "17", NULL }));
  g_ptr_array_add (queries, g_strdupv ((char *[]) { "hist", "forward", "all", "12", "log", NULL }));
  g_ptr_array_add (queries, g_strdupv ((char *[]) { "hist", "zeros", "all", "12", "log", NULL }));

  app_test_reference_prefetch (fixture_path, (const char * const *const *) queries->pdata, queries->len);
}

static void
progress_cb (double   fraction,
             gpointer user_data)
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
  TprofError error = { 0 };
  TprofProfiledTime *pt;
  double last_progress = 0.0;
  int ret;

  g_test_init (&argc, &argv, NULL);

  fixture_dir = app_test_make_dir ();
  fixture_path = app_test_make_profile (fixture_dir, "basic.h5", APP_TEST_PROFILE_BASIC);
  pt = tprof_profiled_time_load (fixture_path, &error);
  if (pt == NULL)
    g_error ("could not load the fixture: %s", error.message);
  fixture = _tprof_profile_index_new (pt, progress_cb, &last_progress, NULL);
  tprof_profiled_time_free (pt);
  g_assert_cmpfloat (last_progress, ==, 1.0);
  prefetch_references ();

  g_test_add_func ("/app/index/metadata", test_index_metadata);
  g_test_add_func ("/app/index/summaries", test_index_summaries);
  g_test_add_func ("/app/index/rank-summaries", test_index_rank_summaries);
  g_test_add_func ("/app/index/histogram-auto", test_index_histogram_auto);
  g_test_add_func ("/app/index/histogram-bins", test_index_histogram_bins);
  g_test_add_func ("/app/index/histogram-log", test_index_histogram_log);
  g_test_add_func ("/app/index/histogram-ragged", test_index_histogram_ragged);
  g_test_add_func ("/app/index/sort", test_index_sort);
  g_test_add_func ("/app/index/select-kth", test_index_select_kth);

  ret = g_test_run ();

  _tprof_profile_index_free (fixture);
  app_test_remove_dir (fixture_dir);
  g_free (fixture_path);
  g_free (fixture_dir);
  return ret;
}
