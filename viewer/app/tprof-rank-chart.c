/* tprof-rank-chart.c — TprofRankChart: per-rank totals or means (per host when ranks outnumber pixels) with hover details; a click shows the rank or host alone. */
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
  TprofRankSummary  *base;           /* the baseline's ranks, for bars of hosts */
  gsize              n_base;

  /* the ranks gathered by host when they outnumber bars of
   * TPROF_PLOT_RANKS_MIN_BAR px, or NULL; made for room bars and metric */
  TprofPlotRankGroups *groups;
  guint              room;
  TprofPlotRankMetric groups_metric;
  double            *groups_baseline;  /* comparing: the baseline's value of each bar's host, or NULL */
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
  RANKS_CLICKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TprofRankChart, tprof_rank_chart, TPROF_TYPE_CHART)

static void
tprof_rank_chart_clear_groups (TprofRankChart *self)
{
  g_clear_pointer (&self->groups, tprof_plot_rank_groups_free);
  g_clear_pointer (&self->groups_baseline, g_free);
  self->room = 0;
}

/* Comparing: the baseline's value of each bar's host (of a run's, the
 * host shown), for a mark on each bar as on bars of ranks. */
static void
tprof_rank_chart_group_baseline (TprofRankChart      *self,
                                 const TprofTopology *topo)
{
  g_autofree TprofRankSummary *shown = NULL;

  g_clear_pointer (&self->groups_baseline, g_free);
  if (self->groups == NULL || self->baseline_sum == NULL || self->base == NULL)
    return;
  shown = g_new (TprofRankSummary, self->groups->n_bars);
  if (!tprof_topology_bar_summaries (topo, self->groups->level, self->groups->bars, self->groups->n_bars,
                                     self->base, self->n_base, shown))
    return;
  self->groups_baseline = g_new (double, self->groups->n_bars);
  for (guint b = 0; b < self->groups->n_bars; b++)
    self->groups_baseline[b] = self->groups_metric == TPROF_PLOT_RANK_MEAN ? shown[b].mean : shown[b].sum;
}

