/* tprof-series-copy.c — a series' published samples read without the manager's lock, beside recording and in-place conversion. */
/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <string.h>
#include <time.h>

#include "tprof-clock-map-internal.h"
#include "tprof-reservoir-private.h"
#include "tprof-time-manager-internal.h"

size_t
_tprof_series_locate (TprofSeries *series, size_t i, uint64_t **duration, uint64_t **start)
{
  TprofReservoir *res = __atomic_load_n (&series->reservoir, __ATOMIC_ACQUIRE);
  /* chunk k begins at FIRST * (2^k - 1) */
  int k = 63 - __builtin_clzll ((unsigned long long) (i / TPROF_SERIES_FIRST_CHUNK + 1));
  size_t first = _tprof_series_chunk_capacity (k) - TPROF_SERIES_FIRST_CHUNK;
  size_t capacity = _tprof_reservoir_chunk_capacity (res != NULL ? res->limit : 0, k);
  uint64_t *chunk = __atomic_load_n (&series->chunks[k], __ATOMIC_ACQUIRE);

  *duration = chunk + (i - first);
  *start = chunk + capacity + (i - first);
  return capacity - (i - first);
}

bool
_tprof_series_converted (TprofSeries *series, size_t *converted)
{
  uint32_t seq = __atomic_load_n (&series->convert_seq, __ATOMIC_ACQUIRE);

  *converted = __atomic_load_n (&series->converted, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  return !(seq & 1) && __atomic_load_n (&series->convert_seq, __ATOMIC_RELAXED) == seq;
}

/* One sample's slots as seconds: raw unless @secs (a reader converted
 * them in place). */
static void
slots_to_secs (uint64_t duration, uint64_t start, bool secs, const TprofClockMapCopy *map, double *dur_out,
               double *start_out)
{
  const TprofClockPiece *piece;
  int64_t ticks;

  if (secs)
    {
      memcpy (dur_out, &duration, sizeof *dur_out);
      memcpy (start_out, &start, sizeof *start_out);
      return;
    }
  piece = _tprof_clock_piece_of (map->pieces, map->n, (int64_t) start);
  *start_out = _tprof_clock_piece_secs (piece, (int64_t) start);
  if (!(duration & TPROF_SLOT_TICKS))
    memcpy (dur_out, &duration, sizeof *dur_out);
  else
    {
      ticks = (int64_t) (duration << 1) >> 1;
      *dur_out = ticks > 0 ? (double) ticks * piece->secs_per_tick : 0.0;
    }
}

/* A bounded series: its slots are raw, each read whole (the owner may
 * replace any once sampling). */
static void
copy_bounded (TprofSeries *series, TprofReservoir *res, size_t from, size_t n, double *durations,
              double *starts, const TprofClockMapCopy *map)
{
  for (size_t j = 0; j < n; j++)
    {
      uint64_t duration, start;

      _tprof_reservoir_read_slot (res, series->chunks, from + j, &duration, &start);
      slots_to_secs (duration, start, false, map, &durations[j], &starts[j]);
    }
}

/* Copies @n samples from @from, all in one chunk, while no reader
 * converts them; false when one kept converting for too long. */
static bool
copy_run (TprofSeries *series, size_t from, size_t n, double *durations, double *starts,
          const TprofClockMapCopy *map)
{
  uint64_t *dur_slots, *start_slots;

  _tprof_series_locate (series, from, &dur_slots, &start_slots);
  for (int attempt = 0; attempt < 1000; attempt++)
    {
      uint32_t seq = __atomic_load_n (&series->convert_seq, __ATOMIC_ACQUIRE);
      size_t converted = __atomic_load_n (&series->converted, __ATOMIC_RELAXED);

      if (!(seq & 1))
        {
          for (size_t j = 0; j < n; j++)
            slots_to_secs (__atomic_load_n (&dur_slots[j], __ATOMIC_RELAXED),
                           __atomic_load_n (&start_slots[j], __ATOMIC_RELAXED), from + j < converted, map,
                           &durations[j], &starts[j]);
          __atomic_thread_fence (__ATOMIC_ACQUIRE);
          if (__atomic_load_n (&series->convert_seq, __ATOMIC_RELAXED) == seq)
            return true;
        }
      if (attempt < 16)
        sched_yield ();
      else
        nanosleep (&(struct timespec) { 0, 100000 }, NULL);  /* 0.1 ms; at most ~0.1 s in all */
    }
  return false;
}

size_t
_tprof_series_copy_secs (TprofSeries *series, size_t from, size_t max, double *durations, double *starts,
                         const TprofClockMapCopy *map)
{
  size_t len = __atomic_load_n (&series->len, __ATOMIC_ACQUIRE);
  TprofReservoir *res = __atomic_load_n (&series->reservoir, __ATOMIC_ACQUIRE);
  size_t done = 0;

  if (len <= from)
    return 0;
  if (len - from < max)
    max = len - from;
  if (res != NULL)
    {
      copy_bounded (series, res, from, max, durations, starts, map);
      return max;
    }
  while (done < max)
    {
      uint64_t *dur_slot, *start_slot;
      size_t run = _tprof_series_locate (series, from + done, &dur_slot, &start_slot);

      if (run > max - done)
        run = max - done;
      if (!copy_run (series, from + done, run, durations + done, starts + done, map))
        break;
      done += run;
    }
  return done;
}
