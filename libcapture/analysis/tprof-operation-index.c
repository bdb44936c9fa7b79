/* tprof-operation-index.c — TprofOperationIndex: building an operation's per-rank sorted runs, and quantiles of rank sets from them. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-operation-index.h>

#include "tprof-gathered-time-private.h"
#include "tprof-operation-index-private.h"

/* Progress is reported at most this often (in fractions of the work). */
#define PROGRESS_STEP 0.01

void
tprof_operation_index_free (TprofOperationIndex *index)
{
  if (index == NULL)
    return;

  free (index->sorted);
  free (index->ranks);
  free (index->offsets);
  free (index->rank_summaries);
  free (index->rank_m2);
  free (index);
}

/* Allocates the per-rank arrays once the number of ranks is known. */
static bool
index_allocate_ranks (TprofOperationIndex *index,
                      size_t               n_ranks)
{
  index->n_ranks = n_ranks;
  index->ranks = _tprof_malloc_array (n_ranks, sizeof *index->ranks);
  index->offsets = _tprof_malloc_array (n_ranks + 1, sizeof *index->offsets);
  index->rank_summaries = _tprof_malloc_array (n_ranks, sizeof *index->rank_summaries);
  index->rank_m2 = _tprof_malloc_array (n_ranks, sizeof *index->rank_m2);
  return index->ranks != NULL && index->offsets != NULL
         && index->rank_summaries != NULL && index->rank_m2 != NULL;
}

static bool
ranks_are_grouped (const int32_t *ranks,
                   size_t         n)
{
  for (size_t i = 1; i < n; i++)
    if (ranks[i] < ranks[i - 1])
      return false;
  return true;
}

/* Samples already grouped by ascending rank: each rank is a run of @gt. */
static bool
index_take_runs (TprofOperationIndex *index,
                 const double        *times,
                 const int32_t       *ranks,
                 size_t               n)
{
  size_t n_ranks = n > 0 ? 1 : 0;
  size_t k = 0;

  for (size_t i = 1; i < n; i++)
    n_ranks += ranks[i] != ranks[i - 1];
  if (!index_allocate_ranks (index, n_ranks))
    return false;

  for (size_t i = 0; i < n; i++)
    if (i == 0 || ranks[i] != ranks[i - 1])
      {
        index->ranks[k] = ranks[i];
        index->offsets[k++] = i;
      }
  index->offsets[n_ranks] = n;
  if (n > 0)  /* an empty selection has no array to copy from */
    memcpy (index->sorted, times, n * sizeof *times);
  return true;
}

/* Samples in any order: a counting sort by rank, which keeps each rank's
 * samples in recording order. */
static bool
index_group_runs (TprofOperationIndex *index,
                  const double        *times,
                  const int32_t       *ranks,
                  size_t               n)
{
  TprofRankIndex rows;
  size_t *cursor = NULL;
  bool ok;

  if (!_tprof_rank_index_init (&rows, ranks, n))
    return false;
  ok = index_allocate_ranks (index, rows.n_ranks)
       && (cursor = calloc (rows.n_ranks + 1, sizeof *cursor)) != NULL;
  if (ok)
    {
      memcpy (index->ranks, rows.ranks, rows.n_ranks * sizeof *index->ranks);
      for (size_t i = 0; i < n; i++)
        cursor[_tprof_rank_index_lookup (&rows, ranks[i]) + 1]++;
      for (size_t r = 0; r < rows.n_ranks; r++)
        cursor[r + 1] += cursor[r];
      memcpy (index->offsets, cursor, (rows.n_ranks + 1) * sizeof *cursor);
      for (size_t i = 0; i < n; i++)
        index->sorted[cursor[_tprof_rank_index_lookup (&rows, ranks[i])]++] = times[i];
    }

  free (cursor);
  _tprof_rank_index_clear (&rows);
  return ok;
}

/* Turns -0.0 into +0.0, which sorting by keys needs; false on NaN or infinity. */
static bool
samples_are_finite (double *values,
                    size_t  n)
{
  bool finite = true;

  for (size_t i = 0; i < n; i++)
    {
      values[i] += 0.0;
      finite &= isfinite (values[i]) != 0;
    }
  return finite;
}

typedef struct
{
  TprofProgressFunc   progress;
  void               *user_data;
  const volatile int *cancel;
  double              reported;
} IndexProgress;

/* Reports @fraction when it moved enough; false when cancelled. */
static bool
index_progress_step (IndexProgress *p,
                     double         fraction)
{
  if (p->cancel != NULL && __atomic_load_n (p->cancel, __ATOMIC_RELAXED))
    return false;
  if (p->progress != NULL && (fraction - p->reported >= PROGRESS_STEP || fraction >= 1.0))
    {
      p->progress (fraction, p->user_data);
      p->reported = fraction;
    }
  return true;
}

