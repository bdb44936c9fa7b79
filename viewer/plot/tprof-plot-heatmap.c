/* tprof-plot-heatmap.c — the heat map of one operation: ranks x occurrences, colour = duration or deviation, with a colour bar. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* A sequential scale (dark blue to yellow, readable in grey and by the
 * colour-blind) for durations, a diverging one (blue, white, red) centred
 * on 0 for deviations. */
static const double sequential[][3] = {
  { 0.267, 0.005, 0.329 }, { 0.229, 0.322, 0.546 }, { 0.128, 0.567, 0.551 },
  { 0.369, 0.789, 0.383 }, { 0.993, 0.906, 0.144 },
};
static const double diverging[][3] = {
  { 0.230, 0.299, 0.754 }, { 0.865, 0.865, 0.865 }, { 0.706, 0.016, 0.150 },
};

static void
scale_color (const TprofPlotHeatmap *plot,
             double                  t,
             double                  rgb[3])
{
  const double (*stops)[3] = plot->value == TPROF_HEATMAP_DEVIATION ? diverging : sequential;
  guint n = plot->value == TPROF_HEATMAP_DEVIATION ? G_N_ELEMENTS (diverging) : G_N_ELEMENTS (sequential);
  double x = CLAMP (t, 0.0, 1.0) * (n - 1);
  guint i = MIN ((guint) x, n - 2);
  double f = x - i;

  for (int c = 0; c < 3; c++)
    rgb[c] = stops[i][c] + f * (stops[i + 1][c] - stops[i][c]);
}

/* The range of the colour scale: the cells' [min, max] for durations (in
 * log10 with @plot->log), [-m, m] for deviations. */
static gboolean
value_range (const TprofPlotHeatmap *plot,
             double                 *lo,
             double                 *hi)
{
  gsize n = (gsize) plot->n_rows * plot->n_cols;
  gboolean any = FALSE;

  *lo = INFINITY;
  *hi = -INFINITY;
  for (gsize i = 0; i < n; i++)
    {
      double v = plot->cells[i];

      if (!isfinite (v) || (plot->log && plot->value == TPROF_HEATMAP_DURATION && v <= 0))
        continue;
      any = TRUE;
      *lo = MIN (*lo, v);
      *hi = MAX (*hi, v);
    }
  if (!any)
    return FALSE;
  if (plot->value == TPROF_HEATMAP_DEVIATION)
    {
      double m = MAX (fabs (*lo), fabs (*hi));

      *lo = -m;
      *hi = m;
    }
  if (!(*hi > *lo))
    *hi = *lo + (*lo != 0 ? fabs (*lo) * 1e-3 : 1e-9);
  return TRUE;
}

static double
scale_position (const TprofPlotHeatmap *plot,
                double                  v,
                double                  lo,
                double                  hi)
{
  if (plot->log && plot->value == TPROF_HEATMAP_DURATION && lo > 0)
    return (log10 (v) - log10 (lo)) / (log10 (hi) - log10 (lo));
  return (v - lo) / (hi - lo);
}

/* One pixel a cell, rank rows bottom up, scaled onto the area without
 * smoothing: cells stay cells however they are stretched. */
static void
draw_cells (cairo_t                *cr,
            const TprofPlotHeatmap *plot,
            const TprofPlotArea    *area,
            double                  lo,
            double                  hi)
{
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) plot->n_cols, (int) plot->n_rows);
  unsigned char *data;
  int stride;
  cairo_pattern_t *pattern;

  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  for (guint i = 0; i < plot->n_rows; i++)
    {
      guint32 *row = (guint32 *) (data + (gsize) (plot->n_rows - 1 - i) * stride);

      for (guint j = 0; j < plot->n_cols; j++)
        {
          double v = plot->cells[(gsize) i * plot->n_cols + j], rgb[3];

          if (!isfinite (v) || (plot->log && plot->value == TPROF_HEATMAP_DURATION && v <= 0))
            {
              row[j] = 0;   /* transparent: the rank has no such occurrence */
              continue;
            }
          scale_color (plot, scale_position (plot, v, lo, hi), rgb);
          row[j] = 0xff000000u | (guint32) lround (rgb[0] * 255) << 16 | (guint32) lround (rgb[1] * 255) << 8
                   | (guint32) lround (rgb[2] * 255);
        }
    }
  cairo_surface_mark_dirty (image);

  cairo_save (cr);
  cairo_rectangle (cr, area->x, area->y, area->width, area->height);
  cairo_clip (cr);
  cairo_translate (cr, area->x, area->y);
  cairo_scale (cr, area->width / plot->n_cols, area->height / plot->n_rows);
  cairo_set_source_surface (cr, image, 0, 0);
  pattern = cairo_get_source (cr);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (image);
}

static char *
format_scale_value (const TprofPlotHeatmap *plot,
                    double                  v)
{
  g_autofree char *text = tprof_format_duration (fabs (v), 3);

  if (plot->value == TPROF_HEATMAP_DEVIATION)
    return g_strdup_printf ("%s%s", v > 0 ? "+" : v < 0 ? "−" : "", text);
  return g_steal_pointer (&text);
}

/* The colour bar right of the cells, with its lowest, middle and highest
 * values. */
