/* tprof-plot-trend.c — the trend of one operation: duration occurrence by occurrence, a band across ranks and a line for each rank picked. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* x of column @j: where it begins on the timeline, or the middle of the
 * occurrences it covers. */
static double
column_x (const TprofPlotTrend *plot,
          guint                 j)
{
  if (plot->column_starts != NULL)
    return plot->column_starts[j];
  return plot->first_occurrence + (j + 0.5) * (double) plot->n_occurrences / plot->n_cols;
}

/* The x range: the timeline the columns span, or the occurrences. */
static void
x_range (const TprofPlotTrend *plot,
         double               *lo,
         double               *hi)
{
  *lo = (double) plot->first_occurrence;
  *hi = (double) (plot->first_occurrence + plot->n_occurrences);
  if (plot->column_starts == NULL)
    return;
  *lo = INFINITY;
  *hi = -INFINITY;
  for (guint j = 0; j < plot->n_cols; j++)
    if (isfinite (plot->column_starts[j]))
      {
        *lo = MIN (*lo, plot->column_starts[j]);
        *hi = MAX (*hi, plot->column_starts[j]);
      }
  if (!(*hi > *lo))
    {
      *lo = isfinite (*lo) ? *lo : 0.0;
      *hi = *lo + 1.0;
    }
}

static void
band_path (cairo_t              *cr,
           const TprofPlotTrend *plot,
           const TprofPlotArea  *area,
           gsize                 lower,
           gsize                 upper)
{
  gboolean started = FALSE;

  for (guint j = 0; j < plot->n_cols; j++)
    {
      double v = G_STRUCT_MEMBER (double, &plot->band[j], upper);

      if (isnan (v))
        continue;
      if (!started)
        cairo_move_to (cr, _tprof_plot_area_x (area, column_x (plot, j)), _tprof_plot_area_y (area, v));
      else
        cairo_line_to (cr, _tprof_plot_area_x (area, column_x (plot, j)), _tprof_plot_area_y (area, v));
      started = TRUE;
    }
  for (guint j = plot->n_cols; j-- > 0;)
    {
      double v = G_STRUCT_MEMBER (double, &plot->band[j], lower);

      if (!isnan (v))
        cairo_line_to (cr, _tprof_plot_area_x (area, column_x (plot, j)), _tprof_plot_area_y (area, v));
    }
  cairo_close_path (cr);
}

/* A polyline through the values that exist; a gap where a rank lacks an
 * occurrence. */
static void
series_path (cairo_t              *cr,
             const TprofPlotTrend *plot,
             const TprofPlotArea  *area,
             const double         *values,
             gsize                 stride)
{
  gboolean pen = FALSE;

  for (guint j = 0; j < plot->n_cols; j++)
    {
      double v = values[j * stride];

      if (isnan (v))
        {
          pen = FALSE;
          continue;
        }
      if (pen)
        cairo_line_to (cr, _tprof_plot_area_x (area, column_x (plot, j)), _tprof_plot_area_y (area, v));
      else
        cairo_move_to (cr, _tprof_plot_area_x (area, column_x (plot, j)), _tprof_plot_area_y (area, v));
      pen = TRUE;
    }
}

