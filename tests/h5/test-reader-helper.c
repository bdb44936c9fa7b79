/* test-reader-helper.c — the isolated reader's helper process: it lives while its file is open, whatever thread opened it, and is reaped. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "h5-test-util.h"

#define N_SAMPLES 1000

static char *test_dir;

/* The state letter ('S', 'R', 'Z', ...) of our child named @comm, 0 if
 * there is none; its pid in @pid. */
static char
child_state (const char *comm,
             pid_t      *pid)
{
  DIR *proc = opendir ("/proc");
  struct dirent *entry;
  char found = 0;

  g_assert_nonnull (proc);
  while (found == 0 && (entry = readdir (proc)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%s/stat", entry->d_name);
      g_autofree char *stat = NULL;
      char name[64], state;
      int ppid, id;

      if (entry->d_name[0] < '0' || entry->d_name[0] > '9'
          || !g_file_get_contents (path, &stat, NULL, NULL)
          || sscanf (stat, "%d (%63[^)]) %c %d", &id, name, &state, &ppid) != 4)
        continue;
      if (ppid == getpid () && strcmp (name, comm) == 0)
        {
          found = state;
          *pid = id;
        }
    }
  closedir (proc);
  return found;
}

static char *
saved_profile (void)
{
  char *path = g_build_filename (test_dir, "run.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  double times[N_SAMPLES];
  int32_t ranks[N_SAMPLES];
  TprofError error = { 0 };

  for (int i = 0; i < N_SAMPLES; i++)
    {
      times[i] = 1e-3 * (1 + i % 7);
      ranks[i] = i % 2;
    }
  g_assert_cmpint (tprof_profiled_time_add (pt, "work", h5_test_gathered (times, ranks, N_SAMPLES), &error),
                   ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  return path;
}

static void *
open_in_thread (void *path)
{
  TprofError error = { 0 };
  TprofProfileFile *file = tprof_profile_file_open_isolated (path, &error);

  g_assert_cmpstr (error.message, ==, "");
  return file;
}

/* A viewer opens files in a thread pool's worker, which ends while the
 * file stays open: the helper must neither die with that thread (leaving
 * a zombie and a file that no longer reads) nor outlive the file. */
static void
test_outlives_opening_thread (void)
{
  g_autofree char *path = saved_profile ();
  TprofProfileFile *file;
  TprofGatheredTime *gt;
  TprofError error = { 0 };
  pthread_t thread;
  pid_t helper = 0, later = 0;
  char state;

  /* every sample through the helper, none read here directly */
  g_setenv ("TPROF_READER_DIRECT", "never", TRUE);
  g_assert_cmpint (pthread_create (&thread, NULL, open_in_thread, path), ==, 0);
  g_assert_cmpint (pthread_join (thread, (void **) &file), ==, 0);
  g_assert_nonnull (file);
  g_usleep (300000);

  state = child_state ("tprof-reader", &helper);
  g_assert_cmpint (state, !=, 0);
  if (state == 'Z')
    g_error ("the helper (pid %ld) died with the thread that opened the file: a zombie", (long) helper);

  gt = tprof_profile_file_read_operation (file, 0, NULL, 0, NULL, NULL, NULL, &error);
  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, N_SAMPLES);
  tprof_gathered_time_free (gt);
  /* the same helper answered */
  g_assert_cmpint (child_state ("tprof-reader", &later), !=, 0);
  g_assert_cmpint (later, ==, helper);

  tprof_profile_file_close (file);
  g_assert_cmpint (child_state ("tprof-reader", &later), ==, 0);
  g_unsetenv ("TPROF_READER_DIRECT");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  g_test_add_func ("/reader-helper/outlives-opening-thread", test_outlives_opening_thread);
  status = g_test_run ();
  g_free (test_dir);
  h5_test_cleanup ();
  return status;
}
