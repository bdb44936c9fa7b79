/* tprof-follow-samples.h — TprofFollowSamples: a followed job's samples as they arrive, one append-only store per operation, within a memory cap. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

/* At most this many samples (over every operation) are kept while
 * following, about 24 bytes each; TPROF_VIEWER_FOLLOW_MAX_SAMPLES in the
 * environment overrides it. Past it, new samples still count in the
 * table's count, sum, mean and extremes, but the charts and the quantiles
 * cover only those kept. */
#define TPROF_FOLLOW_DEFAULT_MAX_SAMPLES G_GUINT64_CONSTANT (10000000)

typedef struct _TprofFollowSamples TprofFollowSamples;

TprofFollowSamples *_tprof_follow_samples_new   (guint64             max_samples);
void                _tprof_follow_samples_free  (TprofFollowSamples *self);
/* Appends @n samples of operation @op on @rank (a
 * TprofSpillLiveSamplesFunc): 0, also when the cap drops them. */
int                 _tprof_follow_samples_add   (void               *self,
                                                 size_t              op,
                                                 int                 rank,
                                                 size_t              n,
                                                 const double       *starts,
                                                 const double       *durations,
                                                 TprofError         *error);
/* What is kept of @op now (durations, ranks, starts), in order of arrival,
 * shared without a copy: later samples do not change it; it may be read
 * from any thread. NULL when nothing of it is kept. */
TprofGatheredTime  *_tprof_follow_samples_dup   (const TprofFollowSamples *self,
                                                 gsize                     op);
guint64             _tprof_follow_samples_get_total (const TprofFollowSamples *self);
guint64             _tprof_follow_samples_get_max   (const TprofFollowSamples *self);
/* Some samples were dropped: the cap was reached. */
gboolean            _tprof_follow_samples_is_full   (const TprofFollowSamples *self);

/* The memory the next poll will write, made ready beforehand. */
typedef struct _TprofFollowSamplesAhead TprofFollowSamplesAhead;

/* Room for as many more samples of each operation as came since the last
 * call (a poll like the last one), made writable now; NULL when none is
 * needed. Its pages are made present by
 * _tprof_follow_samples_ahead_run(), in any thread, while @self goes on
 * (a poll may write them meanwhile). */
TprofFollowSamplesAhead *_tprof_follow_samples_ahead      (TprofFollowSamples      *self);
/* What arrived so far (the opening read) is no poll's: the next
 * _tprof_follow_samples_ahead() counts from here. */
void                     _tprof_follow_samples_settle     (TprofFollowSamples      *self);
void                     _tprof_follow_samples_ahead_run  (TprofFollowSamplesAhead *ahead);
void                     _tprof_follow_samples_ahead_free (TprofFollowSamplesAhead *ahead);

G_END_DECLS
