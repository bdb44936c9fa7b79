/* demo-summary.c — printing a gathered profile as a small table, and the straggler named from arrival. */
/* SPDX-License-Identifier: MIT */
#include "demo-summary.h"

/* The straggler as `tprof stragglers` names it, from who arrived last at the
 * synchronising operations, beside the rank that durations alone blame
 * (the slowest in the first synchronising operation: at a collective the
 * late rank waits least, so that is another rank). */
static int
print_straggler (FILE *out, const TprofProfiledTime *pt)
{
  TprofStragglers *blame = tprof_stragglers_new (tprof_profiled_time_world_size (pt));
  size_t first = (size_t) -1;
  int straggler, status = -1;
  TprofSummary s;

  if (blame == NULL)
    return -1;
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      TprofArrival arrival;

      if (!tprof_stragglers_add (blame, tprof_profiled_time_nth (pt, i), &arrival))
        goto out;
      if (arrival.synchronising && first == (size_t) -1)
        first = i;
    }
  status = 0;
  if (first == (size_t) -1)
    {
      fprintf (out, "Straggler: none can be named from arrival (no operation synchronised the ranks).\n");
      goto out;
    }
  if (!tprof_gathered_time_summarize (tprof_profiled_time_nth (pt, first), &s))
    {
      status = -1;
      goto out;
    }
  straggler = tprof_stragglers_name (blame, NULL);
  if (straggler >= 0)
    fprintf (out, "Straggler from arrival: rank %d, last to arrive %llu of %llu times; "
                  "durations alone would blame rank %d (the most time in %s).\n",
             straggler, (unsigned long long) tprof_stragglers_late_count (blame)[straggler],
             (unsigned long long) tprof_stragglers_occurrences (blame),
             (int) s.slowest_rank, tprof_profiled_time_name (pt, first));
  else
    fprintf (out, "Straggler from arrival: no clear straggler (the last rank to arrive varies).\n");
out:
  tprof_stragglers_free (blame);
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
