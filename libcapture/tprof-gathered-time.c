/* tprof-gathered-time.c — a selection of samples over ranks: ownership, accessors and statistics. */

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-gathered-time.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select.h"

struct _TprofGatheredTime
{
  double  *times;
  int32_t *ranks;
  size_t   n;
};

TprofGatheredTime *
tprof_gathered_time_new_take (double  *times,
                              int32_t *ranks,
                              size_t   n)
{
  TprofGatheredTime *gt = NULL;

  if (n == 0 || (times != NULL && ranks != NULL))
    gt = calloc (1, sizeof *gt);
  if (gt == NULL)
    {
      free (times);
      free (ranks);
      return NULL;
    }

  /* An empty selection holds no arrays, so times() is NULL as documented. */
  if (n == 0)
    {
      free (times);
      free (ranks);
      times = NULL;
      ranks = NULL;
    }

  gt->times = times;
  gt->ranks = ranks;
  gt->n = n;

  return gt;
}

TprofGatheredTime *
tprof_gathered_time_new (const double  *times,
                         const int32_t *ranks,
                         size_t         n)
{
  double *times_copy = NULL;
  int32_t *ranks_copy = NULL;

  if (n > 0)
    {
      if (times == NULL || ranks == NULL)
        return NULL;

      times_copy = _tprof_malloc_array (n, sizeof *times_copy);
      ranks_copy = _tprof_malloc_array (n, sizeof *ranks_copy);
      if (times_copy == NULL || ranks_copy == NULL)
        {
          free (times_copy);
          free (ranks_copy);
          return NULL;
        }

      memcpy (times_copy, times, n * sizeof *times_copy);
      memcpy (ranks_copy, ranks, n * sizeof *ranks_copy);
    }

  return tprof_gathered_time_new_take (times_copy, ranks_copy, n);
}

void
tprof_gathered_time_free (TprofGatheredTime *gt)
{
  if (gt == NULL)
    return;

  free (gt->times);
  free (gt->ranks);
  free (gt);
}

const double *
tprof_gathered_time_times (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->times : NULL;
}

const int32_t *
tprof_gathered_time_ranks (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->ranks : NULL;
}

size_t
tprof_gathered_time_count (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->n : 0;
}

bool
tprof_gathered_time_is_empty (const TprofGatheredTime *gt)
{
  return tprof_gathered_time_count (gt) == 0;
}

/* ---- rank index ---- */

/* A lookup table costs 4 bytes per rank in the span of ranks: allow it while
 * that stays within a small multiple of the data (or small outright), so a
 * few ranks numbered in the millions never allocate a huge table. */
#define DENSE_SPAN_SLACK 65536

static int
compare_ranks (const void *a,
               const void *b)
{
  int32_t x = *(const int32_t *) a;
  int32_t y = *(const int32_t *) b;

  return (x > y) - (x < y);
}

void
_tprof_rank_index_clear (TprofRankIndex *index)
{
  free (index->ranks);
  free (index->dense_rows);
  memset (index, 0, sizeof *index);
}

ptrdiff_t
_tprof_rank_index_search (const TprofRankIndex *index,
                          int32_t               rank)
{
  size_t lo = 0;
  size_t hi = index->n_ranks;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (index->ranks[mid] < rank)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo < index->n_ranks && index->ranks[lo] == rank)
    return (ptrdiff_t) lo;
  return -1;
}

static bool
rank_index_init_dense (TprofRankIndex *index,
                       const int32_t  *ranks,
                       size_t          n)
{
  size_t n_ranks = 0;
  uint32_t *rows;
  int64_t base = index->base;

  rows = index->dense_rows = calloc (index->span, sizeof *index->dense_rows);
  if (rows == NULL)
    return false;

  for (size_t i = 0; i < n; i++)
    rows[ranks[i] - base] = 1;

  for (size_t offset = 0; offset < index->span; offset++)
    if (index->dense_rows[offset] != 0)
      index->dense_rows[offset] = (uint32_t) ++n_ranks;

  index->ranks = _tprof_malloc_array (n_ranks, sizeof *index->ranks);
  if (index->ranks == NULL)
    return false;

  for (size_t offset = 0; offset < index->span; offset++)
    if (index->dense_rows[offset] != 0)
      index->ranks[index->dense_rows[offset] - 1] = (int32_t) (index->base + (int64_t) offset);
  index->n_ranks = n_ranks;

  return true;
}

