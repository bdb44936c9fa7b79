/* tprof-stats-binning.c — the counting pass of a histogram: numpy's bin of every sample, on threads for large selections. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>

#include "tprof-gathered-time-private.h"
#include "tprof-stats-binning-private.h"

/* numpy.histogram's fast path for equal bins, including its one-step
 * corrections against the edges, so that counts match numpy exactly. */
static inline ptrdiff_t
binning_find_linear (const TprofBinning *binning,
                     double              x)
{
  ptrdiff_t last_bin = (ptrdiff_t) binning->n_bins - 1;
  ptrdiff_t index;
  double position;

  if (!(x >= binning->first && x <= binning->last))
    return -1;

  /* Truncated like numpy's astype (intp), the top edge moved into the last
   * bin; clamped as a double, so that no value can make the cast overflow. */
  position = (x - binning->first) * binning->norm;
  index = position < (double) last_bin ? (position >= 0.0 ? (ptrdiff_t) position : 0) : last_bin;

  if (x < binning->edges[index])
    index--;
  else if (index != last_bin && x >= binning->edges[index + 1])
    index++;

  return index;
}

/* numpy's searchsorted rule: the last bin whose left edge is <= @value,
 * the last bin closed; -1 outside the edges. */
ptrdiff_t
_tprof_edges_search (const double *edges,
                     size_t        n_bins,
                     double        value)
{
  size_t lo = 0;
  size_t hi = n_bins - 1;

  if (!(value >= edges[0] && value <= edges[n_bins]))
    return -1;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo + 1) / 2;

      if (edges[mid] <= value)
        lo = mid;
      else
        hi = mid - 1;
    }

  return (ptrdiff_t) lo;
}

/* For a log axis: a guess from log10, walked to the bin whose edges hold
 * @x, so the edges stay the single authority (numpy's searchsorted rule). */
static inline ptrdiff_t
binning_find_log (const TprofBinning *binning,
                  double              x)
{
  ptrdiff_t last_bin = (ptrdiff_t) binning->n_bins - 1;
  const double *edges = binning->edges;
  double guess;
  ptrdiff_t index;

  if (!(x >= edges[0] && x <= edges[binning->n_bins]))
    return -1;

  guess = (log10 (x) - binning->first) * binning->norm;
  index = guess <= 0.0 ? 0 : guess >= (double) last_bin ? last_bin : (ptrdiff_t) guess;

  while (index > 0 && x < edges[index])
    index--;
  while (index < last_bin && x >= edges[index + 1])
    index++;

  return index;
}

/* How binning_count() finds a sample's bin. */
typedef enum
{
  FIND_LINEAR,
  FIND_LOG,
  FIND_SEARCH,   /* absurd ranges: the edges searched for every sample */
} FindMode;

/* Counts every sample into @counts (n_bins wide) or, with @rows, into the
 * row of its rank. Called with a constant @mode so that each variant of the
 * loop is compiled without the others' code; works on a local copy of
 * @binning since stores to @counts could otherwise alias it. */
static inline __attribute__ ((always_inline)) void
binning_count (const TprofBinning   *binning,
               const double         *times,
               const int32_t        *ranks,
               size_t                n,
               const TprofRankIndex *rows,
               uint64_t             *counts,
               FindMode              mode)
{
  const TprofBinning local = *binning;

  for (size_t i = 0; i < n; i++)
    {
      ptrdiff_t bin;
      size_t offset;

      /* Measured: the hardware prefetcher alone leaves this loop waiting. */
      __builtin_prefetch (times + i + 64);
      if (mode == FIND_LINEAR)
        bin = binning_find_linear (&local, times[i]);
      else if (mode == FIND_LOG)
        bin = binning_find_log (&local, times[i]);
      else
        bin = _tprof_edges_search (local.edges, local.n_bins, times[i]);

      if (bin < 0)
        continue;

      offset = (size_t) bin;
      if (rows != NULL)
        offset += (size_t) _tprof_rank_index_lookup (rows, ranks[i]) * local.n_bins;
      counts[offset]++;
    }
}

/* Inlined too, so that each call site also gets its loops specialised for
 * @rows being NULL or not, with no per-sample test left. */
static inline __attribute__ ((always_inline)) void
binning_count_all (const TprofBinning   *binning,
                   const double         *times,
                   const int32_t        *ranks,
                   size_t                n,
                   const TprofRankIndex *rows,
                   uint64_t             *counts)
{
  if (binning->search)
    binning_count (binning, times, ranks, n, rows, counts, FIND_SEARCH);
  else if (binning->log)
    binning_count (binning, times, ranks, n, rows, counts, FIND_LOG);
  else
    binning_count (binning, times, ranks, n, rows, counts, FIND_LINEAR);
}

/* One chunk of the counting pass, into its own counts. */
typedef struct
{
  const TprofBinning   *binning;
  const double         *times;
  const int32_t        *ranks;
  size_t                n;
  const TprofRankIndex *rows;
  uint64_t             *counts;
} CountTask;

static void
count_task_run (void *data)
{
  CountTask *task = data;

  if (task->rows != NULL)
    binning_count_all (task->binning, task->times, task->ranks, task->n, task->rows, task->counts);
  else
    binning_count_all (task->binning, task->times, task->ranks, task->n, NULL, task->counts);
}

bool
_tprof_binning_count (const TprofBinning   *binning,
                      const double         *times,
                      const int32_t        *ranks,
                      size_t                n,
                      const TprofRankIndex *rows,
                      uint64_t             *counts)
{
  CountTask tasks[TPROF_STATS_MAX_CHUNKS];
  size_t bounds[TPROF_STATS_MAX_CHUNKS + 1];
  size_t n_cells = binning->n_bins * (rows != NULL ? rows->n_ranks : 1);
  size_t n_chunks = _tprof_stats_split (n, bounds);
  bool ok = true;

  for (size_t c = 0; c < n_chunks; c++)
    {
      tasks[c] = (CountTask) {
        .binning = binning,
        .times = times + bounds[c],
        .ranks = ranks + bounds[c],
        .n = bounds[c + 1] - bounds[c],
        .rows = rows,
        .counts = c == 0 ? counts : calloc (n_cells, sizeof *counts),
      };
      ok = ok && tasks[c].counts != NULL;
    }

  if (ok)
    _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, count_task_run);

  for (size_t c = 1; c < n_chunks; c++)
    {
      if (ok)
        for (size_t i = 0; i < n_cells; i++)
          counts[i] += tasks[c].counts[i];
      free (tasks[c].counts);
    }
  return ok;
}
