/* bench-timer.c — cost of the timing macros, against clock_gettime and the rdtsc floor measured in the same run; a spill thread's cost paired round by round, in instructions and in CPU time. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <math.h>
#include <unistd.h>
#include <tprof/capture.h>

#include "bench-thread-cost.h"

/* regions a case records per round, at most 10^6
 * (TPROF_BENCH_ITERATIONS: fewer under valgrind) */
#define MAX_ITERATIONS 1000000
static int iterations = MAX_ITERATIONS;
/* many short rounds: the paired ratios' median and quartiles stay fair
 * when other processes take the cores for part of the run
 * (TPROF_BENCH_ROUNDS: fewer) */
#define MAX_ROUNDS 41
static int rounds = MAX_ROUNDS;
/* a flush every second: ten times the default's flushes */
#define SPILL_INTERVAL 1.0

/* Per thread: one shared by the two threads' cases would bounce between
 * their caches and slow both by more than what is measured. */
static __thread volatile int64_t sink;

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
  for (int i = 0; i < iterations; i++)
    {
      struct timespec a, b;

      clock_gettime (CLOCK_MONOTONIC, &a);
      sink++;
      clock_gettime (CLOCK_MONOTONIC, &b);
      sink += b.tv_nsec - a.tv_nsec;
    }
}

#if TPROF_CLOCK_HAVE_TSC
static void
baseline_two_rdtsc (TprofTimeManager *tm)
{
  for (int i = 0; i < iterations; i++)
    {
      uint64_t a = __builtin_ia32_rdtsc ();

      sink++;
      sink += (int64_t) (__builtin_ia32_rdtsc () - a);
    }
}

/* The practical floor of a recorded region: two reads, and a 16-byte
 * sample stored where no page fault can happen (one buffer a thread). */
static uint64_t (*prefaulted_buffers[2])[2];
static __thread uint64_t (*prefaulted)[2];

static void
baseline_two_rdtsc_store (TprofTimeManager *tm)
{
  for (int i = 0; i < iterations; i++)
    {
      uint64_t a = __builtin_ia32_rdtsc ();

      sink++;
      prefaulted[i][0] = a;
      prefaulted[i][1] = __builtin_ia32_rdtsc () - a;
    }
}
#endif

static void
scope_one_enabled (TprofTimeManager *tm)
{
  tprof_time_manager_enable (tm);
  for (int i = 0; i < iterations; i++)
    {
      TPROF_SCOPE ("bench/scope");
      sink++;
    }
  tprof_time_manager_disable (tm);
}

/* The same into managers bounded to 10^5 and 10^3 samples a series:
 * past the limit each region is counted and summed, and kept in a random
 * slot with probability limit / regions so far. Of a run's 10^6 regions,
 * under 10^5 nine in ten are sampled and a quarter of those are kept
 * (k ln(n/k) replacements, each a few logarithms); under 10^3, where
 * runs usually are (n >> k), 0.7% are kept. */
static TprofTimeManager *bounded_tm, *small_bounded_tm;

static void
scope_one_enabled_sampling (TprofTimeManager *tm)
{
  scope_one_enabled (bounded_tm);
}

static void
scope_one_enabled_sampling_small (TprofTimeManager *tm)
{
  scope_one_enabled (small_bounded_tm);
}

/* TPROF_SCOPE's begin as it was before the hang watchdog followed open
 * regions: without the load and test of regions_tracked, the baseline
 * of what that test costs. */
static inline TprofScope
scope_begin_untracked (TprofSite *site)
{
  TprofScope scope = { 0, 0 };

  if (__builtin_expect (__atomic_load_n (&_tprof_record_state.enabled_anywhere, __ATOMIC_RELAXED) == 0, 1))
    return scope;
  scope.name_id = __atomic_load_n (&site->id, __ATOMIC_RELAXED);
  if (__builtin_expect (scope.name_id == 0, 0))
    scope.name_id = _tprof_site_resolve (site);
  scope.start_ticks = tprof_clock_ticks ();
  return scope;
}

static void
scope_one_enabled_untracked (TprofTimeManager *tm)
{
  static TprofSite site = { "bench/scope", 0 };

  tprof_time_manager_enable (tm);
  for (int i = 0; i < iterations; i++)
    {
      __attribute__((cleanup (_tprof_scope_end), unused)) TprofScope scope = scope_begin_untracked (&site);

      sink++;
    }
  tprof_time_manager_disable (tm);
}

