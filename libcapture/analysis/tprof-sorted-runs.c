/* tprof-sorted-runs.c — sorting one rank's samples, and order statistics and bin counts across several sorted runs. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-sorted-runs-private.h"

/* Below this many values a copy and an in-place selection beat bisection. */
#define SMALL_SELECTION 4096
/* Once the bisection windows hold this few values they are selected directly. */
#define FEW_CANDIDATES 64
/* Below this length a radix sort's tables cost more than insertion sort. */
#define SMALL_SORT 64

#define SIGN_BIT (UINT64_C (1) << 63)

/* Keys that order like the doubles they come from (no NaN): positive
 * values get the sign bit set, negative ones all bits flipped. */
static inline uint64_t
order_key (double x)
{
  uint64_t bits;

  memcpy (&bits, &x, sizeof bits);
  return bits ^ ((uint64_t) ((int64_t) bits >> 63) | SIGN_BIT);
}

static inline double
key_value (uint64_t key)
{
  uint64_t bits = key ^ ((uint64_t) ((int64_t) ~key >> 63) | SIGN_BIT);
  double x;

  memcpy (&x, &bits, sizeof x);
  return x;
}

/* An LSD radix sort of the keys, byte by byte; bytes all keys share are skipped. */
static void
radix_sort_keys (uint64_t *keys,
                 size_t    n,
                 uint64_t *scratch)
{
  size_t histo[8][256];
  uint64_t *src = keys;
  uint64_t *dst = scratch;

  memset (histo, 0, sizeof histo);
  for (size_t i = 0; i < n; i++)
    for (unsigned b = 0; b < 8; b++)
      histo[b][(keys[i] >> (8 * b)) & 0xff]++;

  for (unsigned b = 0; b < 8; b++)
    {
      size_t offsets[256];
      size_t sum = 0;
      unsigned shift = 8 * b;
      uint64_t *tmp;

      if (histo[b][(src[0] >> shift) & 0xff] == n)
        continue;

      for (unsigned d = 0; d < 256; d++)
        {
          offsets[d] = sum;
          sum += histo[b][d];
        }
      for (size_t i = 0; i < n; i++)
        dst[offsets[(src[i] >> shift) & 0xff]++] = src[i];

      tmp = src;
      src = dst;
      dst = tmp;
    }

  if (src != keys)
    memcpy (keys, src, n * sizeof *keys);
}

void
_tprof_sort_doubles (double *values,
                     size_t  n,
                     double *scratch)
{
  /* The build disables strict aliasing: the keys live in the same arrays. */
  uint64_t *keys = (uint64_t *) values;

  if (n < SMALL_SORT)
    {
      if (n > 1)
        _tprof_insertion_sort (values, 0, n - 1);
      return;
    }

  for (size_t i = 0; i < n; i++)
    keys[i] = order_key (values[i]);
  radix_sort_keys (keys, n, (uint64_t *) scratch);
  for (size_t i = 0; i < n; i++)
    values[i] = key_value (keys[i]);
}

size_t
_tprof_sorted_search (const double *values,
                      size_t        from,
                      size_t        len,
                      double        x,
                      bool          inclusive)
{
  size_t lo = from;
  size_t hi;
  size_t step = 1;

#define BEFORE(v) (inclusive ? (v) <= x : (v) < x)
  /* gallop to bracket the answer in [lo, hi) */
  while (lo + step < len && BEFORE (values[lo + step]))
    {
      lo += step;
      step *= 2;
    }
  if (lo >= len || !BEFORE (values[lo]))
    return lo;
  hi = lo + step < len ? lo + step : len;
  lo++;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (BEFORE (values[mid]))
        lo = mid + 1;
      else
        hi = mid;
    }
#undef BEFORE
  return lo;
}

