/* tprof-h5-rank-order.c — samples stored grouped by ascending rank, as the file format asks of writers. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "tprof-h5-writer-private.h"

typedef struct
{
  int32_t rank;
  size_t  index;
} TprofRankedIndex;

static int
tprof_ranked_index_compare (const void *a,
                            const void *b)
{
  const TprofRankedIndex *x = a;
  const TprofRankedIndex *y = b;

  /* ties broken by position: a stable order */
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Fills @out_times/@out_ranks with the samples grouped by ascending rank,
 * each rank's samples in their original order. */
bool
_tprof_h5_group_by_rank (const double  *times,
                         const int32_t *ranks,
                         size_t         n,
                         int            world_size,
                         double        *out_times,
                         int32_t       *out_ranks)
{
  if ((size_t) world_size <= n + 1024)
    {
      /* counting sort: O(n + world_size) */
      size_t *next = calloc ((size_t) world_size + 1, sizeof *next);

      if (next == NULL)
        return false;
      for (size_t i = 0; i < n; i++)
        next[ranks[i] + 1]++;
      for (int r = 0; r < world_size; r++)
        next[r + 1] += next[r];
      for (size_t i = 0; i < n; i++)
        {
          size_t at = next[ranks[i]]++;

          out_times[at] = times[i];
          out_ranks[at] = ranks[i];
        }
      free (next);
    }
  else
    {
      /* few samples over a huge world: sort the samples, not the ranks */
      TprofRankedIndex *sorted = n <= SIZE_MAX / sizeof *sorted ? malloc (n * sizeof *sorted) : NULL;

      if (sorted == NULL)
        return false;
      for (size_t i = 0; i < n; i++)
        sorted[i] = (TprofRankedIndex) { ranks[i], i };
      qsort (sorted, n, sizeof *sorted, tprof_ranked_index_compare);
      for (size_t i = 0; i < n; i++)
        {
          out_times[i] = times[sorted[i].index];
          out_ranks[i] = sorted[i].rank;
        }
      free (sorted);
    }
  return true;
}

/* The profile checked its ranks when they were added; checked again here
 * because the counting sort indexes by rank. */
TprofH5RankOrder
_tprof_h5_rank_order (const int32_t *ranks,
                      size_t         n,
                      int            world_size)
{
  TprofH5RankOrder order = TPROF_H5_GROUPED;
  size_t sorted = 1;

  /* grouped, as a profile's samples mostly are: in range when its first
   * and last ranks are, one comparison a sample */
  while (sorted < n && ranks[sorted] >= ranks[sorted - 1])
    sorted++;
  if (n == 0 || (sorted == n && ranks[0] >= 0 && ranks[n - 1] < world_size))
    return order;
  for (size_t i = 0; i < n; i++)
    {
      if (ranks[i] < 0 || ranks[i] >= world_size)
        return TPROF_H5_OUT_OF_RANGE;
      if (i > 0 && ranks[i] < ranks[i - 1])
        order = TPROF_H5_INTERLEAVED;
    }
  return order;
}
