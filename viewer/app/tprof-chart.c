/* tprof-chart.c — TprofChart: what every chart widget does alike: its source, hover, tooltip, snapshot and export. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tprof-chart.h"

typedef struct
{
  TprofProfile  *profile;   /* NULL: nothing to show */
  gssize         op;        /* -1: no operation selected */
  TprofOperationSamples *samples;  /* NULL: not read */
  TprofOperationSamples *baseline; /* comparing: the baseline's; NULL: none */
  gboolean       baseline_same_world;
  char          *label;
  char          *baseline_label;
  GBytes        *mask;      /* NULL: every rank */

  gssize         hover;
  TprofPlotArea  area;      /* of the last snapshot, for hit-testing */
  gboolean       have_area;
  /* what is shown changed while the chart was not on screen: recomputed
   * when it is mapped or read, so that a filter change at 10^5 ranks
   * computes only the charts in view */
  gboolean       stale;
} TprofChartPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TprofChart, tprof_chart, GTK_TYPE_WIDGET)

/* Colours and font from the widget's style, so charts follow the GTK theme. */
static void
tprof_chart_theme_from_widget (GtkWidget      *widget,
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

/* The message in lines no wider than the chart, less a margin each side. */
PangoLayout *
_tprof_chart_create_message_layout (TprofChart *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const char *message = TPROF_CHART_GET_CLASS (self)->empty_message (self);
  PangoLayout *layout;

  if (message == NULL)
    return NULL;
  layout = gtk_widget_create_pango_layout (widget, message);
  pango_layout_set_width (layout, MAX (gtk_widget_get_width (widget) - 24, 1) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  return layout;
}

static void
tprof_chart_snapshot_message (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  g_autoptr(PangoLayout) layout = _tprof_chart_create_message_layout (TPROF_CHART (widget));
  GdkRGBA fg;
  int lw;
  int lh;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  fg.alpha *= 0.55;
  pango_layout_get_pixel_size (layout, NULL, &lh);
  /* the layout centres its lines in its set width */
  lw = pango_layout_get_width (layout) / PANGO_SCALE;

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT ((gtk_widget_get_width (widget) - lw) / 2.0f,
                                                (gtk_widget_get_height (widget) - lh) / 2.0f));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

static void
tprof_chart_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TprofChart *self = TPROF_CHART (widget);
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);
  const char *message = TPROF_CHART_GET_CLASS (self)->empty_message (self);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  TprofPlotTheme theme;
  cairo_t *cr;

  if (message != NULL)
    {
      tprof_chart_snapshot_message (widget, snapshot);
      return;
    }
  if (width <= 0 || height <= 0)
    return;

  tprof_chart_theme_from_widget (widget, &theme);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  TPROF_CHART_GET_CLASS (self)->draw (self, cr, width, height, &theme, priv->hover, &priv->area);
  priv->have_area = TRUE;
  cairo_destroy (cr);
}

gssize
_tprof_chart_hit (TprofChart *self,
                  double      x,
                  double      y)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  g_return_val_if_fail (TPROF_IS_CHART (self), -1);

  if (!priv->have_area || TPROF_CHART_GET_CLASS (self)->hit == NULL
      || TPROF_CHART_GET_CLASS (self)->empty_message (self) != NULL)
    return -1;
  return TPROF_CHART_GET_CLASS (self)->hit (self, &priv->area, x, y);
}

static void
tprof_chart_set_hover (TprofChart *self,
                       gssize      hover)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  if (priv->hover == hover)
    return;
  priv->hover = hover;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TprofChart               *self)
{
  tprof_chart_set_hover (self, _tprof_chart_hit (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          TprofChart               *self)
{
  tprof_chart_set_hover (self, -1);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  TprofChart *self)
{
  g_autofree char *text = _tprof_chart_describe (self, _tprof_chart_hit (self, x, y));

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

char *
_tprof_chart_to_csv (TprofChart  *self,
                     GError     **error)
{
  g_return_val_if_fail (TPROF_IS_CHART (self), NULL);
  _tprof_chart_refresh (self);
  if (TPROF_CHART_GET_CLASS (self)->to_csv == NULL)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_FORMAT,
                           _("This chart exports as a picture only: PNG, SVG or PDF"));
      return NULL;
    }
  return TPROF_CHART_GET_CLASS (self)->to_csv (self, error);
}

gboolean
_tprof_chart_get_area (TprofChart    *self,
                       TprofPlotArea *area)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  g_return_val_if_fail (TPROF_IS_CHART (self), FALSE);
  if (priv->have_area)
    *area = priv->area;
  return priv->have_area;
}

