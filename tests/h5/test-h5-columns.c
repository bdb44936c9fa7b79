/* test-h5-columns.c — format 3's refusals on real damaged files: each message names the file, the column and the row; checksums catch silent damage. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "h5-test-util.h"
#include "tprof-crc32c.h"

#define WORLD 4
#define PER_RANK 5

static char *test_dir;
static char *good_path;

/* Three operations of WORLD ranks, PER_RANK samples each, with a
 * timeline: 12 segments, 60 samples. */
static void
write_good (const char *path)
{
  static const char *const names[] = { "forward", "backward", "io/checkpoint" };
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  TprofError error = { 0 };

  for (int k = 0; k < 3; k++)
    {
      size_t n = WORLD * PER_RANK;
      double *times = g_new (double, n), *starts = g_new (double, n);
      int32_t *ranks = g_new (int32_t, n), *threads = g_new (int32_t, n);
      TprofGatheredTime *gt;

      for (size_t i = 0; i < n; i++)
        {
          times[i] = 0.001 * (double) (1 + i + 7 * k);
          ranks[i] = (int32_t) (i / PER_RANK);
          starts[i] = 0.5 * (double) i;
          threads[i] = (int32_t) (i % 2);
        }
      gt = tprof_gathered_time_new_take (times, ranks, n);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      g_assert_cmpint (tprof_profiled_time_add (pt, names[k], gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
}

/* A copy of the good file, to damage. */
static char *
copy_good (const char *name)
{
  char *path = g_build_filename (test_dir, name, NULL);
  GBytes *bytes = h5_test_read_bytes (good_path);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  g_bytes_unref (bytes);
  return path;
}

/* Value @index of float column @column, read with HDF5. */
static double
read_double (const char *path, const char *column, hsize_t index)
{
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, column, H5P_DEFAULT);
  hid_t space = H5Dget_space (dset);
  hsize_t one = 1;
  hid_t mem = H5Screate_simple (1, &one, NULL);
  double v = NAN;

  g_assert_cmpint (H5Sselect_hyperslab (space, H5S_SELECT_SET, &index, NULL, &one, NULL), >=, 0);
  g_assert_cmpint (H5Dread (dset, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v), >=, 0);
  H5Sclose (mem);
  H5Sclose (space);
  H5Dclose (dset);
  H5Fclose (file);
  return v;
}

static void
patch_double (const char *path, const char *column, hsize_t index, double v)
{
  h5_test_patch_value (path, column, index, H5T_NATIVE_DOUBLE, &v, FALSE);
}

static void
patch_int64 (const char *path, const char *column, hsize_t index, int64_t v)
{
  h5_test_patch_value (path, column, index, H5T_NATIVE_INT64, &v, FALSE);
}

static void
patch_int32 (const char *path, const char *column, hsize_t index, int32_t v)
{
  h5_test_patch_value (path, column, index, H5T_NATIVE_INT32, &v, FALSE);
}

/* Replaces column @column by one of @rank dimensions @dims of doubles (0). */
static void
replace_column (const char    *path,
                const char    *column,
                int            rank,
                const hsize_t *dims)
{
  hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t space = H5Screate_simple (rank, dims, NULL);
  hid_t dset;

  g_assert_cmpint (H5Ldelete (file, column, H5P_DEFAULT), >=, 0);
  dset = H5Dcreate2 (file, column, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  g_assert_cmpint (dset, >=, 0);
  H5Dclose (dset);
  H5Sclose (space);
  H5Fclose (file);
}

/* Rewrites the names, dropping their checksum. */
static void
replace_names (const char *path,
               const char *const *names)
{
  hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, "operations/name", H5P_DEFAULT);
  hid_t type = H5Dget_type (dset);

  g_assert_cmpint (H5Dwrite (dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, names), >=, 0);
  g_assert_cmpint (H5Adelete (dset, "crc32c"), >=, 0);
  H5Tclose (type);
  H5Dclose (dset);
  H5Fclose (file);
}

/* Opening (and, with @read_all, loading) @path fails with a message
 * naming the file and holding @what; the isolated reader says the same. */
static void
assert_refused (const char *path,
                gboolean    at_open,
                const char *what)
{
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, &error);
  TprofProfiledTime *pt;

  if (at_open)
    {
      g_assert_null (pf);
      pf = tprof_profile_file_open_isolated (path, &error);
      g_assert_null (pf);
      g_test_message ("%s", error.message);
      g_assert_true (g_str_has_prefix (error.message, path));
      g_assert_nonnull (strstr (error.message, what));
    }
  else
    {
      g_assert_nonnull (pf);
      tprof_profile_file_close (pf);
    }
  pt = tprof_profiled_time_load (path, &error);
  g_assert_null (pt);
  g_test_message ("%s", error.message);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, what));
  h5_test_assert_no_open_objects ();
}