static bool
rank_index_init_sparse (TprofRankIndex *index,
                        const int32_t  *ranks,
                        size_t          n)
{
  size_t n_ranks = 0;
  int32_t *shrunk;

  index->ranks = _tprof_malloc_array (n, sizeof *index->ranks);
  if (index->ranks == NULL)
    return false;

  memcpy (index->ranks, ranks, n * sizeof *ranks);
  qsort (index->ranks, n, sizeof *index->ranks, compare_ranks);

  for (size_t i = 0; i < n; i++)
    if (n_ranks == 0 || index->ranks[n_ranks - 1] != index->ranks[i])
      index->ranks[n_ranks++] = index->ranks[i];
  index->n_ranks = n_ranks;

  /* Give back the room of the duplicates; keeping it is harmless. */
  shrunk = realloc (index->ranks, n_ranks * sizeof *index->ranks);
  if (shrunk != NULL)
    index->ranks = shrunk;

  return true;
}

/* Four independent lanes, as in _tprof_values_min_max(): one running
 * min/max would wait on each comparison. */
static void
ranks_min_max (const int32_t *ranks,
               size_t         n,
               int32_t       *lowest,
               int32_t       *highest)
{
  int32_t lo[4] = { INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX };
  int32_t hi[4] = { INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN };
  size_t i;

  for (i = 0; i + 4 <= n; i += 4)
    for (size_t lane = 0; lane < 4; lane++)
      {
        lo[lane] = ranks[i + lane] < lo[lane] ? ranks[i + lane] : lo[lane];
        hi[lane] = ranks[i + lane] > hi[lane] ? ranks[i + lane] : hi[lane];
      }
  for (; i < n; i++)
    {
      lo[0] = ranks[i] < lo[0] ? ranks[i] : lo[0];
      hi[0] = ranks[i] > hi[0] ? ranks[i] : hi[0];
    }

  *lowest = lo[0];
  *highest = hi[0];
  for (size_t lane = 1; lane < 4; lane++)
    {
      *lowest = lo[lane] < *lowest ? lo[lane] : *lowest;
      *highest = hi[lane] > *highest ? hi[lane] : *highest;
    }
}

bool
_tprof_rank_index_init (TprofRankIndex *index,
                        const int32_t  *ranks,
                        size_t          n)
{
  int32_t lowest = INT32_MAX;
  int32_t highest = INT32_MIN;
  uint64_t span;
  bool ok;

  memset (index, 0, sizeof *index);
  if (n == 0)
    return true;

  ranks_min_max (ranks, n, &lowest, &highest);

  span = (uint64_t) ((int64_t) highest - lowest) + 1;
  index->base = lowest;

  if (span <= DENSE_SPAN_SLACK || (span < UINT32_MAX && span / 2 <= n))
    {
      index->span = (size_t) span;
      ok = rank_index_init_dense (index, ranks, n);
    }
  else
    ok = rank_index_init_sparse (index, ranks, n);

  if (!ok)
    _tprof_rank_index_clear (index);
  return ok;
}

/* ---- statistics of a plain array ---- */

/* numpy's block size: up to it, eight interleaved sums; above it, halves. */
#define PAIRWISE_BLOCK 128

static inline double
deviation_term (double x,
                double shift,
                bool   square)
{
  double d = x - shift;

  return square ? d * d : d;
}

/* numpy's leaf: eight interleaved sums over a block of at most
 * PAIRWISE_BLOCK values. Always inlined with a constant @square, so that
 * each caller gets a loop without the test. */
