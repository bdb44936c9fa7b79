/* tprof-clock-private.h — ticks inside the library: their calibration and the map that converts them. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-macros.h"

/* Converting ticks. The map from ticks to seconds is piecewise: each
 * refit of the calibration applies only to ticks later than any tick
 * converted so far, so a tick converts to the same seconds whenever it is
 * read (one region recorded into two managers reads the same in both).
 * The clock's lock guards the map and the calibration: while it is held
 * the map cannot change. */
void _tprof_clock_lock (void);
void _tprof_clock_unlock (void);
/* Seconds of CLOCK_MONOTONIC at @ticks; the lock held. */
double _tprof_clock_secs_locked (int64_t ticks);
/* Seconds of a duration of @ticks begun at @start; the lock held. */
double _tprof_clock_duration_locked (int64_t start, int64_t ticks);
/* Notes that ticks up to @ticks were converted: later refits leave them
 * alone; the lock held. */
void _tprof_clock_freeze_locked (int64_t ticks);
/* Makes ticks later than every frozen one convert by this line; the lock
 * held (tprof-clock.c calls it at each refit). */
void _tprof_clock_map_set_locked (int64_t ref_ticks, double ref_secs, double secs_per_tick);
/* Takes one more pair and refits, when ticks are the TSC and the pair
 * lengthens the span enough; the lock held (tprof-clock.c). */
void _tprof_clock_refine_locked (void);

/* Seconds of a duration of @ticks begun at @start, as any later read will
 * convert it: freezes the map up to a little past now, taking the lock
 * only when it was not yet. For tprof_timer_stop(), which returns it. */
double _tprof_clock_duration_frozen (int64_t start, int64_t ticks);

/* Seconds per tick of the latest fit, for one duration converted at once. */
double _tprof_clock_secs_per_tick (void);

/* _tprof_record_state.ticks_are_tsc without the GOT: the library's own
 * copy, set with it. (A hidden alias of the exported variable would not
 * do: an executable built without PIE gets its own copy of that variable
 * by a copy relocation, and the library would read the stale original.) */
extern bool _tprof_ticks_are_tsc __attribute__((visibility ("hidden")));

/* CLOCK_MONOTONIC nanoseconds, out of line: keeps the callers of
 * _tprof_clock_ticks_local() free of a stack frame. */
int64_t _tprof_clock_monotonic_ns (void) __attribute__((cold));

/* tprof_clock_ticks() inside the library. */
static inline int64_t
_tprof_clock_ticks_local (void)
{
#if TPROF_CLOCK_HAVE_TSC
  if (TPROF_LIKELY (_tprof_ticks_are_tsc))
    return (int64_t) __builtin_ia32_rdtsc ();
#endif
  return _tprof_clock_monotonic_ns ();
}

/* Whether ticks are the TSC, given whether the processor has an invariant
 * one and the value of TPROF_CLOCK (NULL when unset). Exported for tests. */
TPROF_EXPORT bool _tprof_clock_prefer_tsc (bool invariant_tsc, const char *env);
/* Whether this processor has an invariant TSC (CPUID 0x80000007 EDX bit 8). */
TPROF_EXPORT bool _tprof_clock_has_invariant_tsc (void);
