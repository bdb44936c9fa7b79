/* preload-hang.c — an MPI program that hangs on purpose: on a duplicate of WORLD, rank SKIPPER skips its third MPI_Allreduce and sleeps, the others wait in it. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>

/* Usage: preload-hang SKIPPER
 * Collectives on "WORLD.1" (the first communicator made over WORLD): the
 * split below is the first creation over WORLD.1, then allreduces 1, 2, 3
 * there (the split is WORLD.1's collective 1, so they are its 2, 3, 4);
 * SKIPPER leaves out the one numbered 4 on WORLD.1. */
int
main (int argc, char **argv)
{
  MPI_Comm work, half;
  int rank, skipper = argc > 1 ? atoi (argv[1]) : 2;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Barrier (MPI_COMM_WORLD);
  MPI_Comm_dup (MPI_COMM_WORLD, &work);
  MPI_Comm_split (work, rank % 2, rank, &half);
  for (int step = 1; step <= 3; step++)
    {
      int in = rank, out = 0;

      if (rank == skipper && step == 3)
        {
          fprintf (stderr, "preload-hang: rank %d skips allreduce %d and sleeps\n", rank, step);
          sleep (600);
        }
      MPI_Allreduce (&in, &out, 1, MPI_INT, MPI_SUM, work);
    }
  MPI_Comm_free (&half);
  MPI_Comm_free (&work);
  MPI_Finalize ();
  return 0;
}