static inline __attribute__ ((always_inline)) double
pairwise_block (const double *x,
                size_t        n,
                double        shift,
                bool          square)
{
  double r[8];
  double result;
  size_t i;

  if (n < 8)
    {
      result = 0.0;
      for (i = 0; i < n; i++)
        result += deviation_term (x[i], shift, square);
      return result;
    }

  for (size_t j = 0; j < 8; j++)
    r[j] = deviation_term (x[j], shift, square);

  for (i = 8; i < n - n % 8; i += 8)
    for (size_t j = 0; j < 8; j++)
      r[j] += deviation_term (x[i + j], shift, square);

  result = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; i++)
    result += deviation_term (x[i], shift, square);
  return result;
}

/* numpy's split point: half, rounded down to a multiple of the 8 lanes. */
static inline size_t
pairwise_split (size_t n)
{
  size_t half = n / 2;

  return half - half % 8;
}

/* Pairwise sums of (x - shift) and of (x - shift)^2, as numpy sums:
 * rounding error grows with log n rather than n. */
static double
pairwise_sum (const double *x,
              size_t        n,
              double        shift)
{
  size_t half;

  if (n <= PAIRWISE_BLOCK)
    return pairwise_block (x, n, shift, false);

  half = pairwise_split (n);
  return pairwise_sum (x, half, shift) + pairwise_sum (x + half, n - half, shift);
}

static double
pairwise_sum_squares (const double *x,
                      size_t        n,
                      double        shift)
{
  size_t half;

  if (n <= PAIRWISE_BLOCK)
    return pairwise_block (x, n, shift, true);

  half = pairwise_split (n);
  return pairwise_sum_squares (x, half, shift) + pairwise_sum_squares (x + half, n - half, shift);
}

static double
values_sum (const double *x,
            size_t        n)
{
  return pairwise_sum (x, n, 0.0);
}

/* Two passes around the mean, plus the corrected two-pass term that
 * removes most of the rounding error left in the mean itself: no
 * cancellation for data like 1e9 + noise. */
static double
values_std (const double *x,
            size_t        n,
            double        mean)
{
  double squares, residual;

  if (n < 2)
    return NAN;

  squares = pairwise_sum_squares (x, n, mean);
  residual = pairwise_sum (x, n, mean);
  return sqrt (fmax (squares - residual * residual / (double) n, 0.0) / (double) (n - 1));
}

static inline void
min_max_step (double    v,
              double   *lo,
              double   *hi,
              unsigned *nan_seen)
{
  *lo = v < *lo ? v : *lo;
  *hi = v > *hi ? v : *hi;
  *nan_seen |= isnan (v);
}

bool
_tprof_values_min_max (const double *x,
                       size_t        n,
                       double       *min,
                       double       *max)
{
  double lo0, lo1, lo2, lo3, hi0, hi1, hi2, hi3;
  unsigned nan_seen = 0;
  size_t i;

  *min = NAN;
  *max = NAN;
  if (n == 0)
    return true;

  /* Four independent lanes in scalars the compiler keeps in registers: one
   * running min/max is bound by the latency of each comparison, four keep
   * the loop at memory speed. */
  lo0 = lo1 = lo2 = lo3 = hi0 = hi1 = hi2 = hi3 = x[0];
  for (i = 0; i + 4 <= n; i += 4)
    {
      min_max_step (x[i], &lo0, &hi0, &nan_seen);
      min_max_step (x[i + 1], &lo1, &hi1, &nan_seen);
      min_max_step (x[i + 2], &lo2, &hi2, &nan_seen);
      min_max_step (x[i + 3], &lo3, &hi3, &nan_seen);
    }
  for (; i < n; i++)
    min_max_step (x[i], &lo0, &hi0, &nan_seen);

  *min = fmin (fmin (lo0, lo1), fmin (lo2, lo3));
  *max = fmax (fmax (hi0, hi1), fmax (hi2, hi3));

  /* A NaN never wins a comparison; an infinity shows in the extremes. */
  return nan_seen == 0 && isfinite (*min) && isfinite (*max);
}

