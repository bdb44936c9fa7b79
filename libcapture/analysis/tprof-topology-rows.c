/* tprof-topology-rows.c — a chart's rows of ranks gathered into groups of a topology level (hosts), and a heat map's rows merged so. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include <tprof/tprof-heatmap.h>
#include <tprof/tprof-topology.h>

/* Whether a rank of group @g of @level is selected. */
static bool
group_selected (const TprofTopology *topo,
                size_t               level,
                size_t               g,
                const bool          *selected)
{
  size_t n;
  const int32_t *ranks = tprof_topology_group_ranks (topo, level, g, &n);

  if (selected == NULL)
    return n > 0;
  for (size_t i = 0; i < n; i++)
    if (selected[ranks[i]])
      return true;
  return false;
}

size_t
tprof_topology_bin_groups (const TprofTopology *topo,
                           size_t               level,
                           const bool          *selected,
                           size_t               max_bins,
                           size_t              *group_bin,
                           size_t              *bin_first,
                           size_t              *bin_last)
{
  size_t n_groups = tprof_topology_n_groups (topo, level), n_shown = 0, n_bins, k = 0;

  for (size_t g = 0; g < n_groups; g++)
    {
      group_bin[g] = group_selected (topo, level, g, selected) ? 0 : SIZE_MAX;
      n_shown += group_bin[g] == 0;
    }
  n_bins = n_shown < max_bins ? n_shown : max_bins;
  if (n_bins == 0)
    {
      for (size_t g = 0; g < n_groups; g++)
        group_bin[g] = SIZE_MAX;
      return 0;
    }
  for (size_t b = 0; b < n_bins; b++)
    bin_first[b] = SIZE_MAX;
  /* the k-th shown group goes to bin k n_bins / n_shown: bins differ by
   * one group at most, and each bin's groups are consecutive */
  for (size_t g = 0; g < n_groups; g++)
    {
      size_t b;

      if (group_bin[g] == SIZE_MAX)
        continue;
      b = (size_t) ((unsigned long long) k++ * n_bins / n_shown);
      group_bin[g] = b;
      if (bin_first[b] == SIZE_MAX)
        bin_first[b] = g;
      bin_last[b] = g;
    }
  return n_bins;
}

void
tprof_heatmap_merge_rows (const double *cells,
                          size_t        n_rows,
                          size_t        n_cols,
                          const size_t *row_bin,
                          size_t        n_bins,
                          double       *out)
{
  for (size_t i = 0; i < n_bins * n_cols; i++)
    out[i] = NAN;
  for (size_t i = 0; i < n_rows; i++)
    {
      double *row;

      if (row_bin[i] >= n_bins)
        continue;
      row = out + row_bin[i] * n_cols;
      for (size_t j = 0; j < n_cols; j++)
        {
          double v = cells[i * n_cols + j];

          if (isfinite (v) && !(row[j] >= v))
            row[j] = v;
        }
    }
}
