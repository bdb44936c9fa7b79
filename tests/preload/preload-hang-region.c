/* preload-hang-region.c — a libtprof-capture-mpi program that hangs outside MPI: rank SKIPPER sleeps in a region nested in another, the others wait in a barrier. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>
#include <tprof/capture-mpi.h>

/* Usage: preload-hang-region SKIPPER
 * After WORLD's barrier 1, SKIPPER opens the timer "solve", a second
 * later the scope "assemble" inside it, and sleeps there; the others wait
 * in barrier 2, which SKIPPER never enters. */
int
main (int argc, char **argv)
{
  int rank, skipper = argc > 1 ? atoi (argv[1]) : 3;
  TprofTimeManager *tm;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  tm = tprof_time_manager_new ();
  tprof_time_manager_enable (tm);
  {
    TPROF_SCOPE ("setup");
    usleep (1000);
  }
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == skipper)
    {
      TprofTimer solve = tprof_timer_start (tm, "solve");

      sleep (1);
      {
        TPROF_SCOPE ("assemble");
        fprintf (stderr, "preload-hang-region: rank %d skips the barrier and sleeps in a region\n", rank);
        sleep (600);
      }
      tprof_timer_stop (&solve);
    }
  MPI_Barrier (MPI_COMM_WORLD);
  tprof_time_manager_free (tm);
  MPI_Finalize ();
  return 0;
}
