/* test-h5-save-killed.c — saves killed at random moments: the target is always a whole profile, an unnamed temporary file leaves nothing, and later saves sweep what named ones left (a crowded folder once per process). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <tprof/capture.h>

#include "h5-test-util.h"

#define N_KILLS 24
#define N_SAMPLES 1500000

static TprofProfiledTime *
profile_of (size_t n, double value)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  double *times = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n);
  TprofError error = { 0 };

  for (size_t i = 0; i < n; i++)
    {
      times[i] = value + 1e-9 * (double) (i % 1000);
      ranks[i] = (int32_t) (i * 4 / n);
    }
  g_assert_cmpint (tprof_profiled_time_add (pt, "work", h5_test_gathered (times, ranks, n), &error), ==, 0);
  g_free (times);
  g_free (ranks);
  return pt;
}

/* The temporary files saves left in @dir (names starting ".tprof-"). */
static GPtrArray *
leftovers (const char *dir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, ".tprof-"))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  return names;
}

static void
make_old (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  struct timespec times[2] = { { time (NULL) - 120, 0 }, { time (NULL) - 120, 0 } };

  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
}

static void
touch (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "x", 1, NULL));
}

/* The target is, after every kill, one whole profile: the one before or
 * the one being saved. */
static void
assert_whole (const char *path)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);
  const TprofGatheredTime *work;

  if (pt == NULL)
    g_error ("after a killed save, %s does not load: %s", path, error.message);
  work = tprof_profiled_time_get (pt, "work");
  g_assert_nonnull (work);
  g_assert_true (tprof_gathered_time_count (work) == 10 || tprof_gathered_time_count (work) == N_SAMPLES);
  tprof_profiled_time_free (pt);
}

/* Where the file system has no O_TMPFILE (and in a parallel save), the
 * temporary file has a name: a killed save leaves it, and the next save
 * from that folder sweeps it. */
static void
test_killed_saves (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *before = profile_of (10, 1.0);
  TprofProfiledTime *big = profile_of (N_SAMPLES, 2.0);
  TprofError error = { 0 };
  GRand *rand = g_rand_new_with_seed (42);
  gint64 started;
  double save_s;
  guint n_left = 0;
  g_autoptr(GPtrArray) left = NULL;
  g_autofree char *young = NULL, *alive = NULL, *elsewhere = NULL;
  char tag[9] = "";
  long pid;

  g_setenv ("TPROF_SAVE_NO_TMPFILE", "1", TRUE);
  /* How long a whole save takes, to kill saves all through it. */
  started = g_get_monotonic_time ();
  g_assert_cmpint (tprof_profiled_time_save (big, path, &error), ==, 0);
  save_s = (double) (g_get_monotonic_time () - started) / 1e6;
  g_assert_cmpint (tprof_profiled_time_save (before, path, &error), ==, 0);

  for (int k = 0; k < N_KILLS; k++)
    {
      pid_t child = fork ();
      int status;

      g_assert_cmpint (child, >=, 0);
      if (child == 0)
        _exit (tprof_profiled_time_save (big, path, NULL) == 0 ? 0 : 1);
      g_usleep ((gulong) (g_rand_double_range (rand, 0.0, 1.1) * save_s * 1e6));
      kill (child, SIGKILL);
      g_assert_cmpint (waitpid (child, &status, 0), ==, child);
      assert_whole (path);
      /* start each round from the small profile again */
      if (WIFEXITED (status))
        g_assert_cmpint (tprof_profiled_time_save (before, path, &error), ==, 0);
    }

  left = leftovers (dir);
  n_left = left->len;
  g_test_message ("%d saves killed over %.0f ms each; %u left a temporary file", N_KILLS, save_s * 1e3, n_left);
  g_assert_cmpuint (n_left, >, 0);  /* else the test proves nothing */

  /* Make them old enough to sweep; add files the sweep must keep: a young
   * leftover, one of a live process (us), one of another host. */
  for (guint i = 0; i < left->len; i++)
    make_old (dir, g_ptr_array_index (left, i));
  g_assert_cmpint (sscanf (g_ptr_array_index (left, 0), ".tprof-%8[0-9a-f]-%ld-", tag, &pid), ==, 2);
  young = g_strdup_printf (".tprof-%s-%ld-young1", tag, pid);
  alive = g_strdup_printf (".tprof-%s-%ld-alive1", tag, (long) getpid ());
  elsewhere = g_strdup_printf (".tprof-%08x-%ld-other1", (unsigned) strtoul (tag, NULL, 16) ^ 1u, pid);
  touch (dir, young);
  touch (dir, alive);
  make_old (dir, alive);
  touch (dir, elsewhere);
  make_old (dir, elsewhere);

  g_assert_cmpint (tprof_profiled_time_save (before, path, &error), ==, 0);
  {
    const char *expected[] = { "run.h5", young, alive, elsewhere };

    h5_test_assert_dir_entries (dir, expected, G_N_ELEMENTS (expected));
  }

  g_rand_free (rand);
  tprof_profiled_time_free (before);
  tprof_profiled_time_free (big);
  g_unsetenv ("TPROF_SAVE_NO_TMPFILE");
}