static void
test_good (void)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (good_path, &error);
  TprofProfileFile *pf = tprof_profile_file_open (good_path, &error);
  const int32_t rank2 = 2;
  TprofGatheredTime *gt;

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (pt);
  g_assert_cmpint (tprof_profile_file_format_version (pf), ==, 3);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 3);
  /* rank 2's segment of operation 1: rows 10..14 of that operation */
  gt = tprof_profile_file_read_operation (pf, 1, &rank2, 1, NULL, NULL, NULL, &error);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, PER_RANK);
  for (size_t i = 0; i < PER_RANK; i++)
    {
      g_assert_cmpfloat (tprof_gathered_time_times (gt)[i], ==, 0.001 * (double) (1 + 2 * PER_RANK + i + 7));
      g_assert_cmpint (tprof_gathered_time_ranks (gt)[i], ==, 2);
      g_assert_cmpfloat (tprof_gathered_time_starts (gt)[i], ==, 0.5 * (double) (2 * PER_RANK + i));
    }
  tprof_gathered_time_free (gt);
  tprof_profile_file_close (pf);
  tprof_profiled_time_free (pt);
  /* the columns the heaps' check opened for the reader are all closed */
  h5_test_assert_no_open_objects ();
}

static void
test_offsets (void)
{
  g_autofree char *a = copy_good ("offset-decreasing.h5");
  g_autofree char *b = copy_good ("offset-past-end.h5");
  g_autofree char *c = copy_good ("segments-decreasing.h5");

  patch_int64 (a, "segments/offset", 3, 2);
  assert_refused (a, TRUE, "segments/offset[3]: not non-decreasing (2 after 10)");
  patch_int64 (b, "segments/offset", 12, 61);
  assert_refused (b, TRUE, "segments/offset[12]: is 61, past the end of samples/times (60)");
  patch_int64 (c, "operations/segments", 2, 3);
  assert_refused (c, TRUE, "operations/segments[2]: not non-decreasing (3 after 4)");
}

static void
test_ranks (void)
{
  g_autofree char *a = copy_good ("rank-out-of-range.h5");
  g_autofree char *b = copy_good ("rank-repeated.h5");

  patch_int32 (a, "segments/rank", 5, WORLD);
  assert_refused (a, TRUE, "segments/rank[5]: is 4, outside [0, 4)");
  patch_int32 (b, "segments/rank", 6, 1);
  assert_refused (b, TRUE, "segments/rank[6]: not ascending within operation 1 (1 after 1)");
}

static void
test_names (void)
{
  static const char *const duplicate[] = { "forward", "backward", "forward" };
  static const char *const not_utf8[] = { "forward", "back\xff\xfeward", "io/checkpoint" };
  g_autofree char *a = copy_good ("name-duplicate.h5");
  g_autofree char *b = copy_good ("name-not-utf8.h5");

  replace_names (a, duplicate);
  assert_refused (a, TRUE, "operations/name[2]: duplicate of operations/name[0] ('forward')");
  replace_names (b, not_utf8);
  assert_refused (b, TRUE, "operations/name[1]: not valid UTF-8");
}

