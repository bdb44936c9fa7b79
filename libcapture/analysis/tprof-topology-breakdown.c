/* tprof-topology-breakdown.c — a breakdown's ranks gathered into bars of hosts (or runs of them), as the per-rank chart's bars are. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-topology.h>

#include "tprof-analysis-internal.h"

/* Column @k's total over the parts (an unknown self time counts 0). */
static double
column_total (const TprofBreakdown *b,
              size_t                k)
{
  double total = 0.0;

  for (size_t p = 0; p < b->n_parts; p++)
    if (isfinite (b->values[p * b->n_ranks + k]))
      total += b->values[p * b->n_ranks + k];
  return total;
}

/* Each group's parts summed over its ranks shown (@sums: n_groups x
 * n_parts), its total, ranks shown and lowest rank. */
static void
groups_add_columns (const TprofTopology  *topo,
                    size_t                level,
                    const TprofBreakdown *b,
                    bool                 *selected,
                    double               *sums,
                    TprofGroupBar        *acc)
{
  for (size_t k = 0; k < b->n_ranks; k++)
    {
      int32_t r = b->ranks[k];
      size_t g = tprof_topology_group_of (topo, level, r);

      selected[r] = true;
      if (acc[g].ranks_shown++ == 0)
        acc[g].summary.rank = r;
      acc[g].summary.sum += column_total (b, k);
      for (size_t p = 0; p < b->n_parts; p++)
        sums[g * b->n_parts + p] += b->values[p * b->n_ranks + k];
    }
}

static TprofBreakdown *
breakdown_alloc (const TprofBreakdown *b,
                 size_t                n_columns)
{
  TprofBreakdown *out = calloc (1, sizeof *out);
  size_t n_children = b->n_parts - 1;

  if (out == NULL)
    return NULL;
  out->n_parts = b->n_parts;
  out->children = _tprof_malloc_array (n_children > 0 ? n_children : 1, sizeof *out->children);
  out->ranks = _tprof_malloc_array (n_columns > 0 ? n_columns : 1, sizeof *out->ranks);
  out->values = _tprof_malloc_array (b->n_parts * (n_columns > 0 ? n_columns : 1), sizeof *out->values);
  if (out->children == NULL || out->ranks == NULL || out->values == NULL)
    {
      tprof_breakdown_free (out);
      return NULL;
    }
  if (n_children > 0)
    memcpy (out->children, b->children, n_children * sizeof *out->children);
  return out;
}

TprofBreakdown *
tprof_topology_group_breakdown (const TprofTopology  *topo,
                                size_t                level,
                                const TprofBreakdown *b,
                                size_t                max_bars,
                                TprofGroupBar        *bars)
{
  size_t n_groups = tprof_topology_n_groups (topo, level);
  bool *selected = calloc ((size_t) tprof_topology_world_size (topo), sizeof *selected);
  TprofGroupBar *acc = calloc (n_groups, sizeof *acc);
  double *sums = calloc (n_groups * b->n_parts, sizeof *sums);
  size_t *group_bin = _tprof_malloc_array (n_groups, sizeof *group_bin);
  size_t *first = _tprof_malloc_array (max_bars > 0 ? max_bars : 1, sizeof *first);
  size_t *last = _tprof_malloc_array (max_bars > 0 ? max_bars : 1, sizeof *last);
  TprofBreakdown *out = NULL;
  size_t n_bars;

  if (selected == NULL || acc == NULL || sums == NULL || group_bin == NULL || first == NULL || last == NULL)
    goto done;
  groups_add_columns (topo, level, b, selected, sums, acc);
  n_bars = tprof_topology_bin_groups (topo, level, selected, max_bars, group_bin, first, last);
  if ((out = breakdown_alloc (b, n_bars)) == NULL)
    goto done;
  out->n_ranks = n_bars;
  for (size_t j = 0; j < n_bars; j++)
    {
      size_t top = first[j];

      /* the group of largest total, as the Total chart's bar of a run */
      for (size_t g = first[j]; g <= last[j]; g++)
        if (group_bin[g] == j && acc[g].summary.sum > acc[top].summary.sum)
          top = g;
      bars[j] = (TprofGroupBar) { first[j], last[j], top, acc[top].ranks_shown, acc[top].summary };
      bars[j].summary.count = 0;
      bars[j].summary.mean = bars[j].summary.std = bars[j].summary.min = bars[j].summary.max = NAN;
      out->ranks[j] = acc[top].summary.rank;
      for (size_t p = 0; p < b->n_parts; p++)
        out->values[p * n_bars + j] = sums[top * b->n_parts + p];
    }
done:
  free (selected);
  free (acc);
  free (sums);
  free (group_bin);
  free (first);
  free (last);
  return out;
}
