/* test-core-record.c — recording with TPROF_SCOPE, TPROF_TIMER and tprof_timer_start/stop, checked without GLib. */
/* SPDX-License-Identifier: MIT */
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

int
main (void)
{
  test_scope_timer_start_stop ();
  test_scope_nested_managers ();
  printf ("test-core-record: OK\n");
  return 0;
}
