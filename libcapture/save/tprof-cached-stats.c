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
_tprof_cached_scratch_init (TprofCachedScratch *scratch,
                            int                 world_size)
{
  size_t ws = (size_t) world_size;

  scratch->bounds = malloc ((ws + 1) * sizeof *scratch->bounds);
  scratch->ranks = malloc ((ws + 1) * sizeof *scratch->ranks);
  scratch->parts = malloc ((ws + 1) * sizeof *scratch->parts);
  scratch->batch = _tprof_batch_state_new ();
  if (scratch->bounds != NULL && scratch->ranks != NULL && scratch->parts != NULL && scratch->batch != NULL)
    return true;
  _tprof_cached_scratch_clear (scratch);
  return false;
}

void
_tprof_cached_scratch_clear (TprofCachedScratch *scratch)
{
  free (scratch->bounds);
  free (scratch->ranks);
  free (scratch->parts);
  _tprof_batch_state_free (scratch->batch);
  scratch->batch = NULL;
  scratch->bounds = NULL;
  scratch->ranks = NULL;
  scratch->parts = NULL;
}

/* @gt's runs of one rank each into @scratch: their number, or 0 when
 * its ranks are not grouped ascending within [0, @world_size) (or it has
 * no sample). */
static size_t
tprof_cached_runs (const TprofGatheredTime *gt,
                   int                      world_size,
                   TprofCachedScratch      *scratch)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt), runs = 0;
  uint32_t differ = 0;

  scratch->bounds[0] = 0;
  /* the common case, every sample of one rank: told without a branch
   * per sample */
  for (size_t i = 1; i < n; i++)
    differ |= (uint32_t) (ranks[i] ^ ranks[0]);
  if (n > 0 && differ == 0 && ranks[0] >= 0 && ranks[0] < world_size)
    {
      scratch->ranks[0] = ranks[0];
      scratch->bounds[1] = n;
      return 1;
    }
  for (size_t i = 0; i < n; i++)
    {
      if (ranks[i] < 0 || ranks[i] >= world_size || (i > 0 && ranks[i] < ranks[i - 1]))
        return 0;
      if (i + 1 < n && ranks[i + 1] == ranks[i])
        continue;
      scratch->ranks[runs] = ranks[i];
      scratch->bounds[++runs] = i + 1;
    }
  return runs;
}

/* The figures of @n values at @times, stored rank after rank in the
 * @runs runs that scratch->bounds and scratch->ranks give, by one pass of
 * the statistics engine. */
static bool
tprof_cached_stats_runs (TprofCachedStats   *cache,
                         const double       *times,
                         size_t              n,
                         size_t              runs,
                         TprofCachedScratch *scratch)
{
  TprofBatchSummary s;

  if (!_tprof_batch_summarize_parts (scratch->batch, times, n, scratch->bounds, runs, &s, scratch->parts))
    return false;
  cache->summary = (TprofSummary) {
    .count = (size_t) s.count, .sum = s.sum, .mean = s.mean, .std = s.std, .min = s.min, .max = s.max,
    .median = s.median, .p95 = s.p95, .p99 = s.p99,
  };
  for (size_t i = 0; i < runs; i++)
    {
      size_t r = (size_t) scratch->ranks[i];

      cache->rank_count[r] = (int64_t) scratch->parts[i].count;
      cache->rank_sum[r] = scratch->parts[i].sum;
      cache->rank_min[r] = scratch->parts[i].min;
      cache->rank_max[r] = scratch->parts[i].max;
    }
  return true;
}

/* The figures of @gt (not sampled), stored rank after rank, by one pass
 * of the statistics engine over its runs: false when its ranks are not
 * so stored. */
static bool
tprof_cached_stats_batch (TprofCachedStats        *cache,
                          const TprofGatheredTime *gt,
                          int                      world_size,
                          TprofCachedScratch      *scratch)
{
  size_t runs = tprof_cached_runs (gt, world_size, scratch);

  return runs > 0
         && tprof_cached_stats_runs (cache, tprof_gathered_time_times (gt), tprof_gathered_time_count (gt), runs,
                                     scratch);
}

/* The same through the whole-selection summary and rank summaries. */
static bool
tprof_cached_stats_whole (TprofCachedStats        *cache,
                          const TprofGatheredTime *gt)
{
  TprofRankSummary *ranks = NULL;
  size_t n_ranks = tprof_gathered_time_rank_summaries (gt, &ranks);

  if (n_ranks == (size_t) -1 || !tprof_gathered_time_summarize (gt, &cache->summary))
    {
      free (ranks);
      return false;
    }
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
  return true;
}

bool
_tprof_cached_stats_init (TprofCachedStats        *cache,
                          const TprofGatheredTime *gt,
                          int                      world_size,
                          int64_t                 *storage,
                          TprofCachedScratch      *scratch)
{
  size_t ws = (size_t) world_size;
  bool ok;

  cache->rank_recorded = NULL;
  cache->borrowed = storage != NULL;
  cache->rank_count = storage != NULL ? storage : calloc (ws, sizeof *cache->rank_count);
  cache->rank_sum = storage != NULL ? (double *) (storage + ws) : calloc (ws, sizeof *cache->rank_sum);
  cache->rank_min = storage != NULL ? (double *) (storage + 2 * ws) : malloc (ws * sizeof *cache->rank_min);
  cache->rank_max = storage != NULL ? (double *) (storage + 3 * ws) : malloc (ws * sizeof *cache->rank_max);
  if (cache->rank_count == NULL || cache->rank_sum == NULL || cache->rank_min == NULL || cache->rank_max == NULL)
    {
      _tprof_cached_stats_clear (cache);
      return false;
    }
  for (size_t r = 0; r < ws; r++)
    cache->rank_min[r] = cache->rank_max[r] = NAN;
  /* a sampled operation's summary covers what its ranks recorded */
  ok = (scratch != NULL && !tprof_gathered_time_is_sampled (gt)
        && tprof_cached_stats_batch (cache, gt, world_size, scratch))
       || tprof_cached_stats_whole (cache, gt);
  if (!ok)
    {
      _tprof_cached_stats_clear (cache);
      return false;
    }
  return tprof_cached_stats_set_recorded (cache, gt, world_size, storage);
}

bool
_tprof_cached_stats_of_rows (TprofCachedStats   *cache,
                             const double       *times,
                             int                 world_size,
                             TprofCachedScratch *scratch)
{
  size_t runs = 0, n = 0;

  scratch->bounds[0] = 0;
  for (int r = 0; r < world_size; r++)
    {
      if (cache->rank_count[r] == 0)
        continue;
      n += (size_t) cache->rank_count[r];
      scratch->ranks[runs] = r;
      scratch->bounds[++runs] = n;
    }
  for (int r = 0; r < world_size; r++)
    cache->rank_min[r] = cache->rank_max[r] = NAN;
  cache->rank_recorded = NULL;
  return tprof_cached_stats_runs (cache, times, n, runs, scratch);
}
