/* tprof-operation-index-private.h — the layout of a TprofOperationIndex, shared by the files that answer from it. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-operation-index.h>

#include "tprof-sorted-runs-private.h"

struct _TprofOperationIndex
{
  size_t            n_samples;
  double           *sorted;          /* grouped by rank (ascending), ascending within a rank */
  size_t            n_ranks;         /* ranks with at least one sample */
  int32_t          *ranks;           /* n_ranks, ascending */
  size_t           *offsets;         /* n_ranks + 1, into sorted */
  TprofRankSummary *rank_summaries;  /* n_ranks, of the samples in recording order */
  double           *rank_m2;         /* n_ranks: sum of squared deviations from the rank's mean */
  TprofSummary      summary;         /* every rank */
};

static inline bool
_tprof_rank_is_selected (const uint8_t *mask,
                         int32_t        rank)
{
  return mask == NULL || (rank >= 0 && mask[rank]);
}

/* The runs of the ranks of @mask (a malloc'd array the caller frees, with
 * room for at least one), their number in *@n_runs and their total length
 * in *@total; NULL when memory is exhausted. */
TprofSortedRun *_tprof_operation_index_select_runs (const TprofOperationIndex *index,
                                                    const uint8_t             *mask,
                                                    size_t                    *n_runs,
                                                    size_t                    *total);
