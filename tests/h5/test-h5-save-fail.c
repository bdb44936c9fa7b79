/* test-h5-save-fail.c — a save that cannot complete reports why and leaves the earlier file and the directory as they were. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"

static TprofProfiledTime *
make_profile (size_t n)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  double *times = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n);

  for (size_t i = 0; i < n; i++)
    {
      times[i] = i * 1e-3;
      ranks[i] = (int32_t) (i % 2);
    }
  g_assert_cmpint (tprof_profiled_time_add (pt, "step", h5_test_gathered (times, ranks, n), NULL), ==, 0);
  g_free (times);
  g_free (ranks);
  return pt;
}

/* A directory holding "profile.h5", a valid earlier save. */
typedef struct
{
  char   *dir;
  char   *path;
  GBytes *before;
} Existing;

static void
existing_init (Existing *e)
{
  TprofProfiledTime *pt = make_profile (4);

  e->dir = h5_test_make_dir ();
  /* other users (see read-only-directory) must be able to reach it */
  g_assert_cmpint (g_chmod (e->dir, 0755), ==, 0);
  e->path = g_build_filename (e->dir, "profile.h5", NULL);
  g_assert_cmpint (tprof_profiled_time_save (pt, e->path, NULL), ==, 0);
  e->before = h5_test_read_bytes (e->path);
  tprof_profiled_time_free (pt);
}

/* The earlier file is byte-identical, still loads, and nothing else
 * (no temporary file) is in the directory. */
static void
existing_check_and_clear (Existing *e)
{
  static const char *const only[] = { "profile.h5" };
  GBytes *after = h5_test_read_bytes (e->path);
  TprofProfiledTime *pt;

  g_assert_true (g_bytes_equal (e->before, after));
  h5_test_assert_dir_entries (e->dir, only, 1);
  pt = tprof_profiled_time_load (e->path, NULL);
  g_assert_nonnull (pt);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (pt, "step")), ==, 4);
  tprof_profiled_time_free (pt);

  g_bytes_unref (after);
  g_bytes_unref (e->before);
  g_free (e->path);
  g_free (e->dir);
}

static void
assert_save_fails (const TprofProfiledTime *pt,
                   const char              *path,
                   int                      code,
                   const char              *reason)
{
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
  g_assert_cmpint (error.code, ==, code);
  g_assert_true (g_str_has_prefix (error.message, path));
  if (strstr (error.message, reason) == NULL)
    g_error ("message '%s' does not say '%s'", error.message, reason);
  h5_test_assert_no_open_objects ();
  /* without an error report it fails the same way, quietly */
  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, -1);
}

static void
test_missing_directory (void)
{
  TprofProfiledTime *pt = make_profile (4);
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "no-such-dir", "profile.h5", NULL);

  assert_save_fails (pt, path, TPROF_ERROR_IO, "No such file or directory");
  h5_test_assert_dir_entries (dir, NULL, 0);
  tprof_profiled_time_free (pt);
  g_free (path);
  g_free (dir);
}

static void
test_parent_is_a_file (void)
{
  static const char *const only[] = { "profile.h5" };
  TprofProfiledTime *pt = make_profile (4);
  Existing e;
  char *path;

  existing_init (&e);
  path = g_build_filename (e.path, "inner.h5", NULL);
  assert_save_fails (pt, path, TPROF_ERROR_IO, "Not a directory");
  h5_test_assert_dir_entries (e.dir, only, 1);
  existing_check_and_clear (&e);
  tprof_profiled_time_free (pt);
  g_free (path);
}

static void
test_onto_directory (void)
{
  TprofProfiledTime *pt = make_profile (4);
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "sub", NULL);
  static const char *const only[] = { "sub" };
  char *with_slash = g_strconcat (path, "/", NULL);

  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  /* the temporary file is written, then cannot replace a directory */
  assert_save_fails (pt, path, TPROF_ERROR_IO, "Is a directory");
  h5_test_assert_dir_entries (dir, only, 1);
  assert_save_fails (pt, with_slash, TPROF_ERROR_INVALID, "names a directory");
  tprof_profiled_time_free (pt);
  g_free (with_slash);
  g_free (path);
  g_free (dir);
}

