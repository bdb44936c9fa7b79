/* tprof-gather-mpi.c — tprof_time_manager_gather: this rank's records, read in place, into the collective gather. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof/capture-mpi.h"
#include "tprof-gather-mpi-private.h"
#include "tprof-hang-mpi-private.h"
#include "tprof-time-manager-internal.h"

void
_tprof_gather_read_clear (TprofGatherRead *read)
{
  free (read->names);
  free (read->run_base);
  free (read->runs);
  free (read->recorded);
  memset (read, 0, sizeof *read);
}

static bool
gather_read_add_run (const double *samples, const double *starts, size_t n, int32_t thread, void *user_data)
{
  TprofGatherRead *read = user_data;

  if (read->n_runs == read->runs_capacity)
    {
      size_t capacity = read->runs_capacity != 0 ? read->runs_capacity * 2 : 64;
      TprofGatherRun *runs = capacity <= SIZE_MAX / sizeof *runs
        ? _tprof_gather_malloc (TPROF_GATHER_STAGE_READ, capacity * sizeof *runs) : NULL;

      if (runs == NULL)
        return false;
      if (read->n_runs > 0)
        memcpy (runs, read->runs, read->n_runs * sizeof *runs);
      free (read->runs);
      read->runs = runs;
      read->runs_capacity = capacity;
    }
  read->runs[read->n_runs++] = (TprofGatherRun) { samples, n, starts, thread };
  return true;
}

int
_tprof_gather_read_manager (TprofTimeManager *tm, const char *caller, TprofGatherRead *read, TprofError *error)
{
  size_t n;

  memset (read, 0, sizeof *read);
  if (tm == NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "%s: the time manager is NULL", caller);
  n = _tprof_time_manager_list_names (tm, &read->names);
  read->run_base = calloc (n != (size_t) -1 ? n + 1 : 1, sizeof *read->run_base);
  if (n == (size_t) -1 || read->run_base == NULL)
    return _tprof_gather_set_no_memory (error, "listing this rank's operations");
  read->n_names = n;
  read->recorded = calloc (n > 0 ? n : 1, sizeof *read->recorded);
  if (read->recorded == NULL)
    return _tprof_gather_set_no_memory (error, "listing this rank's operations");
  for (size_t i = 0; i < n; i++)
    {
      TprofRecordedFigures figures;
      bool sampled = false;

      if (!_tprof_time_manager_visit_recorded (tm, read->names[i], gather_read_add_run, read, &figures, &sampled))
        return _tprof_gather_set_no_memory (error, "finding this rank's samples");
      if (sampled)
        read->recorded[i] = (TprofRankRecorded) { 0, figures.recorded, figures.sum, figures.min, figures.max };
      read->run_base[i + 1] = read->n_runs;
    }
  return 0;
}

void
_tprof_gather_read_local (const TprofGatherRead *read, TprofGatherLocal *local)
{
  local->n_names = read->n_names;
  local->names = read->names;
  local->run_base = read->run_base;
  local->runs = read->runs;
  local->recorded = read->recorded;
}

TprofProfiledTime *
tprof_time_manager_gather (TprofTimeManager *tm,
                           MPI_Comm          comm,
                           int               dst,
                           TprofError       *error)
{
  TprofGatherRead read;
  TprofGatherLocal local;
  TprofError local_failure;
  TprofProfiledTime *pt;
  uint64_t hang = _tprof_hang_mpi_begin (tm, "tprof_time_manager_gather", comm);

  tprof_error_clear (&local_failure);
  _tprof_gather_read_manager (tm, "tprof_time_manager_gather", &read, &local_failure);
  _tprof_gather_read_local (&read, &local);
  pt = _tprof_gather_records (&local, &local_failure, comm, dst, error);
  _tprof_gather_read_clear (&read);
  _tprof_hang_call_end_now (hang);
  return pt;
}
