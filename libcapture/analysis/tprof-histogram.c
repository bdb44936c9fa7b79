/* tprof-histogram.c — TprofHistogram: numpy.histogram-compatible range, 'auto' bin count, edges (counting: stats-binning). */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-histogram.h>

#include "tprof-gathered-time-private.h"
#include "tprof-histogram-private.h"
#include "tprof-select-private.h"
#include "tprof-stats-binning-private.h"

/* Which samples a histogram counts: the finite ones (the positive ones on a
 * log axis), how many there are and their extremes. */
typedef struct
{
  size_t   n_used;
  double   min;
  double   max;
  uint64_t n_nonpositive;
} TprofBinnedRange;

static bool
sample_is_used (double x,
                bool   log)
{
  return isfinite (x) && (!log || x > 0.0);
}

/* Locals rather than @range's fields in the loop: the build disables strict
 * aliasing, so stores through @range would be reloaded at every sample. */
static void
binned_range_scan (const double     *times,
                   size_t            n,
                   bool              log,
                   TprofBinnedRange *range)
{
  size_t n_used = 0;
  uint64_t n_nonpositive = 0;
  double min = INFINITY;
  double max = -INFINITY;

  /* The common case, all samples finite on a linear axis, at memory speed. */
  if (!log && n > 0 && _tprof_values_min_max (times, n, &range->min, &range->max))
    {
      range->n_used = n;
      range->n_nonpositive = 0;
      return;
    }

  for (size_t i = 0; i < n; i++)
    {
      double x = times[i];

      if (log && x <= 0.0)
        n_nonpositive++;
      if (!sample_is_used (x, log))
        continue;

      n_used++;
      min = x < min ? x : min;
      max = x > max ? x : max;
    }

  range->n_used = n_used;
  range->min = min;
  range->max = max;
  range->n_nonpositive = n_nonpositive;
}

/* numpy's _hist_bin_auto for @n values with extremes @min and @max and
 * quartiles @quartiles (0.75 then 0.25), or Sturges alone when
 * @quartiles is NULL (no memory to find them). */
static size_t
auto_bins_from (size_t        n,
                double        min,
                double        max,
                const double *quartiles)
{
  double ptp = max - min;
  double sturges_width, fd_width = 0.0, width, bins;

  if (n < 2 || ptp == 0.0)
    return 1;

  sturges_width = ptp / (log2 ((double) n) + 1.0);
  if (quartiles != NULL)
    fd_width = 2.0 * (quartiles[0] - quartiles[1]) * pow ((double) n, -1.0 / 3.0);

  /* Python's min (fd, sturges) keeps fd unless sturges is strictly smaller. */
  width = fd_width != 0.0 ? (sturges_width < fd_width ? sturges_width : fd_width) : sturges_width;
  if (!(width > 0.0))
    return 1;

  bins = ceil (ptp / width);
  if (!(bins < (double) SIZE_MAX))
    return SIZE_MAX;
  return bins < 1.0 ? 1 : (size_t) bins;
}

/* tprof's one cap on an automatic bin count. */
static size_t
cap_auto_bins (size_t n_bins)
{
  return n_bins < TPROF_HISTOGRAM_MAX_AUTO_BINS ? n_bins : TPROF_HISTOGRAM_MAX_AUTO_BINS;
}

size_t
_tprof_histogram_auto_bins_capped (size_t        n,
                                   double        first,
                                   double        last,
                                   const double *quartiles)
{
  return cap_auto_bins (auto_bins_from (n, first, last, quartiles));
}

/* Copies the used samples of @times into a new array, as log10 for a log axis. */
static double *
copy_used_samples (const double *times,
                   size_t        n,
                   size_t        n_used,
                   bool          log)
{
  double *values = _tprof_malloc_array (n_used, sizeof *values);
  size_t j = 0;

  if (values == NULL)
    return NULL;

  for (size_t i = 0; i < n && j < n_used; i++)
    if (sample_is_used (times[i], log))
      values[j++] = log ? log10 (times[i]) : times[i];

  return values;
}

/* The quartiles (0.75 then 0.25) of the used samples of @times (their
 * log10 for a log axis). When every sample is used on a linear axis they
 * are found without a copy. Returns false when memory is exhausted. */
static bool
used_quartiles (const double           *times,
                size_t                  n,
                bool                    log,
                const TprofBinnedRange *range,
                double                  quartiles[2])
{
  static const double qs[] = { 0.75, 0.25 };
  double *scratch;
  bool ok;

  if (!log && range->n_used == n)
    return _tprof_quantiles_of (times, n, qs, 2, quartiles);

  scratch = copy_used_samples (times, n, range->n_used, log);
  if (scratch == NULL)
    return false;
  ok = _tprof_select_quantiles (scratch, range->n_used, qs, 2, quartiles);
  free (scratch);
  return ok;
}

