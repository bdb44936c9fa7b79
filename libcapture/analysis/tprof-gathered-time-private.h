/* tprof-gathered-time-private.h — what the statistics code shares: allocation, array statistics, threads, rank index. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <tprof/tprof-gathered-time.h>

#include "tprof-analysis-internal.h"

/* ---- statistics of a plain array (tprof-stats-values.c) ---- */

/* The smallest and largest of @x[0..@n), NaN when @n is 0. Returns false
 * when some value is NaN or infinite (a NaN first value then leaks into the
 * result; callers needing finite extremes rescan). */
/* The selection's min and max (NaN when empty), computed once and cached;
 * false when a NaN was seen. */
bool _tprof_gathered_time_extremes (const TprofGatheredTime *gt, double *min, double *max);

bool _tprof_values_min_max (const double *x,
                            size_t        n,
                            double       *min,
                            double       *max);

/* Sample standard deviation (N-1) as numpy computes it from @mean (two
 * passes: sum of squared deviations, divided, square root), bit for bit
 * when @mean is numpy's; NaN when @n < 2. */
double _tprof_values_std (const double *x,
                          size_t        n,
                          double        mean);

/* The sum of the squared deviations of @x[0..@n) from @mean, as numpy
 * sums them for the std. */
double _tprof_values_squared_deviations (const double *x,
                                         size_t        n,
                                         double        mean);

/* The same on the calling thread, with no allocation: for a few values. */
double _tprof_values_squared_deviations_serial (const double *x,
                                                size_t        n,
                                                double        mean);

/* Fills everything of @out but the rank. */
void _tprof_values_summarize (const double     *x,
                              size_t            n,
                              TprofRankSummary *out);
/* The same and, with @m2 (may be NULL), the sum of squared deviations from
 * the mean that the std came from, so that summaries can be merged (Chan
 * et al.). */
void _tprof_values_summarize_m2 (const double     *x,
                                 size_t            n,
                                 TprofRankSummary *out,
                                 double           *m2);

/* Called on each leaf block (at most 128 values) of numpy's pairwise sum,
 * in order, with the block's sum, while the block is still in the cache;
 * @offset is its index. */
typedef void (*TprofValuesVisitor) (const double *block,
                                    size_t        offset,
                                    size_t        n,
                                    double        block_sum,
                                    void         *data);

/* The sums of the numpy buffers of @x[0..@n) (which must start at a
 * buffer boundary) into @buffer_sums if not NULL, showing @visit (if not
 * NULL) every leaf block; returns their sum in order, which is numpy's sum
 * when @x is the whole array. */
double _tprof_values_sum_buffers (const double       *x,
                                  size_t              n,
                                  double             *buffer_sums,
                                  TprofValuesVisitor  visit,
                                  void               *data);

/* ---- rank balance (tprof-stats-summary.c) ---- */

/* Sets the rank_count, imbalance and slowest rank of @out from the totals
 * of the @n_ranks ranks with samples (@ranks ascending), through
 * _tprof_rank_totals_balance(). */
void _tprof_summary_set_balance (TprofSummary  *out,
                                 const double  *totals,
                                 const int32_t *ranks,
                                 size_t         n_ranks);

/* ---- passes split over threads (tprof-stats-parallel.c) ---- */


/* A pass over @n values split into chunks, and where the chunks put the
 * sums of their numpy buffers so that the total comes out in numpy's order. */
typedef struct
{
  size_t  n_chunks;
  size_t  bounds[TPROF_STATS_MAX_CHUNKS + 1];
  double *buffer_sums;   /* NULL with one chunk */
} TprofStatsPass;

/* One chunk when memory for the buffer sums is short: never fails. */
void _tprof_stats_pass_init (TprofStatsPass *pass,
                             size_t          n);
/* Where chunk @c stores its buffer sums (NULL with one chunk). */
double *_tprof_stats_pass_sums (const TprofStatsPass *pass,
                                size_t                c);
/* The total in numpy's order, from what each chunk's
 * _tprof_values_sum_buffers() returned. */
double _tprof_stats_pass_total (const TprofStatsPass *pass,
                                const double         *chunk_totals);
void _tprof_stats_pass_clear (TprofStatsPass *pass);

/* ---- rank index (tprof-rank-index.c) ---- */

/* Maps ranks (any int32, possibly sparse) to dense rows 0..n_ranks-1 in
 * ascending rank order. */
typedef struct
{
  int32_t  *ranks;       /* the distinct ranks, ascending */
  size_t    n_ranks;
  int64_t   base;        /* smallest rank, the origin of dense_rows */
  size_t    span;
  uint32_t *dense_rows;  /* [rank - base] = row + 1, 0 if absent; NULL when too sparse */
} TprofRankIndex;

/* Indexes the distinct values of @ranks[0..@n). Returns false when memory
 * is exhausted (@index is then cleared). */
bool _tprof_rank_index_init (TprofRankIndex *index,
                             const int32_t  *ranks,
                             size_t          n);
void _tprof_rank_index_clear (TprofRankIndex *index);
/* Binary search, for indexes too sparse for a table. */
ptrdiff_t _tprof_rank_index_search (const TprofRankIndex *index,
                                    int32_t               rank);

/* The row of @rank, or -1 when @rank was not indexed. */
static inline ptrdiff_t
_tprof_rank_index_lookup (const TprofRankIndex *index,
                          int32_t               rank)
{
  if (index->dense_rows != NULL)
    {
      int64_t offset = (int64_t) rank - index->base;

      if (offset < 0 || (uint64_t) offset >= index->span)
        return -1;
      return (ptrdiff_t) index->dense_rows[offset] - 1;
    }

  return _tprof_rank_index_search (index, rank);
}

/* Number of distinct values in @ranks[0..@n) without allocating: slow for
 * sparse ranks, for when malloc fails. */
size_t _tprof_ranks_count_distinct_in_place (const int32_t *ranks,
                                             size_t         n);