static void
scope_none_enabled (TprofTimeManager *tm)
{
  for (int i = 0; i < iterations; i++)
    {
      TPROF_SCOPE ("bench/scope-off");
      sink++;
    }
}

static void
timer_start_stop (TprofTimeManager *tm)
{
  for (int i = 0; i < iterations; i++)
    {
      TprofTimer t = tprof_timer_start (tm, "bench/start-stop");

      sink++;
      tprof_timer_stop (&t);
    }
}

static void
timer_block (TprofTimeManager *tm)
{
  for (int i = 0; i < iterations; i++)
    TPROF_TIMER (tm, "bench/block")
      sink++;
}

/* A case on @n new threads at once (TPROF_SCOPE: each into its own
 * buffer of @tm); the time is the slowest thread's. A new thread's
 * samples land in memory its malloc arena has just been given, which the
 * main thread's reused heap does not pay for: the scaling compares one
 * new thread with two. */
typedef struct
{
  void             (*run) (TprofTimeManager *tm);
  TprofTimeManager  *tm;
  pthread_barrier_t *ready;
  int                index;
  double             ns;
  double             cpu_ns;        /* its CPU time */
  uint64_t           instructions;  /* 0: not counted */
} ThreadRun;

static void *
thread_main (void *data)
{
  ThreadRun *run = data;
  double start;

#if TPROF_CLOCK_HAVE_TSC
  prefaulted = prefaulted_buffers[run->index];
#endif
  int counter;

  pthread_barrier_wait (run->ready);
  counter = bench_instructions_open ();
  run->cpu_ns = bench_thread_cpu_ns ();
  start = now_ns ();
  run->run (run->tm);
  run->ns = now_ns () - start;
  run->cpu_ns = bench_thread_cpu_ns () - run->cpu_ns;
  run->instructions = bench_instructions_close (counter);
  return NULL;
}

static double threads_slowest_ns;
/* the threads' sums: CPU time, instructions (0 when one was not counted) */
static double threads_cpu_ns;
static uint64_t threads_instructions;

static void
on_threads (void (*func) (TprofTimeManager *tm), TprofTimeManager *tm, int n)
{
  pthread_barrier_t ready;
  pthread_t threads[2];
  ThreadRun runs[2];

  pthread_barrier_init (&ready, NULL, n);
  for (int t = 0; t < n; t++)
    {
      runs[t] = (ThreadRun) { func, tm, &ready, t, 0 };
      pthread_create (&threads[t], NULL, thread_main, &runs[t]);
    }
  threads_slowest_ns = threads_cpu_ns = 0;
  threads_instructions = 0;
  for (int t = 0; t < n; t++)
    {
      pthread_join (threads[t], NULL);
      if (runs[t].ns > threads_slowest_ns)
        threads_slowest_ns = runs[t].ns;
      threads_cpu_ns += runs[t].cpu_ns;
      threads_instructions = t == 0 || (threads_instructions > 0 && runs[t].instructions > 0)
                             ? threads_instructions + runs[t].instructions : 0;
    }
  pthread_barrier_destroy (&ready);
}

/* TPROF_SCOPE on a new thread, without and with a spill thread beside
 * it: two functions, so that valgrind --tool=callgrind counts each one's
 * instructions apart where the machine has no hardware counters. */
static __attribute__((noinline)) void
scope_new_thread (TprofTimeManager *tm)
{
  scope_one_enabled (tm);
}

static __attribute__((noinline)) void
scope_new_thread_spilled (TprofTimeManager *tm)
{
  scope_one_enabled (tm);
}

static void
scope_one_thread (TprofTimeManager *tm)
{
  on_threads (scope_new_thread, tm, 1);
}

static void
scope_two_threads (TprofTimeManager *tm)
{
  on_threads (scope_new_thread, tm, 2);
}

/* The same manager's scopes with a spill thread beside them. */
static TprofTimeManager *spill_tm;

static void
scope_spilled_one_thread (TprofTimeManager *tm)
{
  on_threads (scope_new_thread_spilled, spill_tm, 1);
}

static void
scope_spilled_two_threads (TprofTimeManager *tm)
{
  on_threads (scope_new_thread_spilled, spill_tm, 2);
}

#if TPROF_CLOCK_HAVE_TSC
/* What two threads of this machine can do at once, whatever tprof does. */
static void
floor_two_threads (TprofTimeManager *tm)
{
  on_threads (baseline_two_rdtsc_store, tm, 2);
}
#endif

