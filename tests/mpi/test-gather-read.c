/* test-gather-read.c — the copy-free read the gather sends from: a time manager's samples visited where they are stored. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <glib.h>

#include <tprof/capture.h>

#include "tprof-time-manager-internal.h"

typedef struct
{
  GArray *starts;   /* of const double *, one per run */
  GArray *lens;     /* of size_t */
  GArray *values;   /* of double, every run's samples in order */
  guint   stop_after;  /* 0: never stop */
} Visit;

static void
visit_init (Visit *v, guint stop_after)
{
  v->starts = g_array_new (FALSE, FALSE, sizeof (const double *));
  v->lens = g_array_new (FALSE, FALSE, sizeof (size_t));
  v->values = g_array_new (FALSE, FALSE, sizeof (double));
  v->stop_after = stop_after;
}

static void
visit_clear (Visit *v)
{
  g_array_unref (v->starts);
  g_array_unref (v->lens);
  g_array_unref (v->values);
}

static bool
visit_collect (const double *samples, size_t n, void *user_data)
{
  Visit *v = user_data;

  g_array_append_val (v->starts, samples);
  g_array_append_val (v->lens, n);
  g_array_append_vals (v->values, samples, (guint) n);
  return v->stop_after == 0 || v->starts->len < v->stop_after;
}

/* The visit sees exactly what the public copy returns, in the same order. */
static void
assert_visit_matches_copy (TprofTimeManager *tm, const char *name, Visit *v)
{
  double *copy = NULL;
  size_t n = tprof_time_manager_get_time (tm, name, &copy);

  g_assert_cmpuint (v->values->len, ==, n);
  if (n > 0)
    g_assert_true (memcmp (v->values->data, copy, n * sizeof *copy) == 0);
  free (copy);
}

static void
test_read_runs_are_chunks (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  static const size_t expected[] = { 512, 1024, 2048, 1416 };
  Visit v;

  for (size_t k = 0; k < 5000; k++)
    tprof_time_manager_append_time (tm, "a", (double) k);
  visit_init (&v, 0);
  g_assert_true (_tprof_time_manager_visit_samples (tm, "a", visit_collect, &v));
  /* one run per chunk, chunks doubling from 512 */
  g_assert_cmpuint (v.lens->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < v.lens->len; i++)
    g_assert_cmpuint (g_array_index (v.lens, size_t, i), ==, expected[i]);
  for (guint i = 0; i < v.values->len; i++)
    g_assert_cmpfloat (g_array_index (v.values, double, i), ==, (double) i);
  assert_visit_matches_copy (tm, "a", &v);
  visit_clear (&v);
  tprof_time_manager_free (tm);
}

/* Later appends neither move nor change the runs already visited. */
static void
test_read_runs_stay_put (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  Visit before, after;

  for (size_t k = 0; k < 3000; k++)
    tprof_time_manager_append_time (tm, "a", (double) k);
  visit_init (&before, 0);
  _tprof_time_manager_visit_samples (tm, "a", visit_collect, &before);
  for (size_t k = 3000; k < 20000; k++)
    tprof_time_manager_append_time (tm, "a", (double) k);
  for (guint r = 0, at = 0; r < before.starts->len; r++)
    {
      const double *run = g_array_index (before.starts, const double *, r);

      for (size_t i = 0; i < g_array_index (before.lens, size_t, r); i++, at++)
        g_assert_cmpfloat (run[i], ==, (double) at);
    }
  visit_init (&after, 0);
  _tprof_time_manager_visit_samples (tm, "a", visit_collect, &after);
  g_assert_cmpuint (after.values->len, ==, 20000);
  g_assert_cmpuint (after.starts->len, >, before.starts->len);
  for (guint r = 0; r < before.starts->len; r++)
    g_assert_true (g_array_index (after.starts, const double *, r)
                   == g_array_index (before.starts, const double *, r));
  assert_visit_matches_copy (tm, "a", &after);
  visit_clear (&before);
  visit_clear (&after);
  tprof_time_manager_free (tm);
}

typedef struct
{
  TprofTimeManager *tm;
  int               thread;
} Job;

static gpointer
record_job (gpointer data)
{
  const Job *job = data;

  for (size_t k = 0; k < 700 + 100 * (size_t) job->thread; k++)
    tprof_time_manager_append_time (job->tm, "t", job->thread * 1e4 + (double) k);
  return NULL;
}

/* Threads in the order they first recorded, each thread's runs in order. */
static void
test_read_threads_in_order (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  Job jobs[3];
  Visit v;
  guint at = 0;

  for (int t = 0; t < 3; t++)
    {
      jobs[t] = (Job) { tm, t };
      g_thread_join (g_thread_new ("recorder", record_job, &jobs[t]));
    }
  visit_init (&v, 0);
  g_assert_true (_tprof_time_manager_visit_samples (tm, "t", visit_collect, &v));
  /* 700 = 512 + 188, 800 = 512 + 288, 900 = 512 + 388 */
  g_assert_cmpuint (v.lens->len, ==, 6);
  for (int t = 0; t < 3; t++)
    for (size_t k = 0; k < 700 + 100 * (size_t) t; k++, at++)
      g_assert_cmpfloat (g_array_index (v.values, double, at), ==, t * 1e4 + (double) k);
  g_assert_cmpuint (at, ==, v.values->len);
  assert_visit_matches_copy (tm, "t", &v);
  visit_clear (&v);
  tprof_time_manager_free (tm);
}

static void
test_read_stop (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  Visit v;

  for (size_t k = 0; k < 2000; k++)
    tprof_time_manager_append_time (tm, "a", (double) k);
  visit_init (&v, 2);
  g_assert_false (_tprof_time_manager_visit_samples (tm, "a", visit_collect, &v));
  g_assert_cmpuint (v.starts->len, ==, 2);
  visit_clear (&v);
  tprof_time_manager_free (tm);
}

static void
test_read_nothing (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  const char **names = NULL;
  Visit v;

  visit_init (&v, 0);
  /* a fresh manager: no names, which is not a failure */
  g_assert_cmpuint (_tprof_time_manager_list_names (tm, &names), ==, 0);
  g_assert_null (names);
  g_assert_true (_tprof_time_manager_visit_samples (tm, "never recorded", visit_collect, &v));
  tprof_time_manager_append_time (tm, "a", 1.0);
  g_assert_true (_tprof_time_manager_visit_samples (tm, "b", visit_collect, &v));
  g_assert_cmpuint (v.starts->len, ==, 0);
  tprof_time_manager_clear (tm);
  g_assert_true (_tprof_time_manager_visit_samples (tm, "a", visit_collect, &v));
  g_assert_cmpuint (v.starts->len, ==, 0);
  g_assert_cmpuint (_tprof_time_manager_list_names (tm, &names), ==, 0);
  visit_clear (&v);
  tprof_time_manager_free (tm);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mpi/read/runs-are-chunks", test_read_runs_are_chunks);
  g_test_add_func ("/mpi/read/runs-stay-put", test_read_runs_stay_put);
  g_test_add_func ("/mpi/read/threads-in-order", test_read_threads_in_order);
  g_test_add_func ("/mpi/read/stop", test_read_stop);
  g_test_add_func ("/mpi/read/nothing", test_read_nothing);
  return g_test_run ();
}
