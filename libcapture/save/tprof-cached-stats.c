/* tprof-cached-stats.c — TprofCachedStats: the statistics format 2 stores with an operation, computed by the statistics engine for the writer. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-writer-private.h"

void
_tprof_cached_stats_clear (TprofCachedStats *cache)
{
  if (!cache->borrowed)
    {
      free (cache->rank_count);
      free (cache->rank_sum);
      free (cache->rank_min);
      free (cache->rank_max);
      free (cache->rank_recorded);
    }
  cache->borrowed = false;
  cache->rank_recorded = NULL;
  cache->rank_count = NULL;
  cache->rank_sum = cache->rank_min = cache->rank_max = NULL;
}

/* Sampled capture: each rank's recorded count and exact figures replace
 * those of its stored samples (the summary has them already). */
static bool
tprof_cached_stats_set_recorded (TprofCachedStats        *cache,
                                 const TprofGatheredTime *gt,
                                 int                      world_size,
                                 int64_t                 *storage)
{
  const TprofRankRecorded *rec;
  size_t n = tprof_gathered_time_recorded (gt, &rec);

  if (!tprof_gathered_time_is_sampled (gt))
    return true;
  cache->rank_recorded = storage != NULL ? storage + 4 * (size_t) world_size
                         : malloc ((size_t) world_size * sizeof *cache->rank_recorded);
  if (cache->rank_recorded == NULL)
    {
      _tprof_cached_stats_clear (cache);
      return false;
    }
  memcpy (cache->rank_recorded, cache->rank_count, (size_t) world_size * sizeof *cache->rank_recorded);
  /* the ranks were checked against the world size before */
  for (size_t i = 0; i < n; i++)
    {
      size_t r = (size_t) rec[i].rank;

      if (rec[i].rank < 0 || rec[i].rank >= world_size || rec[i].recorded == 0)
        continue;
      cache->rank_recorded[r] = (int64_t) rec[i].recorded;
      cache->rank_sum[r] = rec[i].sum;
      cache->rank_min[r] = rec[i].min;
      cache->rank_max[r] = rec[i].max;
    }
  return true;
}

bool
_tprof_cached_stats_init (TprofCachedStats        *cache,
                          const TprofGatheredTime *gt,
                          int                      world_size,
                          int64_t                 *storage)
{
  size_t ws = (size_t) world_size;
  TprofRankSummary *ranks = NULL;
  size_t n_ranks;

  cache->rank_recorded = NULL;
  cache->borrowed = storage != NULL;
  cache->rank_count = storage != NULL ? storage : calloc (ws, sizeof *cache->rank_count);
  cache->rank_sum = storage != NULL ? (double *) (storage + ws) : calloc (ws, sizeof *cache->rank_sum);
  cache->rank_min = storage != NULL ? (double *) (storage + 2 * ws) : malloc (ws * sizeof *cache->rank_min);
  cache->rank_max = storage != NULL ? (double *) (storage + 3 * ws) : malloc (ws * sizeof *cache->rank_max);
  n_ranks = tprof_gathered_time_rank_summaries (gt, &ranks);
  if (cache->rank_count == NULL || cache->rank_sum == NULL || cache->rank_min == NULL ||
      cache->rank_max == NULL || n_ranks == (size_t) -1 ||
      !tprof_gathered_time_summarize (gt, &cache->summary))
    {
      free (ranks);
      _tprof_cached_stats_clear (cache);
      return false;
    }

  for (size_t r = 0; r < ws; r++)
    cache->rank_min[r] = cache->rank_max[r] = NAN;
  /* the ranks were checked against the world size before */
  for (size_t i = 0; i < n_ranks; i++)
    {
      size_t r = (size_t) ranks[i].rank;

      cache->rank_count[r] = (int64_t) ranks[i].count;
      cache->rank_sum[r] = ranks[i].sum;
      cache->rank_min[r] = ranks[i].min;
      cache->rank_max[r] = ranks[i].max;
    }
  free (ranks);
  return tprof_cached_stats_set_recorded (cache, gt, world_size, storage);
}
