/* tprof-hosts-view.c — TprofHostsView: the selected operation's total and mean time on each host's ranks shown (the engine's, from the cached per-rank totals) and each host's late count, slowest host first. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "tprof-hosts-view.h"

struct _TprofHostsView
{
  TprofChart        parent_instance;

  TprofPlotHosts    plot;
  gboolean          drawn;
  GPtrArray        *names;    /* char *, n_hosts */
  gsize            *ranks;
  gint64           *counts;
  double           *totals;
  double           *means;
  gint64           *late;     /* NULL: the blame is not known */
  char             *subtitle;
  const char       *message;  /* why nothing is drawn */
};

G_DEFINE_FINAL_TYPE (TprofHostsView, tprof_hosts_view, TPROF_TYPE_CHART)

static void
hosts_clear (TprofHostsView *self)
{
  self->drawn = FALSE;
  self->plot = (TprofPlotHosts) { 0 };
  g_ptr_array_set_size (self->names, 0);
  g_clear_pointer (&self->ranks, g_free);
  g_clear_pointer (&self->counts, g_free);
  g_clear_pointer (&self->totals, g_free);
  g_clear_pointer (&self->means, g_free);
  g_clear_pointer (&self->late, g_free);
  g_clear_pointer (&self->subtitle, g_free);
}

static int
by_total_descending (gconstpointer a,
                     gconstpointer b,
                     gpointer      data)
{
  const TprofGroupTotals *totals = data;
  double x = totals[*(const gsize *) a].sum, y = totals[*(const gsize *) b].sum;

  return x < y ? 1 : x > y ? -1 : (*(const gsize *) a > *(const gsize *) b) - (*(const gsize *) a < *(const gsize *) b);
}

/* The hosts with a rank shown, slowest first, into the arrays the plot reads. */
static void
hosts_fill (TprofHostsView         *self,
            const TprofTopology    *topo,
            const TprofGroupTotals *totals,
            const uint64_t         *late)
{
  gsize n_groups = tprof_topology_n_groups (topo, TPROF_TOPOLOGY_HOST);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (gsize));

  for (gsize g = 0; g < n_groups; g++)
    if (totals[g].ranks_shown > 0)
      g_array_append_val (order, g);
  g_array_sort_with_data (order, by_total_descending, (gpointer) totals);
  self->ranks = g_new (gsize, MAX (order->len, 1));
  self->counts = g_new (gint64, MAX (order->len, 1));
  self->totals = g_new (double, MAX (order->len, 1));
  self->means = g_new (double, MAX (order->len, 1));
  self->late = late != NULL ? g_new (gint64, MAX (order->len, 1)) : NULL;
  for (guint i = 0; i < order->len; i++)
    {
      gsize g = g_array_index (order, gsize, i);

      g_ptr_array_add (self->names, tprof_escape_text (tprof_topology_group_name (topo, TPROF_TOPOLOGY_HOST, g)));
      self->ranks[i] = totals[g].ranks_shown;
      self->counts[i] = totals[g].count;
      self->totals[i] = totals[g].sum;
      self->means[i] = totals[g].mean;
      if (late != NULL)
        self->late[i] = (gint64) late[g];
    }
  self->plot.n_hosts = order->len;
}

static void
tprof_hosts_view_recompute (TprofChart *chart)
{
  TprofHostsView *self = TPROF_HOSTS_VIEW (chart);
  TprofProfile *profile = _tprof_chart_get_profile (chart);
  gssize op = _tprof_chart_get_op (chart);
  const guint8 *mask = _tprof_chart_get_mask (chart);
  const TprofTopology *topo = profile != NULL ? _tprof_profile_get_topology (profile) : NULL;
  const TprofStragglers *stragglers = profile != NULL ? _tprof_profile_get_stragglers (profile, NULL) : NULL;
  const TprofOperationStats *stats;
  g_autofree TprofGroupTotals *totals = NULL;
  g_autofree uint64_t *late = NULL;
  g_autofree bool *selected = NULL;
  gsize n_groups;
  int world;

  hosts_clear (self);
  self->message = _("Select an operation to see it per host");
  if (profile == NULL || op < 0)
    return;
  self->message = _("This profile names no host shared by two ranks");
  if (topo == NULL || !tprof_topology_has_hosts (topo) || (stats = _tprof_profile_get_stats (profile, (gsize) op)) == NULL)
    return;
  world = _tprof_profile_get_world_size (profile);
  n_groups = tprof_topology_n_groups (topo, TPROF_TOPOLOGY_HOST);
  if (mask != NULL)
    {
      selected = g_new (bool, world);
      for (int r = 0; r < world; r++)
        selected[r] = mask[r] != 0;
    }
  totals = g_new (TprofGroupTotals, n_groups);
  tprof_topology_group_summaries (topo, TPROF_TOPOLOGY_HOST, stats->rank_count, stats->rank_sum, selected, totals);
  if (stragglers != NULL)
    {
      late = g_new (uint64_t, n_groups);
      tprof_stragglers_group_blame (stragglers, topo, TPROF_TOPOLOGY_HOST, late, NULL, NULL);
    }
  hosts_fill (self, topo, totals, late);
  self->message = _("No rank shown");
  if (self->plot.n_hosts == 0)
    return;
  self->plot.names = (const char *const *) self->names->pdata;
  self->plot.ranks = self->ranks;
  self->plot.counts = self->counts;
  self->plot.totals = self->totals;
  self->plot.means = self->means;
  self->plot.late = self->late;
  self->subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Slowest first, of %u host", "Slowest first, of %u hosts",
                                                 self->plot.n_hosts),
                                    self->plot.n_hosts);
  self->plot.subtitle = self->subtitle;
  self->message = NULL;
  self->drawn = TRUE;
}

