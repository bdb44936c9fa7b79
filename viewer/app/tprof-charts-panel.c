/* tprof-charts-panel.c — TprofChartsPanel: binds the charts and their controls to the settings, and names the operation. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-charts-panel.h"

struct _TprofChartsPanel
{
  GtkWidget           parent_instance;

  GSettings          *settings;

  /* template widgets */
  GtkLabel           *operation_label;
  TprofHistogramView *histogram;
  TprofRankChart     *rank_chart;
  TprofHeatmapView   *heatmap;
  GtkStack           *mode_option;
  GtkWidget          *mode_buttons;
  TprofTrendView     *trend;
  TprofBreakdownView *breakdown;
  TprofHostsView     *hosts;
  GtkWidget          *click_hint;
  GtkStack           *rank_stack;
  GtkSpinButton      *bins_spin;
  GtkStack           *charts_stack;
  GtkLabel           *reading_label;
  GtkProgressBar     *reading_progress;
  GtkButton          *reading_button;
  gboolean            reading;  /* the button cancels (else it reads again) */
};

enum {
  RANK_CLICKED,
  RANKS_CLICKED,
  CANCEL_READING,
  READ_AGAIN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The per-rank chart's page; the others are named after their plot kind. */
#define RANKS_PAGE "ranks"
#define HOSTS_PAGE "hosts"

G_DEFINE_FINAL_TYPE (TprofChartsPanel, tprof_charts_panel, GTK_TYPE_WIDGET)

void
_tprof_charts_panel_set_source (TprofChartsPanel      *self,
                                TprofProfile          *profile,
                                gssize                 op,
                                TprofOperationSamples *samples,
                                GBytes                *mask)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));

  _tprof_chart_set_source (TPROF_CHART (self->histogram), profile, op, samples, mask);
  _tprof_chart_set_source (TPROF_CHART (self->rank_chart), profile, op, samples, mask);
  _tprof_chart_set_source (TPROF_CHART (self->heatmap), profile, op, samples, mask);
  _tprof_chart_set_source (TPROF_CHART (self->trend), profile, op, samples, mask);
  _tprof_chart_set_source (TPROF_CHART (self->breakdown), profile, op, samples, mask);
  _tprof_chart_set_source (TPROF_CHART (self->hosts), profile, op, samples, mask);
  if (samples != NULL || op < 0)
    gtk_stack_set_visible_child_name (self->charts_stack, "charts");

  if (profile != NULL && op >= 0 && _tprof_profile_get_name (profile, (gsize) op) != NULL)
    {
      g_autofree char *name = tprof_escape_text (_tprof_profile_get_name (profile, (gsize) op));

      gtk_label_set_text (self->operation_label, name);
    }
  else
    gtk_label_set_text (self->operation_label, "");
}

void
_tprof_charts_panel_set_baseline (TprofChartsPanel      *self,
                                  TprofOperationSamples *samples,
                                  gboolean               same_world,
                                  const char            *label,
                                  const char            *baseline_label)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));

  _tprof_chart_set_baseline (TPROF_CHART (self->histogram), samples, same_world, label, baseline_label);
  _tprof_chart_set_baseline (TPROF_CHART (self->rank_chart), samples, same_world, label, baseline_label);
}

void
_tprof_charts_panel_show_reading (TprofChartsPanel *self,
                                  const char       *text)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));

  self->reading = TRUE;
  gtk_label_set_text (self->reading_label, text);
  gtk_progress_bar_set_fraction (self->reading_progress, 0.0);
  gtk_widget_set_visible (GTK_WIDGET (self->reading_progress), TRUE);
  gtk_button_set_label (self->reading_button, _("Cancel"));
  gtk_widget_set_visible (GTK_WIDGET (self->reading_button), TRUE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->reading_button), "suggested-action");
  gtk_stack_set_visible_child_name (self->charts_stack, "reading");
}

void
_tprof_charts_panel_set_reading_progress (TprofChartsPanel *self,
                                          double            fraction)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));
  gtk_progress_bar_set_fraction (self->reading_progress, fraction);
}

void
_tprof_charts_panel_show_unread (TprofChartsPanel *self,
                                 const char       *text)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));

  self->reading = FALSE;
  gtk_label_set_text (self->reading_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->reading_progress), FALSE);
  gtk_button_set_label (self->reading_button, _("Read Again"));
  gtk_widget_add_css_class (GTK_WIDGET (self->reading_button), "suggested-action");
  gtk_widget_set_visible (GTK_WIDGET (self->reading_button), TRUE);
  gtk_stack_set_visible_child_name (self->charts_stack, "reading");
}

void
_tprof_charts_panel_show_message (TprofChartsPanel *self,
                                  const char       *text)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));

  _tprof_charts_panel_show_unread (self, text);
  gtk_widget_set_visible (GTK_WIDGET (self->reading_button), FALSE);
}

