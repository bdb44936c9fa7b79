/* tprof-topology-summaries.c — an operation's count, total and mean time per group of a topology level (per host), from its per-rank totals. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include <tprof/tprof-topology.h>

void
tprof_topology_group_summaries (const TprofTopology *topo,
                                size_t               level,
                                const int64_t       *rank_count,
                                const double        *rank_sum,
                                const bool          *selected,
                                TprofGroupTotals    *out)
{
  for (size_t g = 0; g < tprof_topology_n_groups (topo, level); g++)
    {
      size_t n;
      const int32_t *ranks = tprof_topology_group_ranks (topo, level, g, &n);

      out[g] = (TprofGroupTotals) { 0 };
      for (size_t i = 0; i < n; i++)
        {
          if (selected != NULL && !selected[ranks[i]])
            continue;
          out[g].ranks_shown++;
          out[g].count += rank_count[ranks[i]];
          out[g].sum += rank_sum[ranks[i]];
        }
      out[g].mean = out[g].count > 0 ? out[g].sum / (double) out[g].count : NAN;
    }
}
