/* tprof-select-private.h — selection of order statistics (in place, or sampled from read-only samples) and numpy 'linear' quantiles. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Sorts @values[@lo..@hi], both inclusive: for a few values only. */
void _tprof_insertion_sort (double *values,
                            size_t  lo,
                            size_t  hi);

/* Writes @values[0..@n), @n <= TPROF_SORT_FEW, ascending into @sorted
 * (finite values or infinities): a fixed network, branch-free. */
#define TPROF_SORT_FEW 8
void _tprof_sort_few (const double *values,
                      size_t        n,
                      double       *sorted);

/* Reorders @values[0..@n) so that @values[@k] holds what a full ascending
 * sort would put there, with nothing larger before it and nothing smaller
 * after it. O(@n) expected and at worst. Requires @k < @n. */
void _tprof_select_nth (double *values,
                        size_t  n,
                        size_t  k);

/* The order statistics (0-based ranks in a sorted copy) that numpy's
 * 'linear' quantiles @qs of @n values read: stores them in @ranks (room for
 * 2 * @n_qs), ascending and distinct, and returns how many. */
size_t _tprof_quantile_ranks (size_t        n,
                              const double *qs,
                              size_t        n_qs,
                              size_t       *ranks);

/* @out[i] = the @ranks[i]-th smallest of @values[0..@n), for ascending,
 * distinct @ranks below @n. @values is scratch: it is reordered. */
void _tprof_select_ranks (double       *values,
                          size_t        n,
                          const size_t *ranks,
                          size_t        n_ranks,
                          double       *out);

/* numpy's median of the @n ascending values @sorted (NaN when empty),
 * through the one interpolation below. */
double _tprof_sorted_median (const double *sorted,
                             size_t        n);

/* Where numpy's 'linear' quantiles @qs of @n values lie in a sorted copy
 * (at most TPROF_QUANTILE_SPOTS_MAX of them): worked out once for every
 * run of @n values, then read in place by _tprof_sorted_quantiles_at(). */
#define TPROF_QUANTILE_SPOTS_MAX 4
typedef enum
{
  TPROF_SPOT_NONE,      /* no such quantile (no values, @q outside [0, 1]): NaN */
  TPROF_SPOT_AT,        /* the value at below */
  TPROF_SPOT_BETWEEN,   /* between below and below + 1, at gamma */
} TprofSpotKind;
typedef struct
{
  size_t        n;
  size_t        n_qs;
  size_t        below[TPROF_QUANTILE_SPOTS_MAX];
  double        gamma[TPROF_QUANTILE_SPOTS_MAX];
  unsigned char kind[TPROF_QUANTILE_SPOTS_MAX];
} TprofQuantileSpots;
void _tprof_quantile_spots (TprofQuantileSpots *spots,
                            size_t              n,
                            const double       *qs,
                            size_t              n_qs);

/* numpy's 'linear' quantiles of the @spots->n ascending values @sorted,
 * interpolated as below, read in place where @spots says. */
void _tprof_sorted_quantiles_at (const double             *sorted,
                                 const TprofQuantileSpots *spots,
                                 double                   *out);

/* numpy's 'linear' interpolation of the quantiles @qs of @n values from the
 * order statistics _tprof_quantile_ranks() listed and their values. */
void _tprof_quantiles_interpolate (size_t        n,
                                   const double *qs,
                                   size_t        n_qs,
                                   const size_t *ranks,
                                   const double *rank_values,
                                   size_t        n_ranks,
                                   double       *out);

/* The order statistics that numpy's 'linear' quantiles @qs of @n values
 * read, and room for their values: init, fill @values[0..@n_ranks), finish. */
typedef struct
{
  size_t        n;
  const double *qs;
  size_t        n_qs;
  size_t       *ranks;     /* ascending, distinct; NULL when there are no values */
  double       *values;
  size_t        n_ranks;
} TprofQuantilePlan;

/* Returns false, with nothing to clear, when memory is exhausted. */
bool _tprof_quantile_plan_init   (TprofQuantilePlan *plan,
                                  size_t             n,
                                  const double      *qs,
                                  size_t             n_qs);
/* @out[i] = the quantile qs[i] interpolated from plan->values; clears @plan. */
void _tprof_quantile_plan_finish (TprofQuantilePlan *plan,
                                  double            *out);
void _tprof_quantile_plan_clear  (TprofQuantilePlan *plan);

