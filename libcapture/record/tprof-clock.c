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

/* A tick read between two readings of CLOCK_MONOTONIC: it happened at
 * @secs within @half_window. */
typedef struct
{
  int64_t ticks;
  double  secs;
  double  half_window;
} ClockPair;

#define MAX_PAIRS           16
#define PAIR_TRIES          16
#define INITIAL_SPAN_NS     2000000   /* the pairs of tprof_clock_choose(): 2 ms apart */
#define MIN_PAIR_SPACING_S  0.01      /* a pair closer to the last replaces it */

static pthread_once_t choose_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t pairs_lock = PTHREAD_MUTEX_INITIALIZER;
static ClockPair pairs[MAX_PAIRS];
static int n_pairs;
static TprofClockCalibration calibration;

/* The fit, read without a lock: a sequence count, odd while it changes. */
static unsigned fit_seq;
static int64_t fit_ref_ticks;
static double fit_ref_secs;
static double fit_secs_per_tick = 1e-9;

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

  if (__get_cpuid_max (0x80000000, NULL) < 0x80000007)
    return false;
  __cpuid (0x80000007, eax, ebx, ecx, edx);
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

      _mm_lfence ();
      t = (int64_t) __rdtsc ();
      _mm_lfence ();
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

static void
publish_fit (int64_t ref_ticks, double ref_secs, double secs_per_tick)
{
  __atomic_fetch_add (&fit_seq, 1, __ATOMIC_ACQ_REL);
  __atomic_store (&fit_ref_ticks, &ref_ticks, __ATOMIC_RELAXED);
  __atomic_store (&fit_ref_secs, &ref_secs, __ATOMIC_RELAXED);
  __atomic_store (&fit_secs_per_tick, &secs_per_tick, __ATOMIC_RELAXED);
  __atomic_fetch_add (&fit_seq, 1, __ATOMIC_RELEASE);
}

void
_tprof_clock_fit_get (TprofClockFit *fit)
{
  unsigned seq;

  do
    {
      while ((seq = __atomic_load_n (&fit_seq, __ATOMIC_ACQUIRE)) & 1)
        ;
      __atomic_load (&fit_ref_ticks, &fit->ref_ticks, __ATOMIC_RELAXED);
      __atomic_load (&fit_ref_secs, &fit->ref_secs, __ATOMIC_RELAXED);
      __atomic_load (&fit_secs_per_tick, &fit->secs_per_tick, __ATOMIC_RELAXED);
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
    }
  while (__atomic_load_n (&fit_seq, __ATOMIC_RELAXED) != seq);
}

double
_tprof_clock_secs_per_tick (void)
{
  double spt;

  __atomic_load (&fit_secs_per_tick, &spt, __ATOMIC_RELAXED);
  return spt;
}

/* Least squares of seconds on ticks over the pairs; pairs_lock held. */
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
  publish_fit (first->ticks, first->secs + intercept, slope);

  calibration.ticks_per_sec = 1.0 / slope;
  calibration.n_pairs = n_pairs;
  calibration.span_secs = last->secs - first->secs;
  calibration.centre_secs = first->secs + sy / n;
  calibration.offset_error_secs = max_half + max_residual;
  calibration.rate_error = 2 * (max_half + max_residual) / calibration.span_secs;
}

static void
add_pair_locked (ClockPair pair)
{
  if (n_pairs >= 2 && pair.secs - pairs[n_pairs - 2].secs < MIN_PAIR_SPACING_S)
    n_pairs--;  /* too close to the one before: the new one replaces the last */
  else if (n_pairs == MAX_PAIRS)
    {
      /* keep the first pair (the farthest) and the most recent others */
      memmove (&pairs[1], &pairs[2], (MAX_PAIRS - 2) * sizeof *pairs);
      n_pairs--;
    }
  pairs[n_pairs++] = pair;
  refit_locked ();
}

static void
choose (void)
{
  const char *env = getenv ("TPROF_CLOCK");
  ClockPair first;
  int64_t until;

  calibration.name = TPROF_CLOCK_NAME;
  calibration.ticks_per_sec = 1e9;
  calibration.rate_error = 0;
  calibration.offset_error_secs = 0;
  if (!_tprof_clock_prefer_tsc (_tprof_clock_has_invariant_tsc (), env))
    return;  /* ticks are nanoseconds of CLOCK_MONOTONIC: the fit is exact as it stands */

  _tprof_record_state.ticks_are_tsc = true;
  calibration.name = "tsc";
  first = take_pair ();
  until = tprof_clock_now_ns () + INITIAL_SPAN_NS;
  while (tprof_clock_now_ns () < until)
    ;
  pthread_mutex_lock (&pairs_lock);
  pairs[n_pairs++] = first;
  add_pair_locked (take_pair ());
  pthread_mutex_unlock (&pairs_lock);
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
  pthread_mutex_lock (&pairs_lock);
  add_pair_locked (take_pair ());
  pthread_mutex_unlock (&pairs_lock);
}

double
tprof_clock_ticks_to_secs (int64_t ticks)
{
  TprofClockFit fit;

  _tprof_clock_fit_get (&fit);
  return _tprof_clock_fit_secs (&fit, ticks);
}

double
tprof_clock_ticks_to_duration (int64_t ticks)
{
  return (double) ticks * _tprof_clock_secs_per_tick ();
}

void
tprof_clock_get_calibration (TprofClockCalibration *cal)
{
  tprof_clock_choose ();
  pthread_mutex_lock (&pairs_lock);
  *cal = calibration;
  pthread_mutex_unlock (&pairs_lock);
}
