/* tprof-hang-calls.c — the in-flight MPI call and the innermost open region of each thread, and the ring of the last calls: two stores and a clock read per call. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-clock-private.h"
#include "tprof-hang-comms-private.h"
#include "tprof/tprof-timer.h"

int _tprof_hang_tracking;

/* A call guarded by a stamp: odd while its writer changes it, so that a
 * reader on another thread retries instead of reading half of it. */
typedef struct
{
  uint64_t      stamp;
  TprofHangLiveCall call;
} HangSlot;

/* Each thread's own ring of its last calls: no atomic read-modify-write
 * on the way of a call; the watchdog merges the rings by time. */
typedef struct
{
  HangSlot slot;     /* call.function NULL when no call is in flight */
  HangSlot region;   /* the innermost open region; function NULL when none */
  int      depth;    /* nested tracked calls (tprof's own inside a wrapper) */
  uint64_t ring_next;
  HangSlot ring[TPROF_HANG_RING];
} HangThread;

static HangThread threads[TPROF_HANG_THREADS];
static int32_t threads_used;
static __thread int32_t this_thread __attribute__((tls_model ("initial-exec")));

/* This thread's open regions, innermost last; past the deepest ones only
 * counted. */
#define REGION_DEPTH 64
typedef struct
{
  int     name_id;
  int64_t begin;
} OpenRegion;
static __thread OpenRegion open_regions[REGION_DEPTH] __attribute__((tls_model ("initial-exec")));
static __thread int n_open_regions __attribute__((tls_model ("initial-exec")));
static __thread int regions_too_deep __attribute__((tls_model ("initial-exec")));

void
_tprof_hang_track_start (int rank, int world_size, TprofHangComm world, TprofHangComm self)
{
  _tprof_hang_comms_start (world_size, world, self, rank);
  __atomic_store_n (&_tprof_hang_tracking, 1, __ATOMIC_RELEASE);
  __atomic_store_n (&_tprof_record_state.regions_tracked, 1, __ATOMIC_RELEASE);
}

/* A call is copied word by word with atomic accesses, so that a reader
 * racing a writer reads words that are each whole (and then retries, the
 * stamp having moved) rather than racing on plain memory. */
_Static_assert (sizeof (TprofHangLiveCall) % sizeof (uint64_t) == 0, "a call is whole words");
#define CALL_WORDS (sizeof (TprofHangLiveCall) / sizeof (uint64_t))

static void
call_store (TprofHangLiveCall *to, const TprofHangLiveCall *from)
{
  uint64_t words[CALL_WORDS];

  memcpy (words, from, sizeof words);
  for (size_t i = 0; i < CALL_WORDS; i++)
    __atomic_store_n ((uint64_t *) (void *) to + i, words[i], __ATOMIC_RELAXED);
}

static void
call_load (TprofHangLiveCall *to, const TprofHangLiveCall *from)
{
  uint64_t words[CALL_WORDS];

  for (size_t i = 0; i < CALL_WORDS; i++)
    words[i] = __atomic_load_n ((const uint64_t *) (const void *) from + i, __ATOMIC_RELAXED);
  memcpy (to, words, sizeof words);
}

