/* tprof-select.c — in-place selection of order statistics, and numpy 'linear' quantiles interpolated from them. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"

/* Below this length insertion sort beats partitioning. */
#define SMALL_RANGE 16
/* From this length a ninther resists adversarial inputs better than a median of three. */
#define NINTHER_RANGE 128
/* Sampled pivots allowed per halving of the input before falling back on
 * the median of medians; the tests build with 0 to exercise that path. */
#ifndef TPROF_SELECT_SAMPLED_PER_LOG2
# define TPROF_SELECT_SAMPLED_PER_LOG2 2
#endif

static inline void
swap_values (double *values,
             size_t  a,
             size_t  b)
{
  double tmp = values[a];

  values[a] = values[b];
  values[b] = tmp;
}

static size_t
median_of_three (const double *values,
                 size_t        a,
                 size_t        b,
                 size_t        c)
{
  if (values[a] < values[b])
    {
      if (values[b] < values[c])
        return b;
      return values[a] < values[c] ? c : a;
    }

  if (values[a] < values[c])
    return a;
  return values[b] < values[c] ? c : b;
}

void
_tprof_insertion_sort (double *values,
                       size_t  lo,
                       size_t  hi)
{
  for (size_t i = lo + 1; i <= hi; i++)
    {
      double v = values[i];
      size_t j = i;

      while (j > lo && v < values[j - 1])
        {
          values[j] = values[j - 1];
          j--;
        }
      values[j] = v;
    }
}

static double
sampled_pivot (const double *values,
               size_t        lo,
               size_t        hi)
{
  size_t len = hi - lo + 1;
  size_t mid = lo + len / 2;
  size_t s;

  if (len < NINTHER_RANGE)
    return values[median_of_three (values, lo, mid, hi)];

  s = len / 8;
  return values[median_of_three (values,
                                 median_of_three (values, lo, lo + s, lo + 2 * s),
                                 median_of_three (values, mid - s, mid, mid + s),
                                 median_of_three (values, hi - 2 * s, hi - s, hi))];
}

/* The median of the medians of groups of five: a pivot that always leaves
 * at least ~30% of the range on each side, used once sampling has failed
 * too often, so that the worst case stays linear. */
static double
median_of_medians_pivot (double *values,
                         size_t  lo,
                         size_t  hi)
{
  size_t n_groups = (hi - lo + 1) / 5;

  for (size_t g = 0; g < n_groups; g++)
    {
      size_t base = lo + 5 * g;

      _tprof_insertion_sort (values, base, base + 4);
      swap_values (values, lo + g, base + 2);
    }

  _tprof_select_nth (values + lo, n_groups, n_groups / 2);
  return values[lo + n_groups / 2];
}

static unsigned
floor_log2 (size_t n)
{
  unsigned r = 0;

  while (n >>= 1)
    r++;
  return r;
}

/* Hoare's partition of values[lo..hi] around the value @pivot, which must
 * be one of them: on return everything in [lo, *below] is <= pivot,
 * everything in [*above, hi] is >= pivot and anything in between equals it.
 * Elements equal to the pivot stop both scans, so many equal timings split
 * evenly instead of making the selection quadratic. The pivot, then each
 * swapped pair, bounds the scans: no index check is needed, and a NaN
 * (which compares false) only stops a scan early. */
static void
partition (double    *values,
           ptrdiff_t  lo,
           ptrdiff_t  hi,
           double     pivot,
           ptrdiff_t *below,
           ptrdiff_t *above)
{
  ptrdiff_t i = lo;
  ptrdiff_t j = hi;

  for (;;)
    {
      while (values[i] < pivot)
        i++;
      while (values[j] > pivot)
        j--;
      if (i >= j)
        break;
      swap_values (values, (size_t) i, (size_t) j);
      i++;
      j--;
    }

  /* The scans met on an element equal to the pivot. */
  if (i == j)
    {
      i++;
      j--;
    }

  *below = j;
  *above = i;
}

