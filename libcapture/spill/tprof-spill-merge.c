/* tprof-spill-merge.c — _tprof_spill_merge(): every rank's committed flushes gathered per operation, then put on one timeline as a profile. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-analysis-internal.h"
#include "tprof-profiled-time-internal.h"
#include "tprof-spill-merge-internal.h"

/* One operation's samples so far, starts on the timeline of the ranks
 * read so far (Merge.origin): its arrays grown by what each rank's load
 * announces, before its delivery. */
typedef struct
{
  double  *times;
  double  *starts;
  int32_t *ranks;
  int32_t *threads;    /* NULL while every sample is of thread 0 */
  size_t   n;
  size_t   capacity;
  size_t   coming;          /* the samples the rank being read brings */
  bool     coming_threads;  /* ... whether one has a thread other than 0 */
} MergeOp;

typedef struct
{
  TprofProfiledTime   *index;      /* the operations' names, in order of appearance */
  MergeOp             *ops;
  size_t               ops_capacity;
  /* the rank being read */
  TprofSpillReader    *reader;
  int32_t              rank;
  double               offset;     /* its clock to rank 0's */
  double               origin;     /* the earliest start so far, rank 0's clock: the
                                      timeline's origin unless a later rank has an earlier one */
  double              *origins;    /* the origin each rank's starts were moved by */
  size_t              *local;      /* the reader's name ids -> operations */
  size_t               local_capacity;
  TprofSpillMergeRank *out;        /* its part of the report */
  TprofSpillMergeRank *ranks;      /* the report's, every rank */
  TprofError          *error;
} Merge;

