/* tprof-preload-private.h — what the MPI wrappers of libtprof-preload.so share with its life cycle. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <mpi.h>
#include <tprof/capture.h>

#include "tprof-hang-watch-internal.h"

/* The manager the wrappers record into: set at MPI_Init, NULL again from
 * the start of MPI_Finalize on (so that the final gather's own MPI calls,
 * and anything before MPI_Init, go straight to MPI). */
extern TprofTimeManager *_tprof_preload_manager;

static inline TprofTimeManager *
_tprof_preload_recording (void)
{
  return __atomic_load_n (&_tprof_preload_manager, __ATOMIC_ACQUIRE);
}

/* Spilling (tprof-preload-spill.c): started at MPI_Init when
 * TPROF_SPILL_DIR is set (collective), ended after the profile is saved,
 * naming @path where this rank knows it was written (else NULL). */
void _tprof_preload_spill_start (TprofTimeManager *tm);
void _tprof_preload_spill_end (TprofTimeManager *tm, const char *path);
/* The hang watchdog (tprof-preload-hang.c), when TPROF_HANG_TIMEOUT is set:
 * started once MPI is up and @tm spills, if it does. */
void _tprof_preload_hang_start (TprofTimeManager *tm);
/* Names @child (MPI_COMM_NULL on a rank the creation left out) after its
 * parent; an intercommunicator after its two groups. */
void _tprof_preload_comm_created (MPI_Comm parent, MPI_Comm child);
/* The same for MPI_Comm_idup's @child, not usable before its request
 * completes: its groups are @parent's. */
void _tprof_preload_comm_duplicated (MPI_Comm parent, MPI_Comm child);
/* Names @child, made by MPI_Comm_create_group over @parent with @tag. */
void _tprof_preload_comm_created_group (MPI_Comm parent, int tag, MPI_Comm child);
