/* tprof-operation-index-histogram.c — TprofOperationIndex's histograms: tprof_histogram_compute()'s, counted by searching the edges in sorted runs. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-histogram-private.h"
#include "tprof-operation-index-private.h"

/* What the selected runs bin: on a log axis each run starts past its
 * samples <= 0, counted in *@n_nonpositive. Returns how many values are
 * left and their extremes in *@lo and *@hi. */
static size_t
runs_binned_range (TprofSortedRun *runs,
                   size_t          n_runs,
                   bool            log,
                   uint64_t       *n_nonpositive,
                   double         *lo,
                   double         *hi)
{
  size_t total = 0;

  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t r = 0; r < n_runs; r++)
    {
      if (log)
        {
          size_t skip = _tprof_sorted_search (runs[r].values, 0, runs[r].len, 0.0, true);

          *n_nonpositive += skip;
          runs[r].values += skip;
          runs[r].len -= skip;
        }
      total += runs[r].len;
      if (runs[r].len == 0)
        continue;
      *lo = fmin (*lo, runs[r].values[0]);
      *hi = fmax (*hi, runs[r].values[runs[r].len - 1]);
    }
  return total;
}

/* tprof's automatic bin count of the runs, as tprof_histogram_compute()
 * finds it: numpy's 'auto' with the quartiles of the values (of their
 * log10 on a log axis), capped. */
static size_t
runs_auto_bins (TprofSortedRun *runs,
                size_t          n_runs,
                size_t          total,
                double          lo,
                double          hi,
                bool            log)
{
  static const double qs[] = { 0.75, 0.25 };
  double quartiles[2];
  bool have_quartiles;

  if (total < 2 || lo == hi)
    return 1;
  /* Without memory for the quartiles, Sturges alone still gives a sane count. */
  have_quartiles = _tprof_sorted_runs_quantiles (runs, n_runs, total, qs, 2, log ? log10 : NULL, quartiles);
  return _tprof_histogram_auto_bins_capped (total, log ? log10 (lo) : lo, log ? log10 (hi) : hi,
                                            have_quartiles ? quartiles : NULL);
}

/* The ranks of @runs, for the rows of a histogram; NULL without memory. */
static int32_t *
runs_ranks (const TprofOperationIndex *index,
            const TprofSortedRun      *runs,
            size_t                     n_runs)
{
  int32_t *ranks = _tprof_malloc_array (n_runs > 0 ? n_runs : 1, sizeof *ranks);

  for (size_t r = 0; ranks != NULL && r < n_runs; r++)
    ranks[r] = index->ranks[runs[r].rank_index];
  return ranks;
}

/* The histogram of the selected runs on @range (NULL: their own extremes;
 * widened to hold them when it does not). */
static TprofHistogram *
index_histogram (const TprofOperationIndex *index,
                 const uint8_t             *mask,
                 size_t                     n_bins,
                 TprofHistogramFlags        flags,
                 const double              *range)
{
  bool log = (flags & TPROF_HISTOGRAM_LOG) != 0;
  bool separate = (flags & TPROF_HISTOGRAM_SEPARATE_RANKS) != 0;
  uint64_t n_nonpositive = 0;
  size_t n_runs, total;
  TprofSortedRun *runs = _tprof_operation_index_select_runs (index, mask, &n_runs, &total);
  int32_t *ranks = NULL;
  TprofHistogram *hist = NULL;
  double lo, hi;

  if (runs == NULL)
    return NULL;
  total = runs_binned_range (runs, n_runs, log, &n_nonpositive, &lo, &hi);
  if (range != NULL && total > 0)
    {
      lo = fmin (lo, range[0]);
      hi = fmax (hi, range[1]);
    }

  /* like tprof_histogram_compute(), nothing to bin means no ranks either */
  if (total == 0)
    n_bins = 0;
  else if (n_bins == TPROF_HISTOGRAM_AUTO_BINS)
    n_bins = runs_auto_bins (runs, n_runs, total, lo, hi, log);

  if (separate && n_bins > 0 && (ranks = runs_ranks (index, runs, n_runs)) == NULL)
    goto out;
  hist = _tprof_histogram_new (n_bins, ranks, ranks != NULL ? n_runs : 0);
  if (hist == NULL)
    goto out;
  hist->n_nonpositive = n_nonpositive;
  if (n_bins > 0)
    {
      tprof_histogram_edges (lo, hi, n_bins, flags, hist->edges);
      _tprof_sorted_runs_count_bins (runs, n_runs, hist->edges, n_bins, hist->counts, hist->rank_counts);
    }

out:
  free (ranks);
  free (runs);
  return hist;
}

TprofHistogram *
tprof_operation_index_histogram (const TprofOperationIndex *index,
                                 const uint8_t             *mask,
                                 size_t                     n_bins,
                                 TprofHistogramFlags        flags)
{
  return index_histogram (index, mask, n_bins, flags, NULL);
}

TprofHistogram *
tprof_operation_index_histogram_range (const TprofOperationIndex *index,
                                       const uint8_t             *mask,
                                       size_t                     n_bins,
                                       TprofHistogramFlags        flags,
                                       double                     lo,
                                       double                     hi)
{
  const double range[2] = { lo, hi };

  return index_histogram (index, mask, n_bins, flags, range);
}

bool
tprof_operation_index_extent (const TprofOperationIndex *index,
                              const uint8_t             *mask,
                              TprofHistogramFlags        flags,
                              double                    *lo,
                              double                    *hi)
{
  uint64_t n_nonpositive = 0;
  size_t n_runs, total;
  TprofSortedRun *runs = _tprof_operation_index_select_runs (index, mask, &n_runs, &total);

  *lo = *hi = NAN;
  if (runs == NULL)
    return false;
  total = runs_binned_range (runs, n_runs, (flags & TPROF_HISTOGRAM_LOG) != 0, &n_nonpositive, lo, hi);
  free (runs);
  if (total == 0)
    *lo = *hi = NAN;
  return total > 0;
}

double *
tprof_operation_index_values (const TprofOperationIndex *index,
                              const uint8_t             *mask,
                              size_t                    *n)
{
  size_t n_runs, total;
  TprofSortedRun *runs = _tprof_operation_index_select_runs (index, mask, &n_runs, &total);
  double *values = runs != NULL ? _tprof_malloc_array (total > 0 ? total : 1, sizeof *values) : NULL;
  size_t at = 0;

  *n = 0;
  for (size_t r = 0; values != NULL && r < n_runs; r++)
    {
      memcpy (values + at, runs[r].values, runs[r].len * sizeof *values);
      at += runs[r].len;
    }
  free (runs);
  if (values != NULL)
    *n = at;
  return values;
}