static void
test_bad_arguments (void)
{
  TprofProfiledTime *pt = make_profile (1);
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_save (NULL, "x.h5", &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_cmpint (tprof_profiled_time_save (pt, "", &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_cmpint (tprof_profiled_time_save (pt, NULL, &error), ==, -1);
  tprof_profiled_time_free (pt);
}

/* Root ignores permissions: the child gives them up before trying. */
static void
drop_root (void)
{
  if (geteuid () != 0)
    return;
  g_assert_cmpint (setgroups (0, NULL), ==, 0);
  g_assert_cmpint (setgid (65534), ==, 0);
  g_assert_cmpint (setuid (65534), ==, 0);
  g_assert_cmpint (geteuid (), ==, 65534);
}

static void read_only_directory_child (void);

static void
test_read_only_directory (void)
{
  Existing e;

  if (g_test_subprocess ())
    {
      read_only_directory_child ();
      return;
    }
  existing_init (&e);
  g_assert_cmpint (g_chmod (e.dir, 0555), ==, 0);
  g_setenv ("TPROF_H5_TARGET", e.path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("");
  g_test_trap_assert_stdout ("*refused*");
  g_assert_cmpint (g_chmod (e.dir, 0755), ==, 0);
  existing_check_and_clear (&e);
}

static void
read_only_directory_child (void)
{
  const char *path = g_getenv ("TPROF_H5_TARGET");
  TprofProfiledTime *pt = make_profile (100);

  drop_root ();
  assert_save_fails (pt, path, TPROF_ERROR_IO, "Permission denied");
  g_print ("refused\n");
  tprof_profiled_time_free (pt);
}

static void write_fails_midway_child (void);

static void
test_write_fails_midway (void)
{
  Existing e;

  if (g_test_subprocess ())
    {
      write_fails_midway_child ();
      return;
    }
  existing_init (&e);
  g_setenv ("TPROF_H5_TARGET", e.path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("");
  g_test_trap_assert_stdout ("*refused*");
  existing_check_and_clear (&e);
}

static void
write_fails_midway_child (void)
{
  const char *path = g_getenv ("TPROF_H5_TARGET");
  /* 800 kB of samples against a 64 kB file size limit: the temporary file
   * is created, then a write fails with EFBIG */
  TprofProfiledTime *pt = make_profile (100000);
  struct rlimit limit = { 65536, 65536 };

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  assert_save_fails (pt, path, TPROF_ERROR_IO, "cannot");
  g_print ("refused\n");
  tprof_profiled_time_free (pt);
}

static void full_disk_child (void);

/* A small file system fills up: the save refuses, nothing is left behind,
 * and the process exits cleanly (HDF5 1.10 crashes at exit after a close
 * that failed on a full disk). Needs the right to mount a tmpfs. */
static void
test_full_disk (void)
{
  static const char *const only[] = { "profile.h5" };
  TprofProfiledTime *pt;
  char *dir, *path;
  GBytes *before, *after;

  if (g_test_subprocess ())
    {
      full_disk_child ();
      return;
    }
  dir = h5_test_make_dir ();
  if (mount ("tmpfs", dir, "tmpfs", 0, "size=1m") < 0)
    {
      g_test_skip ("cannot mount a small tmpfs here");
      g_free (dir);
      return;
    }
  path = g_build_filename (dir, "profile.h5", NULL);
  pt = make_profile (4);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
  before = h5_test_read_bytes (path);
  g_setenv ("TPROF_H5_TARGET", path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("");
  g_test_trap_assert_stdout ("*refused*");
  after = h5_test_read_bytes (path);
  g_assert_true (g_bytes_equal (before, after));
  h5_test_assert_dir_entries (dir, only, 1);
  g_bytes_unref (after);
  g_bytes_unref (before);
  g_assert_cmpint (umount (dir), ==, 0);
  tprof_profiled_time_free (pt);
  g_free (path);
  g_free (dir);
}

static void
full_disk_child (void)
{
  /* 1.6 MB of times for 1 MB of space */
  TprofProfiledTime *pt = make_profile (200000);

  assert_save_fails (pt, g_getenv ("TPROF_H5_TARGET"), TPROF_ERROR_IO, "No space left on device");
  g_print ("refused\n");
  tprof_profiled_time_free (pt);
}

static void fits_exactly_child (void);

/* A file size limit just above what the file takes: a save built in
 * memory needs no more, so it succeeds; one written in place (larger
 * files, or TPROF_SAVE_NO_IMAGE) reserves a margin for HDF5 first and
 * refuses, leaving the earlier file whole. */
static void
test_fits_exactly (void)
{
  TprofProfiledTime *pt;
  Existing e;
  char *probe;
  char limit[32];
  GStatBuf st;

  if (g_test_subprocess ())
    {
      fits_exactly_child ();
      return;
    }
  existing_init (&e);
  probe = g_build_filename (e.dir, "probe.h5", NULL);
  pt = make_profile (100000);
  g_assert_cmpint (tprof_profiled_time_save (pt, probe, NULL), ==, 0);
  g_assert_cmpint (g_stat (probe, &st), ==, 0);
  g_assert_cmpint (g_unlink (probe), ==, 0);
  g_setenv ("TPROF_H5_TARGET", e.path, TRUE);
  g_snprintf (limit, sizeof limit, "%lld", (long long) st.st_size + 4096);
  g_setenv ("TPROF_H5_LIMIT", limit, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("");
  if (g_getenv ("TPROF_SAVE_NO_IMAGE") != NULL)
    {
      g_test_trap_assert_stdout ("*refused*");
      existing_check_and_clear (&e);
    }
  else
    {
      GBytes *after = h5_test_read_bytes (e.path);
      TprofProfiledTime *back = tprof_profiled_time_load (e.path, NULL);

      g_test_trap_assert_stdout ("*saved*");
      g_assert_cmpuint (g_bytes_get_size (after), ==, (gsize) st.st_size);
      g_assert_nonnull (back);
      g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (back, "step")), ==, 100000);
      tprof_profiled_time_free (back);
      g_bytes_unref (after);
      g_unlink (e.path);
      g_rmdir (e.dir);
      g_bytes_unref (e.before);
      g_free (e.path);
      g_free (e.dir);
    }
  tprof_profiled_time_free (pt);
  g_free (probe);
}

static void
fits_exactly_child (void)
{
  const char *path = g_getenv ("TPROF_H5_TARGET");
  rlim_t size = (rlim_t) g_ascii_strtoull (g_getenv ("TPROF_H5_LIMIT"), NULL, 10);
  struct rlimit limit = { size, size };
  TprofProfiledTime *pt = make_profile (100000);

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  if (g_getenv ("TPROF_SAVE_NO_IMAGE") != NULL)
    {
      assert_save_fails (pt, path, TPROF_ERROR_IO, "cannot reserve");
      g_print ("refused\n");
    }
  else
    {
      g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
      g_print ("saved\n");
    }
  tprof_profiled_time_free (pt);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save/missing-directory", test_missing_directory);
  g_test_add_func ("/h5/save/parent-is-a-file", test_parent_is_a_file);
  g_test_add_func ("/h5/save/onto-directory", test_onto_directory);
  g_test_add_func ("/h5/save/bad-arguments", test_bad_arguments);
  g_test_add_func ("/h5/save/read-only-directory", test_read_only_directory);
  g_test_add_func ("/h5/save/write-fails-midway", test_write_fails_midway);
  g_test_add_func ("/h5/save/full-disk", test_full_disk);
  g_test_add_func ("/h5/save/fits-exactly", test_fits_exactly);
  status = g_test_run ();
  if (!g_test_subprocess ())
    h5_test_cleanup ();
  return status;
}