static void
slot_write (HangSlot *slot, const TprofHangLiveCall *call)
{
  __atomic_store_n (&slot->stamp, slot->stamp + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  call_store (&slot->call, call);
  __atomic_store_n (&slot->stamp, slot->stamp + 1, __ATOMIC_RELEASE);
}

/* Copies @slot into @call; 0 when it was being written all along. */
static int
slot_read (const HangSlot *slot, TprofHangLiveCall *call)
{
  for (int attempt = 0; attempt < 100; attempt++)
    {
      uint64_t before = __atomic_load_n (&slot->stamp, __ATOMIC_ACQUIRE);

      if (before & 1)
        continue;
      call_load (call, &slot->call);
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      if (__atomic_load_n (&slot->stamp, __ATOMIC_RELAXED) == before)
        return 1;
    }
  return 0;
}

/* This thread's index + 1, 0 when every slot is taken. */
static int32_t
thread_index (void)
{
  if (TPROF_UNLIKELY (this_thread == 0))
    {
      int32_t index = __atomic_fetch_add (&threads_used, 1, __ATOMIC_RELAXED);

      this_thread = index < TPROF_HANG_THREADS ? index + 1 : -1;
    }
  return this_thread > 0 ? this_thread : 0;
}

uint64_t
_tprof_hang_call_begin_slow (const char *function, TprofHangKind kind, TprofHangComm comm, int64_t start_ticks)
{
  int32_t index = thread_index ();
  HangThread *t;
  TprofHangLiveCall call = { function, -1, index - 1, 0, start_ticks, -1 };

  if (index == 0)
    return 0;
  t = &threads[index - 1];
  if (t->depth++ > 0)
    return index;
  if (kind != TPROF_HANG_NO_COMM)
    {
      call.comm = _tprof_hang_comm_find (comm);
      if (TPROF_UNLIKELY (call.comm < 0))
        call.comm = _tprof_hang_comm_find_or_add (comm);
      if (kind == TPROF_HANG_COLLECTIVE && call.comm >= 0)
        {
          /* MPI forbids two threads in collectives of one communicator
           * at once: no read-modify-write needed */
          uint64_t *sequence = &_tprof_hang_comms[call.comm].sequence;

          call.sequence = __atomic_load_n (sequence, __ATOMIC_RELAXED) + 1;
          __atomic_store_n (sequence, call.sequence, __ATOMIC_RELAXED);
        }
    }
  slot_write (&t->slot, &call);
  return index;
}

void
_tprof_hang_call_end_slow (uint64_t token, double duration)
{
  HangThread *t = &threads[token - 1];
  TprofHangLiveCall call;
  uint64_t next;

  if (--t->depth > 0)
    return;
  call = t->slot.call;
  call.duration = duration >= 0 ? duration : 0;
  next = t->ring_next;
  slot_write (&t->ring[next % TPROF_HANG_RING], &call);
  __atomic_store_n (&t->ring_next, next + 1, __ATOMIC_RELEASE);
  /* no call in flight: the function alone changes */
  __atomic_store_n (&t->slot.stamp, t->slot.stamp + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (&t->slot.call.function, NULL, __ATOMIC_RELAXED);
  __atomic_store_n (&t->slot.stamp, t->slot.stamp + 1, __ATOMIC_RELEASE);
}

uint64_t
_tprof_hang_call_begin_now (const char *function, TprofHangKind kind, TprofHangComm comm)
{
  return _tprof_hang_call_begin (function, kind, comm, _tprof_clock_ticks_local ());
}

void
_tprof_hang_call_end_now (uint64_t token)
{
  if (token != 0)
    {
      HangThread *t = &threads[token - 1];
      int64_t ticks = _tprof_clock_ticks_local () - t->slot.call.begin;

      _tprof_hang_call_end_slow (token, (double) ticks * _tprof_clock_secs_per_tick ());
    }
}

size_t
_tprof_hang_in_flight (TprofHangLiveCall *calls, size_t max)
{
  int32_t used = __atomic_load_n (&threads_used, __ATOMIC_ACQUIRE);
  size_t n = 0;

  for (int32_t i = 0; i < used && i < TPROF_HANG_THREADS && n < max; i++)
    if (slot_read (&threads[i].slot, &calls[n]) && calls[n].function != NULL)
      n++;
  return n;
}

static int
by_begin (const void *a, const void *b)
{
  const TprofHangLiveCall *x = a, *y = b;

  return (x->begin > y->begin) - (x->begin < y->begin);
}

/* Every thread's ring, then the @max latest of them, oldest first; for
 * one thread at a time (the watchdog's). */
size_t
_tprof_hang_recent (TprofHangLiveCall *calls, size_t max)
{
  static TprofHangLiveCall all[TPROF_HANG_THREADS * TPROF_HANG_RING];
  int32_t used = __atomic_load_n (&threads_used, __ATOMIC_ACQUIRE);
  size_t n = 0, first;

  for (int32_t i = 0; i < used && i < TPROF_HANG_THREADS; i++)
    {
      uint64_t next = __atomic_load_n (&threads[i].ring_next, __ATOMIC_ACQUIRE);

      for (uint64_t k = next > TPROF_HANG_RING ? next - TPROF_HANG_RING : 0; k < next; k++)
        if (slot_read (&threads[i].ring[k % TPROF_HANG_RING], &all[n]) && all[n].function != NULL)
          n++;
    }
  qsort (all, n, sizeof *all, by_begin);
  first = n > max ? n - max : 0;
  memcpy (calls, all + first, (n - first) * sizeof *calls);
  return n - first;
}

/* Every call that begins or ends moves its thread's stamp. */
uint64_t
_tprof_hang_progress (void)
{
  int32_t used = __atomic_load_n (&threads_used, __ATOMIC_ACQUIRE);
  uint64_t sum = 0;

  for (int32_t i = 0; i < used && i < TPROF_HANG_THREADS; i++)
    sum += __atomic_load_n (&threads[i].slot.stamp, __ATOMIC_RELAXED);
  return sum;
}

/* Publishes this thread's innermost open region (none: function NULL). */
static void
region_publish (HangThread *t, int32_t index)
{
  TprofHangLiveCall region = { NULL, -1, index - 1, 0, 0, -1 };

  if (n_open_regions > 0)
    {
      region.function = _tprof_name_lookup (open_regions[n_open_regions - 1].name_id);
      region.begin = open_regions[n_open_regions - 1].begin;
    }
  slot_write (&t->region, &region);
}

void
_tprof_hang_region_open_slow (int name_id, int64_t start_ticks)
{
  int32_t index = thread_index ();

  if (index == 0)
    return;
  if (n_open_regions == REGION_DEPTH)
    {
      regions_too_deep++;
      return;
    }
  open_regions[n_open_regions++] = (OpenRegion) { name_id, start_ticks };
  region_publish (&threads[index - 1], index);
}

/* Regions usually close innermost first; a timer stopped out of that
 * order is found below the top. */
void
_tprof_hang_region_close_slow (int name_id, int64_t start_ticks)
{
  int32_t index;
  int i = n_open_regions - 1;

  if (i < 0 || (index = thread_index ()) == 0)
    return;  /* an MPI call's timer, or opened before the tracking began */
  if (regions_too_deep > 0)
    {
      regions_too_deep--;
      return;
    }
  while (i >= 0 && (open_regions[i].name_id != name_id || open_regions[i].begin != start_ticks))
    i--;
  if (i < 0)
    return;
  memmove (&open_regions[i], &open_regions[i + 1], (size_t) (n_open_regions - i - 1) * sizeof *open_regions);
  n_open_regions--;
  region_publish (&threads[index - 1], index);
}

int
_tprof_hang_open_region (TprofHangLiveCall *region)
{
  int32_t used = __atomic_load_n (&threads_used, __ATOMIC_ACQUIRE);
  int found = 0;

  for (int32_t i = 0; i < used && i < TPROF_HANG_THREADS; i++)
    {
      TprofHangLiveCall r;

      if (slot_read (&threads[i].region, &r) && r.function != NULL && (!found || r.begin > region->begin))
        {
          *region = r;
          found = 1;
        }
    }
  return found;
}
