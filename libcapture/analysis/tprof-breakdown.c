/* tprof-breakdown.c — an operation's time on each rank split into the operations inside it and its self time: the matrix tprof plot and the viewer draw. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include <tprof/tprof-breakdown.h>

#include "tprof-gathered-time-private.h"

void
tprof_breakdown_free (TprofBreakdown *breakdown)
{
  if (breakdown == NULL)
    return;
  free (breakdown->children);
  free (breakdown->ranks);
  free (breakdown->values);
  free (breakdown);
}

/* The operations whose parent @op is, and the ranks shown. */
static bool
breakdown_find_rows_and_columns (TprofBreakdown       *b,
                                 size_t                op,
                                 size_t                n_ops,
                                 const int64_t        *parents,
                                 const int64_t *const *rank_counts,
                                 const uint8_t        *mask,
                                 size_t                world_size)
{
  size_t n_children = 0;

  b->children = _tprof_malloc_array (n_ops > 0 ? n_ops : 1, sizeof *b->children);
  b->ranks = _tprof_malloc_array (world_size > 0 ? world_size : 1, sizeof *b->ranks);
  if (b->children == NULL || b->ranks == NULL)
    return false;
  for (size_t i = 0; i < n_ops; i++)
    if (i != op && parents[i] == (int64_t) op)
      b->children[n_children++] = i;
  b->n_parts = n_children + 1;
  for (size_t r = 0; r < world_size; r++)
    if (rank_counts[op][r] > 0 && (mask == NULL || mask[r]))
      b->ranks[b->n_ranks++] = (int32_t) r;
  return true;
}

TprofBreakdown *
tprof_breakdown_new (size_t                op,
                     size_t                n_ops,
                     const int64_t        *parents,
                     const int64_t *const *rank_counts,
                     const double *const  *rank_sums,
                     const double         *self_sums,
                     const uint8_t        *mask,
                     size_t                world_size)
{
  TprofBreakdown *b = calloc (1, sizeof *b);
  size_t n_children;

  if (b == NULL || op >= n_ops
      || !breakdown_find_rows_and_columns (b, op, n_ops, parents, rank_counts, mask, world_size)
      || (b->values = _tprof_malloc_array (b->n_parts * (b->n_ranks > 0 ? b->n_ranks : 1),
                                           sizeof *b->values)) == NULL)
    {
      tprof_breakdown_free (b);
      return NULL;
    }
  n_children = b->n_parts - 1;
  for (size_t c = 0; c < n_children; c++)
    for (size_t k = 0; k < b->n_ranks; k++)
      {
        size_t child = b->children[c], r = (size_t) b->ranks[k];

        b->values[c * b->n_ranks + k] = rank_counts[child][r] > 0 ? rank_sums[child][r] : 0.0;
      }
  for (size_t k = 0; k < b->n_ranks; k++)
    b->values[n_children * b->n_ranks + k] = self_sums != NULL ? self_sums[b->ranks[k]] : NAN;
  return b;
}