/* The @k-th smallest of the @count values in the runs' windows. */
static double
select_from_windows (TprofSortedRun *runs,
                     size_t          n_runs,
                     size_t          count,
                     size_t          k)
{
  double small[FEW_CANDIDATES];
  double *heap = NULL;
  double *buf = count <= FEW_CANDIDATES ? small : (heap = _tprof_malloc_array (count, sizeof *heap));
  size_t at = 0;
  double kth;

  /* Without memory, the one value the bisection would have found anyway:
   * the k-th of the windows' merged order, by a linear merge. */
  if (buf == NULL)
    {
      for (;;)
        {
          TprofSortedRun *smallest = NULL;

          for (size_t r = 0; r < n_runs; r++)
            if (runs[r].lo < runs[r].hi
                && (smallest == NULL || runs[r].values[runs[r].lo] < smallest->values[smallest->lo]))
              smallest = &runs[r];
          if (k-- == 0)
            return smallest->values[smallest->lo];
          smallest->lo++;
        }
    }

  for (size_t r = 0; r < n_runs; r++)
    {
      size_t len = runs[r].hi - runs[r].lo;

      memcpy (buf + at, runs[r].values + runs[r].lo, len * sizeof *buf);
      at += len;
    }
  _tprof_select_nth (buf, count, k);
  kth = buf[k];
  free (heap);
  return kth;
}

/* How many values of @run's window are <= @pivot; stores the position in run->pos. */
static inline size_t
run_count_le (TprofSortedRun *run,
              double          pivot)
{
  size_t lo = run->lo;
  size_t hi = run->hi;

  while (lo < hi)
    {
      size_t m = lo + (hi - lo) / 2;

      if (run->values[m] <= pivot)
        lo = m + 1;
      else
        hi = m;
    }
  run->pos = lo;
  return lo - run->lo;
}

/* A pivot guess for the (@k - @below)-th of the @remaining window values:
 * the value at that fraction of the largest window, since ranks usually
 * share a distribution. */
static double
interpolated_pivot (const TprofSortedRun *runs,
                    size_t                n_runs,
                    size_t                below,
                    size_t                remaining,
                    size_t                k)
{
  const TprofSortedRun *widest = &runs[0];
  double fraction = ((double) (k - below) + 0.5) / (double) remaining;
  size_t at;

  for (size_t r = 1; r < n_runs; r++)
    if (runs[r].hi - runs[r].lo > widest->hi - widest->lo)
      widest = &runs[r];

  at = widest->lo + (size_t) (fraction * (double) (widest->hi - widest->lo));
  return widest->values[at < widest->hi - 1 ? at : widest->hi - 1];
}

/* Interpolated pivots converge in a few rounds on similar ranks; bisecting
 * the keys afterwards bounds the rounds on any data. */
#define INTERPOLATED_ROUNDS 6

/* Narrows the windows to [lo_key, hi_key] around the k-th: @below values
 * lie under lo_key and at least k + 1 at or under hi_key. */
static double
bisect_windows (TprofSortedRun *runs,
                size_t          n_runs,
                size_t          k,
                uint64_t        lo_key,
                uint64_t        hi_key)
{
  size_t below = 0;
  unsigned round = 0;

  while (lo_key < hi_key)
    {
      uint64_t pivot_key;
      size_t remaining = 0;
      size_t at_most_pivot = below;

      for (size_t r = 0; r < n_runs; r++)
        remaining += runs[r].hi - runs[r].lo;
      if (remaining <= FEW_CANDIDATES)
        return select_from_windows (runs, n_runs, remaining, k - below);

      if (round++ < INTERPOLATED_ROUNDS)
        pivot_key = order_key (interpolated_pivot (runs, n_runs, below, remaining, k));
      else
        pivot_key = lo_key + (hi_key - lo_key) / 2;
      pivot_key = pivot_key < lo_key ? lo_key : pivot_key > hi_key - 1 ? hi_key - 1 : pivot_key;

      for (size_t r = 0; r < n_runs; r++)
        at_most_pivot += run_count_le (&runs[r], key_value (pivot_key));

      if (at_most_pivot >= k + 1)
        {
          hi_key = pivot_key;
          for (size_t r = 0; r < n_runs; r++)
            runs[r].hi = runs[r].pos;
        }
      else
        {
          lo_key = pivot_key + 1;
          below = at_most_pivot;
          for (size_t r = 0; r < n_runs; r++)
            runs[r].lo = runs[r].pos;
        }
    }

  return key_value (hi_key);
}

