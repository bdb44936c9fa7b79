/* tprof-reservoir.c — bounded series: Algorithm L over a series' slots, exact figures, snapshots for readers. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-clock-private.h"
#include "tprof-reservoir-private.h"
#include "tprof-time-manager-internal.h"

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in the open interval (0, 1): its logarithm is finite. */
static double
uniform_open (uint64_t *state)
{
  return ((double) (splitmix64 (state) >> 11) + 0.5) * 0x1p-53;
}

/* Uniform in [0, n), by Lemire's multiply-shift (bias below 2^-64 * n). */
static size_t
uniform_index (uint64_t *state, size_t n)
{
  return (size_t) (((unsigned __int128) splitmix64 (state) * n) >> 64);
}

TprofReservoir *
_tprof_reservoir_new (size_t limit, uint64_t seed)
{
  TprofReservoir *res = calloc (1, sizeof *res);

  if (res == NULL)
    return NULL;
  res->slot_seq = calloc (limit, sizeof *res->slot_seq);
  if (res->slot_seq == NULL)
    {
      free (res);
      return NULL;
    }
  res->limit = limit;
  res->rng = seed;
  return res;
}

void
_tprof_reservoir_free (TprofReservoir *res)
{
  TprofSnapshot *snap, *next;

  if (res == NULL)
    return;
  for (snap = res->snapshots; snap != NULL; snap = next)
    {
      next = snap->next;
      free (snap->times);
      free (snap);
    }
  free (res->slot_seq);
  free (res);
}

size_t
_tprof_reservoir_chunk_capacity (size_t limit, int k)
{
  size_t capacity = _tprof_series_chunk_capacity (k);
  size_t first = capacity - TPROF_SERIES_FIRST_CHUNK;  /* chunks before k: FIRST * (2^k - 1) */

  if (limit == 0)
    return capacity;
  if (first >= limit)
    return 0;
  return capacity < limit - first ? capacity : limit - first;
}

void
_tprof_reservoir_locate (const TprofReservoir *res, uint64_t *const *chunks, size_t j,
                         uint64_t **duration, uint64_t **start)
{
  /* chunk k begins at FIRST * (2^k - 1) */
  int k = 63 - __builtin_clzll ((unsigned long long) (j / TPROF_SERIES_FIRST_CHUNK + 1));
  size_t first = _tprof_series_chunk_capacity (k) - TPROF_SERIES_FIRST_CHUNK;
  uint64_t *chunk = chunks[k];

  *duration = chunk + (j - first);
  *start = chunk + _tprof_reservoir_chunk_capacity (res->limit, k) + (j - first);
}

/* Samples to pass by before the next is taken (Algorithm L). */
static uint64_t
draw_skip (TprofReservoir *res)
{
  double skip = floor (log (uniform_open (&res->rng)) / log1p (-res->w));

  return skip < 0x1p62 ? (uint64_t) skip : (uint64_t) 1 << 62;
}

/* W *= U^(1/k). For a large reservoir the exponent x = log(U)/k is tiny:
 * then a cubic gives exp(x) within x^4/24 (< 5e-14 relative), at a
 * fraction of exp()'s cost, which a replacement otherwise pays twice. */
static void
draw_w (TprofReservoir *res)
{
  double x = log (uniform_open (&res->rng)) / (double) res->limit;

  res->w *= x > -1e-3 ? 1.0 + x * (1.0 + x * (0.5 + x * (1.0 / 6.0))) : exp (x);
}

/* Adds one duration slot to the figures; the owner, inside stats_seq. */
static inline void
figures_add (TprofReservoir *res, uint64_t slot)
{
  if (slot & TPROF_SLOT_TICKS)
    {
      int64_t ticks = (int64_t) (slot << 1) >> 1;

      if (ticks < 0)
        ticks = 0;  /* converts to 0 s, as every reader does */
      __atomic_store_n (&res->sum_ticks, res->sum_ticks + (uint64_t) ticks, __ATOMIC_RELAXED);
      if (res->n_ticks == 0 || ticks < res->min_ticks)
        __atomic_store_n (&res->min_ticks, ticks, __ATOMIC_RELAXED);
      if (res->n_ticks == 0 || ticks > res->max_ticks)
        __atomic_store_n (&res->max_ticks, ticks, __ATOMIC_RELAXED);
      __atomic_store_n (&res->n_ticks, res->n_ticks + 1, __ATOMIC_RELAXED);
    }
  else
    {
      double secs, sum = res->sum_secs, t, carry = res->sum_secs_carry;

      memcpy (&secs, &slot, sizeof secs);
      t = sum + secs;
      carry += fabs (sum) >= fabs (secs) ? (sum - t) + secs : (secs - t) + sum;
      __atomic_store (&res->sum_secs, &t, __ATOMIC_RELAXED);
      __atomic_store (&res->sum_secs_carry, &carry, __ATOMIC_RELAXED);
      if (res->n_secs == 0 || secs < res->min_secs)
        __atomic_store (&res->min_secs, &secs, __ATOMIC_RELAXED);
      if (res->n_secs == 0 || secs > res->max_secs)
        __atomic_store (&res->max_secs, &secs, __ATOMIC_RELAXED);
      __atomic_store_n (&res->n_secs, res->n_secs + 1, __ATOMIC_RELAXED);
    }
}

