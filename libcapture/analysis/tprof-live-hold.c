/* tprof-live-hold.c — holding back a rank's pending samples of an operation while a read that may still precede them goes on. */
/* SPDX-License-Identifier: MIT */
#include "tprof-live-internal.h"
#include "tprof-live-private.h"

void
_tprof_live_hold (TprofLive *live,
                  int        rank,
                  size_t     op,
                  double     below)
{
  TprofLiveOp *o;

  if (rank < 0 || rank >= live->world_size || op >= live->n_ops)
    return;
  o = live->ops[op];
  o->lanes[rank].held = true;
  o->lanes[rank].below = below;
  o->held = true;
  o->dirty = true;   /* a bound that moved may complete more */
}

void
_tprof_live_release (TprofLive *live)
{
  for (size_t op = 0; op < live->n_ops; op++)
    {
      TprofLiveOp *o = live->ops[op];

      if (!o->held)
        continue;
      for (int r = 0; r < live->world_size; r++)
        o->lanes[r].held = false;
      o->held = false;
      o->dirty = true;
    }
}
