/* tprof-live-occurrences.c — TprofLive's occurrences: each analysed once, when every rank has it, as tprof_arrival_analyze() does for a whole file. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-analysis-internal.h"
#include "tprof-live-private.h"
#include "tprof-straggler-private.h"

TprofLiveOp *
_tprof_live_op_new (const char *name,
                    int         world_size)
{
  TprofLiveOp *o = calloc (1, sizeof *o);
  size_t n = (size_t) world_size;

  if (o == NULL)
    return NULL;
  o->name = _tprof_strdup (name);
  o->lanes = calloc (n, sizeof *o->lanes);
  o->rank_count = calloc (n, sizeof *o->rank_count);
  o->rank_sum = calloc (n, sizeof *o->rank_sum);
  o->rank_min = calloc (n, sizeof *o->rank_min);
  o->rank_max = calloc (n, sizeof *o->rank_max);
  o->wait_caused = calloc (n, sizeof *o->wait_caused);
  o->late_count = calloc (n, sizeof *o->late_count);
  if (o->name == NULL || o->lanes == NULL || o->rank_count == NULL || o->rank_sum == NULL || o->rank_min == NULL
      || o->rank_max == NULL || o->wait_caused == NULL || o->late_count == NULL)
    {
      _tprof_live_op_free (o, world_size);
      return NULL;
    }
  return o;
}

void
_tprof_live_op_free (TprofLiveOp *o,
                     int          world_size)
{
  if (o == NULL)
    return;
  for (int r = 0; o->lanes != NULL && r < world_size; r++)
    free (o->lanes[r].pairs);
  free (o->lanes);
  free (o->name);
  free (o->rank_count);
  free (o->rank_sum);
  free (o->rank_min);
  free (o->rank_max);
  free (o->wait_caused);
  free (o->late_count);
  _tprof_running_median_clear (&o->start_spread);
  _tprof_running_median_clear (&o->end_spread);
  free (o);
}

static int
pair_compare (const void *a,
              const void *b)
{
  double x = ((const TprofLivePair *) a)->start, y = ((const TprofLivePair *) b)->start;

  return (x > y) - (x < y);
}

/* Whether rank @r takes part in @o's next occurrence: it has a pending
 * sample of it, or may still send one. A finished rank (done) or one not
 * reporting (absent) with nothing pending does not hold the later
 * occurrences back. */
static bool
takes_part (const TprofLiveOp *o,
            int                r,
            const bool        *done,
            const bool        *absent)
{
  return o->lanes[r].len > o->lanes[r].head || !(done[r] || absent[r]);
}

static void
lane_sort (TprofLiveLane *lane)
{
  if (!lane->unsorted)
    return;
  qsort (lane->pairs + lane->head, lane->len - lane->head, sizeof *lane->pairs, pair_compare);
  lane->unsorted = false;
}

/* How many of @lane's pending pairs (sorted) an occurrence may take: all
 * of them, or when held those starting before its bound. */
static size_t
lane_ready (const TprofLiveLane *lane)
{
  size_t lo = lane->head, hi = lane->len;

  if (!lane->held)
    return lane->len - lane->head;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (lane->pairs[mid].start < lane->below)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo - lane->head;
}

/* Leaves out what @lane has of the occurrences completed without it. */
static void
lane_skip (TprofLiveLane *lane)
{
  size_t n;

  if (lane->skip == 0 || lane->len == lane->head)
    return;
  lane_sort (lane);
  n = lane_ready (lane);
  if (n > lane->skip)
    n = (size_t) lane->skip;
  lane->head += n;
  lane->used += n;
  lane->skip -= n;
}

/* The ranks @part (@n_part of them, ascending) taking part in @o's next
 * occurrences, and how many occurrences all of them have pending, after
 * sorting the lanes that need it; 0 when none has any. */
static size_t
completable (TprofLiveOp *o,
             int          world_size,
             const bool  *done,
             const bool  *absent,
             int         *part,
             size_t      *n_part)
{
  size_t n = SIZE_MAX;

  *n_part = 0;
  for (int r = 0; r < world_size; r++)
    {
      TprofLiveLane *lane = &o->lanes[r];

      lane_skip (lane);
      if (!takes_part (o, r, done, absent))
        continue;
      lane_sort (lane);
      part[(*n_part)++] = r;
      if (lane_ready (lane) < n)
        n = lane_ready (lane);
    }
  return *n_part > 0 ? n : 0;
}

