/* bench-preload.c — what libtprof-preload.so adds to an MPI call: the same call through MPI_ (timed) and PMPI_ (not), alternating in one run. Run it under tprof-run. */
/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mpi.h>

#define BLOCKS 15
#define CALLS 100000
#define TARGET_NS 100.0

typedef int (*Call) (void);

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
iprobe_wrapped (void)
{
  int flag;

  return MPI_Iprobe (MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static int
iprobe_plain (void)
{
  int flag;

  return PMPI_Iprobe (MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static int
allreduce_wrapped (void)
{
  int in = 1, out;

  return MPI_Allreduce (&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
}

static int
allreduce_plain (void)
{
  int in = 1, out;

  return PMPI_Allreduce (&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
}

/* Seconds per call of one block. */
static double
block (Call call)
{
  double start = now ();

  for (int i = 0; i < CALLS; i++)
    call ();
  return (now () - start) / CALLS;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median of @n block times (sorts them). */
static double
median (double *values, int n)
{
  qsort (values, n, sizeof values[0], compare_doubles);
  return values[n / 2];
}

/* What the hang tracking adds on top of the preload: blocks of the plain
 * call, of the timed call with the tracking off and with it on (its flag
 * switched between blocks) alternate; the tracking's added time per call
 * is compared with the preload's own. */
static void
measure_hang (const char *name, Call wrapped, Call plain, int *tracking)
{
  double without[BLOCKS], off[BLOCKS], on[BLOCKS], preload_ns, hang_ns, preload_min, hang_min;

  for (int b = 0; b < BLOCKS; b++)
    {
      without[b] = block (plain);
      __atomic_store_n (tracking, 0, __ATOMIC_RELAXED);
      off[b] = block (wrapped);
      __atomic_store_n (tracking, 1, __ATOMIC_RELAXED);
      on[b] = block (wrapped);
    }
  preload_ns = (median (off, BLOCKS) - median (without, BLOCKS)) * 1e9;
  hang_ns = (median (on, BLOCKS) - median (off, BLOCKS)) * 1e9;
  /* the fastest blocks, sorted first: the least disturbed by other load */
  preload_min = (off[0] - without[0]) * 1e9;
  hang_min = (on[0] - off[0]) * 1e9;
  printf ("%-14s hang tracking: %7.1f ns profiled, %7.1f ns profiled and tracked: %+6.1f ns per call "
          "on top of the preload's %+.1f ns, ratio %.2f (fastest blocks: %+.1f ns on %+.1f ns, ratio %.2f)\n",
          name, off[BLOCKS / 2] * 1e9, on[BLOCKS / 2] * 1e9, hang_ns, preload_ns,
          preload_ns > 0 ? hang_ns / preload_ns : NAN, hang_min, preload_min,
          preload_min > 0 ? hang_min / preload_min : NAN);
}

/* Blocks of the plain and the timed call alternate, so that the machine's
 * noise falls on both alike; the medians are compared. */
static int
measure (const char *name, Call wrapped, Call plain)
{
  double with[BLOCKS], without[BLOCKS], added;

  block (wrapped);
  block (plain);
  for (int b = 0; b < BLOCKS; b++)
    {
      without[b] = block (plain);
      with[b] = block (wrapped);
    }
  qsort (with, BLOCKS, sizeof with[0], compare_doubles);
  qsort (without, BLOCKS, sizeof without[0], compare_doubles);
  added = (with[BLOCKS / 2] - without[BLOCKS / 2]) * 1e9;
  printf ("%-14s %7.1f ns plain (PMPI_), %7.1f ns profiled: %+6.1f ns per call, "
          "ratio %.2f (min %+.1f ns)  target <= %.0f ns: %s\n",
          name, without[BLOCKS / 2] * 1e9, with[BLOCKS / 2] * 1e9, added,
          with[BLOCKS / 2] / without[BLOCKS / 2], (with[0] - without[0]) * 1e9, TARGET_NS,
          added <= TARGET_NS ? "met" : "NOT met");
  return added <= TARGET_NS;
}

int
main (int argc, char **argv)
{
  int met = 1;
  int *tracking;

  MPI_Init (&argc, &argv);
  if (dlsym (RTLD_DEFAULT, "_tprof_preload_manager") == NULL)
    {
      fprintf (stderr, "bench-preload: libtprof-preload.so is not loaded; run it as "
                       "tprof-run -o /dev/null ... bench-preload\n");
      MPI_Finalize ();
      return 2;
    }
  printf ("bench-preload: %d blocks of %d calls, medians\n", BLOCKS, CALLS);
  met &= measure ("MPI_Iprobe", iprobe_wrapped, iprobe_plain);
  met &= measure ("MPI_Allreduce", allreduce_wrapped, allreduce_plain);
  /* TPROF_HANG_TIMEOUT set: the hang tracking is on, and can be switched */
  tracking = dlsym (RTLD_DEFAULT, "_tprof_hang_tracking");
  if (tracking != NULL && __atomic_load_n (tracking, __ATOMIC_RELAXED))
    {
      measure_hang ("MPI_Iprobe", iprobe_wrapped, iprobe_plain, tracking);
      measure_hang ("MPI_Allreduce", allreduce_wrapped, allreduce_plain, tracking);
    }
  else
    printf ("bench-preload: TPROF_HANG_TIMEOUT is not set: the hang tracking is not measured\n");
  MPI_Finalize ();
  return met ? 0 : 1;
}