void
tprof_plot_trend_draw (cairo_t              *cr,
                       double                width,
                       double                height,
                       const TprofPlotTrend *plot,
                       const TprofPlotTheme *theme,
                       TprofPlotArea        *area)
{
  TprofPlotFrame frame;
  TprofPlotAxis x_axis, y_axis;
  TprofPlotAxes axes = { 0 };
  g_autofree TprofPlotLegendItem *items = NULL;
  double top, y_max = 0, legend_w, legend_h, median_rgb[3];
  guint n_items;
  double x_lo, x_hi;
  gboolean legend_beside = FALSE;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  area = _tprof_plot_frame_begin (&frame, cr, width, height, theme, area);
  top = _tprof_plot_frame_draw_titles (cr, &frame, plot->title != NULL ? plot->title : _("Trend"), plot->subtitle);
  for (guint j = 0; j < plot->n_cols && plot->band != NULL; j++)
    if (isfinite (plot->band[j].max))
      y_max = MAX (y_max, plot->band[j].max);
  if (plot->band == NULL || plot->n_cols == 0 || !(y_max > 0))
    {
      _tprof_plot_frame_draw_message (cr, &frame, top, _("No samples"));
      cairo_restore (cr);
      return;
    }

  /* legend: the band, then each rank drawn */
  items = g_new0 (TprofPlotLegendItem, plot->n_series + 3);
  tprof_plot_palette_color (0, median_rgb);
  memcpy (items[0].rgb, median_rgb, sizeof median_rgb);
  items[0].alpha = 1;
  items[0].label = g_strdup (_("median over ranks"));
  memcpy (items[1].rgb, median_rgb, sizeof median_rgb);
  items[1].alpha = 0.28;
  items[1].label = g_strdup (_("5th-95th percentile"));
  for (guint s = 0; s < plot->n_series; s++)
    {
      tprof_plot_palette_color (s + 1, items[s + 2].rgb);
      items[s + 2].alpha = 1;
      items[s + 2].label = g_strdup_printf (_("rank %d"), plot->series_ranks[s]);
    }
  if (plot->rolling != NULL)
    {
      guint k = plot->n_series + 2;

      memcpy (items[k].rgb, frame.theme->foreground, sizeof items[k].rgb);
      items[k].alpha = 1;
      items[k].label = g_strdup (_("rolling median"));
    }
  n_items = plot->n_series + 2 + (plot->rolling != NULL ? 1 : 0);
  _tprof_plot_legend_measure (cr, &frame, items, n_items, NULL, &legend_w, &legend_h);

  x_range (plot, &x_lo, &x_hi);
  _tprof_plot_axis_init_linear (&x_axis, plot->column_starts != NULL ? TPROF_PLOT_AXIS_DURATION : TPROF_PLOT_AXIS_COUNT,
                                x_lo, x_hi, 6, FALSE);
  _tprof_plot_axis_init_linear (&y_axis, TPROF_PLOT_AXIS_DURATION, 0, y_max * 1.04, 5, TRUE);
  axes.x = &x_axis;
  axes.y = &y_axis;
  /* Translators: the trend's x axis on the timeline: seconds since the profile's first start */
  axes.x_title = plot->column_starts != NULL ? _("Time on the timeline") : _("Occurrence");
  axes.y_title = _("Time");
  _tprof_plot_axes_layout (cr, &frame, &axes, top, area);
  /* the legend covers no line: beside the plot when there is room, which
   * leaves the time axis as the data asks; else above the data when it
   * takes less than a quarter of the plot's height (the axis then runs at
   * most a third past the data); else it overlaps */
  if (legend_w + frame.pad < 0.4 * frame.width)
    {
      double full_width = frame.width;

      legend_beside = TRUE;
      frame.width -= legend_w + frame.pad;
      _tprof_plot_axes_layout (cr, &frame, &axes, top, area);
      frame.width = full_width;
    }
  else if (legend_h + frame.pad < area->height * 0.25)
    {
      double headroom = area->height / (area->height - legend_h - frame.pad);

      _tprof_plot_axis_init_linear (&y_axis, TPROF_PLOT_AXIS_DURATION, 0, y_max * 1.04 * headroom, 5, TRUE);
      _tprof_plot_axes_layout (cr, &frame, &axes, top, area);
    }
  _tprof_plot_axes_draw_grid (cr, &frame, &axes, area);

  cairo_save (cr);
  cairo_rectangle (cr, area->x, area->y, area->width, area->height);
  cairo_clip (cr);
  /* min-max lightly, p5-p95 stronger, the median as a line */
  band_path (cr, plot, area, G_STRUCT_OFFSET (TprofHeatmapBand, min), G_STRUCT_OFFSET (TprofHeatmapBand, max));
  cairo_set_source_rgba (cr, median_rgb[0], median_rgb[1], median_rgb[2], 0.12);
  cairo_fill (cr);
  band_path (cr, plot, area, G_STRUCT_OFFSET (TprofHeatmapBand, p5), G_STRUCT_OFFSET (TprofHeatmapBand, p95));
  cairo_set_source_rgba (cr, median_rgb[0], median_rgb[1], median_rgb[2], 0.28);
  cairo_fill (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  series_path (cr, plot, area, &plot->band[0].median, sizeof (TprofHeatmapBand) / sizeof (double));
  cairo_set_source_rgb (cr, median_rgb[0], median_rgb[1], median_rgb[2]);
  cairo_set_line_width (cr, frame.line * 2);
  cairo_stroke (cr);

  for (guint s = 0; s < plot->n_series; s++)
    {
      double rgb[3];

      tprof_plot_palette_color (s + 1, rgb);
      series_path (cr, plot, area, plot->series + (gsize) s * plot->n_cols, 1);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, frame.line * 1.5);
      cairo_stroke (cr);
    }
  if (plot->rolling != NULL)
    {
      /* the drift: dashed, on top, in the text's colour so that it reads on the band and the lines */
      double dash = frame.line * 5;

      series_path (cr, plot, area, plot->rolling, 1);
      _tprof_plot_set_rgba (cr, frame.theme->foreground);
      cairo_set_line_width (cr, frame.line * 2);
      cairo_set_dash (cr, &dash, 1, 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  cairo_restore (cr);
  _tprof_plot_axes_draw (cr, &frame, &axes, area);

  if (legend_beside)
    _tprof_plot_legend_draw (cr, &frame, area->x + area->width + frame.pad * 0.5, area->y, items, n_items, NULL);
  else
    _tprof_plot_legend_draw (cr, &frame, area->x + area->width - legend_w - frame.pad * 0.5,
                             area->y + frame.pad * 0.5, items, n_items, NULL);
  for (guint i = 0; i < n_items; i++)
    g_free (items[i].label);
  cairo_restore (cr);
}

void
tprof_plot_trend_draw_default (cairo_t  *cr,
                               double    width,
                               double    height,
                               gpointer  user_data)
{
  tprof_plot_trend_draw (cr, width, height, user_data, NULL, NULL);
}
