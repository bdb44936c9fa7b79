/* capture-mpi.h — gathering every rank's TprofTimeManager over MPI, and saving it in parallel (libtprof-capture-mpi). */
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

/* Collective over @comm: saves every rank's @tm into the one HDF5 file
 * @path (format 3, docs/file-format.md) without gathering the samples:
 * rank 0 writes the file's metadata and cached statistics, every rank
 * writes its own samples into it with MPI-IO, and rank 0 renames the
 * finished file over @path. No rank holds more than its own samples plus
 * O(operations x ranks) numbers (rank 0), and a sorted copy of at most
 * 2^21 of its own samples (more only for one larger operation).
 * The file equals in content what tprof_time_manager_gather() to rank 0
 * and tprof_profiled_time_save() would write (sums and the std may
 * differ in the last bits: they are summed in another order).
 * Every rank must pass the same @path, naming a place that every rank
 * reaches under that name (a shared file system). Like the save, it
 * writes a temporary file beside @path and replaces @path only when
 * every rank's samples are durable; only a regular file is replaced.
 * Returns 0 on every rank, or -1 on every rank with the same message in
 * @error (the failing rank's own, or "rank N failed: ..."), and any
 * earlier file at @path untouched. Other threads may keep recording into
 * @tm meanwhile (what they add after the read is left out); a rank that
 * never calls it leaves the others waiting, as for the gather. */
TPROF_EXPORT int tprof_time_manager_save_parallel (TprofTimeManager *tm,
                                                   MPI_Comm          comm,
                                                   const char       *path,
                                                   TprofError       *error);

/* tprof_time_manager_set_spill() (<tprof/tprof-spill.h>) as this rank of
 * @comm: collective over @comm (every rank calls it with the same
 * arguments). Each rank's clock offset to rank 0 of @comm is estimated
 * once, by the ping-pong tree tprof_time_manager_gather() uses, and rank
 * 0's new job token is broadcast, so that every rank's file names the
 * same job and says how to put its times on rank 0's clock. The spill
 * thread then calls no MPI. Returns 0, or -1 with @error (an MPI failure,
 * on every rank, or this rank's own refusal, as for
 * tprof_time_manager_set_spill()). */
TPROF_EXPORT int tprof_time_manager_set_spill_mpi (TprofTimeManager *tm,
                                                   MPI_Comm          comm,
                                                   const char       *directory,
                                                   double            interval_seconds,
                                                   TprofError       *error);

TPROF_END_DECLS
