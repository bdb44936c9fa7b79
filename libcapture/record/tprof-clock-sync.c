/* tprof-clock-sync.c — the tree of the clock alignment and the estimate of one offset from round trips. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "tprof/tprof-clock-sync.h"

TprofClockSyncRole
tprof_clock_sync_role (int  rank,
                       int  size,
                       int  step,
                       int *peer)
{
  if (step < 1 || rank < 0 || rank >= size)
    return TPROF_CLOCK_SYNC_IDLE;
  if (rank % (2 * step) == 0 && rank + step < size)
    {
      if (peer != NULL)
        *peer = rank + step;
      return TPROF_CLOCK_SYNC_PARENT;
    }
  if (rank % (2 * step) == step)
    {
      if (peer != NULL)
        *peer = rank - step;
      return TPROF_CLOCK_SYNC_CHILD;
    }
  return TPROF_CLOCK_SYNC_IDLE;
}

TprofClockOffset
tprof_clock_offset_estimate (const double *sent,
                             const double *theirs,
                             const double *received,
                             size_t        n)
{
  TprofClockOffset best = { 0.0, INFINITY };

  for (size_t i = 0; i < n; i++)
    {
      double delay = received[i] - sent[i];

      if (delay / 2.0 < best.error)
        {
          best.offset = theirs[i] - (sent[i] + received[i]) / 2.0;
          best.error = delay / 2.0;
        }
    }
  return best;
}

TprofClockOffset
tprof_clock_offset_compose (TprofClockOffset to_parent,
                            TprofClockOffset parent_to_root)
{
  return (TprofClockOffset) { to_parent.offset + parent_to_root.offset,
                              to_parent.error + parent_to_root.error };
}
