/* tprof-running-median-private.h — the median of values that keep arriving, numpy's median at every step without re-sorting. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Two heaps: the lower half (largest on top) and the upper half (smallest
 * on top), the lower holding the extra value when the count is odd. */
typedef struct
{
  double *lower;
  double *upper;
  size_t  n_lower;
  size_t  n_upper;
  size_t  cap_lower;
  size_t  cap_upper;
} TprofRunningMedian;

void   _tprof_running_median_clear (TprofRunningMedian *m);
/* Room for @more values: adding them cannot fail. False when memory is
 * exhausted. */
bool   _tprof_running_median_reserve (TprofRunningMedian *m,
                                      size_t              more);
/* False when memory is exhausted (@m unchanged). O(log n). */
bool   _tprof_running_median_add (TprofRunningMedian *m,
                                  double              x);
size_t _tprof_running_median_count (const TprofRunningMedian *m);
/* numpy's median of the values added (the one interpolation of
 * _tprof_sorted_median()); NaN when none. O(1). */
double _tprof_running_median_get (const TprofRunningMedian *m);
