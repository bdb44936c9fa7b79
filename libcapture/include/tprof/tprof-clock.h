/* tprof-clock.h — the monotonic clock used for every measurement, inlined on the hot path. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>
#include <time.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

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

TPROF_END_DECLS
