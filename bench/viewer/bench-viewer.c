/* bench-viewer.c — tprof-viewer's redraw paths on 10^7 samples from 1024 ranks, against the 16 ms frame budget. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <tprof/capture.h>

#include "tprof-plot.h"

#define WORLD 1024
#define FRAME_MS 16.0
#define CHART_WIDTH 560
#define CHART_HEIGHT 420
#define REPEATS 15

static gsize n_samples = 10000000;

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median_ms (double *ms,
           guint   n)
{
  qsort (ms, n, sizeof *ms, compare_doubles);
  return n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static TprofProfiledTime *
make_profile (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  double *times = g_new (double, n_samples);
  int32_t *ranks = g_new (int32_t, n_samples);
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  TprofError error = { 0 };

  for (gsize i = 0; i < n_samples; i++)
    {
      int32_t r = (int32_t) (i * WORLD / n_samples);
      double u = g_rand_double_range (rand, 1e-12, 1.0);
      double v = g_rand_double (rand);
      double z = sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);

      ranks[i] = r;
      times[i] = 0.01 * (r == 777 ? 1.5 : 1.0) * exp (0.25 * z);
    }
  if (tprof_profiled_time_add (pt, "forward", tprof_gathered_time_new (times, ranks, n_samples), &error) != 0)
    g_error ("%s", error.message);
  g_free (times);
  g_free (ranks);
  return pt;
}

/* The histogram chart alone, as the window's snapshot draws it. */
static void
draw_histogram (cairo_t              *cr,
                const TprofHistogram *hist,
                const TprofSummary   *summary,
                const TprofRankSummary *ranks,
                gsize                 n_ranks,
                gboolean              separate)
{
  TprofPlotHistogram hplot;
  TprofPlotTheme theme;

  tprof_plot_theme_init_default (&theme);
  tprof_plot_histogram_init (&hplot);
  hplot.hist = hist;
  hplot.summary = summary;
  hplot.separate_ranks = separate;
  hplot.rank_summaries = ranks;
  hplot.n_rank_summaries = n_ranks;
  tprof_plot_histogram_draw (cr, CHART_WIDTH, CHART_HEIGHT, &hplot, &theme, NULL);
}

/* Everything the window does when the rank filter or bin count changes:
 * recompute the histogram, the caption and the per-rank chart, and draw both. */
static void
redraw (const TprofOperationIndex *index,
        const guint8              *mask,
        gsize                      bins,
        gboolean                   separate,
        cairo_t                   *cr)
{
  TprofHistogram *hist = tprof_operation_index_histogram (index, mask, bins,
                                                          separate ? TPROF_HISTOGRAM_SEPARATE_RANKS : 0);
  gsize n_ranks;
  g_autofree TprofRankSummary *ranks = tprof_operation_index_rank_summaries (index, mask, &n_ranks);
  TprofSummary summary;
  TprofPlotRanks rplot;
  TprofPlotTheme theme;

  tprof_operation_index_summarize_moments (index, mask, &summary);
  draw_histogram (cr, hist, &summary, ranks, n_ranks, separate);

  tprof_plot_theme_init_default (&theme);
  tprof_plot_ranks_init (&rplot);
  rplot.ranks = ranks;
  rplot.n_ranks = n_ranks;
  tprof_plot_ranks_draw (cr, CHART_WIDTH, CHART_HEIGHT, &rplot, &theme, NULL);

  tprof_histogram_free (hist);
}

/* The alternative the index avoids: select the ranks' samples and bin them again. */
static void
rescan (const TprofGatheredTime *gt,
        const guint8            *mask,
        gsize                    bins)
{
  g_autoptr(GArray) chosen = g_array_new (FALSE, FALSE, sizeof (int32_t));
  TprofGatheredTime *selection;
  TprofHistogram *hist;

  for (int32_t r = 0; r < WORLD; r++)
    if (mask == NULL || mask[r])
      g_array_append_val (chosen, r);
  selection = tprof_gathered_time_get_rank (gt, (const int32_t *) chosen->data, chosen->len);
  hist = tprof_histogram_compute (selection, bins, TPROF_HISTOGRAM_DEFAULT);
  tprof_histogram_free (hist);
  tprof_gathered_time_free (selection);
}