static inline void
stats_begin (TprofReservoir *res)
{
  __atomic_store_n (&res->stats_seq, res->stats_seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
}

static inline void
stats_end (TprofReservoir *res)
{
  __atomic_store_n (&res->stats_seq, res->stats_seq + 1, __ATOMIC_RELEASE);
}

void
_tprof_reservoir_start (TprofReservoir *res, uint64_t *const *chunks)
{
  stats_begin (res);
  for (size_t j = 0; j < res->limit; j++)
    {
      uint64_t *duration, *start;

      _tprof_reservoir_locate (res, chunks, j, &duration, &start);
      figures_add (res, *duration);
    }
  __atomic_store_n (&res->recorded, (uint64_t) res->limit, __ATOMIC_RELAXED);
  stats_end (res);
  res->w = exp (log (uniform_open (&res->rng)) / (double) res->limit);
  res->skip = draw_skip (res);
  __atomic_store_n (&res->sampling, true, __ATOMIC_RELEASE);
}

void
_tprof_reservoir_offer (TprofReservoir *res, uint64_t *const *chunks, int64_t start_ticks, uint64_t duration)
{
  uint64_t *duration_slot, *start_slot;
  size_t j;

  stats_begin (res);
  figures_add (res, duration);
  __atomic_store_n (&res->recorded, res->recorded + 1, __ATOMIC_RELAXED);
  stats_end (res);
  if (res->skip > 0)
    {
      res->skip--;
      return;
    }
  j = uniform_index (&res->rng, res->limit);
  _tprof_reservoir_locate (res, chunks, j, &duration_slot, &start_slot);
  __atomic_store_n (&res->slot_seq[j], res->slot_seq[j] + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (duration_slot, duration, __ATOMIC_RELAXED);
  __atomic_store_n (start_slot, (uint64_t) start_ticks, __ATOMIC_RELAXED);
  __atomic_store_n (&res->slot_seq[j], res->slot_seq[j] + 1, __ATOMIC_RELEASE);
  draw_w (res);
  res->skip = draw_skip (res);
}

/* Waits out a writer that holds a sequence number odd: it is one store
 * away, unless the scheduler took it off its CPU. */
static void
seq_pause (unsigned *spins)
{
  if (++*spins % 64 == 0)
    sched_yield ();
#if defined(__x86_64__) || defined(__i386__)
  else
    __builtin_ia32_pause ();
#endif
}

/* Reads the figures consistently. */
static void
figures_read (TprofReservoir *res, TprofReservoir *out)
{
  unsigned spins = 0;

  for (;;)
    {
      uint32_t seq = __atomic_load_n (&res->stats_seq, __ATOMIC_ACQUIRE);

      if (seq & 1)
        {
          seq_pause (&spins);
          continue;
        }
      out->recorded = __atomic_load_n (&res->recorded, __ATOMIC_RELAXED);
      out->sum_ticks = __atomic_load_n (&res->sum_ticks, __ATOMIC_RELAXED);
      out->min_ticks = __atomic_load_n (&res->min_ticks, __ATOMIC_RELAXED);
      out->max_ticks = __atomic_load_n (&res->max_ticks, __ATOMIC_RELAXED);
      out->n_ticks = __atomic_load_n (&res->n_ticks, __ATOMIC_RELAXED);
      __atomic_load (&res->sum_secs, &out->sum_secs, __ATOMIC_RELAXED);
      __atomic_load (&res->sum_secs_carry, &out->sum_secs_carry, __ATOMIC_RELAXED);
      __atomic_load (&res->min_secs, &out->min_secs, __ATOMIC_RELAXED);
      __atomic_load (&res->max_secs, &out->max_secs, __ATOMIC_RELAXED);
      out->n_secs = __atomic_load_n (&res->n_secs, __ATOMIC_RELAXED);
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      if (__atomic_load_n (&res->stats_seq, __ATOMIC_RELAXED) == seq)
        return;
    }
}

uint64_t
_tprof_reservoir_version (TprofReservoir *res, size_t len)
{
  uint64_t recorded;
  unsigned spins = 0;

  if (!__atomic_load_n (&res->sampling, __ATOMIC_ACQUIRE))
    return len;
  for (;;)
    {
      uint32_t seq = __atomic_load_n (&res->stats_seq, __ATOMIC_ACQUIRE);

      recorded = __atomic_load_n (&res->recorded, __ATOMIC_RELAXED);
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      if (!(seq & 1) && __atomic_load_n (&res->stats_seq, __ATOMIC_RELAXED) == seq)
        return recorded;
      seq_pause (&spins);
    }
}

bool
_tprof_reservoir_figures (TprofReservoir *res, TprofRecordedFigures *figures)
{
  TprofReservoir now;
  double per_tick;

  if (!__atomic_load_n (&res->sampling, __ATOMIC_ACQUIRE))
    return false;
  figures_read (res, &now);
  per_tick = _tprof_clock_secs_per_tick ();
  figures->recorded += now.recorded;
  figures->sum += (now.sum_secs + now.sum_secs_carry) + (double) now.sum_ticks * per_tick;
  if (now.n_ticks > 0)
    {
      figures->min = fmin (figures->min, (double) now.min_ticks * per_tick);
      figures->max = fmax (figures->max, (double) now.max_ticks * per_tick);
    }
  if (now.n_secs > 0)
    {
      figures->min = fmin (figures->min, now.min_secs);
      figures->max = fmax (figures->max, now.max_secs);
    }
  return true;
}

void
_tprof_reservoir_read_slot (TprofReservoir *res, uint64_t *const *chunks, size_t j, uint64_t *duration, uint64_t *start)
{
  uint64_t *duration_slot, *start_slot;
  unsigned spins = 0;

  _tprof_reservoir_locate (res, chunks, j, &duration_slot, &start_slot);
  for (;;)
    {
      uint32_t seq = __atomic_load_n (&res->slot_seq[j], __ATOMIC_ACQUIRE);

      *duration = __atomic_load_n (duration_slot, __ATOMIC_RELAXED);
      *start = __atomic_load_n (start_slot, __ATOMIC_RELAXED);
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      if (!(seq & 1) && __atomic_load_n (&res->slot_seq[j], __ATOMIC_RELAXED) == seq)
        return;
      seq_pause (&spins);
    }
}

const TprofSnapshot *
_tprof_reservoir_snapshot_locked (TprofReservoir *res, uint64_t *const *chunks, size_t len, bool retain)
{
  uint64_t version = _tprof_reservoir_version (res, len);
  TprofSnapshot *snap;
  int64_t latest = INT64_MIN;

  if (len > res->limit)
    len = res->limit;
  if (res->snapshots != NULL && res->snapshots->version == version && res->snapshots->n == len)
    {
      res->snapshots->retained |= retain;
      return res->snapshots;
    }
  if (res->snapshots != NULL && !res->snapshots->retained)
    {
      /* only a copy under the lock used it: nobody holds it any more */
      snap = res->snapshots;
      res->snapshots = snap->next;
      free (snap->times);
      free (snap);
    }
  snap = calloc (1, sizeof *snap);
  if (snap == NULL)
    return NULL;
  if (len > 0 && (snap->times = malloc (2 * len * sizeof *snap->times)) == NULL)
    {
      free (snap);
      return NULL;
    }
  snap->n = len;
  snap->version = version;
  snap->retained = retain;
  _tprof_clock_lock ();
  for (size_t j = 0; j < len; j++)
    {
      uint64_t duration, start;
      int64_t start_ticks, ticks;

      _tprof_reservoir_read_slot (res, chunks, j, &duration, &start);
      start_ticks = (int64_t) start;
      if (duration & TPROF_SLOT_TICKS)
        {
          ticks = (int64_t) (duration << 1) >> 1;
          snap->times[j] = ticks > 0 ? _tprof_clock_duration_locked (start_ticks, ticks) : 0.0;
        }
      else
        memcpy (&snap->times[j], &duration, sizeof (double));
      snap->times[len + j] = _tprof_clock_secs_locked (start_ticks);
      if (start_ticks > latest)
        latest = start_ticks;
    }
  if (len > 0)
    _tprof_clock_freeze_locked (latest);
  _tprof_clock_unlock ();
  snap->next = res->snapshots;
  res->snapshots = snap;
  return snap;
}
