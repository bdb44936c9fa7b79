/* tprof-clock.h — the clocks of every measurement: CLOCK_MONOTONIC, and the ticks the hot path reads. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* rdtsc by the compiler's builtin: <x86intrin.h> would pull every
 * intrinsic into each file that includes this header */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
# define TPROF_CLOCK_HAVE_TSC 1
#else
# define TPROF_CLOCK_HAVE_TSC 0
#endif

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* Every time tprof hands out (durations, starts, the file's `clock`
 * attribute) is seconds of this clock. */
#define TPROF_CLOCK_ID   CLOCK_MONOTONIC
#define TPROF_CLOCK_NAME "CLOCK_MONOTONIC"

/* Nanoseconds on CLOCK_MONOTONIC; never wall time. */
static inline int64_t
tprof_clock_now_ns (void)
{
  struct timespec ts;

  clock_gettime (TPROF_CLOCK_ID, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline double
tprof_clock_ns_to_secs (int64_t ns)
{
  return (double) ns * 1e-9;
}

/* Macro plumbing, not API: what the inlined hot path reads, one cache line
 * behind one address. */
typedef struct
{
  int  enabled_anywhere;  /* (manager, thread) enables in force in the process */
  bool ticks_are_tsc;     /* ticks are the TSC; else nanoseconds of CLOCK_MONOTONIC */
  int  regions_tracked;   /* the hang watchdog follows the open regions */
} _TprofRecordState;

TPROF_EXPORT _TprofRecordState _tprof_record_state;

/* Ticks: the cheapest reading of the clock the process chose once
 * (tprof_clock_choose()). The invariant TSC where the processor has one,
 * else (or with TPROF_CLOCK=monotonic in the environment) nanoseconds of
 * CLOCK_MONOTONIC. Meaningless before tprof_clock_choose(); convert with
 * tprof_clock_ticks_to_secs() and tprof_clock_ticks_to_duration(). */
static inline int64_t
tprof_clock_ticks (void)
{
#if TPROF_CLOCK_HAVE_TSC
  if (TPROF_LIKELY (_tprof_record_state.ticks_are_tsc))
    return (int64_t) __builtin_ia32_rdtsc ();
#endif
  return tprof_clock_now_ns ();
}

/* Chooses the process's ticks and calibrates them, once; later calls do
 * nothing. tprof_time_manager_new() calls it. */
TPROF_EXPORT void tprof_clock_choose (void);

/* Takes one more (ticks, CLOCK_MONOTONIC) pair and refits ticks to seconds;
 * the managers call it whenever their samples are read. */
TPROF_EXPORT void tprof_clock_calibrate (void);

/* @ticks as seconds of CLOCK_MONOTONIC, by the current fit. */
TPROF_EXPORT double tprof_clock_ticks_to_secs (int64_t ticks);
/* A difference of @ticks as seconds, by the current fit. */
TPROF_EXPORT double tprof_clock_ticks_to_duration (int64_t ticks);

/* How well ticks convert to seconds. A tick read @t seconds from
 * @centre_secs converts to CLOCK_MONOTONIC within
 * offset_error_secs + rate_error * |t|. */
typedef struct
{
  const char *name;              /* "tsc" or "CLOCK_MONOTONIC" */
  double      ticks_per_sec;
  int         n_pairs;           /* (ticks, CLOCK_MONOTONIC) pairs fitted */
  double      span_secs;         /* from the first pair to the last */
  double      centre_secs;       /* CLOCK_MONOTONIC at the pairs' mean */
  double      offset_error_secs; /* bound of the error near the pairs */
  double      rate_error;        /* relative error of ticks_per_sec */
} TprofClockCalibration;

/* Fills @cal with the current fit (calls tprof_clock_choose() first). */
TPROF_EXPORT void tprof_clock_get_calibration (TprofClockCalibration *cal);

TPROF_END_DECLS
