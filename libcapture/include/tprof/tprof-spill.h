/* tprof-spill.h — spilling: a running process appends its new samples to a file every few seconds, so that a kill or a crash still leaves them. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <tprof/tprof-error.h>
#include <tprof/tprof-macros.h>
#include <tprof/tprof-time-manager.h>

TPROF_BEGIN_DECLS

/* The interval of TPROF_SPILL_INTERVAL when it is unset, in seconds. */
#define TPROF_SPILL_DEFAULT_INTERVAL 10.0

/* Starts spilling @tm: a background thread appends, every
 * @interval_seconds (finite, > 0), the samples recorded since its last
 * flush to @directory/tprof-JOB-RANK.spill (docs/spill-format.md: a
 * checksummed journal that a kill at any instant leaves readable up to
 * its last complete flush), then syncs it to disk. @directory is created
 * (with its parents) when missing. Without MPI the file says rank 0 of a
 * world of 1 and a random job token; tprof_time_manager_set_spill_mpi()
 * (<tprof/capture-mpi.h>) makes it a rank of a job. The thread takes no
 * lock the recording path takes and calls no MPI.
 *
 * It also installs signal handlers, chained to those before them:
 * SIGTERM and SIGINT flush (waiting for the thread at most a few seconds),
 * then take their previous course (default: the process dies of the
 * signal); SIGUSR1 flushes and the process goes on; SIGSEGV, SIGBUS and
 * SIGABRT write a SIGNAL record and what they can of the samples, raw,
 * without malloc or locks, then take their previous course.
 *
 * The spill ends at tprof_time_manager_end_spill() or _free(): a last
 * flush, an END record, and the file is removed unless the environment
 * has TPROF_KEEP_SPILL=1. Returns 0, or -1 with @error (an interval out
 * of range, a directory that cannot be created or written, a manager
 * already spilling). */
TPROF_EXPORT int tprof_time_manager_set_spill (TprofTimeManager *tm,
                                               const char       *directory,
                                               double            interval_seconds,
                                               TprofError       *error);

/* Ends @tm's spill cleanly: stops its thread, flushes what is left, writes
 * an END record naming @profile_path (where the profile was written; NULL
 * or "" when it was not) and removes the file unless TPROF_KEEP_SPILL=1.
 * A manager that does not spill: nothing happens. */
TPROF_EXPORT void tprof_time_manager_end_spill (TprofTimeManager *tm,
                                                const char       *profile_path);

/* The file @tm spills to (valid until the spill ends), or NULL. */
TPROF_EXPORT const char *tprof_time_manager_get_spill_path (TprofTimeManager *tm);

TPROF_END_DECLS
