/* tprof-histogram-private.h — the parts of TprofHistogram that every way of counting one shares: allocation and the bin count. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-histogram.h>

/* A histogram of @n_bins zeroed bins with room for the edges and, when
 * @ranks is not NULL, zeroed rows for the @n_ranks ranks @ranks (copied).
 * NULL when memory is exhausted; free with tprof_histogram_free(). */
TprofHistogram *_tprof_histogram_new (size_t         n_bins,
                                      const int32_t *ranks,
                                      size_t         n_ranks);

/* tprof's automatic bin count for @n values whose extremes are @first and
 * @last and whose quartiles are @quartiles (0.75 then 0.25), all in log10
 * on a log axis: numpy's 'auto' (Sturges alone when @quartiles is NULL),
 * capped at TPROF_HISTOGRAM_MAX_AUTO_BINS. */
size_t _tprof_histogram_auto_bins_capped (size_t        n,
                                          double        first,
                                          double        last,
                                          const double *quartiles);
