/* test-reader-helper.c — the isolated reader's helper process: it lives while its file is open, whatever thread opened it, is reaped, a damaged file costs it bounded memory, and the next file's starts ahead. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gstdio.h>

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

/* @pid is a live (or zombie) child of ours. */
static gboolean
is_our_child (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%ld/stat", (long) pid);
  g_autofree char *stat = NULL;
  char name[64], state;
  int ppid, id;

  return g_file_get_contents (path, &stat, NULL, NULL)
         && sscanf (stat, "%d (%63[^)]) %c %d", &id, name, &state, &ppid) == 4 && ppid == getpid ();
}

static gboolean
child_named (pid_t       pid,
             const char *comm)
{
  g_autofree char *path = g_strdup_printf ("/proc/%ld/comm", (long) pid);
  g_autofree char *name = NULL;

  return g_file_get_contents (path, &name, NULL, NULL) && g_str_equal (g_strchomp (name), comm);
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
  /* gone with its file (a helper started for the next file may wait) */
  g_assert_false (is_our_child (helper));
  g_unsetenv ("TPROF_READER_DIRECT");
}

/* Our children named tprof-reader, in pid order, and in @unexeced how
 * many others are still named as we are (forked, not yet exec'd). */
static GArray *
helpers_scan (guint *unexeced)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autofree char *self = NULL;
  DIR *proc = opendir ("/proc");
  struct dirent *entry;

  g_assert_true (g_file_get_contents ("/proc/self/comm", &self, NULL, NULL));
  g_strchomp (self);
  *unexeced = 0;
  g_assert_nonnull (proc);
  while ((entry = readdir (proc)) != NULL)
    {
      pid_t pid = (pid_t) g_ascii_strtoll (entry->d_name, NULL, 10);

      if (pid <= 0 || !is_our_child (pid))
        continue;
      if (child_named (pid, "tprof-reader"))
        g_array_append_val (pids, pid);
      else if (child_named (pid, self))
        (*unexeced)++;
    }
  closedir (proc);
  return pids;
}

/* Our children named tprof-reader, in pid order. The library starts a
 * helper with vfork(), which returns once the helper has exec'd, except
 * under ThreadSanitizer, whose vfork() is a fork(): there a helper may
 * not bear its name yet, and this waits (up to 10 s) until it does. */
static GArray *
helpers (void)
{
  for (int wait = 0;; wait++)
    {
      guint unexeced;
      GArray *pids = helpers_scan (&unexeced);

      if (unexeced == 0 || wait == 1000)
        return pids;
      g_array_unref (pids);
      g_usleep (10000);
    }
}

static TprofProfileFile *
open_checked (const char *path)
{
  TprofError error = { 0 };
  TprofProfileFile *file = tprof_profile_file_open_isolated (path, &error);

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (file);
  return file;
}

/* Every sample of @file's only operation reads, through its helper. */
static void
assert_reads (TprofProfileFile *file)
{
  TprofError error = { 0 };
  TprofGatheredTime *gt = tprof_profile_file_read_operation (file, 0, NULL, 0, NULL, NULL, NULL, &error);

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, N_SAMPLES);
  tprof_gathered_time_free (gt);
}

/* A process that keeps a helper ready has one started ahead of need, and
 * another at each close: the next file is served by it, a process that
 * has parsed no other file; one killed while it waited is replaced;
 * TPROF_READER_SPARE=0 starts none. A process that never asked starts
 * none at a close. */
