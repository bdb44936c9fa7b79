/* test-core-record.c — recording with TPROF_SCOPE, TPROF_TIMER and tprof_timer_start/stop, checked without GLib. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <tprof/capture.h>

#include "core-check.h"

/* Keeps the clock busy for about @ns so every sample is clearly positive. */
static void
spin_ns (int64_t ns)
{
  int64_t end = tprof_clock_now_ns () + ns;

  while (tprof_clock_now_ns () < end)
    ;
}

/* Every sample of @name in @tm: @expected of them, each in (0, @bound]. */
static void
check_samples (TprofTimeManager *tm, const char *name, size_t expected,
               const double *bounds)
{
  double *times = NULL;
  size_t n = tprof_time_manager_get_time (tm, name, &times);

  CHECK_INT_EQ (expected, n);
  for (size_t i = 0; i < n; i++)
    {
      if (!(times[i] > 0.0 && times[i] <= bounds[i]))
        {
          fprintf (stderr, "%s sample %zu: %.9g s, outside (0, %.9g]\n",
                   name, i, times[i], bounds[i]);
          exit (1);
        }
    }
  free (times);
}

static int
scoped_early_return (int stop_early)
{
  TPROF_SCOPE ("early-return");
  spin_ns (10000);
  if (stop_early)
    return 1;
  spin_ns (10000);
  return 0;
}

/* Each recorded duration lies inside the wall-clock span measured around it. */
static void
test_scope_timer_start_stop (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  double scope_bounds[5], timer_bounds[3], dyn_bound, dyn_returned;
  char dyn_name[32];

  CHECK (tm != NULL);
  tprof_time_manager_enable (tm);
  for (int i = 0; i < 5; i++)
    {
      int64_t start = tprof_clock_now_ns ();
      {
        TPROF_SCOPE ("scope");
        spin_ns (20000);
      }
      scope_bounds[i] = tprof_clock_ns_to_secs (tprof_clock_now_ns () - start);
    }
  for (int i = 0; i < 3; i++)
    {
      int64_t start = tprof_clock_now_ns ();
      TPROF_TIMER (tm, "timer")
        spin_ns (20000);
      timer_bounds[i] = tprof_clock_ns_to_secs (tprof_clock_now_ns () - start);
    }

  /* a name built at run time */
  snprintf (dyn_name, sizeof dyn_name, "dynamic-%d", 7);
  {
    int64_t start = tprof_clock_now_ns ();
    TprofTimer timer = tprof_timer_start (tm, dyn_name);
    spin_ns (20000);
    dyn_returned = tprof_timer_stop (&timer);
    dyn_bound = tprof_clock_ns_to_secs (tprof_clock_now_ns () - start);
    /* a stopped timer is left alone */
    CHECK_DOUBLE_EQ (0.0, tprof_timer_stop (&timer));
  }

  CHECK_INT_EQ (1, scoped_early_return (1));
  CHECK_INT_EQ (0, scoped_early_return (0));
  tprof_time_manager_disable (tm);

  /* nothing enabled: records nothing */
  {
    TPROF_SCOPE ("scope");
    spin_ns (1000);
  }

  check_samples (tm, "scope", 5, scope_bounds);
  check_samples (tm, "timer", 3, timer_bounds);
  check_samples (tm, "dynamic-7", 1, &dyn_bound);
  {
    double *times = NULL;
    CHECK_INT_EQ (1, tprof_time_manager_get_time (tm, "dynamic-7", &times));
    CHECK_DOUBLE_EQ (dyn_returned, times[0]);
    free (times);
    CHECK_INT_EQ (2, tprof_time_manager_get_time (tm, "early-return", &times));
    /* each covers what its path spun: the early return one spin, the other
     * two (an upper bound would fail whenever the machine is busy) */
    CHECK (times[0] >= 10e-6);
    CHECK (times[1] >= 20e-6);
    free (times);
    CHECK_INT_EQ (0, tprof_time_manager_get_time (tm, "never", &times));
    CHECK (times == NULL);
  }

  /* names in the order first recorded */
  {
    const char **names = NULL;
    CHECK_INT_EQ (4, tprof_time_manager_list_names (tm, &names));
    CHECK_STR_EQ ("scope", names[0]);
    CHECK_STR_EQ ("timer", names[1]);
    CHECK_STR_EQ ("dynamic-7", names[2]);
    CHECK_STR_EQ ("early-return", names[3]);
    free (names);
  }
  tprof_time_manager_free (tm);
}

