/* tprof-hang-calls.c — the in-flight MPI call of each thread and the ring of the last calls: two stores and a clock read per call. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "tprof-clock-private.h"
#include "tprof-hang-comms-private.h"

int _tprof_hang_tracking;

/* A call guarded by a stamp: odd while its writer changes it, so that a
 * reader on another thread retries instead of reading half of it. */
typedef struct
{
  uint64_t      stamp;
  TprofHangLiveCall call;
} HangSlot;

typedef struct
{
  HangSlot slot;     /* call.function NULL when no call is in flight */
  int      depth;    /* nested tracked calls (tprof's own inside a wrapper) */
} HangThread;

static HangThread threads[TPROF_HANG_THREADS];
static int32_t threads_used;
static HangSlot ring[TPROF_HANG_RING];
static uint64_t ring_next;
static __thread int32_t this_thread __attribute__((tls_model ("initial-exec")));

void
_tprof_hang_track_start (int rank, int world_size, TprofHangComm world, TprofHangComm self)
{
  _tprof_hang_comms_start (world_size, world, self, rank);
  __atomic_store_n (&_tprof_hang_tracking, 1, __ATOMIC_RELEASE);
}

static void
slot_write (HangSlot *slot, const TprofHangLiveCall *call)
{
  __atomic_store_n (&slot->stamp, slot->stamp + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  slot->call = *call;
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
      *call = slot->call;
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
_tprof_hang_call_begin_slow (const char *function, TprofHangKind kind, TprofHangComm comm)
{
  int32_t index = thread_index ();
  HangThread *t;
  TprofHangLiveCall call = { function, -1, index - 1, 0, 0, 0 };

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
  call.begin = _tprof_clock_ticks_local ();
  slot_write (&t->slot, &call);
  return index;
}

void
_tprof_hang_call_end_slow (uint64_t token)
{
  HangThread *t = &threads[token - 1];
  TprofHangLiveCall call;
  uint64_t next;

  if (--t->depth > 0)
    return;
  call = t->slot.call;
  call.end = _tprof_clock_ticks_local ();
  next = __atomic_fetch_add (&ring_next, 1, __ATOMIC_RELAXED);
  slot_write (&ring[next % TPROF_HANG_RING], &call);
  call.function = NULL;
  slot_write (&t->slot, &call);
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

size_t
_tprof_hang_recent (TprofHangLiveCall *calls, size_t max)
{
  uint64_t next = __atomic_load_n (&ring_next, __ATOMIC_ACQUIRE);
  uint64_t first = next > TPROF_HANG_RING ? next - TPROF_HANG_RING : 0;
  size_t n = 0;

  for (uint64_t i = first; i < next && n < max; i++)
    if (slot_read (&ring[i % TPROF_HANG_RING], &calls[n]) && calls[n].function != NULL)
      n++;
  return n;
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
