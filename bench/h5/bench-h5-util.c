/* bench-h5-util.c — random sample columns, the write()+fsync and plain-H5Dread baselines, process timing and medians for the save/load benchmarks. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib.h>
#include <hdf5.h>

#include "bench-h5-util.h"

BenchColumns *
bench_columns_new (size_t   n_ops,
                   size_t   per_op,
                   int      world_size,
                   bool     timeline,
                   unsigned seed)
{
  BenchColumns *c = g_new0 (BenchColumns, 1);
  GRand *rand = g_rand_new_with_seed (seed);
  double *clock = g_new0 (double, world_size);

  c->n = n_ops * per_op;
  c->n_ops = n_ops;
  c->world_size = world_size;
  c->times = g_new (double, c->n + 1);
  c->ranks = g_new (int32_t, c->n + 1);
  if (timeline)
    {
      c->starts = g_new (double, c->n + 1);
      c->threads = g_new0 (int32_t, c->n + 1);
    }
  for (size_t op = 0; op < n_ops; op++)
    for (size_t i = 0; i < per_op; i++)
      {
        size_t k = op * per_op + i;
        int32_t rank = (int32_t) (i * world_size / per_op);

        /* exponential, mean 1 ms: unsorted, as a real run's are */
        c->times[k] = -1e-3 * log1p (-g_rand_double (rand));
        c->ranks[k] = rank;
        if (timeline)
          {
            c->starts[k] = clock[rank];
            clock[rank] += c->times[k] + 1e-6;
          }
      }
  g_free (clock);
  g_rand_free (rand);
  return c;
}

void
bench_columns_free (BenchColumns *c)
{
  g_free (c->times);
  g_free (c->ranks);
  g_free (c->starts);
  g_free (c->threads);
  g_free (c);
}

size_t
bench_columns_bytes (const BenchColumns *c)
{
  size_t per_sample = sizeof (double) + sizeof (int32_t);

  if (c->starts != NULL)
    per_sample += sizeof (double) + sizeof (int32_t);
  return c->n * per_sample;
}

static void *
copy_of (const void *data,
         size_t      bytes)
{
  void *copy = malloc (bytes + 1);

  g_assert_nonnull (copy);
  memcpy (copy, data, bytes);
  return copy;
}

TprofProfiledTime *
bench_profile_new (const BenchColumns *c)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (c->world_size);
  size_t per_op = c->n / c->n_ops;
  TprofError error = { 0 };

  for (size_t op = 0; op < c->n_ops; op++)
    {
      size_t first = op * per_op;
      TprofGatheredTime *gt = tprof_gathered_time_new (c->times + first, c->ranks + first, per_op);
      char name[32];

      if (c->starts != NULL)
        g_assert_true (tprof_gathered_time_set_timeline_take (gt, copy_of (c->starts + first, per_op * sizeof (double)),
                                                              copy_of (c->threads + first, per_op * sizeof (int32_t))));
      g_snprintf (name, sizeof name, "op-%05zu", op);
      if (tprof_profiled_time_add (pt, name, gt, &error) != 0)
        g_error ("%s", error.message);
    }
  if (c->starts != NULL)
    /* one host, clocks already aligned */
    tprof_profiled_time_set_timeline_take (pt, g_new0 (double, c->world_size), g_new0 (double, c->world_size),
                                           g_strdup ("2026-01-01T00:00:00Z"));
  return pt;
}