/* TPROF_SCOPE records into every manager enabled on the thread. */
static void
test_scope_nested_managers (void)
{
  TprofTimeManager *outer = tprof_time_manager_new ();
  TprofTimeManager *inner = tprof_time_manager_new ();
  double *outer_times = NULL, *inner_times = NULL;

  tprof_time_manager_enable (outer);
  {
    TPROF_SCOPE ("outer-only");
    spin_ns (1000);
  }
  tprof_time_manager_enable (inner);
  {
    TPROF_SCOPE ("both");
    spin_ns (1000);
  }
  tprof_time_manager_disable (inner);
  tprof_time_manager_disable (outer);

  CHECK_INT_EQ (1, tprof_time_manager_get_time (outer, "outer-only", &outer_times));
  free (outer_times);
  CHECK_INT_EQ (0, tprof_time_manager_get_time (inner, "outer-only", &inner_times));
  CHECK_INT_EQ (1, tprof_time_manager_get_time (outer, "both", &outer_times));
  CHECK_INT_EQ (1, tprof_time_manager_get_time (inner, "both", &inner_times));
  CHECK_DOUBLE_EQ (outer_times[0], inner_times[0]);
  free (outer_times);
  free (inner_times);

  tprof_time_manager_clear (outer);
  CHECK_INT_EQ (0, tprof_time_manager_get_time (outer, "both", &outer_times));
  tprof_time_manager_free (inner);
  tprof_time_manager_free (outer);
}

/* Two threads whose first recording anywhere in the process (thread A,
 * into another manager) came in one order and whose first recording into
 * @tm in the other (B first). */
static TprofTimeManager *order_tm, *order_other;
static sem_t a_numbered, b_recorded;

static void *
order_thread_a (void *data)
{
  (void) data;
  tprof_time_manager_append_time (order_other, "elsewhere", 1.0);
  sem_post (&a_numbered);
  sem_wait (&b_recorded);
  tprof_time_manager_append_time (order_tm, "x", 1.0);
  return NULL;
}

static void *
order_thread_b (void *data)
{
  (void) data;
  sem_wait (&a_numbered);
  tprof_time_manager_append_time (order_other, "elsewhere", 2.0);
  tprof_time_manager_append_time (order_tm, "x", 2.0);
  sem_post (&b_recorded);
  return NULL;
}

/* get_time() puts the threads in the order of their thread numbers, the
 * ones the profile's threads column and the spill files give: A, the
 * thread that recorded first in the process, comes first even though B
 * recorded into this manager before it. (Fresh threads take their number
 * before the manager's lock, so under load they can also reach the lock
 * in the other order; this pins that order down.) */
static void
test_get_time_thread_order (void)
{
  pthread_t a, b;
  double *times = NULL;
  TprofProfiledTime *pt;
  const TprofGatheredTime *gt;
  const int32_t *threads;

  order_tm = tprof_time_manager_new ();
  order_other = tprof_time_manager_new ();
  sem_init (&a_numbered, 0, 0);
  sem_init (&b_recorded, 0, 0);
  pthread_create (&a, NULL, order_thread_a, NULL);
  pthread_create (&b, NULL, order_thread_b, NULL);
  pthread_join (a, NULL);
  pthread_join (b, NULL);
  CHECK_INT_EQ (2, (long long) tprof_time_manager_get_time (order_tm, "x", &times));
  CHECK (times[0] == 1.0 && times[1] == 2.0);
  pt = tprof_time_manager_gather_local (order_tm);
  CHECK (pt != NULL && tprof_profiled_time_len (pt) == 1);
  gt = tprof_profiled_time_nth (pt, 0);
  threads = tprof_gathered_time_threads (gt);
  CHECK (threads != NULL && tprof_gathered_time_count (gt) == 2);
  /* the sample of 1.0 (thread A) has the smaller thread number */
  CHECK ((tprof_gathered_time_times (gt)[0] == 1.0) == (threads[0] < threads[1]));
  tprof_profiled_time_free (pt);
  free (times);
  sem_destroy (&a_numbered);
  sem_destroy (&b_recorded);
  tprof_time_manager_free (order_tm);
  tprof_time_manager_free (order_other);
}

int
main (void)
{
  test_scope_timer_start_stop ();
  test_get_time_thread_order ();
  test_scope_nested_managers ();
  printf ("test-core-record: OK\n");
  return 0;
}
