/* tprof-clock.c — the process's ticks: the choice of clock, and its calibration against CLOCK_MONOTONIC. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-clock-private.h"

#if TPROF_CLOCK_HAVE_TSC
# include <cpuid.h>
#endif

_TprofRecordState _tprof_record_state;
bool _tprof_ticks_are_tsc;

int64_t
_tprof_clock_monotonic_ns (void)
{
  return tprof_clock_now_ns ();
}

/* A tick read between two readings of CLOCK_MONOTONIC: it happened at
 * @secs within @half_window. */
typedef struct
{
  int64_t ticks;
  double  secs;
  double  half_window;
} ClockPair;

#define MAX_PAIRS           64
#define PAIR_TRIES          16
#define INITIAL_SPAN_NS     2000000   /* the pairs of tprof_clock_choose(): 2 ms apart */
/* A new pair is fitted when it is this far after the last, and at least
 * this fraction of the whole span after it: the pairs, and the pieces of
 * the map, grow with the logarithm of the run's length. */
#define MIN_PAIR_SPACING_S  0.01
#define MIN_PAIR_GROWTH     0.1

static pthread_once_t choose_once = PTHREAD_ONCE_INIT;
static ClockPair pairs[MAX_PAIRS];
static int n_pairs;
static TprofClockCalibration calibration;
bool
_tprof_clock_prefer_tsc (bool invariant_tsc, const char *env)
{
  if (env != NULL && strcmp (env, "monotonic") == 0)
    return false;
  return invariant_tsc;
}

bool
_tprof_clock_has_invariant_tsc (void)
{
#if TPROF_CLOCK_HAVE_TSC
  unsigned eax, ebx, ecx, edx;

  /* int in clang's cpuid.h, unsigned in GCC's */
  if ((unsigned) __get_cpuid_max (0x80000000, NULL) < 0x80000007u)
    return false;
  __cpuid (0x80000007, eax, ebx, ecx, edx);
  (void) eax, (void) ebx, (void) ecx;
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

static int64_t
ticks_ordered (void)
{
#if TPROF_CLOCK_HAVE_TSC
  if (_tprof_record_state.ticks_are_tsc)
    {
      int64_t t;

      __builtin_ia32_lfence ();
      t = (int64_t) __builtin_ia32_rdtsc ();
      __builtin_ia32_lfence ();
      return t;
    }
#endif
  return tprof_clock_now_ns ();
}

/* The tightest of a few tick readings between two CLOCK_MONOTONIC ones. */
static ClockPair
take_pair (void)
{
  ClockPair best = { 0, 0, INFINITY };

  for (int i = 0; i < PAIR_TRIES; i++)
    {
      int64_t before = tprof_clock_now_ns ();
      int64_t ticks = ticks_ordered ();
      int64_t after = tprof_clock_now_ns ();
      /* + half a nanosecond: CLOCK_MONOTONIC's own resolution */
      double half = (double) (after - before) * 0.5e-9 + 0.5e-9;

      if (half < best.half_window)
        best = (ClockPair) { ticks, ((double) before + (double) (after - before) * 0.5) * 1e-9, half };
    }
  return best;
}

/* Least squares of seconds on ticks over the pairs; the clock's lock held. */
static void
refit_locked (void)
{
  const ClockPair *first = &pairs[0], *last = &pairs[n_pairs - 1];
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = n_pairs, slope, intercept;
  double max_half = 0, max_residual = 0;

  for (int i = 0; i < n_pairs; i++)
    {
      double x = (double) (pairs[i].ticks - first->ticks), y = pairs[i].secs - first->secs;

      sx += x, sy += y, sxx += x * x, sxy += x * y;
      max_half = fmax (max_half, pairs[i].half_window);
    }
  slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  intercept = (sy - slope * sx) / n;
  for (int i = 0; i < n_pairs; i++)
    {
      double x = (double) (pairs[i].ticks - first->ticks), y = pairs[i].secs - first->secs;

      max_residual = fmax (max_residual, fabs (y - (intercept + slope * x)));
    }
  _tprof_clock_map_set_locked (first->ticks, first->secs + intercept, slope);

  calibration.ticks_per_sec = 1.0 / slope;
  calibration.n_pairs = n_pairs;
  calibration.span_secs = last->secs - first->secs;
  calibration.centre_secs = first->secs + sy / n;
  calibration.offset_error_secs = max_half + max_residual;
  calibration.rate_error = 2 * (max_half + max_residual) / calibration.span_secs;
}

/* Whether a pair taken at @secs would change the fit enough to keep. */
static bool
pair_worth_taking_locked (double secs)
{
  double since_last = secs - pairs[n_pairs - 1].secs;

  return since_last >= MIN_PAIR_SPACING_S && since_last >= MIN_PAIR_GROWTH * (secs - pairs[0].secs);
}

static void
add_pair_locked (ClockPair pair)
{
  if (n_pairs == MAX_PAIRS)
    {
      /* keep the first pair (the farthest) and the most recent others */
      memmove (&pairs[1], &pairs[2], (MAX_PAIRS - 2) * sizeof *pairs);
      n_pairs--;
    }
  pairs[n_pairs++] = pair;
  refit_locked ();
}

void
_tprof_clock_refine_locked (void)
{
  /* one clock read decides, so that most calls cost no more */
  if (_tprof_ticks_are_tsc && pair_worth_taking_locked (tprof_clock_ns_to_secs (tprof_clock_now_ns ())))
    add_pair_locked (take_pair ());
}

static void
choose (void)
{
  const char *env = getenv ("TPROF_CLOCK");
  ClockPair first;
  int64_t until;

  calibration.name = TPROF_CLOCK_NAME;
  calibration.ticks_per_sec = 1e9;
  if (!_tprof_clock_prefer_tsc (_tprof_clock_has_invariant_tsc (), env))
    return;  /* ticks are nanoseconds of CLOCK_MONOTONIC: the map is exact as it stands */

  _tprof_record_state.ticks_are_tsc = true;
  _tprof_ticks_are_tsc = true;
  calibration.name = "tsc";
  first = take_pair ();
  until = tprof_clock_now_ns () + INITIAL_SPAN_NS;
  while (tprof_clock_now_ns () < until)
    ;
  _tprof_clock_lock ();
  pairs[n_pairs++] = first;
  pairs[n_pairs++] = take_pair ();
  refit_locked ();
  _tprof_clock_unlock ();
}

void
tprof_clock_choose (void)
{
  pthread_once (&choose_once, choose);
}

void
tprof_clock_calibrate (void)
{
  tprof_clock_choose ();
  if (!_tprof_record_state.ticks_are_tsc)
    return;
  _tprof_clock_lock ();
  _tprof_clock_refine_locked ();
  _tprof_clock_unlock ();
}

void
tprof_clock_get_calibration (TprofClockCalibration *cal)
{
  tprof_clock_choose ();
  _tprof_clock_lock ();
  *cal = calibration;
  _tprof_clock_unlock ();
}