static void
tprof_rank_chart_recompute (TprofChart *chart)
{
  TprofRankChart *self = TPROF_RANK_CHART (chart);
  const TprofOperationIndex *index = _tprof_chart_get_index (chart);

  const TprofOperationIndex *base_index = _tprof_chart_get_baseline_index (chart);
  const TprofRankSummary *base;
  gsize n_base;

  g_clear_pointer (&self->ranks, free);
  g_clear_pointer (&self->baseline_sum, g_free);
  g_clear_pointer (&self->baseline_mean, g_free);
  g_clear_pointer (&self->base, free);
  self->n_base = 0;
  tprof_rank_chart_clear_groups (self);
  self->n_ranks = 0;

  if (index != NULL)
    self->ranks = tprof_operation_index_rank_summaries (index, _tprof_chart_get_mask (chart), &self->n_ranks);
  /* runs of different worlds are not compared rank by rank */
  if (self->ranks == NULL || base_index == NULL || !_tprof_chart_get_baseline_same_world (chart))
    return;
  /* rank by rank: both runs ascending by rank */
  self->base = tprof_operation_index_rank_summaries (base_index, _tprof_chart_get_baseline_mask (chart),
                                                     &self->n_base);
  if (self->base == NULL)
    return;
  base = self->base;
  n_base = self->n_base;
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

static TprofPlotRankMetric
tprof_rank_chart_metric (TprofRankChart *self)
{
  return g_strcmp0 (self->metric, "mean") == 0 ? TPROF_PLOT_RANK_MEAN : TPROF_PLOT_RANK_TOTAL;
}

static void
tprof_rank_chart_fill_plot (TprofRankChart *self,
                            TprofPlotRanks *plot)
{
  tprof_plot_ranks_init (plot);
  plot->ranks = self->ranks;
  plot->n_ranks = self->n_ranks;
  plot->metric = tprof_rank_chart_metric (self);
  plot->group_name = self->group_name;
  plot->group_ranks = self->group_ranks;
  plot->n_group_ranks = self->n_group_ranks;
  if (self->baseline_sum != NULL)
    {
      plot->baseline = plot->metric == TPROF_PLOT_RANK_MEAN ? self->baseline_mean : self->baseline_sum;
      plot->label = _tprof_chart_get_label (TPROF_CHART (self));
      plot->baseline_label = _tprof_chart_get_baseline_label (TPROF_CHART (self));
    }
  if (self->groups != NULL)
    {
      tprof_plot_ranks_use_groups (plot, self->groups);
      plot->baseline = self->groups_baseline;
    }
}

/* Bars of TPROF_PLOT_RANKS_MIN_BAR px that fit @plot's data area. */
static guint
bars_room (const TprofPlotRanks *plot,
           double                width,
           double                height,
           const TprofPlotTheme *theme)
{
  return (guint) MAX (tprof_plot_ranks_bars_width (width, height, plot, theme) / TPROF_PLOT_RANKS_MIN_BAR, 1);
}

/* More ranks than bars of TPROF_PLOT_RANKS_MIN_BAR px: a bar per host (or
 * run of hosts) instead, made again when the room or the metric changes.
 * The bars' own axis may be wider than the ranks' (sums of hosts are
 * longer numbers): then they are made again for the room left. */
static void
tprof_rank_chart_fit_bars (TprofRankChart       *self,
                           double                width,
                           double                height,
                           const TprofPlotTheme *theme)
{
  const TprofTopology *topo = _tprof_profile_get_topology (_tprof_chart_get_profile (TPROF_CHART (self)));
  TprofPlotRankMetric metric = tprof_rank_chart_metric (self);
  TprofPlotRanks plot;
  guint room;

  if (topo == NULL || self->ranks == NULL)
    return;
  tprof_plot_ranks_init (&plot);
  plot.ranks = self->ranks;
  plot.n_ranks = self->n_ranks;
  plot.metric = metric;
  room = bars_room (&plot, width, height, theme);
  if (room == self->room && metric == self->groups_metric)
    return;
  tprof_rank_chart_clear_groups (self);
  self->room = room;
  self->groups_metric = metric;
  self->groups = tprof_plot_rank_groups_new (self->ranks, self->n_ranks, topo, metric, room);
  if (self->groups == NULL)
    return;
  tprof_plot_ranks_use_groups (&plot, self->groups);
  room = bars_room (&plot, width, height, theme);
  if (room < self->groups->n_bars)
    {
      tprof_plot_rank_groups_free (self->groups);
      self->groups = tprof_plot_rank_groups_new (self->ranks, self->n_ranks, topo, metric, room);
    }
  tprof_rank_chart_group_baseline (self, topo);
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
  TprofRankChart *self = TPROF_RANK_CHART (chart);
  TprofPlotRanks plot;
  g_autofree char *title = NULL;
  gboolean hosts;

  tprof_rank_chart_fit_bars (self, width, height, theme);
  tprof_rank_chart_fill_plot (self, &plot);
  plot.hover_index = hover;
  hosts = self->groups != NULL && self->groups->level != TPROF_TOPOLOGY_RANK;
  if (hosts)
    /* TRANSLATORS: chart titles when each bar is a host; %s is the operation name */
    title = _tprof_chart_format_title (chart, plot.metric == TPROF_PLOT_RANK_MEAN ? _("Mean Time per Host: %s")
                                                                                  : _("Time per Host: %s"));
  else
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
  g_autoptr(GArray) ranks = NULL;

  if (hit < 0)
    return;
  if (self->groups == NULL)
    {
      g_signal_emit (self, signals[RANK_CLICKED], 0, (int) self->ranks[hit].rank);
      return;
    }
  ranks = _tprof_chart_bar_ranks (TPROF_CHART (self), self->groups->level, &self->groups->bars[hit]);
  g_signal_emit (self, signals[RANKS_CLICKED], 0, ranks->data, ranks->len);
}

/* A tooltip of a bar's statistics: @format takes, in this order, who the
 * bar is, the sample count, total, mean, std, min and max. */
static char *
describe_summary (const char             *format,
                  const char             *who,
                  const TprofRankSummary *rs)
{
  g_autofree char *sum = tprof_format_duration (rs->sum, 4);
  g_autofree char *mean = tprof_format_duration (rs->mean, 4);
  g_autofree char *std = tprof_format_duration (rs->std, 3);
  g_autofree char *min = tprof_format_duration (rs->min, 4);
  g_autofree char *max = tprof_format_duration (rs->max, 4);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  return g_strdup_printf (format, who, rs->count, sum, mean, std, min, max);
#pragma GCC diagnostic pop
}

/* A bar of hosts: its hosts, the one it shows and its ranks' statistics. */
static char *
describe_bar (TprofRankChart *self,
              gssize          index)
{
  const TprofGroupBar *bar;
  g_autofree char *who = NULL;

  if ((gsize) index >= self->groups->n_bars)
    return NULL;
  bar = &self->groups->bars[index];
  if (bar->first_group == bar->last_group)
    /* Translators: hovering a bar of one host: its name and how many of its ranks are shown */
    who = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %zu rank shown", "%s, %zu ranks shown",
                                        bar->ranks_shown),
                           self->groups->labels[index], bar->ranks_shown);
  else
    /* Translators: hovering a bar of several hosts (node000–031): the
     * slowest of them, whose ranks the bar shows, and their number */
    who = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: the slowest, %s, %zu rank shown",
                                        "%s: the slowest, %s, %zu ranks shown", bar->ranks_shown),
                           self->groups->labels[index], self->groups->names[index], bar->ranks_shown);
  /* Translators: the statistics of a host's ranks together shown when hovering its bar */
  return describe_summary (_("%s\nSamples: %zu\nTotal: %s\nMean: %s ± %s\nRange: %s – %s\nClick to show these ranks alone (again: the ranks shown before)"),
                           who, &bar->summary);
}