typedef enum
{
  TEMP_NONE,     /* no file of @dir open but the target */
  TEMP_NAMED,    /* a temporary file with a name */
  TEMP_UNNAMED,  /* an unnamed (O_TMPFILE) one */
} TempState;

/* What temporary file of @dir the stopped process @pid holds open. */
static TempState
temp_state (pid_t       pid,
            const char *dir)
{
  g_autofree char *fds = g_strdup_printf ("/proc/%ld/fd", (long) pid);
  g_autofree char *prefix = g_strconcat (dir, "/", NULL);
  g_autofree char *target = g_build_filename (dir, "run.h5", NULL);
  GDir *d = g_dir_open (fds, 0, NULL);
  TempState state = TEMP_NONE;
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *fd = g_build_filename (fds, name, NULL);
      g_autofree char *link = g_file_read_link (fd, NULL);

      if (link == NULL || !g_str_has_prefix (link, prefix) || strcmp (link, target) == 0)
        continue;
      state = g_str_has_suffix (link, " (deleted)") ? TEMP_UNNAMED : MAX (state, TEMP_NAMED);
    }
  if (d != NULL)
    g_dir_close (d);
  return state;
}

/* Stops @child, which saves into @dir, at a moment it holds its
 * temporary file open; gives up after @tries. What it held then;
 * *@reaped says the child had finished (and was waited for) first. */
static TempState
stop_while_writing (pid_t       child,
                    const char *dir,
                    int         tries,
                    gboolean   *reaped)
{
  *reaped = FALSE;
  for (int k = 0; k < tries; k++)
    {
      int status;
      TempState state;

      kill (child, SIGSTOP);
      if (waitpid (child, &status, WUNTRACED) != child || !WIFSTOPPED (status))
        {
          *reaped = TRUE;  /* it had finished: a loaded machine may let it */
          return TEMP_NONE;
        }
      state = temp_state (child, dir);
      if (state != TEMP_NONE || k + 1 == tries)
        return state;
      kill (child, SIGCONT);
      g_usleep (1000);
    }
  return TEMP_NONE;
}

/* Where the file system allows, a save killed while it writes leaves
 * nothing: its temporary file has no name until just before the rename. */
static void
test_killed_saves_leave_nothing (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *before = profile_of (10, 1.0);
  TprofProfiledTime *big = profile_of (N_SAMPLES, 2.0);
  TprofError error = { 0 };
  GRand *rand = g_rand_new_with_seed (43);
  guint n_unnamed = 0, n_named = 0;
  gint64 started;
  double save_s;

  started = g_get_monotonic_time ();
  g_assert_cmpint (tprof_profiled_time_save (big, path, &error), ==, 0);
  save_s = (double) (g_get_monotonic_time () - started) / 1e6;
  g_assert_cmpint (tprof_profiled_time_save (before, path, &error), ==, 0);

  for (int k = 0; k < N_KILLS; k++)
    {
      pid_t child = fork ();
      TempState state;
      gboolean reaped;

      g_assert_cmpint (child, >=, 0);
      if (child == 0)
        _exit (tprof_profiled_time_save (big, path, NULL) == 0 ? 0 : 1);
      g_usleep ((gulong) (g_rand_double_range (rand, 0.0, 0.9) * save_s * 1e6));
      state = stop_while_writing (child, dir, 1000, &reaped);
      n_unnamed += state == TEMP_UNNAMED;
      n_named += state == TEMP_NAMED;
      if (!reaped)
        {
          kill (child, SIGKILL);
          g_assert_cmpint (waitpid (child, NULL, 0), ==, child);
        }
      assert_whole (path);
      {
        g_autoptr(GPtrArray) left = leftovers (dir);

        if (left->len > 0)
          g_error ("a save killed while its temporary file %s left %s",
                   state == TEMP_UNNAMED ? "had no name" : "had a name", (char *) g_ptr_array_index (left, 0));
      }
      g_assert_cmpint (tprof_profiled_time_save (before, path, &error), ==, 0);
    }
  g_test_message ("%d saves killed over %.0f ms each: %u while writing an unnamed file, %u a named one",
                  N_KILLS, save_s * 1e3, n_unnamed, n_named);
  /* killed while writing, most of them: else the test proves nothing */
  g_assert_cmpuint (n_unnamed, >=, N_KILLS / 2);
  {
    const char *expected[] = { "run.h5" };

    h5_test_assert_dir_entries (dir, expected, G_N_ELEMENTS (expected));
  }
  g_rand_free (rand);
  tprof_profiled_time_free (before);
  tprof_profiled_time_free (big);
}

