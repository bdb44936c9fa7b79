/* tprof-plot-breakdown.c — one operation's time on each rank, stacked by the operations inside it: a rank that spends its time differently stands out. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

static double
part_value (const TprofPlotBreakdown *plot,
            guint                     part,
            guint                     rank)
{
  double v = plot->values[(gsize) part * plot->n_ranks + rank];

  return isfinite (v) && v > 0 ? v : 0.0;
}

void
tprof_plot_breakdown_draw (cairo_t                  *cr,
                           double                    width,
                           double                    height,
                           const TprofPlotBreakdown *plot,
                           const TprofPlotTheme     *theme,
                           TprofPlotArea            *area)
{
  TprofPlotFrame frame;
  TprofPlotAxis y_axis;
  TprofPlotAxes axes = { 0 };
  g_autofree TprofPlotLegendItem *items = NULL;
  double top, y_max = 0, slot, legend_w, legend_h, full_width;
  gboolean legend_beside;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  area = _tprof_plot_frame_begin (&frame, cr, width, height, theme, area);
  top = _tprof_plot_frame_draw_titles (cr, &frame, plot->title != NULL ? plot->title : _("Breakdown per Rank"),
                                       plot->subtitle);
  for (guint r = 0; r < plot->n_ranks; r++)
    {
      double total = 0;

      for (guint p = 0; p < plot->n_parts; p++)
        total += part_value (plot, p, r);
      y_max = MAX (y_max, total);
    }
  if (plot->n_ranks == 0 || plot->n_parts == 0 || !(y_max > 0))
    {
      _tprof_plot_frame_draw_message (cr, &frame, top, _("No samples"));
      cairo_restore (cr);
      return;
    }

  /* listed top down, as the parts are stacked */
  items = g_new0 (TprofPlotLegendItem, plot->n_parts);
  for (guint p = 0; p < plot->n_parts; p++)
    {
      guint i = plot->n_parts - 1 - p;

      tprof_plot_palette_color (p, items[i].rgb);
      items[i].alpha = 1;
      items[i].label = tprof_escape_text (plot->part_names[p]);
    }
  _tprof_plot_legend_measure (cr, &frame, items, plot->n_parts, NULL, &legend_w, &legend_h);

  _tprof_plot_axis_init_linear (&y_axis, TPROF_PLOT_AXIS_DURATION, 0, y_max * 1.04, 5, TRUE);
  axes.categories = plot->ranks;
  axes.n_categories = plot->n_ranks;
  axes.category_labels = plot->bar_labels;
  axes.y = &y_axis;
  axes.x_title = plot->x_title != NULL ? plot->x_title : _("Rank");
  axes.y_title = _("Total time");
  /* the legend beside the bars where there is room, so that it hides none
   * of them (the tallest bars reach the top) */
  full_width = frame.width;
  legend_beside = legend_w + frame.pad < 0.4 * frame.width;
  if (legend_beside)
    frame.width -= legend_w + frame.pad;
  _tprof_plot_axes_layout (cr, &frame, &axes, top, area);
  frame.width = full_width;
  _tprof_plot_axes_draw_grid (cr, &frame, &axes, area);

  /* one stacked bar a rank, parts bottom up in the order given */
  slot = area->width / plot->n_ranks;
  for (guint r = 0; r < plot->n_ranks; r++)
    {
      double base = 0, x = area->x + r * slot + slot * 0.1, w = MAX (slot * 0.8, 0.5);

      for (guint p = 0; p < plot->n_parts; p++)
        {
          double v = part_value (plot, p, r), rgb[3];
          double y0 = _tprof_plot_area_y (area, base), y1 = _tprof_plot_area_y (area, base + v);

          if (v <= 0)
            continue;
          tprof_plot_palette_color (p, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          cairo_rectangle (cr, x, y1, w, y0 - y1);
          cairo_fill (cr);
          base += v;
        }
    }
  _tprof_plot_axes_draw (cr, &frame, &axes, area);

  if (legend_beside)
    _tprof_plot_legend_draw (cr, &frame, area->x + area->width + frame.pad * 0.5, area->y, items, plot->n_parts, NULL);
  else
    _tprof_plot_legend_draw (cr, &frame, area->x + area->width - legend_w - frame.pad * 0.5,
                             area->y + frame.pad * 0.5, items, plot->n_parts, NULL);
  for (guint p = 0; p < plot->n_parts; p++)
    g_free (items[p].label);
  cairo_restore (cr);
}

void
tprof_plot_breakdown_draw_default (cairo_t  *cr,
                                   double    width,
                                   double    height,
                                   gpointer  user_data)
{
  tprof_plot_breakdown_draw (cr, width, height, user_data, NULL, NULL);
}

gssize
tprof_plot_breakdown_hit (const TprofPlotBreakdown *plot,
                          const TprofPlotArea      *area,
                          double                    x,
                          double                    y)
{
  double slot, base = 0;
  guint r;

  g_return_val_if_fail (plot != NULL && area != NULL, -1);
  if (plot->n_ranks == 0 || area->width <= 0 || area->height <= 0 || x < area->x || x >= area->x + area->width)
    return -1;
  /* the bars as tprof_plot_breakdown_draw() lays them out */
  slot = area->width / plot->n_ranks;
  r = MIN ((guint) ((x - area->x) / slot), plot->n_ranks - 1);
  for (guint p = 0; p < plot->n_parts; p++)
    {
      double v = part_value (plot, p, r);
      double y0 = _tprof_plot_area_y (area, base), y1 = _tprof_plot_area_y (area, base + v);

      if (v > 0 && y >= y1 && y <= y0)
        return (gssize) p * plot->n_ranks + r;
      base += v;
    }
  return -1;
}

double
tprof_plot_breakdown_bars_width (double                    width,
                                 double                    height,
                                 const TprofPlotBreakdown *plot,
                                 const TprofPlotTheme     *theme)
{
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  TprofPlotArea area = { 0 };

  tprof_plot_breakdown_draw (cr, width, height, plot, theme, &area);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return area.width;
}