static void
values_summarize (const double     *x,
                  size_t            n,
                  TprofRankSummary *out)
{
  out->count = n;
  out->sum = values_sum (x, n);
  out->mean = n > 0 ? out->sum / (double) n : NAN;
  out->std = values_std (x, n, out->mean);
  _tprof_values_min_max (x, n, &out->min, &out->max);
}

/* ---- statistics of a selection ---- */

/* Counts distinct ranks in a fixed bitmap window slid over the span of
 * ranks: slow for sparse ranks, but needs no memory, for when malloc fails. */
static size_t
count_distinct_ranks_in_place (const int32_t *ranks,
                               size_t         n)
{
  enum { WINDOW_BITS = 8192 * 8 };
  uint8_t seen[WINDOW_BITS / 8];
  int64_t lowest = INT32_MAX;
  int64_t highest = INT32_MIN;
  size_t n_distinct = 0;

  for (size_t i = 0; i < n; i++)
    {
      if (ranks[i] < lowest)
        lowest = ranks[i];
      if (ranks[i] > highest)
        highest = ranks[i];
    }

  for (int64_t window = lowest; window <= highest; window += WINDOW_BITS)
    {
      memset (seen, 0, sizeof seen);
      for (size_t i = 0; i < n; i++)
        {
          int64_t offset = (int64_t) ranks[i] - window;

          if (offset >= 0 && offset < WINDOW_BITS
              && !(seen[offset / 8] & (1u << (offset % 8))))
            {
              seen[offset / 8] |= (uint8_t) (1u << (offset % 8));
              n_distinct++;
            }
        }
    }

  return n_distinct;
}

size_t
tprof_gathered_time_rank_count (const TprofGatheredTime *gt)
{
  TprofRankIndex index;
  size_t n_ranks;

  if (tprof_gathered_time_is_empty (gt))
    return 0;

  if (!_tprof_rank_index_init (&index, gt->ranks, gt->n))
    return count_distinct_ranks_in_place (gt->ranks, gt->n);

  n_ranks = index.n_ranks;
  _tprof_rank_index_clear (&index);
  return n_ranks;
}

double
tprof_gathered_time_sum (const TprofGatheredTime *gt)
{
  if (tprof_gathered_time_is_empty (gt))
    return 0.0;
  return values_sum (gt->times, gt->n);
}

double
tprof_gathered_time_mean (const TprofGatheredTime *gt)
{
  if (tprof_gathered_time_is_empty (gt))
    return NAN;
  return values_sum (gt->times, gt->n) / (double) gt->n;
}

double
tprof_gathered_time_std (const TprofGatheredTime *gt)
{
  if (tprof_gathered_time_count (gt) < 2)
    return NAN;
  return values_std (gt->times, gt->n, tprof_gathered_time_mean (gt));
}

double
tprof_gathered_time_min (const TprofGatheredTime *gt)
{
  double min, max;

  _tprof_values_min_max (tprof_gathered_time_times (gt), tprof_gathered_time_count (gt), &min, &max);
  return min;
}

double
tprof_gathered_time_max (const TprofGatheredTime *gt)
{
  double min, max;

  _tprof_values_min_max (tprof_gathered_time_times (gt), tprof_gathered_time_count (gt), &min, &max);
  return max;
}

bool
tprof_gathered_time_quantiles (const TprofGatheredTime *gt,
                               const double            *qs,
                               size_t                   n_qs,
                               double                  *out)
{
  size_t n = tprof_gathered_time_count (gt);
  double *scratch = NULL;
  bool ok;

  if (n_qs > 0 && (qs == NULL || out == NULL))
    return false;

  if (n > 0)
    {
      scratch = _tprof_malloc_array (n, sizeof *scratch);
      if (scratch == NULL)
        return false;
      memcpy (scratch, gt->times, n * sizeof *scratch);
    }

  ok = _tprof_select_quantiles (scratch, n, qs, n_qs, out);
  free (scratch);
  return ok;
}

