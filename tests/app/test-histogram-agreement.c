/* test-histogram-agreement.c — the viewer's histograms are libcapture's (tprof hist), bin for bin, and 'auto' is capped. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <string.h>
#include <tprof/capture.h>

#include "app-test-util.h"
#include "tprof-plot.h"
#include "tprof-profile-index-private.h"

#define WORLD 6

static char *fixture_dir;
static char *fixture_path;
static TprofProfiledTime *fixture_pt;
static TprofProfileIndex *fixture;

/* Rank selections; NULL for all ranks. "3" holds only zeros in "mixed". */
static const char * const selections[] = { NULL, "0", "1,3", "2", "0,2,4,5", "3", "1,2,3,4,5" };

static void
add_operation (TprofProfiledTime *pt,
               const char        *name,
               GArray            *times,
               GArray            *ranks)
{
  TprofError error = { 0 };
  TprofGatheredTime *gt = tprof_gathered_time_new ((const double *) times->data,
                                                   (const int32_t *) ranks->data, times->len);

  if (tprof_profiled_time_add (pt, name, gt, &error) != 0)
    g_error ("could not add %s: %s", name, error.message);
  g_array_set_size (times, 0);
  g_array_set_size (ranks, 0);
}

static void
add_sample (GArray  *times,
            GArray  *ranks,
            int32_t  rank,
            double   value)
{
  g_array_append_val (times, value);
  g_array_append_val (ranks, rank);
}

/* Ranks unlike each other: lognormal, uniform with zeros, ties, only zeros,
 * a rank with outliers and a rank with one sample; plus a constant
 * operation, zeros and one value, and the outlier case of the bin cap. */
static TprofProfiledTime *
make_profile (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);

  for (int i = 0; i < 3000; i++)
    {
      add_sample (times, ranks, 0, 1e-3 * exp (g_rand_double_range (rand, -3, 3)));
      add_sample (times, ranks, 1, i % 10 == 0 ? 0.0 : g_rand_double_range (rand, 0, 2e-2));
      add_sample (times, ranks, 2, 5e-3 + 1e-4 * g_rand_int_range (rand, 0, 3));
      if (i < 40)
        add_sample (times, ranks, 3, 0.0);
      add_sample (times, ranks, 4, i % 500 == 0 ? 0.05 : 2e-3 * g_rand_double_range (rand, 0.9, 1.1));
    }
  add_sample (times, ranks, 5, 7e-3);
  add_operation (pt, "mixed", times, ranks);

  for (int32_t r = 0; r < WORLD; r++)
    for (int i = 0; i < 10; i++)
      add_sample (times, ranks, r, 2.5e-3);
  add_operation (pt, "constant", times, ranks);

  for (int32_t r = 0; r < WORLD; r++)
    add_sample (times, ranks, r, r == 4 ? 0.125 : 0.0);
  add_operation (pt, "zeros-and-one", times, ranks);

  /* few samples over decades: numpy's log quartiles (interpolated in
   * log10) give 6 bins, log10 of the linear quartiles would give 5 */
  {
    static const double decades[] = { 0.169908218, 6.733e-06, 0.000351059, 0.001619841,
                                      0.000414321, 0.0038741, 0.000984144 };

    for (guint i = 0; i < G_N_ELEMENTS (decades); i++)
      add_sample (times, ranks, (int32_t) (i % WORLD), decades[i]);
    add_operation (pt, "few-decades", times, ranks);
  }

  /* 1 ms +- 10 us and one outlier: numpy's 'auto' wants ~10^5 bins */
  for (int i = 0; i < 20000; i++)
    {
      double u = g_rand_double_range (rand, 1e-12, 1.0);
      double v = g_rand_double (rand);

      add_sample (times, ranks, i % WORLD, 1e-3 + 1e-5 * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v));
    }
  add_sample (times, ranks, 0, 0.1);
  add_operation (pt, "outlier", times, ranks);

  return pt;
}

