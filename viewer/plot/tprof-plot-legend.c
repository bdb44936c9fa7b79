/* tprof-plot-legend.c — the boxed legend of colour swatches drawn in a chart's top right corner. */
#include "config.h"

#include "tprof-plot-private.h"

void
_tprof_plot_legend_draw (cairo_t                   *cr,
                         const TprofPlotFrame      *frame,
                         const TprofPlotArea       *area,
                         const TprofPlotLegendItem *items,
                         guint                      n_items,
                         const char                *more)
{
  TprofPlotFont font = { frame->font * 0.8, FALSE };
  double line_h, swatch, gap, text_w = 0, box_w, box_h, x, y;
  double more_rgba[4];
  guint n_lines = n_items + (more != NULL ? 1 : 0);

  if (n_lines == 0)
    return;

  _tprof_plot_text_extents (cr, &font, "Rank", NULL, &line_h);
  for (guint i = 0; i < n_items; i++)
    {
      double w;

      _tprof_plot_text_extents (cr, &font, items[i].label, &w, NULL);
      text_w = MAX (text_w, w);
    }
  if (more != NULL)
    {
      double w;

      _tprof_plot_text_extents (cr, &font, more, &w, NULL);
      text_w = MAX (text_w, w);
    }

  swatch = line_h * 0.7;
  gap = frame->font * 0.4;
  box_w = gap + swatch + gap + text_w + gap;
  box_h = gap + n_lines * line_h + gap;
  x = area->x + area->width - box_w - frame->font * 0.5;
  y = area->y + frame->font * 0.5;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, box_w, box_h);
  cairo_set_source_rgba (cr, frame->theme->background[0], frame->theme->background[1],
                         frame->theme->background[2], 0.85);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, frame->line);
  _tprof_plot_set_rgba (cr, frame->theme->grid);
  cairo_stroke (cr);

  for (guint i = 0; i < n_items; i++)
    {
      double line_y = y + gap + i * line_h;

      cairo_rectangle (cr, x + gap, line_y + (line_h - swatch) / 2, swatch, swatch);
      cairo_set_source_rgba (cr, items[i].rgb[0], items[i].rgb[1], items[i].rgb[2], items[i].alpha);
      cairo_fill (cr);
      _tprof_plot_text_draw (cr, &font, items[i].label, x + gap + swatch + gap, line_y,
                             0, 0, FALSE, frame->theme->foreground);
    }
  if (more != NULL)
    {
      memcpy (more_rgba, frame->theme->foreground, sizeof more_rgba);
      more_rgba[3] *= 0.7;
      _tprof_plot_text_draw (cr, &font, more, x + gap + swatch + gap, y + gap + n_items * line_h,
                             0, 0, FALSE, more_rgba);
    }
  cairo_restore (cr);
}
