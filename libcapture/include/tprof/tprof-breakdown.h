/* tprof-breakdown.h — an operation's time on each rank, split into the operations inside it and its self time. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* One row per part (each operation whose parent the operation is, in
 * operation order, then the operation's self time), one column per rank
 * on which the operation ran. */
typedef struct
{
  size_t   n_parts;    /* the children, plus one for the self time */
  size_t   n_ranks;
  size_t  *children;   /* n_parts - 1 operation indices */
  int32_t *ranks;      /* n_ranks, ascending */
  double  *values;     /* n_parts x n_ranks, seconds: a child's total on the
                          rank (0 where it has none), then the self time
                          (NaN where @self_sums was NULL) */
} TprofBreakdown;

/* The breakdown of operation @op among @n_ops operations: @parents[i] is
 * operation i's parent (-1 at the top), @rank_counts[i] and @rank_sums[i]
 * its sample count and total on each of the @world_size ranks, @self_sums
 * @op's self time on each rank (NULL: unknown). The ranks are those where
 * @op has samples that @mask selects (@world_size bytes; NULL: all).
 * n_parts is 1 when nothing runs inside @op. Returns NULL when memory is
 * exhausted; free with tprof_breakdown_free(). */
TPROF_EXPORT TprofBreakdown *tprof_breakdown_new (size_t                op,
                                                  size_t                n_ops,
                                                  const int64_t        *parents,
                                                  const int64_t *const *rank_counts,
                                                  const double *const  *rank_sums,
                                                  const double         *self_sums,
                                                  const uint8_t        *mask,
                                                  size_t                world_size);
TPROF_EXPORT void tprof_breakdown_free (TprofBreakdown *breakdown);

TPROF_END_DECLS
