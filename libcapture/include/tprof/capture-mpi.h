/* capture-mpi.h — gathering every rank's TprofTimeManager over MPI (libtprof-capture-mpi). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <mpi.h>

#include <tprof/capture.h>

TPROF_BEGIN_DECLS

#define TPROF_GATHER_ALL (-1)

/* Collective over @comm: every rank of @comm must call it with the same @dst;
 * when they differ, or @dst is not a rank of @comm nor TPROF_GATHER_ALL,
 * every rank fails with the same error (nothing hangs).
 * Collects the samples of every rank's @tm into one profile whose ranks are
 * ranks in @comm. Ranks may hold different names, in any order, or none.
 * On @dst (on every rank for TPROF_GATHER_ALL) returns the profile (caller
 * frees); elsewhere returns NULL with error->code == 0. On failure returns
 * NULL and fills @error, on every rank where the failure can be known.
 * Other threads may keep recording into @tm meanwhile (what they add after
 * the read is left out), but @tm must not be cleared or freed while the
 * gather runs.
 * Every rank of @comm must call it: a rank that never does leaves the
 * others waiting in its first collective (MPI_Comm_dup of @comm). To find
 * such a rank, look at where the waiting ranks stand (a debugger's
 * backtrace, or `mpiexec --timeout` with Open MPI's stack report), and at
 * which rank has not reached its call. */
TPROF_EXPORT TprofProfiledTime *tprof_time_manager_gather (TprofTimeManager *tm,
                                                           MPI_Comm          comm,
                                                           int               dst,
                                                           TprofError       *error);

TPROF_END_DECLS