/* Summarizes each rank in recording order (so its sums are numpy's), then
 * sorts it. Returns 0, -1 without memory, 1 when cancelled. */
static int
index_sort_runs (TprofOperationIndex *index,
                 IndexProgress       *progress)
{
  size_t longest = 1;
  double *scratch;

  for (size_t k = 0; k < index->n_ranks; k++)
    if (index->offsets[k + 1] - index->offsets[k] > longest)
      longest = index->offsets[k + 1] - index->offsets[k];
  scratch = _tprof_malloc_array (longest, sizeof *scratch);
  if (scratch == NULL)
    return -1;

  for (size_t k = 0; k < index->n_ranks; k++)
    {
      double *run = index->sorted + index->offsets[k];
      size_t len = index->offsets[k + 1] - index->offsets[k];

      if (!index_progress_step (progress, (double) index->offsets[k] / (double) index->n_samples))
        {
          free (scratch);
          return 1;
        }
      _tprof_values_summarize_m2 (run, len, &index->rank_summaries[k], &index->rank_m2[k]);
      index->rank_summaries[k].rank = index->ranks[k];
      _tprof_sort_doubles (run, len, scratch);
    }

  free (scratch);
  return 0;
}

/* Groups, checks, summarizes and sorts. Returns 0, or -1 with @error set. */
static int
index_build (TprofOperationIndex     *index,
             const TprofGatheredTime *gt,
             IndexProgress           *progress,
             TprofError              *error)
{
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = index->n_samples;
  bool grouped = ranks_are_grouped (ranks, n);
  int sorted;

  index->sorted = _tprof_malloc_array (n, sizeof *index->sorted);
  if (index->sorted == NULL
      || !(grouped ? index_take_runs (index, times, ranks, n) : index_group_runs (index, times, ranks, n)))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory indexing %zu samples", n);
  if (!samples_are_finite (index->sorted, n))
    return tprof_error_set (error, TPROF_ERROR_INVALID, "cannot index samples that are NaN or infinite");

  sorted = n > 0 ? index_sort_runs (index, progress) : 0;
  if (sorted > 0)
    return tprof_error_set (error, TPROF_ERROR_CANCELLED, "indexing was cancelled");
  if (sorted < 0 || !tprof_gathered_time_summarize (gt, &index->summary))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory indexing %zu samples", n);
  return 0;
}

TprofOperationIndex *
tprof_operation_index_new (const TprofGatheredTime *gt,
                           TprofProgressFunc        progress,
                           void                    *user_data,
                           const volatile int      *cancel,
                           TprofError              *error)
{
  IndexProgress state = { progress, user_data, cancel, 0.0 };
  TprofOperationIndex *index;

  if (gt == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "no samples to index");
      return NULL;
    }

  index = calloc (1, sizeof *index);
  if (index == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
      return NULL;
    }
  index->n_samples = tprof_gathered_time_count (gt);

  if (index_build (index, gt, &state, error) != 0)
    {
      tprof_operation_index_free (index);
      return NULL;
    }
  if (!index_progress_step (&state, 1.0))
    {
      tprof_operation_index_free (index);
      tprof_error_set (error, TPROF_ERROR_CANCELLED, "indexing was cancelled");
      return NULL;
    }
  return index;
}

size_t
tprof_operation_index_count (const TprofOperationIndex *index)
{
  return index->n_samples;
}

const int32_t *
tprof_operation_index_ranks (const TprofOperationIndex *index,
                             size_t                    *n_ranks)
{
  if (n_ranks != NULL)
    *n_ranks = index->n_ranks;
  return index->ranks;
}

const TprofSummary *
tprof_operation_index_summary (const TprofOperationIndex *index)
{
  return &index->summary;
}

TprofSortedRun *
_tprof_operation_index_select_runs (const TprofOperationIndex *index,
                   const uint8_t             *mask,
                   size_t                    *n_runs,
                   size_t                    *total)
{
  TprofSortedRun *runs = calloc (index->n_ranks > 0 ? index->n_ranks : 1, sizeof *runs);
  size_t n = 0;

  *total = 0;
  if (runs == NULL)
    return NULL;

  for (size_t k = 0; k < index->n_ranks; k++)
    {
      if (!_tprof_rank_is_selected (mask, index->ranks[k]))
        continue;
      runs[n].values = index->sorted + index->offsets[k];
      runs[n].len = index->offsets[k + 1] - index->offsets[k];
      runs[n].rank_index = k;
      *total += runs[n].len;
      n++;
    }

  *n_runs = n;
  return runs;
}