void
_tprof_select_nth (double *values,
                   size_t  n,
                   size_t  k)
{
  ptrdiff_t lo = 0;
  ptrdiff_t hi = (ptrdiff_t) n - 1;
  ptrdiff_t target = (ptrdiff_t) k;
  unsigned sampled_budget = TPROF_SELECT_SAMPLED_PER_LOG2 * (floor_log2 (n) + 2);

  while (hi > lo)
    {
      ptrdiff_t below, above;
      double pivot;

      if (hi - lo < SMALL_RANGE)
        {
          _tprof_insertion_sort (values, (size_t) lo, (size_t) hi);
          return;
        }

      if (sampled_budget > 0)
        {
          sampled_budget--;
          pivot = sampled_pivot (values, (size_t) lo, (size_t) hi);
        }
      else
        pivot = median_of_medians_pivot (values, (size_t) lo, (size_t) hi);

      partition (values, lo, hi, pivot, &below, &above);

      if (target <= below)
        hi = below;
      else if (target >= above)
        lo = above;
      else
        return;
    }
}

static int
compare_sizes (const void *a,
               const void *b)
{
  size_t x = *(const size_t *) a;
  size_t y = *(const size_t *) b;

  return (x > y) - (x < y);
}

static bool
quantile_is_valid (double q)
{
  return q >= 0.0 && q <= 1.0;
}

size_t
_tprof_quantile_ranks (size_t        n,
                       const double *qs,
                       size_t        n_qs,
                       size_t       *ranks)
{
  double last_index = (double) (n - 1);
  size_t n_ranks = 0;
  size_t n_distinct = 0;

  if (n == 0)
    return 0;

  for (size_t i = 0; i < n_qs; i++)
    {
      double h = last_index * qs[i];

      if (!quantile_is_valid (qs[i]))
        continue;

      if (h >= last_index)
        ranks[n_ranks++] = n - 1;
      else
        {
          ranks[n_ranks++] = (size_t) floor (h);
          ranks[n_ranks++] = (size_t) floor (h) + 1;
        }
    }

  /* a few ranks (two per quantile): an insertion sort, no qsort call,
   * since a summary of many small operations asks for them every time */
  if (n_ranks <= 16)
    for (size_t i = 1; i < n_ranks; i++)
      for (size_t j = i; j > 0 && ranks[j - 1] > ranks[j]; j--)
        {
          size_t t = ranks[j];

          ranks[j] = ranks[j - 1];
          ranks[j - 1] = t;
        }
  else
    qsort (ranks, n_ranks, sizeof *ranks, compare_sizes);
  for (size_t i = 0; i < n_ranks; i++)
    if (n_distinct == 0 || ranks[n_distinct - 1] != ranks[i])
      ranks[n_distinct++] = ranks[i];
  return n_distinct;
}

void
_tprof_select_ranks (double       *values,
                     size_t        n,
                     const size_t *ranks,
                     size_t        n_ranks,
                     double       *out)
{
  size_t start = 0;

  /* Select in ascending order: each selection leaves everything larger to
   * its right, so the next one only needs to look at what remains there. */
  for (size_t i = 0; i < n_ranks; i++)
    {
      size_t k = ranks[i];

      if (k == start)
        {
          size_t smallest = start;

          for (size_t j = start + 1; j < n; j++)
            if (values[j] < values[smallest])
              smallest = j;
          swap_values (values, start, smallest);
        }
      else
        _tprof_select_nth (values + start, n - start, k - start);

      out[i] = values[k];
      start = k + 1;
    }
}

/* numpy's _lerp: interpolating from the nearer end keeps the result exact
 * at both ends and monotonic in between. */
static double
numpy_lerp (double below,
            double above,
            double gamma)
{
  double diff = above - below;

  if (gamma >= 0.5)
    return above - diff * (1.0 - gamma);
  return below + diff * gamma;
}

/* The value of order statistic @k, which _tprof_quantile_ranks() listed. */
static double
rank_value (const size_t *ranks,
            const double *rank_values,
            size_t        n_ranks,
            size_t        k)
{
  size_t lo = 0;
  size_t hi = n_ranks;

  while (hi - lo > 1)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (ranks[mid] <= k)
        lo = mid;
      else
        hi = mid;
    }
  return rank_values[lo];
}

/* Where numpy's 'linear' quantile @q of @n values lies: order statistic
 * *@below (the last one, *@top set), or between *@below and *@below + 1
 * at @gamma. false when there is no such quantile (no values, @q outside
 * [0, 1]). */
static bool
quantile_position (size_t  n,
                   double  q,
                   size_t *below,
                   double *gamma,
                   bool   *top)
{
  double last_index = (double) (n - 1);
  double h = last_index * q, floor_h;

  if (n == 0 || !quantile_is_valid (q))
    return false;
  *top = h >= last_index;
  if (*top)
    {
      *below = n - 1;
      return true;
    }
  /* 0 <= h < n - 1 < 2^53: the cast is floor(), exactly, without a call */
  *below = (size_t) h;
  floor_h = (double) *below;
  *gamma = h - floor_h;
  return true;
}