static void
random_mask (GRand  *rand,
             guint8 *mask)
{
  for (int r = 0; r < WORLD; r++)
    mask[r] = g_rand_boolean (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (2);
  TprofProfiledTime *pt;
  TprofOperationIndex *index;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, CHART_WIDTH, CHART_HEIGHT);
  cairo_t *cr = cairo_create (surface);
  guint8 mask[WORLD];
  double filter_ms[REPEATS];
  double bins_ms[REPEATS];
  double separate_ms[REPEATS];
  double rescan_ms[REPEATS];
  double compute_ms[REPEATS];
  double compute_separate_ms[REPEATS];
  double table_ms[REPEATS];
  double overlay_draw_ms[REPEATS];
  TprofHistogram *all_ranks;
  g_autofree TprofRankSummary *all_rank_summaries = NULL;
  gsize n_all_ranks;
  TprofSummary all_summary;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  double t0;
  double build_ms;
  double raw_load_ms;
  double viewer_load_ms;
  TprofError error = { 0 };

  if (g_getenv ("TPROF_BENCH_SAMPLES") != NULL)
    n_samples = g_ascii_strtoull (g_getenv ("TPROF_BENCH_SAMPLES"), NULL, 10);

  printf ("tprof-viewer redraw paths: one operation, %zu samples over %d ranks, charts %dx%d\n",
          n_samples, WORLD, CHART_WIDTH, CHART_HEIGHT);

  pt = make_profile ();
  t0 = now_ms ();
  index = tprof_operation_index_new (tprof_profiled_time_nth (pt, 0), NULL, NULL, NULL, NULL);
  build_ms = now_ms () - t0;
  printf ("  index build (sort per rank, per-rank summaries):       %8.1f ms, once per file in the loader thread\n",
          build_ms);

  all_ranks = tprof_operation_index_histogram (index, NULL, 0, TPROF_HISTOGRAM_SEPARATE_RANKS);
  all_rank_summaries = tprof_operation_index_rank_summaries (index, NULL, &n_all_ranks);
  tprof_operation_index_summarize_moments (index, NULL, &all_summary);

  for (guint i = 0; i < REPEATS; i++)
    {
      random_mask (rand, mask);
      t0 = now_ms ();
      redraw (index, mask, 0, FALSE, cr);
      filter_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      redraw (index, mask, 10 + 13 * i, FALSE, cr);
      bins_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      redraw (index, mask, 0, TRUE, cr);
      separate_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      tprof_histogram_free (tprof_operation_index_histogram (index, mask, 0, TPROF_HISTOGRAM_DEFAULT));
      compute_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      tprof_histogram_free (tprof_operation_index_histogram (index, mask, 0, TPROF_HISTOGRAM_SEPARATE_RANKS));
      compute_separate_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      draw_histogram (cr, all_ranks, &all_summary, all_rank_summaries, n_all_ranks, TRUE);
      overlay_draw_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      {
        TprofSummary summary;

        tprof_operation_index_summarize (index, mask, &summary);
      }
      table_ms[i] = now_ms () - t0;

      t0 = now_ms ();
      rescan (tprof_profiled_time_nth (pt, 0), mask, 0);
      rescan_ms[i] = now_ms () - t0;
    }

  {
    double f = median_ms (filter_ms, REPEATS);
    double b = median_ms (bins_ms, REPEATS);
    double s = median_ms (separate_ms, REPEATS);
    double t = median_ms (table_ms, REPEATS);
    double r = median_ms (rescan_ms, REPEATS);
    double c = median_ms (compute_ms, REPEATS);
    double cs = median_ms (compute_separate_ms, REPEATS);

    printf ("  rank filter change (auto bins) + draw both charts:     %8.2f ms median = %.2fx the %.0f ms frame budget\n",
            f, f / FRAME_MS, FRAME_MS);
    printf ("  bin count change + draw both charts:                   %8.2f ms median = %.2fx the frame budget\n",
            b, b / FRAME_MS);
    printf ("  rank filter change, ranks overlaid (~%d of them):     %8.2f ms median = %.2fx the frame budget\n",
            WORLD / 2, s, s / FRAME_MS);
    printf ("    of which the histogram computation (auto bins):       %8.2f ms; overlaid, per-rank counts: %.2f ms\n",
            c, cs);
    printf ("  drawing the histogram of all %d ranks overlaid:       %8.2f ms median = %.2fx the frame budget\n",
            WORLD, median_ms (overlay_draw_ms, REPEATS), median_ms (overlay_draw_ms, REPEATS) / FRAME_MS);
    printf ("  table row under the filter (quantiles, worker thread): %8.2f ms median\n", t);
    printf ("  baseline: re-select + re-bin the samples (libcapture): %8.2f ms median; index is %.1fx faster\n",
            r, r / f);
  }

  /* loading: what the viewer's worker does against the bare libcapture read */
  dir = g_dir_make_tmp ("tprof-bench-viewer-XXXXXX", NULL);
  path = g_build_filename (dir, "large.h5", NULL);
  if (tprof_profiled_time_save (pt, path, &error) != 0)
    g_error ("could not save %s: %s", path, error.message);
  tprof_profiled_time_free (pt);
  tprof_histogram_free (all_ranks);
  tprof_operation_index_free (index);

  t0 = now_ms ();
  pt = tprof_profiled_time_load (path, &error);
  raw_load_ms = now_ms () - t0;
  if (pt == NULL)
    g_error ("could not load %s: %s", path, error.message);
  tprof_profiled_time_free (pt);

  t0 = now_ms ();
  pt = tprof_profiled_time_load (path, &error);
  index = tprof_operation_index_new (tprof_profiled_time_nth (pt, 0), NULL, NULL, NULL, NULL);
  tprof_profiled_time_free (pt);
  viewer_load_ms = now_ms () - t0;
  tprof_operation_index_free (index);

  printf ("  load %zu samples: tprof_profiled_time_load %8.1f ms; viewer load + index %8.1f ms = %.2fx the raw load\n",
          n_samples, raw_load_ms, viewer_load_ms, viewer_load_ms / raw_load_ms);
  printf ("  (loading runs in a GTask worker: the window keeps drawing and shows progress)\n");

  g_unlink (path);
  g_rmdir (dir);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
