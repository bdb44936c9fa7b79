/* bench-clock-align.c — what aligning the ranks' clocks adds to a gather (tree ping-pong + one allgather), against one MPI_Barrier, in the same run. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "tprof-gather-mpi-private.h"

#define REPS 21

static double worst_error;  /* the largest error bound of the last alignment */

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Median over the ranks' slowest of @REPS runs of @run, in seconds. */
static double
median_time (void (*run) (TprofGather *g), TprofGather *g)
{
  double t[REPS];

  for (int i = 0; i < REPS; i++)
    {
      double start, elapsed;

      MPI_Barrier (MPI_COMM_WORLD);
      start = MPI_Wtime ();
      run (g);
      elapsed = MPI_Wtime () - start;
      MPI_Allreduce (&elapsed, &t[i], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
  qsort (t, REPS, sizeof *t, compare_doubles);
  return t[REPS / 2];
}

static void
run_barrier (TprofGather *g)
{
  MPI_Barrier (g->comm);
}

static void
run_align (TprofGather *g)
{
  TprofError error = { 0 };

  if (_tprof_gather_sync_clocks (g, &error) < 0)
    {
      fprintf (stderr, "bench-clock-align: %s\n", error.message);
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
  worst_error = 0.0;
  for (int r = 0; g->timeline.errors != NULL && r < g->size; r++)
    worst_error = g->timeline.errors[r] > worst_error ? g->timeline.errors[r] : worst_error;
  free (g->timeline.offsets);
  free (g->timeline.errors);
  g->timeline.offsets = g->timeline.errors = NULL;
}

int
main (int argc, char **argv)
{
  TprofGather g;
  double barrier, align;

  MPI_Init (&argc, &argv);
  memset (&g, 0, sizeof g);
  g.comm = MPI_COMM_WORLD;
  MPI_Comm_rank (g.comm, &g.rank);
  MPI_Comm_size (g.comm, &g.size);
  g.receiving = g.rank == 0;
  g.meta = calloc ((size_t) g.size * TPROF_GATHER_META_N, sizeof *g.meta);
  for (int r = 0; r < g.size; r++)
    g.meta[r * TPROF_GATHER_META_N + TPROF_GATHER_META_TIMELINE] = 1;

  barrier = median_time (run_barrier, &g);
  align = median_time (run_align, &g);
  if (g.rank == 0)
    printf ("bench-clock-align: %d ranks: clock alignment %.1f us = %.1fx one MPI_Barrier (%.1f us); "
            "error bound of the farthest rank %.3g us\n",
            g.size, align * 1e6, barrier > 0 ? align / barrier : 0.0, barrier * 1e6, worst_error * 1e6);
  free (g.meta);
  MPI_Finalize ();
  return 0;
}