typedef struct
{
  const char *label;
  void      (*run) (TprofTimeManager *tm);
  double      samples[MAX_ROUNDS];
  /* cases on new threads: their threads' sums over the rounds */
  double      cpu_ns;
  uint64_t    instructions;   /* 0: not counted */
  uint64_t    regions;
} Case;

enum { CLOCK_GETTIME, RDTSC, RDTSC_STORE, SCOPE, SCOPE_UNTRACKED, SCOPE_SAMPLING, SCOPE_SAMPLING_SMALL, SCOPE_OFF,
       START_STOP, BLOCK, ONE_THREAD, TWO_THREADS, SPILLED_ONE_THREAD, SPILLED_TWO_THREADS, FLOOR_TWO_THREADS, N_CASES };

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

/* Case @a's time over case @b's, round by round (each pair measured
 * moments apart): the median of the ratios, their quartiles, and the
 * 95 % interval of the median (order statistics n/2 -+ 0.98 sqrt(n)).
 * The target is met when the whole interval is below @limit, missed
 * when all of it is above, and not resolved by this run otherwise. */
static void
print_paired (const char *what,
              const Case *a,
              const Case *b,
              double      limit)
{
  double ratio[MAX_ROUNDS], med;
  int half = (int) (0.98 * sqrt ((double) rounds) + 0.5);
  int lo = rounds / 2 - half < 0 ? 0 : rounds / 2 - half, hi = rounds / 2 + half >= rounds ? rounds - 1 : rounds / 2 + half;

  for (int r = 0; r < rounds; r++)
    ratio[r] = a->samples[r] / b->samples[r];
  med = median (ratio, rounds);
  printf ("  %-50s %6.3f <= %-5.3g %-12s (median's 95%% interval %.3f-%.3f; quartiles %.3f-%.3f; %d rounds)\n",
          what, med, limit, ratio[hi] <= limit ? "met" : ratio[lo] > limit ? "NOT MET" : "not resolved",
          ratio[lo], ratio[hi], ratio[rounds / 4], ratio[(3 * rounds) / 4], rounds);
}

/* The recording threads of case @a against those of case @b, per region:
 * their instructions (where counted) and CPU time, sums over every round,
 * which a core taken by another process does not change. */
static void
print_per_region (const char *what,
                  const Case *a,
                  const Case *b)
{
  double ia = (double) a->instructions / a->regions, ib = (double) b->instructions / b->regions;
  double ca = a->cpu_ns / a->regions, cb = b->cpu_ns / b->regions;

  if (a->instructions > 0 && b->instructions > 0)
    printf ("  %-50s instructions %.2f / %.2f = %.4f;", what, ia, ib, ia / ib);
  else
    printf ("  %-50s instructions not counted (no hardware counters);", what);
  printf (" CPU %.2f / %.2f ns = %.3f\n", ca, cb, ca / cb);
}

static void
print_target (const char *what, double value, const char *op, double limit)
{
  bool met = op[0] == '<' ? value <= limit : value >= limit;

  printf ("  %-52s %7.3f %s %-6.3g %s\n", what, value, op, limit, met ? "met" : "NOT MET");
}

static void
print_calibration (void)
{
  TprofClockCalibration cal;

  tprof_clock_calibrate ();
  tprof_clock_get_calibration (&cal);
  printf ("clock: %s, %.6f GHz, %d pairs over %.3f s, error %.0f ns + %.3f ppm of the distance\n",
          cal.name, cal.ticks_per_sec * 1e-9, cal.n_pairs, cal.span_secs, cal.offset_error_secs * 1e9,
          cal.rate_error * 1e6);
}

/* @path and the spill files in it. */
static void
remove_dir (const char *path)
{
  DIR *d = opendir (path);
  struct dirent *e;

  while (d != NULL && (e = readdir (d)) != NULL)
    if (e->d_name[0] != '.')
      {
        char file[4096];

        snprintf (file, sizeof file, "%s/%s", path, e->d_name);
        unlink (file);
      }
  if (d != NULL)
    closedir (d);
  rmdir (path);
}

