/* tprof-gather-samples.c — a receiver's arrays of gathered samples and ranks, handed over to a new profile. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-gather-mpi-private.h"
#include "tprof-profiled-time-internal.h"

/* Stamps @rank over @n entries: a short run written once, then copied by
 * blocks that stay in the L1 cache. */
static void
gather_fill_rank (int32_t *out, int32_t rank, size_t n)
{
  enum { STAMP = 2048 };
  size_t done;

  if (rank == 0)
    {
      memset (out, 0, n * sizeof *out);
      return;
    }
  for (done = 0; done < n && done < STAMP; done++)
    out[done] = rank;
  while (done < n)
    {
      size_t take = n - done < STAMP ? n - done : STAMP;

      memcpy (out + done, out, take * sizeof *out);
      done += take;
    }
}

int
_tprof_gather_alloc_samples (TprofGather *g, TprofError *error)
{
  g->op_times = calloc (g->n_ops > 0 ? g->n_ops : 1, sizeof *g->op_times);
  g->op_ranks = calloc (g->n_ops > 0 ? g->n_ops : 1, sizeof *g->op_ranks);
  if (g->op_times == NULL || g->op_ranks == NULL)
    return _tprof_gather_set_no_memory (error, "receiving the samples");
  for (size_t op = 0; op < g->n_ops; op++)
    {
      if (g->op_counts[op] == 0)
        continue;
      g->op_times[op] = _tprof_gather_malloc (TPROF_GATHER_STAGE_SAMPLES, g->op_counts[op] * sizeof (double));
      g->op_ranks[op] = _tprof_gather_malloc (TPROF_GATHER_STAGE_SAMPLES, g->op_counts[op] * sizeof (int32_t));
      if (g->op_times[op] == NULL || g->op_ranks[op] == NULL)
        return _tprof_gather_set_no_memory (error, "receiving the samples");
    }
  if (g->timeline.all)
    {
      g->timeline.op_starts = calloc (g->n_ops > 0 ? g->n_ops : 1, sizeof *g->timeline.op_starts);
      g->timeline.op_threads = calloc (g->n_ops > 0 ? g->n_ops : 1, sizeof *g->timeline.op_threads);
      if (g->timeline.op_starts == NULL || g->timeline.op_threads == NULL)
        return _tprof_gather_set_no_memory (error, "receiving the timeline");
      for (size_t op = 0; op < g->n_ops; op++)
        {
          if (g->op_counts[op] == 0)
            continue;
          g->timeline.op_starts[op] = _tprof_gather_malloc (TPROF_GATHER_STAGE_SAMPLES,
                                                            g->op_counts[op] * sizeof (double));
          g->timeline.op_threads[op] = _tprof_gather_malloc (TPROF_GATHER_STAGE_SAMPLES,
                                                             g->op_counts[op] * sizeof (int32_t));
          if (g->timeline.op_starts[op] == NULL || g->timeline.op_threads[op] == NULL)
            return _tprof_gather_set_no_memory (error, "receiving the timeline");
        }
    }
  /* the ranks are known before any sample arrives */
  for (int r = 0; r < g->size; r++)
    for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
      if (g->name_count[i] > 0)
        gather_fill_rank (g->op_ranks[g->name_op[i]] + g->name_offset[i], r, g->name_count[i]);
  return 0;
}

/* The names are distinct and the ranks in range by construction, so the
 * profile takes the arrays without checking them sample by sample. */
/* Sampled capture: attaches to operation @op's selection @gt what each
 * rank recorded of it: the figures a sampled rank sent, and those of
 * its samples for the others. */
static bool
gather_attach_recorded (TprofGather *g, size_t op, TprofGatheredTime *gt)
{
  TprofRankSummary *stored = NULL;
  size_t n_stored = tprof_gathered_time_rank_summaries (gt, &stored), n = 0;
  TprofRankRecorded *rec;
  bool sampled = false, ok;

  for (size_t i = 0; i < g->name_base[g->size] && !sampled; i++)
    sampled = g->name_op[i] == op && g->name_recorded[i].recorded != 0;
  if (!sampled || n_stored == (size_t) -1)
    {
      free (stored);
      return n_stored != (size_t) -1;
    }
  rec = malloc (((size_t) g->size) * sizeof *rec);
  if (rec == NULL)
    {
      free (stored);
      return false;
    }
  /* a rank's entry of this operation, if any: its names are distinct */
  for (int r = 0, j = 0; r < g->size; r++)
    {
      const TprofRankRecorded *sent = NULL;

      for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
        if (g->name_op[i] == op && g->name_recorded[i].recorded != 0)
          sent = &g->name_recorded[i];
      while ((size_t) j < n_stored && stored[j].rank < r)
        j++;
      if (sent != NULL)
        rec[n++] = *sent;
      else if ((size_t) j < n_stored && stored[j].rank == r)
        rec[n++] = (TprofRankRecorded) { r, stored[j].count, stored[j].sum, stored[j].min, stored[j].max };
    }
  ok = tprof_gathered_time_set_recorded (gt, rec, n);
  free (rec);
  free (stored);
  return ok;
}

TprofProfiledTime *
_tprof_gather_build_profile (TprofGather *g, TprofError *error)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (g->size);

  if (pt == NULL)
    {
      _tprof_gather_set_no_memory (error, "building the profile");
      return NULL;
    }
  for (size_t op = 0; op < g->n_ops; op++)
    {
      TprofGatheredTime *gt = tprof_gathered_time_new_take (g->op_times[op], g->op_ranks[op],
                                                            g->op_counts[op]);

      g->op_times[op] = NULL;
      g->op_ranks[op] = NULL;
      if (gt == NULL || !_tprof_profiled_time_append (pt, g->op_names[op], gt))
        {
          _tprof_gather_set_no_memory (error, "building the profile");
          goto fail;
        }
    }
  if (tprof_profiled_time_set_hostnames (pt, g->hostnames, error) < 0
      || _tprof_gather_timeline_finish (g, pt, error) < 0)
    goto fail;
  for (size_t op = 0; op < g->n_ops; op++)
    if (!gather_attach_recorded (g, op, (TprofGatheredTime *) tprof_profiled_time_nth (pt, op)))
      {
        _tprof_gather_set_no_memory (error, "building the profile");
        goto fail;
      }
  return pt;

fail:
  tprof_profiled_time_free (pt);
  return NULL;
}
