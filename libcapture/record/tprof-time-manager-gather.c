/* tprof-time-manager-gather.c — one process's records as a profile of one rank: on a timeline that starts at its first sample, or on its own clock. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-profiled-time-internal.h"
#include "tprof-time-manager-internal.h"

/* One run of an operation's samples where the manager stores them. */
typedef struct
{
  const double *times;
  const double *starts;
  size_t        n;
  int32_t       thread;
} Run;

typedef struct
{
  Run    *runs;
  size_t  n_runs;
  size_t  capacity;
  size_t  total;
  bool    failed;
} Runs;

static bool
collect_run (const double *times, const double *starts, size_t n, int32_t thread, void *user_data)
{
  Runs *runs = user_data;

  if (runs->n_runs == runs->capacity)
    {
      size_t capacity = runs->capacity != 0 ? 2 * runs->capacity : 16;
      Run *grown = realloc (runs->runs, capacity * sizeof *grown);

      if (grown == NULL)
        {
          runs->failed = true;
          return false;
        }
      runs->runs = grown;
      runs->capacity = capacity;
    }
  runs->runs[runs->n_runs++] = (Run) { times, starts, n, thread };
  runs->total += n;
  return true;
}

/* Operation @name's samples with their starts (still on this process's
 * clock) and threads; NULL when memory is exhausted. */
static TprofGatheredTime *
gather_operation (TprofTimeManager *tm,
                  const char       *name)
{
  Runs runs = { 0 };
  double *times = NULL, *starts = NULL;
  int32_t *ranks = NULL, *threads = NULL;
  TprofGatheredTime *gt = NULL;
  TprofRecordedFigures figures;
  bool sampled = false;

  if (!_tprof_time_manager_visit_recorded (tm, name, collect_run, &runs, &figures, &sampled) || runs.failed)
    goto out;
  if (runs.total > 0)
    {
      times = malloc (runs.total * sizeof *times);
      starts = malloc (runs.total * sizeof *starts);
      ranks = calloc (runs.total, sizeof *ranks);  /* every sample is rank 0 */
      threads = malloc (runs.total * sizeof *threads);
      if (times == NULL || starts == NULL || ranks == NULL || threads == NULL)
        goto out;
    }
  for (size_t r = 0, at = 0; r < runs.n_runs; at += runs.runs[r].n, r++)
    {
      memcpy (times + at, runs.runs[r].times, runs.runs[r].n * sizeof *times);
      memcpy (starts + at, runs.runs[r].starts, runs.runs[r].n * sizeof *starts);
      for (size_t i = 0; i < runs.runs[r].n; i++)
        threads[at + i] = runs.runs[r].thread;
    }
  gt = tprof_gathered_time_new_take (times, ranks, runs.total);
  times = NULL;
  ranks = NULL;
  if (gt != NULL)
    tprof_gathered_time_set_timeline_take (gt, starts, threads);
  else
    free (starts), free (threads);
  starts = NULL;
  threads = NULL;
  if (gt != NULL && sampled)
    {
      TprofRankRecorded rank0 = { 0, figures.recorded, figures.sum, figures.min, figures.max };

      if (!tprof_gathered_time_set_recorded (gt, &rank0, 1))
        {
          tprof_gathered_time_free (gt);
          gt = NULL;
        }
    }

out:
  free (times);
  free (starts);
  free (ranks);
  free (threads);
  free (runs.runs);
  return gt;
}

/* ISO 8601 UTC of the wall-clock time at @monotonic_s of CLOCK_MONOTONIC. */
static char *
wall_time_of (double monotonic_s)
{
  struct timespec wall, mono;

  clock_gettime (CLOCK_REALTIME, &wall);
  clock_gettime (CLOCK_MONOTONIC, &mono);
  return _tprof_wall_time_text ((double) wall.tv_sec + 1e-9 * (double) wall.tv_nsec
                                - ((double) mono.tv_sec + 1e-9 * (double) mono.tv_nsec - monotonic_s));
}

/* Shifts every start of @pt so that the earliest is 0, and records how. */
static bool
start_timeline (TprofProfiledTime *pt)
{
  double origin = INFINITY;
  double *offsets = calloc (1, sizeof *offsets), *errors = calloc (1, sizeof *errors);

  if (offsets == NULL || errors == NULL)
    {
      free (offsets);
      free (errors);
      return false;
    }
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, i);
      const double *starts = tprof_gathered_time_starts (gt);

      for (size_t k = 0; starts != NULL && k < tprof_gathered_time_count (gt); k++)
        origin = fmin (origin, starts[k]);
    }
  for (size_t i = 0; isfinite (origin) && i < tprof_profiled_time_len (pt); i++)
    {
      /* the profile owns its selections: shifting them in place is ours to do */
      double *starts = (double *) tprof_gathered_time_starts (tprof_profiled_time_nth (pt, i));

      for (size_t k = 0; starts != NULL && k < tprof_gathered_time_count (tprof_profiled_time_nth (pt, i)); k++)
        starts[k] -= origin;
    }
  /* one process: its clock is the timeline's, exactly */
  tprof_profiled_time_set_timeline_take (pt, offsets, errors, isfinite (origin) ? wall_time_of (origin) : NULL);
  return true;
}

TprofProfiledTime *
tprof_time_manager_snapshot (TprofTimeManager *tm)
{
  TprofProfiledTime *pt;
  const char **names = NULL;
  size_t n_names;

  if (tm == NULL)
    return NULL;
  pt = tprof_profiled_time_new (1);
  if (pt == NULL)
    return NULL;

  n_names = _tprof_time_manager_list_names (tm, &names);
  if (n_names == (size_t) -1)
    goto failed;
  for (size_t i = 0; i < n_names; i++)
    {
      TprofGatheredTime *gt = gather_operation (tm, names[i]);

      if (gt == NULL || !_tprof_profiled_time_append (pt, names[i], gt))
        goto failed;
    }
  free (names);
  return pt;

failed:
  free (names);
  tprof_profiled_time_free (pt);
  return NULL;
}

TprofProfiledTime *
tprof_time_manager_gather_local (TprofTimeManager *tm)
{
  TprofProfiledTime *pt = tprof_time_manager_snapshot (tm);

  if (pt != NULL && !start_timeline (pt))
    {
      tprof_profiled_time_free (pt);
      return NULL;
    }
  return pt;
}
