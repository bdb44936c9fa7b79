/* tprof-profile-index.c — building a profile index and answering rank-filtered statistics from it. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tprof-profile-index-private.h"

static void
op_index_clear (TprofOpIndex *op)
{
  g_free (op->name);
  g_free (op->sorted);
  g_free (op->ranks);
  g_free (op->offsets);
  g_free (op->rank_summaries);
  g_free (op->rank_m2);
}

void
_tprof_profile_index_free (TprofProfileIndex *index)
{
  if (index == NULL)
    return;

  for (gsize i = 0; i < index->n_ops; i++)
    op_index_clear (&index->ops[i]);
  g_free (index->ops);
  g_strfreev (index->hostnames);
  g_free (index);
}

static void
rank_summary_compute (const double     *values,
                      gsize             n,
                      gint32            rank,
                      TprofRankSummary *out,
                      double           *m2_out)
{
  double sum = 0.0;
  double m2 = 0.0;
  double mean;

  for (gsize i = 0; i < n; i++)
    sum += values[i];
  mean = sum / (double) n;
  for (gsize i = 0; i < n; i++)
    m2 += (values[i] - mean) * (values[i] - mean);

  out->rank = rank;
  out->count = n;
  out->sum = sum;
  out->mean = mean;
  out->std = n > 1 ? sqrt (m2 / (double) (n - 1)) : NAN;
  out->min = values[0];
  out->max = values[n - 1];
  *m2_out = m2;
}

/* Groups @gt's samples by rank with a counting sort, then sorts each rank's run. */
static void
op_index_build (TprofOpIndex            *op,
                const char              *name,
                const TprofGatheredTime *gt,
                int                      world_size,
                gsize                   *per_rank)
{
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  gsize n = tprof_gathered_time_count (gt);
  g_autofree gsize *cursor = NULL;
  g_autofree double *scratch = NULL;
  gsize longest = 0;
  gsize at = 0;

  op->name = g_strdup (name);
  op->n_samples = n;

  memset (per_rank, 0, sizeof *per_rank * world_size);
  for (gsize i = 0; i < n; i++)
    per_rank[ranks[i]]++;

  for (int r = 0; r < world_size; r++)
    if (per_rank[r] > 0)
      op->n_ranks++;

  op->ranks = g_new (gint32, op->n_ranks);
  op->offsets = g_new (gsize, op->n_ranks + 1);
  op->rank_summaries = g_new0 (TprofRankSummary, op->n_ranks);
  op->rank_m2 = g_new0 (double, op->n_ranks);
  op->sorted = g_new (double, MAX (n, 1));
  cursor = g_new (gsize, world_size);

  for (int r = 0, k = 0; r < world_size; r++)
    {
      cursor[r] = at;
      if (per_rank[r] == 0)
        continue;
      op->ranks[k] = r;
      op->offsets[k] = at;
      at += per_rank[r];
      longest = MAX (longest, per_rank[r]);
      k++;
    }
  op->offsets[op->n_ranks] = at;

  /* + 0.0 turns -0.0 into +0.0, which the bitwise sort and selection need */
  for (gsize i = 0; i < n; i++)
    op->sorted[cursor[ranks[i]]++] = times[i] + 0.0;

  scratch = g_new (double, MAX (longest, 1));
  for (gsize k = 0; k < op->n_ranks; k++)
    {
      double *run = op->sorted + op->offsets[k];
      gsize len = op->offsets[k + 1] - op->offsets[k];

      _tprof_sort_nonnegative (run, len, scratch);
      rank_summary_compute (run, len, op->ranks[k], &op->rank_summaries[k], &op->rank_m2[k]);
    }
}

TprofProfileIndex *
_tprof_profile_index_new (const TprofProfiledTime *pt,
                          TprofIndexProgress       progress,
                          gpointer                 user_data,
                          const gint              *cancel)
{
  g_autoptr(TprofProfileIndex) index = g_new0 (TprofProfileIndex, 1);
  g_autofree gsize *per_rank = NULL;
  gsize total = 0;
  gsize done = 0;

  g_return_val_if_fail (pt != NULL, NULL);

  index->world_size = tprof_profiled_time_world_size (pt);
  index->n_ops = tprof_profiled_time_len (pt);
  index->ops = g_new0 (TprofOpIndex, index->n_ops);
  per_rank = g_new (gsize, index->world_size);

  if (tprof_profiled_time_hostname (pt, 0) != NULL)
    {
      index->hostnames = g_new0 (char *, index->world_size + 1);
      for (int r = 0; r < index->world_size; r++)
        index->hostnames[r] = g_strdup (tprof_profiled_time_hostname (pt, r));
    }

  for (gsize i = 0; i < index->n_ops; i++)
    total += tprof_gathered_time_count (tprof_profiled_time_nth (pt, i)) + 1;

  for (gsize i = 0; i < index->n_ops; i++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, i);

      if (cancel != NULL && g_atomic_int_get (cancel))
        return NULL;

      op_index_build (&index->ops[i], tprof_profiled_time_name (pt, i), gt,
                      index->world_size, per_rank);
      _tprof_profile_index_summarize (index, i, NULL, &index->ops[i].summary);

      done += tprof_gathered_time_count (gt) + 1;
      if (progress != NULL)
        progress ((double) done / (double) total, user_data);
    }

  return g_steal_pointer (&index);
}

int
_tprof_profile_index_get_world_size (const TprofProfileIndex *index)
{
  return index->world_size;
}

