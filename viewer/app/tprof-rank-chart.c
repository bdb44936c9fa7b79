/* tprof-rank-chart.c — TprofRankChart: per-rank totals or means with hover details; a click toggles the rank. */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-chart-util.h"
#include "tprof-rank-chart.h"

struct _TprofRankChart
{
  GtkWidget          parent_instance;

  TprofChartSource   source;
  char              *metric;

  TprofRankSummary  *ranks;
  gsize              n_ranks;
  gssize             hover_index;
  TprofPlotArea      area;
  gboolean           have_area;
};

enum {
  PROP_0,
  PROP_METRIC,
  N_PROPS
};

enum {
  RANK_CLICKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TprofRankChart, tprof_rank_chart, GTK_TYPE_WIDGET)

static void
tprof_rank_chart_recompute (TprofRankChart *self)
{
  const TprofProfileIndex *index = _tprof_chart_source_get_index (&self->source);

  g_clear_pointer (&self->ranks, g_free);
  self->n_ranks = 0;
  self->hover_index = -1;
  self->have_area = FALSE;

  if (index != NULL)
    self->n_ranks = _tprof_profile_index_rank_summaries (index, self->source.op,
                                                         _tprof_chart_source_get_mask (&self->source),
                                                         &self->ranks);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tprof_rank_chart_fill_plot (TprofRankChart *self,
                            TprofPlotRanks *plot)
{
  tprof_plot_ranks_init (plot);
  plot->ranks = self->ranks;
  plot->n_ranks = self->n_ranks;
  plot->metric = g_strcmp0 (self->metric, "mean") == 0 ? TPROF_PLOT_RANK_MEAN : TPROF_PLOT_RANK_TOTAL;
  plot->hover_index = -1;
}

void
_tprof_rank_chart_draw (TprofRankChart       *self,
                        cairo_t              *cr,
                        double                width,
                        double                height,
                        const TprofPlotTheme *theme)
{
  TprofPlotRanks plot;
  TprofPlotTheme export_theme;

  g_return_if_fail (TPROF_IS_RANK_CHART (self));

  if (theme == NULL)
    {
      tprof_plot_theme_init_default (&export_theme);
      theme = &export_theme;
    }
  tprof_rank_chart_fill_plot (self, &plot);
  tprof_plot_ranks_draw (cr, width, height, &plot, theme, NULL);
}

static void
tprof_rank_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  TprofRankChart *self = TPROF_RANK_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  TprofPlotRanks plot;
  TprofPlotTheme theme;
  cairo_t *cr;

  if (_tprof_chart_source_get_index (&self->source) == NULL)
    {
      _tprof_chart_snapshot_message (widget, snapshot, _("Select an operation to see its ranks"));
      return;
    }
  if (self->n_ranks == 0)
    {
      _tprof_chart_snapshot_message (widget, snapshot, _("No samples on the selected ranks"));
      return;
    }
  if (width <= 0 || height <= 0)
    return;

  _tprof_chart_theme_from_widget (widget, &theme);
  tprof_rank_chart_fill_plot (self, &plot);
  plot.hover_index = self->hover_index;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  tprof_plot_ranks_draw (cr, width, height, &plot, &theme, &self->area);
  self->have_area = TRUE;
  cairo_destroy (cr);
}

static gssize
tprof_rank_chart_hit (TprofRankChart *self,
                      double          x,
                      double          y)
{
  TprofPlotRanks plot;

  if (self->n_ranks == 0 || !self->have_area)
    return -1;
  tprof_rank_chart_fill_plot (self, &plot);
  return tprof_plot_ranks_hit (&plot, &self->area, x, y);
}

