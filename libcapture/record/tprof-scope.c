/* tprof-scope.c — each thread's stack of enabled managers, and TPROF_SCOPE recording into it. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-time-manager-private.h"
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

static __thread TprofEnabled inline_stack[TPROF_INLINE_ENABLED]
  __attribute__((tls_model ("initial-exec")));
static __thread TprofEnabled *overflow_stack __attribute__((tls_model ("initial-exec")));
static __thread int overflow_capacity __attribute__((tls_model ("initial-exec")));
static __thread int enabled_depth __attribute__((tls_model ("initial-exec")));

static TprofEnabled *
stack_slot (int i)
{
  return i < TPROF_INLINE_ENABLED ? &inline_stack[i] : &overflow_stack[i - TPROF_INLINE_ENABLED];
}

/* Room for one more entry; false when memory is exhausted. */
static bool
stack_reserve (void)
{
  int needed = enabled_depth + 1 - TPROF_INLINE_ENABLED;
  TprofEnabled *grown;
  int capacity;

  if (needed <= overflow_capacity)
    return true;
  capacity = overflow_capacity != 0 ? overflow_capacity * 2 : TPROF_INLINE_ENABLED;
  grown = realloc (overflow_stack, (size_t) capacity * sizeof *grown);
  if (grown == NULL)
    return false;
  overflow_stack = grown;
  overflow_capacity = capacity;
  return true;
}

/* The heap part is given back once the stack is shallow again, so a
 * thread that ends with nothing enabled leaves nothing behind. */
static void
stack_trim (void)
{
  if (enabled_depth <= TPROF_INLINE_ENABLED && overflow_stack != NULL)
    {
      free (overflow_stack);
      overflow_stack = NULL;
      overflow_capacity = 0;
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
  buffer = _tprof_time_manager_thread_buffer (tm);
  if (buffer == NULL || !stack_reserve ())
    {
      _tprof_misuse ("tprof_time_manager_enable: out of memory; the manager was not enabled on this thread");
      return;
    }
  slot = stack_slot (enabled_depth);
  slot->tm = tm;
  slot->buffer = buffer;
  enabled_depth++;
  __atomic_fetch_add (&_tprof_record_state.enabled_anywhere, 1, __ATOMIC_RELAXED);
}

/* The innermost position of @tm on this thread's stack, or -1. */
static int
stack_find (const TprofTimeManager *tm)
{
  for (int i = enabled_depth - 1; i >= 0; i--)
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
  if (at != enabled_depth - 1)
    {
      _tprof_misuse ("tprof_time_manager_disable: the manager is not the last one enabled on this thread; "
                     "it was disabled and the managers enabled after it stay enabled");
      for (int i = at; i < enabled_depth - 1; i++)
        *stack_slot (i) = *stack_slot (i + 1);
    }
  enabled_depth--;
  __atomic_fetch_sub (&_tprof_record_state.enabled_anywhere, 1, __ATOMIC_RELAXED);
  stack_trim ();
}

void
_tprof_scope_record (const TprofScope *scope)
{
  int64_t end = tprof_clock_ticks ();
  uint64_t duration = _tprof_slot_ticks (end - scope->start_ticks);
  int depth = enabled_depth;

  /* One enabled manager is the common case: keep it free of the loop. */
  if (TPROF_LIKELY (depth == 1))
    {
      _tprof_thread_buffer_append (inline_stack[0].buffer, scope->name_id, scope->start_ticks, duration);
      return;
    }
  for (int i = 0; i < depth; i++)
    _tprof_thread_buffer_append (stack_slot (i)->buffer, scope->name_id, scope->start_ticks, duration);
}