/* What `tprof hist` computes: libcapture on the selected samples. */
static TprofHistogram *
libcapture_histogram (const char          *op,
                      GArray              *list,
                      gsize                n_bins,
                      TprofHistogramFlags  flags)
{
  const TprofGatheredTime *gt = tprof_profiled_time_get (fixture_pt, op);
  TprofGatheredTime *selected = NULL;
  TprofHistogram *hist;

  if (list != NULL)
    gt = selected = tprof_gathered_time_get_rank (gt, (const int32_t *) list->data, list->len);
  hist = tprof_histogram_compute (gt, n_bins, flags);
  tprof_gathered_time_free (selected);
  g_assert_nonnull (hist);
  return hist;
}

static void
assert_same_histogram (const TprofHistogram *got,
                       const TprofHistogram *want,
                       const char           *what)
{
  if (got->n_bins != want->n_bins)
    g_error ("%s: the viewer has %zu bins, libcapture %zu", what, got->n_bins, want->n_bins);
  g_assert_cmpuint (got->n_nonpositive, ==, want->n_nonpositive);
  for (gsize i = 0; i <= got->n_bins && got->n_bins > 0; i++)
    if (memcmp (&got->edges[i], &want->edges[i], sizeof (double)) != 0)
      g_error ("%s: edge %zu is %a in the viewer, %a in libcapture", what, i, got->edges[i], want->edges[i]);
  for (gsize i = 0; i < got->n_bins; i++)
    if (got->counts[i] != want->counts[i])
      g_error ("%s: bin %zu holds %" G_GUINT64_FORMAT " in the viewer, %" G_GUINT64_FORMAT " in libcapture",
               what, i, (guint64) got->counts[i], (guint64) want->counts[i]);

  g_assert_cmpuint (got->n_ranks, ==, want->n_ranks);
  g_assert_true ((got->rank_counts == NULL) == (want->rank_counts == NULL));
  if (got->n_ranks > 0)
    g_assert_cmpmem (got->ranks, got->n_ranks * sizeof (gint32), want->ranks, want->n_ranks * sizeof (int32_t));
  if (got->rank_counts != NULL && got->n_bins > 0)
    g_assert_cmpmem (got->rank_counts, got->n_ranks * got->n_bins * sizeof (guint64),
                     want->rank_counts, want->n_ranks * want->n_bins * sizeof (uint64_t));
}

static void
test_agreement (void)
{
  static const char * const ops[] = { "mixed", "constant", "zeros-and-one", "few-decades" };
  static const gsize bins[] = { TPROF_HISTOGRAM_AUTO_BINS, 1, 7, 64 };
  static const TprofHistogramFlags flags[] = {
    TPROF_HISTOGRAM_DEFAULT, TPROF_HISTOGRAM_LOG, TPROF_HISTOGRAM_SEPARATE_RANKS,
    TPROF_HISTOGRAM_LOG | TPROF_HISTOGRAM_SEPARATE_RANKS,
  };
  guint compared_bins = 0;

  for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
    for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
      for (guint b = 0; b < G_N_ELEMENTS (bins); b++)
        for (guint f = 0; f < G_N_ELEMENTS (flags); f++)
          {
            g_autoptr(GArray) list = NULL;
            g_autofree guint8 *mask = app_test_mask_new (selections[s], WORLD, &list);
            g_autofree char *what = g_strdup_printf ("%s on ranks %s, %zu bins, flags %d", ops[o],
                                                     selections[s] != NULL ? selections[s] : "all",
                                                     bins[b], flags[f]);
            g_autoptr(TprofHistogram) got = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, ops[o]), mask,
                                                                            bins[b], flags[f]);
            TprofHistogram *want = libcapture_histogram (ops[o], list, bins[b], flags[f]);

            assert_same_histogram (got, want, what);
            compared_bins += got->n_bins;
            tprof_histogram_free (want);
          }
  /* the loops above must have compared real histograms, not empty ones */
  g_assert_cmpuint (compared_bins, >, 1000);
}

/* numpy's 'auto' gives ~10^5 bins for "outlier"; the viewer stops at the cap
 * and then draws what libcapture draws with that many bins. */
