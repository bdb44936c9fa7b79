/* tprof-spill-merge.c — _tprof_spill_merge(): every rank's committed flushes gathered per operation, then put on one timeline as a profile. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-analysis-internal.h"
#include "tprof-profiled-time-internal.h"
#include "tprof-spill-merge-private.h"

static int
no_memory (Merge *m)
{
  return tprof_error_set (m->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", _tprof_spill_reader_path (m->reader));
}

int
_tprof_spill_merge_map_names (Merge   *m,
                              uint32_t first,
                              uint32_t n)
{
  if (first + n > m->local_capacity)
    {
      size_t capacity = first + n > 2 * m->local_capacity ? first + n : 2 * m->local_capacity;
      size_t *local = realloc (m->local, capacity * sizeof *local);
      size_t *flush_ops = local != NULL ? realloc (m->flush_ops, capacity * sizeof *flush_ops) : NULL;

      if (local != NULL)
        m->local = local;
      if (flush_ops == NULL)
        return no_memory (m);
      m->flush_ops = flush_ops;
      m->local_capacity = capacity;
    }
  for (uint32_t k = first; k < first + n; k++)
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

/* *@p grown to @capacity values of @size bytes, the @n first kept; false
 * when out of memory (*@p unchanged). Large blocks grow by remapping,
 * without a copy; their fresh pages are mapped as they are filled. */
static bool
grow (void  **p,
      size_t  capacity,
      size_t  size)
{
  char *grown = realloc (*p, capacity * size);

  if (grown == NULL)
    return false;
  *p = grown;
  return true;
}

/* Room in @op for @more samples after the @used ones (its own and the
 * flush's), a thread column once @threaded (the samples before it of
 * thread 0), a quarter kept ahead. */
static bool
op_reserve (MergeOp *op,
            size_t   used,
            size_t   more,
            bool     threaded)
{
  size_t capacity = op->capacity;

  if (used + more > capacity)
    {
      capacity = used + more + (used + more) / 4;
      if (!grow ((void **) &op->times, capacity, sizeof *op->times)
          || !grow ((void **) &op->starts, capacity, sizeof *op->starts)
          || !grow ((void **) &op->ranks, capacity, sizeof *op->ranks)
          || (op->threads != NULL && !grow ((void **) &op->threads, capacity, sizeof *op->threads)))
        return false;
      op->capacity = capacity;
    }
  if (threaded && op->threads == NULL)
    {
      if ((op->threads = malloc (op->capacity * sizeof *op->threads)) == NULL)
        return false;
      memset (op->threads, 0, used * sizeof *op->threads);
    }
  return true;
}

/* Room for a record of @n samples in a merge into a file, reused. */
static int
place_in_scratch (Merge   *m,
                  size_t   n,
                  double **starts,
                  double **durations)
{
  if (n > m->scratch_capacity)
    {
      double *grown = realloc (m->scratch, 2 * n * sizeof *grown);
      int32_t *threads = grown != NULL ? realloc (m->thread_scratch, n * sizeof *threads) : NULL;

      if (grown != NULL)
        m->scratch = grown;
      if (threads == NULL)
        return no_memory (m);
      m->thread_scratch = threads;
      m->scratch_capacity = n;
    }
  *starts = m->scratch;
  *durations = m->scratch + n;
  return 0;
}

/* Room at the end of the operation of the reader's name @local for the
 * @n samples of a SAMPLES record, their pages mapped in one call each (a
 * first touch page by page costs a trap each). */
static int
on_place (void     *user_data,
          uint32_t  local,
          int32_t   thread,
          size_t    n,
          double  **starts,
          double  **durations)
{
  Merge *m = user_data;
  MergeOp *op = &m->ops[m->local[local]];
  size_t at = op->n + op->pending;

  if (m->in_file)
    {
      m->to_scratch = m->stopped || op->capacity == 0 || n > op->capacity - at;
      return place_in_scratch (m, n, starts, durations);
    }
  if (!op_reserve (op, at, n, thread != 0))
    return no_memory (m);
  _tprof_prefault_write (op->times + at, n * sizeof *op->times);
  _tprof_prefault_write (op->starts + at, n * sizeof *op->starts);
  _tprof_prefault_write (op->ranks + at, n * sizeof *op->ranks);
  if (op->threads != NULL)
    _tprof_prefault_write (op->threads + at, n * sizeof *op->threads);
  *starts = op->starts + at;
  *durations = op->times + at;
  return 0;
}

/* The smallest of the @n starts at @starts. */
static double
smallest (const double *starts,
          size_t        n)
{
  double lo = INFINITY;

  for (size_t i = 0; i < n; i++)
    lo = starts[i] < lo ? starts[i] : lo;
  return lo;
}

/* The @n samples just read at the end of the operation of @local: their
 * starts moved onto the timeline while they are in the cache (a pass over
 * the columns once every rank is read would find them out of it), their
 * rank and thread set. */
