/* straggler-barrier.c — ranks that sleep before a real MPI_Barrier, one of them longer (or a different one each time), gathered and saved with the timeline. */
/* SPDX-License-Identifier: MIT */
/* Usage: straggler-barrier OUT.h5 STRAGGLER LATE_MS ITERATIONS
 * STRAGGLER: the rank that sleeps LATE_MS longer at every iteration, or -1
 * for a different late rank at each iteration (in turn, so no rank stands
 * out). Sleeping rather than computing keeps the late rank late however
 * many ranks share a core. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mpi.h>
#include <tprof/capture-mpi.h>

static void
sleep_ms (double ms)
{
  struct timespec ts = { (time_t) (ms / 1000), (long) ((ms - 1000 * (time_t) (ms / 1000)) * 1e6) };

  while (nanosleep (&ts, &ts) != 0)
    ;
}

int
main (int argc, char **argv)
{
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error = { 0 };
  int rank, size, straggler, iterations, status = 0;
  double late_ms;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (argc != 5)
    {
      if (rank == 0)
        fprintf (stderr, "usage: straggler-barrier OUT.h5 STRAGGLER LATE_MS ITERATIONS\n");
      MPI_Finalize ();
      return 2;
    }
  straggler = atoi (argv[2]);
  late_ms = atof (argv[3]);
  iterations = atoi (argv[4]);

  tm = tprof_time_manager_new ();
  tprof_time_manager_enable (tm);
  MPI_Barrier (MPI_COMM_WORLD);
  for (int i = 0; i < iterations; i++)
    {
      int late = straggler >= 0 ? straggler : i % size;

      {
        TPROF_SCOPE ("work");
        sleep_ms (2.0 + (rank == late ? late_ms : 0.0));
      }
      {
        TPROF_SCOPE ("barrier");
        MPI_Barrier (MPI_COMM_WORLD);
      }
    }
  tprof_time_manager_disable (tm);

  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, 0, &error);
  if (rank == 0 && (pt == NULL || tprof_profiled_time_save (pt, argv[1], &error) != 0))
    {
      fprintf (stderr, "straggler-barrier: %s\n", error.message);
      status = 1;
    }
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  MPI_Finalize ();
  return status;
}
