/* test-clock.c — the process's ticks: the choice of clock, and their conversion against CLOCK_MONOTONIC. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <tprof/capture.h>

#include "tprof-clock-private.h"
#include "tprof-time-manager-internal.h"

/* Run twice by meson: as is, and with TPROF_CLOCK=monotonic. */
static gboolean
forced_monotonic (void)
{
  return g_strcmp0 (g_getenv ("TPROF_CLOCK"), "monotonic") == 0;
}

static double
monotonic_secs (void)
{
  return tprof_clock_ns_to_secs (tprof_clock_now_ns ());
}

/* A tick reading between two of CLOCK_MONOTONIC: the tightest of a few. */
typedef struct
{
  int64_t ticks;
  double  secs;
  double  half_window;
} Pair;

static Pair
take_pair (void)
{
  Pair best = { 0, 0, INFINITY };

  for (int i = 0; i < 32; i++)
    {
      double before = monotonic_secs ();
      int64_t ticks = tprof_clock_ticks ();
      double after = monotonic_secs ();

      if ((after - before) / 2 < best.half_window)
        best = (Pair) { ticks, (before + after) / 2, (after - before) / 2 + 1e-9 };
    }
  return best;
}

static void
sleep_secs (double secs)
{
  struct timespec ts = { (time_t) secs, (long) ((secs - floor (secs)) * 1e9) };

  while (nanosleep (&ts, &ts) != 0)
    ;
}

/* The bound the calibration states for a tick read at @secs. */
static double
stated_error (const TprofClockCalibration *cal, double secs)
{
  return cal->offset_error_secs + cal->rate_error * fabs (secs - cal->centre_secs);
}

static void
test_choice (void)
{
  g_assert_false (_tprof_clock_prefer_tsc (false, NULL));
  g_assert_false (_tprof_clock_prefer_tsc (false, "tsc"));
  g_assert_true (_tprof_clock_prefer_tsc (true, NULL));
  g_assert_true (_tprof_clock_prefer_tsc (true, "tsc"));
  g_assert_true (_tprof_clock_prefer_tsc (true, ""));
  g_assert_false (_tprof_clock_prefer_tsc (true, "monotonic"));
}

/* The clock in use is the one the processor and the environment call for. */
static void
test_chosen (void)
{
  TprofClockCalibration cal;
  gboolean tsc = !forced_monotonic () && _tprof_clock_has_invariant_tsc ();

  tprof_clock_get_calibration (&cal);
  g_test_message ("clock %s, %.6f GHz", cal.name, cal.ticks_per_sec * 1e-9);
  g_assert_cmpstr (cal.name, ==, tsc ? "tsc" : TPROF_CLOCK_NAME);
  g_assert_true (_tprof_record_state.ticks_are_tsc == tsc);
}

/* The fallback: ticks are CLOCK_MONOTONIC nanoseconds, converted exactly. */
static void
test_fallback (void)
{
  TprofClockCalibration cal;
  int64_t before, ticks, after;

  tprof_clock_get_calibration (&cal);
  g_assert_false (_tprof_record_state.ticks_are_tsc);
  before = tprof_clock_now_ns ();
  ticks = tprof_clock_ticks ();
  after = tprof_clock_now_ns ();
  g_assert_cmpint (before, <=, ticks);
  g_assert_cmpint (ticks, <=, after);
  g_assert_cmpfloat (cal.ticks_per_sec, ==, 1e9);
  g_assert_cmpfloat (cal.rate_error, ==, 0.0);
  g_assert_cmpfloat (tprof_clock_ticks_to_secs (ticks), ==, (double) ticks * 1e-9);
  g_assert_cmpfloat (tprof_clock_ticks_to_duration (after - before), ==, (double) (after - before) * 1e-9);
}

/* Over ~2 s, ticks convert to CLOCK_MONOTONIC within the stated error. */
static void
test_conversion (void)
{
  TprofClockCalibration cal;
  Pair first, last;
  double first_err, last_err, duration_err;

  tprof_clock_choose ();
  first = take_pair ();
  sleep_secs (2.0);
  last = take_pair ();
  tprof_clock_calibrate ();
  tprof_clock_get_calibration (&cal);

  first_err = fabs (tprof_clock_ticks_to_secs (first.ticks) - first.secs);
  last_err = fabs (tprof_clock_ticks_to_secs (last.ticks) - last.secs);
  duration_err = fabs (tprof_clock_ticks_to_duration (last.ticks - first.ticks) - (last.secs - first.secs));
  g_test_message ("%s: %d pairs over %.3f s; stated error %.1f ns + %.4f ppm of the distance",
                  cal.name, cal.n_pairs, cal.span_secs, cal.offset_error_secs * 1e9, cal.rate_error * 1e6);
  g_test_message ("measured: start %.1f ns, end %.1f ns, the 2 s duration %.1f ns",
                  first_err * 1e9, last_err * 1e9, duration_err * 1e9);
  g_assert_cmpfloat (cal.span_secs, >=, 1.9 * _tprof_record_state.ticks_are_tsc);
  g_assert_cmpfloat (first_err, <=, stated_error (&cal, first.secs) + first.half_window);
  g_assert_cmpfloat (last_err, <=, stated_error (&cal, last.secs) + last.half_window);
  g_assert_cmpfloat (duration_err, <=, stated_error (&cal, first.secs) + stated_error (&cal, last.secs)
                                        + first.half_window + last.half_window);
}

