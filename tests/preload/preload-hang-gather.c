/* preload-hang-gather.c — a libtprof-capture-mpi program that hangs in tprof's own gather: rank SKIPPER never calls it and sleeps. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>
#include <tprof/capture-mpi.h>

/* Usage: preload-hang-gather SKIPPER
 * WORLD's collectives: the barrier (1), then the gather (2), which
 * SKIPPER never enters. */
int
main (int argc, char **argv)
{
  int rank, skipper = argc > 1 ? atoi (argv[1]) : 1;
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error = { 0 };

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  tm = tprof_time_manager_new ();
  tprof_time_manager_enable (tm);
  {
    TPROF_SCOPE ("step");
    usleep (1000);
  }
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == skipper)
    {
      fprintf (stderr, "preload-hang-gather: rank %d skips the gather and sleeps\n", rank);
      sleep (600);
    }
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, 0, &error);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  MPI_Finalize ();
  return 0;
}