static void
draw_color_bar (cairo_t                *cr,
                const TprofPlotFrame   *frame,
                const TprofPlotHeatmap *plot,
                double                  x,
                const TprofPlotArea    *area,
                double                  lo,
                double                  hi)
{
  TprofPlotFont font = { frame->font * 0.85, FALSE };
  double bar = frame->font, steps = 64;

  for (int s = 0; s < steps; s++)
    {
      double rgb[3];

      scale_color (plot, (s + 0.5) / steps, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, area->y + area->height * (1 - (s + 1) / steps), bar, area->height / steps + 0.5);
      cairo_fill (cr);
    }
  for (int k = 0; k < 3; k++)
    {
      double t = k / 2.0, v;
      g_autofree char *label = NULL;

      if (plot->log && plot->value == TPROF_HEATMAP_DURATION && lo > 0)
        v = pow (10, log10 (lo) + t * (log10 (hi) - log10 (lo)));
      else
        v = lo + t * (hi - lo);
      label = format_scale_value (plot, v);
      _tprof_plot_text_draw (cr, &font, label, x + bar + frame->tick, area->y + area->height * (1 - t),
                             0, 0.5, FALSE, frame->theme->foreground);
    }
}

void
tprof_plot_heatmap_draw (cairo_t                *cr,
                         double                  width,
                         double                  height,
                         const TprofPlotHeatmap *plot,
                         const TprofPlotTheme   *theme,
                         TprofPlotArea          *area)
{
  TprofPlotFrame frame;
  TprofPlotAxis x_axis, y_axis;
  TprofPlotAxes axes = { 0 };
  TprofPlotFont font;
  double top, lo, hi, label_w = 0, label_h = 0, reserve;
  const char *title;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  area = _tprof_plot_frame_begin (&frame, cr, width, height, theme, area);
  title = plot->title != NULL ? plot->title : _("Heat Map");
  top = _tprof_plot_frame_draw_titles (cr, &frame, title, plot->subtitle);
  if (plot->cells == NULL || plot->n_rows == 0 || plot->n_cols == 0 || !value_range (plot, &lo, &hi))
    {
      _tprof_plot_frame_draw_message (cr, &frame, top, _("No samples"));
      cairo_restore (cr);
      return;
    }

  _tprof_plot_axis_init_linear (&x_axis, TPROF_PLOT_AXIS_COUNT, (double) plot->first_occurrence,
                                (double) (plot->first_occurrence + plot->n_occurrences), 6, FALSE);
  /* ranks label the middle of their rows; rows of a rank filter by
   * row, each labelled with its rank, so that a few ranks fill the plot */
  if (plot->row_ranks != NULL || plot->row_labels != NULL)
    {
      _tprof_plot_axis_init_linear (&y_axis, TPROF_PLOT_AXIS_COUNT, -0.5, plot->n_rows - 0.5,
                                    MIN (plot->n_rows, 8), FALSE);
      y_axis.labels = plot->row_ranks;
      y_axis.text_labels = plot->row_labels;
      y_axis.n_labels = plot->n_rows;
    }
  else
    _tprof_plot_axis_init_linear (&y_axis, TPROF_PLOT_AXIS_COUNT, plot->first_rank - 0.5,
                                  plot->first_rank + plot->n_rows - 0.5, MIN (plot->n_rows, 8), FALSE);
  axes.x = &x_axis;
  axes.y = &y_axis;
  axes.x_title = _("Occurrence");
  axes.y_title = plot->row_title != NULL ? plot->row_title : _("Rank");
  _tprof_plot_axes_layout (cr, &frame, &axes, top, area);

  /* room on the right for the colour bar and its widest label */
  font = (TprofPlotFont) { frame.font * 0.85, FALSE };
  for (int k = 0; k < 2; k++)
    {
      g_autofree char *label = format_scale_value (plot, k == 0 ? lo : hi);
      double w, h;

      _tprof_plot_text_extents (cr, &font, label, &w, &h);
      label_w = MAX (label_w, w);
      label_h = MAX (label_h, h);
    }
  reserve = frame.font * 2 + frame.tick + label_w;
  area->width = MAX (area->width - reserve, frame.font);
  area->x_max = plot->first_occurrence + plot->n_occurrences;

  draw_cells (cr, plot, area, lo, hi);
  _tprof_plot_axes_draw (cr, &frame, &axes, area);
  draw_color_bar (cr, &frame, plot, area->x + area->width + frame.font, area, lo, hi);
  cairo_restore (cr);
}

double
tprof_plot_heatmap_cells_height (double                  width,
                                 double                  height,
                                 const TprofPlotHeatmap *plot,
                                 const TprofPlotTheme   *theme)
{
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  TprofPlotHeatmap outline = *plot;
  TprofPlotArea area = { 0 };

  /* the layout alone: one empty row keeps every axis and title */
  outline.cells = (const double[]) { 1.0 };
  outline.n_rows = 1;
  outline.n_cols = 1;
  outline.row_ranks = NULL;
  outline.row_labels = NULL;
  tprof_plot_heatmap_draw (cr, width, height, &outline, theme, &area);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return area.height;
}

void
tprof_plot_heatmap_draw_default (cairo_t  *cr,
                                 double    width,
                                 double    height,
                                 gpointer  user_data)
{
  tprof_plot_heatmap_draw (cr, width, height, user_data, NULL, NULL);
}
