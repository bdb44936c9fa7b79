/* bench-heatmap.c — the viewer's Over Time and Trend charts on 1024 ranks x 10^4 occurrences: the heat map's first computation, and a rank-filter change redrawn, against the 16 ms frame budget. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tprof/capture.h>

#include "tprof-plot.h"

#define WORLD 1024
#define OCCURRENCES 10000
#define COLUMNS 600        /* TPROF_PROFILE_HEAT_COLUMNS */
#define FRAME_MS 16.0
#define WIDTH 560
#define HEIGHT 420
#define REPEATS 15

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (void)
{
  gsize n = (gsize) WORLD * OCCURRENCES;
  g_autoptr(GRand) rand = g_rand_new_with_seed (2);
  double *times = g_new (double, n), *starts = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n);
  g_autofree gint32 *rows = g_new (gint32, WORLD);
  g_autofree double *cells = g_new (double, (gsize) WORLD * COLUMNS);
  g_autofree double *shown = g_new (double, (gsize) WORLD * COLUMNS);
  g_autofree double *deviation = g_new (double, (gsize) WORLD * COLUMNS);
  g_autofree guint8 *mask = g_new (guint8, WORLD);
  TprofGatheredTime *gt;
  TprofOccurrences *occ;
  TprofError error = { 0 };
  TprofPlotHeatmap plot = { 0 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  double t0, first, redraw[REPEATS], trend[REPEATS];

  for (gsize i = 0; i < n; i++)
    {
      ranks[i] = (int32_t) (i / OCCURRENCES);
      starts[i] = (i % OCCURRENCES) * 0.01 + g_rand_double (rand) * 1e-3;
      times[i] = 1e-3 * (1 + g_rand_double (rand)) * (ranks[i] / 8 == 12 ? 1.6 : 1.0);
    }
  gt = tprof_gathered_time_new_take (times, ranks, n);
  tprof_gathered_time_set_timeline_take (gt, starts, g_new0 (int32_t, n));
  for (int r = 0; r < WORLD; r++)
    rows[r] = r;

  /* what the viewer's loader does once per operation */
  t0 = now_ms ();
  occ = tprof_occurrences_new (gt, WORLD, &error);
  tprof_heatmap_fill (occ, rows, WORLD, COLUMNS, TPROF_HEATMAP_DURATION, cells);
  /* and the deviations the Deviation toggle shows */
  tprof_heatmap_fill (occ, rows, WORLD, COLUMNS, TPROF_HEATMAP_DEVIATION, deviation);
  first = now_ms () - t0;

  /* what a rank-filter change does: blank the hidden rows, draw */
  plot.n_rows = WORLD;
  plot.n_cols = COLUMNS;
  plot.n_occurrences = OCCURRENCES;
  plot.cells = shown;
  plot.value = TPROF_HEATMAP_DURATION;
  for (int k = 0; k < REPEATS; k++)
    {
      for (int r = 0; r < WORLD; r++)
        mask[r] = g_rand_boolean (rand);
      t0 = now_ms ();
      memcpy (shown, cells, sizeof (double) * WORLD * COLUMNS);
      for (int r = 0; r < WORLD; r++)
        if (!mask[r])
          for (int j = 0; j < COLUMNS; j++)
            shown[(gsize) r * COLUMNS + j] = NAN;
      tprof_plot_heatmap_draw (cr, WIDTH, HEIGHT, &plot, NULL, NULL);
      cairo_surface_flush (surface);
      redraw[k] = now_ms () - t0;

      /* the Trend mode on the same filter: the band across the ranks
       * shown and the slowest few as lines, from the blanked cells, drawn */
      {
        static const gint32 series[] = { 96, 97, 98 };
        TprofPlotTrendModel *model;

        t0 = now_ms ();
        model = tprof_plot_trend_model_new (shown, WORLD, COLUMNS, 0, OCCURRENCES, NULL, series,
                                            G_N_ELEMENTS (series));
        tprof_plot_trend_draw (cr, WIDTH, HEIGHT, &model->plot, NULL, NULL);
        cairo_surface_flush (surface);
        trend[k] = now_ms () - t0;
        tprof_plot_trend_model_free (model);
      }
    }
  qsort (redraw, REPEATS, sizeof redraw[0], compare_doubles);
  qsort (trend, REPEATS, sizeof trend[0], compare_doubles);
  printf ("bench-heatmap: %d ranks x %d occurrences (%zu samples), %dx%d chart, %d columns\n",
          WORLD, OCCURRENCES, n, WIDTH, HEIGHT, COLUMNS);
  printf ("  first computation (occurrences, durations and deviations), once per operation at load: %8.1f ms\n", first);
  printf ("  rank filter change + draw: %6.2f ms median (min %.2f, max %.2f) = %.2fx the %.0f ms frame budget: %s\n",
          redraw[REPEATS / 2], redraw[0], redraw[REPEATS - 1], redraw[REPEATS / 2] / FRAME_MS, FRAME_MS,
          redraw[REPEATS / 2] <= FRAME_MS ? "met" : "NOT met");
  printf ("  trend: rank filter change + draw: %6.2f ms median (min %.2f, max %.2f) = %.2fx the %.0f ms frame budget: %s\n",
          trend[REPEATS / 2], trend[0], trend[REPEATS - 1], trend[REPEATS / 2] / FRAME_MS, FRAME_MS,
          trend[REPEATS / 2] <= FRAME_MS ? "met" : "NOT met");
  tprof_occurrences_free (occ);
  tprof_gathered_time_free (gt);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