double
tprof_gathered_time_quantile (const TprofGatheredTime *gt,
                              double                   q)
{
  double result;

  if (!tprof_gathered_time_quantiles (gt, &q, 1, &result))
    return NAN;
  return result;
}

/* ---- sub-selections ---- */

TprofGatheredTime *
tprof_gathered_time_get_rank (const TprofGatheredTime *gt,
                              const int32_t           *ranks,
                              size_t                   n_ranks)
{
  TprofRankIndex wanted;
  double *times = NULL;
  int32_t *sample_ranks = NULL;
  size_t n = tprof_gathered_time_count (gt);
  size_t n_kept = 0;

  if (n_ranks > 0 && ranks == NULL)
    return NULL;
  if (!_tprof_rank_index_init (&wanted, ranks, n_ranks))
    return NULL;

  for (size_t i = 0; i < n; i++)
    if (_tprof_rank_index_lookup (&wanted, gt->ranks[i]) >= 0)
      n_kept++;

  if (n_kept > 0)
    {
      times = _tprof_malloc_array (n_kept, sizeof *times);
      sample_ranks = _tprof_malloc_array (n_kept, sizeof *sample_ranks);
      if (times != NULL && sample_ranks != NULL)
        {
          size_t j = 0;

          for (size_t i = 0; i < n; i++)
            if (_tprof_rank_index_lookup (&wanted, gt->ranks[i]) >= 0)
              {
                times[j] = gt->times[i];
                sample_ranks[j] = gt->ranks[i];
                j++;
              }
        }
      else
        {
          free (times);
          free (sample_ranks);
          _tprof_rank_index_clear (&wanted);
          return NULL;
        }
    }

  _tprof_rank_index_clear (&wanted);
  return tprof_gathered_time_new_take (times, sample_ranks, n_kept);
}

/* Python's PySlice_AdjustIndices for one bound. */
static ptrdiff_t
slice_clamp_bound (ptrdiff_t bound,
                   ptrdiff_t length,
                   ptrdiff_t step)
{
  if (bound < 0)
    {
      bound += length;
      if (bound < 0)
        bound = step < 0 ? -1 : 0;
    }
  else if (bound >= length)
    bound = step < 0 ? length - 1 : length;

  return bound;
}

TprofGatheredTime *
tprof_gathered_time_slice (const TprofGatheredTime *gt,
                           ptrdiff_t                start,
                           ptrdiff_t                stop,
                           ptrdiff_t                step)
{
  ptrdiff_t length = (ptrdiff_t) tprof_gathered_time_count (gt);
  size_t slice_length = 0;
  double *times = NULL;
  int32_t *ranks = NULL;

  if (step == TPROF_SLICE_DEFAULT)
    step = 1;
  if (step == 0)
    return NULL;

  if (start == TPROF_SLICE_DEFAULT)
    start = step < 0 ? length - 1 : 0;
  else
    start = slice_clamp_bound (start, length, step);

  if (stop == TPROF_SLICE_DEFAULT)
    stop = step < 0 ? -1 : length;
  else
    stop = slice_clamp_bound (stop, length, step);

  /* Divide as unsigned: -step cannot overflow since step > PTRDIFF_MIN. */
  if (step > 0 && start < stop)
    slice_length = (size_t) (stop - start - 1) / (size_t) step + 1;
  else if (step < 0 && stop < start)
    slice_length = (size_t) (start - stop - 1) / (size_t) -step + 1;

  if (slice_length > 0)
    {
      times = _tprof_malloc_array (slice_length, sizeof *times);
      ranks = _tprof_malloc_array (slice_length, sizeof *ranks);
      if (times == NULL || ranks == NULL)
        {
          free (times);
          free (ranks);
          return NULL;
        }

      for (size_t k = 0; k < slice_length; k++)
        {
          size_t i = (size_t) (start + (ptrdiff_t) k * step);

          times[k] = gt->times[i];
          ranks[k] = gt->ranks[i];
        }
    }

  return tprof_gathered_time_new_take (times, ranks, slice_length);
}

