/* tprof-reservoir-private.h — bounded series: a uniform random subset of the samples and exact figures of all. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof-time-manager-internal.h"
#include "tprof/tprof-macros.h"

/* A series with a sample limit (tprof_time_manager_set_sample_limit) keeps
 * its first `limit` samples in its chunks as any series does; past that it
 * is "sampling": every later sample goes to the slow path, which counts it
 * in the exact figures below and, by Li's Algorithm L (1994), decides how
 * many samples to skip before the next one replaces a uniformly chosen
 * slot, so that the slots always hold a uniform random subset of everything
 * recorded. Only a replacement draws random numbers and calls log/exp; a
 * skipped sample costs a counter and the figures.
 *
 * No lock between the owner and readers:
 * - a replaced slot is written between two increments of its sequence
 *   number (odd while written); a reader copying it retries while the
 *   number is odd or changed, so it sees each slot as either the old or
 *   the new sample, never half of each;
 * - the exact figures sit behind one sequence number the same way;
 * - readers never convert a bounded series in place (the owner may write
 *   any slot at any time): they convert into a snapshot, owned by the
 *   series and kept until clear or free, as the visits' contract says
 *   of runs. A snapshot is reused while nothing was recorded since. */


typedef struct _TprofSnapshot TprofSnapshot;
struct _TprofSnapshot
{
  TprofSnapshot *next;
  uint64_t       version;  /* samples recorded when it was taken */
  bool           retained; /* handed to a visit: kept until clear or free */
  size_t         n;
  double        *times;    /* n durations, then n starts, seconds */
};

typedef struct _TprofReservoir TprofReservoir;
struct _TprofReservoir
{
  size_t    limit;
  bool      sampling;      /* set (release) once the slots are full */

  /* the owner's alone */
  uint64_t  skip;          /* samples still to pass by before the next is taken */
  double    w;             /* Algorithm L's W */
  uint64_t  rng;           /* splitmix64 state */

  /* the exact figures, written by the owner under stats_seq (odd while
   * written); durations of ticks and of seconds summed apart */
  uint32_t  stats_seq;
  uint64_t  recorded;
  uint64_t  sum_ticks;
  int64_t   min_ticks, max_ticks;
  uint64_t  n_ticks;
  double    sum_secs, sum_secs_carry;  /* Neumaier's compensated sum */
  double    min_secs, max_secs;
  uint64_t  n_secs;

  uint32_t *slot_seq;      /* [limit]: odd while the owner replaces the slot */

  TprofSnapshot *snapshots;  /* newest first; the manager's lock */
};

/* A reservoir of @limit slots whose random numbers start from @seed;
 * NULL when memory is exhausted. */
TprofReservoir *_tprof_reservoir_new (size_t limit, uint64_t seed);
void _tprof_reservoir_free (TprofReservoir *res);

/* Where slot @j (< limit) of a bounded series lives: chunk k holds
 * min(FIRST_CHUNK << k, limit - first) slots, durations then starts. */
void _tprof_reservoir_locate (const TprofReservoir *res, uint64_t *const *chunks, size_t j,
                              uint64_t **duration, uint64_t **start);
/* Capacity of chunk @k of a series bounded by @limit (0: unbounded). */
size_t _tprof_reservoir_chunk_capacity (size_t limit, int k);

/* The slots are full: starts sampling. Computes the figures of the
 * @limit samples stored in @chunks (raw slots) and draws the first skip. */
void _tprof_reservoir_start (TprofReservoir *res, uint64_t *const *chunks);
/* Counts one more sample and, when its turn has come, stores it in a
 * random slot. Called by the owner only, once sampling. */
void _tprof_reservoir_offer (TprofReservoir *res, uint64_t *const *chunks, int64_t start_ticks,
                             uint64_t duration);

/* Reads slot @j (< limit) whole: both words of the same sample, waiting
 * out the owner while it replaces it. */
void _tprof_reservoir_read_slot (TprofReservoir *res, uint64_t *const *chunks, size_t j, uint64_t *duration,
                                 uint64_t *start);

/* Version of @res as readers see it: samples recorded, or @len before sampling. */
uint64_t _tprof_reservoir_version (TprofReservoir *res, size_t len);

/* A snapshot of the first @len (<= limit) slots, converted to seconds:
 * the one taken last when nothing was recorded since, else a new one.
 * @retain: the caller keeps its pointers past the manager's lock (the
 * visits' contract), so it lives until clear or free; otherwise it is
 * valid while the lock is held and the next read may replace it. So only
 * visits made while recording go on adds memory, not copies (get_time).
 * The manager's lock held. NULL when memory is exhausted. */
const TprofSnapshot *_tprof_reservoir_snapshot_locked (TprofReservoir *res, uint64_t *const *chunks,
                                                       size_t len, bool retain);

/* Adds to @figures the exact figures of @res; false when not sampling (the
 * caller then counts the stored samples). Converts ticks by the latest
 * fit of the clock. */
bool _tprof_reservoir_figures (TprofReservoir *res, TprofRecordedFigures *figures);
