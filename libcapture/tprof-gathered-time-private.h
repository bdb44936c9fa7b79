/* tprof-gathered-time-private.h — helpers shared by the statistics and histogram code: checked allocation, rank lookup. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* malloc (@n_items * @item_size), or NULL when that product overflows. */
static inline void *
_tprof_malloc_array (size_t n_items,
                     size_t item_size)
{
  size_t bytes;

  if (__builtin_mul_overflow (n_items, item_size, &bytes))
    return NULL;

  return malloc (bytes > 0 ? bytes : 1);
}

/* The smallest and largest of @x[0..@n), NaN when @n is 0. Returns false
 * when some value is NaN or infinite (a NaN first value then leaks into the
 * result; callers needing finite extremes rescan). */
bool _tprof_values_min_max (const double *x,
                            size_t        n,
                            double       *min,
                            double       *max);

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
