/* demo-summary.c — printing a gathered profile as a small table, and the straggler named from arrival. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "demo-summary.h"

/* The straggler as `tprof stragglers` names it, from who arrived last at the
 * synchronising operations, beside the rank that durations alone blame
 * (the slowest in the first synchronising operation: at a collective the
 * late rank waits least, so that is another rank). */
static int
print_straggler (FILE *out, const TprofProfiledTime *pt)
{
  int world = tprof_profiled_time_world_size (pt);
  double *wait = calloc ((size_t) world, sizeof *wait);
  uint64_t *late = calloc ((size_t) world, sizeof *late);
  uint64_t occurrences = 0;
  double expected = 0.0;
  size_t first = (size_t) -1;
  int straggler = -1, status = -1;

  if (wait == NULL || late == NULL)
    goto out;
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      TprofArrival arrival;

      if (!tprof_arrival_analyze (tprof_profiled_time_nth (pt, i), world, &arrival, wait, late))
        goto out;
      if (arrival.synchronising)
        {
          occurrences += arrival.n_occurrences;
          expected += (double) arrival.n_occurrences / (double) arrival.n_ranks;
          if (first == (size_t) -1)
            first = i;
        }
    }
  if (first == (size_t) -1)
    fprintf (out, "Straggler: none can be named from arrival (no operation synchronised the ranks).\n");
  else
    {
      TprofSummary s;

      if (!tprof_gathered_time_summarize (tprof_profiled_time_nth (pt, first), &s))
        goto out;
      straggler = tprof_straggler_name (wait, late, world, occurrences, expected / (double) occurrences, NULL);
      if (straggler >= 0)
        fprintf (out, "Straggler from arrival: rank %d, last to arrive %llu of %llu times; "
                      "durations alone would blame rank %d (the most time in %s).\n",
                 straggler, (unsigned long long) late[straggler], (unsigned long long) occurrences,
                 (int) s.slowest_rank, tprof_profiled_time_name (pt, first));
      else
        fprintf (out, "Straggler from arrival: no clear straggler (the last rank to arrive varies).\n");
    }
  status = 0;
out:
  free (wait);
  free (late);
  return status;
}

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
  return print_straggler (out, pt);
}
