/* tprof-stats-parts.c — the summary of samples held in parts: sums per part combined, and exact quantiles found by counting in each part. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-sorted-runs-private.h"
#include "tprof-stats-parts-internal.h"

void
_tprof_part_sums_init (TprofPartSums *part)
{
  *part = (TprofPartSums) { 0, 0.0, NAN, NAN };
}

void
_tprof_part_sums_add (TprofPartSums *part,
                      const double  *x,
                      size_t         n)
{
  double lo, hi;

  if (n == 0)
    return;
  part->count += n;
  part->sum += _tprof_values_sum (x, n);
  _tprof_values_min_max (x, n, &lo, &hi);
  part->min = fmin (part->min, lo);
  part->max = fmax (part->max, hi);
}

void
_tprof_part_sums_merge (TprofPartSums       *into,
                        const TprofPartSums *part)
{
  if (part->count == 0)
    return;
  into->count += part->count;
  into->sum += part->sum;
  into->min = fmin (into->min, part->min);
  into->max = fmax (into->max, part->max);
}

double
_tprof_part_squared_deviations (const double *x,
                                size_t        n,
                                double        mean)
{
  return n > 0 ? _tprof_values_squared_deviations (x, n, mean) : 0.0;
}

double
_tprof_std_of_squared_deviations (double ss,
                                  size_t n)
{
  return n < 2 ? NAN : sqrt (ss / (double) (n - 1));
}

/* Non-negative doubles order like their bit patterns (-0 counts as 0). */
static uint64_t
order_bits (double x)
{
  uint64_t bits;

  if (x == 0.0)
    return 0;
  memcpy (&bits, &x, sizeof bits);
  return bits;
}

static double
order_value (uint64_t bits)
{
  double x;

  memcpy (&x, &bits, sizeof x);
  return x;
}

void
_tprof_order_search_init (TprofOrderSearch *search,
                          size_t            n,
                          double            min,
                          double            max)
{
  memset (search, 0, sizeof *search);
  search->n = n;
  search->n_targets = _tprof_quantile_ranks (n, _tprof_summary_percentiles, TPROF_SUMMARY_N_QUANTILES,
                                             search->targets);
  for (size_t i = 0; i < search->n_targets; i++)
    {
      search->lo[i] = order_bits (min);
      search->hi[i] = order_bits (max);
    }
}

bool
_tprof_order_search_probes (const TprofOrderSearch *search,
                            double                 *probes)
{
  bool open = false;

  for (size_t i = 0; i < TPROF_ORDER_SEARCH_MAX; i++)
    probes[i] = 0.0;
  for (size_t i = 0; i < search->n_targets; i++)
    {
      probes[i] = order_value (search->lo[i] + (search->hi[i] - search->lo[i]) / 2);
      open = open || search->lo[i] < search->hi[i];
    }
  return open;
}

void
_tprof_order_search_narrow (TprofOrderSearch *search,
                            const uint64_t   *at_or_below)
{
  for (size_t i = 0; i < search->n_targets; i++)
    {
      uint64_t mid = search->lo[i] + (search->hi[i] - search->lo[i]) / 2;

      if (search->lo[i] == search->hi[i])
        continue;
      /* the answer is the smallest probe with more than k samples at or below */
      if (at_or_below[i] > search->targets[i])
        search->hi[i] = mid;
      else
        search->lo[i] = mid + 1;
    }
}

void
_tprof_order_search_quantiles (const TprofOrderSearch *search,
                               double                 *out)
{
  double values[TPROF_ORDER_SEARCH_MAX];

  for (size_t i = 0; i < TPROF_SUMMARY_N_QUANTILES; i++)
    out[i] = NAN;
  if (search->n == 0)
    return;
  for (size_t i = 0; i < search->n_targets; i++)
    values[i] = order_value (search->lo[i]);
  _tprof_quantiles_interpolate (search->n, _tprof_summary_percentiles, TPROF_SUMMARY_N_QUANTILES,
                                search->targets, values, search->n_targets, out);
}

size_t
_tprof_sorted_count_at_or_below (const double *sorted,
                                 size_t        n,
                                 double        x)
{
  return n > 0 ? _tprof_sorted_search (sorted, 0, n, x, true) : 0;
}

void
_tprof_part_sort (double *values,
                  size_t  n,
                  double *scratch)
{
  _tprof_sort_doubles (values, n, scratch);
}
