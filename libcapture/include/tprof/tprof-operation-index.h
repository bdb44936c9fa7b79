/* tprof-operation-index.h — TprofOperationIndex: one operation's samples sorted per rank, so any set of ranks gets its statistics and histogram at once. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-histogram.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* Built once from an operation's samples (a sort per rank, O(n)), an
 * index answers for a rank mask in about O(ranks x log n): what a viewer
 * needs at every change of its rank filter or bin count, where selecting
 * and re-binning the samples would take O(n).
 *
 * A rank mask is an array of one byte per rank, non-zero for a selected
 * rank, long enough for every rank with samples (a profile's world_size
 * bytes are); NULL selects every rank. Negative ranks are selected only
 * by NULL. An index is immutable: several threads may query it at once. */
typedef struct _TprofOperationIndex TprofOperationIndex;

/* Indexes the samples of @gt, copying what it needs (@gt may be freed
 * afterwards). Samples stored grouped by ascending rank, as tprof files
 * hold them, are taken run by run without regrouping. @progress (may be
 * NULL) gets the fraction done from the calling thread; when *@cancel (may
 * be NULL) becomes non-zero, building stops. Returns a new index the
 * caller frees with tprof_operation_index_free(), or NULL with @error set:
 * TPROF_ERROR_CANCELLED, TPROF_ERROR_INVALID (a sample is NaN or
 * infinite), TPROF_ERROR_NO_MEMORY. */
TPROF_EXPORT TprofOperationIndex *tprof_operation_index_new (const TprofGatheredTime *gt,
                                                             TprofProgressFunc        progress,
                                                             void                    *user_data,
                                                             const volatile int      *cancel,
                                                             TprofError              *error);
TPROF_EXPORT void tprof_operation_index_free (TprofOperationIndex *index);

/* Number of samples indexed. */
TPROF_EXPORT size_t tprof_operation_index_count (const TprofOperationIndex *index);
/* The ranks with samples, ascending, *@n_ranks of them; owned by @index. */
TPROF_EXPORT const int32_t *tprof_operation_index_ranks (const TprofOperationIndex *index,
                                                         size_t                    *n_ranks);
/* The summary of every sample, exactly as tprof_gathered_time_summarize()
 * gives it (numpy's sums); owned by @index. */
TPROF_EXPORT const TprofSummary *tprof_operation_index_summary (const TprofOperationIndex *index);

/* The statistics of docs/analysis.md of the ranks of @mask into @out.
 * With a mask, the sum, mean and std are merged from the per-rank ones
 * (to about 1e-15 of numpy's), the quantiles exact. Returns false when
 * memory is exhausted. */
TPROF_EXPORT bool tprof_operation_index_summarize (const TprofOperationIndex *index,
                                                   const uint8_t             *mask,
                                                   TprofSummary              *out);
/* The same without the quantiles (left NaN): O(ranks), for captions that
 * follow every filter change. Returns false when memory is exhausted. */
TPROF_EXPORT bool tprof_operation_index_summarize_moments (const TprofOperationIndex *index,
                                                           const uint8_t             *mask,
                                                           TprofSummary              *out);
/* @out[i] = numpy.quantile (samples of @mask, @qs[i]) ('linear'); NaN for
 * a @qs[i] outside [0, 1] and for all on an empty selection. Returns false
 * when memory is exhausted. */
TPROF_EXPORT bool tprof_operation_index_quantiles (const TprofOperationIndex *index,
                                                   const uint8_t             *mask,
                                                   const double              *qs,
                                                   size_t                     n_qs,
                                                   double                    *out);
/* The summaries of the ranks of @mask that have samples, ascending by rank,
 * as tprof_gathered_time_rank_summaries() gives them: a malloc'd array of
 * *@n_out entries (never NULL on success, even when empty) the caller
 * frees. Returns NULL when memory is exhausted. */
TPROF_EXPORT TprofRankSummary *tprof_operation_index_rank_summaries (const TprofOperationIndex *index,
                                                                     const uint8_t             *mask,
                                                                     size_t                    *n_out);
/* tprof_histogram_compute() of the samples of @mask: the same bin count,
 * edges and counts. Free it with tprof_histogram_free(); NULL when memory
 * is exhausted. */
TPROF_EXPORT TprofHistogram *tprof_operation_index_histogram (const TprofOperationIndex *index,
                                                              const uint8_t             *mask,
                                                              size_t                     n_bins,
                                                              TprofHistogramFlags        flags);
/* The same on the range [@lo, @hi] (widened where the selection reaches
 * past it): numpy.histogram's range=, so that two runs' histograms share
 * their edges when each is given the extent of both. */
TPROF_EXPORT TprofHistogram *tprof_operation_index_histogram_range (const TprofOperationIndex *index,
                                                                    const uint8_t             *mask,
                                                                    size_t                     n_bins,
                                                                    TprofHistogramFlags        flags,
                                                                    double                     lo,
                                                                    double                     hi);
/* The smallest and largest value of @mask's samples that a histogram with
 * @flags bins (on a log axis, those > 0): false, and NaN, when none. */
TPROF_EXPORT bool tprof_operation_index_extent (const TprofOperationIndex *index,
                                                const uint8_t             *mask,
                                                TprofHistogramFlags        flags,
                                                double                    *lo,
                                                double                    *hi);
/* A malloc'd copy of the samples of @mask (grouped by rank, each rank's
 * ascending), *@n of them, for what needs them whole (comparing two runs);
 * NULL when memory is exhausted. */
TPROF_EXPORT double *tprof_operation_index_values (const TprofOperationIndex *index,
                                                   const uint8_t             *mask,
                                                   size_t                    *n);

TPROF_END_DECLS
