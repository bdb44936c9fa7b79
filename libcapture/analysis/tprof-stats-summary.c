/* tprof-stats-summary.c — a whole summary in one pass (sum, extremes, rank totals, quantile scan), then the std. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-slowest.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-stats-parts-internal.h"

const double _tprof_summary_percentiles[TPROF_SUMMARY_N_QUANTILES] = { 0.5, 0.95, 0.99 };

/* Ranks below this (MPI ranks, in practice) are totalled in a table during
 * the pass that sums the samples; larger or negative ones take the general
 * path. A power of two: OR-ing ranks bounds them. */
#define RANK_TABLE_SIZE (1u << 16)

/* One chunk of the summary pass: the sum, extremes and, while the ranks
 * stay within the table, each rank's total and count; with @select, the
 * scan for the quantiles too. On its own cache lines: its thread writes it
 * at every block. */
typedef struct
{
  TprofSampledSelect *select;
  size_t              chunk;
  double             *buffer_sums;
  const double       *times;
  const int32_t      *ranks;
  size_t              n;
  size_t              table_size;
  double             *totals;      /* table_size each, zeroed */
  uint64_t           *counts;
  uint32_t            rank_bits;   /* OR of the ranks counted: bounds them */
  double              sum;
  double              min;         /* of the blocks @select did not scan */
  double              max;
  bool                ranks_in_table;
} __attribute__ ((aligned (64))) SummaryTask;

/* Four ranks at a time in GCC's portable vector extension. */
typedef uint32_t RankLanes __attribute__ ((vector_size (4 * sizeof (uint32_t))));

/* The OR of @ranks (bounding them, as unsigned) and whether they differ. */
static inline void
ranks_scan (const int32_t *ranks,
            size_t         n,
            uint32_t      *any,
            bool          *differ)
{
  uint32_t r0 = (uint32_t) ranks[0];
  RankLanes first = { r0, r0, r0, r0 };
  RankLanes bits = { 0 }, changes = { 0 };
  uint32_t tail_bits = 0, tail_changes = 0;
  size_t i;

  for (i = 0; i + 4 <= n; i += 4)
    {
      RankLanes r;

      memcpy (&r, ranks + i, sizeof r);
      bits |= r;
      changes |= r ^ first;
    }
  for (; i < n; i++)
    {
      tail_bits |= (uint32_t) ranks[i];
      tail_changes |= (uint32_t) ranks[i] ^ r0;
    }
  *any = bits[0] | bits[1] | bits[2] | bits[3] | tail_bits;
  *differ = (changes[0] | changes[1] | changes[2] | changes[3] | tail_changes) != 0;
}

static void
summary_visit_block (const double *block,
                     size_t        offset,
                     size_t        n,
                     double        block_sum,
                     void         *data)
{
  SummaryTask *task = data;
  const int32_t *ranks = task->ranks + offset;
  uint32_t any;
  bool differ;

  /* The quantiles' scan finds the extremes on the way, until it gives up. */
  if (task->select != NULL && !task->select->chunks[task->chunk].failed
      && !task->select->chunks[task->chunk].no_memory)
    _tprof_sampled_select_scan (task->select, task->chunk, block, n);
  else
    {
      double lo = task->min, hi = task->max;

      for (size_t i = 0; i < n; i++)
        {
          lo = block[i] < lo ? block[i] : lo;
          hi = block[i] > hi ? block[i] : hi;
        }
      task->min = lo;
      task->max = hi;
    }

  if (!task->ranks_in_table)
    return;

  ranks_scan (ranks, n, &any, &differ);
  if (any >= task->table_size)
    {
      task->ranks_in_table = false;
      return;
    }
  task->rank_bits |= any;

  /* Files store each rank's samples together: a whole block of one rank
   * adds its pairwise sum at once. */
  if (!differ)
    {
      task->totals[ranks[0]] += block_sum;
      task->counts[ranks[0]] += n;
      return;
    }
  for (size_t i = 0; i < n; i++)
    {
      task->totals[ranks[i]] += block[i];
      task->counts[ranks[i]]++;
    }
}

static void
summary_task_run (void *data)
{
  SummaryTask *task = data;

  task->min = INFINITY;
  task->max = -INFINITY;
  task->sum = _tprof_values_sum_buffers (task->times, task->n, task->buffer_sums,
                                         summary_visit_block, task);
}

