/* tprof-profile-live.h — a TprofProfile made from what a running job's spill files held at one refresh. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-follow-quantiles.h"
#include "tprof-follow-samples.h"
#include "tprof-operation-samples.h"
#include "tprof-profile.h"
#include "tprof-spill-live-internal.h"

G_BEGIN_DECLS

/* A loaded profile, named after @directory, holding what @sl's TprofLive
 * knows now: each operation's statistics (count, sum, mean, extremes,
 * balance) and per-rank totals, the blame from arrival over the complete
 * occurrences, and the hosts of the files' headers; with @samples (may be
 * NULL), what it keeps of each operation (shared), for the charts and the
 * statistics of a rank filter; the std and quantiles of @quantiles[op]
 * (@n_quantiles of them, computed off the main thread; NaN where none).
 * It does not change as @sl goes on. */
TprofProfile *_tprof_profile_new_live (GFile                      *directory,
                                       const TprofSpillLive       *sl,
                                       const TprofFollowSamples   *samples,
                                       const TprofFollowQuantiles *quantiles,
                                       gsize                       n_quantiles);
/* TRUE for such a snapshot: its samples are not read from a file. */
gboolean      _tprof_profile_is_live  (TprofProfile         *self);
/* The statistics of @op on the ranks of @mask (non-NULL): count, sum,
 * mean, extremes and balance of every sample received (the per-rank
 * totals), std and quantiles of those kept, from @samples' index when the
 * charts made one (may be NULL), else from the kept samples. Any thread. */
void          _tprof_profile_live_summarize (TprofProfile                *self,
                                             gsize                        op,
                                             const TprofOperationSamples *samples,
                                             const guint8                *mask,
                                             TprofSummary                *out);
/* A snapshot's samples of @op, indexed for the charts on first use; NULL
 * when it kept none of @op (or memory is exhausted). Main thread. */
TprofOperationSamples *_tprof_profile_live_ref_samples (TprofProfile *self,
                                                        gsize         op);

G_END_DECLS
