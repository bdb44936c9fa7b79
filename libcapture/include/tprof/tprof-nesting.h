/* tprof-nesting.h — TprofNesting: which sample encloses which on one rank and thread, self times, and each operation's parent operation (docs/analysis.md). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* Ends are compared with this tolerance (seconds): an end is start + time,
 * and that sum rounds, so a child that stopped on the same clock tick as
 * its parent may appear to end an ulp after it. Starts are clock
 * readings mapped monotonically and compare exactly. */
#define TPROF_NESTING_TOLERANCE 1e-9

typedef struct _TprofNesting TprofNesting;

/* The nesting of the samples of the operations @ops[0..@n_ops) of one
 * profile (the same operation must not appear twice). Sample B lies in
 * sample A when both ran on the same rank and thread, A.start <= B.start
 * and B.end <= A.end + TPROF_NESTING_TOLERANCE. B's parent is the
 * innermost such A: ordering the samples of a rank and thread by start,
 * then by end descending, then by operation and index (so that of two
 * equal intervals the one of the earlier operation encloses the other),
 * B's parent is the last sample before B in that order that encloses it.
 * Selections without starts (or NULL) take no part: their samples have no
 * parent, no children and no self time. A selection without threads is
 * on thread 0. O(n log n) time, about 56 bytes a sample. Returns NULL with
 * @error set when memory is exhausted. */
TPROF_EXPORT TprofNesting *tprof_nesting_new (const TprofGatheredTime *const *ops,
                                              size_t                          n_ops,
                                              TprofError                     *error);
TPROF_EXPORT void tprof_nesting_free (TprofNesting *nesting);

/* The parent of sample @sample of operation @op (indices into @ops and
 * its selection): true with *@parent_op and *@parent_sample set, false
 * when it has none or the indices are out of range. */
TPROF_EXPORT bool tprof_nesting_parent (const TprofNesting *nesting,
                                        size_t              op,
                                        size_t              sample,
                                        size_t             *parent_op,
                                        size_t             *parent_sample);

/* The sample's time minus the times of its children; NaN for a sample
 * that takes no part or indices out of range. */
TPROF_EXPORT double tprof_nesting_self_time (const TprofNesting *nesting,
                                             size_t              op,
                                             size_t              sample);
/* The sum of the self times of @op's samples (0 when it has none); NaN
 * when @op takes no part. */
TPROF_EXPORT double tprof_nesting_self_sum (const TprofNesting *nesting,
                                            size_t              op);

/* The parent operation of @op: the operation of more than half of the
 * parents of @op's samples, where a sample without a parent counts for
 * none and a sample whose parent is of @op itself (recursion) is not
 * counted. A parent that would close a cycle of operations (A in B, B in
 * A) is dropped, considering the operations in the order of @ops. True
 * with *@parent set; false for a top-level operation. */
TPROF_EXPORT bool tprof_nesting_parent_operation (const TprofNesting *nesting,
                                                  size_t              op,
                                                  size_t             *parent);

/* The self times of @op's samples summed by rank into @out (@world_size
 * entries): @gt must be the selection @op was given as. False when @op
 * took no part (no starts) or @gt is not its selection. */
TPROF_EXPORT bool tprof_nesting_rank_self_sums (const TprofNesting      *nesting,
                                                size_t                   op,
                                                const TprofGatheredTime *gt,
                                                int                      world_size,
                                                double                  *out);

TPROF_END_DECLS