void
_tprof_quantiles_interpolate (size_t        n,
                              const double *qs,
                              size_t        n_qs,
                              const size_t *ranks,
                              const double *rank_values,
                              size_t        n_ranks,
                              double       *out)
{
  for (size_t i = 0; i < n_qs; i++)
    {
      size_t below;
      double gamma = 0;
      bool top;

      if (!quantile_position (n, qs[i], &below, &gamma, &top))
        out[i] = NAN;
      else if (top)
        out[i] = rank_value (ranks, rank_values, n_ranks, below);
      else
        out[i] = numpy_lerp (rank_value (ranks, rank_values, n_ranks, below),
                             rank_value (ranks, rank_values, n_ranks, below + 1), gamma);
    }
}

void
_tprof_quantile_spots (TprofQuantileSpots *spots,
                       size_t              n,
                       const double       *qs,
                       size_t              n_qs)
{
  spots->n = n;
  spots->n_qs = n_qs;
  for (size_t i = 0; i < n_qs; i++)
    {
      bool top = false;

      spots->gamma[i] = 0;
      if (!quantile_position (n, qs[i], &spots->below[i], &spots->gamma[i], &top))
        spots->kind[i] = TPROF_SPOT_NONE;
      else
        spots->kind[i] = top ? TPROF_SPOT_AT : TPROF_SPOT_BETWEEN;
    }
}

void
_tprof_sorted_quantiles_at (const double             *sorted,
                            const TprofQuantileSpots *spots,
                            double                   *out)
{
  for (size_t i = 0; i < spots->n_qs; i++)
    {
      size_t below = spots->below[i];

      if (spots->kind[i] == TPROF_SPOT_NONE)
        out[i] = NAN;
      else if (spots->kind[i] == TPROF_SPOT_AT)
        out[i] = sorted[below];
      else
        out[i] = numpy_lerp (sorted[below], sorted[below + 1], spots->gamma[i]);
    }
}

bool
_tprof_quantile_plan_init (TprofQuantilePlan *plan,
                           size_t             n,
                           const double      *qs,
                           size_t             n_qs)
{
  *plan = (TprofQuantilePlan) { .n = n, .qs = qs, .n_qs = n_qs };
  if (n == 0)
    return true;

  plan->ranks = _tprof_malloc_array (n_qs, 2 * sizeof *plan->ranks);
  plan->values = _tprof_malloc_array (n_qs, 2 * sizeof *plan->values);
  if (plan->ranks == NULL || plan->values == NULL)
    {
      _tprof_quantile_plan_clear (plan);
      return false;
    }
  plan->n_ranks = _tprof_quantile_ranks (n, qs, n_qs, plan->ranks);
  return true;
}

void
_tprof_quantile_plan_finish (TprofQuantilePlan *plan,
                             double            *out)
{
  _tprof_quantiles_interpolate (plan->n, plan->qs, plan->n_qs, plan->ranks, plan->values, plan->n_ranks, out);
  _tprof_quantile_plan_clear (plan);
}

void
_tprof_quantile_plan_clear (TprofQuantilePlan *plan)
{
  free (plan->ranks);
  free (plan->values);
  plan->ranks = NULL;
  plan->values = NULL;
  plan->n_ranks = 0;
}

bool
_tprof_select_quantiles (double       *values,
                         size_t        n,
                         const double *qs,
                         size_t        n_qs,
                         double       *out)
{
  TprofQuantilePlan plan;

  if (!_tprof_quantile_plan_init (&plan, n, qs, n_qs))
    return false;
  _tprof_select_ranks (values, n, plan.ranks, plan.n_ranks, plan.values);
  _tprof_quantile_plan_finish (&plan, out);
  return true;
}

double
_tprof_sorted_median (const double *sorted,
                      size_t        n)
{
  const double half = 0.5;
  size_t ranks[2];
  double values[2], median = NAN;
  size_t n_ranks;

  if (n == 0)
    return NAN;
  n_ranks = _tprof_quantile_ranks (n, &half, 1, ranks);
  for (size_t i = 0; i < n_ranks; i++)
    values[i] = sorted[ranks[i]];
  _tprof_quantiles_interpolate (n, &half, 1, ranks, values, n_ranks, &median);
  return median;
}
