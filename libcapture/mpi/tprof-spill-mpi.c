/* tprof-spill-mpi.c — spilling as a rank of a job: the clock offset to rank 0 and rank 0's job token, agreed once over MPI. */
/* SPDX-License-Identifier: MIT */
#include <tprof/capture-mpi.h>

#include "tprof-gather-mpi-private.h"
#include "tprof-spill-internal.h"

int
tprof_time_manager_set_spill_mpi (TprofTimeManager *tm,
                                  MPI_Comm          comm,
                                  const char       *directory,
                                  double            interval_seconds,
                                  TprofError       *error)
{
  TprofSpillIdentity id = { 0, 1, 0, 0.0, 0.0 };
  TprofClockOffset offset = { 0.0, 0.0 };
  unsigned long long token = 0;
  MPI_Comm dup = MPI_COMM_NULL;
  int rc;

  if (_tprof_gather_check_comm (comm, error) != 0)
    return -1;
  /* a communicator of our own: the pings' tags never meet the caller's */
  rc = MPI_Comm_dup (comm, &dup);
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_rank (dup, &id.rank);
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_size (dup, &id.world_size);
  if (rc == MPI_SUCCESS)
    rc = _tprof_mpi_clock_offset (dup, &offset);
  if (rc == MPI_SUCCESS && id.rank == 0)
    token = _tprof_spill_new_token ();
  if (rc == MPI_SUCCESS)
    rc = MPI_Bcast (&token, 1, MPI_UNSIGNED_LONG_LONG, 0, dup);
  if (dup != MPI_COMM_NULL)
    MPI_Comm_free (&dup);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Send/MPI_Recv/MPI_Bcast", "agreeing on the spill's clock and job");
  id.job_token = token;
  id.clock_offset = offset.offset;
  id.clock_offset_error = offset.error;
  return _tprof_time_manager_set_spill_as (tm, directory, interval_seconds, &id, error);
}
