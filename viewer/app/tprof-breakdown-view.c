/* tprof-breakdown-view.c — TprofBreakdownView: the selected operation's time on each rank shown, split into the operations inside it and its self time, from the profile's tree and cached per-rank totals. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <errno.h>
#include <string.h>

#include "tprof-breakdown-view.h"

struct _TprofBreakdownView
{
  TprofChart          parent_instance;

  gboolean            drawn;        /* plot holds something to draw */
  TprofPlotBreakdown  plot;         /* over matrix and part_names */
  TprofBreakdown     *matrix;       /* the engine's, NULL: none */
  GPtrArray          *part_names;   /* char * */
  char               *subtitle;
  char               *message;      /* why nothing is drawn, or NULL */
  /* more ranks than bars of TPROF_PLOT_RANKS_MIN_BAR px: bars of hosts,
   * made for @room bars */
  TprofPlotBreakdownGroups *groups;
  guint               room;
};

enum {
  RANK_CLICKED,
  RANKS_CLICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TprofBreakdownView, tprof_breakdown_view, TPROF_TYPE_CHART)

static void
breakdown_clear (TprofBreakdownView *self)
{
  self->drawn = FALSE;
  self->plot = (TprofPlotBreakdown) { 0 };
  g_clear_pointer (&self->groups, tprof_plot_breakdown_groups_free);
  self->room = 0;
  g_clear_pointer (&self->matrix, tprof_breakdown_free);
  g_ptr_array_set_size (self->part_names, 0);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->message, g_free);
}

/* The engine's breakdown of @op on the ranks of @mask, from the tree and
 * the cached per-rank totals; NULL when memory is exhausted. */
static TprofBreakdown *
breakdown_compute (TprofProfile *profile,
                   gsize         op,
                   const guint8 *mask)
{
  gsize n_ops = _tprof_profile_get_n_operations (profile);
  g_autofree gint64 *parents = g_new (gint64, n_ops);
  g_autofree const gint64 **counts = g_new (const gint64 *, n_ops);
  g_autofree const double **sums = g_new (const double *, n_ops);

  for (gsize i = 0; i < n_ops; i++)
    {
      const TprofOperationStats *stats = _tprof_profile_get_stats (profile, i);

      parents[i] = _tprof_profile_get_parent (profile, i);
      counts[i] = (const gint64 *) stats->rank_count;
      sums[i] = stats->rank_sum;
    }
  return tprof_breakdown_new (op, n_ops, (const int64_t *) parents, (const int64_t *const *) counts,
                              (const double *const *) sums, _tprof_profile_get_rank_self_sums (profile, op),
                              mask, (size_t) _tprof_profile_get_world_size (profile));
}

/* Why @op of @profile has no breakdown (a new string), or NULL. */
static char *
breakdown_unavailable (TprofProfile         *profile,
                       gssize                op,
                       const TprofBreakdown *matrix)
{
  g_autofree char *name = NULL;

  if (op < 0 || profile == NULL)
    return g_strdup (_("Select an operation to see its breakdown"));
  if (!_tprof_profile_has_tree (profile))
    {
      if (_tprof_profile_is_building_tree (profile))
        return g_strdup (_("Finding which operations run inside which: every operation is read once…"));
      return g_strdup (_("This profile has no operation tree: it was saved without start times, or is too large "
                         "to nest"));
    }
  if (matrix == NULL)
    return g_strdup (g_strerror (ENOMEM));
  if (matrix->n_parts > 1)
    return NULL;
  name = tprof_escape_text (_tprof_profile_get_name (profile, (gsize) op));
  /* Translators: %s is an operation's name */
  return g_strdup_printf (_("No operation runs inside %s: there is nothing to break down"), name);
}

static void
tprof_breakdown_view_recompute (TprofChart *chart)
{
  TprofBreakdownView *self = TPROF_BREAKDOWN_VIEW (chart);
  TprofProfile *profile = _tprof_chart_get_profile (chart);
  gssize op = _tprof_chart_get_op (chart);

  breakdown_clear (self);
  if (profile != NULL && op >= 0 && _tprof_profile_has_tree (profile))
    self->matrix = breakdown_compute (profile, (gsize) op, _tprof_chart_get_mask (chart));
  self->message = breakdown_unavailable (profile, op, self->matrix);
  if (self->message != NULL)
    return;

  for (gsize c = 0; c + 1 < self->matrix->n_parts; c++)
    g_ptr_array_add (self->part_names, g_strdup (_tprof_profile_get_name (profile, self->matrix->children[c])));
  /* Translators: the part of an operation's time spent outside the operations inside it; %s is its name */
  g_ptr_array_add (self->part_names, g_strdup_printf (_("%s (self)"), _tprof_profile_get_name (profile, (gsize) op)));

  self->plot.ranks = self->matrix->ranks;
  self->plot.n_ranks = (guint) self->matrix->n_ranks;
  self->plot.part_names = (const char *const *) self->part_names->pdata;
  self->plot.n_parts = self->part_names->len;
  self->plot.values = self->matrix->values;
  self->subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Each rank's time by the operations inside; %u rank",
                                                 "Each rank's time by the operations inside; %u ranks",
                                                 self->plot.n_ranks),
                                    self->plot.n_ranks);
  self->plot.subtitle = self->subtitle;
  self->drawn = TRUE;
}

