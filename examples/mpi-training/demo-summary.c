/* demo-summary.c — printing a gathered profile as a small table. */
/* SPDX-License-Identifier: MIT */
#include "demo-summary.h"

int
demo_summary_print (FILE *out, const TprofProfiledTime *pt)
{
  fprintf (out, "%-16s %8s %12s %12s %12s %10s\n",
           "operation", "count", "mean (ms)", "max (ms)", "slowest rank", "imbalance");
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      TprofSummary s;

      if (!tprof_gathered_time_summarize (tprof_profiled_time_nth (pt, i), &s))
        return -1;
      fprintf (out, "%-16s %8zu %12.3f %12.3f %12d %10.2f\n",
               tprof_profiled_time_name (pt, i), s.count, s.mean * 1e3, s.max * 1e3,
               (int) s.slowest_rank, s.imbalance);
    }
  return 0;
}
