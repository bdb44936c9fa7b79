/* tprof-gathered-time.h — TprofGatheredTime: the samples of one operation over ranks, and their statistics. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

typedef struct _TprofGatheredTime TprofGatheredTime;

/* Returns a new selection holding copies of @times (seconds) and @ranks
 * (the rank of each sample), both of length @n (@n may be 0, the arrays then
 * may be NULL). Returns NULL only when memory is exhausted. */
TPROF_EXPORT TprofGatheredTime *tprof_gathered_time_new (const double  *times,
                                                         const int32_t *ranks,
                                                         size_t         n);
/* Like tprof_gathered_time_new() but takes ownership of the malloc'd arrays
 * (freed with free() by the selection, also when NULL is returned). */
TPROF_EXPORT TprofGatheredTime *tprof_gathered_time_new_take (double  *times,
                                                              int32_t *ranks,
                                                              size_t   n);
/* A selection over @n samples its caller keeps: @times, @ranks and
 * @starts (may be NULL: no timeline) are neither copied nor freed, and
 * must stay unchanged until @release (may be NULL) is called with
 * @user_data, when the selection is freed (also when NULL is returned, only
 * when memory is exhausted). Its timeline cannot be replaced
 * (tprof_gathered_time_set_timeline_take() frees what it is given). Lets
 * an append-only store hand out what it holds so far without a copy. */
TPROF_EXPORT TprofGatheredTime *tprof_gathered_time_new_shared (const double  *times,
                                                                const int32_t *ranks,
                                                                const double  *starts,
                                                                size_t         n,
                                                                void         (*release) (void *user_data),
                                                                void          *user_data);
TPROF_EXPORT void tprof_gathered_time_free (TprofGatheredTime *gt);

/* The samples, in order; valid as long as @gt. NULL when empty. */
TPROF_EXPORT const double  *tprof_gathered_time_times (const TprofGatheredTime *gt);
TPROF_EXPORT const int32_t *tprof_gathered_time_ranks (const TprofGatheredTime *gt);

/* The timeline (docs/file-format.md), where the selection has one:
 * the start of each sample in seconds on the profile's timeline, and the
 * thread of each sample within its rank. NULL when absent or empty. */
TPROF_EXPORT const double  *tprof_gathered_time_starts (const TprofGatheredTime *gt);
TPROF_EXPORT const int32_t *tprof_gathered_time_threads (const TprofGatheredTime *gt);
/* Attaches @starts and @threads (malloc'd, count() long, either may be
 * NULL), taking ownership of both (also on failure) and replacing any
 * timeline before; sub-selections (get_rank, slice) carry them along.
 * Returns false only when @gt is NULL. */
TPROF_EXPORT bool tprof_gathered_time_set_timeline_take (TprofGatheredTime *gt,
                                                         double            *starts,
                                                         int32_t           *threads);

TPROF_EXPORT size_t tprof_gathered_time_count (const TprofGatheredTime *gt);
/* Number of distinct ranks with at least one sample. */
TPROF_EXPORT size_t tprof_gathered_time_rank_count (const TprofGatheredTime *gt);
/* sum, mean and std equal numpy's (blocked pairwise summation) bit for bit.
 * Statistics of 2^19 samples or more may use a few short-lived threads. */
TPROF_EXPORT double tprof_gathered_time_sum (const TprofGatheredTime *gt);
/* sum / count; NaN when empty. */
TPROF_EXPORT double tprof_gathered_time_mean (const TprofGatheredTime *gt);
/* Sample standard deviation (divisor N-1), computed stably; NaN when count < 2. */
TPROF_EXPORT double tprof_gathered_time_std (const TprofGatheredTime *gt);
/* NaN when empty. */
TPROF_EXPORT double tprof_gathered_time_min (const TprofGatheredTime *gt);
TPROF_EXPORT double tprof_gathered_time_max (const TprofGatheredTime *gt);
/* numpy's default ('linear') quantile, @q in [0, 1]; NaN when empty or @q is
 * out of range. O(n) expected: a sample of the data brackets the answer and
 * one read-only pass finds it (a scratch copy and selection only as fallback). */
TPROF_EXPORT double tprof_gathered_time_quantile (const TprofGatheredTime *gt, double q);
/* Several quantiles in one pass: @out[i] = quantile (@qs[i]).
 * Returns false when memory is exhausted. */
TPROF_EXPORT bool tprof_gathered_time_quantiles (const TprofGatheredTime *gt,
                                                 const double            *qs,
                                                 size_t                   n_qs,
                                                 double                  *out);

/* The samples of the given ranks (in their original order); a new selection
 * the caller frees. No matching sample: an empty selection. */
TPROF_EXPORT TprofGatheredTime *tprof_gathered_time_get_rank (const TprofGatheredTime *gt,
                                                              const int32_t           *ranks,
                                                              size_t                   n_ranks);
