/* tprof-plot-breakdown-groups.c — a breakdown's ranks gathered into bars of hosts (or runs of them) so that no bar is thinner than 3 px, named for the axis. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

TprofPlotBreakdownGroups *
tprof_plot_breakdown_groups_new (const TprofBreakdown *b,
                                 const TprofTopology  *topo,
                                 guint                 max_bars)
{
  gsize level;
  TprofPlotBreakdownGroups *groups;

  g_return_val_if_fail (b != NULL && topo != NULL, NULL);

  max_bars = MAX (max_bars, 1);
  if (b->n_ranks <= max_bars)
    return NULL;
  level = tprof_topology_has_hosts (topo) ? TPROF_TOPOLOGY_HOST : TPROF_TOPOLOGY_RANK;
  groups = g_new0 (TprofPlotBreakdownGroups, 1);
  groups->level = level;
  groups->bars = g_new (TprofGroupBar, max_bars);
  groups->matrix = tprof_topology_group_breakdown (topo, level, b, max_bars, groups->bars);
  if (groups->matrix == NULL || groups->matrix->n_ranks == 0)
    {
      tprof_plot_breakdown_groups_free (groups);
      return NULL;
    }
  groups->n_bars = (guint) groups->matrix->n_ranks;
  groups->title = _tprof_plot_groups_name_bars (topo, level, groups->bars, groups->n_bars, &groups->labels,
                                                &groups->names);
  return groups;
}

void
tprof_plot_breakdown_groups_free (TprofPlotBreakdownGroups *groups)
{
  if (groups == NULL)
    return;
  tprof_breakdown_free (groups->matrix);
  g_free (groups->bars);
  g_strfreev (groups->labels);
  g_strfreev (groups->names);
  g_free (groups);
}

void
tprof_plot_breakdown_use_groups (TprofPlotBreakdown             *plot,
                                 const TprofPlotBreakdownGroups *groups)
{
  plot->ranks = groups->matrix->ranks;
  plot->n_ranks = groups->n_bars;
  plot->values = groups->matrix->values;
  plot->bar_labels = (const char *const *) groups->labels;
  plot->x_title = groups->title;
}