char *
_tprof_chart_describe (TprofChart *self,
                       gssize      index)
{
  g_return_val_if_fail (TPROF_IS_CHART (self), NULL);

  if (index < 0 || TPROF_CHART_GET_CLASS (self)->describe == NULL)
    return NULL;
  _tprof_chart_refresh (self);
  return TPROF_CHART_GET_CLASS (self)->describe (self, index);
}

void
_tprof_chart_draw (TprofChart           *self,
                   cairo_t              *cr,
                   double                width,
                   double                height,
                   const TprofPlotTheme *theme)
{
  TprofPlotTheme export_theme;
  TprofPlotArea area;

  g_return_if_fail (TPROF_IS_CHART (self));

  if (theme == NULL)
    {
      tprof_plot_theme_init_default (&export_theme);
      theme = &export_theme;
    }
  _tprof_chart_refresh (self);
  TPROF_CHART_GET_CLASS (self)->draw (self, cr, width, height, theme, -1, &area);
}

void
_tprof_chart_recompute (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  g_return_if_fail (TPROF_IS_CHART (self));

  priv->hover = -1;
  priv->have_area = FALSE;
  priv->stale = TRUE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    _tprof_chart_refresh (self);
}

void
_tprof_chart_refresh (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  g_return_if_fail (TPROF_IS_CHART (self));

  if (!priv->stale)
    return;
  priv->stale = FALSE;
  TPROF_CHART_GET_CLASS (self)->recompute (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tprof_chart_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tprof_chart_parent_class)->map (widget);
  _tprof_chart_refresh (TPROF_CHART (widget));
}

void
_tprof_chart_set_source (TprofChart            *self,
                         TprofProfile          *profile,
                         gssize                 op,
                         TprofOperationSamples *samples,
                         GBytes                *mask)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);
  gboolean same_mask;

  g_return_if_fail (TPROF_IS_CHART (self));

  same_mask = (priv->mask == NULL && mask == NULL) ||
              (priv->mask != NULL && mask != NULL && g_bytes_equal (priv->mask, mask));
  if (priv->profile == profile && priv->op == op && priv->samples == samples && same_mask)
    return;

  g_set_object (&priv->profile, profile);
  priv->op = op;
  g_clear_pointer (&priv->samples, _tprof_operation_samples_unref);
  if (samples != NULL)
    priv->samples = _tprof_operation_samples_ref (samples);
  g_clear_pointer (&priv->mask, g_bytes_unref);
  if (mask != NULL)
    priv->mask = g_bytes_ref (mask);
  _tprof_chart_recompute (self);
}

void
_tprof_chart_set_baseline (TprofChart            *self,
                           TprofOperationSamples *samples,
                           gboolean               same_world,
                           const char            *label,
                           const char            *baseline_label)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  g_return_if_fail (TPROF_IS_CHART (self));

  if (priv->baseline == samples && priv->baseline_same_world == same_world
      && g_strcmp0 (priv->label, label) == 0 && g_strcmp0 (priv->baseline_label, baseline_label) == 0)
    return;
  g_clear_pointer (&priv->baseline, _tprof_operation_samples_unref);
  if (samples != NULL)
    priv->baseline = _tprof_operation_samples_ref (samples);
  priv->baseline_same_world = same_world;
  g_free (priv->label);
  priv->label = g_strdup (label);
  g_free (priv->baseline_label);
  priv->baseline_label = g_strdup (baseline_label);
  _tprof_chart_recompute (self);
}