static bool
first_start (const double *samples, const double *starts, size_t n, int32_t thread, void *user_data)
{
  *(double *) user_data = starts[0];
  return false;
}

/* A recorded region's start and end lie within CLOCK_MONOTONIC readings
 * taken around it, give or take the stated error. */
static void
test_recorded (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofClockCalibration cal;
  double before, after, *times = NULL, slack, start = 0;

  tprof_time_manager_enable (tm);
  before = monotonic_secs ();
  {
    TPROF_SCOPE ("sleep");
    sleep_secs (0.02);
  }
  after = monotonic_secs ();
  tprof_time_manager_disable (tm);

  g_assert_cmpuint (tprof_time_manager_get_time (tm, "sleep", &times), ==, 1);
  tprof_clock_get_calibration (&cal);
  slack = stated_error (&cal, before) + 1e-9;
  g_assert_cmpfloat (times[0], >=, 0.02 - 2 * slack);
  g_assert_cmpfloat (times[0], <=, after - before + 2 * slack);
  /* the start as the manager holds it, before a gather moves the origin */
  g_assert_false (_tprof_time_manager_visit_timeline (tm, "sleep", first_start, &start));
  g_test_message ("region: began %.1f ns after the reading before it, ended %.1f ns before the one after",
                  (start - before) * 1e9, (after - start - times[0]) * 1e9);
  g_assert_cmpfloat (start, >=, before - slack);
  g_assert_cmpfloat (start + times[0], <=, after + slack);
  free (times);
  tprof_time_manager_free (tm);
}

/* A thread timing regions into its own manager, keeping what each
 * tprof_timer_stop() returned. */
#define CONCURRENT_MAX 200000

typedef struct
{
  TprofTimeManager *tm;
  double           *returned;
  size_t            n;
  gint             *stop;
} TimingThread;

static gpointer
time_regions (gpointer data)
{
  TimingThread *t = data;

  tprof_time_manager_enable (t->tm);
  while (t->n < CONCURRENT_MAX && !g_atomic_int_get (t->stop))
    {
      TprofTimer timer = tprof_timer_start (t->tm, "timed");

      {
        TPROF_SCOPE ("scoped");
        t->returned[t->n++] = tprof_timer_stop (&timer);
      }
    }
  tprof_time_manager_disable (t->tm);
  return NULL;
}

/* Readers and refits while two threads record: every duration a timer
 * returned is the one its manager reads at the end, bit for bit. */
static void
test_concurrent (void)
{
  TimingThread threads[2];
  GThread *handles[2];
  gint stop = 0;
  gint64 until = g_get_monotonic_time () + 400000;

  for (int i = 0; i < 2; i++)
    {
      threads[i] = (TimingThread) { tprof_time_manager_new (), g_new (double, CONCURRENT_MAX), 0, &stop };
      handles[i] = g_thread_new ("timing", time_regions, &threads[i]);
    }
  while (g_get_monotonic_time () < until)
    for (int i = 0; i < 2; i++)
      {
        double *times = NULL;

        tprof_clock_calibrate ();
        tprof_time_manager_get_time (threads[i].tm, "scoped", &times);
        free (times);
      }
  g_atomic_int_set (&stop, 1);
  for (int i = 0; i < 2; i++)
    {
      double *times = NULL;

      g_thread_join (handles[i]);
      g_assert_cmpuint (tprof_time_manager_get_time (threads[i].tm, "timed", &times), ==, threads[i].n);
      for (size_t k = 0; k < threads[i].n; k++)
        if (times[k] != threads[i].returned[k])
          g_error ("thread %d, region %zu: returned %.17g s, read %.17g s", i, k, threads[i].returned[k], times[k]);
      free (times);
      g_assert_cmpuint (tprof_time_manager_get_time (threads[i].tm, "scoped", &times), ==, threads[i].n);
      free (times);
      g_free (threads[i].returned);
      tprof_time_manager_free (threads[i].tm);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/clock/choice", test_choice);
  g_test_add_func ("/capture/clock/chosen", test_chosen);
  /* the fallback's own case runs where the fallback is the clock: in
   * test-clock-monotonic (TPROF_CLOCK=monotonic), and everywhere on a
   * processor without an invariant TSC; the TSC run has nothing to skip */
  tprof_clock_choose ();
  if (!_tprof_record_state.ticks_are_tsc)
    g_test_add_func ("/capture/clock/fallback", test_fallback);
  g_test_add_func ("/capture/clock/conversion", test_conversion);
  g_test_add_func ("/capture/clock/recorded", test_recorded);
  g_test_add_func ("/capture/clock/concurrent", test_concurrent);
  return g_test_run ();
}
