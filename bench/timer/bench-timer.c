/* bench-timer.c — cost of the timing macros, as ratios against two raw clock_gettime calls. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tprof/capture.h>

#define ITERATIONS 1000000
#define ROUNDS     15

static volatile int64_t sink;

static double
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void
baseline_two_clock_reads (TprofTimeManager *tm)
{
  for (int i = 0; i < ITERATIONS; i++)
    {
      struct timespec a, b;

      clock_gettime (CLOCK_MONOTONIC, &a);
      clock_gettime (CLOCK_MONOTONIC, &b);
      sink += b.tv_nsec - a.tv_nsec;
    }
}

static void
scope_one_enabled (TprofTimeManager *tm)
{
  tprof_time_manager_enable (tm);
  for (int i = 0; i < ITERATIONS; i++)
    {
      TPROF_SCOPE ("bench/scope");
      sink++;
    }
  tprof_time_manager_disable (tm);
}

static void
scope_none_enabled (TprofTimeManager *tm)
{
  for (int i = 0; i < ITERATIONS; i++)
    {
      TPROF_SCOPE ("bench/scope-off");
      sink++;
    }
}

static void
timer_start_stop (TprofTimeManager *tm)
{
  for (int i = 0; i < ITERATIONS; i++)
    {
      TprofTimer t = tprof_timer_start (tm, "bench/start-stop");

      sink++;
      tprof_timer_stop (&t);
    }
}

static void
timer_block (TprofTimeManager *tm)
{
  for (int i = 0; i < ITERATIONS; i++)
    TPROF_TIMER (tm, "bench/block")
      sink++;
}

typedef struct
{
  const char *label;
  void      (*run) (TprofTimeManager *tm);
  double      samples[ROUNDS];
} Case;

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *values, int n)
{
  qsort (values, n, sizeof *values, compare_double);
  return values[n / 2];
}

int
main (void)
{
  Case cases[] = {
    { "two clock_gettime (baseline)", baseline_two_clock_reads, { 0 } },
    { "TPROF_SCOPE, one manager enabled", scope_one_enabled, { 0 } },
    { "TPROF_SCOPE, nothing enabled", scope_none_enabled, { 0 } },
    { "tprof_timer_start/stop pair", timer_start_stop, { 0 } },
    { "TPROF_TIMER block", timer_block, { 0 } },
  };
  const int n_cases = sizeof cases / sizeof cases[0];
  TprofTimeManager *tm = tprof_time_manager_new ();
  double base;

  /* Rounds interleave the cases so that machine noise hits them alike. */
  for (int r = 0; r < ROUNDS; r++)
    for (int c = 0; c < n_cases; c++)
      {
        double start;

        tprof_time_manager_clear (tm);
        start = now_ns ();
        cases[c].run (tm);
        cases[c].samples[r] = (now_ns () - start) / ITERATIONS;
      }

  base = median (cases[0].samples, ROUNDS);
  printf ("%-36s %10s %8s\n", "case", "ns/iter", "ratio");
  for (int c = 0; c < n_cases; c++)
    {
      double m = median (cases[c].samples, ROUNDS);

      printf ("%-36s %10.2f %7.3fx\n", cases[c].label, m, m / base);
    }
  printf ("targets: TPROF_SCOPE one manager <= 1.3x, nothing enabled <= 0.1x\n");
  tprof_time_manager_free (tm);
  return 0;
}