/* gt[start:stop:step] with Python's rules (negative indices count from the
 * end, out-of-range bounds are clamped). Use TPROF_SLICE_DEFAULT for an
 * omitted bound. @step must not be 0 (returns NULL). */
#define TPROF_SLICE_DEFAULT PTRDIFF_MIN
TPROF_EXPORT TprofGatheredTime *tprof_gathered_time_slice (const TprofGatheredTime *gt,
                                                           ptrdiff_t                start,
                                                           ptrdiff_t                stop,
                                                           ptrdiff_t                step);
/* true when there are no samples (the seed's falsiness). */
TPROF_EXPORT bool tprof_gathered_time_is_empty (const TprofGatheredTime *gt);

/* One rank's share of a selection. */
typedef struct
{
  int32_t rank;
  size_t  count;
  double  sum;
  double  mean;
  double  std;   /* N-1; NaN when count < 2 */
  double  min;
  double  max;
} TprofRankSummary;

/* Sampled capture (tprof_time_manager_set_sample_limit, docs/file-format.md):
 * what one rank recorded of an operation, of which the selection's
 * samples of that rank may be a uniform random subset. */
typedef struct
{
  int32_t  rank;
  uint64_t recorded;  /* samples recorded, >= those stored */
  double   sum;       /* exact figures of every recorded sample, seconds */
  double   min;
  double   max;
} TprofRankRecorded;

/* Attaches to @gt what each rank recorded: @n entries (copied), one per
 * rank that recorded, ascending by rank. A rank's figures are widened to
 * cover its stored samples (count, min, max), so that they are never
 * smaller than what the selection holds. From then on summarize() gives
 * count, sum, mean, min, max and the rank balance of everything recorded
 * (exact), std and quantiles of the stored subset (estimates); get_rank()
 * carries the entries of the ranks it keeps. @n 0 detaches. Returns false
 * when memory is exhausted (nothing changes). */
TPROF_EXPORT bool tprof_gathered_time_set_recorded (TprofGatheredTime       *gt,
                                                    const TprofRankRecorded *ranks,
                                                    size_t                   n);
/* What @gt's ranks recorded (owned by @gt), and their number; 0 and NULL
 * when none was attached, i.e. the samples are all that was recorded. */
TPROF_EXPORT size_t tprof_gathered_time_recorded (const TprofGatheredTime  *gt,
                                                  const TprofRankRecorded **ranks);
/* Whether some rank of @gt recorded more samples than @gt holds. */
TPROF_EXPORT bool tprof_gathered_time_is_sampled (const TprofGatheredTime *gt);

/* Stores in *@out a malloc'd array (caller frees) of one summary per rank
 * that has samples, ascending by rank, and returns its length (0 and NULL
 * when empty). Returns (size_t)-1 when memory is exhausted. */
TPROF_EXPORT size_t tprof_gathered_time_rank_summaries (const TprofGatheredTime *gt,
                                                        TprofRankSummary       **out);

/* Every statistic of a selection at once: count, sum, mean, std (N-1),
 * min, max, numpy-linear median/p95/p99, and the rank balance. */
typedef struct
{
  size_t  count;
  size_t  rank_count;
  double  sum;
  double  mean;
  double  std;
  double  min;
  double  max;
  double  median;
  double  p95;
  double  p99;
  double  imbalance;     /* max rank total / mean rank total; NaN when empty */
  int32_t slowest_rank;  /* rank with the largest total; -1 when empty */
  double  imbalance_time;  /* max rank total - mean rank total, seconds: the time
                              the other ranks wait for the slowest, on average;
                              NaN when empty */
  bool    slowest_stands_out;  /* whether slowest_rank's total exceeds the other
                                  ranks' beyond noise (tprof_slowest_stands_out):
                                  only then is it shown as the slowest */
} TprofSummary;

/* Fills @out. Returns false when memory is exhausted. */
TPROF_EXPORT bool tprof_gathered_time_summarize (const TprofGatheredTime *gt,
                                                 TprofSummary            *out);

/* The statistics of the ranks @mask selects (NULL: all of @world_size) that
 * follow from each rank's sample count, total, minimum and maximum alone,
 * as a profile's cached statistics hold them: count, sum (pairwise over the
 * rank totals, so within rounding of the samples' sum), mean, min, max and
 * the rank balance. std, median, p95 and p99 need the samples: NaN. Ranks
 * with a count of 0 are left out. Returns false when memory is exhausted. */
TPROF_EXPORT bool tprof_rank_totals_summarize (const int64_t *rank_count,
                                               const double  *rank_sum,
                                               const double  *rank_min,
                                               const double  *rank_max,
                                               int            world_size,
                                               const uint8_t *mask,
                                               TprofSummary  *out);

TPROF_END_DECLS
