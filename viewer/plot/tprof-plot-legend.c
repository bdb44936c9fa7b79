/* tprof-plot-legend.c — the boxed legend of colour swatches drawn in a chart's top right corner. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

/* Sizes shared by measuring and drawing. */
typedef struct
{
  TprofPlotFont font;
  double        line_h, swatch, gap, width, height;
} LegendLayout;

static void
legend_layout (cairo_t                   *cr,
               const TprofPlotFrame      *frame,
               const TprofPlotLegendItem *items,
               guint                      n_items,
               const char                *more,
               LegendLayout              *layout)
{
  guint n_lines = n_items + (more != NULL ? 1 : 0);
  double text_w = 0;

  layout->font = (TprofPlotFont) { frame->font * 0.8, FALSE };
  _tprof_plot_text_extents (cr, &layout->font, "Rank", NULL, &layout->line_h);
  for (guint i = 0; i <= n_items; i++)
    {
      const char *text = i < n_items ? items[i].label : more;
      double w;

      if (text == NULL)
        continue;
      _tprof_plot_text_extents (cr, &layout->font, text, &w, NULL);
      text_w = MAX (text_w, w);
    }

  layout->swatch = layout->line_h * 0.7;
  layout->gap = frame->font * 0.4;
  layout->width = layout->gap + layout->swatch + layout->gap + text_w + layout->gap;
  layout->height = n_lines > 0 ? layout->gap + n_lines * layout->line_h + layout->gap : 0;
}

void
_tprof_plot_legend_measure (cairo_t                   *cr,
                            const TprofPlotFrame      *frame,
                            const TprofPlotLegendItem *items,
                            guint                      n_items,
                            const char                *more,
                            double                    *width,
                            double                    *height)
{
  LegendLayout layout;

  legend_layout (cr, frame, items, n_items, more, &layout);
  *width = layout.width;
  *height = layout.height;
}

/* The legend's box behind its text: the picture's background, or, on a
 * transparent one (the window's), dark under light text (a dark theme)
 * and white under dark text, so that the text always reads. */
static void
legend_box_rgb (const TprofPlotTheme *theme,
                double                rgb[3])
{
  const double *fg = theme->foreground;
  double luminance = 0.2126 * fg[0] + 0.7152 * fg[1] + 0.0722 * fg[2];

  if (theme->background[3] > 0)
    memcpy (rgb, theme->background, 3 * sizeof (double));
  else
    rgb[0] = rgb[1] = rgb[2] = luminance > 0.5 ? 0.15 : 1.0;
}

void
_tprof_plot_legend_draw (cairo_t                   *cr,
                         const TprofPlotFrame      *frame,
                         double                     x,
                         double                     y,
                         const TprofPlotLegendItem *items,
                         guint                      n_items,
                         const char                *more)
{
  LegendLayout layout;
  double more_rgba[4];
  double box[3];
  double text_x;

  legend_layout (cr, frame, items, n_items, more, &layout);
  if (layout.height == 0)
    return;
  text_x = x + layout.gap + layout.swatch + layout.gap;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, layout.width, layout.height);
  legend_box_rgb (frame->theme, box);
  cairo_set_source_rgba (cr, box[0], box[1], box[2], 0.85);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, frame->line);
  _tprof_plot_set_rgba (cr, frame->theme->grid);
  cairo_stroke (cr);

  for (guint i = 0; i < n_items; i++)
    {
      double line_y = y + layout.gap + i * layout.line_h;

      cairo_rectangle (cr, x + layout.gap, line_y + (layout.line_h - layout.swatch) / 2,
                       layout.swatch, layout.swatch);
      cairo_set_source_rgba (cr, items[i].rgb[0], items[i].rgb[1], items[i].rgb[2], items[i].alpha);
      if (items[i].outline)
        {
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, items[i].rgb[0], items[i].rgb[1], items[i].rgb[2]);
          cairo_set_line_width (cr, frame->line * 1.5);
          cairo_stroke (cr);
        }
      else
        cairo_fill (cr);
      _tprof_plot_text_draw (cr, &layout.font, items[i].label, text_x, line_y,
                             0, 0, FALSE, frame->theme->foreground);
    }
  if (more != NULL)
    {
      memcpy (more_rgba, frame->theme->foreground, sizeof more_rgba);
      more_rgba[3] *= 0.7;
      _tprof_plot_text_draw (cr, &layout.font, more, text_x, y + layout.gap + n_items * layout.line_h,
                             0, 0, FALSE, more_rgba);
    }
  cairo_restore (cr);
}
