/* tprof-rank-chart.c — TprofRankChart: per-rank totals or means with hover details; a click shows the rank alone. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tprof-rank-chart.h"

struct _TprofRankChart
{
  TprofChart         parent_instance;

  char              *metric;

  TprofRankSummary  *ranks;
  gsize              n_ranks;
  /* comparing: the baseline's total and mean of each entry of ranks (NaN
   * where it has no samples); NULL: none */
  double            *baseline_sum;
  double            *baseline_mean;

  /* the straggler the bar names, when it is a host (NULL: none) */
  char              *group_name;
  int32_t           *group_ranks;
  gsize              n_group_ranks;
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

G_DEFINE_FINAL_TYPE (TprofRankChart, tprof_rank_chart, TPROF_TYPE_CHART)

static void
tprof_rank_chart_recompute (TprofChart *chart)
{
  TprofRankChart *self = TPROF_RANK_CHART (chart);
  const TprofOperationIndex *index = _tprof_chart_get_index (chart);

  const TprofOperationIndex *base_index = _tprof_chart_get_baseline_index (chart);
  g_autofree TprofRankSummary *base = NULL;
  gsize n_base = 0;

  g_clear_pointer (&self->ranks, free);
  g_clear_pointer (&self->baseline_sum, g_free);
  g_clear_pointer (&self->baseline_mean, g_free);
  self->n_ranks = 0;

  if (index != NULL)
    self->ranks = tprof_operation_index_rank_summaries (index, _tprof_chart_get_mask (chart), &self->n_ranks);
  /* runs of different worlds are not compared rank by rank */
  if (self->ranks == NULL || base_index == NULL || !_tprof_chart_get_baseline_same_world (chart))
    return;
  /* rank by rank: both runs ascending by rank */
  base = tprof_operation_index_rank_summaries (base_index, _tprof_chart_get_baseline_mask (chart), &n_base);
  if (base == NULL)
    return;
  self->baseline_sum = g_new (double, MAX (self->n_ranks, 1));
  self->baseline_mean = g_new (double, MAX (self->n_ranks, 1));
  for (gsize i = 0, j = 0; i < self->n_ranks; i++)
    {
      while (j < n_base && base[j].rank < self->ranks[i].rank)
        j++;
      self->baseline_sum[i] = j < n_base && base[j].rank == self->ranks[i].rank ? base[j].sum : NAN;
      self->baseline_mean[i] = j < n_base && base[j].rank == self->ranks[i].rank ? base[j].mean : NAN;
    }
}

static void
tprof_rank_chart_fill_plot (TprofRankChart *self,
                            TprofPlotRanks *plot)
{
  tprof_plot_ranks_init (plot);
  plot->ranks = self->ranks;
  plot->n_ranks = self->n_ranks;
  plot->metric = g_strcmp0 (self->metric, "mean") == 0 ? TPROF_PLOT_RANK_MEAN : TPROF_PLOT_RANK_TOTAL;
  plot->group_name = self->group_name;
  plot->group_ranks = self->group_ranks;
  plot->n_group_ranks = self->n_group_ranks;
  if (self->baseline_sum != NULL)
    {
      plot->baseline = plot->metric == TPROF_PLOT_RANK_MEAN ? self->baseline_mean : self->baseline_sum;
      plot->label = _tprof_chart_get_label (TPROF_CHART (self));
      plot->baseline_label = _tprof_chart_get_baseline_label (TPROF_CHART (self));
    }
}

static const char *
tprof_rank_chart_empty_message (TprofChart *chart)
{
  if (_tprof_chart_get_index (chart) == NULL)
    return _("Select an operation to see its ranks");
  if (TPROF_RANK_CHART (chart)->n_ranks == 0)
    return _("No samples on the selected ranks");
  return NULL;
}

static void
tprof_rank_chart_draw (TprofChart           *chart,
                       cairo_t              *cr,
                       double                width,
                       double                height,
                       const TprofPlotTheme *theme,
                       gssize                hover,
                       TprofPlotArea        *area)
{
  TprofPlotRanks plot;
  g_autofree char *title = NULL;

  tprof_rank_chart_fill_plot (TPROF_RANK_CHART (chart), &plot);
  plot.hover_index = hover;
  /* TRANSLATORS: chart titles; %s is the operation name */
  title = _tprof_chart_format_title (chart, plot.metric == TPROF_PLOT_RANK_MEAN ? _("Mean Time per Rank: %s")
                                                                                : _("Time per Rank: %s"));
  plot.title = title;
  tprof_plot_ranks_draw (cr, width, height, &plot, theme, area);
}

