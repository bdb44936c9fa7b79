/* tprof-gather-mpi-private.h — the gather's internals, reachable by tests that compile tprof-gather-mpi.c. */
#pragma once

#include <stddef.h>

#include <mpi.h>

#include <tprof/capture.h>

/* One rank's records as the gather sends them: @n_names operations in
 * first-recorded order, each with @counts[i] samples in @times[i] (NULL when
 * the count is 0). Nothing here is owned by the gather. */
typedef struct
{
  size_t               n_names;
  const char *const   *names;
  const size_t        *counts;
  const double *const *times;
} TprofGatherLocal;

/* The collective part of tprof_time_manager_gather(): gathers @local (which
 * tests may fill with what the time manager cannot hold, such as a name with
 * no sample). @local_failure, when not NULL and set, is this rank's failure to
 * build @local: every rank then fails together. */
TprofProfiledTime *_tprof_gather_records (const TprofGatherLocal *local,
                                          const TprofError       *local_failure,
                                          MPI_Comm                comm,
                                          int                     dst,
                                          TprofError             *error);

/* Largest run of elements one entry of an MPI datatype describes; longer runs
 * are described as several blocks (int counts stay in range). Tests make it
 * tiny to exercise the splitting; 0 restores the default. */
void _tprof_gather_set_block_elems (size_t block_elems);

/* Stages whose allocations a test can make fail on the calling rank, to
 * check that every rank then fails together instead of waiting. */
typedef enum
{
  TPROF_GATHER_STAGE_NONE,
  TPROF_GATHER_STAGE_PACK,     /* this rank's name table */
  TPROF_GATHER_STAGE_NAMES,    /* a receiver's room for every name table */
  TPROF_GATHER_STAGE_SAMPLES,  /* a receiver's arrays of samples */
} TprofGatherStage;

void _tprof_gather_inject_failure (TprofGatherStage stage);
