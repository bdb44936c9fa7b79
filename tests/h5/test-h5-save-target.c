/* test-h5-save-target.c — what a save may replace: regular files only, symbolic links followed, names of any legal length, the mode and group kept. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"

static TprofProfiledTime *
make_profile (void)
{
  static const double times[] = { 0.5, 0.25, 0.125 };
  static const int32_t ranks[] = { 0, 0, 0 };
  TprofProfiledTime *pt = tprof_profiled_time_new (1);

  g_assert_cmpint (tprof_profiled_time_add (pt, "step", h5_test_gathered (times, ranks, 3), NULL), ==, 0);
  return pt;
}

static void
assert_refused (const char *path,
                const char *reason)
{
  TprofProfiledTime *pt = make_profile ();
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_IO);
  g_assert_true (g_str_has_prefix (error.message, path));
  if (strstr (error.message, reason) == NULL)
    g_error ("message '%s' does not say '%s'", error.message, reason);
  tprof_profiled_time_free (pt);
}

/* A FIFO stays a FIFO, and the save returns at once instead of blocking. */
static void
test_fifo (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "fifo.h5", NULL);
  const char *only[] = { "fifo.h5" };
  struct stat st;

  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  assert_refused (path, "it is a FIFO");
  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  h5_test_assert_dir_entries (dir, only, 1);
  g_free (path);
  g_free (dir);
}

/* A character device (a copy of /dev/full's node) is never replaced. */
static void
test_device (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "full", NULL);
  const char *only[] = { "full" };
  struct stat st;

  if (mknod (path, S_IFCHR | 0666, makedev (1, 7)) < 0)
    {
      g_test_skip ("creating a device node needs CAP_MKNOD");
      g_free (path);
      g_free (dir);
      return;
    }
  assert_refused (path, "it is a device");
  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  h5_test_assert_dir_entries (dir, only, 1);
  g_free (path);
  g_free (dir);
}

/* Saving through a link (relative, in a chain) writes its target and
 * keeps the links; a dangling link creates the file it names. */
static void
test_symbolic_links (void)
{
  char *dir = h5_test_make_dir ();
  char *sub = g_build_filename (dir, "data", NULL);
  char *target = g_build_filename (sub, "run.h5", NULL);
  char *link1 = g_build_filename (dir, "latest.h5", NULL);
  char *link2 = g_build_filename (dir, "current.h5", NULL);
  TprofProfiledTime *pt = make_profile ();
  TprofProfiledTime *loaded;
  const char *top[] = { "current.h5", "data", "latest.h5" };
  const char *inside[] = { "run.h5" };
  struct stat st;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (symlink ("data/run.h5", link1), ==, 0);
  g_assert_cmpint (symlink ("latest.h5", link2), ==, 0);

  for (int round = 0; round < 2; round++) /* dangling, then over a file */
    {
      g_assert_cmpint (tprof_profiled_time_save (pt, link2, NULL), ==, 0);
      g_assert_cmpint (lstat (link1, &st), ==, 0);
      g_assert_true (S_ISLNK (st.st_mode));
      g_assert_cmpint (lstat (link2, &st), ==, 0);
      g_assert_true (S_ISLNK (st.st_mode));
      loaded = tprof_profiled_time_load (target, NULL);
      g_assert_nonnull (loaded);
      g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (loaded, "step")), ==, 3);
      tprof_profiled_time_free (loaded);
      h5_test_assert_dir_entries (dir, top, 3);
      h5_test_assert_dir_entries (sub, inside, 1);
    }

  tprof_profiled_time_free (pt);
  g_free (link2);
  g_free (link1);
  g_free (target);
  g_free (sub);
  g_free (dir);
}

/* A link cycle is refused with the system's word for it. */
static void
test_link_loop (void)
{
  char *dir = h5_test_make_dir ();
  char *a = g_build_filename (dir, "a.h5", NULL);
  char *b = g_build_filename (dir, "b.h5", NULL);

  g_assert_cmpint (symlink ("b.h5", a), ==, 0);
  g_assert_cmpint (symlink ("a.h5", b), ==, 0);
  assert_refused (a, strerror (ELOOP));
  g_free (b);
  g_free (a);
  g_free (dir);
}

/* The longest file name the file system allows saves: the temporary
 * name must not be derived from it. */
static void
test_longest_name (void)
{
  char *dir = h5_test_make_dir ();
  long name_max = pathconf (dir, _PC_NAME_MAX);
  char *name = g_strnfill (name_max > 0 && name_max < 4096 ? (gsize) name_max - 3 : 252, 'p');
  char *file = g_strconcat (name, ".h5", NULL);
  char *path = g_build_filename (dir, file, NULL);
  const char *only[] = { file };
  TprofProfiledTime *pt = make_profile ();

  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
  h5_test_assert_dir_entries (dir, only, 1);
  tprof_profiled_time_free (pt);
  g_free (path);
  g_free (file);
  g_free (name);
  g_free (dir);
}

/* One byte over the longest name: refused as too long, not as a link
 * that cannot be followed. */
static void
test_name_too_long (void)
{
  char *dir = h5_test_make_dir ();
  long name_max = pathconf (dir, _PC_NAME_MAX);
  char *name = g_strnfill (name_max > 0 && name_max < 4096 ? (gsize) name_max - 2 : 253, 'p');
  char *file = g_strconcat (name, ".h5", NULL);
  char *path = g_build_filename (dir, file, NULL);
  TprofProfiledTime *pt = make_profile ();
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, "the file name is too long"));
  g_assert_null (strstr (error.message, "link"));
  h5_test_assert_dir_entries (dir, NULL, 0);
  tprof_profiled_time_free (pt);
  g_free (path);
  g_free (file);
  g_free (name);
  g_free (dir);
}

/* Saving over a profile keeps its mode and group: a private (0600)
 * profile stays private. */
static void
test_mode_and_group_kept (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "private.h5", NULL);
  TprofProfiledTime *pt = make_profile ();
  gid_t other_gid = getegid () == 0 ? 1 : getegid ();  /* root may give a file any group */
  mode_t old_mask = umask (022);
  struct stat st;

  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0644);  /* a new file: creat(2)'s mode */
  g_assert_cmpint (chmod (path, 0600), ==, 0);
  g_assert_cmpint (chown (path, (uid_t) -1, other_gid), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpint (st.st_gid, ==, other_gid);
  umask (old_mask);
  tprof_profiled_time_free (pt);
  g_free (path);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save-target/fifo", test_fifo);
  g_test_add_func ("/h5/save-target/device", test_device);
  g_test_add_func ("/h5/save-target/symbolic-links", test_symbolic_links);
  g_test_add_func ("/h5/save-target/link-loop", test_link_loop);
  g_test_add_func ("/h5/save-target/longest-name", test_longest_name);
  g_test_add_func ("/h5/save-target/name-too-long", test_name_too_long);
  g_test_add_func ("/h5/save-target/mode-and-group-kept", test_mode_and_group_kept);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
