/* tprof-reader-samples.c — an operation's samples read by the isolated reader's client straight from the file, at the offsets its helper found, and checked as in process. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tprof-analysis-internal.h"
#include "tprof-crc32c.h"
#include "tprof-h5-reader-private.h"
#include "tprof-reader-private.h"

typedef struct
{
  TprofProfileFile          *pf;
  const char                *op;
  size_t                     op_index;
  int                        fd;
  const TprofReaderLocation *loc;
  TprofError                *error;
} DirectRead;

static off_t
array_offset (const DirectRead     *dr,
              TprofReaderArrayId    id,
              uint64_t              index)
{
  const TprofReaderArray *a = &dr->loc->arrays[id];

  return (off_t) (a->offset + index * a->type.size);
}

/* Fills and checks samples [@start, @start + @count) of the file, with
 * the in-process reader's code and messages. */
static int
read_block (DirectRead *dr,
            uint64_t    start,
            uint64_t    count,
            double     *times,
            int32_t    *ranks)
{
  TprofH5SampleSource source = {
    .fd = dr->fd,
    .times_offset = array_offset (dr, TPROF_READER_TIMES, start),
    .ranks_offset = dr->loc->ranks_from_counts ? -1 : array_offset (dr, TPROF_READER_RANKS, start),
    .times_type = dr->loc->arrays[TPROF_READER_TIMES].type,
    .ranks_type = dr->loc->arrays[TPROF_READER_RANKS].type,
  };
  const char *failed_array = NULL;
  size_t invalid = (size_t) count;
  char rank_text[32];
  int status;

  if (dr->loc->ranks_from_counts)
    _tprof_h5_ranks_from_counts (dr->pf->ops[dr->op_index].cache.rank_count, dr->pf->world_size, start, count,
                                 ranks);
  status = _tprof_h5_fill_samples (&source, times, ranks, (size_t) count, dr->pf->world_size,
                                   &invalid, &failed_array);
  if (status == -1)
    return tprof_error_set (dr->error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' runs past the end of the file (truncated?)",
                            dr->pf->path, dr->op, failed_array);
  if (status != 0)
    return tprof_error_set (dr->error, TPROF_ERROR_IO, "%s: operation '%s': cannot read dataset '%s': %s",
                            dr->pf->path, dr->op, failed_array, strerror (status));
  if (TPROF_LIKELY (invalid == count))
    return 0;
  if (dr->loc->ranks_from_counts)
    return _tprof_h5_report_invalid_row (dr->pf, dr->op, times[invalid], dr->loc->row + start + invalid,
                                         dr->error);
  /* the rank as stored, before any clamping to int32 */
  if (!_tprof_h5_format_stored_integer (dr->fd, array_offset (dr, TPROF_READER_RANKS, start + invalid),
                                        source.ranks_type, rank_text, sizeof rank_text))
    snprintf (rank_text, sizeof rank_text, "%d", (int) ranks[invalid]);
  return _tprof_h5_report_invalid (dr->pf, dr->op, times[invalid], rank_text, start + invalid, dr->error);
}

/* Reads array @id at @runs into @out (doubles or int32), or sets the error. */
static int
read_member_runs (DirectRead         *dr,
                  TprofReaderArrayId  id,
                  const TprofH5Run   *runs,
                  size_t              n_runs,
                  void               *out)
{
  static const char *const names[TPROF_READER_N_ARRAYS] = { "times", "ranks", "starts", "threads" };
  bool as_double = id == TPROF_READER_STARTS;
  size_t dest = 0;

  for (size_t k = 0; k < n_runs; k++)
    {
      int status = _tprof_h5_pread_values (dr->fd, array_offset (dr, id, runs[k].start), dr->loc->arrays[id].type,
                                           (size_t) runs[k].count,
                                           (char *) out + dest * (as_double ? sizeof (double) : sizeof (int32_t)),
                                           as_double);

      if (status == -1)
        return tprof_error_set (dr->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': dataset '%s' runs past the end of the file (truncated?)",
                                dr->pf->path, dr->op, names[id]);
      if (status != 0)
        return tprof_error_set (dr->error, TPROF_ERROR_IO, "%s: operation '%s': cannot read dataset '%s': %s",
                                dr->pf->path, dr->op, names[id], strerror (status));
      dest += (size_t) runs[k].count;
    }
  return 0;
}

/* The starts and threads at @runs where the file has them, checked. */
static int
read_timeline (DirectRead       *dr,
               const TprofH5Run *runs,
               size_t            n_runs,
               size_t            n,
               double          **starts,
               int32_t         **threads)
{
  bool has_starts = dr->loc->arrays[TPROF_READER_STARTS].present;
  bool has_threads = dr->loc->arrays[TPROF_READER_THREADS].present;

  *starts = has_starts && n > 0 ? _tprof_malloc_array (n, sizeof **starts) : NULL;
  *threads = has_threads && n > 0 ? _tprof_malloc_array (n, sizeof **threads) : NULL;
  if (n > 0 && ((has_starts && *starts == NULL) || (has_threads && *threads == NULL)))
    return tprof_error_set (dr->error, TPROF_ERROR_NO_MEMORY,
                            "%s: operation '%s': not enough memory for the timeline of %zu samples",
                            dr->pf->path, dr->op, n);
  if ((*starts != NULL && read_member_runs (dr, TPROF_READER_STARTS, runs, n_runs, *starts) < 0)
      || (*threads != NULL && read_member_runs (dr, TPROF_READER_THREADS, runs, n_runs, *threads) < 0))
    return -1;
  return _tprof_h5_check_timeline (dr->pf, dr->op, dr->loc->row, runs, *starts, *threads, n, dr->error);
}