static int
no_memory (Merge *m)
{
  return tprof_error_set (m->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", _tprof_spill_reader_path (m->reader));
}

/* The operation of each of the reader's @n names in m->local, new ones
 * added in order of appearance. */
static int
map_names (Merge   *m,
           uint32_t n)
{
  if (n > m->local_capacity)
    {
      size_t *local = realloc (m->local, n * sizeof *local);

      if (local == NULL)
        return no_memory (m);
      m->local = local;
      m->local_capacity = n;
    }
  for (uint32_t k = 0; k < n; k++)
    {
      const char *name = _tprof_spill_reader_name (m->reader, k);
      size_t op = _tprof_profiled_time_find (m->index, name);

      if (op == TPROF_PROFILED_TIME_NOT_FOUND)
        {
          op = tprof_profiled_time_len (m->index);
          if (op == m->ops_capacity)
            {
              size_t capacity = m->ops_capacity != 0 ? 2 * m->ops_capacity : 16;
              MergeOp *ops = realloc (m->ops, capacity * sizeof *ops);

              if (ops == NULL)
                return no_memory (m);
              memset (ops + m->ops_capacity, 0, (capacity - m->ops_capacity) * sizeof *ops);
              m->ops = ops;
              m->ops_capacity = capacity;
            }
          if (!_tprof_profiled_time_append (m->index, name, tprof_gathered_time_new (NULL, NULL, 0)))
            return no_memory (m);
        }
      m->local[k] = op;
    }
  return 0;
}

/* *@p grown to @capacity values of @size bytes, the @n first kept and the
 * pages of the others mapped; false when out of memory (*@p unchanged). */
static bool
grow (void  **p,
      size_t  n,
      size_t  capacity,
      size_t  size)
{
  char *grown = realloc (*p, capacity * size);

  if (grown == NULL)
    return false;
  _tprof_spill_populate (grown + n * size, (capacity - n) * size);
  *p = grown;
  return true;
}

/* Room in @op for @more samples, a thread column once @threaded (the
 * samples before it of thread 0). Large blocks grow by remapping, without
 * a copy; a little is kept ahead for the next ranks. */
static bool
op_reserve (MergeOp *op,
            size_t   more,
            bool     threaded)
{
  size_t capacity = op->capacity;

  if (op->n + more > capacity)
    {
      capacity = op->n + more + (op->n + more) / 8;
      if (!grow ((void **) &op->times, op->n, capacity, sizeof *op->times)
          || !grow ((void **) &op->starts, op->n, capacity, sizeof *op->starts)
          || !grow ((void **) &op->ranks, op->n, capacity, sizeof *op->ranks)
          || (op->threads != NULL && !grow ((void **) &op->threads, op->n, capacity, sizeof *op->threads)))
        return false;
      op->capacity = capacity;
    }
  if (threaded && op->threads == NULL)
    {
      if ((op->threads = malloc (op->capacity * sizeof *op->threads)) == NULL)
        return false;
      memset (op->threads, 0, op->n * sizeof *op->threads);
    }
  return true;
}

static int
on_samples (void         *user_data,
            uint32_t      local,
            int32_t       thread,
            size_t        n,
            const double *starts,
            const double *durations)
{
  Merge *m = user_data;
  MergeOp *op = &m->ops[m->local[local]];

  if (n > op->capacity - op->n)
    return tprof_error_set (m->error, TPROF_ERROR_INVALID, "%s: more samples delivered than loaded",
                            _tprof_spill_reader_path (m->reader));
  /* locals, so that the stores cannot alias what the loops read */
  double *restrict to_starts = op->starts + op->n;
  int32_t *restrict to_ranks = op->ranks + op->n;
  const double offset = m->offset, origin = m->origin;
  const int32_t rank = m->rank;

  memcpy (op->times + op->n, durations, n * sizeof *durations);
  /* onto the timeline in the copy: a pass over the columns once every
   * rank is read would find them out of the cache */
  for (size_t i = 0; i < n; i++)
    to_starts[i] = (starts[i] + offset) - origin;
  for (size_t i = 0; i < n; i++)
    to_ranks[i] = rank;
  if (op->threads != NULL)
    {
      int32_t *restrict to_threads = op->threads + op->n;

      for (size_t i = 0; i < n; i++)
        to_threads[i] = thread;
    }
  op->n += n;
  m->out->samples += n;
  return 0;
}

static int
on_commit (void                   *user_data,
           const TprofSpillCommit *commit)
{
  Merge *m = user_data;

  /* kept on rank 0's clock until the timeline's origin is known */
  m->out->data_until = commit->when + m->offset;
  m->out->flushes++;
  return 0;
}

static int
on_signal (void   *user_data,
           int32_t signum,
           double  when)
{
  (void) when;
  ((Merge *) user_data)->out->signal = signum;
  return 0;
}

static int
on_end (void       *user_data,
        double      when,
        const char *path)
{
  (void) when;
  (void) path;
  ((Merge *) user_data)->out->ended = true;
  return 0;
}

static void
select_rank (Merge            *m,
             TprofSpillReader *reader,
             int               rank)
{
  m->reader = reader;
  m->rank = rank;
  m->out = &m->ranks[rank];
}

/* Reads rank @rank's file: loaded, its operations' arrays grown by what
 * it holds, then delivered while its bytes are still in the cache; the
 * earliest start on rank 0's clock lowered to its own. */
static int
read_rank (Merge            *m,
           TprofSpillReader *reader,
           int               rank,
           double           *earliest)
{
  static const TprofSpillVisitor visitor = {
    .samples = on_samples, .commit = on_commit, .signal = on_signal, .end = on_end,
  };
  const TprofSpillLoaded *load;

  select_rank (m, reader, rank);
  m->out->has_file = true;
  m->offset = _tprof_spill_reader_header (reader)->clock_offset;
  m->origins[rank] = m->origin;
  if ((load = _tprof_spill_reader_load (reader, &m->out->status, m->error)) == NULL
      || map_names (m, load->n_names) < 0)
    return -1;
  for (uint32_t id = 0; id < load->n_names; id++)
    {
      m->ops[m->local[id]].coming += load->op_samples[id];
      m->ops[m->local[id]].coming_threads |= load->op_threads[id];
    }
  for (uint32_t id = 0; id < load->n_names; id++)
    {
      MergeOp *op = &m->ops[m->local[id]];
      bool room = op_reserve (op, op->coming, op->coming_threads);

      op->coming = 0;
      op->coming_threads = false;
      if (!room)
        {
          _tprof_spill_reader_deliver (reader, NULL, NULL, &m->out->status, NULL);
          return no_memory (m);
        }
    }
  if (load->samples > 0)
    {
      *earliest = fmin (*earliest, load->earliest + m->offset);
      m->origin = m->origins[rank] = *earliest;
    }
  return _tprof_spill_reader_deliver (reader, &visitor, m, &m->out->status, m->error);
}

/* The headers' hosts, offsets, error bounds and the wall time of @origin
 * (rank 0's clock), from rank 0's header or else the one of smallest
 * error; data_until moved by @origin. */
static int
set_ranks (TprofProfiledTime     *pt,
           const TprofSpillJob   *job,
           TprofSpillMergeReport *report,
           double                 origin,
           TprofError            *error)
{
  int ws = job->world_size;
  const char **hosts = calloc ((size_t) ws, sizeof *hosts);
  double *offsets = calloc ((size_t) ws, sizeof *offsets);
  double *errors = calloc ((size_t) ws, sizeof *errors);
  double *until = malloc ((size_t) ws * sizeof *until);
  const TprofSpillHeader *wall = NULL;
  int result = 0;

  if (hosts == NULL || offsets == NULL || errors == NULL || until == NULL)
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
  for (int r = 0; result == 0 && r < ws; r++)
    {
      const TprofSpillHeader *h = job->readers[r] != NULL ? _tprof_spill_reader_header (job->readers[r]) : NULL;

      hosts[r] = h != NULL ? h->host : "";
      offsets[r] = h != NULL ? h->clock_offset : 0;
      errors[r] = h != NULL ? h->clock_offset_error : 0;
      until[r] = report->ranks[r].data_until - origin;
      if (h != NULL && (wall == NULL || h->clock_offset_error < wall->clock_offset_error))
        wall = h;
    }
  if (result == 0)
    result = tprof_profiled_time_set_hostnames (pt, hosts, error);
  if (result == 0)
    {
      for (int r = 0; r < ws; r++)
        report->ranks[r].data_until = until[r];
      tprof_profiled_time_set_timeline_take (pt, offsets, errors,
                                             wall != NULL ? _tprof_wall_time_text (wall->started_wall + origin
                                                                     - (wall->started + wall->clock_offset))
                                                          : NULL);
      _tprof_profiled_time_set_data_until_take (pt, until);
      offsets = errors = until = NULL;
    }
  free (hosts);
  free (offsets);
  free (errors);
  free (until);
  return result;
}

/* The starts of the ranks read before the one of the earliest start
 * moved onto the timeline of @origin: the first samples of each
 * operation (grouped by rank), none when rank 0 holds it. */
static void
move_first_ranks (const Merge   *m,
                  const MergeOp *op,
                  double         origin)
{
  double *restrict starts = op->starts;
  const int32_t *restrict ranks = op->ranks;
  const double *origins = m->origins;

  for (size_t i = 0; i < op->n && origins[ranks[i]] != origin; i++)
    starts[i] += origins[ranks[i]] - origin;
}

/* The operations, their starts moved by @origin, into @pt (taking them). */
static int
move_operations (Merge             *m,
                 TprofProfiledTime *pt,
                 double             origin,
                 TprofError        *error)
{
  for (size_t k = 0; k < tprof_profiled_time_len (m->index); k++)
    {
      MergeOp *op = &m->ops[k];
      TprofGatheredTime *gt;

      if (op->n == 0)
        continue;
      move_first_ranks (m, op, origin);
      gt = tprof_gathered_time_new_take (op->times, op->ranks, op->n);
      op->times = NULL;
      op->ranks = NULL;
      if (gt == NULL || !tprof_gathered_time_set_timeline_take (gt, op->starts, op->threads))
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
      /* the reader refused every sample whose duration is not finite and
       * >= 0: a save need not look again */
      _tprof_gathered_time_set_times_valid (gt);
      /* read rank after rank */
      _tprof_gathered_time_set_ranks_grouped (gt);
      op->starts = NULL;
      op->threads = NULL;
      if (!_tprof_profiled_time_append (pt, tprof_profiled_time_name (m->index, k), gt))
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
    }
  return 0;
}

static void
merge_clear (Merge *m)
{
  for (size_t k = 0; k < m->ops_capacity; k++)
    {
      free (m->ops[k].times);
      free (m->ops[k].starts);
      free (m->ops[k].ranks);
      free (m->ops[k].threads);
    }
  free (m->ops);
  free (m->local);
  free (m->origins);
  tprof_profiled_time_free (m->index);
}

/* Where the timeline starts: the earliest sample (@earliest, rank 0's
 * clock) or, without any, where the earliest rank started spilling. */
static double
timeline_origin (const TprofSpillJob *job,
                 double               earliest)
{
  double origin = earliest;

  for (int r = 0; !isfinite (earliest) && r < job->world_size; r++)
    if (job->readers[r] != NULL)
      {
        const TprofSpillHeader *h = _tprof_spill_reader_header (job->readers[r]);

        origin = fmin (origin, h->started + h->clock_offset);
      }
  return isfinite (origin) ? origin : 0;
}

static int
read_ranks (Merge         *m,
            TprofSpillJob *job,
            double        *origin)
{
  double earliest = INFINITY;

  for (int r = 0; r < job->world_size; r++)
    {
      m->ranks[r].data_until = NAN;
      if (job->readers[r] != NULL && read_rank (m, job->readers[r], r, &earliest) < 0)
        return -1;
    }
  *origin = timeline_origin (job, earliest);
  return 0;
}

TprofProfiledTime *
_tprof_spill_merge (TprofSpillJob         *job,
                    TprofSpillMergeReport *report,
                    TprofError            *error)
{
  int ws = job->world_size > 0 ? job->world_size : 1;
  Merge m = { .index = tprof_profiled_time_new (ws), .error = error };
  TprofProfiledTime *pt = tprof_profiled_time_new (ws);
  double origin = 0;
  int result = 0;

  *report = (TprofSpillMergeReport) { .world_size = job->world_size };
  report->ranks = m.ranks = calloc ((size_t) ws, sizeof *report->ranks);
  m.origins = calloc ((size_t) ws, sizeof *m.origins);
  if (m.index == NULL || pt == NULL || report->ranks == NULL || m.origins == NULL)
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
  if (result == 0)
    result = read_ranks (&m, job, &origin);
  for (int r = 0; result == 0 && r < job->world_size; r++)
    {
      report->ranks_with_data += report->ranks[r].flushes > 0;
      report->samples += report->ranks[r].samples;
    }
  if (result == 0 && job->world_size > 0)
    result = set_ranks (pt, job, report, origin, error);
  if (result == 0)
    result = move_operations (&m, pt, origin, error);
  merge_clear (&m);
  if (result < 0)
    {
      tprof_profiled_time_free (pt);
      _tprof_spill_merge_report_clear (report);
      return NULL;
    }
  return pt;
}

void
_tprof_spill_merge_report_clear (TprofSpillMergeReport *report)
{
  free (report->ranks);
  report->ranks = NULL;
}
