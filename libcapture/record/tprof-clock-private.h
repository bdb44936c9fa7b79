/* tprof-clock-private.h — the fit of ticks to seconds, as the managers convert samples with it. */
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
 * Between _tprof_clock_convert_begin() and _end() the map cannot change. */
void _tprof_clock_convert_begin (void);
void _tprof_clock_convert_end (void);
/* Seconds of CLOCK_MONOTONIC at @ticks; convert_begin() held. */
double _tprof_clock_secs_locked (int64_t ticks);
/* Seconds of a duration of @ticks begun at @start; convert_begin() held. */
double _tprof_clock_duration_locked (int64_t start, int64_t ticks);
/* Notes that ticks up to @ticks were converted: later refits leave them
 * alone; convert_begin() held. */
void _tprof_clock_freeze_locked (int64_t ticks);

/* Seconds per tick of the latest fit, for one duration converted at once. */
double _tprof_clock_secs_per_tick (void);

/* Whether ticks are the TSC, given whether the processor has an invariant
 * one and the value of TPROF_CLOCK (NULL when unset). Exported for tests. */
TPROF_EXPORT bool _tprof_clock_prefer_tsc (bool invariant_tsc, const char *env);
/* Whether this processor has an invariant TSC (CPUID 0x80000007 EDX bit 8). */
TPROF_EXPORT bool _tprof_clock_has_invariant_tsc (void);
