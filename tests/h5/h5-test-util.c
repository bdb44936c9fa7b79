/* h5-test-util.c — helpers shared by the HDF5 profile tests. */
/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <string.h>

#include <glib/gstdio.h>
#include <hdf5.h>

#include "h5-test-util.h"

static GPtrArray *h5_test_dirs;

char *
h5_test_make_dir (void)
{
  GError *error = NULL;
  char *dir = g_dir_make_tmp ("tprof-h5-XXXXXX", &error);

  g_assert_no_error (error);
  if (h5_test_dirs == NULL)
    h5_test_dirs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (h5_test_dirs, g_strdup (dir));
  return dir;
}

static void
h5_test_remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *entry;

  if (dir != NULL)
    {
      while ((entry = g_dir_read_name (dir)) != NULL)
        {
          char *child = g_build_filename (path, entry, NULL);

          h5_test_remove_tree (child);
          g_free (child);
        }
      g_dir_close (dir);
      g_chmod (path, 0700);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

void
h5_test_cleanup (void)
{
  if (h5_test_dirs == NULL)
    return;
  for (guint i = 0; i < h5_test_dirs->len; i++)
    h5_test_remove_tree (g_ptr_array_index (h5_test_dirs, i));
  g_clear_pointer (&h5_test_dirs, g_ptr_array_unref);
}

void
h5_test_run_python (const char *script, ...)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  GError *error = NULL;
  char *out = NULL, *err = NULL;
  int status;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, g_strdup (PYTHON3));
  g_ptr_array_add (argv, g_build_filename (TESTS_SRCDIR, "h5", script, NULL));
  va_start (args, script);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL) || !g_str_has_suffix (out, "OK\n"))
    g_error ("%s failed:\n%s%s", script, out, err);
  g_free (out);
  g_free (err);
  g_ptr_array_unref (argv);
}

void
h5_test_assert_no_open_objects (void)
{
  /* HDF5 1.10 counts only file objects for us (files, groups, datasets,
   * attributes, named types); the rest is left to valgrind */
  g_assert_cmpint (H5Fget_obj_count (H5F_OBJ_ALL, H5F_OBJ_ALL), ==, 0);
}

TprofGatheredTime *
h5_test_gathered (const double  *times,
                  const int32_t *ranks,
                  size_t         n)
{
  TprofGatheredTime *gt = tprof_gathered_time_new (times, ranks, n);

  g_assert_nonnull (gt);
  return gt;
}

TprofProfiledTime *
h5_test_round_trip (const TprofProfiledTime *pt,
                    const char              *path)
{
  TprofError error = { 0 };
  TprofProfiledTime *loaded;

  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  g_assert_cmpint (error.code, ==, 0);
  h5_test_assert_no_open_objects ();
  loaded = tprof_profiled_time_load (path, &error);
  if (loaded == NULL)
    g_error ("loading %s: %s", path, error.message);
  g_assert_cmpint (error.code, ==, 0);
  h5_test_assert_no_open_objects ();
  return loaded;
}

GBytes *
h5_test_read_bytes (const char *path)
{
  GError *error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static int
h5_test_compare_strings (gconstpointer a,
                         gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
h5_test_assert_dir_entries (const char        *path,
                            const char *const *expected,
                            size_t             n_expected)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *wanted = g_ptr_array_new ();
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *entry;

  g_assert_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (found, g_strdup (entry));
  g_dir_close (dir);
  for (size_t i = 0; i < n_expected; i++)
    g_ptr_array_add (wanted, (gpointer) expected[i]);
  g_ptr_array_sort (found, h5_test_compare_strings);
  g_ptr_array_sort (wanted, h5_test_compare_strings);

  g_ptr_array_add (found, NULL);
  g_ptr_array_add (wanted, NULL);
  {
    char *found_s = g_strjoinv (" ", (char **) found->pdata);
    char *wanted_s = g_strjoinv (" ", (char **) wanted->pdata);

    g_assert_cmpstr (found_s, ==, wanted_s);
    g_free (found_s);
    g_free (wanted_s);
  }
  g_ptr_array_unref (found);
  g_ptr_array_unref (wanted);
}

void
h5_test_patch_value (const char *path,
                     const char *column,
                     hsize_t     index,
                     hid_t       mem_type,
                     const void *value,
                     gboolean    keep_crc)
{
  hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, column, H5P_DEFAULT);
  hid_t space = H5Dget_space (dset);
  hsize_t one = 1;
  hid_t mem = H5Screate_simple (1, &one, NULL);

  g_assert_cmpint (dset, >=, 0);
  g_assert_cmpint (H5Sselect_hyperslab (space, H5S_SELECT_SET, &index, NULL, &one, NULL), >=, 0);
  g_assert_cmpint (H5Dwrite (dset, mem_type, mem, space, H5P_DEFAULT, value), >=, 0);
  if (!keep_crc)
    g_assert_cmpint (H5Adelete (dset, "crc32c"), >=, 0);
  H5Sclose (mem);
  H5Sclose (space);
  H5Dclose (dset);
  H5Fclose (file);
}