static char *
tprof_rank_chart_describe (TprofChart *chart,
                           gssize      index)
{
  TprofRankChart *self = TPROF_RANK_CHART (chart);
  TprofProfile *profile = _tprof_chart_get_profile (chart);
  const TprofRankSummary *rs;
  const char *host;
  g_autofree char *title = NULL;

  if (_tprof_chart_get_index (chart) == NULL || (gsize) index >= self->n_ranks)
    return NULL;
  if (self->groups != NULL)
    return describe_bar (self, index);

  rs = &self->ranks[index];
  host = _tprof_profile_get_hostname (profile, rs->rank);

  if (host != NULL)
    title = g_strdup_printf (_("Rank %d on %s"), rs->rank, host);
  else
    title = g_strdup_printf (_("Rank %d"), rs->rank);

  /* Translators: the statistics of one rank shown when hovering it */
  return describe_summary (_("%s\nSamples: %zu\nTotal: %s\nMean: %s ± %s\nRange: %s – %s\nClick to show this rank alone (again: the ranks shown before)"),
                           title, rs);
}

static void
tprof_rank_chart_dispose (GObject *object)
{
  TprofRankChart *self = (TprofRankChart *)object;

  g_clear_pointer (&self->ranks, free);
  g_clear_pointer (&self->baseline_sum, g_free);
  g_clear_pointer (&self->baseline_mean, g_free);
  g_clear_pointer (&self->base, free);
  tprof_rank_chart_clear_groups (self);
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
  /* a bar of hosts clicked: its shown ranks (const gint32 *, their number) */
  signals[RANKS_CLICKED] =
    g_signal_new ("ranks-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);

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
  _tprof_chart_refresh (TPROF_CHART (self));
  *n_ranks = self->n_ranks;
  return self->ranks;
}

const TprofPlotRankGroups *
_tprof_rank_chart_get_groups (TprofRankChart *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_CHART (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->groups;
}

const double *
_tprof_rank_chart_get_groups_baseline (TprofRankChart *self)
{
  g_return_val_if_fail (TPROF_IS_RANK_CHART (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->groups_baseline;
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
  GArray *ranks;
  gsize top = 0;

  g_return_val_if_fail (TPROF_IS_RANK_CHART (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  tprof_rank_chart_fill_plot (self, &plot);
  marked = tprof_plot_ranks_find_marked (&plot, &top);
  ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  /* a marked bar of hosts marks the ranks it shows */
  for (gsize i = 0; i < plot.n_ranks; i++)
    if (marked[i] && self->groups != NULL)
      {
        GArray *bar = _tprof_chart_bar_ranks (TPROF_CHART (self), self->groups->level, &self->groups->bars[i]);

        g_array_append_vals (ranks, bar->data, bar->len);
        g_array_unref (bar);
      }
    else if (marked[i])
      g_array_append_val (ranks, plot.ranks[i].rank);
  *slowest = plot.n_ranks > 0 ? plot.ranks[top].rank : -1;
  *n_marked = ranks->len;
  return (int32_t *) g_array_free (ranks, FALSE);
}
