/* tprof-live.h — TprofLive: the analysis of a running job, fed samples as they arrive and updated without going over them again. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <tprof/tprof-arrival.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* Per operation, the statistics of what has arrived (count, sum, mean,
 * min, max) and the arrival analysis (docs/analysis.md) over its complete
 * occurrences: occurrence k is complete when every rank taking part in it
 * has its k-th sample by start. A rank takes part while it may still send
 * samples, and once done (tprof_live_rank_done()) only in the occurrences
 * it has samples of: a rank that is done with nothing pending no longer
 * holds back the later occurrences, which complete over the other ranks.
 * Each occurrence is analysed once, when it completes.
 *
 * Once every rank is done, the result is that of the whole samples
 * (tprof_gathered_time_summarize(), tprof_stragglers_add()) for each
 * operation whose ranks with samples all have the same number of them.
 * Otherwise the live analysis also counts the occurrences beyond the
 * fewest, over the ranks that have them, where the file analysis keeps
 * only the occurrences every rank with samples has: its occurrence count,
 * spreads, late counts and waits then differ (the statistics of what has
 * arrived do not). They differ too once a rank was absent
 * (tprof_live_rank_absent()) while occurrences completed without it: its
 * samples of those occurrences are left out of their arrival. */
typedef struct _TprofLive TprofLive;

/* NULL when @world_size < 1 or memory is exhausted. */
TPROF_EXPORT TprofLive *tprof_live_new (int world_size);
TPROF_EXPORT void tprof_live_free (TprofLive *live);
TPROF_EXPORT int tprof_live_world_size (const TprofLive *live);

/* The index of the operation named @name, added when new (indices 0, 1,
 * ... in order of appearance); -1 when memory is exhausted. */
TPROF_EXPORT ssize_t tprof_live_operation (TprofLive  *live,
                                           const char *name);
TPROF_EXPORT size_t tprof_live_n_operations (const TprofLive *live);
TPROF_EXPORT const char *tprof_live_operation_name (const TprofLive *live,
                                                    size_t           op);

/* @n samples of operation @op on @rank: @starts on rank 0's timeline
 * (seconds) and @durations. Samples of a rank may come in any order within
 * what is added before one tprof_live_update(); a sample starting before
 * one already analysed is counted but placed after it. False when memory
 * is exhausted or @rank or @op is out of range (nothing added). */
TPROF_EXPORT bool tprof_live_add (TprofLive    *live,
                                  int           rank,
                                  size_t        op,
                                  size_t        n,
                                  const double *starts,
                                  const double *durations);

/* No more samples will come from @rank (it ended, its data is damaged
 * from some point on, or it has no data at all): from the next
 * tprof_live_update(), the occurrences it has no sample of complete
 * without it. */
TPROF_EXPORT void tprof_live_rank_done (TprofLive *live,
                                        int        rank);

/* @rank is not reporting for now (@absent true), e.g. its spill file has
 * not appeared while the others' have for a while: with nothing pending,
 * it holds no occurrence back, as a done rank. Back (@absent false), it
 * takes part again from the next occurrence on; its first samples, of the
 * occurrences completed meanwhile, count in its statistics but are left
 * out of the arrival. Takes effect at the next tprof_live_update(). */
TPROF_EXPORT void tprof_live_rank_absent (TprofLive *live,
                                          int        rank,
                                          bool       absent);

/* Analyses the occurrences that what was added since the last update
 * completed. False when memory is exhausted. */
TPROF_EXPORT bool tprof_live_update (TprofLive *live);

/* count, sum, mean, min, max, imbalance and slowest rank of what has
 * arrived of @op (tprof_rank_totals_summarize()); the quantiles and std
 * are NaN. False when memory is exhausted. */
TPROF_EXPORT bool tprof_live_summary (const TprofLive *live,
                                      size_t           op,
                                      TprofSummary    *out);

/* What has arrived of @op on each rank, world_size entries each, valid
 * until the next tprof_live_add() or tprof_live_free(): counts, total
 * times and extremes (the extremes mean nothing where the count is 0), as
 * tprof_live_summary() summarizes them; a reader under a rank filter
 * passes them to tprof_rank_totals_summarize(). */
TPROF_EXPORT void tprof_live_rank_totals (const TprofLive *live,
                                          size_t           op,
                                          const int64_t  **count,
                                          const double   **sum,
                                          const double   **min,
                                          const double   **max);

/* The arrival at @op over its complete occurrences, as
 * tprof_arrival_analyze() finds it. */
TPROF_EXPORT void tprof_live_arrival (const TprofLive *live,
                                      size_t           op,
                                      TprofArrival    *out);

/* A new TprofStragglers (free with tprof_stragglers_free()) holding the
 * blame of every operation's complete occurrences so far, as
 * tprof_stragglers_add() of each would: name the straggler with
 * tprof_stragglers_name() or tprof_stragglers_decide(). NULL when memory
 * is exhausted. */
TPROF_EXPORT TprofStragglers *tprof_live_stragglers (const TprofLive *live);

TPROF_END_DECLS
