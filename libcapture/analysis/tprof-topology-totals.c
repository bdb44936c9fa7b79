/* tprof-topology-totals.c — an operation's per-rank totals summed per group of a topology level (per host, per rack). */
/* SPDX-License-Identifier: MIT */
#include <tprof/tprof-topology.h>

void
tprof_topology_group_totals (const TprofTopology *topo,
                             size_t               level,
                             const int64_t       *rank_count,
                             const double        *rank_sum,
                             const bool          *selected,
                             int64_t             *count,
                             double              *sum,
                             size_t              *ranks_with_samples)
{
  for (size_t g = 0; g < tprof_topology_n_groups (topo, level); g++)
    {
      size_t n;
      const int32_t *ranks = tprof_topology_group_ranks (topo, level, g, &n);

      count[g] = 0;
      sum[g] = 0.0;
      ranks_with_samples[g] = 0;
      for (size_t i = 0; i < n; i++)
        if ((selected == NULL || selected[ranks[i]]) && rank_count[ranks[i]] > 0)
          {
            count[g] += rank_count[ranks[i]];
            sum[g] += rank_sum[ranks[i]];
            ranks_with_samples[g]++;
          }
    }
}
