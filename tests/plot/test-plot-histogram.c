/* test-plot-histogram.c — the histogram chart drawn into images: bars, overlays, log axes, hover, hit-testing. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "plot-test-util.h"

static const double white[3] = { 1, 1, 1 };

typedef struct
{
  TprofPlotHistogram plot;
  TprofPlotArea      area;
} Drawing;

/* @hist with the default settings, which a test may change before drawing. */
static void
drawing_init (Drawing *d, const TprofHistogram *hist)
{
  tprof_plot_histogram_init (&d->plot);
  d->plot.hist = hist;
}

static void
draw_histogram (cairo_t *cr, double width, double height, gpointer data)
{
  Drawing *drawing = data;

  tprof_plot_histogram_draw (cr, width, height, &drawing->plot, NULL, &drawing->area);
}

static double
bin_centre (const Drawing *d, gsize bin)
{
  const TprofHistogram *hist = d->plot.hist;
  double mid = (hist->edges[bin] + hist->edges[bin + 1]) / 2;

  return d->area.x + d->area.width * (mid - d->area.x_min) / (d->area.x_max - d->area.x_min);
}

static double
count_y (const Drawing *d, double count)
{
  return d->area.y + d->area.height * (1 - (count - d->area.y_min) / (d->area.y_max - d->area.y_min));
}

static void
test_bars_where_counts_are (void)
{
  const guint64 counts[] = { 3, 0, 5, 1, 0 };
  TprofHistogram *hist = plot_test_histogram_new (1e-3, 6e-3, 5, counts, 0, NULL);
  Drawing d;
  cairo_surface_t *surface;
  double blue[3];

  drawing_init (&d, hist);
  surface = plot_test_render (800, 600, draw_histogram, &d);
  tprof_plot_palette_color (0, blue);

  g_assert_cmpfloat (d.area.x_min, ==, 1e-3);
  g_assert_cmpfloat (d.area.x_max, ==, 6e-3);
  g_assert_cmpfloat (d.area.y_min, ==, 0);
  g_assert_cmpfloat (d.area.y_max, >=, 5);
  for (gsize i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      double x = bin_centre (&d, i);

      /* just above the baseline: bar colour where there are samples, background elsewhere */
      plot_test_assert_pixel (surface, x, count_y (&d, 0) - 3, counts[i] > 0 ? blue : white, 2);
      /* a bar reaches its count and no further */
      if (counts[i] > 0)
        plot_test_assert_pixel (surface, x, count_y (&d, counts[i] - 0.5), blue, 2);
      plot_test_assert_pixel (surface, x, count_y (&d, counts[i] + 0.6), white, 2);
    }
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
}

static void
test_overlay_two_ranks (void)
{
  const guint64 counts[] = { 4, 8, 4 };
  const guint64 rank_counts[] = { 4, 4, 0,    /* rank 0 */
                                  0, 4, 4 };  /* rank 1 */
  TprofHistogram *hist = plot_test_histogram_new (0, 3, 3, counts, 2, rank_counts);
  double c0[3], c1[3], only0[3], only1[3], both[3];
  int p0[3], p1[3];
  Drawing d;
  cairo_surface_t *surface;
  double y;

  drawing_init (&d, hist);
  d.plot.separate_ranks = TRUE;
  surface = plot_test_render (800, 600, draw_histogram, &d);

  tprof_plot_palette_color (0, c0);
  tprof_plot_palette_color (1, c1);
  plot_test_blend (c0, 0.35, white, only0);
  plot_test_blend (c1, 0.35, white, only1);
  plot_test_blend (c1, 0.35, only0, both);

  /* y axis covers the largest per-rank count, not the combined one */
  g_assert_cmpfloat (d.area.y_max, <, 8);
  y = count_y (&d, 2.5);  /* between grid lines */
  plot_test_assert_pixel (surface, bin_centre (&d, 0), y, only0, 3);
  plot_test_assert_pixel (surface, bin_centre (&d, 1), y, both, 3);
  plot_test_assert_pixel (surface, bin_centre (&d, 2), y, only1, 3);

  /* the two ranks are told apart */
  plot_test_pixel (surface, bin_centre (&d, 0), y, p0);
  plot_test_pixel (surface, bin_centre (&d, 2), y, p1);
  g_assert_cmpint (ABS (p0[0] - p1[0]) + ABS (p0[1] - p1[1]) + ABS (p0[2] - p1[2]), >, 100);

  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
}

