/* test-enable-stack.c — the per-thread stack of enabled managers: any depth, and misuse reported without aborting. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <tprof/capture.h>

#define THREADS 16
#define DEPTH   101

static size_t
count_of (TprofTimeManager *tm, const char *name)
{
  double *times = NULL;
  size_t n = tprof_time_manager_get_time (tm, name, &times);

  free (times);
  return n;
}

static void
scoped_step (void)
{
  TPROF_SCOPE ("step");
}

static gpointer
deep_thread (gpointer data)
{
  TprofTimeManager **managers = data;

  for (int i = 0; i < DEPTH; i++)
    tprof_time_manager_enable (managers[i]);
  scoped_step ();
  scoped_step ();
  for (int i = DEPTH - 1; i >= 0; i--)
    tprof_time_manager_disable (managers[i]);
  scoped_step (); /* nothing enabled any more */
  return NULL;
}

/* Every manager of a deep stack records, on every thread at once. */
static void
test_deep_stack (void)
{
  TprofTimeManager *managers[THREADS][DEPTH];
  GThread *threads[THREADS];

  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < DEPTH; i++)
      managers[t][i] = tprof_time_manager_new ();
  for (int t = 0; t < THREADS; t++)
    threads[t] = g_thread_new ("deep", deep_thread, managers[t]);
  for (int t = 0; t < THREADS; t++)
    g_thread_join (threads[t]);

  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < DEPTH; i++)
      {
        g_assert_cmpuint (count_of (managers[t][i], "step"), ==, 2);
        tprof_time_manager_free (managers[t][i]);
      }
}

static void
collect_message (const char *message,
                 void       *user_data)
{
  g_ptr_array_add (user_data, g_strdup (message));
}

/* Disabling a manager that is not on top removes it and keeps the others;
 * disabling one that is not enabled changes nothing; both are reported. */
static void
test_disable_out_of_order (void)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  TprofTimeManager *a = tprof_time_manager_new ();
  TprofTimeManager *b = tprof_time_manager_new ();

  tprof_set_misuse_handler (collect_message, messages);
  tprof_time_manager_enable (a);
  tprof_time_manager_enable (b);
  tprof_time_manager_disable (a);
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (messages, 0), "not the last one enabled"));

  scoped_step ();
  g_assert_cmpuint (count_of (a, "step"), ==, 0);
  g_assert_cmpuint (count_of (b, "step"), ==, 1);

  tprof_time_manager_disable (b);
  g_assert_cmpuint (messages->len, ==, 1);
  tprof_time_manager_disable (b);
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (messages, 1), "not enabled on this thread"));

  scoped_step ();
  g_assert_cmpuint (count_of (b, "step"), ==, 1);

  /* the stack is whole again: a fresh enable records normally */
  tprof_time_manager_enable (a);
  scoped_step ();
  tprof_time_manager_disable (a);
  g_assert_cmpuint (count_of (a, "step"), ==, 1);
  g_assert_cmpuint (messages->len, ==, 2);

  tprof_set_misuse_handler (NULL, NULL);
  tprof_time_manager_free (a);
  tprof_time_manager_free (b);
}

/* Without a handler the first misuse is printed once, and the process lives. */
static void
test_default_report (void)
{
  if (g_test_subprocess ())
    {
      TprofTimeManager *a = tprof_time_manager_new ();

      tprof_time_manager_disable (a);
      tprof_time_manager_disable (a);
      tprof_time_manager_free (a);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("tprof: tprof_time_manager_disable: the manager is not enabled on this thread;"
                             " nothing was disabled (further misuse is not reported)\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/scope/deep-stack", test_deep_stack);
  g_test_add_func ("/capture/scope/disable-out-of-order", test_disable_out_of_order);
  g_test_add_func ("/capture/scope/default-misuse-report", test_default_report);
  return g_test_run ();
}
