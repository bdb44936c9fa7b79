/* tprof-preload-spill.c — the preload's spill: started at MPI_Init when TPROF_SPILL_DIR is set, ended at MPI_Finalize after the profile. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <tprof/capture-mpi.h>

#include "tprof-preload-private.h"
#include "tprof-spill-internal.h"

/* Every rank reads the same environment, so every rank takes part in
 * the collective start or none does; a bad TPROF_SPILL_INTERVAL is said
 * (by rank 0) and the default taken, so that none is left out. Runs
 * before the wrappers record: its own MPI calls are not profiled. */
void
_tprof_preload_spill_start (TprofTimeManager *tm)
{
  const char *dir = getenv ("TPROF_SPILL_DIR");
  char message[160];
  double interval;
  TprofError error = { 0 };
  int rank = 0;

  if (dir == NULL || dir[0] == '\0')
    return;
  PMPI_Comm_rank (MPI_COMM_WORLD, &rank);
  if (!_tprof_spill_env_interval (&interval, message, sizeof message) && rank == 0)
    fprintf (stderr, "tprof: %s; spilling every %g s\n", message, interval);
  if (tprof_time_manager_set_spill_mpi (tm, MPI_COMM_WORLD, dir, interval, &error) != 0)
    fprintf (stderr, "tprof: rank %d does not spill: %s\n", rank, error.message);
}

/* After the profile: @path is where this rank knows it was written (rank
 * 0, or every rank of a parallel save), NULL otherwise. */
void
_tprof_preload_spill_end (TprofTimeManager *tm, const char *path)
{
  tprof_time_manager_end_spill (tm, path);
}
