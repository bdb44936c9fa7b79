/* test-timer.c — TPROF_TIMER, TPROF_SCOPE and tprof_timer_start/stop, including early exits. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <time.h>
#include <tprof/capture.h>

static size_t
count_of (TprofTimeManager *tm, const char *name)
{
  double *times = NULL;
  size_t n = tprof_time_manager_get_time (tm, name, &times);

  free (times);
  return n;
}

static double
only_time (TprofTimeManager *tm, const char *name)
{
  double *times = NULL;
  double t;

  g_assert_cmpuint (tprof_time_manager_get_time (tm, name, &times), ==, 1);
  t = times[0];
  free (times);
  return t;
}

static void
sleep_ms (int ms)
{
  struct timespec ts = { 0, ms * 1000000L };

  while (nanosleep (&ts, &ts) != 0)
    ;
}

static void
test_timer_block (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  int body_runs = 0;
  double t;

  TPROF_TIMER (tm, "block")
    {
      body_runs++;
      sleep_ms (3);
    }
  g_assert_cmpint (body_runs, ==, 1);
  t = only_time (tm, "block");
  /* CLOCK_MONOTONIC: at least the sleep, and not absurdly more */
  g_assert_cmpfloat (t, >=, 0.003);
  g_assert_cmpfloat (t, <, 5.0);

  /* no manager: the body still runs, nothing is recorded anywhere */
  TPROF_TIMER (NULL, "block")
    body_runs++;
  g_assert_cmpint (body_runs, ==, 2);
  g_assert_cmpuint (count_of (tm, "block"), ==, 1);
  tprof_time_manager_free (tm);
}

static int
timer_return_early (TprofTimeManager *tm, int x)
{
  TPROF_TIMER (tm, "early")
    {
      if (x > 0)
        return x;
    }
  return -1;
}

static void
test_timer_early_exit (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  int i;

  g_assert_cmpint (timer_return_early (tm, 5), ==, 5);
  g_assert_cmpuint (count_of (tm, "early"), ==, 1);
  g_assert_cmpint (timer_return_early (tm, 0), ==, -1);
  g_assert_cmpuint (count_of (tm, "early"), ==, 2);

  TPROF_TIMER (tm, "goto")
    {
      goto out;
    }
out:
  g_assert_cmpuint (count_of (tm, "goto"), ==, 1);

  for (i = 0; i < 3; i++)
    TPROF_TIMER (tm, "break")
      {
        break;  /* leaves the timed block only */
      }
  g_assert_cmpint (i, ==, 3);
  g_assert_cmpuint (count_of (tm, "break"), ==, 3);

  TPROF_TIMER (tm, "continue")
    {
      continue;
    }
  g_assert_cmpuint (count_of (tm, "continue"), ==, 1);
  tprof_time_manager_free (tm);
}

static void
scoped_work (int early)
{
  TPROF_SCOPE ("work");
  if (early)
    return;
  sleep_ms (1);
}

static void
test_scope_nested_enable (void)
{
  TprofTimeManager *outer = tprof_time_manager_new ();
  TprofTimeManager *inner = tprof_time_manager_new ();

  scoped_work (0); /* nothing enabled: nothing recorded */
  tprof_time_manager_enable (outer);
  scoped_work (0);
  tprof_time_manager_enable (inner);
  scoped_work (0);
  scoped_work (1);
  tprof_time_manager_disable (inner);
  scoped_work (1);
  tprof_time_manager_disable (outer);
  scoped_work (0);

  g_assert_cmpuint (count_of (outer, "work"), ==, 4);
  g_assert_cmpuint (count_of (inner, "work"), ==, 2);

  /* the same manager twice on the stack records twice, as the seed's stack does */
  tprof_time_manager_enable (inner);
  tprof_time_manager_enable (inner);
  scoped_work (1);
  tprof_time_manager_disable (inner);
  tprof_time_manager_disable (inner);
  g_assert_cmpuint (count_of (inner, "work"), ==, 4);

  tprof_time_manager_free (outer);
  tprof_time_manager_free (inner);
}

static void
test_scope_duration (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  double t;

  tprof_time_manager_enable (tm);
  {
    TPROF_SCOPE ("sleep");
    sleep_ms (2);
  }
  tprof_time_manager_disable (tm);
  t = only_time (tm, "sleep");
  g_assert_cmpfloat (t, >=, 0.002);
  g_assert_cmpfloat (t, <, 5.0);
  tprof_time_manager_free (tm);
}

static gpointer
scope_on_other_thread (gpointer data)
{
  scoped_work (1);
  return NULL;
}

/* Enabling is per thread: another thread's scopes do not record. */
static void
test_scope_per_thread (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();

  tprof_time_manager_enable (tm);
  g_thread_join (g_thread_new ("other", scope_on_other_thread, NULL));
  tprof_time_manager_disable (tm);
  g_assert_cmpuint (count_of (tm, "work"), ==, 0);
  tprof_time_manager_free (tm);
}

static void
test_start_stop (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  char dynamic[32];
  TprofTimer timer;
  double secs;

  g_snprintf (dynamic, sizeof dynamic, "layer/%d", 7);
  timer = tprof_timer_start (tm, dynamic);
  sleep_ms (2);
  secs = tprof_timer_stop (&timer);
  g_assert_cmpfloat (secs, >=, 0.002);
  g_assert_cmpfloat (only_time (tm, "layer/7"), ==, secs);
  /* stopping twice records once */
  g_assert_cmpfloat (tprof_timer_stop (&timer), ==, 0.0);
  g_assert_cmpuint (count_of (tm, "layer/7"), ==, 1);

  timer = tprof_timer_start (NULL, "nothing");
  g_assert_cmpfloat (tprof_timer_stop (&timer), ==, 0.0);
  timer = tprof_timer_start (tm, "");
  tprof_timer_stop (&timer);
  g_assert_cmpuint (count_of (tm, ""), ==, 0);
  tprof_time_manager_free (tm);
}

static void
test_names (void)
{
  int id = _tprof_name_intern ("intern/me");

  g_assert_cmpint (id, >, 0);
  g_assert_cmpint (_tprof_name_intern ("intern/me"), ==, id);
  g_assert_cmpstr (_tprof_name_lookup (id), ==, "intern/me");
  g_assert_null (_tprof_name_lookup (0));
  g_assert_null (_tprof_name_lookup (1 << 30));
  g_assert_cmpint (_tprof_name_intern (""), ==, 0);
  g_assert_cmpint (_tprof_name_intern (NULL), ==, 0);
  g_assert_cmpstr (TPROF_VERSION_S, ==, PACKAGE_VERSION_FOR_TEST);
  g_assert_true (TPROF_CHECK_VERSION (0, 0, 1));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/timer/block", test_timer_block);
  g_test_add_func ("/capture/timer/early-exit", test_timer_early_exit);
  g_test_add_func ("/capture/timer/start-stop", test_start_stop);
  g_test_add_func ("/capture/scope/nested-enable", test_scope_nested_enable);
  g_test_add_func ("/capture/scope/duration", test_scope_duration);
  g_test_add_func ("/capture/scope/per-thread", test_scope_per_thread);
  g_test_add_func ("/capture/names", test_names);
  return g_test_run ();
}