double
_tprof_sorted_runs_select_kth (TprofSortedRun *runs,
                               size_t          n_runs,
                               size_t          total,
                               size_t          k)
{
  uint64_t lo_key = UINT64_MAX;
  uint64_t hi_key = 0;

  if (n_runs == 1)
    return runs[0].values[k];

  for (size_t r = 0; r < n_runs; r++)
    {
      runs[r].lo = 0;
      runs[r].hi = runs[r].len;
      if (runs[r].len == 0)
        continue;
      lo_key = lo_key < order_key (runs[r].values[0]) ? lo_key : order_key (runs[r].values[0]);
      hi_key = hi_key > order_key (runs[r].values[runs[r].len - 1])
               ? hi_key : order_key (runs[r].values[runs[r].len - 1]);
    }

  if (total <= SMALL_SELECTION)
    return select_from_windows (runs, n_runs, total, k);
  return bisect_windows (runs, n_runs, k, lo_key, hi_key);
}

/* The (@k+1)-th smallest given the @k-th, @kth: itself when repeated, else
 * the smallest value above it. One binary search per run. */
static double
select_next (TprofSortedRun *runs,
             size_t          n_runs,
             size_t          k,
             double          kth)
{
  size_t at_most = 0;
  double next = INFINITY;

  for (size_t r = 0; r < n_runs; r++)
    {
      runs[r].lo = 0;
      runs[r].hi = runs[r].len;
      at_most += run_count_le (&runs[r], kth);
      if (runs[r].pos < runs[r].len && runs[r].values[runs[r].pos] < next)
        next = runs[r].values[runs[r].pos];
    }
  return at_most >= k + 2 ? kth : next;
}

bool
_tprof_sorted_runs_quantiles (TprofSortedRun *runs,
                              size_t          n_runs,
                              size_t          total,
                              const double   *qs,
                              size_t          n_qs,
                              double        (*map) (double),
                              double         *out)
{
  TprofQuantilePlan plan;

  if (!_tprof_quantile_plan_init (&plan, total, qs, n_qs))
    return false;

  /* Many short runs (10^5 ranks of 20 samples): each selection would visit
   * every run many times; one copy of the values and a linear selection
   * cost less. */
  if (plan.n_ranks > 0 && n_runs > 64 && total < 64 * n_runs)
    {
      double *scratch = _tprof_malloc_array (total, sizeof *scratch);
      size_t n = 0;

      if (scratch != NULL)
        {
          for (size_t r = 0; r < n_runs; r++)
            {
              memcpy (scratch + n, runs[r].values, runs[r].len * sizeof *scratch);
              n += runs[r].len;
            }
          _tprof_select_ranks (scratch, n, plan.ranks, plan.n_ranks, plan.values);
          free (scratch);
          for (size_t i = 0; map != NULL && i < plan.n_ranks; i++)
            plan.values[i] = map (plan.values[i]);
          _tprof_quantile_plan_finish (&plan, out);
          return true;
        }
    }

  /* A monotonic @map keeps the order statistics where they are, so only
   * those the interpolation reads need mapping. */
  for (size_t i = 0; i < plan.n_ranks; i++)
    {
      size_t k = plan.ranks[i];
      bool follows = i > 0 && plan.ranks[i - 1] + 1 == k;

      plan.values[i] = follows ? select_next (runs, n_runs, k - 1, plan.values[i - 1])
                               : _tprof_sorted_runs_select_kth (runs, n_runs, total, k);
    }
  for (size_t i = 0; map != NULL && i < plan.n_ranks; i++)
    plan.values[i] = map (plan.values[i]);

  _tprof_quantile_plan_finish (&plan, out);
  return true;
}

/* Runs counted side by side: their searches are independent, so the CPU
 * overlaps their cache misses, which is what bounds this loop. */
#define LANES 8

typedef struct
{
  const TprofSortedRun *runs;
  size_t                lanes;
  size_t                prev[LANES];
  size_t                hint[LANES];
} BinLanes;

/* Where each lane's values stop being < @x: a window from prev that ends
 * at or past x, grown from the expected bin width, then branchless
 * bisections of all lanes in lockstep. */
