/* tprof-spill-merge-save.c — _tprof_spill_merge_save(): a job's spill files merged straight into the rows of the profile it writes, or in memory when a file does not hold what its count found. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-analysis-internal.h"
#include "tprof-save-in-place-internal.h"
#include "tprof-spill-merge-private.h"

/* The file's side of a merge into it. */
typedef struct
{
  Merge                     m;
  TprofSpillJob            *job;
  const TprofSpillCounted **counts;   /* per rank, NULL without a file */
  size_t                   *slot;     /* per operation of m.index: its row in parts, or SIZE_MAX */
  TprofOperationParts      *parts;    /* the operations with committed samples, in order */
  TprofCachedStats         *caches;
  int64_t                  *block;    /* the caches' per-rank arrays */
  size_t                    n_parts;
  TprofProfiledTime        *info;     /* the file beside its operations: hosts, offsets, data_until */
  TprofSaveInPlace         *save;
  bool                      read;     /* a placed read has consumed the readers */
} MergeSave;

/* How a merge into the file ended. */
enum
{
  SAVE_DONE = 0,
  SAVE_FAILED = -1,
  SAVE_IN_MEMORY = 1,  /* merge in memory instead */
};

/* Which path TPROF_MERGE_PATH asks for: 'f'ile, 'm'emory, or 0. */
static char
forced_path (void)
{
  const char *v = getenv ("TPROF_MERGE_PATH");

  return v != NULL && (strcmp (v, "file") == 0 || strcmp (v, "memory") == 0) ? v[0] : 0;
}

/* Makes @rank the one the merge reads, its names mapped as its count
 * found them. 0, or -1. */
static int
select_counted (MergeSave *ms,
                int        rank)
{
  _tprof_spill_merge_select_rank (&ms->m, ms->job->readers[rank], rank);
  return _tprof_spill_merge_map_names (&ms->m, 0, ms->counts[rank]->n_names);
}

/* Counts every file's committed samples per operation; their total in
 * *@total. 0, or -1. */
static int
count_ranks (MergeSave *ms,
             uint64_t  *total)
{
  *total = 0;
  for (int r = 0; r < ms->job->world_size; r++)
    {
      const TprofSpillCounted *count;

      if (ms->job->readers[r] == NULL)
        continue;
      _tprof_spill_merge_select_rank (&ms->m, ms->job->readers[r], r);
      if ((count = ms->counts[r] = _tprof_spill_reader_count (ms->job->readers[r], ms->m.error)) == NULL
          || select_counted (ms, r) < 0)
        return -1;
      for (uint32_t id = 0; id < count->n_names; id++)
        ms->m.ops[ms->m.local[id]].counted += count->op_committed[id];
      *total += count->committed;
    }
  return 0;
}

static int
no_memory (MergeSave *ms)
{
  return tprof_error_set (ms->m.error, TPROF_ERROR_NO_MEMORY, "out of memory");
}

/* The operations with committed samples as the save lays them out: each
 * rank's count in its cache (the segments). 0, or -1. */
static int
lay_out (MergeSave *ms)
{
  size_t k_ops = tprof_profiled_time_len (ms->m.index), ws = (size_t) ms->job->world_size;
  size_t per_op = ws * TPROF_CACHED_STATS_ARRAYS;

  ms->slot = malloc ((k_ops > 0 ? k_ops : 1) * sizeof *ms->slot);
  ms->parts = calloc (k_ops > 0 ? k_ops : 1, sizeof *ms->parts);
  ms->caches = calloc (k_ops > 0 ? k_ops : 1, sizeof *ms->caches);
  size_t values;

  if (__builtin_mul_overflow (k_ops > 0 ? k_ops : 1, per_op, &values))
    return no_memory (ms);
  ms->block = calloc (values > 0 ? values : 1, sizeof *ms->block);
  if (ms->slot == NULL || ms->parts == NULL || ms->caches == NULL || ms->block == NULL)
    return no_memory (ms);
  for (size_t k = 0; k < k_ops; k++)
    {
      size_t j = ms->n_parts;
      int64_t *storage = ms->block + j * per_op;

      ms->slot[k] = ms->m.ops[k].counted > 0 ? ms->n_parts++ : SIZE_MAX;
      if (ms->slot[k] == SIZE_MAX)
        continue;
      ms->caches[j] = (TprofCachedStats) {
        .rank_count = storage, .rank_sum = (double *) (storage + ws), .rank_min = (double *) (storage + 2 * ws),
        .rank_max = (double *) (storage + 3 * ws), .borrowed = true,
      };
      ms->parts[j] = (TprofOperationParts) {
        .name = tprof_profiled_time_name (ms->m.index, k), .n = ms->m.ops[k].counted, .timeline = true,
        .left_to_ranks = true, .cache = &ms->caches[j],
      };
    }
  for (int r = 0; r < ms->job->world_size; r++)
    {
      if (ms->counts[r] == NULL)
        continue;
      if (select_counted (ms, r) < 0)
        return -1;
      for (uint32_t id = 0; id < ms->counts[r]->n_names; id++)
        {
          size_t j = ms->slot[ms->m.local[id]];

          if (j != SIZE_MAX)
            ms->caches[j].rank_count[r] += (int64_t) ms->counts[r]->op_committed[id];
        }
    }
  return 0;
}