/* Scans up from the baseline to where the bar in column @x ends. */
static double
bar_top (cairo_surface_t *surface, const Drawing *d, double x)
{
  double y;

  for (y = d->area.y + d->area.height - 2; y > d->area.y; y -= 1)
    {
      int rgb[3];

      plot_test_pixel (surface, x, y, rgb);
      if (rgb[0] > 200 && rgb[1] > 200 && rgb[2] > 200)
        break;
    }
  return y;
}

static void
test_log_count_axis (void)
{
  const guint64 counts[] = { 1, 10, 100, 1000 };
  TprofHistogram *hist = plot_test_histogram_new (0, 4e-3, 4, counts, 0, NULL);
  double tops[4];
  Drawing d;
  cairo_surface_t *surface;

  drawing_init (&d, hist);
  d.plot.log_y = TRUE;
  surface = plot_test_render (800, 600, draw_histogram, &d);
  g_assert_true (d.area.log_y);
  for (gsize i = 0; i < 4; i++)
    tops[i] = bar_top (surface, &d, bin_centre (&d, i));
  /* each decade adds the same height */
  g_assert_cmpfloat (fabs ((tops[0] - tops[1]) - (tops[1] - tops[2])), <, 2.5);
  g_assert_cmpfloat (fabs ((tops[1] - tops[2]) - (tops[2] - tops[3])), <, 2.5);
  g_assert_cmpfloat (tops[0] - tops[1], >, 20);
  /* a bar of 1 sample is still visible */
  g_assert_cmpfloat (d.area.y + d.area.height - tops[0], >, 5);
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
}

static void
test_log_duration_axis (void)
{
  const guint64 counts[] = { 5, 5, 5 };
  TprofHistogram *hist = g_new0 (TprofHistogram, 1);
  Drawing d;
  cairo_surface_t *surface;
  double blue[3], x0, x1, x2;

  hist->n_bins = 3;
  hist->edges = g_new (double, 4);
  for (int i = 0; i < 4; i++)
    hist->edges[i] = 1e-6 * pow (10, i);
  hist->counts = g_memdup2 (counts, sizeof counts);

  drawing_init (&d, hist);
  d.plot.log_x = TRUE;
  surface = plot_test_render (800, 600, draw_histogram, &d);
  tprof_plot_palette_color (0, blue);
  g_assert_true (d.area.log_x);
  /* log-spaced bins are drawn equally wide */
  x0 = d.area.x;
  x1 = d.area.x + d.area.width / 3;
  x2 = d.area.x + d.area.width * 2 / 3;
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, x0 + 2, d.area.y + 5), ==, 0);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, x1 + 2, d.area.y + 5), ==, 1);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, x1 - 2, d.area.y + 5), ==, 0);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, x2 + 2, d.area.y + 5), ==, 2);
  plot_test_assert_pixel (surface, (x1 + x2) / 2, count_y (&d, 2), blue, 2);
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
}

static void
test_hit_bin (void)
{
  const guint64 counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  TprofHistogram *hist = plot_test_histogram_new (0.5, 1.5, 10, counts, 0, NULL);
  Drawing d;
  cairo_surface_t *surface;
  double mid_y;

  drawing_init (&d, hist);
  surface = plot_test_render (640, 480, draw_histogram, &d);
  mid_y = d.area.y + d.area.height / 2;
  for (gsize i = 0; i < 10; i++)
    g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, bin_centre (&d, i), mid_y),
                     ==, (gssize) i);
  /* outside the data rectangle */
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, d.area.x - 1, mid_y), ==, -1);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, d.area.x + d.area.width + 1, mid_y),
                   ==, -1);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, bin_centre (&d, 3), d.area.y - 1),
                   ==, -1);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, bin_centre (&d, 3),
                                                 d.area.y + d.area.height + 1), ==, -1);
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
}

