/* tprof-preload-hang.c — the hang watchdog of libtprof-preload.so: names WORLD and SELF at MPI_Init, names each new communicator after its parent. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include <mpi.h>

#include "tprof-preload-private.h"

_Static_assert (sizeof (int) == sizeof (int32_t), "MPI ranks are stored as int32_t");

void
_tprof_preload_hang_start (TprofTimeManager *tm)
{
  double timeout;
  int rank = 0, size = 1;

  if (_tprof_hang_timeout_from_env (&timeout) != 0 || timeout == 0)
    return;
  PMPI_Comm_rank (MPI_COMM_WORLD, &rank);
  PMPI_Comm_size (MPI_COMM_WORLD, &size);
  _tprof_hang_track_start (rank, size, (TprofHangComm) MPI_COMM_WORLD, (TprofHangComm) MPI_COMM_SELF);
  _tprof_hang_watch_start (timeout, _tprof_hang_spill_fd (tm), rank);
}

/* The world ranks of @comm's members, in its rank order; NULL when out of
 * memory. For an intercommunicator, its local group. */
static int32_t *
world_members (MPI_Comm comm, int *n)
{
  MPI_Group group, world;
  int *ranks;
  int32_t *members;

  PMPI_Comm_group (comm, &group);
  PMPI_Group_size (group, n);
  ranks = malloc ((size_t) *n * sizeof *ranks);
  members = malloc ((size_t) *n * sizeof *members);
  if (ranks != NULL && members != NULL)
    {
      PMPI_Comm_group (MPI_COMM_WORLD, &world);
      for (int i = 0; i < *n; i++)
        ranks[i] = i;
      PMPI_Group_translate_ranks (group, *n, ranks, world, (int *) members);
      PMPI_Group_free (&world);
    }
  else
    {
      free (members);
      members = NULL;
    }
  PMPI_Group_free (&group);
  free (ranks);
  return members;
}

void
_tprof_preload_comm_created (MPI_Comm parent, MPI_Comm child)
{
  int32_t *members;
  int n = 0;

  if (child == MPI_COMM_NULL)
    {
      _tprof_hang_comm_created ((TprofHangComm) parent, 0, 0, NULL, 0);
      return;
    }
  members = world_members (child, &n);
  _tprof_hang_comm_created ((TprofHangComm) parent, (TprofHangComm) child, 1, members,
                            members != NULL ? (size_t) n : 0);
  free (members);
}
