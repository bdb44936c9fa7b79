/* test-time-manager.c — TprofTimeManager: recording, reading, ordering, clearing, threads. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <pthread.h>
#include <tprof/capture.h>

static void
assert_times (TprofTimeManager *tm, const char *name, const double *expected, size_t n)
{
  double *times = NULL;
  size_t got = tprof_time_manager_get_time (tm, name, &times);

  g_assert_cmpuint (got, ==, n);
  for (size_t i = 0; i < n; i++)
    g_assert_cmpfloat (times[i], ==, expected[i]);
  free (times);
}

static void
test_append_get (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  const double fwd[] = { 0.5, 1.25, 3e-9 };
  const double bwd[] = { 2.0 };
  double *times = (double *) 0x1;

  for (size_t i = 0; i < G_N_ELEMENTS (fwd); i++)
    tprof_time_manager_append_time (tm, "forward", fwd[i]);
  tprof_time_manager_append_time (tm, "backward", bwd[0]);

  assert_times (tm, "forward", fwd, G_N_ELEMENTS (fwd));
  assert_times (tm, "backward", bwd, 1);
  g_assert_cmpuint (tprof_time_manager_get_time (tm, "absent", &times), ==, 0);
  g_assert_null (times);
  /* an empty name is not an operation */
  tprof_time_manager_append_time (tm, "", 1.0);
  g_assert_cmpuint (tprof_time_manager_get_time (tm, "", &times), ==, 0);
  tprof_time_manager_free (tm);
  tprof_time_manager_free (NULL);
}

static void
assert_names (TprofTimeManager *tm, const char *const *expected, size_t n)
{
  const char **names = NULL;
  size_t got = tprof_time_manager_list_names (tm, &names);

  g_assert_cmpuint (got, ==, n);
  for (size_t i = 0; i < n; i++)
    g_assert_cmpstr (names[i], ==, expected[i]);
  if (n == 0)
    g_assert_null (names);
  free (names);
}

static void
test_first_recorded_order (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  const char *order[] = { "zeta", "alpha", "io/ckpt", "mid" };

  /* names interned earlier by other managers must not change this order */
  tprof_time_manager_append_time (tm, "zeta", 1);
  tprof_time_manager_append_time (tm, "alpha", 1);
  tprof_time_manager_append_time (tm, "zeta", 2);
  tprof_time_manager_append_time (tm, "io/ckpt", 1);
  tprof_time_manager_append_time (tm, "alpha", 3);
  tprof_time_manager_append_time (tm, "mid", 1);
  assert_names (tm, order, G_N_ELEMENTS (order));
  tprof_time_manager_free (tm);
}

static void
test_clear (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  const char *after[] = { "b", "a" };
  const double one[] = { 7.0 };

  tprof_time_manager_append_time (tm, "a", 1);
  tprof_time_manager_append_time (tm, "b", 2);
  tprof_time_manager_clear (tm);
  assert_names (tm, NULL, 0);
  assert_times (tm, "a", NULL, 0);

  tprof_time_manager_append_time (tm, "b", 7);
  tprof_time_manager_append_time (tm, "a", 7);
  assert_names (tm, after, 2);
  assert_times (tm, "b", one, 1);
  tprof_time_manager_free (tm);
}

static void
test_managers_independent (void)
{
  TprofTimeManager *a = tprof_time_manager_new ();
  TprofTimeManager *b = tprof_time_manager_new ();
  const double va[] = { 1, 2 };
  const double vb[] = { 3 };

  tprof_time_manager_append_time (a, "x", 1);
  tprof_time_manager_append_time (b, "x", 3);
  tprof_time_manager_append_time (a, "x", 2);
  assert_times (a, "x", va, 2);
  assert_times (b, "x", vb, 1);
  tprof_time_manager_free (a);
  tprof_time_manager_free (b);
}

/* Crosses many chunk boundaries (512, 1024, 2048, ... samples). */
static void
test_large (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  const size_t n = 1000000;
  double *times = NULL;

  for (size_t i = 0; i < n; i++)
    tprof_time_manager_append_time (tm, "big", (double) i * 1e-6);
  g_assert_cmpuint (tprof_time_manager_get_time (tm, "big", &times), ==, n);
  for (size_t i = 0; i < n; i++)
    if (times[i] != (double) i * 1e-6)
      g_error ("sample %zu is %g", i, times[i]);
  free (times);
  tprof_time_manager_free (tm);
}