/* Overwrites @size bytes of row @row's heap id in operations/name (4
 * bytes of length, 8 of collection address, 4 of object index), from
 * byte @at of the id, behind HDF5's back. */
static void
patch_name_id (const char *path,
               hsize_t     row,
               size_t      at,
               const void *bytes,
               size_t      size)
{
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, "operations/name", H5P_DEFAULT);
  haddr_t offset = H5Dget_offset (dset);
  int fd;

  g_assert_cmpuint (offset, !=, HADDR_UNDEF);
  g_assert_cmpuint (H5Dget_storage_size (dset), ==, 3 * 16);
  H5Dclose (dset);
  H5Fclose (file);
  fd = open (path, O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, bytes, size, (off_t) (offset + row * 16 + at)), ==, (ssize_t) size);
  close (fd);
}

/* Replaces the first letter of @name where its bytes lie in the file
 * (the global heap) by @letter. */
static void
patch_name_letter (const char *path,
                   const char *name,
                   char        letter)
{
  g_autofree char *bytes = NULL;
  gsize size;
  const char *at;

  g_assert_true (g_file_get_contents (path, &bytes, &size, NULL));
  at = memmem (bytes, size, name, strlen (name));
  g_assert_nonnull (at);
  bytes[at - bytes] = letter;
  g_assert_true (g_file_set_contents (path, bytes, (gssize) size, NULL));
}

/* The names are read straight from the global heap: what HDF5 reads,
 * and an id that points nowhere refused, naming its row. */
static void
test_names_heap (void)
{
  static const char *const names[] = { "forward", "backward", "io/checkpoint" };
  g_autofree char *a = copy_good ("name-no-object.h5");
  g_autofree char *b = copy_good ("name-no-collection.h5");
  g_autofree char *c = copy_good ("name-wrong-length.h5");
  g_autofree char *d = copy_good ("name-letter.h5");
  g_autofree char *e = copy_good ("name-zero.h5");
  g_autofree char *computed = NULL;
  const guint8 index[4] = { 0xe7, 0x03, 0, 0 }, addr[8] = { 8 }, length[4] = { 3 };
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (good_path, &error);

  g_assert_nonnull (pf);
  for (size_t k = 0; k < G_N_ELEMENTS (names); k++)
    g_assert_cmpstr (tprof_profile_file_operation_name (pf, k), ==, names[k]);
  tprof_profile_file_close (pf);
  patch_name_id (a, 1, 12, index, sizeof index);
  assert_refused (a, TRUE, "operations/name[1]: cannot be read: object 999 of the global heap collection at byte");
  patch_name_id (b, 2, 4, addr, sizeof addr);
  assert_refused (b, TRUE, "operations/name[2]: cannot be read: its global heap collection (at byte 8) is not a "
                  "global heap collection");
  patch_name_id (c, 0, 0, length, sizeof length);
  /* a name's letter changed in the heap, its length the same: only the
   * checksum of the names sees it */
  patch_name_letter (d, "backward", 'B');
  assert_refused (d, TRUE, "operations/name: checksum mismatch");
  /* a zero inside a name: the name ends there, and the checksum is of
   * the names so read, each with its zero, not of the bytes end to end */
  patch_name_letter (e, "kward", '\0');
  computed = g_strdup_printf ("computed %08x)", _tprof_crc32c (0, "forward\0bac\0io/checkpoint", 26));
  assert_refused (e, TRUE, computed);
  assert_refused (c, TRUE, "operations/name[0]: cannot be read: object");
  assert_refused (c, TRUE, "does not hold the name's length");
}

/* The profile at @path loads, its operations exactly @names, in order. */
static void
assert_loads_names (const char         *path,
                    const char *const  *names,
                    size_t              n)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);

  g_assert_cmpstr (error.message, ==, "");
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, n);
  for (size_t k = 0; k < n; k++)
    g_assert_cmpstr (tprof_profiled_time_name (pt, k), ==, names[k]);
  tprof_profiled_time_free (pt);
}