static int
on_placed (void         *user_data,
           uint32_t      local,
           int32_t       thread,
           size_t        n,
           const double *starts,
           const double *durations)
{
  Merge *m = user_data;
  MergeOp *op = &m->ops[m->local[local]];
  size_t at = op->n + op->pending;
  double *restrict to_starts = m->in_file ? m->scratch : op->starts + at;
  int32_t *restrict to_ranks = op->ranks != NULL ? op->ranks + at : NULL;
  double lo = m->flush_earliest;

  (void) starts;
  (void) durations;
  if (m->to_scratch)
    {
      m->to_scratch = false;
      m->flush_overflow = m->flush_overflow || n > 0;
      return 0;
    }
  if (isnan (m->shift) && n > 0)
    m->shift = smallest (to_starts, n) + m->offset;

  const double offset = m->offset, shift = m->shift;
  const int32_t rank = m->rank;

  for (size_t i = 0; i < n; i++)
    {
      double s = to_starts[i];

      lo = s < lo ? s : lo;
      to_starts[i] = (s + offset) - shift;
    }
  for (size_t i = 0; to_ranks != NULL && i < n; i++)
    to_ranks[i] = rank;
  if (op->threads != NULL || m->in_file)
    {
      int32_t *restrict to_threads = m->in_file ? m->thread_scratch : op->threads + at;

      for (size_t i = 0; i < n; i++)
        to_threads[i] = thread;
      if (m->in_file && m->put (m->put_data, (size_t) (op - m->ops), at, to_starts, durations, to_threads, n) < 0)
        return -1;
    }
  m->flush_earliest = lo;
  m->flush_samples += n;
  op->pending += n;
  if (!op->in_flush)
    {
      op->in_flush = true;
      m->flush_ops[m->n_flush_ops++] = (size_t) (op - m->ops);
    }
  return 0;
}

/* The flush being read taken (@keep) or dropped. */
static void
end_flush (Merge *m,
           bool   keep)
{
  for (size_t k = 0; k < m->n_flush_ops; k++)
    {
      MergeOp *op = &m->ops[m->flush_ops[k]];

      op->n += keep ? op->pending : 0;
      op->pending = 0;
      op->in_flush = false;
    }
  m->n_flush_ops = 0;
  if (keep)
    {
      m->out->samples += m->flush_samples;
      m->earliest = fmin (m->earliest, m->flush_earliest);
    }
  m->flush_samples = 0;
  m->flush_earliest = INFINITY;
}

static int
on_names (void    *user_data,
          uint32_t first,
          uint32_t n)
{
  return _tprof_spill_merge_map_names (user_data, first, n);
}

