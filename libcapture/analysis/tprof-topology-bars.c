/* tprof-topology-bars.c — a per-rank chart's ranks gathered into bars of hosts (or runs of them): each host's samples summarised together. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include <tprof/tprof-topology.h>

#include "tprof-analysis-internal.h"

typedef struct
{
  TprofRankSummary summary;
  size_t           ranks_shown;
  double           squares;  /* sum of squared deviations from the group's mean */
} GroupAcc;

static void
group_add (GroupAcc               *acc,
           const TprofRankSummary *rs)
{
  TprofRankSummary *s = &acc->summary;

  if (acc->ranks_shown++ == 0)
    {
      *s = *rs;
      return;
    }
  s->count += rs->count;
  s->sum += rs->sum;
  s->rank = rs->rank < s->rank ? rs->rank : s->rank;
  s->min = rs->min < s->min ? rs->min : s->min;
  s->max = rs->max > s->max ? rs->max : s->max;
}

/* Each shown group's summary: counts and sums, then (as the group's mean
 * is known) the deviations of each rank's samples from it, pooled from
 * each rank's own mean and std. */
static void
groups_summarize (const TprofTopology    *topo,
                  size_t                  level,
                  const TprofRankSummary *ranks,
                  size_t                  n_ranks,
                  bool                   *selected,
                  GroupAcc               *acc)
{
  int world = tprof_topology_world_size (topo);

  for (size_t i = 0; i < n_ranks; i++)
    if (ranks[i].rank >= 0 && ranks[i].rank < world && ranks[i].count > 0)
      {
        selected[ranks[i].rank] = true;
        group_add (&acc[tprof_topology_group_of (topo, level, ranks[i].rank)], &ranks[i]);
      }
  for (size_t g = 0; g < tprof_topology_n_groups (topo, level); g++)
    if (acc[g].ranks_shown > 0)
      acc[g].summary.mean = acc[g].summary.sum / (double) acc[g].summary.count;
  for (size_t i = 0; i < n_ranks; i++)
    if (ranks[i].rank >= 0 && ranks[i].rank < world && ranks[i].count > 0)
      {
        GroupAcc *a = &acc[tprof_topology_group_of (topo, level, ranks[i].rank)];
        double d = ranks[i].mean - a->summary.mean;

        if (ranks[i].count >= 2)
          a->squares += (double) (ranks[i].count - 1) * ranks[i].std * ranks[i].std;
        a->squares += (double) ranks[i].count * d * d;
      }
  for (size_t g = 0; g < tprof_topology_n_groups (topo, level); g++)
    if (acc[g].ranks_shown > 0)
      acc[g].summary.std = acc[g].summary.count >= 2 ? sqrt (acc[g].squares / (double) (acc[g].summary.count - 1))
                                                     : NAN;
}

size_t
tprof_topology_group_bars (const TprofTopology    *topo,
                           size_t                  level,
                           const TprofRankSummary *ranks,
                           size_t                  n_ranks,
                           bool                    by_mean,
                           size_t                  max_bars,
                           TprofGroupBar          *out)
{
  size_t n_groups = tprof_topology_n_groups (topo, level);
  bool *selected = calloc ((size_t) tprof_topology_world_size (topo), sizeof *selected);
  GroupAcc *acc = calloc (n_groups, sizeof *acc);
  size_t *group_bin = _tprof_malloc_array (n_groups, sizeof *group_bin);
  size_t *first = _tprof_malloc_array (max_bars > 0 ? max_bars : 1, sizeof *first);
  size_t *last = _tprof_malloc_array (max_bars > 0 ? max_bars : 1, sizeof *last);
  size_t n_bars = (size_t) -1;

  if (selected == NULL || acc == NULL || group_bin == NULL || first == NULL || last == NULL)
    goto out;
  groups_summarize (topo, level, ranks, n_ranks, selected, acc);
  n_bars = tprof_topology_bin_groups (topo, level, selected, max_bars, group_bin, first, last);
  for (size_t b = 0; b < n_bars; b++)
    {
      size_t top = first[b];

      for (size_t g = first[b]; g <= last[b]; g++)
        if (group_bin[g] == b && (by_mean ? acc[g].summary.mean > acc[top].summary.mean
                                          : acc[g].summary.sum > acc[top].summary.sum))
          top = g;
      out[b] = (TprofGroupBar) { first[b], last[b], top, acc[top].ranks_shown, acc[top].summary };
    }
out:
  free (selected);
  free (acc);
  free (group_bin);
  free (first);
  free (last);
  return n_bars;
}

bool
tprof_topology_bar_summaries (const TprofTopology    *topo,
                              size_t                  level,
                              const TprofGroupBar    *bars,
                              size_t                  n_bars,
                              const TprofRankSummary *ranks,
                              size_t                  n_ranks,
                              TprofRankSummary       *out)
{
  size_t n_groups = tprof_topology_n_groups (topo, level);
  bool *selected = calloc ((size_t) tprof_topology_world_size (topo) + 1, sizeof *selected);
  GroupAcc *acc = calloc (n_groups + 1, sizeof *acc);
  bool ok = selected != NULL && acc != NULL;

  if (ok)
    groups_summarize (topo, level, ranks, n_ranks, selected, acc);
  for (size_t b = 0; ok && b < n_bars; b++)
    {
      size_t g = bars[b].top_group;

      if (g < n_groups && acc[g].ranks_shown > 0)
        out[b] = acc[g].summary;
      else
        out[b] = (TprofRankSummary) { .rank = -1, .count = 0, .sum = NAN, .mean = NAN, .std = NAN,
                                      .min = NAN, .max = NAN };
    }
  free (selected);
  free (acc);
  return ok;
}