static void
test_auto_bins_capped (void)
{
  static const char * const modes[] = { "lin", "log" };

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      gboolean log_scale = m == 1;
      TprofHistogramFlags flags = log_scale ? TPROF_HISTOGRAM_LOG : TPROF_HISTOGRAM_DEFAULT;
      g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "auto-bins", "outlier", "all",
                                                            modes[m], NULL);
      double numpy_bins = g_array_index (app_test_reference_get (reference, "auto_bins"), double, 0);
      g_autoptr(TprofHistogram) got = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, "outlier"), NULL,
                                                                      TPROF_HISTOGRAM_AUTO_BINS, flags);
      TprofHistogram *want = libcapture_histogram ("outlier", NULL, TPROF_PLOT_MAX_AUTO_BINS, flags);

      g_assert_cmpfloat (numpy_bins, >, 2 * TPROF_PLOT_MAX_AUTO_BINS);
      g_assert_cmpuint (got->n_bins, ==, TPROF_PLOT_MAX_AUTO_BINS);
      assert_same_histogram (got, want, log_scale ? "capped log histogram" : "capped histogram");
      tprof_histogram_free (want);
    }

  /* below the cap the count is numpy's own */
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "auto-bins", "mixed", "0",
                                                            modes[m], NULL);
      double numpy_bins = g_array_index (app_test_reference_get (reference, "auto_bins"), double, 0);
      guint8 mask[WORLD] = { 1, 0, 0, 0, 0, 0 };
      g_autoptr(TprofHistogram) got = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, "mixed"), mask,
                                                                      TPROF_HISTOGRAM_AUTO_BINS,
                                                                      m == 1 ? TPROF_HISTOGRAM_LOG : 0);

      g_assert_cmpfloat (numpy_bins, <, TPROF_PLOT_MAX_AUTO_BINS);
      g_assert_cmpfloat ((double) got->n_bins, ==, numpy_bins);
    }
}

/* The log axis's automatic count is numpy's on log10 of the samples, which
 * differs from one computed on log10 of the linear quartiles. */
static void
test_auto_bins_log (void)
{
  static const char * const ops[] = { "few-decades", "mixed", "mixed", "mixed", "mixed" };
  static const char * const ranks[] = { "all", "all", "0", "1,3", "0,2,4,5" };

  for (guint s = 0; s < G_N_ELEMENTS (ranks); s++)
    {
      g_autoptr(GArray) list = NULL;
      g_autofree guint8 *mask = app_test_mask_new (ranks[s], WORLD, &list);
      g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "hist", ops[s], ranks[s], "auto", "log");
      GArray *edges = app_test_reference_get (reference, "edges");
      GArray *counts = app_test_reference_get (reference, "counts");
      g_autoptr(TprofHistogram) got = _tprof_profile_index_histogram (fixture, app_test_op_index (fixture, ops[s]), mask,
                                                                      TPROF_HISTOGRAM_AUTO_BINS, TPROF_HISTOGRAM_LOG);

      g_assert_cmpuint (got->n_bins, ==, counts->len);
      for (gsize i = 0; i <= got->n_bins; i++)
        app_test_assert_close (got->edges[i], g_array_index (edges, double, i), 1e-12, ranks[s]);
      for (gsize i = 0; i < got->n_bins; i++)
        g_assert_cmpuint (got->counts[i], ==, (guint64) g_array_index (counts, double, i));
    }
}

int
main (int   argc,
      char *argv[])
{
  TprofError error = { 0 };
  int ret;

  g_test_init (&argc, &argv, NULL);

  fixture_dir = app_test_make_dir ();
  fixture_path = g_build_filename (fixture_dir, "agreement.h5", NULL);
  fixture_pt = make_profile ();
  if (tprof_profiled_time_save (fixture_pt, fixture_path, &error) != 0)
    g_error ("could not save the fixture: %s", error.message);
  fixture = _tprof_profile_index_new (fixture_pt, NULL, NULL, NULL);

  g_test_add_func ("/app/histogram/agrees-with-libcapture", test_agreement);
  g_test_add_func ("/app/histogram/auto-bins-capped", test_auto_bins_capped);
  g_test_add_func ("/app/histogram/auto-bins-log", test_auto_bins_log);

  ret = g_test_run ();

  _tprof_profile_index_free (fixture);
  tprof_profiled_time_free (fixture_pt);
  app_test_remove_dir (fixture_dir);
  g_free (fixture_path);
  g_free (fixture_dir);
  return ret;
}