static void
test_hover (void)
{
  const guint64 counts[] = { 3, 0, 5 };
  TprofHistogram *hist = plot_test_histogram_new (0, 3e-3, 3, counts, 0, NULL);
  Drawing d;
  cairo_surface_t *plain, *hovered;
  int rgb[3];
  double x, y;

  drawing_init (&d, hist);
  plain = plot_test_render (800, 600, draw_histogram, &d);
  x = bin_centre (&d, 1);
  y = count_y (&d, 2.5);
  plot_test_assert_pixel (plain, x, y, white, 0);
  d.plot.hover_bin = 1;
  hovered = plot_test_render (800, 600, draw_histogram, &d);
  /* the hovered (empty) bin is tinted, its neighbours' bars are not */
  plot_test_pixel (hovered, x, y, rgb);
  g_assert_cmpint (rgb[0] + rgb[1] + rgb[2], <, 3 * 255 - 20);
  plot_test_pixel (hovered, bin_centre (&d, 0), y, rgb);
  plot_test_assert_pixel (plain, bin_centre (&d, 0), y, (double[3]) { rgb[0] / 255.0, rgb[1] / 255.0,
                                                                       rgb[2] / 255.0 }, 0);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (hovered);
  plot_test_histogram_free (hist);
}

/* numpy's [v-0.5, v+0.5] range of a single value is drawn as one bar at v */
static void
test_single_value (void)
{
  const guint64 counts[] = { 0, 8, 0 };
  TprofHistogram *hist = plot_test_histogram_new (0.25 - 0.5, 0.25 + 0.5, 3, counts, 0, NULL);
  TprofSummary summary = { .count = 8, .rank_count = 4, .sum = 2, .mean = 0.25, .std = 0,
                           .min = 0.25, .max = 0.25, .median = 0.25, .slowest_rank = 0 };
  Drawing d;
  cairo_surface_t *surface;
  double blue[3], x;

  drawing_init (&d, hist);
  d.plot.summary = &summary;
  surface = plot_test_render (800, 600, draw_histogram, &d);
  tprof_plot_palette_color (0, blue);
  g_assert_cmpfloat (d.area.x_min, >=, 0);
  g_assert_cmpfloat (d.area.x_max, >, 0.25);
  x = d.area.x + d.area.width * (0.25 - d.area.x_min) / (d.area.x_max - d.area.x_min);
  plot_test_assert_pixel (surface, x, count_y (&d, 3), blue, 2);
  plot_test_assert_pixel (surface, d.area.x + 5, count_y (&d, 3), white, 2);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, x, count_y (&d, 3)), ==, 1);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, d.area.x + 5, count_y (&d, 3)),
                   ==, -1);
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
}

/* The same picture at any size: the data rectangle keeps its proportions. */
static void
test_same_at_any_size (void)
{
  const guint64 counts[] = { 10, 200, 3000, 400, 5 };
  TprofHistogram *hist = plot_test_histogram_new (2e-4, 7e-4, 5, counts, 0, NULL);
  const int sizes[][2] = { { 400, 300 }, { 800, 600 }, { 1600, 1200 } };
  double ref[4] = { 0 };
  Drawing d;

  drawing_init (&d, hist);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      double w = sizes[k][0], h = sizes[k][1];
      cairo_surface_t *surface = plot_test_render (sizes[k][0], sizes[k][1], draw_histogram, &d);
      double rel[4] = { d.area.x / w, d.area.y / h, d.area.width / w, d.area.height / h };

      for (int c = 0; c < 4; c++)
        {
          if (k == 0)
            ref[c] = rel[c];
          else
            g_assert_cmpfloat_with_epsilon (rel[c], ref[c], 0.01);
        }
      cairo_surface_destroy (surface);
    }
  plot_test_histogram_free (hist);
}

/* A hundred thousand bins in a few hundred pixels draw as the tallest bin
 * of each pixel column. */
static void
test_more_bins_than_pixels (void)
{
  enum { N = 100000 };
  guint64 *counts = g_new (guint64, N);
  TprofHistogram *hist;
  Drawing d;
  cairo_surface_t *surface;
  double blue[3];

  for (gsize i = 0; i < N; i++)
    counts[i] = i < N / 2 ? 5 + i % 2 : i < N * 3 / 4 ? 0 : 3;
  hist = plot_test_histogram_new (0, 1e-2, N, counts, 0, NULL);
  drawing_init (&d, hist);
  surface = plot_test_render (800, 600, draw_histogram, &d);
  tprof_plot_palette_color (0, blue);

  plot_test_assert_pixel (surface, d.area.x + d.area.width * 0.25, count_y (&d, 5.5), blue, 2);
  plot_test_assert_pixel (surface, d.area.x + d.area.width * 0.25, count_y (&d, 6.5), white, 2);
  plot_test_assert_pixel (surface, d.area.x + d.area.width * 0.625, count_y (&d, 0.5), white, 2);
  plot_test_assert_pixel (surface, d.area.x + d.area.width * 0.875, count_y (&d, 2.5), blue, 2);
  plot_test_assert_pixel (surface, d.area.x + d.area.width * 0.875, count_y (&d, 3.5), white, 2);
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
  g_free (counts);
}

