/* bench-h5-io.c — save and load speed against plain write() and plain H5Dread of the same data, measured in the same run. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <hdf5.h>

#include <tprof/capture.h>

#include "bench-rss.h"

#define REPEATS 5

static double
median (double *v, int n)
{
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && v[k] < v[k - 1]; k--)
      {
        double t = v[k];

        v[k] = v[k - 1];
        v[k - 1] = t;
      }
  return v[n / 2];
}

/* What save cannot beat: the same sample bytes (@copies operations of @n
 * samples) through write() and one fsync(). */
static double
time_raw_write (const char *path, const double *times, const int32_t *ranks, size_t n, size_t copies)
{
  gint64 start = g_get_monotonic_time ();
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  g_assert_cmpint (fd, >=, 0);
  for (size_t c = 0; c < copies; c++)
    {
      g_assert_cmpint (write (fd, times, n * sizeof *times), ==, (gssize) (n * sizeof *times));
      g_assert_cmpint (write (fd, ranks, n * sizeof *ranks), ==, (gssize) (n * sizeof *ranks));
    }
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);
  return (g_get_monotonic_time () - start) / 1e6;
}

/* What load cannot beat: plain HDF5 reading every dataset of the file. */
static double
time_raw_read (const char *path, const TprofProfiledTime *pt)
{
  gint64 start = g_get_monotonic_time ();
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t timings = H5Gopen2 (file, "timings", H5P_DEFAULT);

  for (size_t op = 0; op < tprof_profiled_time_len (pt); op++)
    {
      char link[64];
      size_t n = tprof_gathered_time_count (tprof_profiled_time_nth (pt, op));
      double *times = g_new (double, n + 1);
      int32_t *ranks = g_new (int32_t, n + 1);
      hid_t group, dset;

      /* the benchmark's names need no escaping */
      g_snprintf (link, sizeof link, "%s", tprof_profiled_time_name (pt, op));
      group = H5Gopen2 (timings, link, H5P_DEFAULT);
      dset = H5Dopen2 (group, "times", H5P_DEFAULT);
      H5Dread (dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, times);
      H5Dclose (dset);
      dset = H5Dopen2 (group, "ranks", H5P_DEFAULT);
      H5Dread (dset, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, ranks);
      H5Dclose (dset);
      H5Gclose (group);
      g_free (times);
      g_free (ranks);
    }
  H5Gclose (timings);
  H5Fclose (file);
  return (g_get_monotonic_time () - start) / 1e6;
}

typedef struct
{
  const char *label;
  size_t      n_ops;
  size_t      samples_per_op;
  double      save_target;  /* x write()+fsync */
} BenchCase;

/* Saves @pt to @path, returning the time taken and in *@growth the peak
 * RSS above the RSS before the save (0 when it cannot be measured). */
static double
time_save (const TprofProfiledTime *pt, const char *path, size_t *growth)
{
  gboolean peak_known = bench_peak_rss_reset ();
  size_t before = bench_status_bytes ("VmRSS");
  gint64 start = g_get_monotonic_time ();
  double seconds;

  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  *growth = peak_known && bench_status_bytes ("VmHWM") > before ? bench_status_bytes ("VmHWM") - before : 0;
  return seconds;
}

static TprofProfiledTime *
make_profile (const BenchCase *c, double *times, int32_t *ranks)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (8);

  for (size_t i = 0; i < c->samples_per_op; i++)
    {
      times[i] = i * 1e-9;
      ranks[i] = (int32_t) (i * 8 / c->samples_per_op);
    }
  for (size_t op = 0; op < c->n_ops; op++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "op-%zu", op);
      g_assert_cmpint (tprof_profiled_time_add (pt, name, tprof_gathered_time_new (times, ranks, c->samples_per_op), NULL), ==, 0);
    }
  return pt;
}

static void
run (const BenchCase *c, const char *dir)
{
  char *path = g_build_filename (dir, "bench.h5", NULL);
  char *raw_path = g_build_filename (dir, "bench.raw", NULL);
  double *times = g_new (double, c->samples_per_op);
  int32_t *ranks = g_new (int32_t, c->samples_per_op);
  TprofProfiledTime *pt = make_profile (c, times, ranks);
  double save[REPEATS], write_base[REPEATS], load[REPEATS], read_base[REPEATS];
  double sample_mb = c->n_ops * c->samples_per_op * (sizeof *times + sizeof *ranks) / 1e6;
  size_t growth = 0;

  for (int k = 0; k < REPEATS; k++)
    {
      gint64 start;
      TprofProfiledTime *loaded;
      size_t save_growth;

      save[k] = time_save (pt, path, &save_growth);
      growth = MAX (growth, save_growth);
      write_base[k] = time_raw_write (raw_path, times, ranks, c->samples_per_op, c->n_ops);
      start = g_get_monotonic_time ();
      loaded = tprof_profiled_time_load (path, NULL);
      load[k] = (g_get_monotonic_time () - start) / 1e6;
      g_assert_nonnull (loaded);
      tprof_profiled_time_free (loaded);
      read_base[k] = time_raw_read (path, pt);
    }

  printf ("save %s: %8.1f ms = %5.2fx write()+fsync (target <= %.1fx)\n",
          c->label, median (save, REPEATS) * 1e3,
          median (save, REPEATS) / median (write_base, REPEATS), c->save_target);
  printf ("load %s: %8.1f ms = %5.2fx plain H5Dread (target <= 1.0x)\n",
          c->label, median (load, REPEATS) * 1e3, median (load, REPEATS) / median (read_base, REPEATS));
  printf ("save %s: peak RSS growth %.1f MB = %.2fx the %.1f MB of samples "
          "(target: no copy, well under 1x)\n",
          c->label, growth / 1e6, growth / 1e6 / sample_mb, sample_mb);
  tprof_profiled_time_free (pt);
  g_free (times);
  g_free (ranks);
  g_unlink (path);
  g_unlink (raw_path);
  g_free (path);
  g_free (raw_path);
}

int
main (int argc, char **argv)
{
  size_t samples = argc > 1 ? strtoull (argv[1], NULL, 10) : 10000000;
  char *dir = g_dir_make_tmp ("tprof-h5-bench-XXXXXX", NULL);
  BenchCase cases[] = {
    { "1 op x all samples", 1, samples, 1.5 },
    { "10^4 ops x 8      ", 10000, 8, 3.0 },
  };

  g_assert_nonnull (dir);
  printf ("medians of %d runs; baselines measured in the same run; %zu samples\n", REPEATS, samples);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    run (&cases[i], dir);
  g_rmdir (dir);
  g_free (dir);
  return 0;
}