int
main (void)
{
  Case cases[N_CASES] = {
    [CLOCK_GETTIME] = { "two clock_gettime (baseline)", baseline_two_clock_reads, { 0 } },
#if TPROF_CLOCK_HAVE_TSC
    [RDTSC] = { "two rdtsc", baseline_two_rdtsc, { 0 } },
    [RDTSC_STORE] = { "two rdtsc + 16-byte store (floor)", baseline_two_rdtsc_store, { 0 } },
#endif
    [SCOPE] = { "TPROF_SCOPE, one manager enabled", scope_one_enabled, { 0 } },
    [SCOPE_SAMPLING] = { "TPROF_SCOPE, limit 1e5 (90% sampled)", scope_one_enabled_sampling, { 0 } },
    [SCOPE_SAMPLING_SMALL] = { "TPROF_SCOPE, limit 1e3 (99.9% sampled)", scope_one_enabled_sampling_small,
                               { 0 } },
    [SCOPE_OFF] = { "TPROF_SCOPE, nothing enabled", scope_none_enabled, { 0 } },
    [START_STOP] = { "tprof_timer_start/stop pair", timer_start_stop, { 0 } },
    [BLOCK] = { "TPROF_TIMER block", timer_block, { 0 } },
    [ONE_THREAD] = { "TPROF_SCOPE, 1 new thread", scope_one_thread, { 0 } },
    [TWO_THREADS] = { "TPROF_SCOPE, 2 new threads, each", scope_two_threads, { 0 } },
    [SCOPE_UNTRACKED] = { "TPROF_SCOPE without the regions test", scope_one_enabled_untracked, { 0 } },
    [SPILLED_ONE_THREAD] = { "TPROF_SCOPE, 1 new thread, spilling", scope_spilled_one_thread, { 0 } },
    [SPILLED_TWO_THREADS] = { "TPROF_SCOPE, 2 new threads, spilling", scope_spilled_two_threads, { 0 } },
#if TPROF_CLOCK_HAVE_TSC
    [FLOOR_TWO_THREADS] = { "floor, 2 new threads, each", floor_two_threads, { 0 } },
#endif
  };
  TprofTimeManager *tm = tprof_time_manager_new ();
  double med[N_CASES] = { 0 }, base, floor, spill_cpu, process_cpu;
  const char *setting;

  char spill_dir[] = "/tmp/bench-timer-spill-XXXXXX";
  TprofError error = { 0 };

  if ((setting = getenv ("TPROF_BENCH_ITERATIONS")) != NULL)
    iterations = atoi (setting) < 1 ? 1 : atoi (setting) > MAX_ITERATIONS ? MAX_ITERATIONS : atoi (setting);
  if ((setting = getenv ("TPROF_BENCH_ROUNDS")) != NULL)
    rounds = atoi (setting) < 1 ? 1 : atoi (setting) > MAX_ROUNDS ? MAX_ROUNDS : atoi (setting);
  spill_tm = tprof_time_manager_new ();
  if (mkdtemp (spill_dir) == NULL || tprof_time_manager_set_spill (spill_tm, spill_dir, SPILL_INTERVAL, &error) != 0)
    {
      fprintf (stderr, "bench-timer: cannot spill into %s: %s\n", spill_dir, error.message);
      return 1;
    }
  bounded_tm = tprof_time_manager_new ();
  tprof_time_manager_set_sample_limit (bounded_tm, 100000);
  small_bounded_tm = tprof_time_manager_new ();
  tprof_time_manager_set_sample_limit (small_bounded_tm, 1000);

#if TPROF_CLOCK_HAVE_TSC
  for (int t = 0; t < 2; t++)
    {
      prefaulted_buffers[t] = malloc (MAX_ITERATIONS * sizeof *prefaulted);
      memset (prefaulted_buffers[t], 0, MAX_ITERATIONS * sizeof *prefaulted);
    }
  prefaulted = prefaulted_buffers[0];
#endif
  /* Rounds interleave the cases so that machine noise hits them alike. */
  /* the spill thread names itself once it runs */
  for (int wait = 0; (spill_cpu = bench_named_thread_cpu_ns ("tprof-spill")) < 0 && wait < 1000; wait++)
    usleep (1000);
  process_cpu = bench_process_cpu_ns ();
  for (int r = 0; r < rounds; r++)
    for (int c = 0; c < N_CASES; c++)
      {
        double start;

        if (cases[c].run == NULL)
          continue;
        /* outside the timing, as for the unbounded manager */
        tprof_time_manager_clear (tm);
        tprof_time_manager_clear (bounded_tm);
        tprof_time_manager_clear (small_bounded_tm);
        tprof_time_manager_clear (spill_tm);
        start = now_ns ();
        cases[c].run (tm);
        if (c == ONE_THREAD || c == TWO_THREADS || c == SPILLED_ONE_THREAD || c == SPILLED_TWO_THREADS
            || c == FLOOR_TWO_THREADS)
          {
            int n = c == ONE_THREAD || c == SPILLED_ONE_THREAD ? 1 : 2;

            cases[c].samples[r] = threads_slowest_ns / iterations;
            cases[c].cpu_ns += threads_cpu_ns;
            cases[c].instructions = r == 0 || (cases[c].instructions > 0 && threads_instructions > 0)
                                    ? cases[c].instructions + threads_instructions : 0;
            cases[c].regions += (uint64_t) n * (uint64_t) iterations;
          }
        else
          cases[c].samples[r] = (now_ns () - start) / iterations;
      }
  process_cpu = bench_process_cpu_ns () - process_cpu;
  spill_cpu = spill_cpu >= 0 ? bench_named_thread_cpu_ns ("tprof-spill") - spill_cpu : -1;

  printf ("paired, round by round (spill every %g s into %s):\n", SPILL_INTERVAL, spill_dir);
  print_paired ("spilling / not, 1 thread", &cases[SPILLED_ONE_THREAD], &cases[ONE_THREAD], 1.02);
  print_paired ("spilling / not, 2 threads", &cases[SPILLED_TWO_THREADS], &cases[TWO_THREADS], 1.02);
  print_paired ("TPROF_SCOPE / the same without the regions test", &cases[SCOPE], &cases[SCOPE_UNTRACKED], 1.02);
  printf ("recording threads per region, spilling / not (sums over the rounds):\n");
  print_per_region ("1 thread", &cases[SPILLED_ONE_THREAD], &cases[ONE_THREAD]);
  print_per_region ("2 threads", &cases[SPILLED_TWO_THREADS], &cases[TWO_THREADS]);
  if (spill_cpu >= 0)
    printf ("  the spill thread's CPU time: %.2f ms = %.3f %% of the run's (%.0f ms; every case, %d rounds)\n",
            1e-6 * spill_cpu, 100 * spill_cpu / process_cpu, 1e-6 * process_cpu, rounds);
  else
    printf ("  the spill thread's CPU time: not found (no thread named tprof-spill)\n");
  for (int c = 0; c < N_CASES; c++)
    if (cases[c].run != NULL)
      med[c] = median (cases[c].samples, rounds);
  base = med[CLOCK_GETTIME];
  floor = cases[RDTSC_STORE].run != NULL ? med[RDTSC_STORE] : base;
  print_calibration ();
  printf ("%-36s %10s %9s %9s\n", "case", "ns/region", "/2 clock", "/floor");
  for (int c = 0; c < N_CASES; c++)
    if (cases[c].run != NULL)
      printf ("%-36s %10.2f %8.3fx %8.3fx\n", cases[c].label, med[c], med[c] / base, med[c] / floor);
  printf ("targets:\n");
  print_target ("TPROF_SCOPE one manager / two clock_gettime", med[SCOPE] / base, "<=", 0.6);
  print_target ("TPROF_SCOPE one manager / floor", med[SCOPE] / floor, "<=", 1.5);
  print_target ("TPROF_SCOPE limit 1e5 / two clock_gettime", med[SCOPE_SAMPLING] / base, "<=", 0.6);
  print_target ("TPROF_SCOPE limit 1e5 / floor", med[SCOPE_SAMPLING] / floor, "<=", 1.5);
  print_target ("TPROF_SCOPE limit 1e3 / two clock_gettime", med[SCOPE_SAMPLING_SMALL] / base, "<=", 0.6);
  print_target ("TPROF_SCOPE limit 1e3 / floor", med[SCOPE_SAMPLING_SMALL] / floor, "<=", 1.5);
  print_target ("TPROF_SCOPE nothing enabled, ns", med[SCOPE_OFF], "<=", 1.0);
  print_target ("2 threads: each thread's rate / one thread alone", med[ONE_THREAD] / med[TWO_THREADS], ">=", 0.9);
  if (cases[FLOOR_TWO_THREADS].run != NULL)
    {
      /* two vCPUs that are one core's hyperthreads share the rdtsc unit:
       * say what the machine allows, and how much of it tprof keeps */
      double machine = med[RDTSC_STORE] / med[FLOOR_TWO_THREADS];

      printf ("  (the floor itself on 2 threads runs at %.3f of one thread alone: what this machine allows)\n",
              machine);
      print_target ("2 threads, against the floor's own 2-thread rate", med[ONE_THREAD] / med[TWO_THREADS] / machine,
                    ">=", 0.9);
    }
  tprof_time_manager_free (tm);
  tprof_time_manager_free (bounded_tm);
  tprof_time_manager_free (small_bounded_tm);
  tprof_time_manager_free (spill_tm);
  remove_dir (spill_dir);
  return 0;
}