gsize
_tprof_profile_index_get_n_operations (const TprofProfileIndex *index)
{
  return index->n_ops;
}

const char *
_tprof_profile_index_get_name (const TprofProfileIndex *index,
                               gsize                    op)
{
  g_return_val_if_fail (op < index->n_ops, NULL);
  return index->ops[op].name;
}

const char *
_tprof_profile_index_get_hostname (const TprofProfileIndex *index,
                                   int                      rank)
{
  if (index->hostnames == NULL || rank < 0 || rank >= index->world_size)
    return NULL;
  return index->hostnames[rank];
}

gsize
_tprof_profile_index_get_n_samples (const TprofProfileIndex *index,
                                    gsize                    op)
{
  g_return_val_if_fail (op < index->n_ops, 0);
  return index->ops[op].n_samples;
}

const TprofSummary *
_tprof_profile_index_get_summary (const TprofProfileIndex *index,
                                  gsize                    op)
{
  g_return_val_if_fail (op < index->n_ops, NULL);
  return &index->ops[op].summary;
}

gsize
_tprof_op_index_select_runs (const TprofOpIndex *op,
                             const guint8       *mask,
                             TprofRun          **runs)
{
  TprofRun *out = g_new0 (TprofRun, MAX (op->n_ranks, 1));
  gsize n = 0;

  for (gsize k = 0; k < op->n_ranks; k++)
    {
      if (mask != NULL && !mask[op->ranks[k]])
        continue;
      out[n].values = op->sorted + op->offsets[k];
      out[n].len = op->offsets[k + 1] - op->offsets[k];
      out[n].rank_index = k;
      n++;
    }

  *runs = out;
  return n;
}

void
_tprof_profile_index_quantiles (const TprofProfileIndex *index,
                                gsize                    op,
                                const guint8            *mask,
                                const double            *qs,
                                gsize                    n_qs,
                                double                  *out)
{
  g_autofree TprofRun *runs = NULL;
  gsize n_runs;
  gsize total = 0;

  g_return_if_fail (op < index->n_ops);

  n_runs = _tprof_op_index_select_runs (&index->ops[op], mask, &runs);
  for (gsize r = 0; r < n_runs; r++)
    total += runs[r].len;

  for (gsize i = 0; i < n_qs; i++)
    out[i] = _tprof_runs_quantile (runs, n_runs, total, qs[i], NULL);
}

void
_tprof_profile_index_summarize_moments (const TprofProfileIndex *index,
                                        gsize                    op_i,
                                        const guint8            *mask,
                                        TprofSummary            *out)
{
  const TprofOpIndex *op;
  double mean = 0.0;
  double m2 = 0.0;
  double max_total = -1.0;

  g_return_if_fail (op_i < index->n_ops);
  op = &index->ops[op_i];

  memset (out, 0, sizeof *out);
  out->min = INFINITY;
  out->max = -INFINITY;
  out->slowest_rank = -1;

  /* Chan et al.'s pairwise update keeps the variance stable when merging ranks */
  for (gsize k = 0; k < op->n_ranks; k++)
    {
      const TprofRankSummary *rs = &op->rank_summaries[k];
      double n_a = (double) out->count;
      double n_b = (double) rs->count;
      double delta;

      if (mask != NULL && !mask[rs->rank])
        continue;

      delta = rs->mean - mean;
      mean += delta * n_b / (n_a + n_b);
      m2 += op->rank_m2[k] + delta * delta * n_a * n_b / (n_a + n_b);

      out->count += rs->count;
      out->rank_count++;
      out->sum += rs->sum;
      out->min = MIN (out->min, rs->min);
      out->max = MAX (out->max, rs->max);
      if (rs->sum > max_total)
        {
          max_total = rs->sum;
          out->slowest_rank = rs->rank;
        }
    }

  if (out->count == 0)
    {
      out->mean = out->std = out->min = out->max = NAN;
      out->median = out->p95 = out->p99 = out->imbalance = NAN;
      return;
    }

  out->mean = out->sum / (double) out->count;
  out->std = out->count > 1 ? sqrt (m2 / (double) (out->count - 1)) : NAN;
  out->imbalance = max_total / (out->sum / (double) out->rank_count);
  out->median = out->p95 = out->p99 = NAN;
}

void
_tprof_profile_index_summarize (const TprofProfileIndex *index,
                                gsize                    op,
                                const guint8            *mask,
                                TprofSummary            *out)
{
  static const double qs[] = { 0.5, 0.95, 0.99 };
  double quantiles[G_N_ELEMENTS (qs)];

  _tprof_profile_index_summarize_moments (index, op, mask, out);
  if (out->count == 0)
    return;

  _tprof_profile_index_quantiles (index, op, mask, qs, G_N_ELEMENTS (qs), quantiles);
  out->median = quantiles[0];
  out->p95 = quantiles[1];
  out->p99 = quantiles[2];
}

gsize
_tprof_profile_index_rank_summaries (const TprofProfileIndex *index,
                                     gsize                    op_i,
                                     const guint8            *mask,
                                     TprofRankSummary       **out)
{
  const TprofOpIndex *op;
  TprofRankSummary *summaries;
  gsize n = 0;

  g_return_val_if_fail (op_i < index->n_ops, 0);
  op = &index->ops[op_i];

  summaries = g_new (TprofRankSummary, MAX (op->n_ranks, 1));
  for (gsize k = 0; k < op->n_ranks; k++)
    if (mask == NULL || mask[op->ranks[k]])
      summaries[n++] = op->rank_summaries[k];

  *out = summaries;
  return n;
}
