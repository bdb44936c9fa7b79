/* tprof-columns-layout.c — where format 3 puts a profile: each operation's rows, its segments (one per rank), the columns present. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-writer-private.h"

void
_tprof_columns_layout_clear (TprofColumnsLayout *l)
{
  free (l->rows);
  free (l->op_segments);
  free (l->seg_rank);
  free (l->seg_offset);
  free (l->name_length);
  l->name_length = NULL;
  l->rows = NULL;
  l->op_segments = l->seg_offset = NULL;
  l->seg_rank = NULL;
}

/* Rank @r has a segment in @op when it stores or recorded a sample. */
static bool
layout_rank_from_cache (const TprofOperationParts *op,
                        int                        r)
{
  const TprofCachedStats *c = op->cache;

  return c->rank_count[r] > 0 || (c->rank_recorded != NULL && c->rank_recorded[r] > 0);
}

/* The end of the run of @ranks[@i]'s rank in the @n ranks at @ranks,
 * grouped ascending: found by galloping then bisection, so that a
 * segment costs a few reads of the column, not one per sample. */
static size_t
run_end (const int32_t *ranks,
         size_t         i,
         size_t         n)
{
  int32_t r = ranks[i];
  size_t lo = i, step = 1, hi;  /* ranks[lo] == r; the end is in (lo, hi] */

  /* the last run (an operation of one rank is one): one read */
  if (ranks[n - 1] == r)
    return n;
  while ((hi = n - lo > step ? lo + step : n) < n && ranks[hi] == r)
    {
      lo = hi;
      step *= 2;
    }
  while (hi - lo > 1)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (ranks[mid] == r)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* Calls @emit for each segment of @op in rank order: (rank, samples).
 * Stored samples are grouped by ascending rank; under sampled capture a
 * rank that recorded but stores nothing still has one, empty. */
static size_t
layout_segments (const TprofOperationParts *op,
                 int                        world_size,
                 int32_t                   *rank,
                 int64_t                   *count)
{
  const int32_t *ranks = op->data[TPROF_H5_FIELD_RANKS];
  size_t s = 0, i = 0, j = 0;

  if (op->left_to_ranks)
    {
      for (int r = 0; r < world_size; r++)
        if (layout_rank_from_cache (op, r))
          {
            if (rank != NULL)
              {
                rank[s] = r;
                count[s] = op->cache->rank_count[r];
              }
            s++;
          }
      return s;
    }
  while (i < op->n || j < op->n_recorded)
    {
      int32_t r = i < op->n ? ranks[i] : INT32_MAX;
      size_t start = i;

      if (j < op->n_recorded && op->recorded[j].rank <= r)
        r = op->recorded[j].rank;
      if (i < op->n && ranks[i] == r)
        i = run_end (ranks, i, op->n);
      while (j < op->n_recorded && op->recorded[j].rank <= r)
        j++;
      if (rank != NULL)
        {
          rank[s] = r;
          count[s] = (int64_t) (i - start);
        }
      s++;
    }
  return s;
}

static int
layout_no_memory (const char *path,
                  TprofError *error)
{
  return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory laying out the file", path);
}

/* Which columns the file holds: starts and threads when every operation
 * with samples has a timeline, recorded when one was sampled. */
static void
layout_columns (TprofColumnsLayout *l)
{
  bool any_timeline = false, all_timeline = true;

  l->sampled = false;
  for (size_t k = 0; k < l->n_ops; k++)
    {
      const TprofOperationParts *op = &l->ops[k];

      any_timeline = any_timeline || op->timeline;
      all_timeline = all_timeline && (op->timeline || op->n == 0);
      l->sampled = l->sampled || op->n_recorded > 0 || (op->cache != NULL && op->cache->rank_recorded != NULL);
    }
  l->timeline = any_timeline && all_timeline;
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      l->present[c] = _tprof_columns[c].required;
      l->offset[c] = UINT64_MAX;
      l->crc[c] = 0;
    }
  l->present[TPROF_COL_STARTS] = l->present[TPROF_COL_THREADS] = l->timeline;
  l->present[TPROF_COL_SEG_RECORDED] = l->sampled;
}

