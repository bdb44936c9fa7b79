/* tprof-scope.c — each thread's stack of enabled managers, and TPROF_SCOPE recording into it. */
/* SPDX-License-Identifier: MIT */
#include <assert.h>

#include "tprof-time-manager-private.h"
#include "tprof/tprof-timer.h"

/* Deeper nesting than this is still counted, so enable/disable stay paired,
 * but records only into the first TPROF_MAX_ENABLED managers. */
#define TPROF_MAX_ENABLED 32

int _tprof_scope_enabled_anywhere;

static __thread TprofTimeManager *enabled_managers[TPROF_MAX_ENABLED]
  __attribute__((tls_model ("initial-exec")));
static __thread TprofThreadBuffer *enabled_buffers[TPROF_MAX_ENABLED]
  __attribute__((tls_model ("initial-exec")));
static __thread int enabled_depth __attribute__((tls_model ("initial-exec")));

void
tprof_time_manager_enable (TprofTimeManager *tm)
{
  assert (tm != NULL);
  if (enabled_depth < TPROF_MAX_ENABLED)
    {
      enabled_managers[enabled_depth] = tm;
      enabled_buffers[enabled_depth] = _tprof_time_manager_thread_buffer (tm);
    }
  enabled_depth++;
  __atomic_fetch_add (&_tprof_scope_enabled_anywhere, 1, __ATOMIC_RELAXED);
}

void
tprof_time_manager_disable (TprofTimeManager *tm)
{
  assert (enabled_depth > 0);
  assert (enabled_depth > TPROF_MAX_ENABLED || enabled_managers[enabled_depth - 1] == tm);
  if (enabled_depth == 0)
    return;
  enabled_depth--;
  __atomic_fetch_sub (&_tprof_scope_enabled_anywhere, 1, __ATOMIC_RELAXED);
}

void
_tprof_scope_end_slow (TprofScope *scope, int64_t end_ns)
{
  double secs = tprof_clock_ns_to_secs (end_ns - scope->start_ns);
  int depth = enabled_depth;

  /* One enabled manager is the common case: keep it free of the loop. */
  if (TPROF_LIKELY (depth == 1))
    {
      _tprof_thread_buffer_append (enabled_buffers[0], scope->name_id, secs);
      return;
    }
  if (depth > TPROF_MAX_ENABLED)
    depth = TPROF_MAX_ENABLED;
  for (int i = 0; i < depth; i++)
    _tprof_thread_buffer_append (enabled_buffers[i], scope->name_id, secs);
}
