/* bench-h5-load.c — one tprof_profiled_time_load() of FILE in a fresh process, as `tprof` does, against plain H5Dread of its datasets. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <hdf5.h>

#include <tprof/capture.h>

/* Reads dataset @name of @group whole into a new array of @mem_type. */
static void
read_dataset (hid_t group, const char *name, hid_t mem_type)
{
  hid_t dset = H5Dopen2 (group, name, H5P_DEFAULT);
  hid_t space = H5Dget_space (dset);
  hssize_t n = H5Sget_simple_extent_npoints (space);
  void *data = g_malloc ((gsize) n * H5Tget_size (mem_type) + 1);

  g_assert_cmpint (H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), >=, 0);
  H5Sclose (space);
  H5Dclose (dset);
  g_free (data);
}

static herr_t
read_operation (hid_t             timings,
                const char       *name,
                const H5L_info_t *info,
                void             *data)
{
  hid_t group = H5Gopen2 (timings, name, H5P_DEFAULT);

  read_dataset (group, "times", H5T_NATIVE_DOUBLE);
  read_dataset (group, "ranks", H5T_NATIVE_INT32);
  H5Gclose (group);
  return 0;
}

/* What a plain HDF5 reader does: every operation's datasets into new
 * arrays, converted to double and int32, without checking them. */
static double
time_plain_read (const char *path)
{
  gint64 start = g_get_monotonic_time ();
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t timings = H5Gopen2 (file, "timings", H5P_DEFAULT);

  g_assert_cmpint (timings, >=, 0);
  g_assert_cmpint (H5Literate (timings, H5_INDEX_NAME, H5_ITER_INC, NULL, read_operation, NULL), >=, 0);
  H5Gclose (timings);
  H5Fclose (file);
  return (g_get_monotonic_time () - start) / 1e3;
}

int
main (int argc, char **argv)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt;
  gint64 start;
  double load_ms;

  if (argc == 3 && g_str_equal (argv[2], "--plain"))
    {
      printf ("%.2f\n", time_plain_read (argv[1]));
      return 0;
    }
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE [--plain]\n"
                       "  prints the milliseconds one load of FILE takes in this fresh process,\n"
                       "  or with --plain those of plain H5Dread of its datasets\n", argv[0]);
      return 2;
    }
  start = g_get_monotonic_time ();
  pt = tprof_profiled_time_load (argv[1], &error);
  load_ms = (g_get_monotonic_time () - start) / 1e3;
  if (pt == NULL)
    {
      fprintf (stderr, "%s\n", error.message);
      return 1;
    }
  printf ("%.2f\n", load_ms);
  tprof_profiled_time_free (pt);
  return 0;
}