/* On screen the desktop's font size sets the text, whatever the widget size. */
static void
test_theme_font_size (void)
{
  const guint64 counts[] = { 4, 9, 2 };
  TprofHistogram *hist = plot_test_histogram_new (0, 3e-3, 3, counts, 0, NULL);
  TprofPlotHistogram plot;
  TprofPlotTheme theme;
  TprofPlotArea small, large;

  tprof_plot_histogram_init (&plot);
  plot.hist = hist;
  tprof_plot_theme_init_default (&theme);
  theme.font_size = 10;
  theme.scale = 2;
  for (int k = 0; k < 2; k++)
    {
      int w = k == 0 ? 400 : 1200, h = k == 0 ? 300 : 900;
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * 2, h * 2);
      cairo_t *cr = cairo_create (surface);

      /* HiDPI: user units are logical pixels, the device has twice as many */
      cairo_surface_set_device_scale (surface, 2, 2);
      tprof_plot_histogram_draw (cr, w, h, &plot, &theme, k == 0 ? &small : &large);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  /* same margins in logical pixels at both sizes */
  g_assert_cmpfloat_with_epsilon (small.x, large.x, 0.5);
  g_assert_cmpfloat_with_epsilon (small.y, large.y, 0.5);
  g_assert_cmpfloat_with_epsilon (small.height + 600, large.height, 0.5);
  plot_test_histogram_free (hist);
}

static void
test_empty (void)
{
  TprofHistogram hist = { 0 };
  Drawing d;
  cairo_surface_t *surface;

  drawing_init (&d, &hist);
  surface = plot_test_render (300, 200, draw_histogram, &d);
  g_assert_cmpint (tprof_plot_histogram_hit_bin (&d.plot, &d.area, 150, 100), ==, -1);
  cairo_surface_destroy (surface);
}

/* With more ranks than the legend shows, drawing still covers every rank. */
static void
test_many_ranks (void)
{
  enum { N_RANKS = 64, N_BINS = 20 };
  guint64 counts[N_BINS] = { 0 };
  guint64 *rank_counts = g_new0 (guint64, N_RANKS * N_BINS);
  TprofRankSummary summaries[N_RANKS];
  TprofHistogram *hist;
  Drawing d;
  cairo_surface_t *surface;

  for (int r = 0; r < N_RANKS; r++)
    {
      summaries[r] = (TprofRankSummary) { .rank = r, .count = 10, .sum = 1, .mean = 0.1, .std = 0.01,
                                          .min = 0.05, .max = 0.2 };
      rank_counts[r * N_BINS + r % N_BINS] = 10;
      counts[r % N_BINS] += 10;
    }
  hist = plot_test_histogram_new (0.05, 0.2, N_BINS, counts, N_RANKS, rank_counts);
  drawing_init (&d, hist);
  d.plot.separate_ranks = TRUE;
  d.plot.rank_summaries = summaries;
  d.plot.n_rank_summaries = N_RANKS;
  surface = plot_test_render (1000, 650, draw_histogram, &d);
  /* every bin has a bar near its baseline */
  for (gsize i = 0; i < N_BINS; i++)
    {
      int rgb[3];

      plot_test_pixel (surface, bin_centre (&d, i), count_y (&d, 1), rgb);
      g_assert_cmpint (rgb[0] + rgb[1] + rgb[2], <, 3 * 250);
    }
  cairo_surface_destroy (surface);
  plot_test_histogram_free (hist);
  g_free (rank_counts);
}

/* @n ranks, rank r with 5 samples in bin r of @n, drawn overlaid at 800x600. */
static cairo_surface_t *
render_diagonal_overlay (gsize    n,
                         Drawing *d)
{
  g_autofree guint64 *counts = g_new (guint64, n);
  g_autofree guint64 *rank_counts = g_new0 (guint64, n * n);
  cairo_surface_t *surface;

  for (gsize r = 0; r < n; r++)
    {
      counts[r] = 5;
      rank_counts[r * n + r] = 5;
    }
  drawing_init (d, plot_test_histogram_new (0, 1, n, counts, n, rank_counts));
  d->plot.separate_ranks = TRUE;
  surface = plot_test_render (800, 600, draw_histogram, d);
  plot_test_histogram_free ((TprofHistogram *) d->plot.hist);
  d->plot.hist = NULL;
  return surface;
}