static void
lanes_lower_bound (const BinLanes *lanes,
                   double          x,
                   size_t          next[LANES])
{
  static const double infinity = INFINITY;
  const double *base[LANES];
  size_t n[LANES];
  bool more = false;

  for (size_t l = 0; l < lanes->lanes; l++)
    {
      const TprofSortedRun *run = &lanes->runs[l];
      size_t rest = run->len - lanes->prev[l];
      size_t w = lanes->hint[l] < rest ? lanes->hint[l] : rest;

      while (w < rest && run->values[lanes->prev[l] + w - 1] < x)
        w = 2 * w < rest ? 2 * w : rest;
      base[l] = w > 0 ? run->values + lanes->prev[l] : &infinity;
      n[l] = w;
      more |= n[l] > 1;
    }

  /* a lane with n <= 1 stays put */
  while (more)
    {
      more = false;
      for (size_t l = 0; l < lanes->lanes; l++)
        {
          size_t half = n[l] / 2;

          base[l] = base[l][half] < x ? base[l] + half : base[l];
          n[l] -= half;
          more |= n[l] > 1;
        }
    }

  for (size_t l = 0; l < lanes->lanes; l++)
    next[l] = n[l] == 0 ? lanes->prev[l]
                        : (size_t) (base[l] - lanes->runs[l].values) + (*base[l] < x);
}

/* The bin of @v: the number of inner edges (edges[1 .. n_bins - 1]) it is
 * not below, as the lower bounds of the lanes count it (NaN: the last). */
static size_t
bin_of (const double *edges,
        size_t        n_bins,
        double        v)
{
  size_t lo = 1, hi = n_bins;

  /* the first inner edge above v is in [lo, hi] */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (v < edges[mid])
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo - 1;
}

/* Runs much shorter than the bins (10^5 ranks of 20 samples): each value
 * finds its bin, rather than each bin's edge being sought in every run. */
static void
count_bins_by_value (const TprofSortedRun *runs,
                     size_t                n_runs,
                     const double         *edges,
                     size_t                n_bins,
                     uint64_t             *counts,
                     uint64_t             *rank_counts)
{
  for (size_t r = 0; r < n_runs; r++)
    {
      uint64_t *row = rank_counts != NULL ? rank_counts + r * n_bins : NULL;

      if (row != NULL)
        memset (row, 0, n_bins * sizeof *row);
      for (size_t k = 0; k < runs[r].len; k++)
        {
          size_t b = bin_of (edges, n_bins, runs[r].values[k]);

          counts[b]++;
          if (row != NULL)
            row[b]++;
        }
    }
}

/* The edges span the values, so every value of a run falls in a bin: the
 * first bin starts at the run's start and the last, closed, ends at its end. */
void
_tprof_sorted_runs_count_bins (const TprofSortedRun *runs,
                               size_t                n_runs,
                               const double         *edges,
                               size_t                n_bins,
                               uint64_t             *counts,
                               uint64_t             *rank_counts)
{
  size_t n_values = 0;

  for (size_t r = 0; r < n_runs; r++)
    n_values += runs[r].len;
  if (n_values < n_runs * n_bins / 4)
    {
      count_bins_by_value (runs, n_runs, edges, n_bins, counts, rank_counts);
      return;
    }
  for (size_t first = 0; first < n_runs; first += LANES)
    {
      BinLanes lanes = { .runs = runs + first, .lanes = n_runs - first < LANES ? n_runs - first : LANES };

      for (size_t l = 0; l < lanes.lanes; l++)
        {
          size_t guess = 2 * lanes.runs[l].len / n_bins;

          lanes.hint[l] = guess > 2 ? guess : 2;
        }

      for (size_t i = 0; i < n_bins; i++)
        {
          size_t next[LANES];

          if (i + 1 == n_bins)
            for (size_t l = 0; l < lanes.lanes; l++)
              next[l] = lanes.runs[l].len;
          else
            lanes_lower_bound (&lanes, edges[i + 1], next);

          for (size_t l = 0; l < lanes.lanes; l++)
            {
              counts[i] += next[l] - lanes.prev[l];
              if (rank_counts != NULL)
                rank_counts[(first + l) * n_bins + i] = next[l] - lanes.prev[l];
              lanes.prev[l] = next[l];
            }
        }
    }
}
