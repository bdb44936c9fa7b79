/* tprof-columns-check.c — a block of format 3's operations checked against their cached statistics at once: one pass of the statistics engine, over a few small arrays used again and again. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "tprof-h5-reader-private.h"

/* Operations and runs one round checks at most: small arrays that stay
 * in the cache and in memory already touched (a block's worth of them
 * would be freshly faulted pages at every read). An operation with more
 * runs grows them. */
#define CHECK_OPS  128
#define CHECK_RUNS 512

/* A round's rows cut into runs, one per rank with stored samples, in the
 * operations' order: run i is rows [bounds[i], bounds[i + 1]) of rank
 * ranks[i]; the round's operation j owns runs [op_runs[j], op_runs[j + 1])
 * and rows [op_rows[j], op_rows[j + 1]). */
struct _TprofColumnsCheckRound
{
  size_t             cap_runs;
  uint64_t           op_rows[CHECK_OPS + 1];
  size_t             op_runs[CHECK_OPS + 1];
  TprofBatchSummary  figures[CHECK_OPS];
  uint64_t          *bounds;     /* cap_runs + 1 */
  int32_t           *ranks;      /* cap_runs each */
  TprofPartSums     *parts;
  bool               mismatch;   /* counts that do not tile the rows */
};
typedef TprofColumnsCheckRound CheckRound;

static void
check_round_clear (CheckRound *c)
{
  free (c->bounds);
  free (c->ranks);
  free (c->parts);
}

/* Room for @runs runs; false when memory is exhausted. */
static bool
check_round_reserve (CheckRound *c,
                     size_t      runs)
{
  uint64_t *bounds;
  int32_t *ranks;
  TprofPartSums *parts;

  if (runs <= c->cap_runs)
    return true;
  if ((bounds = realloc (c->bounds, (runs + 1) * sizeof *bounds)) != NULL)
    c->bounds = bounds;
  if ((ranks = realloc (c->ranks, runs * sizeof *ranks)) != NULL)
    c->ranks = ranks;
  if ((parts = realloc (c->parts, runs * sizeof *parts)) != NULL)
    c->parts = parts;
  if (bounds == NULL || ranks == NULL || parts == NULL)
    return false;
  c->cap_runs = runs;
  return true;
}

/* The runs operation @op may have: its segments where this process read
 * the file's, else (opened isolated) a rank each at most. */
static size_t
check_runs_bound (const TprofProfileFile *pf,
                  const TprofH5Operation *op)
{
  return pf->seg_rank != NULL ? (size_t) (op->seg_end - op->seg_first) : (size_t) pf->world_size;
}

/* Appends rank @r's @n rows as a run (none when @n is 0). */
static void
check_add_run (CheckRound *c,
               size_t     *run,
               int32_t     r,
               uint64_t    n)
{
  if (n == 0)
    return;
  c->ranks[*run] = r;
  c->bounds[*run + 1] = c->bounds[*run] + n;
  (*run)++;
}

/* Operation @op's runs: the file's segments, else its cache's counts,
 * which its rows follow; the open checked that they add up to its rows. */
static void
check_add_operation (const TprofProfileFile *pf,
                     const TprofH5Operation *op,
                     CheckRound             *c,
                     size_t                 *run)
{
  if (pf->seg_rank != NULL)
    for (int64_t s = op->seg_first; s < op->seg_end; s++)
      check_add_run (c, run, pf->seg_rank[s], (uint64_t) (pf->seg_offset[s + 1] - pf->seg_offset[s]));
  else if (op->cache.rank_count != NULL)
    for (int r = 0; r < pf->world_size; r++)
      check_add_run (c, run, r, op->cache.rank_count[r] > 0 ? (uint64_t) op->cache.rank_count[r] : 0);
}

size_t
_tprof_columns_check_round_size (const TprofProfileFile *pf,
                                 size_t                  first,
                                 size_t                  end)
{
  size_t first_runs = check_runs_bound (pf, &pf->ops[first]);
  size_t cap = first_runs > CHECK_RUNS ? first_runs : CHECK_RUNS;
  size_t j = 0, runs = 0;

  for (; j < CHECK_OPS && first + j < end; j++)
    {
      size_t more = check_runs_bound (pf, &pf->ops[first + j]);

      if (runs + more > cap)
        break;
      runs += more;
    }
  return j;
}

/* Lays out the round of @n operations from @first on (as
 * _tprof_columns_check_round_size() counts them): false when memory is
 * exhausted. */