/* A record's samples written at their rows: operation @op's from @row. */
static int
put_rows (void          *put_data,
          size_t         op,
          size_t         row,
          const double  *starts,
          const double  *durations,
          const int32_t *threads,
          size_t         n)
{
  MergeSave *ms = put_data;
  size_t j = ms->slot[op];

  return _tprof_save_in_place_put (ms->save, j, TPROF_H5_FIELD_TIMES, row, durations, n * sizeof *durations,
                                   ms->m.error) < 0
         || _tprof_save_in_place_put (ms->save, j, TPROF_H5_FIELD_STARTS, row, starts, n * sizeof *starts,
                                      ms->m.error) < 0
         || _tprof_save_in_place_put (ms->save, j, TPROF_H5_FIELD_THREADS, row, threads, n * sizeof *threads,
                                      ms->m.error) < 0 ? -1 : 0;
}

/* The merge made to write each record at its rows in the file. */
static void
write_to_rows (MergeSave *ms)
{
  ms->m.in_file = true;
  ms->m.put = put_rows;
  ms->m.put_data = ms;
  for (size_t k = 0; k < tprof_profiled_time_len (ms->m.index); k++)
    ms->m.ops[k].capacity = 0;
}

/* Reads rank @r into its rooms, which end where its count says: false in
 * *@as_counted when it gave another number of samples of an operation. */
static int
read_counted (MergeSave *ms,
              int        r,
              double    *earliest,
              bool      *as_counted)
{
  const TprofSpillCounted *count = ms->counts[r];

  *as_counted = true;
  if (select_counted (ms, r) < 0)
    return -1;
  for (uint32_t id = 0; id < count->n_names; id++)
    {
      MergeOp *op = &ms->m.ops[ms->m.local[id]];

      op->capacity = op->n + count->op_committed[id];
    }
  ms->read = true;
  if (_tprof_spill_merge_read_rank (&ms->m, ms->job->readers[r], r, earliest) < 0)
    return -1;
  for (uint32_t id = 0; id < count->n_names; id++)
    *as_counted = *as_counted && ms->m.ops[ms->m.local[id]].n == ms->m.ops[ms->m.local[id]].capacity;
  return 0;
}

/* Rows moved again are read back and written a piece this large at a time. */
#define MOVE_PIECE ((size_t) 65536)

/* The @n starts of operation @j from @row moved by @by, read back and
 * written again a piece at a time. 0, or -1. */
static int
move_rows (MergeSave *ms,
           size_t     j,
           size_t     row,
           size_t     n,
           double     by)
{
  double *piece = malloc (MOVE_PIECE * sizeof *piece);
  int result = piece != NULL ? 0 : no_memory (ms);

  for (size_t done = 0; result == 0 && done < n; done += MOVE_PIECE)
    {
      size_t take = n - done < MOVE_PIECE ? n - done : MOVE_PIECE;

      result = _tprof_save_in_place_get (ms->save, j, TPROF_H5_FIELD_STARTS, row + done, piece,
                                         take * sizeof *piece, ms->m.error);
      for (size_t i = 0; result == 0 && i < take; i++)
        piece[i] += by;
      if (result == 0)
        result = _tprof_save_in_place_put (ms->save, j, TPROF_H5_FIELD_STARTS, row + done, piece,
                                           take * sizeof *piece, ms->m.error);
    }
  free (piece);
  return result;
}

/* The starts of the ranks read before the one of the earliest start
 * moved onto the timeline of @origin, as the in-memory merge moves them:
 * the first segments of each operation, none when rank 0 holds it. */
static int
move_first_ranks (MergeSave *ms,
                  double     origin)
{
  for (size_t j = 0; j < ms->n_parts; j++)
    {
      const int64_t *count = ms->caches[j].rank_count;
      size_t at = 0;

      for (int r = 0; r < ms->job->world_size; r++)
        {
          if (count[r] == 0)
            continue;
          if (ms->m.origins[r] == origin)
            break;
          if (move_rows (ms, j, at, (size_t) count[r], ms->m.origins[r] - origin) < 0)
            return -1;
          at += (size_t) count[r];
        }
    }
  return 0;
}

/* Every rank read into the file; then its ranks' table. SAVE_IN_MEMORY
 * when a file did not give what its count found. */
