/* tprof-stats-binning-private.h — how a histogram maps samples to bins, and the counting pass (tprof-stats-binning.c). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof-gathered-time-private.h"

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
/* numpy's searchsorted rule on @edges (@n_bins + 1 of them): the last bin
 * whose left edge is <= @value, the last bin closed; -1 outside. */
ptrdiff_t _tprof_edges_search (const double *edges,
                               size_t        n_bins,
                               double        value);

/* Counts every sample of @times into @counts (zeroed; one row of n_bins,
 * or with @rows one row per rank of @rows), large selections split between
 * threads that count into their own rows, added up at the end. Returns
 * false when memory is exhausted. */
bool _tprof_binning_count (const TprofBinning   *binning,
                           const double         *times,
                           const int32_t        *ranks,
                           size_t                n,
                           const TprofRankIndex *rows,
                           uint64_t             *counts);