/* A user block before HDF5's data: the heap ids' addresses count from
 * its end; the names read are those written, their checksum holds. */
static void
test_names_userblock (void)
{
  static const char *const names[] = { "forward", "backward", "io/checkpoint" };
  g_autofree char *path = g_build_filename (test_dir, "userblock.h5", NULL);

  h5_test_run_python ("copy_userblock.py", good_path, path, NULL);
  assert_loads_names (path, names, G_N_ELEMENTS (names));
}

/* Names HDF5 stores otherwise (in chunks) it reads itself, the same. */
static void
test_names_chunked (void)
{
  static const char *const names[] = { "forward", "backward", "io/checkpoint" };
  g_autofree char *path = copy_good ("names-chunked.h5");
  hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t type = H5Tcopy (H5T_C_S1);
  hsize_t dims[1] = { 3 }, chunk[1] = { 2 };
  hid_t space = H5Screate_simple (1, dims, NULL);
  hid_t dcpl = H5Pcreate (H5P_DATASET_CREATE);
  hid_t dset;

  H5Tset_size (type, H5T_VARIABLE);
  H5Tset_cset (type, H5T_CSET_UTF8);
  H5Pset_chunk (dcpl, 1, chunk);
  g_assert_cmpint (H5Ldelete (file, "operations/name", H5P_DEFAULT), >=, 0);
  dset = H5Dcreate2 (file, "operations/name", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  g_assert_cmpint (H5Dwrite (dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, names), >=, 0);
  H5Dclose (dset);
  H5Pclose (dcpl);
  H5Sclose (space);
  H5Tclose (type);
  H5Fclose (file);
  assert_loads_names (path, names, G_N_ELEMENTS (names));
}

static void
test_cache (void)
{
  g_autofree char *a = copy_good ("sum-inf.h5");
  g_autofree char *b = copy_good ("std-nan.h5");
  g_autofree char *c = copy_good ("segment-sum-vs-samples.h5");
  g_autofree char *d = copy_good ("median-vs-samples.h5");

  patch_double (a, "operations/sum", 1, INFINITY);
  assert_refused (a, TRUE, "operations/sum[1] is inf, expected a finite time >= 0");
  patch_double (b, "operations/std", 0, NAN);
  assert_refused (b, TRUE, "operations/std[0] is nan");
  /* what only the samples contradict: refused by the read */
  patch_double (c, "samples/times", 0, 0.0015);
  assert_refused (c, FALSE, "segments/sum[0] (rank 0) is");
  patch_double (d, "operations/median", 2, 0.0251);
  assert_refused (d, FALSE, "operations/median[2] is 0.0251");
}

/* A cached figure a few ulps from the samples' (another program's sum
 * order) is not the engine's bit for bit, but within the tolerance: the
 * open and the load take it; one 1e-6 off is refused. */
static void
test_cache_close (void)
{
  g_autofree char *a = copy_good ("p95-close.h5");
  g_autofree char *b = copy_good ("p95-off.h5");
  double p95 = read_double (good_path, "operations/p95", 2);
  TprofError error = { 0 };
  TprofProfiledTime *pt;
  TprofProfileFile *pf;
  TprofGatheredTime *gt;

  patch_double (a, "operations/p95", 2, p95 * (1.0 + 1e-12));
  g_assert_cmpfloat (read_double (a, "operations/p95", 2), !=, p95);
  pt = tprof_profiled_time_load (a, &error);
  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (pt);
  tprof_profiled_time_free (pt);
  pf = tprof_profile_file_open (a, &error);
  g_assert_nonnull (pf);
  gt = tprof_profile_file_read_operation (pf, 2, NULL, 0, NULL, NULL, NULL, &error);
  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (gt);
  tprof_gathered_time_free (gt);
  tprof_profile_file_close (pf);
  patch_double (b, "operations/p95", 2, p95 * (1.0 + 1e-6));
  assert_refused (b, FALSE, "operations/p95[2] is");
}

static void
test_samples (void)
{
  const hsize_t short_dims[1] = { 59 }, square[2] = { 60, 2 };
  g_autofree char *a = copy_good ("time-nan.h5");
  g_autofree char *b = copy_good ("time-negative.h5");
  g_autofree char *c = copy_good ("starts-short.h5");
  g_autofree char *d = copy_good ("times-2d.h5");
  g_autofree char *e = copy_good ("thread-then-time.h5");
  g_autofree char *f = copy_good ("start-then-time.h5");

  patch_double (a, "samples/times", 23, NAN);
  assert_refused (a, FALSE, "samples/times[23]: is NaN");
  patch_double (b, "samples/times", 41, -1.0);
  assert_refused (b, FALSE, "samples/times[41]: is negative");
  /* of two bad values, the one of the earlier row is named, whatever
   * its column */
  patch_int32 (e, "samples/threads", 20, -1);
  patch_double (e, "samples/times", 35, NAN);
  assert_refused (e, FALSE, "samples/threads[20]: is -1, expected a thread >= 0");
  patch_double (f, "samples/starts", 12, INFINITY);
  patch_double (f, "samples/times", 13, -2.0);
  assert_refused (f, FALSE, "samples/starts[12]: is inf, expected a finite time");
  replace_column (c, "samples/starts", 1, short_dims);
  assert_refused (c, TRUE, "samples/starts: has 59 values, expected 60 (as samples/times has 60)");
  replace_column (d, "samples/times", 2, square);
  assert_refused (d, TRUE, "samples/times: has 2 dimensions, expected 1");
}

/* Damage the structure cannot see: a checksum can. */
static void
test_checksums (void)
{
  g_autofree char *a = copy_good ("max-flipped.h5");
  g_autofree char *b = copy_good ("time-flipped.h5");
  double v = 0.0105;

  h5_test_patch_value (a, "operations/max", 0, H5T_NATIVE_DOUBLE, &(double) { 0.0205 }, TRUE);
  assert_refused (a, TRUE, "operations/max: checksum mismatch");
  /* a sample within every bound, its rank's sum barely moved: only the
   * checksum of the whole column sees it */
  h5_test_patch_value (b, "samples/times", 9, H5T_NATIVE_DOUBLE, &v, TRUE);
  assert_refused (b, FALSE, "samples/times: checksum mismatch");
}

/* One operation holding every row: a read of it is a read of the whole
 * columns, checked against their checksums in process and isolated. */
static void
test_checksum_read (void)
{
  g_autofree char *path = g_build_filename (test_dir, "one-op.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  double times[WORLD * PER_RANK], v = 0.0105;
  int32_t ranks[WORLD * PER_RANK];
  TprofError error = { 0 };
  TprofProfileFile *here, *apart;

  for (size_t i = 0; i < G_N_ELEMENTS (times); i++)
    {
      times[i] = 0.001 * (double) (i + 1);
      ranks[i] = (int32_t) (i / PER_RANK);
    }
  g_assert_cmpint (tprof_profiled_time_add (pt, "only", h5_test_gathered (times, ranks, G_N_ELEMENTS (times)),
                                            &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  h5_test_patch_value (path, "samples/times", 9, H5T_NATIVE_DOUBLE, &v, TRUE);
  here = tprof_profile_file_open (path, &error);
  apart = tprof_profile_file_open_isolated (path, &error);
  g_assert_nonnull (here);
  g_assert_nonnull (apart);
  for (int isolated = 0; isolated < 2; isolated++)
    {
      g_assert_null (tprof_profile_file_read_operation (isolated ? apart : here, 0, NULL, 0, NULL, NULL, NULL,
                                                        &error));
      g_test_message ("%s", error.message);
      g_assert_true (g_str_has_prefix (error.message, path));
      g_assert_nonnull (strstr (error.message, "samples/times: checksum mismatch"));
    }
  tprof_profile_file_close (here);
  tprof_profile_file_close (apart);
}

/* Operations of one rank each: a rank's figures are the operation's,
 * and a sample that contradicts them is still refused, naming the
 * segment. */
static void
test_one_rank (void)
{
  g_autofree char *path = g_build_filename (test_dir, "one-rank.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  const double times[] = { 0.004, 0.001, 0.003, 0.002 };
  const int32_t ranks[] = { 0, 0, 0, 0 };
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_add (pt, "a", h5_test_gathered (times, ranks, 4), &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_add (pt, "b", h5_test_gathered (times, ranks, 4), &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  pt = tprof_profiled_time_load (path, &error);
  g_assert_nonnull (pt);
  tprof_profiled_time_free (pt);
  /* operation b's second sample, within its extremes */
  patch_double (path, "samples/times", 5, 0.0015);
  assert_refused (path, FALSE, "segments/sum[1] (rank 0) is 0.01");
}

/* The hardware and table CRC-32C agree, on the standard check value and
 * at every alignment and length: short ones, and long ones that the
 * hardware's three runs at once cover (3 x 256 and 3 x 4096 bytes a
 * step), with every remainder. */
static void
test_crc32c (void)
{
  guint8 bytes[300];
  gsize big_size = 3 * 4096 * 3 + 3 * 256 * 2 + 40;
  g_autofree guint8 *big = g_malloc (big_size);

  g_assert_cmphex (_tprof_crc32c (0, "123456789", 9), ==, 0xe3069283);
  g_assert_cmphex (_tprof_crc32c_portable (0, "123456789", 9), ==, 0xe3069283);
  for (size_t i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) (i * 131 + 7);
  for (size_t start = 0; start < 9; start++)
    for (size_t n = 0; start + n <= sizeof bytes; n += 13)
      {
        uint32_t whole = _tprof_crc32c (0, bytes + start, n);

        g_assert_cmphex (whole, ==, _tprof_crc32c_portable (0, bytes + start, n));
        /* continued in two parts, as a stream writes it */
        g_assert_cmphex (_tprof_crc32c (_tprof_crc32c (0, bytes + start, n / 3), bytes + start + n / 3, n - n / 3),
                         ==, whole);
      }
  for (gsize i = 0; i < big_size; i++)
    big[i] = (guint8) ((i * 2654435761u) >> 13);
  for (gsize start = 0; start < 9; start += 3)
    for (gsize n = 3 * 256 - 8; start + n <= big_size; n += n < 3 * 4096 * 2 ? 371 : 1237)
      {
        uint32_t whole = _tprof_crc32c (0, big + start, n);

        g_assert_cmphex (whole, ==, _tprof_crc32c_portable (0, big + start, n));
        g_assert_cmphex (_tprof_crc32c (_tprof_crc32c (0, big + start, n / 3), big + start + n / 3, n - n / 3),
                         ==, whole);
      }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  good_path = g_build_filename (test_dir, "good.h5", NULL);
  write_good (good_path);
  g_test_add_func ("/h5/columns/good", test_good);
  g_test_add_func ("/h5/columns/offsets", test_offsets);
  g_test_add_func ("/h5/columns/ranks", test_ranks);
  g_test_add_func ("/h5/columns/names", test_names);
  g_test_add_func ("/h5/columns/names-heap", test_names_heap);
  g_test_add_func ("/h5/columns/names-chunked", test_names_chunked);
  g_test_add_func ("/h5/columns/names-userblock", test_names_userblock);
  g_test_add_func ("/h5/columns/cache", test_cache);
  g_test_add_func ("/h5/columns/cache-close", test_cache_close);
  g_test_add_func ("/h5/columns/samples", test_samples);
  g_test_add_func ("/h5/columns/checksums", test_checksums);
  g_test_add_func ("/h5/columns/checksum-read", test_checksum_read);
  g_test_add_func ("/h5/columns/one-rank", test_one_rank);
  g_test_add_func ("/h5/columns/crc32c", test_crc32c);
  status = g_test_run ();
  g_free (good_path);
  h5_test_cleanup ();
  g_free (test_dir);
  return status;
}
