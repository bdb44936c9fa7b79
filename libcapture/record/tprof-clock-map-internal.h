/* tprof-clock-map-internal.h — a copy of the ticks-to-seconds map taken without the clock's lock, and conversion by it. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>

/* One piece of the map: converts the ticks from @from up to the next
 * piece's @from. */
typedef struct
{
  int64_t from;
  int64_t ref_ticks;
  double  ref_secs;
  double  secs_per_tick;
} TprofClockPiece;

#define TPROF_CLOCK_MAX_PIECES 256

typedef struct _TprofClockMapCopy
{
  int             n;
  TprofClockPiece pieces[TPROF_CLOCK_MAX_PIECES];
} TprofClockMapCopy;

/* Copies the map as it stands, without the clock's lock (which the
 * recording path takes): retries while a refit rewrites it, which is rare
 * and short. A tick frozen so far converts by the copy exactly as any
 * reader converts it; a later tick as a reader would convert it now. */
void _tprof_clock_map_copy (TprofClockMapCopy *out);

/* The piece of @n converting @ticks: most are in the last one. */
static inline const TprofClockPiece *
_tprof_clock_piece_of (const TprofClockPiece *pieces, int n, int64_t ticks)
{
  int j = n - 1;

  while (j > 0 && ticks < pieces[j].from)
    j--;
  return &pieces[j];
}

/* Seconds of CLOCK_MONOTONIC at @ticks, by @piece. */
static inline double
_tprof_clock_piece_secs (const TprofClockPiece *piece, int64_t ticks)
{
  return piece->ref_secs + (double) (ticks - piece->ref_ticks) * piece->secs_per_tick;
}

/* Seconds of CLOCK_MONOTONIC at @ticks, by the copy @map. */
static inline double
_tprof_clock_map_secs (const TprofClockMapCopy *map, int64_t ticks)
{
  return _tprof_clock_piece_secs (_tprof_clock_piece_of (map->pieces, map->n, ticks), ticks);
}
