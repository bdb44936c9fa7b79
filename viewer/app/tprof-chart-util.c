/* tprof-chart-util.c — theme colours, empty-state text and the shown selection, shared by the chart widgets. */

#include "config.h"

#include "tprof-chart-util.h"

void
_tprof_chart_theme_from_widget (GtkWidget      *widget,
                                TprofPlotTheme *theme)
{
  const PangoFontDescription *font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
  GdkRGBA fg;

  tprof_plot_theme_init_default (theme);

  /* charts read best a little smaller than the desktop font */
  if (font != NULL && !pango_font_description_get_size_is_absolute (font))
    theme->font_size = 0.9 * pango_font_description_get_size (font) / PANGO_SCALE;
  else
    theme->font_size = 9.0;

  /* gtk_widget_get_color() is 4.10; the style context still works in 4.8 */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);

  theme->foreground[0] = fg.red;
  theme->foreground[1] = fg.green;
  theme->foreground[2] = fg.blue;
  theme->foreground[3] = fg.alpha;
  theme->background[3] = 0.0;
  theme->grid[0] = fg.red;
  theme->grid[1] = fg.green;
  theme->grid[2] = fg.blue;
  theme->grid[3] = 0.12 * fg.alpha;
  theme->scale = gtk_widget_get_scale_factor (widget);
}

void
_tprof_chart_snapshot_message (GtkWidget   *widget,
                               GtkSnapshot *snapshot,
                               const char  *message)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, message);
  GdkRGBA fg;
  int lw;
  int lh;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  fg.alpha *= 0.55;
  pango_layout_get_pixel_size (layout, &lw, &lh);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT ((gtk_widget_get_width (widget) - lw) / 2.0f,
                                                (gtk_widget_get_height (widget) - lh) / 2.0f));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

gboolean
_tprof_chart_source_set (TprofChartSource *source,
                         TprofProfile     *profile,
                         gssize            op,
                         GBytes           *mask)
{
  gboolean same_mask = (source->mask == NULL && mask == NULL) ||
                       (source->mask != NULL && mask != NULL && g_bytes_equal (source->mask, mask));

  if (source->profile == profile && source->op == op && same_mask)
    return FALSE;

  g_set_object (&source->profile, profile);
  source->op = op;
  g_clear_pointer (&source->mask, g_bytes_unref);
  if (mask != NULL)
    source->mask = g_bytes_ref (mask);
  return TRUE;
}

void
_tprof_chart_source_clear (TprofChartSource *source)
{
  g_clear_object (&source->profile);
  g_clear_pointer (&source->mask, g_bytes_unref);
  source->op = -1;
}

const TprofProfileIndex *
_tprof_chart_source_get_index (const TprofChartSource *source)
{
  const TprofProfileIndex *index;

  if (source->profile == NULL || source->op < 0)
    return NULL;
  index = _tprof_profile_get_index (source->profile);
  if (index == NULL || (gsize) source->op >= _tprof_profile_index_get_n_operations (index))
    return NULL;
  return index;
}

const guint8 *
_tprof_chart_source_get_mask (const TprofChartSource *source)
{
  return source->mask != NULL ? g_bytes_get_data (source->mask, NULL) : NULL;
}