/* The table the ranks need: a small one for a few samples, so that
 * summarizing many small operations stays cheap. */
static size_t
rank_table_size (const int32_t *ranks,
                 size_t         n)
{
  uint32_t any = 0;
  size_t size = 1;

  if (n >= RANK_TABLE_SIZE)
    return RANK_TABLE_SIZE;
  for (size_t i = 0; i < n; i++)
    any |= (uint32_t) ranks[i];
  if (any >= RANK_TABLE_SIZE)
    return 0;
  while (size <= any)
    size *= 2;
  return size;
}

void
_tprof_rank_totals_balance (const double  *totals,
                            const int32_t *ranks,
                            size_t         n_ranks,
                            TprofSummary  *out)
{
  size_t slowest = 0;
  double mean;

  out->imbalance = out->imbalance_time = NAN;
  out->slowest_rank = -1;
  out->slowest_stands_out = false;
  if (n_ranks == 0)
    return;
  for (size_t r = 1; r < n_ranks; r++)
    if (totals[r] > totals[slowest])
      slowest = r;
  mean = _tprof_values_sum (totals, n_ranks) / (double) n_ranks;
  out->slowest_rank = ranks[slowest];
  out->imbalance = totals[slowest] / mean;
  out->imbalance_time = totals[slowest] - mean;
  out->slowest_stands_out = tprof_slowest_stands_out (totals, n_ranks, slowest);
}

void
_tprof_summary_set_balance (TprofSummary  *out,
                            const double  *totals,
                            const int32_t *ranks,
                            size_t         n_ranks)
{
  out->rank_count = n_ranks;
  _tprof_rank_totals_balance (totals, ranks, n_ranks, out);
}

/* The general path, for ranks beyond the table: totals from the per-rank
 * summaries. */
static bool
summary_balance_from_rank_summaries (const TprofGatheredTime *gt,
                                     TprofSummary            *out)
{
  TprofRankSummary *summaries = NULL;
  size_t n_ranks = tprof_gathered_time_rank_summaries (gt, &summaries);
  double *totals;
  int32_t *ranks;

  if (n_ranks == (size_t) -1)
    return false;
  totals = _tprof_malloc_array (n_ranks, sizeof *totals);
  ranks = _tprof_malloc_array (n_ranks, sizeof *ranks);
  if (totals != NULL && ranks != NULL)
    {
      for (size_t r = 0; r < n_ranks; r++)
        {
          totals[r] = summaries[r].sum;
          ranks[r] = summaries[r].rank;
        }
      _tprof_summary_set_balance (out, totals, ranks, n_ranks);
    }

  free (summaries);
  free (ranks);
  free (totals);
  return totals != NULL && ranks != NULL;
}

/* Folds the tables of every chunk into the first one's, compacted to the
 * ranks with samples, and sets the balance figures. */
static bool
summary_balance_from_tables (SummaryTask  *tasks,
                             size_t        n_chunks,
                             TprofSummary *out)
{
  double *totals = tasks[0].totals;
  uint64_t *counts = tasks[0].counts;
  uint32_t rank_bits = 0;
  int32_t *ranks;
  size_t n_ranks = 0;

  ranks = _tprof_malloc_array (tasks[0].table_size, sizeof *ranks);
  if (ranks == NULL)
    return false;

  for (size_t c = 0; c < n_chunks; c++)
    rank_bits |= tasks[c].rank_bits;
  for (size_t r = 0; r <= rank_bits; r++)
    {
      for (size_t c = 1; c < n_chunks; c++)
        {
          totals[r] += tasks[c].totals[r];
          counts[r] += tasks[c].counts[r];
        }
      if (counts[r] > 0)
        {
          totals[n_ranks] = totals[r];
          ranks[n_ranks++] = (int32_t) r;
        }
    }

  _tprof_summary_set_balance (out, totals, ranks, n_ranks);
  free (ranks);
  return true;
}

/* The sum, extremes and balance of @gt into @out, and the scan of @select
 * (prepared for the chunks of @pass) if not NULL. */