const char *
_tprof_charts_panel_get_page (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return gtk_stack_get_visible_child_name (self->charts_stack);
}

const char *
_tprof_charts_panel_get_reading_text (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return gtk_label_get_text (self->reading_label);
}

GtkWidget *
_tprof_charts_panel_get_reading_button (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return GTK_WIDGET (self->reading_button);
}

static void
reading_button_cb (TprofChartsPanel *self,
                   GtkButton        *button)
{
  g_signal_emit (self, signals[self->reading ? CANCEL_READING : READ_AGAIN], 0);
}

TprofHistogramView *
_tprof_charts_panel_get_histogram (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->histogram;
}

TprofRankChart *
_tprof_charts_panel_get_rank_chart (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->rank_chart;
}

GtkSpinButton *
_tprof_charts_panel_get_bins_spin (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->bins_spin;
}

const char *
_tprof_charts_panel_get_title (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return gtk_label_get_text (self->operation_label);
}

static void
rank_clicked_cb (TprofChartsPanel *self,
                 int               rank,
                 TprofRankChart   *chart)
{
  g_signal_emit (self, signals[RANK_CLICKED], 0, rank);
}

static void
heatmap_rank_clicked_cb (TprofChartsPanel *self,
                         int               rank,
                         TprofHeatmapView *view)
{
  g_signal_emit (self, signals[RANK_CLICKED], 0, rank);
}

/* A bar or row of hosts clicked, on any chart: @ranks, @n_ranks of them. */
static void
ranks_clicked_cb (TprofChartsPanel *self,
                  gpointer          ranks,
                  guint             n_ranks,
                  GtkWidget        *chart)
{
  g_signal_emit (self, signals[RANKS_CLICKED], 0, ranks, n_ranks);
}

static int
bins_input_cb (GtkSpinButton *spin,
               double        *new_value)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  if (g_ascii_strcasecmp (text, _("Auto")) == 0)
    {
      *new_value = 0;
      return TRUE;
    }
  return FALSE;
}

static gboolean
bins_output_cb (GtkSpinButton *spin)
{
  /* 0 bins means numpy's automatic choice */
  if (gtk_spin_button_get_value_as_int (spin) != 0)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), _("Auto"));
  return TRUE;
}

static gboolean
int_to_double_mapping (GValue   *value,
                       GVariant *variant,
                       gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_int32 (variant));
  return TRUE;
}

/* "+" on Auto steps from the automatic count shown, not to 1 bin. */
static GVariant *
double_to_int_mapping (const GValue       *value,
                       const GVariantType *expected_type,
                       gpointer            user_data)
{
  TprofChartsPanel *self = user_data;
  gint32 bins = (gint32) g_value_get_double (value);
  const TprofHistogram *shown = _tprof_histogram_view_get_histogram (self->histogram);

  if (bins == 1 && g_settings_get_int (self->settings, "bins") == 0 && shown != NULL && shown->n_bins > 0)
    bins = (gint32) MIN (shown->n_bins + 1, 1000);
  return g_variant_new_int32 (bins);
}

/* rank-metric "time" shows the heat map, "trend" the trend, "breakdown"
 * the breakdown, "hosts" the per-host chart, "total" and "mean" the rank
 * chart. */
static gboolean
metric_to_page (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  const char *metric = g_variant_get_string (variant, NULL);

  /* the stack's pages are named after the plot kinds they draw */
  g_value_set_string (value, g_str_equal (metric, "time")        ? tprof_plot_kind_name (TPROF_PLOT_KIND_HEATMAP)
                             : g_str_equal (metric, "trend")     ? tprof_plot_kind_name (TPROF_PLOT_KIND_TREND)
                             : g_str_equal (metric, "breakdown") ? tprof_plot_kind_name (TPROF_PLOT_KIND_BREAKDOWN)
                             : g_str_equal (metric, "hosts")     ? HOSTS_PAGE
                                                                 : RANKS_PAGE);
  return TRUE;
}

TprofHeatmapView *
_tprof_charts_panel_get_heatmap (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->heatmap;
}

TprofChart *
_tprof_charts_panel_get_right_chart (TprofChartsPanel *self)
{
  const char *page;

  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  page = gtk_stack_get_visible_child_name (self->rank_stack);
  return TPROF_CHART (gtk_stack_get_child_by_name (self->rank_stack, page != NULL ? page : RANKS_PAGE));
}

TprofBreakdownView *
_tprof_charts_panel_get_breakdown (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->breakdown;
}

void
_tprof_charts_panel_tree_changed (TprofChartsPanel *self)
{
  g_return_if_fail (TPROF_IS_CHARTS_PANEL (self));
  _tprof_chart_recompute (TPROF_CHART (self->breakdown));
  /* the same pass finds the blame: the hosts' late counts */
  _tprof_chart_recompute (TPROF_CHART (self->hosts));
}

