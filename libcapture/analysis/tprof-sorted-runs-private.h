/* tprof-sorted-runs-private.h — TprofSortedRun: sorted samples (one rank's), and order statistics and bins across several runs. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An ascending run of samples, with the search window selection uses. */
typedef struct
{
  const double *values;
  size_t        len;
  size_t        lo;
  size_t        hi;
  size_t        pos;
  size_t        rank_index;   /* which rank of the index it belongs to */
} TprofSortedRun;

/* Sorts @n doubles (no NaN) ascending in O(@n): a radix sort on keys that
 * order like the values. @scratch holds @n values. */
void   _tprof_sort_doubles (double *values,
                            size_t  n,
                            double *scratch);

/* First index in [@from, @len) of @values whose value is >= @x (or > @x when
 * @inclusive), galloping from @from since callers advance monotonically. */
size_t _tprof_sorted_search (const double *values,
                             size_t        from,
                             size_t        len,
                             double        x,
                             bool          inclusive);

/* The @k-th smallest (0-based) value of the union of @runs, holding
 * @total values; requires @k < @total. Uses the runs' windows. */
double _tprof_sorted_runs_select_kth (TprofSortedRun *runs,
                                      size_t          n_runs,
                                      size_t          total,
                                      size_t          k);

/* @out[i] = numpy.quantile (map (union of @runs), @qs[i]) (method
 * 'linear') for the increasing function @map (NULL: the values as they
 * are); NaN for a @qs[i] outside [0, 1] and for all when @total is 0.
 * Returns false when memory is exhausted. */
bool   _tprof_sorted_runs_quantiles (TprofSortedRun *runs,
                                     size_t          n_runs,
                                     size_t          total,
                                     const double   *qs,
                                     size_t          n_qs,
                                     double        (*map) (double),
                                     double         *out);

/* Adds to @counts[0..@n_bins) the values of @runs per bin of @edges, which
 * span them all (numpy's rule: every bin half-open but the last); with
 * @rank_counts, also run r's counts into row r of it. */
void   _tprof_sorted_runs_count_bins (const TprofSortedRun *runs,
                                      size_t                n_runs,
                                      const double         *edges,
                                      size_t                n_bins,
                                      uint64_t             *counts,
                                      uint64_t             *rank_counts);
