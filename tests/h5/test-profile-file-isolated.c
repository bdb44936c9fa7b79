/* test-profile-file-isolated.c — TprofProfileFile opened isolated: the same answers and errors as in process, and a crash of HDF5 as an error. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "h5-test-util.h"

static char *test_dir;

static char *
path_of (const char *name)
{
  return g_build_filename (test_dir, name, NULL);
}

static void
assert_same_samples (const TprofGatheredTime *a,
                     const TprofGatheredTime *b)
{
  size_t n = tprof_gathered_time_count (a);

  g_assert_cmpuint (tprof_gathered_time_count (b), ==, n);
  if (n == 0)
    return;
  g_assert_cmpmem (tprof_gathered_time_times (a), n * sizeof (double), tprof_gathered_time_times (b),
                   n * sizeof (double));
  g_assert_cmpmem (tprof_gathered_time_ranks (a), n * sizeof (int32_t), tprof_gathered_time_ranks (b),
                   n * sizeof (int32_t));
  /* the timeline travels too */
  g_assert_true ((tprof_gathered_time_starts (a) == NULL) == (tprof_gathered_time_starts (b) == NULL));
  g_assert_true ((tprof_gathered_time_threads (a) == NULL) == (tprof_gathered_time_threads (b) == NULL));
  if (tprof_gathered_time_starts (a) != NULL)
    g_assert_cmpmem (tprof_gathered_time_starts (a), n * sizeof (double), tprof_gathered_time_starts (b),
                     n * sizeof (double));
  if (tprof_gathered_time_threads (a) != NULL)
    g_assert_cmpmem (tprof_gathered_time_threads (a), n * sizeof (int32_t), tprof_gathered_time_threads (b),
                     n * sizeof (int32_t));
}

static void
assert_same_stats (const TprofOperationStats *a,
                   const TprofOperationStats *b,
                   int                        world_size)
{
  size_t w = (size_t) world_size;

  /* field by field: the struct's trailing padding is not data */
  g_assert_cmpuint (a->summary.count, ==, b->summary.count);
  g_assert_cmpuint (a->summary.rank_count, ==, b->summary.rank_count);
  g_assert_cmpmem (&a->summary.sum, 10 * sizeof (double), &b->summary.sum, 10 * sizeof (double));
  g_assert_cmpint (a->summary.slowest_rank, ==, b->summary.slowest_rank);
  g_assert_cmpmem (a->rank_count, w * sizeof (int64_t), b->rank_count, w * sizeof (int64_t));
  g_assert_cmpmem (a->rank_sum, w * sizeof (double), b->rank_sum, w * sizeof (double));
  g_assert_cmpmem (a->rank_min, w * sizeof (double), b->rank_min, w * sizeof (double));
  g_assert_cmpmem (a->rank_max, w * sizeof (double), b->rank_max, w * sizeof (double));
}

