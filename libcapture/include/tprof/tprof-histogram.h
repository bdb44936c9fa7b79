/* tprof-histogram.h — numpy.histogram-compatible binning of a selection, combined or per rank. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

typedef enum
{
  TPROF_HISTOGRAM_DEFAULT        = 0,
  /* also count each rank separately, on the same edges */
  TPROF_HISTOGRAM_SEPARATE_RANKS = 1 << 0,
  /* edges equally spaced in log10 over [smallest positive, max]; samples
   * equal to 0 are left out and counted in n_nonpositive */
  TPROF_HISTOGRAM_LOG            = 1 << 1,
} TprofHistogramFlags;

#define TPROF_HISTOGRAM_AUTO_BINS 0

/* numpy's 'auto' rule explodes with outliers: 10^6 samples of 1 ms +- 10 us
 * and one 10 s outlier ask for ~37 million bins. tprof's automatic bin
 * count (tprof_histogram_compute(), the operation index, so `tprof hist`
 * and the viewer) stops here; an explicit bin count does not. */
#define TPROF_HISTOGRAM_MAX_AUTO_BINS 1000

typedef struct
{
  size_t    n_bins;
  double   *edges;         /* n_bins + 1, ascending */
  uint64_t *counts;        /* n_bins; all ranks together */
  size_t    n_ranks;       /* 0 unless SEPARATE_RANKS */
  int32_t  *ranks;         /* n_ranks, ascending: the ranks with samples */
  uint64_t *rank_counts;   /* n_ranks * n_bins, row r = ranks[r] */
  uint64_t  n_nonpositive; /* samples left out of a LOG histogram */
} TprofHistogram;

/* numpy's 'auto' bin count for @values (the larger of Sturges and
 * Freedman-Diaconis, Sturges when the IQR is 0), not capped; 1 for fewer
 * than 2 values or a single distinct value. */
TPROF_EXPORT size_t tprof_histogram_auto_bins (const double *values, size_t n);

/* Bins @gt into @n_bins equal-width bins (TPROF_HISTOGRAM_AUTO_BINS: numpy's
 * 'auto', capped at TPROF_HISTOGRAM_MAX_AUTO_BINS) with numpy.histogram's
 * semantics. Returns a histogram the caller frees with
 * tprof_histogram_free(), or NULL when memory is exhausted. An empty
 * selection gives n_bins = 0. */
TPROF_EXPORT TprofHistogram *tprof_histogram_compute (const TprofGatheredTime *gt,
                                                      size_t                   n_bins,
                                                      TprofHistogramFlags      flags);

/* Fills @edges (@n_bins + 1 of them, ascending) with the edges that
 * tprof_histogram_compute() gives a selection whose smallest and largest
 * binned samples are @min and @max (the positive ones with
 * TPROF_HISTOGRAM_LOG; other flags are ignored): numpy.linspace over
 * [@min, @max], widened to [v - 0.5, v + 0.5] for a single value v, in
 * log10 for a log axis with the outer edges pinned to the data. Returns
 * false, with @edges untouched, when @n_bins is 0, @min > @max, a bound
 * is not finite or a log axis gets @min <= 0. */
TPROF_EXPORT bool tprof_histogram_edges (double               min,
                                         double               max,
                                         size_t               n_bins,
                                         TprofHistogramFlags  flags,
                                         double              *edges);

/* Index of the bin holding @value (numpy's rule: last bin closed), or -1 when
 * @value lies outside the edges. */
TPROF_EXPORT ptrdiff_t tprof_histogram_find_bin (const TprofHistogram *hist, double value);

/* Frees @hist and its arrays; NULL is ignored. */
TPROF_EXPORT void tprof_histogram_free (TprofHistogram *hist);

TPROF_END_DECLS