static int
read_into_file (MergeSave             *ms,
                TprofSpillMergeReport *report)
{
  double earliest = INFINITY, origin;
  bool as_counted = true;

  write_to_rows (ms);
  for (int r = 0; r < ms->job->world_size && as_counted; r++)
    {
      ms->m.ranks[r].data_until = NAN;
      if (ms->counts[r] != NULL && read_counted (ms, r, &earliest, &as_counted) < 0)
        return SAVE_FAILED;
    }
  if (!as_counted)
    return SAVE_IN_MEMORY;
  origin = _tprof_spill_merge_origin (ms->job, earliest);
  _tprof_spill_merge_report_sum (report);
  if (_tprof_spill_merge_set_ranks (ms->info, ms->job, report, origin, ms->m.error) < 0)
    return SAVE_FAILED;
  if (move_first_ranks (ms, origin) < 0)
    return SAVE_FAILED;
  report->operations = ms->n_parts;
  return SAVE_DONE;
}

static int
merge_into_file (MergeSave             *ms,
                 const char            *path,
                 TprofSpillMergeReport *report)
{
  uint64_t total;
  char forced = forced_path ();
  int result;

  if (forced == 'm' || count_ranks (ms, &total) < 0)
    return forced == 'm' ? SAVE_IN_MEMORY : SAVE_FAILED;
  if (lay_out (ms) < 0)
    return SAVE_FAILED;
  if (total == 0 || (forced != 'f' && !_tprof_save_in_place_worth (ms->parts, ms->n_parts, ms->job->world_size)))
    return SAVE_IN_MEMORY;
  if ((ms->info = tprof_profiled_time_new (ms->job->world_size)) == NULL)
    return no_memory (ms);
  /* a file that cannot be laid out here (its columns unaligned) is
   * written the ordinary way; a place that cannot be written fails there
   * too, with its own message */
  if ((ms->save = _tprof_save_in_place_begin (path, ms->info, ms->parts, ms->caches, ms->n_parts, ms->m.error))
      == NULL)
    return SAVE_IN_MEMORY;
  if ((result = read_into_file (ms, report)) != SAVE_DONE)
    return result;
  result = _tprof_save_in_place_commit (ms->save, ms->info, ms->m.error);
  ms->save = NULL;
  report->saving = result < 0;
  return result < 0 ? SAVE_FAILED : SAVE_DONE;
}

static void
merge_save_clear (MergeSave *ms)
{
  _tprof_save_in_place_abandon (ms->save);
  _tprof_spill_merge_clear (&ms->m);
  tprof_profiled_time_free (ms->info);
  free (ms->counts);
  free (ms->slot);
  free (ms->parts);
  free (ms->caches);
  free (ms->block);
}

/* Opens every file of @job again, for a read from its start. */
static void
reopen_readers (TprofSpillJob *job)
{
  for (int r = 0; r < job->world_size; r++)
    {
      char *path = job->readers[r] != NULL ? strdup (_tprof_spill_reader_path (job->readers[r])) : NULL;
      TprofError ignored = { 0 };

      if (job->readers[r] == NULL)
        continue;
      _tprof_spill_reader_close (job->readers[r]);
      /* gone meanwhile: the rank then has no usable file */
      job->readers[r] = path != NULL ? _tprof_spill_reader_open (path, &ignored) : NULL;
      job->n_readers -= job->readers[r] == NULL;
      free (path);
    }
}

/* The in-memory merge, then its save. */
static int
merge_in_memory (TprofSpillJob         *job,
                 const char            *path,
                 TprofSpillMergeReport *report,
                 TprofError            *error)
{
  TprofProfiledTime *pt = _tprof_spill_merge (job, report, error);
  int result;

  if (pt == NULL)
    return -1;
  report->in_memory = true;
  result = tprof_profiled_time_save (pt, path, error);
  report->saving = result < 0;
  tprof_profiled_time_free (pt);
  return result;
}

int
_tprof_spill_merge_save (TprofSpillJob         *job,
                         const char            *path,
                         TprofSpillMergeReport *report,
                         TprofError            *error)
{
  MergeSave ms = { .job = job };
  int result = _tprof_spill_merge_init (&ms.m, job, report, error);

  if (result == 0 && (ms.counts = calloc (job->world_size > 0 ? (size_t) job->world_size : 1,
                                          sizeof *ms.counts)) == NULL)
    result = no_memory (&ms);
  if (result == 0)
    result = merge_into_file (&ms, path, report);
  merge_save_clear (&ms);
  if (result != SAVE_IN_MEMORY)
    return result;
  /* the file dropped: the job merged from its files' start */
  if (ms.read)
    reopen_readers (job);
  _tprof_spill_merge_report_clear (report);
  tprof_error_clear (error);
  return merge_in_memory (job, path, report, error);
}