/* numpy's 'auto' bin count for the used samples of @times. */
static size_t
auto_bins_of (const double           *times,
              size_t                  n,
              bool                    log,
              const TprofBinnedRange *range,
              double                  first,
              double                  last)
{
  double quartiles[2];
  bool have_quartiles;

  if (range->n_used < 2 || first == last)
    return 1;
  /* Without memory for the quartiles, Sturges alone still gives a sane count. */
  have_quartiles = used_quartiles (times, n, log, range, quartiles);
  return auto_bins_from (range->n_used, first, last, have_quartiles ? quartiles : NULL);
}

size_t
tprof_histogram_auto_bins (const double *values,
                           size_t        n)
{
  static const double qs[] = { 0.75, 0.25 };
  TprofBinnedRange range;
  double quartiles[2];
  bool have_quartiles, scanned;

  if (values == NULL || n < 2)
    return 1;

  /* The common case, every value finite: the quartiles of all of them, in
   * one pass that also finds the extremes when the input is large. */
  have_quartiles = _tprof_quantiles_and_extremes_of (values, n, qs, 2, quartiles, &scanned,
                                                     &range.min, &range.max);
  if (scanned)
    range.n_used = isfinite (range.min) && isfinite (range.max) ? n : 0;
  else
    binned_range_scan (values, n, false, &range);
  if (have_quartiles && range.n_used == n)
    return auto_bins_from (n, range.min, range.max, quartiles);

  /* Otherwise those of the finite values only. */
  if (scanned)
    binned_range_scan (values, n, false, &range);
  return auto_bins_of (values, n, false, &range, range.min, range.max);
}

/* numpy.linspace (first, last, n_bins + 1), bit for bit. */
static void
fill_linear_edges (double *edges,
                   size_t  n_bins,
                   double  first,
                   double  last)
{
  double delta = last - first;
  double step = delta / (double) n_bins;

  for (size_t i = 0; i < n_bins; i++)
    {
      /* numpy falls back to i / n * delta when the step underflows to 0. */
      double offset = step != 0.0 ? (double) i * step : (double) i / (double) n_bins * delta;

      edges[i] = offset + first;
    }
  edges[n_bins] = last;
}

/* The edges of @n_bins bins over the binned extremes @min and @max, and
 * the outer edges in the space they are spaced in (log10 for a log axis)
 * into *@first and *@last. */
static void
place_edges (double *edges,
             size_t  n_bins,
             double  min,
             double  max,
             bool    log,
             double *first,
             double *last)
{
  bool widened;

  *first = log ? log10 (min) : min;
  *last = log ? log10 (max) : max;
  widened = *first == *last;

  /* numpy widens a single distinct value to [v - 0.5, v + 0.5]. */
  if (widened)
    {
      *first -= 0.5;
      *last += 0.5;
    }

  fill_linear_edges (edges, n_bins, *first, *last);
  if (!log)
    return;

  for (size_t i = 0; i <= n_bins; i++)
    edges[i] = pow (10.0, edges[i]);

  /* 10**log10(v) can miss v by an ulp; pin the outer edges to the data so
   * that the smallest and largest samples are always counted. */
  if (!widened)
    {
      edges[0] = min;
      edges[n_bins] = max;
    }
}

bool
tprof_histogram_edges (double               min,
                       double               max,
                       size_t               n_bins,
                       TprofHistogramFlags  flags,
                       double              *edges)
{
  bool log = (flags & TPROF_HISTOGRAM_LOG) != 0;
  double first, last;

  if (edges == NULL || n_bins == 0 || n_bins == SIZE_MAX || !isfinite (min) || !isfinite (max)
      || min > max || (log && !(min > 0.0)))
    return false;

  place_edges (edges, n_bins, min, max, log, &first, &last);
  return true;
}

void
tprof_histogram_free (TprofHistogram *hist)
{
  if (hist == NULL)
    return;

  free (hist->edges);
  free (hist->counts);
  free (hist->ranks);
  free (hist->rank_counts);
  free (hist);
}