/* Up to 8 ranks (the palette's colours), every rank is its own translucent
 * series in its palette colour; a ninth would repeat a colour, so the
 * overlay becomes the slowest ranks over a band. */
static void
test_overlay_every_rank (void)
{
  TprofPlotTheme theme;
  double rgb[3], want[3], band[3];
  cairo_surface_t *surface;
  Drawing d;

  surface = render_diagonal_overlay (8, &d);
  for (guint r = 0; r < 8; r++)
    {
      tprof_plot_palette_color (r, rgb);
      plot_test_blend (rgb, 0.35, white, want);
      plot_test_assert_pixel (surface, d.area.x + d.area.width * (r + 0.5) / 8, count_y (&d, 1.5), want, 3);
    }
  cairo_surface_destroy (surface);

  /* 9 ranks: the 4 with the most time (the last bins) in the first colours, the rest grey */
  tprof_plot_theme_init_default (&theme);
  plot_test_blend (theme.foreground, theme.foreground[3] * 0.22, white, band);
  surface = render_diagonal_overlay (9, &d);
  for (guint r = 0; r < 9; r++)
    {
      tprof_plot_palette_color (8 - r, rgb);
      plot_test_blend (rgb, 0.35, white, want);
      plot_test_assert_pixel (surface, d.area.x + d.area.width * (r + 0.5) / 9, count_y (&d, 1.5),
                              r >= 5 ? want : band, 3);
    }
  cairo_surface_destroy (surface);
}

/* Beyond 8 ranks the slowest keep their own series (found from the
 * summaries, or from the bins without them) and the others become one
 * band reaching each bin's highest count among them. */
static void
test_overlay_band (void)
{
  enum { N_RANKS = 40, N_BINS = 10, SLOW = 33 };
  guint64 counts[N_BINS] = { 0 };
  guint64 rank_counts[N_RANKS * N_BINS] = { 0 };
  TprofRankSummary summaries[N_RANKS];
  TprofPlotTheme theme;
  double c0[3], only_slow[3], band[3];
  TprofHistogram *hist;

  for (int r = 0; r < N_RANKS; r++)
    {
      gsize bin = r == SLOW ? 9 : (gsize) (r % 8);
      guint64 c = r == SLOW ? 5 : 2 + r % 3;

      rank_counts[r * N_BINS + bin] = c;
      counts[bin] += c;
      summaries[r] = (TprofRankSummary) { .rank = r, .count = c, .sum = r == SLOW ? 100 : 1,
                                          .mean = 0.1, .std = 0.01, .min = 0.05, .max = 0.2 };
    }
  hist = plot_test_histogram_new (0, 1, N_BINS, counts, N_RANKS, rank_counts);
  tprof_plot_theme_init_default (&theme);
  tprof_plot_palette_color (0, c0);
  plot_test_blend (c0, 0.35, white, only_slow);
  plot_test_blend (theme.foreground, theme.foreground[3] * 0.22, white, band);

  for (int with_summaries = 0; with_summaries < 2; with_summaries++)
    {
      cairo_surface_t *surface;
      Drawing d;

      drawing_init (&d, hist);
      d.plot.separate_ranks = TRUE;
      d.plot.max_legend_ranks = 1;
      if (with_summaries)
        {
          d.plot.rank_summaries = summaries;
          d.plot.n_rank_summaries = N_RANKS;
        }
      surface = plot_test_render (800, 600, draw_histogram, &d);

      plot_test_assert_pixel (surface, bin_centre (&d, 9), count_y (&d, 1.5), only_slow, 3);
      plot_test_assert_pixel (surface, bin_centre (&d, 8), count_y (&d, 1.5), white, 3);
      for (gsize bin = 0; bin < 8; bin++)
        {
          guint64 highest = 0;

          /* the band reaches the highest count among the bin's ranks */
          for (int r = (int) bin; r < N_RANKS; r += 8)
            if (r != SLOW)
              highest = MAX (highest, 2 + (guint64) (r % 3));
          plot_test_assert_pixel (surface, bin_centre (&d, bin), count_y (&d, 1.5), band, 3);
          plot_test_assert_pixel (surface, bin_centre (&d, bin), count_y (&d, highest - 0.3), band, 3);
          plot_test_assert_pixel (surface, bin_centre (&d, bin), count_y (&d, highest + 0.3), white, 3);
        }
      cairo_surface_destroy (surface);
    }
  plot_test_histogram_free (hist);
}