bool
tprof_operation_index_quantiles (const TprofOperationIndex *index,
                                 const uint8_t             *mask,
                                 const double              *qs,
                                 size_t                     n_qs,
                                 double                    *out)
{
  size_t n_runs, total;
  TprofSortedRun *runs = _tprof_operation_index_select_runs (index, mask, &n_runs, &total);
  bool ok;

  if (runs == NULL)
    return false;
  ok = _tprof_sorted_runs_quantiles (runs, n_runs, total, qs, n_qs, NULL, out);
  free (runs);
  return ok;
}

/* Merges the selected ranks' count, sum, extremes and squared deviations
 * (Chan et al.'s pairwise update keeps the variance stable), and lists
 * their totals for the balance. */
static void
merge_rank_moments (const TprofOperationIndex *index,
                    const uint8_t             *mask,
                    TprofSummary              *out,
                    double                    *totals,
                    int32_t                   *ranks)
{
  double mean = 0.0;
  double m2 = 0.0;
  size_t n_ranks = 0;

  for (size_t k = 0; k < index->n_ranks; k++)
    {
      const TprofRankSummary *rs = &index->rank_summaries[k];
      double n_a = (double) out->count;
      double n_b = (double) rs->count;
      double delta;

      if (!_tprof_rank_is_selected (mask, rs->rank))
        continue;

      delta = rs->mean - mean;
      mean += delta * n_b / (n_a + n_b);
      m2 += index->rank_m2[k] + delta * delta * n_a * n_b / (n_a + n_b);

      out->count += rs->count;
      out->sum += rs->sum;
      out->min = fmin (out->min, rs->min);
      out->max = fmax (out->max, rs->max);
      totals[n_ranks] = rs->sum;
      ranks[n_ranks++] = rs->rank;
    }

  out->rank_count = n_ranks;
  out->mean = out->count > 0 ? out->sum / (double) out->count : NAN;
  out->std = out->count > 1 ? sqrt (m2 / (double) (out->count - 1)) : NAN;
}

bool
tprof_operation_index_summarize_moments (const TprofOperationIndex *index,
                                         const uint8_t             *mask,
                                         TprofSummary              *out)
{
  size_t room = index->n_ranks > 0 ? index->n_ranks : 1;
  double *totals;
  int32_t *ranks;

  if (mask == NULL)
    {
      *out = index->summary;
      out->median = out->p95 = out->p99 = NAN;
      return true;
    }

  totals = _tprof_malloc_array (room, sizeof *totals);
  ranks = _tprof_malloc_array (room, sizeof *ranks);
  if (totals == NULL || ranks == NULL)
    {
      free (totals);
      free (ranks);
      return false;
    }

  *out = (TprofSummary) {
    .min = INFINITY, .max = -INFINITY,
    .median = NAN, .p95 = NAN, .p99 = NAN,
    .imbalance = NAN, .slowest_rank = -1, .imbalance_time = NAN,
  };
  merge_rank_moments (index, mask, out, totals, ranks);
  _tprof_summary_set_balance (out, totals, ranks, out->rank_count);
  if (out->count == 0)
    out->min = out->max = NAN;

  free (totals);
  free (ranks);
  return true;
}

bool
tprof_operation_index_summarize (const TprofOperationIndex *index,
                                 const uint8_t             *mask,
                                 TprofSummary              *out)
{
  static const double qs[] = { 0.5, 0.95, 0.99 };
  double quantiles[3];

  if (mask == NULL)
    {
      *out = index->summary;
      return true;
    }

  if (!tprof_operation_index_summarize_moments (index, mask, out)
      || !tprof_operation_index_quantiles (index, mask, qs, 3, quantiles))
    return false;
  out->median = quantiles[0];
  out->p95 = quantiles[1];
  out->p99 = quantiles[2];
  return true;
}

TprofRankSummary *
tprof_operation_index_rank_summaries (const TprofOperationIndex *index,
                                      const uint8_t             *mask,
                                      size_t                    *n_out)
{
  TprofRankSummary *summaries = _tprof_malloc_array (index->n_ranks > 0 ? index->n_ranks : 1,
                                                     sizeof *summaries);
  size_t n = 0;

  *n_out = 0;
  if (summaries == NULL)
    return NULL;

  for (size_t k = 0; k < index->n_ranks; k++)
    if (_tprof_rank_is_selected (mask, index->ranks[k]))
      summaries[n++] = index->rank_summaries[k];

  *n_out = n;
  return summaries;
}
