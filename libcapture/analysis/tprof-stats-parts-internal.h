/* tprof-stats-parts-internal.h — the summary of samples held in parts that cannot meet (the ranks of a parallel save): sums per part, exact quantiles by a counting search. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof/tprof-macros.h"

/* The quantiles a summary holds: median, p95, p99 (tprof-stats-summary.c). */
#define TPROF_SUMMARY_N_QUANTILES 3
extern const double _tprof_summary_percentiles[TPROF_SUMMARY_N_QUANTILES];

/* What one part adds to a summary: count, sum and extremes (NaN when
 * empty). Combined in the order of the parts, they give the summary's
 * count, sum, min and max; the sum differs from the whole array's only
 * by rounding. */
typedef struct
{
  uint64_t count;
  double   sum;
  double   min;
  double   max;
} TprofPartSums;

TPROF_EXPORT void _tprof_part_sums_init (TprofPartSums *part);
/* Adds @x[0..@n) (finite values). */
TPROF_EXPORT void _tprof_part_sums_add (TprofPartSums *part,
                                        const double  *x,
                                        size_t         n);
TPROF_EXPORT void _tprof_part_sums_merge (TprofPartSums       *into,
                                          const TprofPartSums *part);

/* The sum of the squared deviations of @x[0..@n) from @mean, the way the
 * summary's std sums them; the parts' sums add up to the whole's. */
TPROF_EXPORT double _tprof_part_squared_deviations (const double *x,
                                                    size_t        n,
                                                    double       mean);
/* The std (divisor n - 1) from the squared deviations of @n samples. */
TPROF_EXPORT double _tprof_std_of_squared_deviations (double ss,
                                                      size_t n);

/* The summary's quantiles of @n samples spread over parts, found exactly:
 * the order statistics they interpolate from are each the smallest value
 * v with at least k + 1 samples <= v. A search bisects the bit patterns
 * of the (non-negative) doubles between the extremes: each round it
 * proposes a probe per order statistic, every part counts its samples
 * at or below each probe, and the summed counts halve each bracket. At
 * most 64 rounds. */
#define TPROF_ORDER_SEARCH_MAX 6

typedef struct
{
  size_t   n;
  size_t   n_targets;
  size_t   targets[TPROF_ORDER_SEARCH_MAX];  /* order statistics, ascending */
  uint64_t lo[TPROF_ORDER_SEARCH_MAX];       /* bit patterns: the answer is in [lo, hi] */
  uint64_t hi[TPROF_ORDER_SEARCH_MAX];
} TprofOrderSearch;

/* For @n samples whose extremes are @min and @max (finite, >= 0). */
TPROF_EXPORT void   _tprof_order_search_init (TprofOrderSearch *search,
                                              size_t            n,
                                              double            min,
                                              double            max);
/* Stores in @probes[0..TPROF_ORDER_SEARCH_MAX) the values to count at or
 * below (a found target repeats its value; unused slots are 0). False
 * when every target is found: no round is needed. */
TPROF_EXPORT bool   _tprof_order_search_probes (const TprofOrderSearch *search,
                                                double                 *probes);
/* @at_or_below[i]: the samples of all parts <= @probes[i]. */
TPROF_EXPORT void   _tprof_order_search_narrow (TprofOrderSearch *search,
                                                const uint64_t   *at_or_below);
/* When found: @out = the median, p95 and p99 (NaN for no sample). */
TPROF_EXPORT void   _tprof_order_search_quantiles (const TprofOrderSearch *search,
                                                   double                 *out);
/* A part's count at or below @x of its @n ascending @sorted values. */
TPROF_EXPORT size_t _tprof_sorted_count_at_or_below (const double *sorted,
                                                     size_t        n,
                                                     double        x);
/* Sorts @n finite values ascending; @scratch holds @n values. */
TPROF_EXPORT void   _tprof_part_sort (double *values,
                                      size_t  n,
                                      double *scratch);
