/* tprof-plot-text.c — measuring and drawing chart text with pango, identical at every picture size. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

static PangoLayout *
create_layout (cairo_t             *cr,
               const TprofPlotFont *font,
               const char          *text)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoContext *context = pango_layout_get_context (layout);
  PangoFontDescription *desc = pango_font_description_from_string ("Sans");
  cairo_font_options_t *options = cairo_font_options_create ();

  /* Hinted metrics would snap glyph advances to whole pixels and make a
   * small picture differ from a scaled-down large one. */
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options (context, options);
  cairo_font_options_destroy (options);
  pango_layout_context_changed (layout);

  pango_font_description_set_absolute_size (desc, MAX (font->size, 1.0) * PANGO_SCALE);
  pango_font_description_set_weight (desc, font->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);

  pango_layout_set_text (layout, text, -1);
  return layout;
}

void
_tprof_plot_text_extents (cairo_t             *cr,
                          const TprofPlotFont *font,
                          const char          *text,
                          double              *width,
                          double              *height)
{
  PangoLayout *layout = create_layout (cr, font, text);
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  if (width != NULL)
    *width = (double) logical.width / PANGO_SCALE;
  if (height != NULL)
    *height = (double) logical.height / PANGO_SCALE;
  g_object_unref (layout);
}

void
_tprof_plot_text_draw (cairo_t             *cr,
                       const TprofPlotFont *font,
                       const char          *text,
                       double               x,
                       double               y,
                       double               halign,
                       double               valign,
                       gboolean             vertical,
                       const double         rgba[4])
{
  PangoLayout *layout;
  PangoRectangle logical;
  double w, h;

  cairo_save (cr);
  cairo_translate (cr, x, y);
  if (vertical)
    cairo_rotate (cr, -G_PI / 2);
  layout = create_layout (cr, font, text);
  pango_layout_get_extents (layout, NULL, &logical);
  w = (double) logical.width / PANGO_SCALE;
  h = (double) logical.height / PANGO_SCALE;
  cairo_move_to (cr, -w * halign - (double) logical.x / PANGO_SCALE, -h * valign);
  _tprof_plot_set_rgba (cr, rgba);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
  cairo_restore (cr);
}

/* Lays out @text in lines at most @width wide, wrapped at words (@wrap)
 * or shortened with an ellipsis in its middle, centred on @x from @y
 * down; returns the height drawn. */
double
_tprof_plot_text_draw_fitted (cairo_t             *cr,
                              const TprofPlotFont *font,
                              const char          *text,
                              double               x,
                              double               y,
                              double               width,
                              gboolean             wrap,
                              const double         rgba[4])
{
  PangoLayout *layout = create_layout (cr, font, text);
  PangoRectangle logical;
  double h;

  pango_layout_set_width (layout, (int) (MAX (width, 1.0) * PANGO_SCALE));
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  if (wrap)
    pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  else
    pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_get_extents (layout, NULL, &logical);
  h = (double) logical.height / PANGO_SCALE;
  cairo_save (cr);
  cairo_move_to (cr, x - MAX (width, 1.0) / 2, y);
  _tprof_plot_set_rgba (cr, rgba);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
  g_object_unref (layout);
  return h;
}

/* The height @text takes wrapped into lines at most @width wide. */
double
_tprof_plot_text_wrapped_height (cairo_t             *cr,
                                 const TprofPlotFont *font,
                                 const char          *text,
                                 double               width)
{
  PangoLayout *layout = create_layout (cr, font, text);
  PangoRectangle logical;

  pango_layout_set_width (layout, (int) (MAX (width, 1.0) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_extents (layout, NULL, &logical);
  g_object_unref (layout);
  return (double) logical.height / PANGO_SCALE;
}
