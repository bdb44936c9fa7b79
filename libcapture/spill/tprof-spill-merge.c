/* tprof-spill-merge.c — _tprof_spill_merge(): every rank's committed flushes gathered per operation, then put on one timeline as a profile. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tprof-profiled-time-internal.h"
#include "tprof-spill-merge-internal.h"

/* One operation's samples so far, starts on rank 0's clock. */
typedef struct
{
  double  *times;
  double  *starts;
  int32_t *ranks;
  int32_t *threads;
  size_t   n;
  size_t   capacity;
  size_t   populated;  /* samples whose pages are known to be mapped */
} MergeOp;

typedef struct
{
  TprofProfiledTime   *index;      /* the operations' names, in order of appearance */
  MergeOp             *ops;
  size_t               ops_capacity;
  /* the rank being read */
  TprofSpillReader    *reader;
  int32_t              rank;
  double               offset;
  size_t              *local;      /* the reader's name ids -> operations */
  size_t               local_capacity;
  TprofSpillMergeRank *out;
  double               earliest;   /* smallest start on rank 0's clock */
  TprofError          *error;
} Merge;

static int
no_memory (Merge *m)
{
  return tprof_error_set (m->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", _tprof_spill_reader_path (m->reader));
}

static bool
op_reserve (MergeOp *op,
            size_t   more)
{
  size_t capacity = op->capacity;

  if (op->n + more <= capacity)
    return true;
  while (capacity < op->n + more)
    capacity = capacity != 0 ? capacity + capacity / 2 : 1024;
  double *times = realloc (op->times, capacity * sizeof *times);
  if (times != NULL)
    op->times = times;
  double *starts = realloc (op->starts, capacity * sizeof *starts);
  if (starts != NULL)
    op->starts = starts;
  int32_t *ranks = realloc (op->ranks, capacity * sizeof *ranks);
  if (ranks != NULL)
    op->ranks = ranks;
  int32_t *threads = realloc (op->threads, capacity * sizeof *threads);
  if (threads != NULL)
    op->threads = threads;
  if (times == NULL || starts == NULL || ranks == NULL || threads == NULL)
    return false;
  op->capacity = capacity;
  return true;
}

/* Maps the pages of @bytes at @p in one call where the kernel can
 * (MADV_POPULATE_WRITE, Linux 5.14): a first touch page by page costs a
 * trap each, which in a virtual machine is most of a merge's time. */
static void
populate (void  *p,
          size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  uintptr_t start = (uintptr_t) p & ~(page - 1);
  uintptr_t end = ((uintptr_t) p + bytes + page - 1) & ~(page - 1);

  madvise ((void *) start, end - start, MADV_POPULATE_WRITE);
#else
  (void) p;
  (void) bytes;
#endif
}

/* Makes room for @more samples in @op, their pages mapped a few MB at a time. */
static bool
op_make_room (MergeOp *op,
              size_t   more)
{
  const size_t step = 1 << 20;
  size_t from = op->populated, to;

  if (!op_reserve (op, more))
    return false;
  if (op->n + more <= op->populated)
    return true;
  to = op->n + more + step < op->capacity ? op->n + more + step : op->capacity;
  populate (op->times + from, (to - from) * sizeof *op->times);
  populate (op->starts + from, (to - from) * sizeof *op->starts);
  populate (op->ranks + from, (to - from) * sizeof *op->ranks);
  populate (op->threads + from, (to - from) * sizeof *op->threads);
  op->populated = to;
  return true;
}

static int
on_names (void    *user_data,
          uint32_t first,
          uint32_t n)
{
  Merge *m = user_data;

  if (first + (size_t) n > m->local_capacity)
    {
      size_t capacity = 2 * (first + (size_t) n);
      size_t *local = realloc (m->local, capacity * sizeof *local);

      if (local == NULL)
        return no_memory (m);
      m->local = local;
      m->local_capacity = capacity;
    }
  for (uint32_t k = 0; k < n; k++)
    {
      const char *name = _tprof_spill_reader_name (m->reader, first + k);
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
      m->local[first + k] = op;
    }
  return 0;
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

  if (!op_make_room (op, n))
    return no_memory (m);
  /* locals, so that the stores cannot alias what the loop reads */
  double *restrict to_starts = op->starts + op->n;
  int32_t *restrict to_ranks = op->ranks + op->n;
  int32_t *restrict to_threads = op->threads + op->n;
  const double offset = m->offset;
  const int32_t rank = m->rank;
  double earliest = m->earliest;

  memcpy (op->times + op->n, durations, n * sizeof *durations);
  for (size_t i = 0; i < n; i++)
    {
      double start = starts[i] + offset;

      to_starts[i] = start;
      to_ranks[i] = rank;
      to_threads[i] = thread;
      earliest = start < earliest ? start : earliest;
    }
  m->earliest = earliest;
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

static int
read_rank (Merge            *m,
           TprofSpillReader *reader,
           int               rank)
{
  static const TprofSpillVisitor visitor = {
    .samples = on_samples, .names = on_names, .commit = on_commit, .signal = on_signal, .end = on_end,
  };

  m->reader = reader;
  m->rank = rank;
  m->offset = _tprof_spill_reader_header (reader)->clock_offset;
  m->out->has_file = true;
  return _tprof_spill_reader_read (reader, &visitor, m, &m->out->status, m->error);
}

/* ISO 8601 UTC, with microseconds, of @epoch seconds. */
static char *
iso_utc (double epoch)
{
  time_t secs = (time_t) floor (epoch);
  struct tm utc;
  char text[64];
  size_t len;

  if (!isfinite (epoch) || gmtime_r (&secs, &utc) == NULL)
    return NULL;
  len = strftime (text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  snprintf (text + len, sizeof text - len, ".%06dZ", (int) ((epoch - floor (epoch)) * 1e6));
  return strdup (text);
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
                                             wall != NULL ? iso_utc (wall->started_wall + origin
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
      for (size_t i = 0; i < op->n; i++)
        op->starts[i] -= origin;
      gt = tprof_gathered_time_new_take (op->times, op->ranks, op->n);
      op->times = NULL;
      op->ranks = NULL;
      if (gt == NULL || !tprof_gathered_time_set_timeline_take (gt, op->starts, op->threads))
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
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
  tprof_profiled_time_free (m->index);
}

TprofProfiledTime *
_tprof_spill_merge (TprofSpillJob         *job,
                    TprofSpillMergeReport *report,
                    TprofError            *error)
{
  int ws = job->world_size > 0 ? job->world_size : 1;
  Merge m = { .index = tprof_profiled_time_new (ws), .earliest = INFINITY, .error = error };
  TprofProfiledTime *pt = tprof_profiled_time_new (ws);
  double origin = INFINITY;
  int result = 0;

  *report = (TprofSpillMergeReport) { .world_size = job->world_size };
  report->ranks = calloc ((size_t) ws, sizeof *report->ranks);
  if (m.index == NULL || pt == NULL || report->ranks == NULL)
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
  for (int r = 0; r < job->world_size; r++)
    {
      if (result == 0)
        {
          m.out = &report->ranks[r];
          m.out->data_until = NAN;
          if (job->readers[r] != NULL)
            result = read_rank (&m, job->readers[r], r);
        }
      if (result == 0 && m.out->flushes > 0)
        report->ranks_with_data++;
      if (result == 0)
        report->samples += m.out->samples;
    }
  /* no sample at all: the timeline starts where the earliest rank started spilling */
  origin = m.earliest;
  for (int r = 0; !isfinite (m.earliest) && r < job->world_size; r++)
    if (job->readers[r] != NULL)
      {
        const TprofSpillHeader *h = _tprof_spill_reader_header (job->readers[r]);

        origin = fmin (origin, h->started + h->clock_offset);
      }
  if (!isfinite (origin))
    origin = 0;
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
