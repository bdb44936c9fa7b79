/* tprof-h5-sample-plan.c — reading an operation's samples whatever they come from: the runs of the ranks asked for, or everything filtered, into a new selection. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "tprof-analysis-internal.h"
#include "tprof-h5-reader-private.h"

/* Samples per block: between blocks the read reports progress and polls
 * for a cancel; each block is itself split over threads. */
#define SAMPLE_PLAN_BLOCK ((uint64_t) 1 << 22)

/* The one loop that reads samples, whatever their source: @runs one after
 * another into the arrays, in blocks. Returns 0, 1 when a run holds
 * another rank than planned (a file not grouped by rank), or -1 with the
 * error set. */
static int
sample_plan_read_runs (TprofH5Reading   *r,
                       const TprofH5Run *runs,
                       size_t            n_runs,
                       double           *times,
                       int32_t          *ranks)
{
  size_t dest = 0;

  for (size_t k = 0; k < n_runs; k++)
    for (uint64_t pos = 0; pos < runs[k].count; pos += SAMPLE_PLAN_BLOCK)
      {
        uint64_t count = runs[k].count - pos < SAMPLE_PLAN_BLOCK ? runs[k].count - pos : SAMPLE_PLAN_BLOCK;

        if (r->cancel != NULL && *r->cancel)
          return tprof_error_set (r->error, TPROF_ERROR_CANCELLED,
                                  "%s: operation '%s': reading cancelled", r->pf->path, r->op);
        if (r->read_block (r->source, runs[k].start + pos, count, times + dest, ranks + dest) < 0)
          return -1;
        if (runs[k].rank >= 0 && !_tprof_h5_all_of_rank (ranks + dest, count, runs[k].rank))
          return 1;
        dest += (size_t) count;
        r->done += count;
        if (r->progress == NULL)
          continue;
        /* the callback may read other files */
        if (r->unlock != NULL)
          r->unlock (r->source, true);
        r->progress (r->total > 0 ? (double) r->done / (double) r->total : 1.0, r->user_data);
        if (r->unlock != NULL)
          r->unlock (r->source, false);
      }
  return 0;
}

/* Reads @runs (r->total samples) into a new selection, keeping only the
 * ranks marked in @keep if not NULL. *@status: as sample_plan_read_runs(). */
static TprofGatheredTime *
sample_plan_read_into (TprofH5Reading       *r,
                       const TprofH5Run     *runs,
                       size_t                n_runs,
                       const uint8_t        *keep,
                       int                  *status)
{
  size_t n = (size_t) r->total;
  double *times = n > 0 ? _tprof_malloc_array (n, sizeof *times) : NULL;
  int32_t *ranks = n > 0 ? _tprof_malloc_array (n, sizeof *ranks) : NULL;
  double *starts = NULL;
  int32_t *threads = NULL;
  TprofGatheredTime *gt;

  *status = -1;
  if (n > 0 && (times == NULL || ranks == NULL))
    tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                     "%s: operation '%s': not enough memory for %zu samples", r->pf->path, r->op, n);
  else
    *status = sample_plan_read_runs (r, runs, n_runs, times, ranks);
  if (*status == 0 && r->read_timeline (r->source, runs, n_runs, n, &starts, &threads) < 0)
    *status = -1;
  if (*status != 0)
    {
      free (times);
      free (ranks);
      free (starts);
      free (threads);
      return NULL;
    }
  if (keep != NULL)
    n = _tprof_h5_keep_ranks (times, ranks, starts, threads, n, keep);
  gt = tprof_gathered_time_new_take (times, ranks, n);
  if (gt == NULL || !tprof_gathered_time_set_timeline_take (gt, starts, threads))
    {
      if (gt == NULL)
        {
          free (starts);
          free (threads);
        }
      tprof_gathered_time_free (gt);
      gt = NULL;
      *status = -1;
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation '%s'",
                       r->pf->path, r->op);
    }
  return gt;
}

/* Every sample, filtered to @ranks if not NULL. */
static TprofGatheredTime *
sample_plan_read_all (TprofH5Reading       *r,
                      const int32_t        *ranks,
                      size_t                n_ranks)
{
  TprofH5Run all = { 0, r->n, -1 };
  uint8_t *keep = NULL;
  TprofGatheredTime *gt;
  int status;

  if (ranks != NULL && (keep = calloc ((size_t) r->pf->world_size, 1)) == NULL)
    {
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", r->pf->path);
      return NULL;
    }
  for (size_t i = 0; i < n_ranks && keep != NULL; i++)
    keep[ranks[i]] = 1;
  r->done = 0;
  r->total = r->n;
  gt = sample_plan_read_into (r, &all, 1, keep, &status);
  free (keep);
  return gt;
}

void
_tprof_h5_ranks_from_counts (const int64_t *counts,
                             int            world_size,
                             uint64_t       start,
                             uint64_t       count,
                             int32_t       *ranks)
{
  uint64_t first = 0;  /* of rank r's samples */
  uint64_t i = start, end = start + count;
  int r = 0;

  for (; r < world_size && counts[r] >= 0 && first + (uint64_t) counts[r] <= start; r++)
    first += (uint64_t) counts[r];
  while (i < end)
    {
      uint64_t stop;

      for (; r < world_size && (counts[r] < 0 || i >= first + (uint64_t) counts[r]); r++)
        first += counts[r] > 0 ? (uint64_t) counts[r] : 0;
      /* rank r's run at once, or -1 for rows past every count */
      stop = r < world_size && first + (uint64_t) counts[r] < end ? first + (uint64_t) counts[r] : end;
      for (; i < stop; i++)
        *ranks++ = r < world_size ? r : -1;
    }
}

TprofGatheredTime *
_tprof_h5_read_planned (TprofH5Reading         *r,
                        const TprofH5Operation *op,
                        const int32_t          *ranks,
                        size_t                  n_ranks)
{
  TprofH5Run *runs = NULL;
  size_t n_runs = 0;
  TprofGatheredTime *gt = NULL;
  int status = 1;

  /* a file grouped by rank holds each rank's samples in one run */
  if (ranks != NULL)
    runs = _tprof_h5_plan_runs (r->pf, op, ranks, n_ranks, &n_runs, &r->total);
  if (runs != NULL)
    gt = sample_plan_read_into (r, runs, n_runs, NULL, &status);
  free (runs);
  if (status == 1)
    gt = sample_plan_read_all (r, ranks, n_ranks);
  return gt;
}
