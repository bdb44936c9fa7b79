/* tprof-live.c — TprofLive: the statistics and arrival of a running job's operations, each sample and occurrence handled once, as it arrives. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-live.h>

#include "tprof-analysis-internal.h"
#include "tprof-gathered-time-private.h"
#include "tprof-live-private.h"

TprofLive *
tprof_live_new (int world_size)
{
  TprofLive *live;

  if (world_size < 1)
    return NULL;
  live = calloc (1, sizeof *live);
  if (live == NULL)
    return NULL;
  live->world_size = world_size;
  live->done = calloc ((size_t) world_size, sizeof *live->done);
  live->absent = calloc ((size_t) world_size, sizeof *live->absent);
  live->part = calloc ((size_t) world_size, sizeof *live->part);
  if (live->done == NULL || live->absent == NULL || live->part == NULL)
    {
      free (live->done);
      free (live->absent);
      free (live->part);
      free (live);
      return NULL;
    }
  return live;
}

void
tprof_live_free (TprofLive *live)
{
  if (live == NULL)
    return;
  for (size_t op = 0; op < live->n_ops; op++)
    _tprof_live_op_free (live->ops[op], live->world_size);
  free (live->ops);
  free (live->done);
  free (live->absent);
  free (live->part);
  free (live);
}

int
tprof_live_world_size (const TprofLive *live)
{
  return live->world_size;
}

ssize_t
tprof_live_operation (TprofLive  *live,
                      const char *name)
{
  TprofLiveOp **grown;

  for (size_t op = 0; op < live->n_ops; op++)
    if (strcmp (live->ops[op]->name, name) == 0)
      return (ssize_t) op;
  grown = realloc (live->ops, (live->n_ops + 1) * sizeof *grown);
  if (grown == NULL)
    return -1;
  live->ops = grown;
  live->ops[live->n_ops] = _tprof_live_op_new (name, live->world_size);
  if (live->ops[live->n_ops] == NULL)
    return -1;
  return (ssize_t) live->n_ops++;
}

size_t
tprof_live_n_operations (const TprofLive *live)
{
  return live->n_ops;
}

const char *
tprof_live_operation_name (const TprofLive *live,
                           size_t           op)
{
  return op < live->n_ops ? live->ops[op]->name : NULL;
}

/* Room for @more samples after the pending ones of @lane, moving the
 * pending ones to the front when that is enough. */
static bool
lane_reserve (TprofLiveLane *lane,
              size_t         more)
{
  TprofLivePair *grown;
  size_t cap;

  if (lane->head > 0 && lane->head >= lane->len / 2)
    {
      memmove (lane->pairs, lane->pairs + lane->head, (lane->len - lane->head) * sizeof *lane->pairs);
      lane->len -= lane->head;
      lane->head = 0;
    }
  if (lane->len + more <= lane->cap)
    return true;
  cap = lane->cap > 0 ? lane->cap : 64;
  while (cap < lane->len + more)
    cap *= 2;
  grown = realloc (lane->pairs, cap * sizeof *grown);
  if (grown == NULL)
    return false;
  if (grown != lane->pairs)
    lane->written = lane->len;   /* a copy: only what it held is known written */
  lane->pairs = grown;
  lane->cap = cap;
  return true;
}

bool
tprof_live_add (TprofLive    *live,
                int           rank,
                size_t        op,
                size_t        n,
                const double *starts,
                const double *durations)
{
  TprofLiveOp *o;
  TprofLiveLane *lane;
  double lo, hi;

  if (rank < 0 || rank >= live->world_size || op >= live->n_ops)
    return false;
  if (n == 0)
    return true;
  o = live->ops[op];
  lane = &o->lanes[rank];
  if (!lane_reserve (lane, n))
    return false;
  /* the pages never written yet, at once: the first refresh writes
   * megabytes of them, and fault by fault costs about twice as much */
  if (lane->len + n > lane->written)
    {
      size_t from = lane->len > lane->written ? lane->len : lane->written;

      _tprof_prefault_write (lane->pairs + from, (lane->len + n - from) * sizeof *lane->pairs);
      lane->written = lane->len + n;
    }
  for (size_t i = 0; i < n; i++)
    {
      TprofLivePair *p = &lane->pairs[lane->len + i];

      p->start = starts[i];
      p->time = durations[i];
      if (lane->len + i > lane->head && !(p[-1].start <= p->start))
        lane->unsorted = true;
    }
  lane->len += n;
  _tprof_values_min_max (durations, n, &lo, &hi);
  o->rank_sum[rank] += _tprof_values_sum (durations, n);
  o->rank_min[rank] = o->rank_count[rank] > 0 ? fmin (o->rank_min[rank], lo) : lo;
  o->rank_max[rank] = o->rank_count[rank] > 0 ? fmax (o->rank_max[rank], hi) : hi;
  o->rank_count[rank] += (int64_t) n;
  o->dirty = true;
  return true;
}

void
tprof_live_rank_done (TprofLive *live,
                      int        rank)
{
  if (rank < 0 || rank >= live->world_size || live->done[rank])
    return;
  live->done[rank] = true;
  for (size_t op = 0; op < live->n_ops; op++)
    live->ops[op]->dirty = true;
}

void
tprof_live_rank_absent (TprofLive *live,
                        int        rank,
                        bool       absent)
{
  if (rank < 0 || rank >= live->world_size || live->absent[rank] == absent)
    return;
  live->absent[rank] = absent;
  for (size_t op = 0; op < live->n_ops; op++)
    {
      TprofLiveOp *o = live->ops[op];
      TprofLiveLane *lane = &o->lanes[rank];

      /* back: its samples of the occurrences completed without it are left out */
      if (!absent && o->occurrences > lane->used + lane->skip)
        lane->skip = o->occurrences - lane->used;
      o->dirty = true;
    }
}

bool
tprof_live_update (TprofLive *live)
{
  for (size_t op = 0; op < live->n_ops; op++)
    if (live->ops[op]->dirty
        && !_tprof_live_op_complete (live->ops[op], live->world_size, live->done, live->absent, live->part))
      return false;
  return true;
}

bool
tprof_live_summary (const TprofLive *live,
                    size_t           op,
                    TprofSummary    *out)
{
  const TprofLiveOp *o = live->ops[op];

  return tprof_rank_totals_summarize (o->rank_count, o->rank_sum, o->rank_min, o->rank_max, live->world_size,
                                      NULL, out);
}

void
tprof_live_rank_totals (const TprofLive *live,
                        size_t           op,
                        const int64_t  **count,
                        const double   **sum,
                        const double   **min,
                        const double   **max)
{
  const TprofLiveOp *o = live->ops[op];

  *count = o->rank_count;
  *sum = o->rank_sum;
  *min = o->rank_min;
  *max = o->rank_max;
}