static void
test_spare (void)
{
  g_autofree char *path = saved_profile ();
  TprofProfileFile *file;
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) spare = NULL;
  g_autoptr(GArray) serving = NULL;
  g_autoptr(GArray) none = NULL;
  g_autoptr(GArray) ready = NULL;
  pid_t first;

  if (g_test_subprocess ())
    {
      g_setenv ("TPROF_READER_DIRECT", "never", TRUE);
      file = open_checked (path);
      before = helpers ();
      g_assert_cmpuint (before->len, ==, 1);
      first = g_array_index (before, pid_t, 0);
      tprof_profile_file_close (file);
      g_array_unref (before);
      before = helpers ();
      g_assert_cmpuint (before->len, ==, 0);

      tprof_profile_file_keep_helper_ready ();
      ready = helpers ();
      g_assert_cmpuint (ready->len, ==, 1);
      file = open_checked (path);
      g_array_unref (before);
      before = helpers ();
      g_assert_cmpuint (before->len, ==, 1);
      g_assert_cmpint (g_array_index (before, pid_t, 0), ==, g_array_index (ready, pid_t, 0));
      g_assert_cmpint (g_array_index (before, pid_t, 0), !=, first);
      first = g_array_index (before, pid_t, 0);
      tprof_profile_file_close (file);
      spare = helpers ();
      g_assert_cmpuint (spare->len, ==, 1);
      g_assert_cmpint (g_array_index (spare, pid_t, 0), !=, first);

      file = open_checked (path);
      serving = helpers ();
      g_assert_cmpuint (serving->len, ==, 1);
      g_assert_cmpint (g_array_index (serving, pid_t, 0), ==, g_array_index (spare, pid_t, 0));
      assert_reads (file);
      tprof_profile_file_close (file);

      /* the next spare dies while it waits: the open starts another */
      g_array_unref (spare);
      spare = helpers ();
      g_assert_cmpuint (spare->len, ==, 1);
      g_assert_cmpint (kill (g_array_index (spare, pid_t, 0), SIGKILL), ==, 0);
      g_usleep (100000);
      file = open_checked (path);
      assert_reads (file);
      g_setenv ("TPROF_READER_SPARE", "0", TRUE);
      tprof_profile_file_close (file);
      none = helpers ();
      g_assert_cmpuint (none->len, ==, 0);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED_BUILD 1  /* the helper's memory is not limited there */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED_BUILD 1
#endif
#endif

/* One flipped bit of a 31 kB profile on which HDF5 1.10 once touched
 * 650 MB and spent 2 s of processor time (7 s in all) before refusing it:
 * the helper's memory is bounded by a small multiple of the file's size
 * plus a floor, so the refusal now costs a fraction of that. Measured in a
 * subprocess, whose only child is the helper. */
static void
test_memory_bounded (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "fixtures",
                                            "flipped-big-alloc.h5", NULL);

#ifdef SANITIZED_BUILD
  g_test_skip ("the helper's address space is not limited under a sanitizer");
  return;
#endif
  if (g_test_subprocess ())
    {
      TprofError error = { 0 };
      TprofProfileFile *file;
      struct rusage helper;
      double cpu_s;

      g_setenv ("TPROF_READER_DIRECT", "never", TRUE);
      file = tprof_profile_file_open_isolated (path, &error);
      for (size_t op = 0; file != NULL && op < tprof_profile_file_n_operations (file); op++)
        tprof_gathered_time_free (tprof_profile_file_read_operation (file, op, NULL, 0, NULL, NULL, NULL,
                                                                     &error));
      tprof_profile_file_close (file);
      g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &helper), ==, 0);
      cpu_s = (double) helper.ru_utime.tv_sec + 1e-6 * (double) helper.ru_utime.tv_usec
              + (double) helper.ru_stime.tv_sec + 1e-6 * (double) helper.ru_stime.tv_usec;
      g_test_message ("the helper: %ld MB resident at most, %.2f s of processor time; \"%s\"",
                      helper.ru_maxrss / 1024, cpu_s, error.message);
      g_assert_cmpint (helper.ru_maxrss, <, 256 << 10);  /* kB */
      /* refused (its 'created' attribute claims hundreds of megabytes)
       * with one clear message naming the file */
      g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
      g_assert_true (g_str_has_prefix (error.message, path));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A helper that answers the open with metadata cut short (as one of
 * another build, or a broken one, might): a clear error naming the file,
 * and no crash while the half-made handle is freed. It echoes the frame
 * header of our OPEN, so that the protocol matches. */
static void
test_malformed_metadata (void)
{
  g_autofree char *path = saved_profile ();
  g_autofree char *fake = g_build_filename (test_dir, "fake-reader", NULL);
  const char *script =
    "#!/usr/bin/python3\n"
    "import os, struct\n"
    "header = b''\n"
    "while len(header) < 16:\n"
    "    header += os.read(3, 16 - len(header))\n"
    "kind, protocol, length = struct.unpack('=IIQ', header)\n"
    "payload = struct.pack('=QQ', 3, 4)  # format 3, 4 ranks, then nothing\n"
    "os.write(3, struct.pack('=IIQ', 1, protocol, len(payload)) + payload)\n"
    "while os.read(3, 4096):\n"
    "    pass\n";
  TprofError error = { 0 };
  TprofProfileFile *file;

  g_assert_true (g_file_set_contents (fake, script, -1, NULL));
  g_assert_cmpint (g_chmod (fake, 0755), ==, 0);
  g_setenv ("TPROF_READER", fake, TRUE);
  file = tprof_profile_file_open_isolated (path, &error);
  g_unsetenv ("TPROF_READER");
  g_assert_null (file);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, "the reader process sent malformed metadata"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  g_test_add_func ("/reader-helper/outlives-opening-thread", test_outlives_opening_thread);
  g_test_add_func ("/reader-helper/memory-bounded", test_memory_bounded);
  g_test_add_func ("/reader-helper/spare", test_spare);
  g_test_add_func ("/reader-helper/malformed-metadata", test_malformed_metadata);
  status = g_test_run ();
  g_free (test_dir);
  h5_test_cleanup ();
  return status;
}