/* Everything a handle answers, isolated and in process, for @name. */
static void
assert_same_as_in_process (const char *name)
{
  g_autofree char *path = path_of (name);
  TprofError error = { 0 };
  TprofProfileFile *here = tprof_profile_file_open (path, &error);
  TprofProfileFile *apart = tprof_profile_file_open_isolated (path, &error);
  const int32_t some[] = { 2, 0, 99, 2 };

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (here);
  g_assert_nonnull (apart);
  g_assert_cmpint (tprof_profile_file_format_version (apart), ==, tprof_profile_file_format_version (here));
  g_assert_cmpint (tprof_profile_file_world_size (apart), ==, tprof_profile_file_world_size (here));
  g_assert_cmpstr (tprof_profile_file_path (apart), ==, path);
  g_assert_cmpstr (tprof_profile_file_created (apart), ==, tprof_profile_file_created (here));
  g_assert_cmpstr (tprof_profile_file_producer (apart), ==, tprof_profile_file_producer (here));
  g_assert_cmpstr (tprof_profile_file_clock (apart), ==, tprof_profile_file_clock (here));
  for (int r = 0; r < tprof_profile_file_world_size (here); r++)
    g_assert_cmpstr (tprof_profile_file_hostname (apart, r), ==, tprof_profile_file_hostname (here, r));
  g_assert_cmpuint (tprof_profile_file_n_operations (apart), ==, tprof_profile_file_n_operations (here));
  for (size_t op = 0; op < tprof_profile_file_n_operations (here); op++)
    {
      const char *op_name = tprof_profile_file_operation_name (here, op);
      TprofGatheredTime *a, *b;

      g_assert_cmpstr (tprof_profile_file_operation_name (apart, op), ==, op_name);
      g_assert_cmpuint (tprof_profile_file_find_operation (apart, op_name), ==, op);
      g_assert_cmpuint (tprof_profile_file_sample_count (apart, op), ==,
                        tprof_profile_file_sample_count (here, op));
      g_assert_true (tprof_profile_file_has_cached_stats (apart, op)
                     == tprof_profile_file_has_cached_stats (here, op));
      assert_same_stats (tprof_profile_file_operation_stats (apart, op, &error),
                         tprof_profile_file_operation_stats (here, op, &error),
                         tprof_profile_file_world_size (here));

      a = tprof_profile_file_read_operation (here, op, NULL, 0, NULL, NULL, NULL, &error);
      b = tprof_profile_file_read_operation (apart, op, NULL, 0, NULL, NULL, NULL, &error);
      assert_same_samples (a, b);
      tprof_gathered_time_free (a);
      tprof_gathered_time_free (b);
      a = tprof_profile_file_read_operation (here, op, some, G_N_ELEMENTS (some), NULL, NULL, NULL, &error);
      b = tprof_profile_file_read_operation (apart, op, some, G_N_ELEMENTS (some), NULL, NULL, NULL, &error);
      assert_same_samples (a, b);
      tprof_gathered_time_free (a);
      tprof_gathered_time_free (b);
    }
  g_assert_cmpuint (tprof_profile_file_find_operation (apart, "no such operation"), ==, (size_t) -1);
  tprof_profile_file_close (here);
  tprof_profile_file_close (apart);
}

static void
test_same_as_in_process (void)
{
  assert_same_as_in_process ("v2.h5");
  assert_same_as_in_process ("v2-interleaved.h5");
  assert_same_as_in_process ("v1.h5");
  assert_same_as_in_process ("no-name-attribute.h5");
}

/* Every broken file of make_bad.py fails the same way, with the same
 * message, isolated or not: at open, or at the read that sees it. */
static void
test_same_errors (void)
{
  GDir *dir = g_dir_open (test_dir, 0, NULL);
  const char *name;
  guint n_files = 0;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = path_of (name);
      TprofError here_error = { 0 }, apart_error = { 0 };
      TprofProfileFile *here, *apart;

      if (!g_str_has_suffix (name, ".h5") || g_str_equal (name, "large-userblock.h5"))
        continue;
      n_files++;
      here = tprof_profile_file_open (path, &here_error);
      apart = tprof_profile_file_open_isolated (path, &apart_error);
      g_assert_cmpint (apart_error.code, ==, here_error.code);
      g_assert_cmpstr (apart_error.message, ==, here_error.message);
      g_assert_true ((here == NULL) == (apart == NULL));
      for (size_t op = 0; here != NULL && op < tprof_profile_file_n_operations (here); op++)
        {
          TprofGatheredTime *a = tprof_profile_file_read_operation (here, op, NULL, 0, NULL, NULL, NULL,
                                                                    &here_error);
          TprofGatheredTime *b = tprof_profile_file_read_operation (apart, op, NULL, 0, NULL, NULL, NULL,
                                                                    &apart_error);

          g_assert_true ((a == NULL) == (b == NULL));
          if (a == NULL)
            g_assert_cmpstr (apart_error.message, ==, here_error.message);
          tprof_gathered_time_free (a);
          tprof_gathered_time_free (b);
        }
      tprof_profile_file_close (here);
      tprof_profile_file_close (apart);
    }
  g_dir_close (dir);
  g_assert_cmpuint (n_files, >, 40);
}

/* A profile with one flipped bit on which HDF5 1.10 itself crashes: the
 * caller gets an error and lives on. (Never opened in process here.) */
