/* test-plot-trend.c — the trend chart: its time axis follows the data, whatever room its legend needs; the timeline charts' names. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "plot-test-util.h"

#define N_COLS 50

typedef struct
{
  TprofPlotTrend plot;
  TprofPlotArea  area;
} Drawing;

static void
draw_trend (cairo_t *cr, double width, double height, gpointer data)
{
  Drawing *drawing = data;

  tprof_plot_trend_draw (cr, width, height, &drawing->plot, NULL, &drawing->area);
}

/* The band of 8 ranks around 6 ms, up to 10 ms at most, and 3 ranks as
 * lines: a legend of five entries, as the viewer draws it. At every size,
 * from a card of a 1000 px window to an export, the axis ends at most a
 * third past the largest value (it once ran to twice it, to make room
 * for the legend above the data). */
static void
test_trend_axis_follows_data (void)
{
  static const int sizes[][2] = { { 330, 220 }, { 360, 300 }, { 640, 400 }, { 1600, 1000 } };
  TprofHeatmapBand band[N_COLS];
  double series[3 * N_COLS];
  const gint32 ranks[] = { 1, 5, 7 };
  Drawing d = { 0 };

  for (guint j = 0; j < N_COLS; j++)
    {
      band[j] = (TprofHeatmapBand) { 8, 4e-3, 5e-3, 6e-3, 8e-3, j == 20 ? 10e-3 : 9e-3 };
      for (guint s = 0; s < 3; s++)
        series[s * N_COLS + j] = 6e-3 + 1e-3 * s;
    }
  d.plot = (TprofPlotTrend) { .band = band, .n_cols = N_COLS, .n_occurrences = N_COLS,
                              .series = series, .series_ranks = ranks, .n_series = 3 };
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      cairo_surface_t *surface = plot_test_render (sizes[k][0], sizes[k][1], draw_trend, &d);

      g_test_message ("%d x %d: axis to %g s", sizes[k][0], sizes[k][1], d.area.y_max);
      g_assert_cmpfloat (d.area.y_max, >=, 10e-3);
      g_assert_cmpfloat (d.area.y_max, <=, 10e-3 * 4 / 3);
      cairo_surface_destroy (surface);
    }
}

/* tprof plot --kind's names, each its kind's, and nothing else. */
static void
test_plot_kind_names (void)
{
  static const char *const names[] = { "heatmap", "trend", "breakdown" };
  TprofPlotKind kind = TPROF_PLOT_N_KINDS;

  g_assert_cmpint (G_N_ELEMENTS (names), ==, TPROF_PLOT_N_KINDS);
  for (guint k = 0; k < TPROF_PLOT_N_KINDS; k++)
    {
      g_assert_cmpstr (tprof_plot_kind_name ((TprofPlotKind) k), ==, names[k]);
      g_assert_true (tprof_plot_kind_from_name (names[k], &kind));
      g_assert_cmpint (kind, ==, k);
    }
  g_assert_false (tprof_plot_kind_from_name ("ranks", &kind));
  g_assert_false (tprof_plot_kind_from_name (NULL, &kind));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/trend/axis-follows-data", test_trend_axis_follows_data);
  g_test_add_func ("/plot/kind/names", test_plot_kind_names);
  return g_test_run ();
}
