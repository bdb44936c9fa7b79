/* test-plot-ranks.c — the per-rank chart: bars, highlighted stragglers, the band of thousands of ranks, hit-testing. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "plot-test-util.h"

static const double white[3] = { 1, 1, 1 };

typedef struct
{
  TprofPlotRanks plot;
  TprofPlotArea  area;
} Drawing;

static void
draw_ranks (cairo_t *cr, double width, double height, gpointer data)
{
  Drawing *drawing = data;

  tprof_plot_ranks_draw (cr, width, height, &drawing->plot, NULL, &drawing->area);
}

static TprofRankSummary *
make_ranks (gsize n, gsize slow, double factor)
{
  TprofRankSummary *ranks = g_new0 (TprofRankSummary, n);

  for (gsize i = 0; i < n; i++)
    {
      double mean = (1 + 0.1 * sin (i)) * 1e-3 * (i == slow ? factor : 1);

      ranks[i] = (TprofRankSummary) { .rank = (int32_t) i, .count = 100, .sum = mean * 100,
                                      .mean = mean, .std = mean / 10, .min = mean / 2,
                                      .max = mean * 1.5 };
    }
  return ranks;
}

static double
slot_centre (const Drawing *d, gsize i)
{
  return d->area.x + (i + 0.5) * d->area.width / d->plot.n_ranks;
}

static double
value_y (const Drawing *d, double v)
{
  return d->area.y + d->area.height * (1 - (v - d->area.y_min) / (d->area.y_max - d->area.y_min));
}

static void
test_bars_and_highlight (void)
{
  TprofRankSummary *ranks = make_ranks (8, 5, 3);
  TprofPlotTheme theme;
  Drawing d;
  cairo_surface_t *surface;
  double blue[3];

  tprof_plot_theme_init_default (&theme);
  tprof_plot_palette_color (0, blue);
  tprof_plot_ranks_init (&d.plot);
  d.plot.ranks = ranks;
  d.plot.n_ranks = 8;
  surface = plot_test_render (800, 500, draw_ranks, &d);

  g_assert_cmpfloat (d.area.y_max, >=, ranks[5].sum);
  for (gsize i = 0; i < 8; i++)
    {
      /* a quarter of the slot off centre: beside any whisker */
      double x = slot_centre (&d, i) + d.area.width / 8 * 0.25;

      plot_test_assert_pixel (surface, x, value_y (&d, ranks[i].sum * 0.5), i == 5 ? theme.highlight : blue, 2);
      plot_test_assert_pixel (surface, x, value_y (&d, ranks[i].sum) - 3, white, 2);
    }
  /* gaps between bars */
  plot_test_assert_pixel (surface, d.area.x + d.area.width / 8, value_y (&d, ranks[0].sum * 0.2), white, 2);
  cairo_surface_destroy (surface);
  g_free (ranks);
}

static void
test_mean_whiskers (void)
{
  TprofRankSummary *ranks = make_ranks (4, 0, 1);
  Drawing d;
  cairo_surface_t *surface;
  int rgb[3];

  tprof_plot_ranks_init (&d.plot);
  d.plot.ranks = ranks;
  d.plot.n_ranks = 4;
  d.plot.metric = TPROF_PLOT_RANK_MEAN;
  surface = plot_test_render (800, 500, draw_ranks, &d);
  /* the axis reaches the largest max, and the whisker is drawn above the bar */
  g_assert_cmpfloat (d.area.y_max, >=, ranks[1].max);
  plot_test_pixel (surface, slot_centre (&d, 1), value_y (&d, (ranks[1].mean + ranks[1].max) / 2), rgb);
  g_assert_cmpint (rgb[0] + rgb[1] + rgb[2], <, 3 * 200);
  plot_test_assert_pixel (surface, slot_centre (&d, 1) + d.area.width / 4 * 0.3,
                          value_y (&d, (ranks[1].mean + ranks[1].max) / 2), white, 2);
  cairo_surface_destroy (surface);
  g_free (ranks);
}

/* 1024 ranks in 800 pixels: bars become a band, the straggler stays visible. */
static void
test_thousands_of_ranks (void)
{
  enum { N = 1024, SLOW = 700 };
  TprofRankSummary *ranks = make_ranks (N, SLOW, 2.5);
  TprofPlotTheme theme;
  Drawing d;
  cairo_surface_t *surface;
  const char *shots = g_getenv ("TPROF_PLOT_SHOTS");
  double blue[3];
  gboolean found = FALSE;

  tprof_plot_theme_init_default (&theme);
  tprof_plot_palette_color (0, blue);
  tprof_plot_ranks_init (&d.plot);
  d.plot.ranks = ranks;
  d.plot.n_ranks = N;
  surface = plot_test_render (800, 500, draw_ranks, &d);
  if (shots != NULL)
    cairo_surface_write_to_png (surface, shots);

  /* the band is filled under every rank's value */
  for (gsize i = 5; i < N; i += 37)
    if (i != SLOW)
      plot_test_assert_pixel (surface, slot_centre (&d, i), value_y (&d, ranks[i].sum * 0.5), blue, 30);
  /* the straggler is at least a few pixels of highlight colour */
  for (int dx = -2; dx <= 2; dx++)
    {
      int rgb[3];

      plot_test_pixel (surface, slot_centre (&d, SLOW) + dx, value_y (&d, ranks[SLOW].sum * 0.8), rgb);
      if (ABS (rgb[0] - (int) round (theme.highlight[0] * 255)) < 10
          && ABS (rgb[1] - (int) round (theme.highlight[1] * 255)) < 10
          && ABS (rgb[2] - (int) round (theme.highlight[2] * 255)) < 10)
        found = TRUE;
    }
  g_assert_true (found);
  g_assert_cmpint (tprof_plot_ranks_hit (&d.plot, &d.area, slot_centre (&d, SLOW), d.area.y + 10), ==, SLOW);
  cairo_surface_destroy (surface);
  g_free (ranks);
}

