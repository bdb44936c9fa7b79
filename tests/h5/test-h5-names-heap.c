/* test-h5-names-heap.c — the names' global heap a save writes itself (a file built in memory): read back byte for byte by HDF5, h5py, h5dump and our readers, in place as in memory; a damaged heap id refused naming its row. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "h5-test-util.h"

/* The same list as check_names_heap.py's expected_names(): short,
 * multi-byte, 1-byte, longer than HDF5's first read of a collection
 * (4096) and than one of ours (64 KiB), then 10^4 more. */
#define N_SPECIAL 6
#define N_MANY    10000
#define N_NAMES   (N_SPECIAL + N_MANY)

static char *test_dir;

static char **
expected_names (void)
{
  char **names = g_new0 (char *, N_NAMES + 1);
  GString *medium = g_string_new (NULL), *longer = g_string_new ("long-");

  for (int i = 0; i < 4998; i++)
    g_string_append_c (medium, 'x');
  g_string_append (medium, "\xc3\xa9");  /* é: 5000 bytes */
  for (int i = 0; i < 69995; i++)
    g_string_append_c (longer, 'y');
  names[0] = g_strdup ("a");
  names[1] = g_strdup ("\xcf\x84-forward");              /* τ-forward */
  names[2] = g_strdup ("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e/io");  /* 日本語/io */
  names[3] = g_strdup ("\xf0\x9f\x9a\x80 launch");       /* 🚀 launch */
  names[4] = g_string_free (medium, FALSE);
  names[5] = g_string_free (longer, FALSE);
  for (int i = 0; i < N_MANY; i++)
    names[N_SPECIAL + i] = g_strdup_printf ("op-%05d", i);
  return names;
}

/* A profile of @n of the names, one sample each, saved to @path. */
static void
save_names (const char *path,
            size_t      n)
{
  g_auto (GStrv) names = expected_names ();
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  TprofError error = { 0 };

  for (size_t k = 0; k < n; k++)
    {
      double time = 0.001 * (double) (k + 1);
      int32_t rank = 0;

      g_assert_cmpint (tprof_profiled_time_add (pt, names[k], h5_test_gathered (&time, &rank, 1), &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
}

/* The names as HDF5 itself reads them. */
static void
assert_hdf5_reads (const char *path,
                   size_t      n)
{
  g_auto (GStrv) names = expected_names ();
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, "operations/name", H5P_DEFAULT);
  hid_t type = H5Tcopy (H5T_C_S1);
  hid_t space = H5Dget_space (dset);
  char **read = g_new0 (char *, n);

  g_assert_cmpint (dset, >=, 0);
  g_assert_cmpint (H5Sget_simple_extent_npoints (space), ==, (hssize_t) n);
  g_assert_cmpint (H5Tset_size (type, H5T_VARIABLE), >=, 0);
  g_assert_cmpint (H5Tset_cset (type, H5T_CSET_UTF8), >=, 0);
  g_assert_cmpint (H5Dread (dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, read), >=, 0);
  for (size_t k = 0; k < n; k++)
    g_assert_cmpstr (read[k], ==, names[k]);
  g_assert_cmpint (H5Dvlen_reclaim (type, space, H5P_DEFAULT, read), >=, 0);
  g_free (read);
  H5Sclose (space);
  H5Tclose (type);
  H5Dclose (dset);
  H5Fclose (file);
}

/* The names as our readers read them: in this process (from the heap
 * itself), through the isolated helper, and the whole profile loaded. */
static void
assert_tprof_reads (const char *path,
                    size_t      n)
{
  g_auto (GStrv) names = expected_names ();
  TprofError error = { 0 };
  TprofProfileFile *in_process = tprof_profile_file_open (path, &error);
  TprofProfileFile *isolated;
  TprofProfiledTime *pt;

  g_assert_nonnull (in_process);
  isolated = tprof_profile_file_open_isolated (path, &error);
  g_assert_nonnull (isolated);
  pt = tprof_profiled_time_load (path, &error);
  g_assert_nonnull (pt);
  g_assert_cmpuint (tprof_profile_file_n_operations (in_process), ==, n);
  g_assert_cmpuint (tprof_profile_file_n_operations (isolated), ==, n);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, n);
  for (size_t k = 0; k < n; k++)
    {
      g_assert_cmpstr (tprof_profile_file_operation_name (in_process, k), ==, names[k]);
      g_assert_cmpstr (tprof_profile_file_operation_name (isolated, k), ==, names[k]);
      g_assert_cmpstr (tprof_profiled_time_name (pt, k), ==, names[k]);
    }
  tprof_profiled_time_free (pt);
  tprof_profile_file_close (isolated);
  tprof_profile_file_close (in_process);
}

/* Saved as an image (the names' heap ours) or in place (HDF5's): every
 * reader reads the same names, h5py and h5dump included. */
static void
test_read_back (gconstpointer data)
{
  gboolean in_place = GPOINTER_TO_INT (data);
  g_autofree char *path = g_build_filename (test_dir, in_place ? "in-place.h5" : "image.h5", NULL);
  g_autofree char *small = g_build_filename (test_dir, in_place ? "in-place-small.h5" : "image-small.h5", NULL);

  if (in_place)
    g_setenv ("TPROF_SAVE_NO_IMAGE", "1", TRUE);
  save_names (path, N_NAMES);
  /* one short name: one collection, mostly free space */
  save_names (small, 1);
  g_unsetenv ("TPROF_SAVE_NO_IMAGE");
  assert_hdf5_reads (path, N_NAMES);
  assert_hdf5_reads (small, 1);
  assert_tprof_reads (path, N_NAMES);
  assert_tprof_reads (small, 1);
  h5_test_run_python ("check_names_heap.py", path, small, NULL);
  h5_test_assert_no_open_objects ();
}

/* @size bytes of row @row's heap id replaced by @bytes, from byte @at
 * of the id (4 bytes of length, 8 of address, 4 of index). */
static char *
damaged_copy (const char *source,
              const char *name,
              hsize_t     row,
              size_t      at,
              const void *bytes,
              size_t      size)
{
  char *path = g_build_filename (test_dir, name, NULL);
  GBytes *good = h5_test_read_bytes (source);
  hid_t file, dset;
  haddr_t offset;
  int fd;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (good, NULL), (gssize) g_bytes_get_size (good), NULL));
  g_bytes_unref (good);
  file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  dset = H5Dopen2 (file, "operations/name", H5P_DEFAULT);
  offset = H5Dget_offset (dset);
  g_assert_cmpuint (offset, !=, HADDR_UNDEF);
  H5Dclose (dset);
  H5Fclose (file);
  fd = open (path, O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, bytes, size, (off_t) (offset + row * 16 + at)), ==, (ssize_t) size);
  close (fd);
  return path;
}