static const char *
tprof_breakdown_view_empty_message (TprofChart *chart)
{
  return TPROF_BREAKDOWN_VIEW (chart)->message;
}

/* The plot as drawn: bars of hosts when there are. */
static TprofPlotBreakdown
shown_plot (TprofBreakdownView *self)
{
  TprofPlotBreakdown plot = self->plot;

  if (self->groups != NULL)
    tprof_plot_breakdown_use_groups (&plot, self->groups);
  return plot;
}

/* More ranks than bars of TPROF_PLOT_RANKS_MIN_BAR px: a bar per host (or
 * run of hosts), as on the rank chart, made again when the room changes. */
static void
fit_bars (TprofBreakdownView   *self,
          double                width,
          double                height,
          const TprofPlotTheme *theme)
{
  const TprofTopology *topo = _tprof_profile_get_topology (_tprof_chart_get_profile (TPROF_CHART (self)));
  guint room;

  if (topo == NULL)
    return;
  room = (guint) MAX (tprof_plot_breakdown_bars_width (width, height, &self->plot, theme)
                      / TPROF_PLOT_RANKS_MIN_BAR, 1);
  if (room == self->room)
    return;
  self->room = room;
  g_clear_pointer (&self->groups, tprof_plot_breakdown_groups_free);
  self->groups = tprof_plot_breakdown_groups_new (self->matrix, topo, room);
}

static void
tprof_breakdown_view_draw (TprofChart           *chart,
                           cairo_t              *cr,
                           double                width,
                           double                height,
                           const TprofPlotTheme *theme,
                           gssize                hover,
                           TprofPlotArea        *area)
{
  TprofBreakdownView *self = TPROF_BREAKDOWN_VIEW (chart);
  TprofPlotBreakdown plot;
  g_autofree char *title = NULL;

  if (!self->drawn)
    return;
  fit_bars (self, width, height, theme);
  plot = shown_plot (self);
  title = self->groups != NULL
          /* TRANSLATORS: the chart title when its bars are hosts; %s is the operation name */
          ? _tprof_chart_format_title (chart, _("Breakdown per Host: %s"))
          /* TRANSLATORS: the chart title; %s is the operation name */
          : _tprof_chart_format_title (chart, _("Breakdown per Rank: %s"));
  plot.title = title;
  tprof_plot_breakdown_draw (cr, width, height, &plot, theme, area);
}

static gssize
tprof_breakdown_view_hit (TprofChart          *chart,
                          const TprofPlotArea *area,
                          double               x,
                          double               y)
{
  TprofBreakdownView *self = TPROF_BREAKDOWN_VIEW (chart);
  TprofPlotBreakdown plot = shown_plot (self);

  return self->drawn ? tprof_plot_breakdown_hit (&plot, area, x, y) : -1;
}

/* Who bar @j of hosts is: its host, or its hosts and the one shown, and
 * the ranks shown (the rank chart's words). */
static char *
describe_bar (const TprofPlotBreakdownGroups *groups,
              gsize                           j)
{
  const TprofGroupBar *bar = &groups->bars[j];

  if (bar->first_group == bar->last_group)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %zu rank shown", "%s, %zu ranks shown",
                                         bar->ranks_shown),
                            groups->labels[j], bar->ranks_shown);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: the slowest, %s, %zu rank shown",
                                       "%s: the slowest, %s, %zu ranks shown", bar->ranks_shown),
                          groups->labels[j], groups->names[j], bar->ranks_shown);
}

/* Hovering a part: the rank (and its host), the part and its time. */
static char *
tprof_breakdown_view_describe (TprofChart *chart,
                               gssize      index)
{
  TprofBreakdownView *self = TPROF_BREAKDOWN_VIEW (chart);
  TprofPlotBreakdown plot = shown_plot (self);
  g_autofree char *who = NULL;
  g_autofree char *part = NULL;
  g_autofree char *time = NULL;
  const char *host;
  gint32 rank;

  if (!self->drawn || index < 0 || (gsize) index >= (gsize) plot.n_parts * plot.n_ranks)
    return NULL;
  rank = plot.ranks[index % plot.n_ranks];
  host = _tprof_profile_get_hostname (_tprof_chart_get_profile (chart), rank);
  if (self->groups != NULL)
    who = describe_bar (self->groups, (gsize) (index % plot.n_ranks));
  else
    who = host != NULL ? g_strdup_printf (_("Rank %d on %s"), rank, host) : g_strdup_printf (_("Rank %d"), rank);
  part = tprof_escape_text (plot.part_names[index / plot.n_ranks]);
  time = tprof_format_duration (plot.values[index], 4);
  /* Translators: hovering a part of a rank's bar in the breakdown: the rank, the part, its time */
  return g_strdup_printf (_("%s\n%s: %s"), who, part, time);
}

