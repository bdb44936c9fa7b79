/* tprof-scope.c — each thread's stack of enabled managers, and TPROF_SCOPE recording into it. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-clock-private.h"
#include "tprof-hang-watch-internal.h"
#include "tprof-time-manager-internal.h"
#include "tprof/tprof-error.h"
#include "tprof/tprof-timer.h"

/* The first TPROF_INLINE_ENABLED entries of a thread's stack live in TLS,
 * which the hot path reads without indirection; deeper ones on the heap.
 * Few: static TLS is scarce for a library loaded with dlopen (see
 * tprof-names.c), and more than four managers enabled at once on one
 * thread is rare. */
#define TPROF_INLINE_ENABLED 4

typedef struct
{
  TprofTimeManager  *tm;
  TprofThreadBuffer *buffer;
} TprofEnabled;

/* One thread-local block, so the hot path finds it with one offset. */
typedef struct
{
  int           depth;
  int           overflow_capacity;
  TprofEnabled  inline_stack[TPROF_INLINE_ENABLED];
  TprofEnabled *overflow_stack;
} EnabledStack;

static __thread EnabledStack enabled __attribute__((tls_model ("initial-exec")));

static TprofEnabled *
stack_slot (int i)
{
  return i < TPROF_INLINE_ENABLED ? &enabled.inline_stack[i] : &enabled.overflow_stack[i - TPROF_INLINE_ENABLED];
}

/* Room for one more entry; false when memory is exhausted. */
static bool
stack_reserve (void)
{
  int needed = enabled.depth + 1 - TPROF_INLINE_ENABLED;
  TprofEnabled *grown;
  int capacity;

  if (needed <= enabled.overflow_capacity)
    return true;
  capacity = enabled.overflow_capacity != 0 ? enabled.overflow_capacity * 2 : TPROF_INLINE_ENABLED;
  grown = realloc (enabled.overflow_stack, (size_t) capacity * sizeof *grown);
  if (grown == NULL)
    return false;
  enabled.overflow_stack = grown;
  enabled.overflow_capacity = capacity;
  return true;
}

/* The heap part is given back once the stack is shallow again, so a
 * thread that ends with nothing enabled leaves nothing behind. */
static void
stack_trim (void)
{
  if (enabled.depth <= TPROF_INLINE_ENABLED && enabled.overflow_stack != NULL)
    {
      free (enabled.overflow_stack);
      enabled.overflow_stack = NULL;
      enabled.overflow_capacity = 0;
    }
}

void
tprof_time_manager_enable (TprofTimeManager *tm)
{
  TprofThreadBuffer *buffer;
  TprofEnabled *slot;

  if (tm == NULL)
    {
      _tprof_misuse ("tprof_time_manager_enable: the manager is NULL; nothing was enabled");
      return;
    }
  tprof_clock_calibrate ();  /* a pair at each enable, when it adds to the span */
  buffer = _tprof_time_manager_thread_buffer (tm);
  if (buffer == NULL || !stack_reserve ())
    {
      _tprof_misuse ("tprof_time_manager_enable: out of memory; the manager was not enabled on this thread");
      return;
    }
  slot = stack_slot (enabled.depth);
  slot->tm = tm;
  slot->buffer = buffer;
  enabled.depth++;
  __atomic_fetch_add (&_tprof_record_state.enabled_anywhere, 1, __ATOMIC_RELAXED);
}

/* The innermost position of @tm on this thread's stack, or -1. */
static int
stack_find (const TprofTimeManager *tm)
{
  for (int i = enabled.depth - 1; i >= 0; i--)
    if (stack_slot (i)->tm == tm)
      return i;
  return -1;
}

void
tprof_time_manager_disable (TprofTimeManager *tm)
{
  int at = stack_find (tm);

  if (at < 0)
    {
      _tprof_misuse ("tprof_time_manager_disable: the manager is not enabled on this thread; nothing was disabled");
      return;
    }
  if (at != enabled.depth - 1)
    {
      _tprof_misuse ("tprof_time_manager_disable: the manager is not the last one enabled on this thread; "
                     "it was disabled and the managers enabled after it stay enabled");
      for (int i = at; i < enabled.depth - 1; i++)
        *stack_slot (i) = *stack_slot (i + 1);
    }
  enabled.depth--;
  __atomic_fetch_sub (&_tprof_record_state.enabled_anywhere, 1, __ATOMIC_RELAXED);
  stack_trim ();
}

/* More than one manager enabled: out of the fast path's way, so that it
 * needs no registers saved. */
static __attribute__((noinline)) void
scope_record_each (int name_id, int64_t start_ticks, uint64_t duration)
{
  for (int i = 0; i < enabled.depth; i++)
    _tprof_thread_buffer_append (stack_slot (i)->buffer, name_id, start_ticks, duration);
}

static inline __attribute__((always_inline)) void
scope_record_ticks (int name_id, int64_t start_ticks, int64_t end_ticks)
{
  uint64_t duration = _tprof_slot_ticks (end_ticks - start_ticks);

  /* One enabled manager is the common case: keep it free of the loop. */
  if (TPROF_LIKELY (enabled.depth == 1))
    _tprof_thread_buffer_append (enabled.inline_stack[0].buffer, name_id, start_ticks, duration);
  else
    scope_record_each (name_id, start_ticks, duration);
}

/* Ticks that are not the TSC: a tail call away, so that the TSC's path
 * needs no stack frame. */
static __attribute__((noinline, cold)) void
scope_record_monotonic (int name_id, int64_t start_ticks)
{
  scope_record_ticks (name_id, start_ticks, tprof_clock_now_ns ());
}

void
_tprof_scope_opened (int name_id, int64_t start_ticks)
{
  _tprof_hang_region_open_slow (name_id, start_ticks);
}

void
_tprof_scope_record (int name_id, int64_t start_ticks)
{
  _tprof_hang_region_close (name_id, start_ticks);
#if TPROF_CLOCK_HAVE_TSC
  if (TPROF_LIKELY (_tprof_ticks_are_tsc))
    {
      scope_record_ticks (name_id, start_ticks, (int64_t) __builtin_ia32_rdtsc ());
      return;
    }
#endif
  scope_record_monotonic (name_id, start_ticks);
}