/* The next occurrence of @o among the @n_part ranks @part (ascending)
 * taking part: its spreads, and the wait its late rank caused
 * (docs/analysis.md, the same arithmetic in the same order as
 * tprof_arrival_occurrence(); comparisons stand for fmin and fmax, the
 * starts and ends being numbers). */
static void
complete_one (TprofLiveOp *o,
              const int   *part,
              size_t       n_part)
{
  double first_start = INFINITY, last_start = -INFINITY, first_end = INFINITY, last_end = -INFINITY, wait = 0.0;
  int late = -1;

  for (size_t j = 0; j < n_part; j++)
    {
      const TprofLivePair *p = &o->lanes[part[j]].pairs[o->lanes[part[j]].head];
      double end = p->start + p->time;

      if (p->start > last_start)
        {
          last_start = p->start;
          late = part[j];
        }
      first_start = p->start < first_start ? p->start : first_start;
      first_end = end < first_end ? end : first_end;
      last_end = end > last_end ? end : last_end;
    }
  for (size_t j = 0; j < n_part; j++)
    {
      TprofLiveLane *lane = &o->lanes[part[j]];

      wait += last_start - lane->pairs[lane->head++].start;
      lane->used++;
    }
  /* room was reserved: these cannot fail */
  _tprof_running_median_add (&o->start_spread, last_start - first_start);
  _tprof_running_median_add (&o->end_spread, last_end - first_end);
  if (late >= 0)
    {
      o->wait_caused[late] += wait;
      o->late_count[late]++;
    }
  o->occurrences++;
}

/* Completes the occurrences of @o every rank taking part has, again
 * while a finished rank runs out of pending samples and leaves. */
bool
_tprof_live_op_complete (TprofLiveOp *o,
                         int          world_size,
                         const bool  *done,
                         const bool  *absent,
                         int         *part)
{
  size_t n, n_part;

  while ((n = completable (o, world_size, done, absent, part, &n_part)) > 0)
    {
      if (!_tprof_running_median_reserve (&o->start_spread, n)
          || !_tprof_running_median_reserve (&o->end_spread, n))
        return false;
      for (size_t k = 0; k < n; k++)
        complete_one (o, part, n_part);
    }
  o->dirty = false;
  return true;
}

static size_t
ranks_with_samples (const TprofLiveOp *o,
                    int                world_size)
{
  size_t n = 0;

  for (int r = 0; r < world_size; r++)
    n += o->rank_count[r] > 0;
  return n;
}

void
tprof_live_arrival (const TprofLive *live,
                    size_t           op,
                    TprofArrival    *out)
{
  const TprofLiveOp *o = live->ops[op];

  memset (out, 0, sizeof *out);
  out->n_ranks = ranks_with_samples (o, live->world_size);
  out->n_occurrences = o->occurrences;
  out->start_spread = _tprof_running_median_get (&o->start_spread);
  out->end_spread = _tprof_running_median_get (&o->end_spread);
  out->synchronising = out->n_ranks >= 2 && out->n_occurrences > 0 && out->start_spread > 0.0
                       && out->end_spread <= TPROF_SYNCHRONISING_END_TO_START * out->start_spread;
}

TprofStragglers *
tprof_live_stragglers (const TprofLive *live)
{
  TprofStragglers *s = tprof_stragglers_new (live->world_size);
  bool *has = calloc ((size_t) live->world_size, sizeof *has);

  for (size_t op = 0; s != NULL && has != NULL && op < live->n_ops; op++)
    {
      const TprofLiveOp *o = live->ops[op];
      TprofArrival arrival;

      tprof_live_arrival (live, op, &arrival);
      for (int r = 0; r < live->world_size; r++)
        has[r] = o->rank_count[r] > 0;
      _tprof_stragglers_add_blame (s, &arrival, o->wait_caused, o->late_count, has);
    }
  if (has == NULL)
    {
      tprof_stragglers_free (s);
      s = NULL;
    }
  free (has);
  return s;
}
