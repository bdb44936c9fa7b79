/* tprof-profile-index.h — per-rank precomputation of a profile so rank-filtered statistics and histograms are cheap. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

typedef struct _TprofProfileIndex TprofProfileIndex;

/* Called from the indexing thread with the fraction done (0..1). */
typedef void (*TprofIndexProgress) (double fraction, gpointer user_data);

/* Builds the index of @pt: every operation's samples sorted within each rank,
 * per-rank summaries and the all-ranks summary. Copies what it needs, so @pt
 * may be freed afterwards. Returns NULL when @cancel becomes non-zero (checked
 * between operations). */
TprofProfileIndex *_tprof_profile_index_new (const TprofProfiledTime *pt,
                                             TprofIndexProgress       progress,
                                             gpointer                 user_data,
                                             const gint              *cancel);
void               _tprof_profile_index_free (TprofProfileIndex *index);

int         _tprof_profile_index_get_world_size (const TprofProfileIndex *index);
gsize       _tprof_profile_index_get_n_operations (const TprofProfileIndex *index);
const char *_tprof_profile_index_get_name (const TprofProfileIndex *index,
                                           gsize                    op);
/* Host of @rank or NULL when the file does not say. */
const char *_tprof_profile_index_get_hostname (const TprofProfileIndex *index,
                                               int                      rank);
gsize       _tprof_profile_index_get_n_samples (const TprofProfileIndex *index,
                                                gsize                    op);

/* A rank mask is an array of world_size bytes, non-zero for a selected rank;
 * NULL selects every rank. */

/* Statistics of DESIGN.md section 4 for the samples of @op on the ranks in @mask. */
void _tprof_profile_index_summarize (const TprofProfileIndex *index,
                                     gsize                    op,
                                     const guint8            *mask,
                                     TprofSummary            *out);

/* Like _tprof_profile_index_summarize() without the quantiles (left NaN):
 * O(ranks), for chart captions that must follow every filter change. */
void _tprof_profile_index_summarize_moments (const TprofProfileIndex *index,
                                             gsize                    op,
                                             const guint8            *mask,
                                             TprofSummary            *out);

/* The precomputed all-ranks summary of @op. */
const TprofSummary *_tprof_profile_index_get_summary (const TprofProfileIndex *index,
                                                      gsize                    op);

/* numpy 'linear' quantiles of the selection; NaN when it is empty. */
void _tprof_profile_index_quantiles (const TprofProfileIndex *index,
                                     gsize                    op,
                                     const guint8            *mask,
                                     const double            *qs,
                                     gsize                    n_qs,
                                     double                  *out);

/* Per-rank summaries of the selected ranks that have samples, ascending by
 * rank; owned by the caller (g_free). Returns the length. */
gsize _tprof_profile_index_rank_summaries (const TprofProfileIndex *index,
                                           gsize                    op,
                                           const guint8            *mask,
                                           TprofRankSummary       **out);

/* numpy.histogram of the selection with @n_bins bins (0: numpy 'auto'),
 * TPROF_HISTOGRAM_LOG for log10-spaced edges, SEPARATE_RANKS for per-rank
 * counts on the same edges. Free with _tprof_histogram_free(). */
TprofHistogram *_tprof_profile_index_histogram (const TprofProfileIndex *index,
                                                gsize                    op,
                                                const guint8            *mask,
                                                gsize                    n_bins,
                                                TprofHistogramFlags      flags);
void            _tprof_histogram_free (TprofHistogram *hist);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofProfileIndex, _tprof_profile_index_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofHistogram, _tprof_histogram_free)

G_END_DECLS