const TprofOperationIndex *
_tprof_chart_get_baseline_index (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->baseline != NULL ? _tprof_operation_samples_get_index (priv->baseline) : NULL;
}

const guint8 *
_tprof_chart_get_baseline_mask (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->baseline_same_world && priv->mask != NULL ? g_bytes_get_data (priv->mask, NULL) : NULL;
}

double *
_tprof_chart_dup_heat_cells (TprofChart *self,
                             gboolean    deviation)
{
  const TprofProfileHeat *heat = _tprof_chart_get_heat (self);
  const guint8 *mask = _tprof_chart_get_mask (self);
  double *cells;

  if (heat == NULL)
    return NULL;
  cells = g_memdup2 (deviation ? heat->deviation : heat->cells, (gsize) heat->n_rows * heat->n_cols * sizeof (double));
  for (guint i = 0; mask != NULL && i < heat->n_rows; i++)
    if (!mask[heat->first_rank + i])
      for (guint j = 0; j < heat->n_cols; j++)
        cells[(gsize) i * heat->n_cols + j] = NAN;
  return cells;
}

gboolean
_tprof_chart_get_baseline_same_world (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->baseline_same_world;
}

const char *
_tprof_chart_get_label (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->label;
}

const char *
_tprof_chart_get_baseline_label (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->baseline_label;
}

TprofProfile *
_tprof_chart_get_profile (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->profile;
}

const TprofOperationIndex *
_tprof_chart_get_index (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->samples != NULL ? _tprof_operation_samples_get_index (priv->samples) : NULL;
}

TprofOperationSamples *
_tprof_chart_get_samples (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->samples;
}

const TprofProfileHeat *
_tprof_chart_get_heat (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->samples != NULL ? _tprof_operation_samples_get_heat (priv->samples) : NULL;
}

char *
_tprof_chart_format_title (TprofChart *self,
                           const char *format)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);
  g_autofree char *name = NULL;

  if (priv->profile == NULL || priv->op < 0)
    return NULL;
  name = tprof_escape_text (_tprof_profile_get_name (priv->profile, (gsize) priv->op));
  return g_strdup_printf (format, name);
}

gssize
_tprof_chart_get_op (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->op;
}

const guint8 *
_tprof_chart_get_mask (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  return priv->mask != NULL ? g_bytes_get_data (priv->mask, NULL) : NULL;
}

GArray *
_tprof_chart_bar_ranks (TprofChart          *self,
                        gsize                level,
                        const TprofGroupBar *bar)
{
  const TprofTopology *topo = _tprof_profile_get_topology (_tprof_chart_get_profile (self));
  const guint8 *mask = _tprof_chart_get_mask (self);
  GArray *ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (gsize g = bar->first_group; topo != NULL && g <= bar->last_group; g++)
    {
      gsize n;
      const gint32 *group = tprof_topology_group_ranks (topo, level, g, &n);

      for (gsize i = 0; i < n; i++)
        if (mask == NULL || mask[group[i]])
          g_array_append_val (ranks, group[i]);
    }
  return ranks;
}

static void
tprof_chart_dispose (GObject *object)
{
  TprofChart *self = TPROF_CHART (object);
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);

  g_clear_object (&priv->profile);
  g_clear_pointer (&priv->samples, _tprof_operation_samples_unref);
  g_clear_pointer (&priv->baseline, _tprof_operation_samples_unref);
  g_clear_pointer (&priv->label, g_free);
  g_clear_pointer (&priv->baseline_label, g_free);
  g_clear_pointer (&priv->mask, g_bytes_unref);
  priv->op = -1;

  G_OBJECT_CLASS (tprof_chart_parent_class)->dispose (object);
}

static void
tprof_chart_class_init (TprofChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tprof_chart_dispose;
  widget_class->snapshot = tprof_chart_snapshot;
  widget_class->map = tprof_chart_map;
}

static void
tprof_chart_init (TprofChart *self)
{
  TprofChartPrivate *priv = tprof_chart_get_instance_private (self);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  priv->op = -1;
  priv->hover = -1;

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}
