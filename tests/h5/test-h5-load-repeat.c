/* test-h5-load-repeat.c — loads one after the other in a process, as a viewer reopening files makes them: each gives its own file's values while an earlier profile is still held, and a large file's refusal of a name given twice (its index built beside the other columns' read) is word for word the same every time. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <hdf5.h>

#include "h5-test-util.h"

/* Enough operations and rows that a load's table of operations and its
 * block of rows each take more than 1 MiB (blocks of 2 MiB pages, kept
 * from one load for the next), and that the names are indexed on a
 * second thread where a processor is free. */
#define N_OPS 10000
#define PER_OP 8
#define WORLD 2
#define ROUNDS 6

static char *test_dir;

/* Sample @i of operation @k in the file of @seed: distinct across files,
 * operations and samples. */
static double
sample_time (int    seed,
             size_t k,
             size_t i)
{
  return 1e-3 * (double) seed + 1e-6 * (double) k + 1e-9 * (double) (i + 1);
}

/* A profile of N_OPS operations ("op00000" ...) of PER_OP samples on
 * WORLD ranks, times from sample_time(), saved at @path. */
static void
write_profile (const char *path,
               int         seed)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  TprofError error = { 0 };

  for (size_t k = 0; k < N_OPS; k++)
    {
      double times[PER_OP];
      int32_t ranks[PER_OP];
      char name[32];

      for (size_t i = 0; i < PER_OP; i++)
        {
          times[i] = sample_time (seed, k, i);
          ranks[i] = (int32_t) (i * WORLD / PER_OP);
        }
      g_snprintf (name, sizeof name, "op%05zu", k);
      g_assert_cmpint (tprof_profiled_time_add (pt, name, h5_test_gathered (times, ranks, PER_OP), &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
}

/* Every sample of @pt is that of the file of @seed. */
static void
assert_values (const TprofProfiledTime *pt,
               int                      seed)
{
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, N_OPS);
  for (size_t k = 0; k < N_OPS; k++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, k);
      const double *times = tprof_gathered_time_times (gt);
      const int32_t *ranks = tprof_gathered_time_ranks (gt);

      g_assert_cmpuint (tprof_gathered_time_count (gt), ==, PER_OP);
      for (size_t i = 0; i < PER_OP; i++)
        {
          if (times[i] != sample_time (seed, k, i) || ranks[i] != (int32_t) (i * WORLD / PER_OP))
            g_error ("file %d, operation %zu, sample %zu: %.17g on rank %d, expected %.17g on rank %d", seed, k, i,
                     times[i], ranks[i], sample_time (seed, k, i), (int) (i * WORLD / PER_OP));
        }
    }
}

static TprofProfiledTime *
load (const char *path)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);

  if (pt == NULL)
    g_error ("%s", error.message);
  return pt;
}

/* Two files of the same size loaded in turn, the blocks of one load's
 * freed profile reused by the next: each load gives its own file's
 * values, and a profile held across later loads keeps its own. */
static void
test_alternate (void)
{
  g_autofree char *a = g_build_filename (test_dir, "a.h5", NULL);
  g_autofree char *b = g_build_filename (test_dir, "b.h5", NULL);
  TprofProfiledTime *held;

  write_profile (a, 1);
  write_profile (b, 2);
  held = load (b);
  for (int round = 0; round < ROUNDS; round++)
    {
      TprofProfiledTime *pt = load (round % 2 == 0 ? a : b);

      assert_values (pt, round % 2 == 0 ? 1 : 2);
      tprof_profiled_time_free (pt);
    }
  /* loaded before them all, freed after */
  assert_values (held, 2);
  tprof_profiled_time_free (held);
  /* two at once, then freed in the other order */
  held = load (a);
  {
    TprofProfiledTime *pt = load (b);

    assert_values (held, 1);
    assert_values (pt, 2);
    tprof_profiled_time_free (held);
    held = load (a);
    assert_values (pt, 2);
    tprof_profiled_time_free (pt);
  }
  assert_values (held, 1);
  tprof_profiled_time_free (held);
  h5_test_assert_no_open_objects ();
}

/* Rewrites the names (@duplicate's name as @original's), dropping
 * their checksum. */
static void
duplicate_name (const char *path,
                size_t      duplicate,
                size_t      original)
{
  hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, "operations/name", H5P_DEFAULT);
  hid_t type = H5Dget_type (dset);
  char **names = g_new0 (char *, N_OPS);

  for (size_t k = 0; k < N_OPS; k++)
    names[k] = g_strdup_printf ("op%05zu", k == duplicate ? original : k);
  g_assert_cmpint (H5Dwrite (dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, names), >=, 0);
  g_assert_cmpint (H5Adelete (dset, "crc32c"), >=, 0);
  for (size_t k = 0; k < N_OPS; k++)
    g_free (names[k]);
  g_free (names);
  H5Tclose (type);
  H5Dclose (dset);
  H5Fclose (file);
}

/* Overwrites value @index of int64 column @column, dropping its checksum. */
static void
patch_int64 (const char *path,
             const char *column,
             hsize_t     index,
             int64_t     value)
{
  h5_test_patch_value (path, column, index, H5T_NATIVE_INT64, &value, FALSE);
}

/* @path refused, by a load and by an open, ROUNDS times each, with the
 * message "@path: @what" exactly. */
static void
assert_refused (const char *path,
                const char *what)
{
  g_autofree char *expected = g_strdup_printf ("%s: %s", path, what);

  for (int round = 0; round < ROUNDS; round++)
    {
      TprofError error = { 0 };
      TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);
      TprofProfileFile *pf;

      g_assert_null (pt);
      g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
      g_assert_cmpstr (error.message, ==, expected);
      pf = tprof_profile_file_open (path, &error);
      g_assert_null (pf);
      g_assert_cmpstr (error.message, ==, expected);
    }
  h5_test_assert_no_open_objects ();
}

/* A name given twice among 10^4: the first repeat named, in file order. */
static void
test_duplicate (void)
{
  g_autofree char *path = g_build_filename (test_dir, "duplicate.h5", NULL);

  write_profile (path, 3);
  duplicate_name (path, 9000, 17);
  assert_refused (path, "operations/name[9000]: duplicate of operations/name[17] ('op00017')");
}

/* A name given twice and a table refused: the table's refusal, checked
 * first, is the one given, whatever the index found meanwhile. */
static void
test_duplicate_after_table (void)
{
  g_autofree char *path = g_build_filename (test_dir, "duplicate-and-offset.h5", NULL);

  write_profile (path, 4);
  duplicate_name (path, 9000, 17);
  patch_int64 (path, "segments/offset", 3, 2);
  assert_refused (path, "segments/offset[3]: not non-decreasing (2 after 8)");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  g_test_add_func ("/h5/load-repeat/alternate", test_alternate);
  g_test_add_func ("/h5/load-repeat/duplicate", test_duplicate);
  g_test_add_func ("/h5/load-repeat/duplicate-after-table", test_duplicate_after_table);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