/* Refused at open, in process and isolated, and by the load, each
 * message naming the file, the row and what is wrong. */
static void
assert_refused (const char *path,
                const char *row,
                const char *what)
{
  TprofError error = { 0 };

  g_assert_null (tprof_profile_file_open (path, &error));
  g_test_message ("%s", error.message);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, row));
  g_assert_nonnull (strstr (error.message, what));
  g_assert_null (tprof_profile_file_open_isolated (path, &error));
  g_assert_nonnull (strstr (error.message, row));
  g_assert_nonnull (strstr (error.message, what));
  g_assert_null (tprof_profiled_time_load (path, &error));
  g_assert_nonnull (strstr (error.message, row));
}

/* A heap id of a name far into the heap (a later collection) that
 * names no object, or no collection, or the wrong length. */
static void
test_damaged_id (void)
{
  g_autofree char *path = g_build_filename (test_dir, "damaged-source.h5", NULL);
  const guint8 index[4] = { 0x60, 0xea, 0, 0 };  /* 60000 */
  const guint8 addr[8] = { 8 };
  const guint8 length[4] = { 3 };
  g_autofree char *a = NULL, *b = NULL, *c = NULL;

  save_names (path, N_NAMES);
  a = damaged_copy (path, "no-object.h5", 9000, 12, index, sizeof index);
  b = damaged_copy (path, "no-collection.h5", 9001, 4, addr, sizeof addr);
  c = damaged_copy (path, "wrong-length.h5", 9002, 0, length, sizeof length);
  assert_refused (a, "operations/name[9000]", "object 60000 of the global heap collection at byte");
  assert_refused (b, "operations/name[9001]", "(at byte 8) is not a global heap collection");
  assert_refused (c, "operations/name[9002]", "does not hold the name's length");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  g_test_add_data_func ("/h5/names-heap/image", GINT_TO_POINTER (FALSE), test_read_back);
  g_test_add_data_func ("/h5/names-heap/in-place", GINT_TO_POINTER (TRUE), test_read_back);
  g_test_add_func ("/h5/names-heap/damaged-id", test_damaged_id);
  status = g_test_run ();
  h5_test_cleanup ();
  g_free (test_dir);
  return status;
}