TprofHistogram *
_tprof_histogram_new (size_t         n_bins,
                      const int32_t *ranks,
                      size_t         n_ranks)
{
  TprofHistogram *hist = calloc (1, sizeof *hist);
  size_t n_edges, n_cells;

  if (hist == NULL || n_bins == 0)
    return hist;
  if (__builtin_add_overflow (n_bins, 1, &n_edges)
      || __builtin_mul_overflow (n_ranks, n_bins, &n_cells))
    goto failed;

  hist->n_bins = n_bins;
  hist->edges = _tprof_malloc_array (n_edges, sizeof *hist->edges);
  hist->counts = calloc (n_bins, sizeof *hist->counts);
  if (hist->edges == NULL || hist->counts == NULL)
    goto failed;

  if (ranks != NULL)
    {
      hist->n_ranks = n_ranks;
      hist->ranks = _tprof_malloc_array (n_ranks, sizeof *hist->ranks);
      hist->rank_counts = calloc (n_cells > 0 ? n_cells : 1, sizeof *hist->rank_counts);
      if (hist->ranks == NULL || hist->rank_counts == NULL)
        goto failed;
      memcpy (hist->ranks, ranks, n_ranks * sizeof *hist->ranks);
    }
  return hist;

failed:
  tprof_histogram_free (hist);
  return NULL;
}

/* Picks the bin count and allocates @hist with the edges for @range, and
 * sets up @binning to count into it. NULL when memory is exhausted. */
static TprofHistogram *
histogram_place_edges (const double           *times,
                       size_t                  n,
                       size_t                  n_bins,
                       bool                    log,
                       const TprofBinnedRange *range,
                       const TprofRankIndex   *rows,
                       TprofBinning           *binning)
{
  TprofHistogram *hist;
  double first, last;

  if (n_bins == TPROF_HISTOGRAM_AUTO_BINS)
    n_bins = cap_auto_bins (auto_bins_of (times, n, log, range,
                                          log ? log10 (range->min) : range->min,
                                          log ? log10 (range->max) : range->max));

  hist = _tprof_histogram_new (n_bins, rows != NULL ? rows->ranks : NULL, rows != NULL ? rows->n_ranks : 0);
  if (hist == NULL)
    return NULL;
  place_edges (hist->edges, n_bins, range->min, range->max, log, &first, &last);

  *binning = (TprofBinning) {
    .log = log,
    .first = first,
    .last = last,
    .norm = (double) n_bins / (last - first),
    .n_bins = n_bins,
    .edges = hist->edges,
  };
  /* numpy itself fails on such ranges; tprof falls back on the edges. */
  binning->search = !log && !(isfinite (last - first) && isfinite (binning->norm)
                              && binning->norm > 0.0);
  return hist;
}

/* The extremes and count of what a histogram of @gt bins; cached extremes
 * spare a scan. */
static void
histogram_range (const TprofGatheredTime *gt,
                 bool                     log,
                 TprofBinnedRange        *range)
{
  size_t n = tprof_gathered_time_count (gt);

  if (!log && n > 0 && _tprof_gathered_time_extremes (gt, &range->min, &range->max))
    {
      range->n_used = n;
      range->n_nonpositive = 0;
    }
  else
    binned_range_scan (tprof_gathered_time_times (gt), n, log, range);
}

TprofHistogram *
tprof_histogram_compute (const TprofGatheredTime *gt,
                         size_t                   n_bins,
                         TprofHistogramFlags      flags)
{
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);
  bool log = (flags & TPROF_HISTOGRAM_LOG) != 0;
  bool separate = (flags & TPROF_HISTOGRAM_SEPARATE_RANKS) != 0;
  TprofRankIndex rows = { 0 };
  TprofBinnedRange range;
  TprofBinning binning;
  TprofHistogram *hist = NULL;

  histogram_range (gt, log, &range);
  if (range.n_used == 0)
    {
      hist = _tprof_histogram_new (0, NULL, 0);
      if (hist != NULL)
        hist->n_nonpositive = range.n_nonpositive;
      return hist;
    }

  if (separate && !_tprof_rank_index_init (&rows, ranks, n))
    return NULL;

  hist = histogram_place_edges (times, n, n_bins, log, &range, separate ? &rows : NULL, &binning);
  if (hist == NULL)
    goto failed;
  hist->n_nonpositive = range.n_nonpositive;

  if (!_tprof_binning_count (&binning, times, ranks, n, separate ? &rows : NULL,
                             separate ? hist->rank_counts : hist->counts))
    goto failed;

  if (separate)
    {
      /* The combined counts are the column sums of the rank rows. */
      for (size_t r = 0; r < hist->n_ranks; r++)
        for (size_t b = 0; b < hist->n_bins; b++)
          hist->counts[b] += hist->rank_counts[r * hist->n_bins + b];
    }

  _tprof_rank_index_clear (&rows);
  return hist;

failed:
  _tprof_rank_index_clear (&rows);
  tprof_histogram_free (hist);
  return NULL;
}

ptrdiff_t
tprof_histogram_find_bin (const TprofHistogram *hist,
                          double                value)
{
  if (hist == NULL || hist->n_bins == 0 || hist->edges == NULL)
    return -1;

  return _tprof_edges_search (hist->edges, hist->n_bins, value);
}