static const char *
tprof_hosts_view_empty_message (TprofChart *chart)
{
  return TPROF_HOSTS_VIEW (chart)->message;
}

static void
tprof_hosts_view_draw (TprofChart           *chart,
                       cairo_t              *cr,
                       double                width,
                       double                height,
                       const TprofPlotTheme *theme,
                       gssize                hover,
                       TprofPlotArea        *area)
{
  TprofHostsView *self = TPROF_HOSTS_VIEW (chart);
  TprofPlotHosts plot = self->plot;
  /* TRANSLATORS: the chart title; %s is the operation name */
  g_autofree char *title = _tprof_chart_format_title (chart, _("Time per Host: %s"));

  if (!self->drawn)
    return;
  plot.title = title;
  plot.hover = hover >= 0 ? (guint) hover : G_MAXUINT;
  tprof_plot_hosts_draw (cr, width, height, &plot, theme, area);
}

static gssize
tprof_hosts_view_hit (TprofChart          *chart,
                      const TprofPlotArea *area,
                      double               x,
                      double               y)
{
  TprofHostsView *self = TPROF_HOSTS_VIEW (chart);

  return self->drawn ? tprof_plot_hosts_hit (&self->plot, area, x, y) : -1;
}

/* Hovering a host: its name, ranks shown, total, mean and late count. */
static char *
tprof_hosts_view_describe (TprofChart *chart,
                           gssize      index)
{
  TprofHostsView *self = TPROF_HOSTS_VIEW (chart);
  g_autofree char *total = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *text = NULL;

  if (!self->drawn || index < 0 || (gsize) index >= self->plot.n_hosts)
    return NULL;
  total = tprof_format_duration (self->totals[index], 4);
  mean = tprof_format_duration (self->means[index], 4);
  /* Translators: hovering a host's bar: the host, its ranks shown, its total and mean time */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%zu rank)\nTotal %s, mean %s", "%s (%zu ranks)\nTotal %s, mean %s",
                                       self->ranks[index]),
                          (const char *) self->names->pdata[index], self->ranks[index], total, mean);
  if (self->late == NULL)
    return g_steal_pointer (&text);
  /* Translators: the same, then how many times one of its ranks arrived last */
  return g_strdup_printf (_("%s\nLast to arrive %" PRId64 " times"), text, self->late[index]);
}

static char *
tprof_hosts_view_to_csv (TprofChart  *chart,
                         GError     **error)
{
  TprofHostsView *self = TPROF_HOSTS_VIEW (chart);

  if (!self->drawn)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_EMPTY, _("There is no host to export"));
      return NULL;
    }
  return tprof_plot_hosts_to_csv (&self->plot);
}

static void
tprof_hosts_view_finalize (GObject *object)
{
  TprofHostsView *self = TPROF_HOSTS_VIEW (object);

  hosts_clear (self);
  g_ptr_array_unref (self->names);
  G_OBJECT_CLASS (tprof_hosts_view_parent_class)->finalize (object);
}

static void
tprof_hosts_view_class_init (TprofHostsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TprofChartClass *chart_class = TPROF_CHART_CLASS (klass);

  object_class->finalize = tprof_hosts_view_finalize;
  chart_class->recompute = tprof_hosts_view_recompute;
  chart_class->empty_message = tprof_hosts_view_empty_message;
  chart_class->draw = tprof_hosts_view_draw;
  chart_class->hit = tprof_hosts_view_hit;
  chart_class->describe = tprof_hosts_view_describe;
  chart_class->to_csv = tprof_hosts_view_to_csv;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "hostsview");
}

static void
tprof_hosts_view_init (TprofHostsView *self)
{
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->message = _("Select an operation to see it per host");
}

const TprofPlotHosts *
_tprof_hosts_view_get_plot (TprofHostsView *self)
{
  g_return_val_if_fail (TPROF_IS_HOSTS_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->drawn ? &self->plot : NULL;
}
