/* test-save-parallel.c — tprof_time_manager_save_parallel's failures under mpiexec: every rank returns the same error, nothing hangs, the target is untouched and nothing is left behind. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "tprof-save-parallel-private.h"

static int rank, size;

/* A directory every rank names the same: rank 0 creates it. */
static char *
shared_dir (void)
{
  char path[4096] = { 0 };

  if (rank == 0)
    {
      char *dir = g_dir_make_tmp ("tprof-save-parallel-XXXXXX", NULL);

      g_assert_nonnull (dir);
      g_strlcpy (path, dir, sizeof path);
      g_free (dir);
    }
  MPI_Bcast (path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  return g_strdup (path);
}

static void
remove_dir (char *dir)
{
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      GDir *d = g_dir_open (dir, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          g_remove (path);
        }
      if (d != NULL)
        g_dir_close (d);
      g_rmdir (dir);
    }
  g_free (dir);
}

/* The names in @dir, sorted, joined by spaces. */
static char *
list_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static TprofTimeManager *
recorded (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();

  for (int i = 0; i < 100 + rank; i++)
    tprof_time_manager_append_time (tm, "step", 1e-3 * (1 + i % 7));
  return tm;
}

/* A message without the "...: rank N failed: " that ranks other than the
 * failing one put before its words. */
static const char *
message_core (const char *message)
{
  const char *rank_at = strstr (message, ": rank ");
  const char *failed = rank_at != NULL ? strstr (rank_at, " failed: ") : NULL;

  return failed != NULL ? failed + strlen (" failed: ") : message;
}

/* Every rank failed, with the same message, which holds @expected. */
static void
assert_failed_alike (int rc, const TprofError *error, const char *expected)
{
  char first[sizeof error->message];
  int all_failed = 0;

  g_assert_cmpint (rc, ==, -1);
  g_assert_cmpint (error->code, !=, 0);
  g_assert_nonnull (strstr (error->message, expected));
  g_strlcpy (first, message_core (error->message), sizeof first);
  MPI_Bcast (first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
  g_assert_cmpstr (message_core (error->message), ==, first);
  MPI_Allreduce (&rc, &all_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  g_assert_cmpint (all_failed, ==, -1);
}

static void
test_different_paths (void)
{
  g_autofree char *dir = shared_dir ();
  g_autofree char *path = g_strdup_printf ("%s/rank%d.h5", dir, size > 1 ? rank : 0);
  TprofTimeManager *tm = recorded ();
  TprofError error;
  int rc;

  if (size == 1)
    {
      /* one rank cannot disagree: it saves */
      g_assert_cmpint (tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error), ==, 0);
      tprof_time_manager_free (tm);
      remove_dir (g_steal_pointer (&dir));
      return;
    }
  rc = tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error);
  assert_failed_alike (rc, &error, "every rank must pass the same path");
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      g_autofree char *left = list_dir (dir);

      g_assert_cmpstr (left, ==, "");
    }
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

static void
test_missing_directory (void)
{
  g_autofree char *dir = shared_dir ();
  g_autofree char *path = g_strdup_printf ("%s/no/such/dir/run.h5", dir);
  TprofTimeManager *tm = recorded ();
  TprofError error;
  int rc = tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error);

  assert_failed_alike (rc, &error, "no/such/dir");
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

static void
test_directory_target (void)
{
  g_autofree char *dir = shared_dir ();
  TprofTimeManager *tm = recorded ();
  TprofError error;
  int rc = tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, dir, &error);

  assert_failed_alike (rc, &error, dir);
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

static void
test_null_manager (void)
{
  g_autofree char *dir = shared_dir ();
  g_autofree char *path = g_strdup_printf ("%s/run.h5", dir);
  int culprit = size - 1;
  TprofTimeManager *tm = rank == culprit ? NULL : recorded ();
  TprofError error;
  int rc = tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error);

  assert_failed_alike (rc, &error, "the time manager is NULL");
  if (rank != culprit)
    {
      g_autofree char *expected = g_strdup_printf ("rank %d failed", culprit);

      g_assert_nonnull (strstr (error.message, expected));
    }
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

/* A rank that cannot write its samples: every rank fails, the earlier
 * file at the target is untouched and no temporary file is left. */
static void
test_write_failure (void)
{
  g_autofree char *dir = shared_dir ();
  g_autofree char *path = g_strdup_printf ("%s/run.h5", dir);
  TprofTimeManager *tm = recorded ();
  TprofError error;
  int rc;

  if (rank == 0)
    g_assert_true (g_file_set_contents (path, "earlier", -1, NULL));
  _tprof_save_parallel_inject_write_failure (rank == size - 1);
  rc = tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error);
  _tprof_save_parallel_inject_write_failure (false);
  assert_failed_alike (rc, &error, "cannot write its samples");
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      g_autofree char *contents = NULL;
      g_autofree char *left = list_dir (dir);

      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "earlier");
      g_assert_cmpstr (left, ==, "run.h5");
    }
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

/* Nothing recorded anywhere: a valid profile with no operation. */
static void
test_empty (void)
{
  g_autofree char *dir = shared_dir ();
  g_autofree char *path = g_strdup_printf ("%s/empty.h5", dir);
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofError error;

  g_assert_cmpint (tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error), ==, 0);
  g_assert_cmpint (error.code, ==, 0);
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);

      g_assert_nonnull (pt);
      g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, size);
      g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 0);
      tprof_profiled_time_free (pt);
    }
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

/* Saved twice over the same path, with a symbolic link to it: the link's
 * target is replaced, the link stays. */
static void
test_replace_through_link (void)
{
  g_autofree char *dir = shared_dir ();
  g_autofree char *target = g_strdup_printf ("%s/target.h5", dir);
  g_autofree char *link = g_strdup_printf ("%s/link.h5", dir);
  TprofTimeManager *tm = recorded ();
  TprofError error;

  if (rank == 0)
    g_assert_cmpint (symlink ("target.h5", link), ==, 0);
  MPI_Barrier (MPI_COMM_WORLD);
  for (int i = 0; i < 2; i++)
    g_assert_cmpint (tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, link, &error), ==, 0);
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      struct stat st;
      TprofProfiledTime *pt = tprof_profiled_time_load (target, &error);
      size_t expected = 0;

      g_assert_cmpint (lstat (link, &st), ==, 0);
      g_assert_true (S_ISLNK (st.st_mode));
      g_assert_nonnull (pt);
      for (int r = 0; r < size; r++)
        expected += 100 + (size_t) r;
      g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_nth (pt, 0)), ==, expected);
      tprof_profiled_time_free (pt);
    }
  tprof_time_manager_free (tm);
  remove_dir (g_steal_pointer (&dir));
}

int
main (int argc, char **argv)
{
  int rc;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mpi/save-parallel/different-paths", test_different_paths);
  g_test_add_func ("/mpi/save-parallel/missing-directory", test_missing_directory);
  g_test_add_func ("/mpi/save-parallel/directory-target", test_directory_target);
  g_test_add_func ("/mpi/save-parallel/null-manager", test_null_manager);
  g_test_add_func ("/mpi/save-parallel/write-failure", test_write_failure);
  g_test_add_func ("/mpi/save-parallel/empty", test_empty);
  g_test_add_func ("/mpi/save-parallel/replace-through-link", test_replace_through_link);
  rc = g_test_run ();
  MPI_Finalize ();
  return rc;
}
