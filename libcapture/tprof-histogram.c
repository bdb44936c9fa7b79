/* tprof-histogram.c — numpy.histogram-compatible binning of a selection, combined or per rank. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-histogram.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select.h"

/* How samples map to bins: numpy's fast path for equal bins, or for a log
 * axis a guess from log10 corrected against the edges; a binary search of
 * the edges when the range is too absurd for a scale factor (a denormal
 * width, a width beyond DBL_MAX). */
typedef struct
{
  bool          log;
  bool          search;
  double        first;   /* the outer edges, in log10 for a log axis */
  double        last;
  double        norm;    /* n_bins / (last - first) */
  size_t        n_bins;
  const double *edges;
} TprofBinning;

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

/* numpy's _hist_bin_auto on @values (reordered: scratch), whose extremes
 * are @min and @max. */
static size_t
auto_bins_of (double *values,
              size_t  n,
              double  min,
              double  max)
{
  static const double quartiles[] = { 0.75, 0.25 };
  double quartile_values[2];
  double ptp = max - min;
  double sturges_width, fd_width = 0.0, width, bins;

  if (n < 2 || ptp == 0.0)
    return 1;

  sturges_width = ptp / (log2 ((double) n) + 1.0);
  /* Without memory for the quartiles, Sturges alone still gives a sane count. */
  if (_tprof_select_quantiles (values, n, quartiles, 2, quartile_values))
    fd_width = 2.0 * (quartile_values[0] - quartile_values[1]) * pow ((double) n, -1.0 / 3.0);

  /* Python's min (fd, sturges) keeps fd unless sturges is strictly smaller. */
  width = fd_width != 0.0 ? (sturges_width < fd_width ? sturges_width : fd_width) : sturges_width;
  if (!(width > 0.0))
    return 1;

  bins = ceil (ptp / width);
  if (!(bins < (double) SIZE_MAX))
    return SIZE_MAX;
  return bins < 1.0 ? 1 : (size_t) bins;
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

size_t
tprof_histogram_auto_bins (const double *values,
                           size_t        n)
{
  TprofBinnedRange range;
  double *scratch;
  size_t bins;

  if (values == NULL || n < 2)
    return 1;

  binned_range_scan (values, n, false, &range);
  if (range.n_used < 2 || range.min == range.max)
    return 1;

  scratch = copy_used_samples (values, n, range.n_used, false);
  if (scratch == NULL)
    {
      /* No scratch for the quartiles: Sturges only. */
      double sturges = ceil (log2 ((double) range.n_used) + 1.0);
      return (size_t) sturges;
    }

  bins = auto_bins_of (scratch, range.n_used, range.min, range.max);
  free (scratch);
  return bins;
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
static ptrdiff_t
edges_search (const double *edges,
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

/* Counts every sample into @counts (n_bins wide) or, with @rows, into the
 * row of its rank. Called with a constant @log so that each variant of the
 * loop is compiled without the other's code; works on a local copy of
 * @binning since stores to @counts could otherwise alias it. */
static inline __attribute__ ((always_inline)) void
binning_count (const TprofBinning   *binning,
               const double         *times,
               const int32_t        *ranks,
               size_t                n,
               const TprofRankIndex *rows,
               uint64_t             *counts,
               bool                  log)
{
  const TprofBinning local = *binning;

  for (size_t i = 0; i < n; i++)
    {
      ptrdiff_t bin = log ? binning_find_log (&local, times[i])
                          : binning_find_linear (&local, times[i]);
      size_t offset;

      if (bin < 0)
        continue;

      offset = (size_t) bin;
      if (rows != NULL)
        offset += (size_t) _tprof_rank_index_lookup (rows, ranks[i]) * local.n_bins;
      counts[offset]++;
    }
}

/* The same for absurd ranges, with the edges searched for every sample. */
static void
binning_count_searching (const TprofBinning   *binning,
                         const double         *times,
                         const int32_t        *ranks,
                         size_t                n,
                         const TprofRankIndex *rows,
                         uint64_t             *counts)
{
  for (size_t i = 0; i < n; i++)
    {
      ptrdiff_t bin = edges_search (binning->edges, binning->n_bins, times[i]);
      size_t offset;

      if (bin < 0)
        continue;

      offset = (size_t) bin;
      if (rows != NULL)
        offset += (size_t) _tprof_rank_index_lookup (rows, ranks[i]) * binning->n_bins;
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
    binning_count_searching (binning, times, ranks, n, rows, counts);
  else if (binning->log)
    binning_count (binning, times, ranks, n, rows, counts, true);
  else
    binning_count (binning, times, ranks, n, rows, counts, false);
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

/* Allocates the edges, counts and, for separate ranks, the per-rank rows. */
static bool
histogram_allocate (TprofHistogram       *hist,
                    size_t                n_bins,
                    const TprofRankIndex *rows)
{
  size_t n_edges;

  if (__builtin_add_overflow (n_bins, 1, &n_edges))
    return false;

  hist->n_bins = n_bins;
  hist->edges = _tprof_malloc_array (n_edges, sizeof *hist->edges);
  hist->counts = calloc (n_bins, sizeof *hist->counts);
  if (hist->edges == NULL || hist->counts == NULL)
    return false;

  if (rows != NULL)
    {
      size_t n_cells;

      if (__builtin_mul_overflow (rows->n_ranks, n_bins, &n_cells))
        return false;

      hist->n_ranks = rows->n_ranks;
      hist->ranks = _tprof_malloc_array (rows->n_ranks, sizeof *hist->ranks);
      hist->rank_counts = calloc (n_cells, sizeof *hist->rank_counts);
      if (hist->ranks == NULL || hist->rank_counts == NULL)
        return false;
      memcpy (hist->ranks, rows->ranks, rows->n_ranks * sizeof *hist->ranks);
    }

  return true;
}

/* Picks the bin count and fills the edges of @hist for @range. */
static bool
histogram_place_edges (TprofHistogram         *hist,
                       const double           *times,
                       size_t                  n,
                       size_t                  n_bins,
                       bool                    log,
                       const TprofBinnedRange *range,
                       const TprofRankIndex   *rows,
                       TprofBinning           *binning)
{
  double first = log ? log10 (range->min) : range->min;
  double last = log ? log10 (range->max) : range->max;
  bool widened = first == last;

  if (n_bins == TPROF_HISTOGRAM_AUTO_BINS)
    {
      double *scratch = copy_used_samples (times, n, range->n_used, log);

      if (scratch == NULL)
        return false;
      n_bins = auto_bins_of (scratch, range->n_used, first, last);
      free (scratch);
    }

  /* numpy widens a single distinct value to [v - 0.5, v + 0.5]. */
  if (widened)
    {
      first -= 0.5;
      last += 0.5;
    }

  if (!histogram_allocate (hist, n_bins, rows))
    return false;

  fill_linear_edges (hist->edges, n_bins, first, last);
  if (log)
    {
      for (size_t i = 0; i <= n_bins; i++)
        hist->edges[i] = pow (10.0, hist->edges[i]);

      /* 10**log10(v) can miss v by an ulp; pin the outer edges to the
       * data so that the smallest and largest samples are always counted. */
      if (!widened)
        {
          hist->edges[0] = range->min;
          hist->edges[n_bins] = range->max;
        }
    }

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
  return true;
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
  TprofHistogram *hist;

  hist = calloc (1, sizeof *hist);
  if (hist == NULL)
    return NULL;

  binned_range_scan (times, n, log, &range);
  hist->n_nonpositive = range.n_nonpositive;
  if (range.n_used == 0)
    return hist;

  if (separate && !_tprof_rank_index_init (&rows, ranks, n))
    goto failed;

  if (!histogram_place_edges (hist, times, n, n_bins, log, &range,
                              separate ? &rows : NULL, &binning))
    goto failed;

  if (separate)
    {
      binning_count_all (&binning, times, ranks, n, &rows, hist->rank_counts);

      /* The combined counts are the column sums of the rank rows. */
      for (size_t r = 0; r < hist->n_ranks; r++)
        for (size_t b = 0; b < hist->n_bins; b++)
          hist->counts[b] += hist->rank_counts[r * hist->n_bins + b];
    }
  else
    binning_count_all (&binning, times, ranks, n, NULL, hist->counts);

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

  return edges_search (hist->edges, hist->n_bins, value);
}