double
bench_cpu (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  return (double) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
         + (double) (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double
bench_page_faults (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  return (double) usage.ru_minflt + (double) usage.ru_majflt;
}

double
bench_now (void)
{
  return g_get_monotonic_time () / 1e6;
}

void
bench_sync (void)
{
  sync ();
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

double
bench_median (double *v,
              int     n)
{
  qsort (v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
write_all (int         fd,
           const void *data,
           size_t      bytes)
{
  const char *p = data;

  while (bytes > 0)
    {
      ssize_t done = write (fd, p, bytes);

      g_assert_cmpint (done, >, 0);
      p += done;
      bytes -= (size_t) done;
    }
}

double
bench_write_fsync (const BenchColumns *c,
                   const char         *path)
{
  double start = bench_now ();
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  g_assert_cmpint (fd, >=, 0);
  write_all (fd, c->times, c->n * sizeof (double));
  write_all (fd, c->ranks, c->n * sizeof (int32_t));
  if (c->starts != NULL)
    {
      write_all (fd, c->starts, c->n * sizeof (double));
      write_all (fd, c->threads, c->n * sizeof (int32_t));
    }
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);
  return bench_now () - start;
}

static void
write_column (hid_t       file,
              const char *name,
              hid_t       type,
              const void *data,
              size_t      n)
{
  hsize_t dims[1] = { n };
  hid_t space = H5Screate_simple (1, dims, NULL);
  hid_t dset = H5Dcreate2 (file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);

  g_assert_cmpint (dset, >=, 0);
  g_assert_cmpint (H5Dwrite (dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), >=, 0);
  H5Dclose (dset);
  H5Sclose (space);
}

void
bench_write_plain_h5 (const BenchColumns *c,
                      const char         *path)
{
  hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);

  g_assert_cmpint (file, >=, 0);
  write_column (file, "times", H5T_NATIVE_DOUBLE, c->times, c->n);
  write_column (file, "ranks", H5T_NATIVE_INT32, c->ranks, c->n);
  if (c->starts != NULL)
    {
      write_column (file, "starts", H5T_NATIVE_DOUBLE, c->starts, c->n);
      write_column (file, "threads", H5T_NATIVE_INT32, c->threads, c->n);
    }
  H5Fclose (file);
}

static herr_t
read_column (hid_t             file,
             const char       *name,
             const H5L_info_t *info,
             void             *data)
{
  hid_t dset = H5Dopen2 (file, name, H5P_DEFAULT);
  hid_t space = H5Dget_space (dset);
  hid_t type = H5Dget_type (dset);
  hid_t mem_type = H5Tget_class (type) == H5T_FLOAT ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT32;
  hssize_t n = H5Sget_simple_extent_npoints (space);
  void *values = g_malloc ((gsize) n * H5Tget_size (mem_type) + 1);

  g_assert_cmpint (H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), >=, 0);
  g_free (values);
  H5Tclose (type);
  H5Sclose (space);
  H5Dclose (dset);
  return 0;
}

double
bench_read_plain_h5 (const char *path)
{
  double start = bench_now ();
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);

  g_assert_cmpint (file, >=, 0);
  g_assert_cmpint (H5Literate (file, H5_INDEX_NAME, H5_ITER_INC, NULL, read_column, NULL), >=, 0);
  H5Fclose (file);
  return bench_now () - start;
}

double
bench_run_process (const char *const *argv)
{
  GError *error = NULL;
  int status = 0;
  double start = bench_now ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error))
    g_error ("%s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s %s failed (wait status %d)", argv[0], argv[1], status);
  return bench_now () - start;
}

/* One member read whole by bench_read_plain_profile(): its values, kept
 * until the clock has stopped. */
typedef struct
{
  void   *values;
  hid_t   mem_type;  /* a variable-length string type, or -1 */
  hsize_t n;
} PlainMember;

static herr_t
read_member (hid_t             group,
             const char       *name,
             const H5L_info_t *info,
             void             *data)
{
  GArray *members = data;
  hid_t dset = H5Dopen2 (group, name, H5P_DEFAULT);
  hid_t space = H5Dget_space (dset);
  hid_t type = H5Dget_type (dset);
  H5T_class_t klass = H5Tget_class (type);
  PlainMember m = { NULL, -1, (hsize_t) H5Sget_simple_extent_npoints (space) };
  hid_t mem_type;

  if (klass == H5T_STRING)
    {
      /* the names: UTF-8 strings of variable length, as tprof writes them */
      m.mem_type = mem_type = H5Tcopy (H5T_C_S1);
      H5Tset_size (mem_type, H5T_VARIABLE);
      H5Tset_cset (mem_type, H5T_CSET_UTF8);
      m.values = g_malloc (m.n * sizeof (char *) + 1);
    }
  else
    {
      mem_type = klass == H5T_FLOAT ? H5T_NATIVE_DOUBLE
                 : H5Tget_size (type) == 8 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32;
      m.values = g_malloc (m.n * H5Tget_size (mem_type) + 1);
    }
  g_assert_cmpint (H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.values), >=, 0);
  g_array_append_val (members, m);
  H5Tclose (type);
  H5Sclose (space);
  H5Dclose (dset);
  return 0;
}

double
bench_read_plain_profile (const char *path)
{
  static const char *const groups[] = { "operations", "segments", "samples" };
  GArray *members = g_array_new (FALSE, FALSE, sizeof (PlainMember));
  double start = bench_now (), seconds;
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);

  g_assert_cmpint (file, >=, 0);
  for (size_t i = 0; i < G_N_ELEMENTS (groups); i++)
    {
      hid_t group = H5Gopen2 (file, groups[i], H5P_DEFAULT);

      g_assert_cmpint (group, >=, 0);
      g_assert_cmpint (H5Literate (group, H5_INDEX_NAME, H5_ITER_INC, NULL, read_member, members), >=, 0);
      H5Gclose (group);
    }
  H5Fclose (file);
  seconds = bench_now () - start;
  /* what was read, let go of once the clock has stopped */
  for (guint i = 0; i < members->len; i++)
    {
      PlainMember *m = &g_array_index (members, PlainMember, i);

      if (m->mem_type >= 0)
        {
          hid_t space = H5Screate_simple (1, &m->n, NULL);

          H5Dvlen_reclaim (m->mem_type, space, H5P_DEFAULT, m->values);
          H5Sclose (space);
          H5Tclose (m->mem_type);
        }
      g_free (m->values);
    }
  g_array_free (members, TRUE);
  return seconds;
}
