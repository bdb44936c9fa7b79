/* bench-spill.c — what spilling costs: the recording path beside the spill thread, one flush against write()+fsync(), and HDF5's appends. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <hdf5.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tprof/capture.h>

#include "tprof-spill-internal.h"

/* Usage: bench-spill [DIR]  (DIR: where files go; default /tmp). Every
 * figure is a median of rounds that alternate with their baseline. */

#define ROUNDS 11
#define SCOPES_PER_THREAD 2000000
#define FLUSH_SAMPLES 1000000

static const char *dir = "/tmp";

/* CPU seconds of the calling thread: time other processes take from it
 * on a shared machine is left out. */
static double
thread_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* CPU seconds of the whole process, threads that have ended included. */
static double
process_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, compare_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- the recording path, with and without a spill thread ---- */

typedef struct
{
  TprofTimeManager *tm;
  double            ns;  /* per scope */
} Recorder;

static void *
record (void *data)
{
  Recorder *r = data;
  double t0;

  tprof_time_manager_enable (r->tm);
  t0 = thread_cpu ();
  for (int i = 0; i < SCOPES_PER_THREAD; i++)
    {
      TPROF_SCOPE ("bench.scope");
      __asm__ volatile ("" ::: "memory");
    }
  r->ns = (thread_cpu () - t0) * 1e9 / SCOPES_PER_THREAD;
  tprof_time_manager_disable (r->tm);
  return NULL;
}

/* the last round's recording threads' CPU seconds, summed */
static double recorders_cpu;

/* ns per scope, the slowest of @threads threads recording at once. */
static double
record_round (TprofTimeManager *tm, int threads)
{
  pthread_t tids[2];
  Recorder rec[2];
  double slowest = 0;

  recorders_cpu = 0;
  for (int t = 0; t < threads; t++)
    {
      rec[t] = (Recorder) { tm, 0 };
      pthread_create (&tids[t], NULL, record, &rec[t]);
    }
  for (int t = 0; t < threads; t++)
    {
      pthread_join (tids[t], NULL);
      slowest = rec[t].ns > slowest ? rec[t].ns : slowest;
      recorders_cpu += rec[t].ns * 1e-9 * SCOPES_PER_THREAD;
    }
  return slowest;
}

/* A round of @tm: its recording threads' slowest ns per scope; in
 * *@rest the CPU time of the rest of the process until its spill, if
 * any, has ended (the spill thread, its last flush, the file's removal;
 * the threads' start and end either way) over the recording threads'. */
static double
record_measured (TprofTimeManager *tm, int threads, double *rest)
{
  double cpu = process_cpu (), slowest = record_round (tm, threads);

  tprof_time_manager_end_spill (tm, NULL);
  *rest = (process_cpu () - cpu - recorders_cpu) / recorders_cpu;
  return slowest;
}

static void
bench_recording (int threads, double interval)
{
  double plain[ROUNDS], spilled[ROUNDS], share[ROUNDS], plain_share[ROUNDS];
  char sub[4096];

  snprintf (sub, sizeof sub, "%s/bench-spill-rec", dir);
  for (int r = 0; r < ROUNDS; r++)
    {
      TprofTimeManager *a = tprof_time_manager_new (), *b = tprof_time_manager_new ();
      TprofError error = { 0 };

      if (tprof_time_manager_set_spill (b, sub, interval, &error) != 0)
        {
          fprintf (stderr, "bench-spill: %s\n", error.message);
          exit (1);
        }
      /* alternate which goes first: the machine's drift falls on both */
      if (r % 2 == 0)
        {
          plain[r] = record_measured (a, threads, &plain_share[r]);
          spilled[r] = record_measured (b, threads, &share[r]);
        }
      else
        {
          spilled[r] = record_measured (b, threads, &share[r]);
          plain[r] = record_measured (a, threads, &plain_share[r]);
        }
      tprof_time_manager_free (a);
      tprof_time_manager_free (b);
    }
  printf ("TPROF_SCOPE, %d thread%s, spill every %g s: %.2f ns vs %.2f ns without (CPU time of the slowest "
          "recording thread): ratio %.3f\n", threads,
          threads == 1 ? "" : "s", interval, median (spilled, ROUNDS), median (plain, ROUNDS),
          median (spilled, ROUNDS) / median (plain, ROUNDS));
  printf ("  the rest of the process's CPU time over the recording threads': %.2f %% spilling (its thread, "
          "its last flush), %.2f %% not\n", 100 * median (share, ROUNDS), 100 * median (plain_share, ROUNDS));
}

/* ---- one flush of 10^6 samples against write()+fsync() of their bytes ---- */

static double
write_fsync (const char *path, const void *bytes, size_t n)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  double t0 = now ();

  if (fd < 0 || write (fd, bytes, n) != (ssize_t) n || fsync (fd) != 0)
    {
      perror (path);
      exit (1);
    }
  t0 = now () - t0;
  close (fd);
  unlink (path);
  return t0;
}