/* @out[i] = numpy.quantile (@values, @qs[i]) (method 'linear'); NaN for a
 * @qs[i] outside [0, 1] and for every @qs[i] when @n is 0. @values is
 * scratch: it is reordered. Returns false when memory is exhausted. */
bool _tprof_select_quantiles (double       *values,
                              size_t        n,
                              const double *qs,
                              size_t        n_qs,
                              double       *out);

/* ---- sampled selection (tprof-stats-sampled-select.c) ----
 *
 * Order statistics of read-only samples in about one pass: each target is
 * bracketed by two values of a sample, the pass counts the samples below
 * each bracket and gathers the few inside it, and a selection among those
 * finishes. The pass may be split into chunks, each scanned by one thread,
 * and may be fused with other work on the same blocks. */

#define TPROF_SAMPLED_MAX_BRACKETS 8
#define TPROF_SAMPLED_MAX_CHUNKS   4

/* Values in [lo, hi] of the input; targets ranks[first .. first + count). */
typedef struct
{
  double lo;
  double hi;
  size_t first;
  size_t count;
} TprofBracket;

/* What one chunk found about one bracket. */
typedef struct
{
  size_t  below;     /* samples < lo */
  size_t  at_lo;     /* == lo: counted, not kept, so that ties cost no memory */
  size_t  at_hi;     /* == hi, when hi != lo */
  double *inside;    /* lo < x < hi */
  size_t  n_inside;
  size_t  capacity;
} TprofTally;

/* One chunk's state, on its own cache lines: each thread writes its own. */
typedef struct
{
  TprofTally tallies[TPROF_SAMPLED_MAX_BRACKETS];
  size_t     max_inside;
  double     min;        /* extremes of what was scanned */
  double     max;
  bool       failed;     /* NaN seen or a bracket overflowed */
  bool       no_memory;
} __attribute__ ((aligned (64))) TprofGatherChunk;

typedef struct
{
  const size_t     *ranks;
  size_t            n_ranks;
  TprofBracket      brackets[TPROF_SAMPLED_MAX_BRACKETS];
  size_t            n_brackets;
  TprofGatherChunk  chunks[TPROF_SAMPLED_MAX_CHUNKS];
  size_t            n_chunks;
} TprofSampledSelect;

/* Prepares to find order statistics @ranks (ascending, distinct, below
 * @n) of @values[0..@n), scanned as the @n_chunks chunks @bounds. Returns
 * 1 when ready, 0 when sampling does not pay or cannot work (too few
 * values, too many targets), -1 when memory is exhausted; clear it in
 * every case. */
int  _tprof_sampled_select_init (TprofSampledSelect *select,
                                 const double       *values,
                                 size_t              n,
                                 const size_t       *ranks,
                                 size_t              n_ranks,
                                 const size_t       *bounds,
                                 size_t              n_chunks);
/* Scans the next @n values of chunk @chunk, in order. */
void _tprof_sampled_select_scan (TprofSampledSelect *select,
                                 size_t              chunk,
                                 const double       *block,
                                 size_t              n);
/* After every chunk was scanned: @out[i] = order statistic ranks[i].
 * Returns 1, 0 when the input defeated the sampling (NaN, a target
 * outside its bracket, too many values inside one: use a scratch copy),
 * -1 when memory is exhausted. */
int  _tprof_sampled_select_finish (TprofSampledSelect *select,
                                   double             *out);
void _tprof_sampled_select_clear (TprofSampledSelect *select);

/* The whole of the above, on threads: like _tprof_select_ranks() but
 * leaves @values untouched. Stores the extremes of @values (meaningful
 * when 1 is returned) in *@min and *@max. */
int _tprof_select_ranks_sampled (const double *values,
                                 size_t        n,
                                 const size_t *ranks,
                                 size_t        n_ranks,
                                 double       *out,
                                 double       *min,
                                 double       *max);

/* _tprof_select_quantiles() on read-only @values: sampled when that pays,
 * on a scratch copy otherwise. Returns false when memory is exhausted. */
bool _tprof_quantiles_of (const double *values,
                          size_t        n,
                          const double *qs,
                          size_t        n_qs,
                          double       *out);

/* The same, and when the sampling worked sets *@scanned and the extremes
 * of @values, so that a caller needing them saves a pass. */
bool _tprof_quantiles_and_extremes_of (const double *values,
                                       size_t        n,
                                       const double *qs,
                                       size_t        n_qs,
                                       double       *out,
                                       bool         *scanned,
                                       double       *min,
                                       double       *max);
