/* tprof-save-parallel-stats.c — the statistics a parallel save caches, from sums, squared deviations and counts that each rank computes over its own samples. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-save-parallel-private.h"

/* Samples a rank sorts at once for the quantile search (8 bytes each, and
 * scratch for its largest operation): operations are searched in batches
 * that keep every rank under it, unless one operation alone is larger. */
#define SAVE_SORT_BUDGET ((size_t) 1 << 21)

static size_t save_sort_budget = SAVE_SORT_BUDGET;

void
_tprof_save_parallel_set_sort_budget (size_t samples)
{
  save_sort_budget = samples > 0 ? samples : SAVE_SORT_BUDGET;
}

/* The local name @i's samples, run by run. */
#define FOR_EACH_RUN(s, i, run) \
  for (const TprofGatherRun *run = &(s)->local.runs[(s)->local.run_base[i]]; \
       run < &(s)->local.runs[(s)->local.run_base[(i) + 1]]; run++)

/* This rank's sums, then rank 0's summary of each operation's count,
 * sum, extremes, mean and per-rank arrays. */
static int
stats_sums (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  size_t mine = s->local.n_names;
  size_t n = g->rank == 0 ? g->name_base[g->size] : 0;
  TprofPartSums *sums = malloc ((mine > 0 ? mine : 1) * sizeof *sums);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int *counts = NULL, *displs = NULL;
  int rc;

  for (size_t i = 0; sums != NULL && i < mine; i++)
    {
      _tprof_part_sums_init (&sums[i]);
      FOR_EACH_RUN (s, i, run)
        _tprof_part_sums_add (&sums[i], run->samples, run->n);
      /* recording refuses such samples; checked again as the serial save does */
      if (err->code == TPROF_ERROR_NONE && (!isfinite (sums[i].sum) || sums[i].min < 0))
        tprof_error_set (err, TPROF_ERROR_INVALID, TPROF_SAVE_PARALLEL ": %s: cannot save: operation '%s' "
                         "has a sample that is not a finite duration >= 0 on rank %d",
                         s->path, s->local.names[i], g->rank);
    }
  if (sums == NULL)
    _tprof_gather_set_no_memory (err, "summing this rank's samples");
  if (g->rank == 0)
    {
      s->name_sums = malloc ((n > 0 ? n : 1) * sizeof *s->name_sums);
      counts = malloc ((size_t) g->size * sizeof *counts);
      displs = malloc ((size_t) g->size * sizeof *displs);
      if (s->name_sums == NULL || counts == NULL || displs == NULL)
        _tprof_gather_set_no_memory (err, "receiving the sums");
      for (int r = 0; counts != NULL && displs != NULL && r < g->size; r++)
        {
          /* fits: fewer than INT_MAX / 2 names, checked when placing them */
          counts[r] = (int) (g->name_base[r + 1] - g->name_base[r]);
          displs[r] = (int) g->name_base[r];
        }
    }
  if (_tprof_gather_agree (g, "agreeing to gather the sums", err) < 0)
    goto out;
  rc = MPI_Type_contiguous ((int) sizeof (TprofPartSums), MPI_BYTE, &type);
  if (rc == MPI_SUCCESS)
    rc = MPI_Type_commit (&type);
  if (rc == MPI_SUCCESS)
    rc = MPI_Gatherv (sums, (int) mine, type, s->name_sums, counts, displs, type, 0, g->comm);
  if (rc != MPI_SUCCESS)
    _tprof_gather_set_mpi_error (err, rc, "MPI_Gatherv", "gathering the sums");
  _tprof_gather_agree (g, "gathering the sums", err);
out:
  if (type != MPI_DATATYPE_NULL)
    MPI_Type_free (&type);
  free (sums);
  free (counts);
  free (displs);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* Whether some rank sampled operation @op (recorded more than it stored). */
static bool
stats_op_sampled (const TprofSaveParallel *s, size_t op)
{
  for (size_t j = s->op_name_base[op]; j < s->op_name_base[op + 1]; j++)
    if (s->g.name_recorded[s->op_names[j]].recorded != 0)
      return true;
  return false;
}

/* Rank 0, a sampled operation: what each rank recorded replaces what it
 * stored in the per-rank arrays, and the summary's count, sum, mean,
 * min and max cover everything recorded, as the serial save has them
 * (docs/file-format.md); std and quantiles stay those of the stored samples. */
static int
stats_apply_recorded (TprofSaveParallel *s, size_t op, TprofError *err)
{
  TprofGather *g = &s->g;
  TprofCachedStats *c = &s->caches[op];
  TprofPartSums all;

  c->rank_recorded = malloc ((size_t) g->size * sizeof *c->rank_recorded);
  if (c->rank_recorded == NULL)
    return _tprof_gather_set_no_memory (err, "summarizing the operations");
  memcpy (c->rank_recorded, c->rank_count, (size_t) g->size * sizeof *c->rank_recorded);
  _tprof_part_sums_init (&all);
  for (int r = 0; r < g->size; r++)
    {
      for (size_t k = g->name_base[r]; k < g->name_base[r + 1]; k++)
        {
          const TprofRankRecorded *rec = &g->name_recorded[k];

          if (g->name_op[k] != op || rec->recorded == 0)
            continue;
          c->rank_recorded[r] = (int64_t) rec->recorded;
          c->rank_sum[r] = rec->sum;
          c->rank_min[r] = rec->min;
          c->rank_max[r] = rec->max;
        }
      if (c->rank_recorded[r] > 0)
        _tprof_part_sums_merge (&all, &(TprofPartSums) { (uint64_t) c->rank_recorded[r], c->rank_sum[r],
                                                         c->rank_min[r], c->rank_max[r] });
    }
  c->summary.count = all.count;
  c->summary.sum = all.sum;
  c->summary.mean = all.count > 0 ? all.sum / (double) all.count : NAN;
  c->summary.min = all.min;
  c->summary.max = all.max;
  return 0;
}

/* Rank 0: the caches' counts, sums and extremes, per rank and in all;
 * each operation's stored samples' figures, for the std and quantiles. */
static int
stats_fill_caches (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  size_t ws = (size_t) g->size;

  s->caches = calloc (s->n_ops > 0 ? s->n_ops : 1, sizeof *s->caches);
  s->stored = calloc (s->n_ops > 0 ? s->n_ops : 1, sizeof *s->stored);
  s->means = malloc ((s->n_ops > 0 ? s->n_ops : 1) * sizeof *s->means);
  if (s->caches == NULL || s->stored == NULL || s->means == NULL)
    return _tprof_gather_set_no_memory (err, "summarizing the operations");
  for (size_t op = 0; op < s->n_ops; op++)
    {
      TprofCachedStats *c = &s->caches[op];
      TprofPartSums *all = &s->stored[op];

      c->rank_count = calloc (ws, sizeof *c->rank_count);
      c->rank_sum = calloc (ws, sizeof *c->rank_sum);
      c->rank_min = malloc (ws * sizeof *c->rank_min);
      c->rank_max = malloc (ws * sizeof *c->rank_max);
      if (c->rank_count == NULL || c->rank_sum == NULL || c->rank_min == NULL || c->rank_max == NULL)
        return _tprof_gather_set_no_memory (err, "summarizing the operations");
      for (size_t r = 0; r < ws; r++)
        c->rank_min[r] = c->rank_max[r] = NAN;
      _tprof_part_sums_init (all);
      /* in rank order, as the gathered samples lie */
      for (size_t j = s->op_name_base[op]; j < s->op_name_base[op + 1]; j++)
        _tprof_part_sums_merge (all, &s->name_sums[s->op_names[j]]);
      c->summary = (TprofSummary) {
        .count = all->count, .sum = all->sum, .mean = all->count > 0 ? all->sum / (double) all->count : NAN,
        .std = NAN, .min = all->min, .max = all->max, .median = NAN, .p95 = NAN, .p99 = NAN,
        .imbalance = NAN, .slowest_rank = -1, .imbalance_time = NAN,
      };
      s->means[op] = c->summary.mean;
    }
  /* per rank: the name tables are in rank order */
  for (int r = 0; r < g->size; r++)
    for (size_t k = g->name_base[r]; k < g->name_base[r + 1]; k++)
      {
        TprofCachedStats *c = &s->caches[g->name_op[k]];

        c->rank_count[r] = (int64_t) s->name_sums[k].count;
        c->rank_sum[r] = s->name_sums[k].sum;
        c->rank_min[r] = s->name_sums[k].min;
        c->rank_max[r] = s->name_sums[k].max;
      }
  for (size_t op = 0; op < s->n_ops; op++)
    if (stats_op_sampled (s, op) && stats_apply_recorded (s, op, err) < 0)
      return -1;
  return 0;
}

/* The std: rank 0 shares the means, every rank sums its squared
 * deviations from them, and the sums meet on rank 0. */
static int
stats_std (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  size_t n_ops = s->n_ops > 0 ? s->n_ops : 1;
  double *ss = calloc (n_ops, sizeof *ss);
  double *total = g->rank == 0 ? calloc (n_ops, sizeof *total) : NULL;
  int rc;

  if (g->rank != 0)
    s->means = malloc (n_ops * sizeof *s->means);
  if (ss == NULL || s->means == NULL || (g->rank == 0 && total == NULL))
    _tprof_gather_set_no_memory (err, "computing the std");
  else if (s->n_ops > INT_MAX)
    tprof_error_set (err, TPROF_ERROR_TOO_LARGE, TPROF_SAVE_PARALLEL ": too many operations");
  if (_tprof_gather_agree (g, "agreeing to compute the std", err) < 0)
    goto out;
  rc = MPI_Bcast (s->means, (int) s->n_ops, MPI_DOUBLE, 0, g->comm);
  if (rc == MPI_SUCCESS)
    for (size_t i = 0; i < s->local.n_names; i++)
      {
        size_t op = (size_t) s->place[2 * i];

        FOR_EACH_RUN (s, i, run)
          ss[op] += _tprof_part_squared_deviations (run->samples, run->n, s->means[op]);
      }
  if (rc == MPI_SUCCESS)
    rc = MPI_Reduce (ss, total, (int) s->n_ops, MPI_DOUBLE, MPI_SUM, 0, g->comm);
  if (rc != MPI_SUCCESS)
    _tprof_gather_set_mpi_error (err, rc, "MPI_Bcast/MPI_Reduce", "computing the std");
  for (size_t op = 0; g->rank == 0 && rc == MPI_SUCCESS && op < s->n_ops; op++)
    s->caches[op].summary.std = _tprof_std_of_squared_deviations (total[op], s->stored[op].count);
  _tprof_gather_agree (g, "computing the std", err);
out:
  free (ss);
  free (total);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* Rank 0: batches of operations [bounds[b], bounds[b + 1]) that no rank
 * holds more than SAVE_SORT_BUDGET samples of (or one operation). */
static size_t
stats_plan_batches (TprofSaveParallel *s, uint64_t *bounds, uint64_t *load)
{
  TprofGather *g = &s->g;
  size_t n_batches = 0;
  size_t first = 0;

  memset (load, 0, (size_t) g->size * sizeof *load);
  bounds[0] = 0;
  for (size_t op = 0; op < s->n_ops; op++)
    {
      bool full = false;

      for (size_t j = s->op_name_base[op]; j < s->op_name_base[op + 1]; j++)
        {
          size_t k = s->op_names[j];
          /* the rank of entry k: name_base is ascending */
          size_t lo = 0, hi = (size_t) g->size;

          while (hi - lo > 1)
            {
              size_t mid = (lo + hi) / 2;

              if (g->name_base[mid] <= k)
                lo = mid;
              else
                hi = mid;
            }
          load[lo] += g->name_count[k];
          full = full || load[lo] > save_sort_budget;
        }
      if (full && op > first)
        {
          /* this operation starts the next batch */
          bounds[++n_batches] = op;
          first = op;
          memset (load, 0, (size_t) g->size * sizeof *load);
          op--;
        }
    }
  if (s->n_ops > first || n_batches == 0)
    bounds[++n_batches] = s->n_ops;
  return n_batches;
}

/* This rank's sorted copies of its names in operations [first, end). */
typedef struct
{
  double  *values;
  size_t  *at;       /* per local name: where its sorted copy starts, or SIZE_MAX */
} SortedBatch;

static int
stats_sort_batch (TprofSaveParallel *s, size_t first, size_t end, SortedBatch *b, TprofError *err)
{
  size_t total = 0, largest = 0;
  double *scratch;

  b->values = NULL;
  b->at = malloc ((s->local.n_names > 0 ? s->local.n_names : 1) * sizeof *b->at);
  if (b->at == NULL)
    return _tprof_gather_set_no_memory (err, "sorting this rank's samples");
  for (size_t i = 0; i < s->local.n_names; i++)
    {
      size_t op = (size_t) s->place[2 * i], n = 0;

      b->at[i] = SIZE_MAX;
      if (op < first || op >= end)
        continue;
      FOR_EACH_RUN (s, i, run)
        n += run->n;
      b->at[i] = total;
      total += n;
      largest = n > largest ? n : largest;
    }
  b->values = malloc ((total > 0 ? total : 1) * sizeof *b->values);
  scratch = malloc ((largest > 0 ? largest : 1) * sizeof *scratch);
  if (b->values == NULL || scratch == NULL)
    {
      free (scratch);
      return _tprof_gather_set_no_memory (err, "sorting this rank's samples");
    }
  for (size_t i = 0; i < s->local.n_names; i++)
    {
      size_t n = 0;

      if (b->at[i] == SIZE_MAX)
        continue;
      FOR_EACH_RUN (s, i, run)
        {
          memcpy (b->values + b->at[i] + n, run->samples, run->n * sizeof (double));
          n += run->n;
        }
      _tprof_part_sort (b->values + b->at[i], n, scratch);
    }
  free (scratch);
  return 0;
}

/* The rounds of the counting search over one batch: rank 0 broadcasts
 * the probes (and whether any is left), every rank counts, rank 0 sums
 * the counts and narrows. */
static int
stats_search_batch (TprofSaveParallel *s, TprofOrderSearch *searches, size_t first, size_t end,
                    TprofError *err)
{
  TprofGather *g = &s->g;
  size_t width = (end - first) * TPROF_ORDER_SEARCH_MAX;
  double *probes = malloc ((width + 1) * sizeof *probes);
  uint64_t *counts = malloc ((width > 0 ? width : 1) * sizeof *counts);
  uint64_t *total = g->rank == 0 ? malloc ((width > 0 ? width : 1) * sizeof *total) : NULL;
  SortedBatch b = { NULL, NULL };
  int rc = MPI_SUCCESS;

  if (probes == NULL || counts == NULL || (g->rank == 0 && total == NULL))
    _tprof_gather_set_no_memory (err, "finding the quantiles");
  else if (width + 1 > INT_MAX)
    tprof_error_set (err, TPROF_ERROR_TOO_LARGE, TPROF_SAVE_PARALLEL ": too many operations");
  else
    stats_sort_batch (s, first, end, &b, err);
  if (_tprof_gather_agree (g, "agreeing to find the quantiles", err) < 0)
    goto out;
  /* at most 64 halvings of a 64-bit bracket, and the round that ends */
  for (int round = 0; round <= 65 && rc == MPI_SUCCESS; round++)
    {
      if (g->rank == 0)
        {
          bool open = false;

          for (size_t op = first; op < end; op++)
            open = _tprof_order_search_probes (&searches[op], probes + 1 + (op - first) * TPROF_ORDER_SEARCH_MAX)
                   || open;
          probes[0] = open && round <= 64 ? 1.0 : 0.0;
        }
      rc = MPI_Bcast (probes, (int) width + 1, MPI_DOUBLE, 0, g->comm);
      if (rc != MPI_SUCCESS || probes[0] == 0.0)
        break;
      memset (counts, 0, width * sizeof *counts);
      for (size_t i = 0; i < s->local.n_names; i++)
        {
          size_t op = (size_t) s->place[2 * i];
          size_t n = 0;

          if (b.at[i] == SIZE_MAX)
            continue;
          FOR_EACH_RUN (s, i, run)
            n += run->n;
          for (size_t t = 0; t < TPROF_ORDER_SEARCH_MAX; t++)
            {
              size_t slot = (op - first) * TPROF_ORDER_SEARCH_MAX + t;

              counts[slot] = _tprof_sorted_count_at_or_below (b.values + b.at[i], n, probes[1 + slot]);
            }
        }
      rc = MPI_Reduce (counts, total, (int) width, MPI_UINT64_T, MPI_SUM, 0, g->comm);
      for (size_t op = first; g->rank == 0 && rc == MPI_SUCCESS && op < end; op++)
        _tprof_order_search_narrow (&searches[op], total + (op - first) * TPROF_ORDER_SEARCH_MAX);
    }
  if (rc != MPI_SUCCESS)
    _tprof_gather_set_mpi_error (err, rc, "MPI_Bcast/MPI_Reduce", "finding the quantiles");
  _tprof_gather_agree (g, "finding the quantiles", err);
out:
  free (b.values);
  free (b.at);
  free (probes);
  free (counts);
  free (total);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* The median, p95 and p99 of every operation, exact, batch by batch. */
static int
stats_quantiles (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  uint64_t *bounds = malloc ((s->n_ops + 2) * sizeof *bounds);
  uint64_t *load = g->rank == 0 ? malloc ((size_t) g->size * sizeof *load) : NULL;
  TprofOrderSearch *searches = g->rank == 0 ? calloc (s->n_ops + 1, sizeof *searches) : NULL;
  uint64_t n_batches = 0;
  int rc;

  if (bounds == NULL || (g->rank == 0 && (load == NULL || searches == NULL)))
    _tprof_gather_set_no_memory (err, "finding the quantiles");
  else if (g->rank == 0)
    {
      n_batches = stats_plan_batches (s, bounds, load);
      for (size_t op = 0; op < s->n_ops; op++)
        _tprof_order_search_init (&searches[op], s->stored[op].count, s->stored[op].min, s->stored[op].max);
    }
  if (_tprof_gather_agree (g, "agreeing to find the quantiles", err) < 0)
    goto out;
  rc = MPI_Bcast (&n_batches, 1, MPI_UINT64_T, 0, g->comm);
  if (rc == MPI_SUCCESS)
    rc = MPI_Bcast (bounds, (int) n_batches + 1, MPI_UINT64_T, 0, g->comm);
  if (rc != MPI_SUCCESS)
    {
      _tprof_gather_set_mpi_error (err, rc, "MPI_Bcast", "planning the quantiles");
      goto out;
    }
  for (uint64_t b = 0; b < n_batches; b++)
    if (stats_search_batch (s, searches, (size_t) bounds[b], (size_t) bounds[b + 1], err) < 0)
      goto out;
  for (size_t op = 0; g->rank == 0 && op < s->n_ops; op++)
    {
      double q[TPROF_SUMMARY_N_QUANTILES];

      _tprof_order_search_quantiles (&searches[op], q);
      s->caches[op].summary.median = q[0];
      s->caches[op].summary.p95 = q[1];
      s->caches[op].summary.p99 = q[2];
    }
out:
  free (bounds);
  free (load);
  free (searches);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

int
_tprof_save_parallel_statistics (TprofSaveParallel *s, TprofError *err)
{
  if (stats_sums (s, err) < 0)
    return -1;
  if (s->g.rank == 0)
    stats_fill_caches (s, err);
  if (_tprof_gather_agree (&s->g, "summarizing the operations", err) < 0
      || stats_std (s, err) < 0
      || stats_quantiles (s, err) < 0)
    return -1;
  return 0;
}

void
_tprof_save_parallel_statistics_clear (TprofSaveParallel *s)
{
  for (size_t op = 0; s->caches != NULL && op < s->n_ops; op++)
    _tprof_cached_stats_clear (&s->caches[op]);
  free (s->caches);
  free (s->stored);
  free (s->means);
  free (s->name_sums);
  s->caches = NULL;
  s->stored = NULL;
  s->means = NULL;
  s->name_sums = NULL;
}