TprofHostsView *
_tprof_charts_panel_get_hosts (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->hosts;
}

TprofTrendView *
_tprof_charts_panel_get_trend (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->trend;
}

gboolean
_tprof_charts_panel_shows_heatmap (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->rank_stack),
                    tprof_plot_kind_name (TPROF_PLOT_KIND_HEATMAP)) == 0;
}

/* The trend has no rank to click: the hint says so only where one can.
 * Deviation colours the heat map alone, By Time sets the trend's axis. */
static void
rank_page_changed_cb (TprofChartsPanel *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->rank_stack);
  TprofPlotKind kind = TPROF_PLOT_N_KINDS;
  gboolean has_kind = tprof_plot_kind_from_name (page, &kind);

  gtk_widget_set_visible (self->click_hint, kind != TPROF_PLOT_KIND_TREND && g_strcmp0 (page, HOSTS_PAGE) != 0);
  /* the option pages are named after the kind they belong to */
  gtk_stack_set_visible_child_name (self->mode_option,
                                    has_kind && gtk_stack_get_child_by_name (self->mode_option, page) != NULL
                                    ? page : "none");
}

static void
tprof_charts_panel_dispose (GObject *object)
{
  TprofChartsPanel *self = (TprofChartsPanel *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), TPROF_TYPE_CHARTS_PANEL);
  /* the template's top box has no id, so unparent it ourselves */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tprof_charts_panel_parent_class)->dispose (object);
}

static void
tprof_charts_panel_class_init (TprofChartsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tprof_charts_panel_dispose;

  signals[RANK_CLICKED] =
    g_signal_new ("rank-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* the ranks of a host clicked (const gint32 *, their number) */
  signals[RANKS_CLICKED] =
    g_signal_new ("ranks-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);
  signals[CANCEL_READING] =
    g_signal_new ("cancel-reading", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[READ_AGAIN] =
    g_signal_new ("read-again", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (TPROF_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (TPROF_TYPE_RANK_CHART);
  g_type_ensure (TPROF_TYPE_HEATMAP_VIEW);
  g_type_ensure (TPROF_TYPE_TREND_VIEW);
  g_type_ensure (TPROF_TYPE_BREAKDOWN_VIEW);
  g_type_ensure (TPROF_TYPE_HOSTS_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tprof/Viewer/tprof-charts-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, operation_label);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, histogram);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, rank_chart);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, bins_spin);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, heatmap);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, mode_option);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, mode_buttons);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, trend);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, breakdown);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, hosts);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, click_hint);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, rank_stack);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, charts_stack);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, reading_label);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, reading_progress);
  gtk_widget_class_bind_template_child (widget_class, TprofChartsPanel, reading_button);
  gtk_widget_class_bind_template_callback (widget_class, reading_button_cb);
  gtk_widget_class_bind_template_callback (widget_class, rank_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, bins_input_cb);
  gtk_widget_class_bind_template_callback (widget_class, heatmap_rank_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, ranks_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, bins_output_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chartspanel");
}

static void
tprof_charts_panel_init (TprofChartsPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* the toggle buttons use the window's "settings" actions; the rest binds here */
  self->settings = g_settings_new (APP_ID);
  g_settings_bind (self->settings, "separate-ranks", self->histogram, "separate-ranks", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "log-x", self->histogram, "log-x", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "log-y", self->histogram, "log-y", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "bins", self->histogram, "bins", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "rank-metric", self->rank_chart, "metric", G_SETTINGS_BIND_GET);
  g_settings_bind_with_mapping (self->settings, "rank-metric", self->rank_stack, "visible-child-name",
                                G_SETTINGS_BIND_GET, metric_to_page, NULL, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "bins", self->bins_spin, "value", G_SETTINGS_BIND_DEFAULT,
                                int_to_double_mapping, double_to_int_mapping, self, NULL);
  g_settings_bind (self->settings, "heatmap-deviation", self->heatmap, "deviation", G_SETTINGS_BIND_GET);
  /* Log Time puts the heat map's durations on a log colour scale too */
  g_settings_bind (self->settings, "log-x", self->heatmap, "log", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "trend-time-axis", self->trend, "time-axis", G_SETTINGS_BIND_GET);
  g_signal_connect_swapped (self->rank_stack, "notify::visible-child-name", G_CALLBACK (rank_page_changed_cb), self);
  rank_page_changed_cb (self);
  rank_page_changed_cb (self);
}

GtkWidget *
_tprof_charts_panel_get_mode_buttons (TprofChartsPanel *self)
{
  g_return_val_if_fail (TPROF_IS_CHARTS_PANEL (self), NULL);
  return self->mode_buttons;
}
