/* tprof-preload-private.h — what the MPI wrappers of libtprof-preload.so share with its life cycle. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <tprof/capture.h>

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