static void
test_hdf5_crash (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "fixtures",
                                            "flipped-crashes-hdf5.h5", NULL);
  TprofError error = { 0 };

  for (int i = 0; i < 2; i++)
    {
      g_assert_null (tprof_profile_file_open_isolated (path, &error));
      g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
      g_assert_true (g_str_has_prefix (error.message, path));
      g_assert_nonnull (strstr (error.message, "the file is damaged: the HDF5 library crashed while opening it"));
    }
}

/* A global heap whose free space claims 0 bytes: HDF5 1.10 loops forever
 * on it. The helper makes no pre-check; the caller, waiting, scans the
 * file and refuses it at once rather than after the helper's 60 s stall. */
static void
test_heap_loop (void)
{
  g_autofree char *valid = path_of ("valid.h5");
  g_autofree char *path = path_of ("heap-loop.damaged");
  g_autofree char *bytes = NULL;
  gsize size;
  char *heap;
  TprofError error = { 0 };
  gint64 start;

  g_assert_true (g_file_get_contents (valid, &bytes, &size, NULL));
  heap = memmem (bytes, size, "GCOL\1\0\0\0", 8);
  g_assert_nonnull (heap);
  memset (heap + 16, 0, 16);  /* the free-space object's index and size */
  g_assert_true (g_file_set_contents (path, bytes, (gssize) size, NULL));

  start = g_get_monotonic_time ();
  g_assert_null (tprof_profile_file_open_isolated (path, &error));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, "damaged HDF5 global heap"));
  g_assert_nonnull (strstr (error.message, "its objects overrun it"));
}

typedef struct
{
  guint         calls;
  volatile int *cancel;  /* set at the first call when not NULL */
} Progress;

static void
on_progress (double fraction,
             void  *user_data)
{
  Progress *p = user_data;

  p->calls++;
  if (p->cancel != NULL)
    *p->cancel = 1;
}

/* A cancelled read stops the helper; the next read starts another. */
static void
test_cancel_then_read (void)
{
  g_autofree char *path = path_of ("v2.h5");
  TprofProfileFile *pf = tprof_profile_file_open_isolated (path, NULL);
  size_t op = tprof_profile_file_find_operation (pf, "io/step%1");
  volatile int cancel = 1;
  Progress progress = { 0, NULL };
  TprofError error = { 0 };
  TprofGatheredTime *gt;

  g_assert_null (tprof_profile_file_read_operation (pf, op, NULL, 0, on_progress, &progress, &cancel, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_CANCELLED);
  g_assert_cmpuint (progress.calls, ==, 0);

  cancel = 0;
  progress.cancel = &cancel;
  g_assert_null (tprof_profile_file_read_operation (pf, op, NULL, 0, on_progress, &progress, &cancel, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_CANCELLED);

  cancel = 0;
  progress = (Progress) { 0, NULL };
  gt = tprof_profile_file_read_operation (pf, op, NULL, 0, on_progress, &progress, &cancel, &error);
  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, 300000);
  g_assert_cmpuint (progress.calls, >=, 2);
  tprof_gathered_time_free (gt);
  tprof_profile_file_close (pf);
}

static void
test_missing_helper (void)
{
  g_autofree char *path = path_of ("v2.h5");
  TprofError error = { 0 };

  g_setenv ("TPROF_READER", "/nonexistent/tprof-reader", TRUE);
  g_assert_null (tprof_profile_file_open_isolated (path, &error));
  g_unsetenv ("TPROF_READER");
  g_assert_cmpint (error.code, ==, TPROF_ERROR_IO);
  g_assert_nonnull (strstr (error.message, "cannot start the reader process /nonexistent/tprof-reader"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  h5_test_run_python ("write_format2.py", test_dir, NULL);
  h5_test_run_python ("make_bad.py", test_dir, NULL);
  g_test_add_func ("/h5/isolated/same-as-in-process", test_same_as_in_process);
  g_test_add_func ("/h5/isolated/same-errors", test_same_errors);
  g_test_add_func ("/h5/isolated/hdf5-crash", test_hdf5_crash);
  g_test_add_func ("/h5/isolated/heap-loop", test_heap_loop);
  g_test_add_func ("/h5/isolated/cancel-then-read", test_cancel_then_read);
  g_test_add_func ("/h5/isolated/missing-helper", test_missing_helper);
  status = g_test_run ();
  h5_test_cleanup ();
  g_free (test_dir);
  return status;
}
