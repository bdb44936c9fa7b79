/* tprof-hang-mpi.c — tprof's own collectives under the hang watchdog: a rank that never calls the gather is named like one that skips an MPI call. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>

#include "tprof-hang-mpi-private.h"

static pthread_once_t hang_once = PTHREAD_ONCE_INIT;
static TprofTimeManager *hang_manager;

/* Without libtprof-preload.so, tracking starts at tprof's first collective
 * when TPROF_HANG_TIMEOUT is set (spilling gives the watchdog its file). */
static void
hang_start_once (void)
{
  double timeout;
  int rank = 0, size = 1;

  if (__atomic_load_n (&_tprof_hang_tracking, __ATOMIC_ACQUIRE)
      || _tprof_hang_timeout_from_env (&timeout) != 0 || timeout == 0)
    return;
  PMPI_Comm_rank (MPI_COMM_WORLD, &rank);
  PMPI_Comm_size (MPI_COMM_WORLD, &size);
  _tprof_hang_track_start (rank, size, (TprofHangComm) MPI_COMM_WORLD, (TprofHangComm) MPI_COMM_SELF);
  _tprof_hang_watch_start (timeout, _tprof_hang_spill_fd (hang_manager), rank);
}

uint64_t
_tprof_hang_mpi_begin (TprofTimeManager *tm, const char *function, MPI_Comm comm)
{
  hang_manager = tm;
  pthread_once (&hang_once, hang_start_once);
  return _tprof_hang_call_begin_now (function, TPROF_HANG_COLLECTIVE, (TprofHangComm) comm);
}