static gssize
tprof_rank_chart_hit (TprofChart          *chart,
                      const TprofPlotArea *area,
                      double               x,
                      double               y)
{
  TprofPlotRanks plot;

  tprof_rank_chart_fill_plot (TPROF_RANK_CHART (chart), &plot);
  return tprof_plot_ranks_hit (&plot, area, x, y);
}

static void
released_cb (GtkGestureClick *click,
             int              n_press,
             double           x,
             double           y,
             TprofRankChart  *self)
{
  gssize hit = _tprof_chart_hit (TPROF_CHART (self), x, y);

  if (hit >= 0)
    g_signal_emit (self, signals[RANK_CLICKED], 0, (int) self->ranks[hit].rank);
}

static char *
tprof_rank_chart_describe (TprofChart *chart,
                           gssize      index)
{
  TprofRankChart *self = TPROF_RANK_CHART (chart);
  TprofProfile *profile = _tprof_chart_get_profile (chart);
  const TprofRankSummary *rs;
  const char *host;
  g_autofree char *sum = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *std = NULL;
  g_autofree char *min = NULL;
  g_autofree char *max = NULL;
  g_autofree char *title = NULL;

  if (_tprof_chart_get_index (chart) == NULL || (gsize) index >= self->n_ranks)
    return NULL;

  rs = &self->ranks[index];
  host = _tprof_profile_get_hostname (profile, rs->rank);
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
  return g_strdup_printf (_("%s\nSamples: %zu\nTotal: %s\nMean: %s ± %s\nRange: %s – %s\nClick to show this rank alone (again: every rank)"),
                          title, rs->count, sum, mean, std, min, max);
}

static void
tprof_rank_chart_dispose (GObject *object)
{
  TprofRankChart *self = (TprofRankChart *)object;

  g_clear_pointer (&self->ranks, free);
  g_clear_pointer (&self->baseline_sum, g_free);
  g_clear_pointer (&self->baseline_mean, g_free);
  g_clear_pointer (&self->metric, g_free);
  g_clear_pointer (&self->group_name, g_free);
  g_clear_pointer (&self->group_ranks, g_free);

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
  TprofChartClass *chart_class = TPROF_CHART_CLASS (klass);

  object_class->dispose = tprof_rank_chart_dispose;
  object_class->get_property = tprof_rank_chart_get_property;
  object_class->set_property = tprof_rank_chart_set_property;

  chart_class->recompute = tprof_rank_chart_recompute;
  chart_class->empty_message = tprof_rank_chart_empty_message;
  chart_class->draw = tprof_rank_chart_draw;
  chart_class->hit = tprof_rank_chart_hit;
  chart_class->describe = tprof_rank_chart_describe;

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
  GtkGesture *click = gtk_gesture_click_new ();

  self->metric = g_strdup ("total");

  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

const TprofRankSummary *
_tprof_rank_chart_get_rank_summaries (TprofRankChart *self,
                                      gsize          *n_ranks)
{
  g_return_val_if_fail (TPROF_IS_RANK_CHART (self), NULL);
  *n_ranks = self->n_ranks;
  return self->ranks;
}

void
_tprof_rank_chart_set_straggler_group (TprofRankChart *self,
                                       const char     *name,
                                       const int32_t  *ranks,
                                       gsize           n_ranks)
{
  g_return_if_fail (TPROF_IS_RANK_CHART (self));

  g_clear_pointer (&self->group_name, g_free);
  g_clear_pointer (&self->group_ranks, g_free);
  self->n_group_ranks = 0;
  if (name != NULL && ranks != NULL && n_ranks > 0)
    {
      self->group_name = g_strdup (name);
      self->group_ranks = g_memdup2 (ranks, n_ranks * sizeof *ranks);
      self->n_group_ranks = n_ranks;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int32_t *
_tprof_rank_chart_get_marked_ranks (TprofRankChart *self,
                                    gsize          *n_marked,
                                    int32_t        *slowest)
{
  TprofPlotRanks plot;
  g_autofree gboolean *marked = NULL;
  int32_t *ranks;
  gsize top = 0;

  g_return_val_if_fail (TPROF_IS_RANK_CHART (self), NULL);
  tprof_rank_chart_fill_plot (self, &plot);
  marked = tprof_plot_ranks_find_marked (&plot, &top);
  ranks = g_new (int32_t, MAX (self->n_ranks, 1));
  *n_marked = 0;
  for (gsize i = 0; i < self->n_ranks; i++)
    if (marked[i])
      ranks[(*n_marked)++] = self->ranks[i].rank;
  *slowest = self->n_ranks > 0 ? self->ranks[top].rank : -1;
  return ranks;
}