/* An operation with more room than this for its segments has them
 * counted before they are laid out; a smaller one is walked once, into
 * room for its most. */
#define LAYOUT_COUNT_ABOVE 4096

/* Room enough for @op's segments: one a sample or recorded rank (each
 * segment takes at least one), or one a rank when its cache has them. */
static size_t
layout_room (const TprofOperationParts *op,
             int                        world_size)
{
  size_t most = op->left_to_ranks ? (size_t) (world_size > 0 ? world_size : 0) : op->n + op->n_recorded;

  return most > LAYOUT_COUNT_ABOVE ? layout_segments (op, world_size, NULL, NULL) : most;
}

/* Grows @l's segment columns to hold @need segments, doubling. */
static bool
layout_grow (TprofColumnsLayout *l,
             size_t              need,
             size_t             *room)
{
  size_t want = *room > SIZE_MAX / 2 || 2 * *room < need ? need : 2 * *room;
  int32_t *rank;
  int64_t *offset;

  if (need <= *room)
    return true;
  if (want >= SIZE_MAX / sizeof *offset)
    return false;
  if ((rank = realloc (l->seg_rank, want * sizeof *rank)) == NULL)
    return false;
  l->seg_rank = rank;
  if ((offset = realloc (l->seg_offset, (want + 1) * sizeof *offset)) == NULL)
    return false;
  l->seg_offset = offset;
  *room = want;
  return true;
}

int
_tprof_columns_layout_init (TprofColumnsLayout  *l,
                            TprofOperationParts *ops,
                            size_t               n_ops,
                            int                  world_size,
                            const char          *path,
                            TprofError          *error)
{
  size_t s = 0, room = n_ops + 16;

  memset (l, 0, sizeof *l);
  l->ops = ops;
  l->n_ops = n_ops;
  l->rows = malloc ((n_ops + 1) * sizeof *l->rows);
  l->op_segments = malloc ((n_ops + 1) * sizeof *l->op_segments);
  l->seg_rank = malloc (room * sizeof *l->seg_rank);
  l->seg_offset = malloc ((room + 1) * sizeof *l->seg_offset);
  l->name_length = malloc ((n_ops > 0 ? n_ops : 1) * sizeof *l->name_length);
  if (l->rows == NULL || l->op_segments == NULL || l->seg_rank == NULL || l->seg_offset == NULL
      || l->name_length == NULL)
    {
      _tprof_columns_layout_clear (l);
      return layout_no_memory (path, error);
    }
  l->rows[0] = 0;
  l->op_segments[0] = 0;
  l->seg_offset[0] = 0;
  /* one walk of each operation's segments: laid out as they are found */
  for (size_t k = 0; k < n_ops; k++)
    {
      size_t got;

      if (!layout_grow (l, s + layout_room (&ops[k], world_size), &room))
        {
          _tprof_columns_layout_clear (l);
          return layout_no_memory (path, error);
        }
      got = layout_segments (&ops[k], world_size, l->seg_rank + s, l->seg_offset + s + 1);
      /* counts into offsets */
      for (size_t i = s; i < s + got; i++)
        l->seg_offset[i + 1] += l->seg_offset[i];
      s += got;
      l->op_segments[k + 1] = (int64_t) s;
      l->rows[k + 1] = l->rows[k] + ops[k].n;
      l->name_length[k] = strlen (ops[k].name);
    }
  l->n_segments = s;
  l->n_samples = l->rows[n_ops];
  layout_columns (l);
  return 0;
}

uint64_t
_tprof_columns_layout_bytes (const TprofColumnsLayout *l)
{
  uint64_t bytes = 0;

  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (l->present[c])
      bytes += _tprof_column_length (c, l->n_ops, l->n_segments, l->n_samples)
               * (_tprof_columns[c].type == TPROF_COLTYPE_STRING ? 32 : _tprof_column_value_size (c));
  for (size_t k = 0; k < l->n_ops; k++)
    bytes += 2 * l->name_length[k];
  return bytes;
}