/* TprofH5Reading's callbacks on a DirectRead. */
static int
direct_reading_block (void *source, uint64_t start, uint64_t count, double *times, int32_t *ranks)
{
  return read_block (source, start, count, times, ranks);
}

static int
direct_reading_timeline (void *source, const TprofH5Run *runs, size_t n_runs, size_t n, double **starts,
                         int32_t **threads)
{
  return read_timeline (source, runs, n_runs, n, starts, threads);
}

/* Every array present lies within the file as it is now: else a damaged
 * or truncated file would have us allocate for samples it cannot hold. */
static int
check_extent (DirectRead *dr)
{
  static const char *const names[TPROF_READER_N_ARRAYS] = { "times", "ranks", "starts", "threads" };
  struct stat st;

  if (fstat (dr->fd, &st) < 0)
    return tprof_error_set (dr->error, TPROF_ERROR_IO, "%s: %s", dr->pf->path, strerror (errno));
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS; i++)
    {
      const TprofReaderArray *a = &dr->loc->arrays[i];

      /* get_location() bounded offset and n, so this cannot overflow */
      if (a->present && a->offset + dr->loc->n * a->type.size > (uint64_t) st.st_size)
        return tprof_error_set (dr->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': dataset '%s' runs past the end of the file (truncated?)",
                                dr->pf->path, dr->op, names[i]);
    }
  return 0;
}

/* Format 3, every row of the columns read: each against its checksum,
 * where the values read are the bytes stored (little-endian float64 and
 * int32). 0, or -1 with the error. */
static int
check_crc (DirectRead              *dr,
           const TprofGatheredTime *gt)
{
  size_t n = tprof_gathered_time_count (gt);

  if (!dr->loc->ranks_from_counts || dr->loc->row != 0 || n != dr->loc->n_rows
      || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
    return 0;
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      const TprofColumnInfo *info = &_tprof_columns[c];
      bool floats = info->type == TPROF_COLTYPE_FLOAT64;
      const TprofReaderArray *a = &dr->loc->arrays[c == TPROF_COL_TIMES ? TPROF_READER_TIMES
                                                   : c == TPROF_COL_STARTS ? TPROF_READER_STARTS
                                                   : TPROF_READER_THREADS];
      const void *values = c == TPROF_COL_TIMES ? (const void *) tprof_gathered_time_times (gt)
                           : c == TPROF_COL_STARTS ? (const void *) tprof_gathered_time_starts (gt)
                           : (const void *) tprof_gathered_time_threads (gt);
      uint32_t crc;

      if (!info->per_sample || !a->present || !a->has_crc || values == NULL || a->type.big_endian
          || a->type.kind != (floats ? TPROF_H5_RAW_FLOAT : TPROF_H5_RAW_SIGNED)
          || a->type.size != _tprof_column_value_size (c))
        continue;
      crc = _tprof_crc32c (0, values, n * a->type.size);
      if (crc != a->crc)
        return _tprof_columns_crc_error (dr->pf, info->path, a->crc, crc, dr->error);
    }
  return 0;
}

TprofGatheredTime *
_tprof_reader_read_direct (TprofProfileFile          *pf,
                           size_t                     op_index,
                           int                        fd,
                           const TprofReaderLocation *loc,
                           const int32_t             *ranks,
                           size_t                     n_ranks,
                           TprofProgressFunc          progress,
                           void                      *user_data,
                           const volatile int        *cancel,
                           TprofError                *error)
{
  const TprofH5Operation *op = &pf->ops[op_index];
  DirectRead dr = { pf, op->name, op_index, fd, loc, error };
  TprofH5Reading reading = { pf, op->name, loc->n, progress, user_data, cancel, error, &dr,
                             direct_reading_block, direct_reading_timeline, NULL, 0, 0 };
  TprofGatheredTime *gt;

  if (check_extent (&dr) < 0)
    return NULL;
  if (progress != NULL)
    progress (0.0, user_data);
  gt = _tprof_h5_read_planned (&reading, op, ranks, n_ranks);
  if (gt != NULL && ranks == NULL && check_crc (&dr, gt) < 0)
    {
      tprof_gathered_time_free (gt);
      gt = NULL;
    }
  if (gt != NULL && _tprof_operation_cache_check (pf, op, gt, ranks, n_ranks, error) < 0)
    {
      tprof_gathered_time_free (gt);
      gt = NULL;
    }
  if (gt != NULL && progress != NULL)
    progress (1.0, user_data);
  return gt;
}