static bool
check_round_fill (CheckRound             *c,
                  const TprofProfileFile *pf,
                  size_t                  first,
                  size_t                  n)
{
  size_t run = 0;

  c->op_rows[0] = 0;
  if (!check_round_reserve (c, CHECK_RUNS) || !check_round_reserve (c, check_runs_bound (pf, &pf->ops[first])))
    return false;
  c->bounds[0] = 0;
  for (size_t j = 0; j < n; j++)
    {
      const TprofH5Operation *op = &pf->ops[first + j];

      c->op_runs[j] = run;
      check_add_operation (pf, op, c, &run);
      c->op_rows[j + 1] = c->op_rows[j] + op->n;
      c->mismatch = c->mismatch || c->bounds[run] != c->op_rows[j + 1];
    }
  c->op_runs[n] = run;
  return true;
}

/* Operation @op (the round's @j) against its cache: the cache itself
 * first where the open left it to this pass (a load), then each rank
 * with samples, then, unless sampled, the whole operation: one pass over
 * what the operation's cache holds. The ranks without samples were
 * checked with the cache (a count of 0 and a sum of 0, no extremes): no
 * sample of theirs can disagree. */
static int
check_operation (const TprofProfileFile *pf,
                 const TprofH5Operation *op,
                 const CheckRound       *c,
                 size_t                  j,
                 TprofError             *error)
{
  const TprofOperationCache *cache = &op->cache;
  bool per_rank = cache->rank_count != NULL || cache->rank_sum != NULL || cache->rank_min != NULL
                  || cache->rank_max != NULL;

  if (pf->defer_cache && _tprof_operation_cache_validate (pf, op, error) < 0)
    return -1;
  for (size_t i = c->op_runs[j]; per_rank && i < c->op_runs[j + 1]; i++)
    if (_tprof_operation_cache_check_rank (pf, op, c->ranks[i], &c->parts[i], error) < 0)
      return -1;
  if ((!cache->has_count && cache->floats_present == 0) || _tprof_operation_cache_sampled (pf, op))
    return 0;
  return _tprof_operation_cache_check_figures (pf, op, &c->figures[j], error);
}

/* Each run's count, sum and extremes: an operation of one run (all its
 * rows one rank's) has them in its figures already, computed by the
 * same functions over the same rows; the others' are computed. */
static void
check_round_parts (CheckRound   *c,
                   size_t        n,
                   const double *times)
{
  for (size_t j = 0; j < n; j++)
    {
      size_t i = c->op_runs[j], runs = c->op_runs[j + 1] - i;
      const TprofBatchSummary *f = &c->figures[j];

      if (runs == 1 && c->bounds[i] == c->op_rows[j] && c->bounds[i + 1] == c->op_rows[j + 1])
        c->parts[i] = (TprofPartSums) { f->count, f->sum, f->min, f->max };
      else if (runs > 0)
        _tprof_batch_part_sums (times, c->bounds + i, runs, c->parts + i);
    }
}

/* One round: operations [@first, @first + n) of rows @times on. */
static int
check_round (CheckRound             *c,
             const TprofProfileFile *pf,
             size_t                  first,
             size_t                  n,
             const double           *times,
             TprofError             *error)
{
  if (c->mismatch)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the cached sample counts of operations %zu to %zu "
                            "do not add up to their samples", pf->path, first, first + n - 1);
  if (!_tprof_batch_summarize (times, c->op_rows, n, c->figures))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory checking the cached statistics",
                            pf->path);
  check_round_parts (c, n, times);
  for (size_t j = 0; j < n; j++)
    if (check_operation (pf, &pf->ops[first + j], c, j, error) < 0)
      return -1;
  return 0;
}

TprofColumnsCheckRound *
_tprof_columns_check_round_new (void)
{
  return calloc (1, sizeof (CheckRound));
}

void
_tprof_columns_check_round_free (TprofColumnsCheckRound *c)
{
  if (c == NULL)
    return;
  check_round_clear (c);
  free (c);
}

int
_tprof_columns_check_round (TprofColumnsCheckRound *c,
                            const TprofProfileFile *pf,
                            size_t                  first,
                            size_t                  n,
                            const double           *times,
                            TprofError             *error)
{
  if (c == NULL || !check_round_fill (c, pf, first, n))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory checking the cached statistics",
                            pf->path);
  return check_round (c, pf, first, n, times, error);
}

int
_tprof_columns_check_block (const TprofProfileFile *pf,
                            size_t                  first,
                            size_t                  end,
                            const double           *times,
                            TprofError             *error)
{
  CheckRound *c = _tprof_columns_check_round_new ();
  int result = 0;

  for (size_t k = first, n; result == 0 && k < end; k += n)
    {
      n = _tprof_columns_check_round_size (pf, k, end);
      result = _tprof_columns_check_round (c, pf, k, n, times, error);
      for (size_t j = k; j < k + n; j++)
        times += pf->ops[j].n;
    }
  _tprof_columns_check_round_free (c);
  return result;
}