static void
tprof_rank_chart_set_hover (TprofRankChart *self,
                            gssize          index)
{
  if (self->hover_index == index)
    return;
  self->hover_index = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TprofRankChart           *self)
{
  tprof_rank_chart_set_hover (self, tprof_rank_chart_hit (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          TprofRankChart           *self)
{
  tprof_rank_chart_set_hover (self, -1);
}

static void
released_cb (GtkGestureClick *click,
             int              n_press,
             double           x,
             double           y,
             TprofRankChart  *self)
{
  gssize hit = tprof_rank_chart_hit (self, x, y);

  if (hit >= 0)
    g_signal_emit (self, signals[RANK_CLICKED], 0, (int) self->ranks[hit].rank);
}

char *
_tprof_rank_chart_describe_rank (TprofRankChart *self,
                                 gssize          index)
{
  const TprofProfileIndex *profile_index = _tprof_chart_source_get_index (&self->source);
  const TprofRankSummary *rs;
  const char *host;
  g_autofree char *sum = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *std = NULL;
  g_autofree char *min = NULL;
  g_autofree char *max = NULL;
  g_autofree char *title = NULL;

  if (profile_index == NULL || index < 0 || (gsize) index >= self->n_ranks)
    return NULL;

  rs = &self->ranks[index];
  host = _tprof_profile_index_get_hostname (profile_index, rs->rank);
  sum = tprof_format_duration (rs->sum, 4);
  mean = tprof_format_duration (rs->mean, 4);
  std = tprof_format_duration (rs->std, 3);
  min = tprof_format_duration (rs->min, 4);
  max = tprof_format_duration (rs->max, 4);

  if (host != NULL)
    title = g_strdup_printf (_("Rank %d on %s"), rs->rank, host);
  else
    title = g_strdup_printf (_("Rank %d"), rs->rank);

  /* Translators: the statistics of one rank shown when hovering it */
  return g_strdup_printf (_("%s\nSamples: %zu\nTotal: %s\nMean: %s ± %s\nRange: %s – %s\nClick to toggle this rank in the filter"),
                          title, rs->count, sum, mean, std, min, max);
}

static gboolean
query_tooltip_cb (GtkWidget      *widget,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  TprofRankChart *self)
{
  g_autofree char *text = _tprof_rank_chart_describe_rank (self, tprof_rank_chart_hit (self, x, y));

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
tprof_rank_chart_dispose (GObject *object)
{
  TprofRankChart *self = (TprofRankChart *)object;

  _tprof_chart_source_clear (&self->source);
  g_clear_pointer (&self->ranks, g_free);
  g_clear_pointer (&self->metric, g_free);

  G_OBJECT_CLASS (tprof_rank_chart_parent_class)->dispose (object);
}

static void
tprof_rank_chart_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TprofRankChart *self = TPROF_RANK_CHART (object);

  switch (prop_id)
    {
    case PROP_METRIC:
      g_value_set_string (value, self->metric);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_rank_chart_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TprofRankChart *self = TPROF_RANK_CHART (object);

  switch (prop_id)
    {
    case PROP_METRIC:
      g_free (self->metric);
      self->metric = g_value_dup_string (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_rank_chart_class_init (TprofRankChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tprof_rank_chart_dispose;
  object_class->get_property = tprof_rank_chart_get_property;
  object_class->set_property = tprof_rank_chart_set_property;

  widget_class->snapshot = tprof_rank_chart_snapshot;

  /* "total" or "mean", as the rank-metric setting */
  properties[PROP_METRIC] =
    g_param_spec_string ("metric", NULL, NULL, "total",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[RANK_CLICKED] =
    g_signal_new ("rank-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_css_name (widget_class, "rankchart");
}

static void
tprof_rank_chart_init (TprofRankChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->source.op = -1;
  self->hover_index = -1;
  self->metric = g_strdup ("total");

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}

GtkWidget *
_tprof_rank_chart_new (void)
{
  return g_object_new (TPROF_TYPE_RANK_CHART, NULL);
}

void
_tprof_rank_chart_set_source (TprofRankChart *self,
                              TprofProfile   *profile,
                              gssize          op,
                              GBytes         *mask)
{
  g_return_if_fail (TPROF_IS_RANK_CHART (self));

  if (_tprof_chart_source_set (&self->source, profile, op, mask))
    tprof_rank_chart_recompute (self);
}

const TprofRankSummary *
_tprof_rank_chart_get_rank_summaries (TprofRankChart *self,
                                      gsize          *n_ranks)
{
  g_return_val_if_fail (TPROF_IS_RANK_CHART (self), NULL);
  *n_ranks = self->n_ranks;
  return self->ranks;
}