/* A click on a bar shows its rank alone, or a bar of hosts their ranks,
 * as on the rank chart. */
static void
released_cb (GtkGestureClick    *click,
             int                 n_press,
             double              x,
             double              y,
             TprofBreakdownView *self)
{
  gssize hit = _tprof_chart_hit (TPROF_CHART (self), x, y);

  if (hit < 0 || !self->drawn)
    return;
  if (self->groups != NULL)
    {
      g_autoptr(GArray) ranks = _tprof_chart_bar_ranks (TPROF_CHART (self), self->groups->level,
                                                        &self->groups->bars[hit % self->groups->n_bars]);

      g_signal_emit (self, signals[RANKS_CLICKED], 0, ranks->data, ranks->len);
      return;
    }
  g_signal_emit (self, signals[RANK_CLICKED], 0, (int) self->plot.ranks[hit % self->plot.n_ranks]);
}

static void
tprof_breakdown_view_finalize (GObject *object)
{
  TprofBreakdownView *self = TPROF_BREAKDOWN_VIEW (object);

  breakdown_clear (self);
  g_ptr_array_unref (self->part_names);
  G_OBJECT_CLASS (tprof_breakdown_view_parent_class)->finalize (object);
}

/* The numbers behind the chart: a row per rank, or per host when its
 * bars are hosts: every host with a rank shown, not only the one a bar
 * of a run shows. */
static char *
tprof_breakdown_view_to_csv (TprofChart  *chart,
                             GError     **error)
{
  TprofBreakdownView *self = TPROF_BREAKDOWN_VIEW (chart);
  const TprofTopology *topo;
  TprofPlotBreakdownGroups *hosts;
  TprofPlotBreakdown plot;
  char *csv;

  if (!self->drawn)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_EMPTY, _("There is nothing to break down"));
      return NULL;
    }
  if (self->groups == NULL || self->groups->level != TPROF_TOPOLOGY_HOST)
    return tprof_plot_breakdown_to_csv (&self->plot);
  topo = _tprof_profile_get_topology (_tprof_chart_get_profile (chart));
  hosts = tprof_plot_breakdown_groups_new (self->matrix, topo,
                                           (guint) tprof_topology_n_groups (topo, TPROF_TOPOLOGY_HOST));
  if (hosts == NULL)
    return tprof_plot_breakdown_to_csv (&self->plot);
  plot = self->plot;
  tprof_plot_breakdown_use_groups (&plot, hosts);
  csv = tprof_plot_breakdown_to_csv (&plot);
  tprof_plot_breakdown_groups_free (hosts);
  return csv;
}

static void
tprof_breakdown_view_class_init (TprofBreakdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TprofChartClass *chart_class = TPROF_CHART_CLASS (klass);

  object_class->finalize = tprof_breakdown_view_finalize;
  chart_class->recompute = tprof_breakdown_view_recompute;
  chart_class->empty_message = tprof_breakdown_view_empty_message;
  chart_class->draw = tprof_breakdown_view_draw;
  chart_class->hit = tprof_breakdown_view_hit;
  chart_class->describe = tprof_breakdown_view_describe;
  chart_class->to_csv = tprof_breakdown_view_to_csv;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "breakdownview");

  signals[RANK_CLICKED] =
    g_signal_new ("rank-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* the ranks of a bar of hosts (const gint32 *, their number) */
  signals[RANKS_CLICKED] =
    g_signal_new ("ranks-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);
}

static void
tprof_breakdown_view_init (TprofBreakdownView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->part_names = g_ptr_array_new_with_free_func (g_free);
  self->message = g_strdup (_("Select an operation to see its breakdown"));
  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

const TprofPlotBreakdown *
_tprof_breakdown_view_get_plot (TprofBreakdownView *self)
{
  g_return_val_if_fail (TPROF_IS_BREAKDOWN_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->drawn ? &self->plot : NULL;
}


const TprofPlotBreakdownGroups *
_tprof_breakdown_view_get_groups (TprofBreakdownView *self)
{
  g_return_val_if_fail (TPROF_IS_BREAKDOWN_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->drawn ? self->groups : NULL;
}