/* ---- per-rank statistics ---- */

size_t
tprof_gathered_time_rank_summaries (const TprofGatheredTime  *gt,
                                    TprofRankSummary        **out)
{
  TprofRankIndex index;
  TprofRankSummary *summaries = NULL;
  double *grouped = NULL;
  size_t *offsets = NULL;
  size_t n = tprof_gathered_time_count (gt);
  size_t n_ranks;

  if (out == NULL)
    return (size_t) -1;
  *out = NULL;
  if (n == 0)
    return 0;

  if (!_tprof_rank_index_init (&index, gt->ranks, n))
    return (size_t) -1;
  n_ranks = index.n_ranks;

  summaries = _tprof_malloc_array (n_ranks, sizeof *summaries);
  grouped = _tprof_malloc_array (n, sizeof *grouped);
  offsets = calloc (n_ranks + 1, sizeof *offsets);
  if (summaries == NULL || grouped == NULL || offsets == NULL)
    {
      free (summaries);
      free (grouped);
      free (offsets);
      _tprof_rank_index_clear (&index);
      return (size_t) -1;
    }

  /* A counting sort by rank keeps each rank's samples contiguous and in
   * recording order, so each rank reuses the whole-array statistics. */
  for (size_t i = 0; i < n; i++)
    offsets[_tprof_rank_index_lookup (&index, gt->ranks[i]) + 1]++;
  for (size_t r = 0; r < n_ranks; r++)
    offsets[r + 1] += offsets[r];
  for (size_t i = 0; i < n; i++)
    grouped[offsets[_tprof_rank_index_lookup (&index, gt->ranks[i])]++] = gt->times[i];

  /* The fill loop advanced each offset to the start of the next rank. */
  for (size_t r = 0; r < n_ranks; r++)
    {
      size_t begin = r > 0 ? offsets[r - 1] : 0;

      values_summarize (grouped + begin, offsets[r] - begin, &summaries[r]);
      summaries[r].rank = index.ranks[r];
    }

  free (grouped);
  free (offsets);
  _tprof_rank_index_clear (&index);

  *out = summaries;
  return n_ranks;
}

bool
tprof_gathered_time_summarize (const TprofGatheredTime *gt,
                               TprofSummary            *out)
{
  static const double percentiles[] = { 0.5, 0.95, 0.99 };
  double quantiles[3];
  TprofRankSummary whole;
  TprofRankSummary *ranks = NULL;
  size_t n = tprof_gathered_time_count (gt);
  size_t n_ranks;
  double *totals;
  size_t slowest = 0;

  if (out == NULL)
    return false;

  values_summarize (tprof_gathered_time_times (gt), n, &whole);
  if (!tprof_gathered_time_quantiles (gt, percentiles, 3, quantiles))
    return false;

  n_ranks = tprof_gathered_time_rank_summaries (gt, &ranks);
  if (n_ranks == (size_t) -1)
    return false;

  out->count = n;
  out->rank_count = n_ranks;
  out->sum = n > 0 ? whole.sum : 0.0;
  out->mean = whole.mean;
  out->std = whole.std;
  out->min = whole.min;
  out->max = whole.max;
  out->median = quantiles[0];
  out->p95 = quantiles[1];
  out->p99 = quantiles[2];
  out->imbalance = NAN;
  out->slowest_rank = -1;

  if (n_ranks == 0)
    return true;

  totals = _tprof_malloc_array (n_ranks, sizeof *totals);
  if (totals == NULL)
    {
      free (ranks);
      return false;
    }

  /* Ascending ranks and a strict comparison: the lowest rank wins a tie. */
  for (size_t r = 0; r < n_ranks; r++)
    {
      totals[r] = ranks[r].sum;
      if (totals[r] > totals[slowest])
        slowest = r;
    }

  out->slowest_rank = ranks[slowest].rank;
  out->imbalance = totals[slowest] / (values_sum (totals, n_ranks) / (double) n_ranks);

  free (totals);
  free (ranks);
  return true;
}
