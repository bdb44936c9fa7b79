/* tprof-reader-columns.c — format 3 in the isolated reader's client: once the helper said where the columns lie, every operation's rows are found here, with no round trip. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tprof-reader-private.h"

void
_tprof_reader_columns_clear (TprofReaderColumns *cols)
{
  free (cols->rows);
  memset (cols, 0, sizeof *cols);
}

void
_tprof_reader_columns_learn (TprofReaderColumns        *cols,
                             const TprofProfileFile    *file,
                             size_t                     op,
                             const TprofReaderLocation *loc)
{
  uint64_t row = 0;

  if (cols->known || !loc->direct || !loc->ranks_from_counts || file->format_version < 3)
    return;
  cols->rows = malloc ((file->n_ops + 1) * sizeof *cols->rows);
  if (cols->rows == NULL)
    return;
  /* the operations' rows tile the columns in order: the open checked it */
  for (size_t k = 0; k < file->n_ops; k++)
    {
      cols->rows[k] = row;
      row += file->ops[k].n;
    }
  cols->rows[file->n_ops] = row;
  if (row != loc->n_rows || cols->rows[op] != loc->row)
    {
      _tprof_reader_columns_clear (cols);
      return;
    }
  cols->columns = *loc;
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS; i++)
    cols->columns.arrays[i].offset -= loc->row * loc->arrays[i].type.size;
  cols->known = true;
}

/* @op's cache rebuilt from the statistics the helper sent at open, which it
 * made from that very cache: what the read checks the samples against. */
static bool
columns_cache_from_stats (TprofProfileFile *file,
                          TprofH5Operation *op)
{
  TprofOperationCache *c = &op->cache;
  const TprofH5OperationStats *os = _tprof_h5_operation_stats (file, op);
  const TprofOperationStats *st = &os->stats;
  const TprofSummary *s = &st->summary;

  if (c->rank_count != NULL)
    return true;
  if (!os->stats_ready || !os->cached || st->rank_count == NULL || st->rank_sum == NULL || st->rank_min == NULL
      || st->rank_max == NULL)
    return false;
  _tprof_operation_cache_clear (c);
  c->has_count = true;
  c->count = (int64_t) s->count;
  c->floats[TPROF_CACHE_SUM] = s->sum;
  c->floats[TPROF_CACHE_MEAN] = s->mean;
  c->floats[TPROF_CACHE_STD] = s->std;
  c->floats[TPROF_CACHE_MIN] = s->min;
  c->floats[TPROF_CACHE_MAX] = s->max;
  c->floats[TPROF_CACHE_MEDIAN] = s->median;
  c->floats[TPROF_CACHE_P95] = s->p95;
  c->floats[TPROF_CACHE_P99] = s->p99;
  c->floats_present = (1u << TPROF_CACHE_N_FLOATS) - 1;
  /* the statistics' arrays, which live as long as the file: borrowed */
  c->borrowed = true;
  c->rank_count = (int64_t *) st->rank_count;
  c->rank_sum = (double *) st->rank_sum;
  c->rank_min = (double *) st->rank_min;
  c->rank_max = (double *) st->rank_max;
  c->rank_recorded = (int64_t *) st->rank_recorded;
  return true;
}

bool
_tprof_reader_columns_locate (const TprofReaderColumns *cols,
                              TprofProfileFile         *file,
                              size_t                    op,
                              TprofReaderLocation      *loc)
{
  if (!cols->known || op >= file->n_ops || !columns_cache_from_stats (file, &file->ops[op]))
    return false;
  *loc = cols->columns;
  loc->n = file->ops[op].n;
  loc->row = cols->rows[op];
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS; i++)
    loc->arrays[i].offset += loc->row * loc->arrays[i].type.size;
  return true;
}

/* The reader's array that holds sample column @c. */
static TprofReaderArrayId
columns_array_of (int c)
{
  return c == TPROF_COL_TIMES ? TPROF_READER_TIMES : c == TPROF_COL_STARTS ? TPROF_READER_STARTS
         : TPROF_READER_THREADS;
}

/* Every array present lies within the file as it is now. */
static int
columns_check_extent (const TprofReaderColumns *cols,
                      const TprofProfileFile   *file,
                      int                       fd,
                      TprofError               *error)
{
  struct stat st;

  if (fstat (fd, &st) < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", file->path, strerror (errno));
  for (int c = TPROF_COL_TIMES; c <= TPROF_COL_THREADS; c++)
    {
      const TprofReaderArray *a = &cols->columns.arrays[columns_array_of (c)];

      /* get_location() bounded offset and n_rows: no overflow */
      if (a->present && a->offset + cols->columns.n_rows * a->type.size > (uint64_t) st.st_size)
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s: runs past the end of the file (truncated?)",
                                file->path, _tprof_columns[c].path);
    }
  return 0;
}

int
_tprof_reader_columns_read (const TprofReaderColumns *cols,
                            TprofProfileFile         *file,
                            int                       fd,
                            size_t                    first_op,
                            size_t                    end_op,
                            uint64_t                  row,
                            uint64_t                  count,
                            double                   *times,
                            double                   *starts,
                            int32_t                  *threads,
                            TprofError               *error)
{
  void *out[] = { times, starts, threads };

  if (count == 0 && first_op == end_op)
    {
      /* what the file holds, as the helper found it */
      file->has_starts = cols->columns.arrays[TPROF_READER_STARTS].present;
      file->has_threads = cols->columns.arrays[TPROF_READER_THREADS].present;
      file->n_samples = cols->columns.n_rows;
      return columns_check_extent (cols, file, fd, error);
    }
  for (size_t k = first_op; k < end_op; k++)
    if (!columns_cache_from_stats (file, &file->ops[k]))
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation '%s'",
                              file->path, file->ops[k].name);
  for (int c = TPROF_COL_TIMES; count > 0 && c <= TPROF_COL_THREADS; c++)
    {
      const TprofReaderArray *a = &cols->columns.arrays[columns_array_of (c)];
      void *values = out[c - TPROF_COL_TIMES];
      int status;

      if (values == NULL || !a->present)
        continue;
      status = _tprof_h5_pread_values (fd, (off_t) (a->offset + row * a->type.size), a->type, (size_t) count, values,
                                       c != TPROF_COL_THREADS);
      if (status == -1)
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s: runs past the end of the file (truncated?)",
                                file->path, _tprof_columns[c].path);
      if (status != 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s: cannot read: %s", file->path,
                                _tprof_columns[c].path, strerror (status));
    }
  return 0;
}

int
_tprof_reader_columns_crc (const TprofReaderColumns *cols,
                           int                       c,
                           uint32_t                 *crc)
{
  const TprofReaderArray *a = &cols->columns.arrays[columns_array_of (c)];
  bool floats = _tprof_columns[c].type == TPROF_COLTYPE_FLOAT64;

  if (!a->present || !a->has_crc || a->type.big_endian || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
      || a->type.kind != (floats ? TPROF_H5_RAW_FLOAT : TPROF_H5_RAW_SIGNED)
      || a->type.size != _tprof_column_value_size (c))
    return 0;
  *crc = a->crc;
  return 1;
}