static int
on_commit (void                   *user_data,
           const TprofSpillCommit *commit)
{
  Merge *m = user_data;

  /* into a file: a flush the count did not see, and every later one */
  m->stopped = m->stopped || m->flush_overflow;
  m->flush_overflow = false;
  end_flush (m, !m->stopped);
  if (m->stopped)
    return 0;
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

void
_tprof_spill_merge_select_rank (Merge            *m,
                                TprofSpillReader *reader,
                                int               rank)
{
  m->reader = reader;
  m->rank = rank;
  m->out = &m->ranks[rank];
}

/* Reads rank @rank's file, its samples straight into the operations'
 * columns; the earliest start on rank 0's clock lowered to its own. Its
 * starts are moved by the earliest start of the ranks before it (of its
 * own first record for the first), the ranks whose starts were moved by
 * a later origin moved again at the end. */
int
_tprof_spill_merge_read_rank (Merge            *m,
                              TprofSpillReader *reader,
                              int               rank,
                              double           *earliest)
{
  static const TprofSpillVisitor visitor = {
    .names = on_names, .commit = on_commit, .signal = on_signal, .end = on_end,
  };
  static const TprofSpillPlacer placer = { .place = on_place, .placed = on_placed };
  int result;

  _tprof_spill_merge_select_rank (m, reader, rank);
  if (_tprof_spill_merge_map_names (m, 0, _tprof_spill_reader_n_names (reader)) < 0)  /* defined by its count */
    return -1;
  m->out->has_file = true;
  m->offset = _tprof_spill_reader_header (reader)->clock_offset;
  m->shift = isfinite (m->origin) ? m->origin : NAN;
  m->earliest = m->flush_earliest = INFINITY;
  m->stopped = m->flush_overflow = m->to_scratch = false;
  result = _tprof_spill_reader_read_placed (reader, &visitor, &placer, m, &m->out->status, m->error);
  end_flush (m, false);  /* a flush without its COMMIT */
  m->flush_overflow = m->to_scratch = false;
  m->origins[rank] = m->shift;
  if (result == 0 && isfinite (m->earliest))
    {
      *earliest = fmin (*earliest, m->earliest + m->offset);
      m->origin = *earliest;
    }
  return result;
}

/* The wall time from rank 0's header or else the one of smallest error. */
int
_tprof_spill_merge_set_ranks (TprofProfiledTime     *pt,
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

void
_tprof_spill_merge_clear (Merge *m)
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
  free (m->flush_ops);
  free (m->origins);
  free (m->scratch);
  free (m->thread_scratch);
  tprof_profiled_time_free (m->index);
}

double
_tprof_spill_merge_origin (const TprofSpillJob *job,
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

/* Each operation's columns allocated for what every file holds (counted
 * first, the samples not read), once: on 2 MiB pages, where a fresh page
 * costs a fault every 2 MiB instead of every 4 KiB, without moving
 * (realloc() would lose their alignment). */
static int
size_operations (Merge         *m,
                 TprofSpillJob *job)
{
  for (int r = 0; r < job->world_size; r++)
    {
      const TprofSpillCounted *count;

      if (job->readers[r] == NULL)
        continue;
      _tprof_spill_merge_select_rank (m, job->readers[r], r);
      if ((count = _tprof_spill_reader_count (job->readers[r], m->error)) == NULL
          || _tprof_spill_merge_map_names (m, 0, count->n_names) < 0)
        return -1;
      for (uint32_t id = 0; id < count->n_names; id++)
        {
          m->ops[m->local[id]].counted += count->op_samples[id];
          m->ops[m->local[id]].counted_threads |= count->op_threads[id];
        }
    }
  for (size_t k = 0; k < tprof_profiled_time_len (m->index); k++)
    {
      MergeOp *op = &m->ops[k];
      size_t n = op->counted;

      if (n == 0)
        continue;
      op->times = _tprof_malloc_array_paged (n, sizeof *op->times, false);
      op->starts = _tprof_malloc_array_paged (n, sizeof *op->starts, false);
      op->ranks = _tprof_malloc_array_paged (n, sizeof *op->ranks, false);
      if (op->counted_threads)
        op->threads = _tprof_malloc_array_paged (n, sizeof *op->threads, false);
      if (op->times == NULL || op->starts == NULL || op->ranks == NULL || (op->counted_threads && op->threads == NULL))
        return tprof_error_set (m->error, TPROF_ERROR_NO_MEMORY, "out of memory for %zu samples", n);
      op->capacity = n;
    }
  return 0;
}

static int
read_ranks (Merge         *m,
            TprofSpillJob *job,
            double        *origin)
{
  double earliest = INFINITY;

  if (size_operations (m, job) < 0)
    return -1;
  for (int r = 0; r < job->world_size; r++)
    {
      m->ranks[r].data_until = NAN;
      if (job->readers[r] != NULL && _tprof_spill_merge_read_rank (m, job->readers[r], r, &earliest) < 0)
        return -1;
    }
  *origin = _tprof_spill_merge_origin (job, earliest);
  return 0;
}

int
_tprof_spill_merge_init (Merge                 *m,
                         TprofSpillJob         *job,
                         TprofSpillMergeReport *report,
                         TprofError            *error)
{
  int ws = job->world_size > 0 ? job->world_size : 1;

  *m = (Merge) { .index = tprof_profiled_time_new (ws), .error = error, .origin = INFINITY };
  *report = (TprofSpillMergeReport) { .world_size = job->world_size };
  report->ranks = m->ranks = calloc ((size_t) ws, sizeof *report->ranks);
  m->origins = calloc ((size_t) ws, sizeof *m->origins);
  if (m->index == NULL || report->ranks == NULL || m->origins == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
  return 0;
}

void
_tprof_spill_merge_report_sum (TprofSpillMergeReport *report)
{
  for (int r = 0; r < report->world_size; r++)
    {
      report->ranks_with_data += report->ranks[r].flushes > 0;
      report->samples += report->ranks[r].samples;
    }
}

TprofProfiledTime *
_tprof_spill_merge (TprofSpillJob         *job,
                    TprofSpillMergeReport *report,
                    TprofError            *error)
{
  int ws = job->world_size > 0 ? job->world_size : 1;
  Merge m;
  TprofProfiledTime *pt = tprof_profiled_time_new (ws);
  double origin = 0;
  int result = _tprof_spill_merge_init (&m, job, report, error);

  if (result == 0 && pt == NULL)
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
  if (result == 0)
    result = read_ranks (&m, job, &origin);
  if (result == 0)
    _tprof_spill_merge_report_sum (report);
  if (result == 0 && job->world_size > 0)
    result = _tprof_spill_merge_set_ranks (pt, job, report, origin, error);
  if (result == 0)
    result = move_operations (&m, pt, origin, error);
  _tprof_spill_merge_clear (&m);
  if (result < 0)
    {
      tprof_profiled_time_free (pt);
      _tprof_spill_merge_report_clear (report);
      return NULL;
    }
  report->operations = tprof_profiled_time_len (pt);
  return pt;
}

void
_tprof_spill_merge_report_clear (TprofSpillMergeReport *report)
{
  free (report->ranks);
  report->ranks = NULL;
}
