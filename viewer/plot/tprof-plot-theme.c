/* tprof-plot-theme.c — the default export theme and the rank palette. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

/* Okabe & Ito's palette, which stays distinct under every common colour
 * blindness; its black is left out because axes and text are black. */
static const guint32 palette[] = {
  0x0072B2, /* blue */
  0xE69F00, /* orange */
  0x009E73, /* bluish green */
  0xCC79A7, /* reddish purple */
  0x56B4E9, /* sky blue */
  0xD55E00, /* vermillion */
  0xF0E442, /* yellow */
  0x999999, /* grey */
};
G_STATIC_ASSERT (G_N_ELEMENTS (palette) == TPROF_PLOT_PALETTE_SIZE);

void
tprof_plot_palette_color (guint   i,
                          double  rgb[3])
{
  guint32 c = palette[i % G_N_ELEMENTS (palette)];

  rgb[0] = ((c >> 16) & 0xff) / 255.0;
  rgb[1] = ((c >> 8) & 0xff) / 255.0;
  rgb[2] = (c & 0xff) / 255.0;
}

static void
set_rgba (double dst[4], double r, double g, double b, double a)
{
  dst[0] = r;
  dst[1] = g;
  dst[2] = b;
  dst[3] = a;
}

void
tprof_plot_theme_init_default (TprofPlotTheme *theme)
{
  g_return_if_fail (theme != NULL);

  set_rgba (theme->foreground, 0.13, 0.13, 0.13, 1.0);
  set_rgba (theme->background, 1.0, 1.0, 1.0, 1.0);
  set_rgba (theme->grid, 0.0, 0.0, 0.0, 0.12);
  /* vermillion: apart from the blue bars for every colour vision */
  set_rgba (theme->highlight, 0xD5 / 255.0, 0x5E / 255.0, 0.0, 1.0);
  theme->font_size = 0;
  theme->scale = 1;
}

void
_tprof_plot_set_rgba (cairo_t      *cr,
                      const double  rgba[4])
{
  cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], rgba[3]);
}