/* The name a save killed on this host in process @pid left: the host's
 * tag is the FNV-1a hash of its name, as the library's. */
static char *
stale_name (pid_t       pid,
            const char *suffix)
{
  char host[256] = "";
  guint32 h = 2166136261u;

  gethostname (host, sizeof host - 1);
  for (const unsigned char *p = (const unsigned char *) host; *p != '\0'; p++)
    h = (h ^ *p) * 16777619u;
  return g_strdup_printf (".tprof-%08x-%ld-%s", h, (long) pid, suffix);
}

/* A process that has exited (and been waited for). */
static pid_t
dead_pid (void)
{
  pid_t child = fork ();
  int status;

  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    _exit (0);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  return child;
}

/* Leaves in @dir an old leftover of a dead process; its name. */
static char *
leave_stale (const char *dir,
             const char *suffix)
{
  char *name = stale_name (dead_pid (), suffix);

  touch (dir, name);
  make_old (dir, name);
  return name;
}

static gboolean
exists_in (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Saves the small profile into @dir (where TPROF_TEST_SWEEP_DIR says). */
static void
save_into (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *pt = profile_of (10, 1.0);
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
}

/* Two saves into @dir, each after leaving an old leftover ("@tag1",
 * "@tag2"): the first is swept, the second as @second_swept says. */
static void
sweep_two_saves (const char *dir,
                 const char *tag,
                 gboolean    second_swept)
{
  g_autofree char *suffix1 = g_strconcat (tag, "1", NULL), *suffix2 = g_strconcat (tag, "2", NULL);
  g_autofree char *first = leave_stale (dir, suffix1);
  g_autofree char *second = NULL;

  save_into (dir);
  g_assert_false (exists_in (dir, first));
  second = leave_stale (dir, suffix2);
  save_into (dir);
  g_assert_true (exists_in (dir, second) == !second_swept);
}

/* In a small folder every save sweeps. */
static void
test_sweep_small (void)
{
  g_autofree char *dir = h5_test_make_dir ();

  sweep_two_saves (dir, "small", TRUE);
}

/* A process's saves into the crowded folder: the first sweeps, the
 * second leaves what came after. */
static void
sweep_crowded_first_process (void)
{
  sweep_two_saves (g_getenv ("TPROF_TEST_SWEEP_DIR"), "crowd", FALSE);
}

/* Another process's first save there sweeps it. */
static void
sweep_crowded_next_process (void)
{
  const char *dir = g_getenv ("TPROF_TEST_SWEEP_DIR");

  save_into (dir);
  g_assert_false (exists_in (dir, g_getenv ("TPROF_TEST_SWEEP_LEFT")));
}

/* A folder with a listing over 32 KiB (/tmp, say) is swept by a
 * process's first save there only: each fresh process pays one read of
 * it, and a leftover waits for the next process. */
static void
test_sweep_crowded (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *left = NULL;
  struct stat st;
  GDir *d;
  const char *name;

  for (int i = 0; i < 2500; i++)
    {
      g_autofree char *filler = g_strdup_printf ("filler-%04d-abcdefghijklmnopqrstuvwxyz", i);

      touch (dir, filler);
    }
  g_assert_cmpint (stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 32 << 10);  /* else the folder is not crowded */
  g_setenv ("TPROF_TEST_SWEEP_DIR", dir, TRUE);
  g_test_trap_subprocess ("/h5/save/sweep-crowded/subprocess/first", 60 * G_USEC_PER_SEC, 0);
  g_test_trap_assert_passed ();
  /* the leftover the first process saw and kept */
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, ".tprof-"))
      {
        g_assert_null (left);
        left = g_strdup (name);
      }
  g_dir_close (d);
  g_assert_nonnull (left);
  g_assert_true (g_str_has_suffix (left, "-crowd2"));
  g_setenv ("TPROF_TEST_SWEEP_LEFT", left, TRUE);
  g_test_trap_subprocess ("/h5/save/sweep-crowded/subprocess/next", 60 * G_USEC_PER_SEC, 0);
  g_test_trap_assert_passed ();
  g_assert_false (exists_in (dir, left));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save/killed-saves", test_killed_saves);
  g_test_add_func ("/h5/save/killed-saves-leave-nothing", test_killed_saves_leave_nothing);
  g_test_add_func ("/h5/save/sweep-small", test_sweep_small);
  g_test_add_func ("/h5/save/sweep-crowded", test_sweep_crowded);
  g_test_add_func ("/h5/save/sweep-crowded/subprocess/first", sweep_crowded_first_process);
  g_test_add_func ("/h5/save/sweep-crowded/subprocess/next", sweep_crowded_next_process);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
