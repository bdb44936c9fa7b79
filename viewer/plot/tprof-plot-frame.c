/* tprof-plot-frame.c — the proportions every chart shares: font size, margins, background and titles. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include "tprof-plot-private.h"

static void
tprof_plot_frame_init (TprofPlotFrame       *frame,
                       double                width,
                       double                height,
                       const TprofPlotTheme *theme)
{
  frame->width = MAX (width, 1);
  frame->height = MAX (height, 1);
  frame->theme = theme;

  /* Export sizes everything from the picture, so that 400x300 is 800x600
   * scaled by half; the screen uses the desktop's font size instead. */
  if (theme->font_size > 0)
    frame->font = theme->font_size * 96.0 / 72.0;
  else
    frame->font = MAX (4.0, MIN (frame->width, frame->height * 4.0 / 3.0) / 62.0);

  frame->line = frame->font / 13.0;
  frame->pad = frame->font * 0.9;
  frame->tick = frame->font * 0.35;
}

static void
tprof_plot_frame_clear (cairo_t              *cr,
                        const TprofPlotFrame *frame)
{
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, frame->width, frame->height);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  _tprof_plot_set_rgba (cr, frame->theme->background);
  cairo_fill (cr);
  cairo_restore (cr);
}

TprofPlotArea *
_tprof_plot_frame_begin (TprofPlotFrame       *frame,
                         cairo_t              *cr,
                         double                width,
                         double                height,
                         const TprofPlotTheme *theme,
                         TprofPlotArea        *area)
{
  if (theme == NULL)
    {
      tprof_plot_theme_init_default (&frame->default_theme);
      theme = &frame->default_theme;
    }
  if (area == NULL)
    area = &frame->own_area;
  memset (area, 0, sizeof *area);

  tprof_plot_frame_init (frame, width, height, theme);
  cairo_save (cr);
  tprof_plot_frame_clear (cr, frame);
  return area;
}

double
_tprof_plot_frame_snap (const TprofPlotFrame *frame,
                        double                v)
{
  double scale = frame->theme->scale > 0 ? frame->theme->scale : 1;

  return (round (v * scale - 0.5) + 0.5) / scale;
}

double
_tprof_plot_frame_draw_titles (cairo_t              *cr,
                               const TprofPlotFrame *frame,
                               const char           *title,
                               const char           *subtitle)
{
  TprofPlotFont title_font = { frame->font * 1.3, TRUE };
  TprofPlotFont subtitle_font = { frame->font * 0.95, FALSE };
  double y = frame->pad;
  /* a narrow chart shortens its titles rather than cutting them at its edges */
  double width = frame->width - 2 * frame->pad;

  if (title != NULL && *title != '\0')
    y += _tprof_plot_text_draw_fitted (cr, &title_font, title, frame->width / 2, y, width, FALSE,
                                       frame->theme->foreground);
  if (subtitle != NULL && *subtitle != '\0')
    {
      double rgba[4];

      memcpy (rgba, frame->theme->foreground, sizeof rgba);
      rgba[3] *= 0.75;
      y += _tprof_plot_text_draw_fitted (cr, &subtitle_font, subtitle, frame->width / 2, y, width, FALSE, rgba);
    }
  return y + frame->font * 0.6;
}

void
_tprof_plot_frame_draw_message (cairo_t              *cr,
                                const TprofPlotFrame *frame,
                                double                top,
                                const char           *message)
{
  TprofPlotFont font = { frame->font * 1.2, FALSE };
  /* a long message wraps within the chart, centred in the room below @top */
  double width = frame->width - 4 * frame->font;
  double h = _tprof_plot_text_wrapped_height (cr, &font, message, width);

  _tprof_plot_text_draw_fitted (cr, &font, message, frame->width / 2, MAX (top, (top + frame->height - h) / 2),
                                width, TRUE, frame->theme->foreground);
}
