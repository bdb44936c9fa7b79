/* tprof-plot-rank-groups.c — a per-rank chart's ranks gathered into bars of hosts (or runs of them) so that no bar is thinner than 3 px, named for the axis. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* The axis' title for bars of @level, the first of which covers groups
 * @first..@last. */
const char *
_tprof_plot_groups_title (const TprofTopology *topo,
                          gsize                level,
                          gsize                first,
                          gsize                last)
{
  if (level == TPROF_TOPOLOGY_RANK)
    /* Translators: the rank chart's x axis when each bar is several ranks */
    return _("Ranks");
  if (level > TPROF_TOPOLOGY_HOST)
    return tprof_topology_level_name (topo, level);
  /* Translators: the rank chart's x axis when each bar is a host, or several */
  return first == last ? _("Host") : _("Hosts");
}

const char *
_tprof_plot_groups_name_bars (const TprofTopology  *topo,
                              gsize                 level,
                              const TprofGroupBar  *bars,
                              gsize                 n_bars,
                              char               ***labels,
                              char               ***names)
{
  *labels = g_new0 (char *, n_bars + 1);
  *names = g_new0 (char *, n_bars + 1);
  for (gsize b = 0; b < n_bars; b++)
    {
      (*labels)[b] = _tprof_plot_groups_label (topo, level, bars[b].first_group, bars[b].last_group);
      (*names)[b] = _tprof_plot_groups_label (topo, level, bars[b].top_group, bars[b].top_group);
    }
  return _tprof_plot_groups_title (topo, level, bars[0].first_group, bars[0].last_group);
}

TprofPlotRankGroups *
tprof_plot_rank_groups_new (const TprofRankSummary *ranks,
                            gsize                   n_ranks,
                            const TprofTopology    *topo,
                            TprofPlotRankMetric     metric,
                            guint                   max_bars)
{
  gsize level = tprof_topology_has_hosts (topo) ? TPROF_TOPOLOGY_HOST : TPROF_TOPOLOGY_RANK;
  TprofPlotRankGroups *groups;
  gsize n_bars;

  g_return_val_if_fail (topo != NULL, NULL);

  max_bars = MAX (max_bars, 1);
  if (n_ranks <= max_bars || ranks == NULL)
    return NULL;
  groups = g_new0 (TprofPlotRankGroups, 1);
  groups->level = level;
  groups->bars = g_new (TprofGroupBar, max_bars);
  n_bars = tprof_topology_group_bars (topo, level, ranks, n_ranks, metric == TPROF_PLOT_RANK_MEAN, max_bars,
                                      groups->bars);
  if (n_bars == 0 || n_bars == (gsize) -1)
    {
      tprof_plot_rank_groups_free (groups);
      return NULL;
    }
  groups->n_bars = (guint) n_bars;
  groups->summaries = g_new (TprofRankSummary, n_bars);
  for (gsize b = 0; b < n_bars; b++)
    groups->summaries[b] = groups->bars[b].summary;
  groups->title = _tprof_plot_groups_name_bars (topo, level, groups->bars, n_bars, &groups->labels, &groups->names);
  return groups;
}

void
tprof_plot_rank_groups_free (TprofPlotRankGroups *groups)
{
  if (groups == NULL)
    return;
  g_free (groups->bars);
  g_free (groups->summaries);
  g_strfreev (groups->labels);
  g_strfreev (groups->names);
  g_free (groups);
}

void
tprof_plot_ranks_use_groups (TprofPlotRanks            *plot,
                             const TprofPlotRankGroups *groups)
{
  plot->ranks = groups->summaries;
  plot->n_ranks = groups->n_bars;
  plot->bar_labels = (const char *const *) groups->labels;
  plot->bar_names = (const char *const *) groups->names;
  plot->x_title = groups->title;
  plot->baseline = NULL;
  /* the bars are hosts already: the straggler host is a bar of its own */
  plot->group_name = NULL;
  plot->group_ranks = NULL;
  plot->n_group_ranks = 0;
}