static bool
summary_scan (const TprofGatheredTime *gt,
              TprofSummary            *out,
              TprofSampledSelect      *select,
              const TprofStatsPass    *pass)
{
  const size_t *bounds = pass->bounds;
  size_t n_chunks = pass->n_chunks;
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);
  size_t table_size = rank_table_size (ranks, n);
  SummaryTask tasks[TPROF_STATS_MAX_CHUNKS] = { { 0 } };
  double sums[TPROF_STATS_MAX_CHUNKS];
  bool ranks_in_table = table_size > 0;
  bool ok = true;

  for (size_t c = 0; c < n_chunks; c++)
    {
      SummaryTask *task = &tasks[c];

      task->select = select;
      task->chunk = c;
      task->buffer_sums = _tprof_stats_pass_sums (pass, c);
      task->times = tprof_gathered_time_times (gt) + bounds[c];
      task->ranks = ranks + bounds[c];
      task->n = bounds[c + 1] - bounds[c];
      task->table_size = table_size;
      task->ranks_in_table = ranks_in_table;
      if (ranks_in_table)
        {
          task->totals = calloc (table_size, sizeof *task->totals);
          task->counts = calloc (table_size, sizeof *task->counts);
          ok = ok && task->totals != NULL && task->counts != NULL;
        }
    }

  if (ok)
    {
      _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, summary_task_run);

      out->min = INFINITY;
      out->max = -INFINITY;
      for (size_t c = 0; c < n_chunks; c++)
        {
          sums[c] = tasks[c].sum;
          out->min = fmin (out->min, tasks[c].min);
          out->max = fmax (out->max, tasks[c].max);
          if (select != NULL)
            {
              out->min = fmin (out->min, select->chunks[c].min);
              out->max = fmax (out->max, select->chunks[c].max);
            }
          ranks_in_table = ranks_in_table && tasks[c].ranks_in_table;
        }
      /* nothing but NaN */
      if (!(out->min <= out->max))
        out->min = out->max = NAN;
      out->sum = _tprof_stats_pass_total (pass, sums);

      if (ranks_in_table)
        ok = summary_balance_from_tables (tasks, n_chunks, out);
      else
        ok = summary_balance_from_rank_summaries (gt, out);
    }

  for (size_t c = 0; c < n_chunks; c++)
    {
      free (tasks[c].totals);
      free (tasks[c].counts);
    }
  return ok;
}

/* median, p95 and p99 into @out: from @select when its scan worked, on a
 * scratch copy otherwise. */
static bool
summary_set_quantiles (const TprofGatheredTime *gt,
                       TprofSummary            *out,
                       TprofSampledSelect      *select,
                       const size_t            *ranks,
                       size_t                   n_ranks)
{
  const double *percentiles = _tprof_summary_percentiles;
  double quantiles[TPROF_SUMMARY_N_QUANTILES], rank_values[TPROF_ORDER_SEARCH_MAX];
  size_t n = tprof_gathered_time_count (gt);
  int found = select != NULL ? _tprof_sampled_select_finish (select, rank_values) : 0;

  if (found < 0)
    return false;
  if (found > 0)
    _tprof_quantiles_interpolate (n, percentiles, TPROF_SUMMARY_N_QUANTILES, ranks, rank_values, n_ranks, quantiles);
  else if (!tprof_gathered_time_quantiles (gt, percentiles, TPROF_SUMMARY_N_QUANTILES, quantiles))
    return false;

  out->median = quantiles[0];
  out->p95 = quantiles[1];
  out->p99 = quantiles[2];
  return true;
}

/* Sampled capture: count, sum, mean, min, max and the balance of
 * everything the ranks recorded, over @out's figures of the stored
 * subset (which keep std and the quantiles, as estimates). */
