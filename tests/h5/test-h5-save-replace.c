/* test-h5-save-replace.c — a save over an existing file: the file it replaced let go soon after (no descriptor kept), in a forked child too. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "h5-test-util.h"
#include "held-files.h"

static TprofProfiledTime *
make_profile (double scale)
{
  double times[64];
  int32_t ranks[64];
  TprofProfiledTime *pt = tprof_profiled_time_new (2);

  for (int i = 0; i < 64; i++)
    {
      times[i] = scale * (i + 1);
      ranks[i] = i % 2;
    }
  g_assert_cmpint (tprof_profiled_time_add (pt, "step", h5_test_gathered (times, ranks, 64), NULL), ==, 0);
  return pt;
}

static void
save_scaled (const char *path,
             double      scale)
{
  TprofProfiledTime *pt = make_profile (scale);
  TprofError error = { 0 };

  if (tprof_profiled_time_save (pt, path, &error) != 0)
    g_error ("%s", error.message);
  tprof_profiled_time_free (pt);
}

/* The loaded file holds the samples of the save scaled by @scale. */
static void
assert_saved (const char *path,
              double      scale)
{
  TprofError error = { 0 };
  TprofProfiledTime *back = tprof_profiled_time_load (path, &error);
  const TprofGatheredTime *gt;

  if (back == NULL)
    g_error ("%s", error.message);
  gt = tprof_profiled_time_get (back, "step");
  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, 64);
  /* rank 0's first sample, whatever the grouping */
  g_assert_cmpfloat (tprof_gathered_time_times (gt)[0], ==, scale);
  tprof_profiled_time_free (back);
}

/* Each save lets the previous replaced file go before it returns (it
 * joins the thread that closes it), so at most the last one's is held,
 * and every save's file is the one found. */
static void
test_many_replacements (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "p.h5", NULL);
  static const char *const expected[] = { "p.h5" };

  save_scaled (path, 1.0);
  for (int i = 2; i <= 40; i++)
    {
      save_scaled (path, i);
      g_assert_cmpint (held_deleted_files_in (dir), <=, 1);
      assert_saved (path, i);
    }
  h5_test_assert_dir_entries (dir, expected, 1);
  g_free (path);
  h5_test_cleanup ();
  g_free (dir);
}

/* A child forked right after a save holds no copy of the replaced file
 * (its blocks would stay allocated until it exits), and saves in turn
 * without waiting on a closer that does not exist there. */
static void
test_fork_after_save (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "p.h5", NULL);
  char *other = g_build_filename (dir, "child.h5", NULL);
  int status;
  pid_t child;

  save_scaled (path, 1.0);
  save_scaled (other, 1.0);
  save_scaled (path, 2.0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      int deleted = held_deleted_files_in (dir);
      TprofProfiledTime *pt = make_profile (3.0);
      TprofError error = { 0 };
      int saved = tprof_profiled_time_save (pt, other, &error);

      /* no GLib assertion in the child: its exit status says it all */
      _exit (deleted == 0 && saved == 0 ? 0 : deleted != 0 ? 2 : 3);
    }
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  assert_saved (other, 3.0);
  assert_saved (path, 2.0);
  g_free (other);
  g_free (path);
  h5_test_cleanup ();
  g_free (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save-replace/many-replacements", test_many_replacements);
  g_test_add_func ("/h5/save-replace/fork-after-save", test_fork_after_save);
  return g_test_run ();
}
