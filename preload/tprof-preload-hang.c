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

/* The world ranks of @group's members, in its rank order, into a new
 * array (*@n of them); NULL when out of memory. Frees @group. */
static int32_t *
group_world_members (MPI_Group group, int *n)
{
  MPI_Group world;
  int *ranks;
  int32_t *members;

  PMPI_Group_size (group, n);
  ranks = malloc ((size_t) (*n > 0 ? *n : 1) * sizeof *ranks);
  members = malloc ((size_t) (*n > 0 ? *n : 1) * sizeof *members);
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

/* The world ranks of @comm's members (its local group for an
 * intercommunicator). */
static int32_t *
world_members (MPI_Comm comm, int *n)
{
  MPI_Group group;

  PMPI_Comm_group (comm, &group);
  return group_world_members (group, n);
}

/* Names @child, an intercommunicator whose groups are @groups_of's. */
static void
intercomm_created (MPI_Comm parent, MPI_Comm child, MPI_Comm groups_of)
{
  MPI_Group remote_group;
  int n_local = 0, n_remote = 0;
  int32_t *local = world_members (groups_of, &n_local), *remote;

  PMPI_Comm_remote_group (groups_of, &remote_group);
  remote = group_world_members (remote_group, &n_remote);
  if (local != NULL && remote != NULL)
    _tprof_hang_intercomm_created ((TprofHangComm) parent, (TprofHangComm) child, local, (size_t) n_local, remote,
                                   (size_t) n_remote);
  free (local);
  free (remote);
}

static int
is_inter (MPI_Comm comm)
{
  int flag = 0;

  PMPI_Comm_test_inter (comm, &flag);
  return flag;
}

/* @child's members are @members_of's (the child itself, or the parent of
 * a duplicate not usable yet). */
static void
comm_created (MPI_Comm parent, MPI_Comm child, MPI_Comm members_of)
{
  int32_t *members;
  int n = 0;

  if (child == MPI_COMM_NULL)
    {
      _tprof_hang_comm_created ((TprofHangComm) parent, 0, 0, NULL, 0);
      return;
    }
  if (is_inter (members_of))
    {
      intercomm_created (parent, child, members_of);
      return;
    }
  members = world_members (members_of, &n);
  _tprof_hang_comm_created ((TprofHangComm) parent, (TprofHangComm) child, 1, members,
                            members != NULL ? (size_t) n : 0);
  free (members);
}

void
_tprof_preload_comm_created (MPI_Comm parent, MPI_Comm child)
{
  comm_created (parent, child, child);
}

void
_tprof_preload_comm_duplicated (MPI_Comm parent, MPI_Comm child)
{
  comm_created (parent, child, parent);
}

void
_tprof_preload_comm_created_group (MPI_Comm parent, int tag, MPI_Comm child)
{
  int32_t *members;
  int n = 0;

  if (child == MPI_COMM_NULL)
    return;
  members = world_members (child, &n);
  if (members != NULL)
    _tprof_hang_comm_created_group ((TprofHangComm) parent, (TprofHangComm) child, tag, members, (size_t) n);
  free (members);
}