static bool
summary_apply_recorded (const TprofGatheredTime *gt,
                        TprofSummary            *out)
{
  const TprofRankRecorded *rec;
  size_t n = tprof_gathered_time_recorded (gt, &rec), n_ranks = 0;
  double *totals;
  int32_t *ranks;
  uint64_t count = 0;

  if (n == 0)
    return true;
  totals = malloc (n * sizeof *totals);
  ranks = malloc (n * sizeof *ranks);
  if (totals == NULL || ranks == NULL)
    {
      free (totals);
      free (ranks);
      return false;
    }
  out->min = out->max = NAN;
  for (size_t i = 0; i < n; i++)
    {
      if (rec[i].recorded == 0)
        continue;
      count += rec[i].recorded;
      totals[n_ranks] = rec[i].sum;
      ranks[n_ranks++] = rec[i].rank;
      if (!(rec[i].min >= out->min))
        out->min = rec[i].min;
      if (!(rec[i].max <= out->max))
        out->max = rec[i].max;
    }
  out->count = (size_t) count;
  out->sum = _tprof_values_sum (totals, n_ranks);
  out->mean = count > 0 ? out->sum / (double) count : NAN;
  _tprof_summary_set_balance (out, totals, ranks, n_ranks);
  free (totals);
  free (ranks);
  return true;
}

bool
tprof_gathered_time_summarize (const TprofGatheredTime *gt,
                               TprofSummary            *out)
{
  const double *percentiles = _tprof_summary_percentiles;
  size_t n = tprof_gathered_time_count (gt);
  TprofStatsPass pass;
  size_t ranks[TPROF_ORDER_SEARCH_MAX], n_ranks = _tprof_quantile_ranks (n, percentiles, TPROF_SUMMARY_N_QUANTILES, ranks);
  TprofSampledSelect select;
  bool sampled = false;
  bool ok;

  if (out == NULL)
    return false;

  *out = (TprofSummary) {
    .count = n,
    .sum = 0.0,
    .mean = NAN,
    .std = NAN,
    .min = NAN,
    .max = NAN,
    .median = NAN,
    .p95 = NAN,
    .p99 = NAN,
    .imbalance = NAN,
    .slowest_rank = -1,
    .imbalance_time = NAN,
  };
  if (n == 0)
    return true;

  /* The quantiles' scan rides along the summary pass when sampling pays. */
  _tprof_stats_pass_init (&pass, n);
  switch (_tprof_sampled_select_init (&select, tprof_gathered_time_times (gt), n,
                                      ranks, n_ranks, pass.bounds, pass.n_chunks))
    {
    case 1:
      sampled = true;
      break;
    case 0:
      break;
    default:
      _tprof_sampled_select_clear (&select);
      _tprof_stats_pass_clear (&pass);
      return false;
    }

  ok = summary_scan (gt, out, sampled ? &select : NULL, &pass)
       && summary_set_quantiles (gt, out, sampled ? &select : NULL, ranks, n_ranks);
  _tprof_sampled_select_clear (&select);
  _tprof_stats_pass_clear (&pass);
  if (!ok)
    return false;

  out->mean = out->sum / (double) n;
  out->std = _tprof_values_std (tprof_gathered_time_times (gt), n, out->mean);
  return summary_apply_recorded (gt, out);
}

bool
tprof_rank_totals_summarize (const int64_t *rank_count,
                             const double  *rank_sum,
                             const double  *rank_min,
                             const double  *rank_max,
                             int            world_size,
                             const uint8_t *mask,
                             TprofSummary  *out)
{
  double *totals = calloc ((size_t) (world_size > 0 ? world_size : 1), sizeof *totals);
  int32_t *ranks = malloc ((size_t) (world_size > 0 ? world_size : 1) * sizeof *ranks);
  size_t n_ranks = 0;
  uint64_t count = 0;

  *out = (TprofSummary) {
    .sum = 0.0, .mean = NAN, .std = NAN, .min = NAN, .max = NAN,
    .median = NAN, .p95 = NAN, .p99 = NAN,
  };
  if (totals == NULL || ranks == NULL)
    {
      free (totals);
      free (ranks);
      return false;
    }
  for (int r = 0; r < world_size; r++)
    {
      if ((mask != NULL && !mask[r]) || rank_count[r] <= 0)
        continue;
      totals[n_ranks] = rank_sum[r];
      ranks[n_ranks++] = r;
      count += (uint64_t) rank_count[r];
      if (!(rank_min[r] >= out->min))
        out->min = rank_min[r];
      if (!(rank_max[r] <= out->max))
        out->max = rank_max[r];
    }
  out->count = (size_t) count;
  out->sum = _tprof_values_sum (totals, n_ranks);
  if (count > 0)
    out->mean = out->sum / (double) count;
  _tprof_summary_set_balance (out, totals, ranks, n_ranks);
  free (totals);
  free (ranks);
  return true;
}