/* Bars of hosts at 10^5 ranks: about 100 bars each a run of hosts,
 * named "node12375–12499" and so on. Whatever the number of bars (and so
 * whichever slot the last name falls on), names are drawn under the plot
 * only: the strip right of the plot, where the last slot's name would run
 * to the picture's edge, stays blank, and names are still drawn. */
static int
host_names_ink (int  n,
                int *under)
{
  TprofRankSummary *ranks = make_ranks ((gsize) n, (gsize) n / 2, 2);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  Drawing d;
  cairo_surface_t *surface;
  int width, right = 0;
  double bottom;

  for (int i = 0; i < n; i++)
    g_ptr_array_add (labels, g_strdup_printf ("node%05d\u2013%05d", i * 125, i * 125 + 124));
  g_ptr_array_add (labels, NULL);
  tprof_plot_ranks_init (&d.plot);
  d.plot.ranks = ranks;
  d.plot.n_ranks = (gsize) n;
  d.plot.bar_labels = (const char *const *) labels->pdata;
  d.plot.x_title = "Hosts";
  surface = plot_test_render (800, 500, draw_ranks, &d);
  if (n == 85 && g_getenv ("TPROF_PLOT_SHOTS") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("TPROF_PLOT_SHOTS"));
  width = cairo_image_surface_get_width (surface);
  bottom = d.area.y + d.area.height;
  *under = 0;
  for (int y = (int) ceil (bottom) + 2; y < (int) bottom + 30; y++)
    for (int x = (int) d.area.x; x < width; x++)
      {
        int rgb[3];
        gboolean ink;

        plot_test_pixel (surface, x, y, rgb);
        ink = rgb[0] < 200 || rgb[1] < 200 || rgb[2] < 200;
        if (x >= (int) ceil (d.area.x + d.area.width) + 2)
          right += ink;
        else
          *under += ink;
      }
  cairo_surface_destroy (surface);
  g_free (ranks);
  return right;
}

static void
test_host_names_stay_under_plot (void)
{
  for (int n = 80; n <= 120; n++)
    {
      int under, right = host_names_ink (n, &under);

      if (right != 0)
        g_test_message ("%d bars: %d inked pixels right of the plot", n, right);
      g_assert_cmpint (right, ==, 0);
      g_assert_cmpint (under, >, 50);
    }
}

static void
test_hit (void)
{
  TprofRankSummary *ranks = make_ranks (16, 3, 2);
  Drawing d;
  cairo_surface_t *surface;
  double y;

  tprof_plot_ranks_init (&d.plot);
  d.plot.ranks = ranks;
  d.plot.n_ranks = 16;
  surface = plot_test_render (640, 480, draw_ranks, &d);
  y = d.area.y + d.area.height / 2;
  for (gsize i = 0; i < 16; i++)
    g_assert_cmpint (tprof_plot_ranks_hit (&d.plot, &d.area, slot_centre (&d, i), y), ==, (gssize) i);
  g_assert_cmpint (tprof_plot_ranks_hit (&d.plot, &d.area, d.area.x - 2, y), ==, -1);
  g_assert_cmpint (tprof_plot_ranks_hit (&d.plot, &d.area, slot_centre (&d, 4), d.area.y - 2), ==, -1);
  cairo_surface_destroy (surface);
  g_free (ranks);
}

static void
test_empty (void)
{
  Drawing d;
  cairo_surface_t *surface;

  tprof_plot_ranks_init (&d.plot);
  surface = plot_test_render (300, 200, draw_ranks, &d);
  g_assert_cmpint (tprof_plot_ranks_hit (&d.plot, &d.area, 150, 100), ==, -1);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/ranks/bars-and-highlight", test_bars_and_highlight);
  g_test_add_func ("/plot/ranks/mean-whiskers", test_mean_whiskers);
  g_test_add_func ("/plot/ranks/thousands-of-ranks", test_thousands_of_ranks);
  g_test_add_func ("/plot/ranks/host-names-stay-under-plot", test_host_names_stay_under_plot);
  g_test_add_func ("/plot/ranks/hit", test_hit);
  g_test_add_func ("/plot/ranks/empty", test_empty);
  return g_test_run ();
}