/* The legend never hides the top of a bar: it takes the corner over the
 * lower bars, or the count axis grows to leave it room. */
static void
test_legend_clear_of_bars (void)
{
  static const guint64 shapes[][10] = {
    { 10, 10, 10, 10, 10, 10, 10, 10, 10, 10 },   /* flat: no free corner */
    { 1, 1, 1, 1, 1, 1, 1, 1, 10, 10 },           /* tall on the right */
    { 10, 10, 1, 1, 1, 1, 1, 1, 1, 1 },           /* tall on the left */
  };
  double c0[3], only0[3];

  tprof_plot_palette_color (0, c0);
  plot_test_blend (c0, 0.35, white, only0);
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      /* 8 ranks make a legend of 8 lines; only the first has samples */
      guint64 rank_counts[8 * 10] = { 0 };
      TprofHistogram *hist;
      cairo_surface_t *surface;
      Drawing d;

      memcpy (rank_counts, shapes[s], sizeof shapes[s]);
      hist = plot_test_histogram_new (0, 1, 10, shapes[s], 8, rank_counts);
      drawing_init (&d, hist);
      d.plot.separate_ranks = TRUE;
      surface = plot_test_render (640, 400, draw_histogram, &d);
      for (gsize i = 0; i < 10; i++)
        plot_test_assert_pixel (surface, bin_centre (&d, i), count_y (&d, shapes[s][i] - 0.3), only0, 3);
      /* a free corner leaves the axis as tight as without a legend */
      if (s > 0)
        g_assert_cmpfloat (d.area.y_max, <=, 12);
      cairo_surface_destroy (surface);
      plot_test_histogram_free (hist);
    }
}

static void
test_format_selection (void)
{
  TprofSummary summary = { .count = 1200, .rank_count = 4, .mean = 0.00075, .std = 0.000438 };
  const gint32 subset[] = { 0, 1, 2, 3, 8 };
  char *text;

  text = tprof_plot_format_selection (&summary, NULL, 0, 4);
  g_assert_cmpstr (text, ==, "All 4 Ranks, n=1200, mean=750 µs, std=438 µs");
  g_free (text);
  text = tprof_plot_format_selection (&summary, subset, G_N_ELEMENTS (subset), 64);
  g_assert_cmpstr (text, ==, "Ranks 0-3,8, n=1200, mean=750 µs, std=438 µs");
  g_free (text);
  text = tprof_plot_format_selection (NULL, subset + 4, 1, 64);
  g_assert_cmpstr (text, ==, "Rank 8");
  g_free (text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/histogram/bars-where-counts-are", test_bars_where_counts_are);
  g_test_add_func ("/plot/histogram/overlay-two-ranks", test_overlay_two_ranks);
  g_test_add_func ("/plot/histogram/log-count-axis", test_log_count_axis);
  g_test_add_func ("/plot/histogram/log-duration-axis", test_log_duration_axis);
  g_test_add_func ("/plot/histogram/hit-bin", test_hit_bin);
  g_test_add_func ("/plot/histogram/hover", test_hover);
  g_test_add_func ("/plot/histogram/single-value", test_single_value);
  g_test_add_func ("/plot/histogram/same-at-any-size", test_same_at_any_size);
  g_test_add_func ("/plot/histogram/more-bins-than-pixels", test_more_bins_than_pixels);
  g_test_add_func ("/plot/histogram/theme-font-size", test_theme_font_size);
  g_test_add_func ("/plot/histogram/empty", test_empty);
  g_test_add_func ("/plot/histogram/many-ranks", test_many_ranks);
  g_test_add_func ("/plot/histogram/overlay-every-rank", test_overlay_every_rank);
  g_test_add_func ("/plot/histogram/overlay-band", test_overlay_band);
  g_test_add_func ("/plot/histogram/legend-clear-of-bars", test_legend_clear_of_bars);
  g_test_add_func ("/plot/histogram/format-selection", test_format_selection);
  return g_test_run ();
}
