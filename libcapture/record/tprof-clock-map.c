/* tprof-clock-map.c — the map from ticks to seconds of CLOCK_MONOTONIC, piece by piece, as samples are converted. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>

#include "tprof-clock-map-internal.h"
#include "tprof-clock-private.h"

/* The map from ticks to seconds: pieces[j] converts the ticks from its
 * @from up to the next piece's. A refit of the calibration becomes a new
 * piece, from the first tick not yet frozen. */
typedef TprofClockPiece MapPiece;

/* The clock's lock: guards the map here and the calibration in tprof-clock.c. */
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;

/* Pieces are only ever appended, or the last replaced while none of its
 * ticks is frozen, so a frozen tick's piece can be read without the lock. */
#define MAX_PIECES TPROF_CLOCK_MAX_PIECES
static MapPiece pieces[MAX_PIECES] = { { INT64_MIN, 0, 0.0, 1e-9 } };  /* nanoseconds: exact */
static int n_pieces = 1;
/* Odd while a refit writes the pieces: a copy without the lock retries. */
static uint32_t map_seq;
/* Ticks up to here convert as they do now, forever: some were converted,
 * or a timer returned their duration. Written under the lock. */
static int64_t frozen_ticks = INT64_MIN;
static double latest_secs_per_tick = 1e-9;  /* also read without the lock */
/* How far past now tprof_timer_stop() freezes the map: it takes the lock
 * once per this much time, not once per timer. */
#define FREEZE_AHEAD_SECS 0.1

/* The piece converting @ticks: most are in the last one. Without the
 * lock only for a frozen tick: a piece being replaced starts after it. */
static const MapPiece *
piece_of (int64_t ticks)
{
  int j = __atomic_load_n (&n_pieces, __ATOMIC_ACQUIRE) - 1;

  while (j > 0 && ticks < __atomic_load_n (&pieces[j].from, __ATOMIC_RELAXED))
    j--;
  return &pieces[j];
}

void
_tprof_clock_lock (void)
{
  pthread_mutex_lock (&clock_lock);
}

void
_tprof_clock_unlock (void)
{
  pthread_mutex_unlock (&clock_lock);
}

double
_tprof_clock_secs_locked (int64_t ticks)
{
  return _tprof_clock_piece_secs (piece_of (ticks), ticks);
}

double
_tprof_clock_duration_locked (int64_t start, int64_t ticks)
{
  return (double) ticks * piece_of (start)->secs_per_tick;
}

void
_tprof_clock_freeze_locked (int64_t ticks)
{
  if (ticks > frozen_ticks)
    __atomic_store_n (&frozen_ticks, ticks, __ATOMIC_RELEASE);
}

double
_tprof_clock_duration_frozen (int64_t start, int64_t ticks)
{
  if (TPROF_UNLIKELY (start > __atomic_load_n (&frozen_ticks, __ATOMIC_ACQUIRE)))
    {
      pthread_mutex_lock (&clock_lock);
      _tprof_clock_refine_locked ();  /* the fit is refined before it is frozen, as at a read */
      _tprof_clock_freeze_locked (_tprof_clock_ticks_local ()
                                  + (int64_t) (FREEZE_AHEAD_SECS / latest_secs_per_tick));
      pthread_mutex_unlock (&clock_lock);
    }
  return (double) ticks * piece_of (start)->secs_per_tick;
}

double
_tprof_clock_secs_per_tick (void)
{
  double spt;

  __atomic_load (&latest_secs_per_tick, &spt, __ATOMIC_RELAXED);
  return spt;
}

/* A piece's fit, stored field by field as _tprof_clock_map_copy() reads
 * it without the lock: atomically, so that a torn read is only ever one
 * that map_seq makes it retry. */
static void
store_fit (MapPiece *piece,
           int64_t   ref_ticks,
           double    ref_secs,
           double    secs_per_tick)
{
  __atomic_store_n (&piece->ref_ticks, ref_ticks, __ATOMIC_RELAXED);
  __atomic_store (&piece->ref_secs, &ref_secs, __ATOMIC_RELAXED);
  __atomic_store (&piece->secs_per_tick, &secs_per_tick, __ATOMIC_RELAXED);
}

/* Makes the ticks after every one converted so far convert by the new
 * fit; clock_lock held. */
void
_tprof_clock_map_set_locked (int64_t ref_ticks, double ref_secs, double secs_per_tick)
{
  int64_t from = frozen_ticks == INT64_MIN ? INT64_MIN : frozen_ticks + 1;
  MapPiece *last = &pieces[n_pieces - 1];

  __atomic_store_n (&map_seq, map_seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  if (from > last->from)
    {
      if (n_pieces == MAX_PIECES)
        {
          __atomic_store_n (&map_seq, map_seq + 1, __ATOMIC_RELEASE);
          return;  /* the map stays as it is, still consistent */
        }
      last++;
      __atomic_store_n (&last->from, from, __ATOMIC_RELAXED);
      store_fit (last, ref_ticks, ref_secs, secs_per_tick);
      __atomic_store_n (&n_pieces, n_pieces + 1, __ATOMIC_RELEASE);
    }
  else
    {
      /* no tick of the last piece is frozen: replace it (from stays) */
      store_fit (last, ref_ticks, ref_secs, secs_per_tick);
    }
  __atomic_store (&latest_secs_per_tick, &secs_per_tick, __ATOMIC_RELAXED);
  __atomic_store_n (&map_seq, map_seq + 1, __ATOMIC_RELEASE);
}

void
_tprof_clock_map_copy (TprofClockMapCopy *out)
{
  for (;;)
    {
      uint32_t seq = __atomic_load_n (&map_seq, __ATOMIC_ACQUIRE);
      int n = __atomic_load_n (&n_pieces, __ATOMIC_ACQUIRE);

      for (int j = 0; j < n; j++)
        {
          out->pieces[j].from = __atomic_load_n (&pieces[j].from, __ATOMIC_RELAXED);
          out->pieces[j].ref_ticks = __atomic_load_n (&pieces[j].ref_ticks, __ATOMIC_RELAXED);
          __atomic_load (&pieces[j].ref_secs, &out->pieces[j].ref_secs, __ATOMIC_RELAXED);
          __atomic_load (&pieces[j].secs_per_tick, &out->pieces[j].secs_per_tick, __ATOMIC_RELAXED);
        }
      out->n = n;
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      if (!(seq & 1) && __atomic_load_n (&map_seq, __ATOMIC_RELAXED) == seq)
        return;
    }
}


double
tprof_clock_ticks_to_secs (int64_t ticks)
{
  double secs;

  _tprof_clock_lock ();
  secs = _tprof_clock_secs_locked (ticks);
  _tprof_clock_unlock ();
  return secs;
}

double
tprof_clock_ticks_to_duration (int64_t ticks)
{
  return (double) ticks * _tprof_clock_secs_per_tick ();
}
