/* tprof-clock-private.h — the fit of ticks to seconds, as the managers convert samples with it. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-macros.h"

/* seconds of CLOCK_MONOTONIC = ref_secs + (ticks - ref_ticks) * secs_per_tick */
typedef struct
{
  int64_t ref_ticks;
  double  ref_secs;
  double  secs_per_tick;
} TprofClockFit;

/* A consistent copy of the current fit. */
void _tprof_clock_fit_get (TprofClockFit *fit);

static inline double
_tprof_clock_fit_secs (const TprofClockFit *fit, int64_t ticks)
{
  return fit->ref_secs + (double) (ticks - fit->ref_ticks) * fit->secs_per_tick;
}

/* Seconds per tick of the current fit, for one duration. */
double _tprof_clock_secs_per_tick (void);

/* Whether ticks are the TSC, given whether the processor has an invariant
 * one and the value of TPROF_CLOCK (NULL when unset). Exported for tests. */
TPROF_EXPORT bool _tprof_clock_prefer_tsc (bool invariant_tsc, const char *env);
/* Whether this processor has an invariant TSC (CPUID 0x80000007 EDX bit 8). */
TPROF_EXPORT bool _tprof_clock_has_invariant_tsc (void);
