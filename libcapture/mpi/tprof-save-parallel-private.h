/* tprof-save-parallel-private.h — tprof_time_manager_save_parallel's state and stages, shared by its files. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof-gather-mpi-private.h"
#include "tprof-save-shell-internal.h"
#include "tprof-stats-parts-internal.h"

/* How a parallel save runs (HACKING.md, "Saving in parallel"):
 *
 *  1. the gather's frame on a duplicate of the communicator, with rank 0
 *     as the destination of its name exchange: every rank's name table
 *     (names, counts, host) reaches rank 0, which unites the names as the
 *     gather would, so each (rank, name) has an operation and a first
 *     index in it; the clocks are aligned as for the gather;
 *  2. rank 0 tells each rank where its samples go (MPI_Scatterv);
 *  3. the statistics the file caches, from per-rank sums (MPI_Gatherv),
 *     squared deviations (MPI_Reduce) and an exact counting search for
 *     the quantiles (a few dozen rounds of MPI_Bcast + MPI_Reduce);
 *  4. rank 0 writes the whole file but the samples, leaving contiguous
 *     room for them, and broadcasts where the room is;
 *  5. every rank writes its own samples into the room with MPI-IO, makes
 *     them durable and closes the file; rank 0 renames it over the target.
 *
 * Every stage ends at an agreement, so a failure on any rank fails every
 * rank with its message, and no rank waits for a call that never comes. */
typedef struct
{
  TprofGather          g;            /* dst 0: rank 0 receives the name tables */
  const char          *path;
  TprofGatherRead      read;
  TprofGatherLocal     local;

  /* every rank */
  size_t               n_ops;
  uint64_t            *place;        /* per local name: operation, then first index in it */
  double              *means;        /* per operation */
  double               origin;       /* the timeline's 0, on rank 0's clock */
  uint64_t            *offsets;      /* per operation, TPROF_H5_N_FIELDS file offsets */
  char                *tmp_path;

  /* rank 0 */
  TprofPartSums       *name_sums;    /* per (rank, name) of the name tables */
  size_t              *op_names;     /* per operation: its (rank, name) entries, in rank order */
  size_t              *op_name_base; /* per operation + 1 */
  TprofCachedStats    *caches;       /* per operation */
  TprofPartSums       *stored;       /* per operation: its stored samples' figures */
  TprofSaveShell       shell;
  bool                 shell_written;
} TprofSaveParallel;

#define TPROF_SAVE_PARALLEL "tprof_time_manager_save_parallel"

/* tprof-save-parallel-stats.c: stage 3. Collective; every rank calls it
 * with the same @err state. 0, or -1 with @err set on every rank. */
int  _tprof_save_parallel_statistics (TprofSaveParallel *s, TprofError *err);
void _tprof_save_parallel_statistics_clear (TprofSaveParallel *s);

/* tprof-save-parallel-write.c: stages 4 and 5. Collective. */
int  _tprof_save_parallel_write (TprofSaveParallel *s, TprofError *err);

/* Tests: make this rank fail while writing its samples, as a full or
 * broken file system would. */
void _tprof_save_parallel_inject_write_failure (bool fail);
/* Tests: the samples a rank sorts at once (0: the default), so that few
 * samples make several batches. */
void _tprof_save_parallel_set_sort_budget (size_t samples);