static double
spill_flush_once (bool raw)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofError error = { 0 };
  char sub[4096];
  double t0;
  int rc;

  snprintf (sub, sizeof sub, "%s/bench-spill-flush", dir);
  if (tprof_time_manager_set_spill (tm, sub, 1e6, &error) != 0)
    {
      fprintf (stderr, "bench-spill: %s\n", error.message);
      exit (1);
    }
  tprof_time_manager_enable (tm);
  for (int i = 0; i < FLUSH_SAMPLES; i++)
    {
      TPROF_SCOPE ("bench.flush");
      __asm__ volatile ("" ::: "memory");
    }
  tprof_time_manager_disable (tm);
  t0 = now ();
  rc = _tprof_spill_flush_now (tm, raw);
  t0 = now () - t0;
  if (rc != 0)
    {
      fprintf (stderr, "bench-spill: flush failed: %s\n", strerror (-rc));
      exit (1);
    }
  tprof_time_manager_free (tm);
  return t0;
}

/* ---- HDF5: the same samples appended to two extendible datasets ---- */

static hid_t
extendible (hid_t file, const char *name)
{
  hsize_t dims = 0, max = H5S_UNLIMITED, chunk = 65536;
  hid_t space = H5Screate_simple (1, &dims, &max), dcpl = H5Pcreate (H5P_DATASET_CREATE), dset;

  H5Pset_chunk (dcpl, 1, &chunk);
  dset = H5Dcreate2 (file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Pclose (dcpl);
  H5Sclose (space);
  return dset;
}

static void
append (hid_t dset, const double *values, hsize_t n)
{
  hsize_t old = 0, size;
  hid_t space = H5Dget_space (dset), mem;

  H5Sget_simple_extent_dims (space, &old, NULL);
  H5Sclose (space);
  size = old + n;
  H5Dset_extent (dset, &size);
  space = H5Dget_space (dset);
  H5Sselect_hyperslab (space, H5S_SELECT_SET, &old, NULL, &n, NULL);
  mem = H5Screate_simple (1, &n, NULL);
  H5Dwrite (dset, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, values);
  H5Sclose (mem);
  H5Sclose (space);
}

/* One flush's worth appended and made durable: H5Fflush, then fsync of
 * the file (HDF5's own flush does not sync). @swmr: in SWMR mode. */
static double
hdf5_flush_once (const double *durations, const double *starts, bool swmr)
{
  char path[4096];
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS), file, d1, d2;
  double t0;
  int fd;

  snprintf (path, sizeof path, "%s/bench-spill.h5", dir);
  if (swmr)
    H5Pset_libver_bounds (fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  d1 = extendible (file, "durations");
  d2 = extendible (file, "starts");
  if (swmr)
    H5Fstart_swmr_write (file);
  H5Fflush (file, H5F_SCOPE_GLOBAL);
  t0 = now ();
  append (d1, durations, FLUSH_SAMPLES);
  append (d2, starts, FLUSH_SAMPLES);
  H5Fflush (file, H5F_SCOPE_GLOBAL);
  fd = open (path, O_RDONLY);
  fsync (fd);
  t0 = now () - t0;
  close (fd);
  H5Dclose (d1);
  H5Dclose (d2);
  H5Fclose (file);
  H5Pclose (fapl);
  unlink (path);
  return t0;
}

static void
bench_flush (void)
{
  size_t bytes = (size_t) FLUSH_SAMPLES * 16 + 16 * 16;  /* the samples and their records' heads */
  double *buf = malloc (bytes), base[ROUNDS], secs[ROUNDS], raw[ROUNDS], h5[ROUNDS], swmr[ROUNDS];
  char path[4096];

  snprintf (path, sizeof path, "%s/bench-spill-baseline", dir);
  for (size_t i = 0; i < bytes / sizeof *buf; i++)
    buf[i] = (double) i * 1e-7;
  for (int r = 0; r < ROUNDS; r++)
    {
      base[r] = write_fsync (path, buf, bytes);
      secs[r] = spill_flush_once (false);
      raw[r] = spill_flush_once (true);
      h5[r] = hdf5_flush_once (buf, buf + FLUSH_SAMPLES, false);
      swmr[r] = hdf5_flush_once (buf, buf + FLUSH_SAMPLES, true);
    }
  printf ("write()+fsync() of %zu bytes: %.2f ms (baseline)\n", bytes, median (base, ROUNDS) * 1e3);
  printf ("spill flush of 10^6 samples, converted to seconds (the spill thread's): %.2f ms: ratio %.3f\n",
          median (secs, ROUNDS) * 1e3, median (secs, ROUNDS) / median (base, ROUNDS));
  printf ("spill flush of 10^6 samples, raw ticks + CLOCK (a crash handler's): %.2f ms: ratio %.3f\n",
          median (raw, ROUNDS) * 1e3, median (raw, ROUNDS) / median (base, ROUNDS));
  printf ("HDF5 chunked append of the same, H5Fflush + fsync: %.2f ms: ratio %.3f\n",
          median (h5, ROUNDS) * 1e3, median (h5, ROUNDS) / median (base, ROUNDS));
  printf ("HDF5 SWMR append of the same, H5Fflush + fsync: %.2f ms: ratio %.3f\n",
          median (swmr, ROUNDS) * 1e3, median (swmr, ROUNDS) / median (base, ROUNDS));
  free (buf);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    dir = argv[1];
  if (argc <= 2 || strcmp (argv[2], "--recording-only") != 0)
    bench_flush ();
  bench_recording (1, 0.05);
  bench_recording (2, 0.05);
  bench_recording (1, 1.0);
  bench_recording (2, 1.0);
  return 0;
}
