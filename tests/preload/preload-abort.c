/* preload-abort.c — an MPI program whose last rank calls MPI_Abort while the others wait in a barrier: the run must end, with the abort's status and no profile. */
/* SPDX-License-Identifier: MIT */
#include <mpi.h>

int
main (int argc, char **argv)
{
  int rank, size;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == size - 1)
    MPI_Abort (MPI_COMM_WORLD, 7);
  MPI_Barrier (MPI_COMM_WORLD);
  MPI_Finalize ();
  return 0;
}