static void
test_many_names (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  const char **names = NULL;

  for (int round = 0; round < 3; round++)
    for (int i = 0; i < 1000; i++)
      {
        char name[32];

        g_snprintf (name, sizeof name, "op-%04d", i);
        tprof_time_manager_append_time (tm, name, round);
      }
  g_assert_cmpuint (tprof_time_manager_list_names (tm, &names), ==, 1000);
  for (int i = 0; i < 1000; i++)
    {
      char name[32];
      double *times = NULL;

      g_snprintf (name, sizeof name, "op-%04d", i);
      g_assert_cmpstr (names[i], ==, name);
      g_assert_cmpuint (tprof_time_manager_get_time (tm, name, &times), ==, 3);
      g_assert_cmpfloat (times[2], ==, 2.0);
      free (times);
    }
  free (names);
  tprof_time_manager_free (tm);
}

#define N_THREADS 4
#define N_PER_THREAD 100000

typedef struct
{
  TprofTimeManager *tm;
  int               index;
  gboolean          use_scope;
} Worker;

static gpointer
record_values (gpointer data)
{
  Worker *w = data;

  for (int i = 0; i < N_PER_THREAD; i++)
    tprof_time_manager_append_time (w->tm, "shared", w->index * 1e6 + i);
  return NULL;
}

static gpointer
record_scopes (gpointer data)
{
  Worker *w = data;

  tprof_time_manager_enable (w->tm);
  for (int i = 0; i < N_PER_THREAD; i++)
    {
      TPROF_SCOPE ("scoped");
    }
  tprof_time_manager_disable (w->tm);
  return NULL;
}

static void
run_workers (TprofTimeManager *tm, GThreadFunc func)
{
  Worker workers[N_THREADS];
  GThread *threads[N_THREADS];

  for (int t = 0; t < N_THREADS; t++)
    {
      workers[t] = (Worker) { tm, t, FALSE };
      threads[t] = g_thread_new ("recorder", func, &workers[t]);
    }
  for (int t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);
}

/* No sample lost, each thread's samples complete and in its own order. */
static void
test_threads_append (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  double *times = NULL;
  int next[N_THREADS] = { 0 };
  size_t n;

  run_workers (tm, record_values);
  n = tprof_time_manager_get_time (tm, "shared", &times);
  g_assert_cmpuint (n, ==, (size_t) N_THREADS * N_PER_THREAD);
  for (size_t i = 0; i < n; i++)
    {
      int t = (int) (times[i] / 1e6);
      int k = (int) (times[i] - t * 1e6);

      g_assert_cmpint (t, >=, 0);
      g_assert_cmpint (t, <, N_THREADS);
      g_assert_cmpint (k, ==, next[t]);
      next[t]++;
    }
  free (times);
  tprof_time_manager_free (tm);
}

static void
test_threads_scope (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  double *times = NULL;
  size_t n;

  run_workers (tm, record_scopes);
  n = tprof_time_manager_get_time (tm, "scoped", &times);
  g_assert_cmpuint (n, ==, (size_t) N_THREADS * N_PER_THREAD);
  for (size_t i = 0; i < n; i++)
    g_assert_cmpfloat (times[i], >=, 0.0);
  free (times);
  tprof_time_manager_free (tm);
}

static gpointer
read_while_recording (gpointer data)
{
  TprofTimeManager *tm = data;
  size_t last = 0;

  for (int i = 0; i < 200; i++)
    {
      double *times = NULL;
      size_t n = tprof_time_manager_get_time (tm, "shared", &times);

      g_assert_cmpuint (n, >=, last);
      for (size_t j = 0; j < n; j++)
        g_assert_cmpfloat (times[j], >=, 0.0);
      last = n;
      free (times);
    }
  return NULL;
}

/* Reading while other threads record sees a consistent, growing prefix. */
static void
test_read_while_recording (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  GThread *reader;
  double *times = NULL;

  reader = g_thread_new ("reader", read_while_recording, tm);
  run_workers (tm, record_values);
  g_thread_join (reader);
  g_assert_cmpuint (tprof_time_manager_get_time (tm, "shared", &times), ==,
                    (size_t) N_THREADS * N_PER_THREAD);
  free (times);
  tprof_time_manager_free (tm);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/manager/append-get", test_append_get);
  g_test_add_func ("/capture/manager/first-recorded-order", test_first_recorded_order);
  g_test_add_func ("/capture/manager/clear", test_clear);
  g_test_add_func ("/capture/manager/independent", test_managers_independent);
  g_test_add_func ("/capture/manager/large", test_large);
  g_test_add_func ("/capture/manager/many-names", test_many_names);
  g_test_add_func ("/capture/manager/threads/append", test_threads_append);
  g_test_add_func ("/capture/manager/threads/scope", test_threads_scope);
  g_test_add_func ("/capture/manager/threads/read-while-recording", test_read_while_recording);
  return g_test_run ();
}
