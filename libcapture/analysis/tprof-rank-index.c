/* tprof-rank-index.c — maps the rank numbers of a selection to dense rows, by table or binary search. */
/* SPDX-License-Identifier: MIT */

#include <stdlib.h>
#include <string.h>

#include "tprof-gathered-time-private.h"

/* A lookup table costs 4 bytes per rank in the span of ranks: allow it while
 * that stays within a small multiple of the data (or small outright), so a
 * few ranks numbered in the millions never allocate a huge table. */
#define DENSE_SPAN_SLACK 65536

static int
compare_ranks (const void *a,
               const void *b)
{
  int32_t x = *(const int32_t *) a;
  int32_t y = *(const int32_t *) b;

  return (x > y) - (x < y);
}

void
_tprof_rank_index_clear (TprofRankIndex *index)
{
  free (index->ranks);
  free (index->dense_rows);
  memset (index, 0, sizeof *index);
}

ptrdiff_t
_tprof_rank_index_search (const TprofRankIndex *index,
                          int32_t               rank)
{
  size_t lo = 0;
  size_t hi = index->n_ranks;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (index->ranks[mid] < rank)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo < index->n_ranks && index->ranks[lo] == rank)
    return (ptrdiff_t) lo;
  return -1;
}

static bool
rank_index_init_dense (TprofRankIndex *index,
                       const int32_t  *ranks,
                       size_t          n)
{
  size_t n_ranks = 0;
  uint32_t *rows;
  int64_t base = index->base;

  rows = index->dense_rows = calloc (index->span, sizeof *index->dense_rows);
  if (rows == NULL)
    return false;

  for (size_t i = 0; i < n; i++)
    rows[ranks[i] - base] = 1;

  for (size_t offset = 0; offset < index->span; offset++)
    if (index->dense_rows[offset] != 0)
      index->dense_rows[offset] = (uint32_t) ++n_ranks;

  index->ranks = _tprof_malloc_array (n_ranks, sizeof *index->ranks);
  if (index->ranks == NULL)
    return false;

  for (size_t offset = 0; offset < index->span; offset++)
    if (index->dense_rows[offset] != 0)
      index->ranks[index->dense_rows[offset] - 1] = (int32_t) (index->base + (int64_t) offset);
  index->n_ranks = n_ranks;

  return true;
}

static bool
rank_index_init_sparse (TprofRankIndex *index,
                        const int32_t  *ranks,
                        size_t          n)
{
  size_t n_ranks = 0;
  int32_t *shrunk;

  index->ranks = _tprof_malloc_array (n, sizeof *index->ranks);
  if (index->ranks == NULL)
    return false;

  memcpy (index->ranks, ranks, n * sizeof *ranks);
  qsort (index->ranks, n, sizeof *index->ranks, compare_ranks);

  for (size_t i = 0; i < n; i++)
    if (n_ranks == 0 || index->ranks[n_ranks - 1] != index->ranks[i])
      index->ranks[n_ranks++] = index->ranks[i];
  index->n_ranks = n_ranks;

  /* Give back the room of the duplicates; keeping it is harmless. */
  shrunk = realloc (index->ranks, n_ranks * sizeof *index->ranks);
  if (shrunk != NULL)
    index->ranks = shrunk;

  return true;
}

/* Four independent lanes, as in _tprof_values_min_max(): one running
 * min/max would wait on each comparison. */
static void
ranks_min_max (const int32_t *ranks,
               size_t         n,
               int32_t       *lowest,
               int32_t       *highest)
{
  int32_t lo[4] = { INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX };
  int32_t hi[4] = { INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN };
  size_t i;

  for (i = 0; i + 4 <= n; i += 4)
    for (size_t lane = 0; lane < 4; lane++)
      {
        lo[lane] = ranks[i + lane] < lo[lane] ? ranks[i + lane] : lo[lane];
        hi[lane] = ranks[i + lane] > hi[lane] ? ranks[i + lane] : hi[lane];
      }
  for (; i < n; i++)
    {
      lo[0] = ranks[i] < lo[0] ? ranks[i] : lo[0];
      hi[0] = ranks[i] > hi[0] ? ranks[i] : hi[0];
    }

  *lowest = lo[0];
  *highest = hi[0];
  for (size_t lane = 1; lane < 4; lane++)
    {
      *lowest = lo[lane] < *lowest ? lo[lane] : *lowest;
      *highest = hi[lane] > *highest ? hi[lane] : *highest;
    }
}

bool
_tprof_rank_index_init (TprofRankIndex *index,
                        const int32_t  *ranks,
                        size_t          n)
{
  int32_t lowest = INT32_MAX;
  int32_t highest = INT32_MIN;
  uint64_t span;
  bool ok;

  memset (index, 0, sizeof *index);
  if (n == 0)
    return true;

  ranks_min_max (ranks, n, &lowest, &highest);

  span = (uint64_t) ((int64_t) highest - lowest) + 1;
  index->base = lowest;

  if (span <= DENSE_SPAN_SLACK || (span < UINT32_MAX && span / 2 <= n))
    {
      index->span = (size_t) span;
      ok = rank_index_init_dense (index, ranks, n);
    }
  else
    ok = rank_index_init_sparse (index, ranks, n);

  if (!ok)
    _tprof_rank_index_clear (index);
  return ok;
}

/* A fixed bitmap window slid over the span of ranks: needs no memory. */
size_t
_tprof_ranks_count_distinct_in_place (const int32_t *ranks,
                                      size_t         n)
{
  enum { WINDOW_BITS = 8192 * 8 };
  uint8_t seen[WINDOW_BITS / 8];
  int64_t lowest = INT32_MAX;
  int64_t highest = INT32_MIN;
  size_t n_distinct = 0;

  for (size_t i = 0; i < n; i++)
    {
      if (ranks[i] < lowest)
        lowest = ranks[i];
      if (ranks[i] > highest)
        highest = ranks[i];
    }

  for (int64_t window = lowest; window <= highest; window += WINDOW_BITS)
    {
      memset (seen, 0, sizeof seen);
      for (size_t i = 0; i < n; i++)
        {
          int64_t offset = (int64_t) ranks[i] - window;

          if (offset >= 0 && offset < WINDOW_BITS
              && !(seen[offset / 8] & (1u << (offset % 8))))
            {
              seen[offset / 8] |= (uint8_t) (1u << (offset % 8));
              n_distinct++;
            }
        }
    }

  return n_distinct;
}
