/* tprof-columns-batches.c — tprof_profile_file_read_all(): every operation of a file, format 3's columns read in blocks of many operations and checked once against their checksums. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profile-file.h"
#include "tprof-analysis-internal.h"
#include "tprof-crc32c.h"
#include "tprof-h5-reader-private.h"

/* Rows a block holds (20 bytes each with a timeline: 5 MiB): enough that
 * a read costs little beside its bytes, few enough to stay in the cache
 * while the operations are cut out of it. An operation with more rows is
 * read alone, straight into its own arrays. */
#define TPROF_BATCH_ROWS ((uint64_t) 1 << 18)

/* The sample columns, in the order the blocks hold them. */
static const TprofColumn batch_columns[] = { TPROF_COL_TIMES, TPROF_COL_STARTS, TPROF_COL_THREADS };
#define N_BATCH_COLUMNS (sizeof batch_columns / sizeof batch_columns[0])

typedef struct
{
  TprofProfileFile         *pf;
  TprofProfileFileReadFunc  func;
  void                     *user_data;
  TprofError               *error;
  /* per batch column: whether its checksum is checked, the stored one,
   * and the running one over the rows read so far */
  bool                      check[N_BATCH_COLUMNS];
  uint32_t                  stored[N_BATCH_COLUMNS];
  uint32_t                  crc[N_BATCH_COLUMNS];
  /* the block, allocated once, at most TPROF_BATCH_ROWS */
  void                     *block[N_BATCH_COLUMNS];
  uint64_t                  summed;  /* rows in the running checksums */
} Batches;

static void *
batch_array (size_t n,
             size_t size)
{
  return _tprof_malloc_array (n > 0 ? n : 1, size);
}

/* A copy of operation @op's rows, in one allocation: times and ranks,
 * and starts and threads where the file has both. */
static TprofGatheredTime *
columns_copy_inline (const TprofProfileFile *pf,
                     const TprofH5Operation *op,
                     const double           *times,
                     const double           *starts,
                     const int32_t          *threads)
{
  size_t n = (size_t) op->n;
  double *t, *s;
  int32_t *r, *th;
  TprofGatheredTime *gt = _tprof_gathered_time_new_inline (n, starts != NULL, &t, &r, &s, &th);

  if (gt == NULL || n == 0)
    return gt;
  memcpy (t, times, n * sizeof *t);
  if (s != NULL)
    {
      memcpy (s, starts, n * sizeof *s);
      memcpy (th, threads, n * sizeof *th);
    }
  _tprof_h5_ranks_from_counts (op->cache.rank_count, pf->world_size, 0, n, r);
  return gt;
}

/* Operation @op's rows in arrays of their own, or taken when @take. */
static TprofGatheredTime *
columns_copy_arrays (const TprofProfileFile *pf,
                     const TprofH5Operation *op,
                     const double           *times,
                     const double           *starts,
                     const int32_t          *threads,
                     bool                    take)
{
  size_t n = (size_t) op->n;
  double *t = take ? (double *) times : batch_array (n, sizeof *t);
  double *s = starts == NULL ? NULL : take ? (double *) starts : batch_array (n, sizeof *s);
  int32_t *th = threads == NULL ? NULL : take ? (int32_t *) threads : batch_array (n, sizeof *th);
  int32_t *r = batch_array (n, sizeof *r);
  TprofGatheredTime *gt = NULL;

  if (t != NULL && r != NULL && (starts == NULL || s != NULL) && (threads == NULL || th != NULL))
    {
      if (!take)
        {
          memcpy (t, times, n * sizeof *t);
          if (s != NULL)
            memcpy (s, starts, n * sizeof *s);
          if (th != NULL)
            memcpy (th, threads, n * sizeof *th);
        }
      if (n > 0)
        _tprof_h5_ranks_from_counts (op->cache.rank_count, pf->world_size, 0, n, r);
      gt = tprof_gathered_time_new_take (t, r, n);
      t = NULL;
      r = NULL;
    }
  if (gt != NULL && (s != NULL || th != NULL) && tprof_gathered_time_set_timeline_take (gt, s, th))
    s = NULL, th = NULL;
  free (t);
  free (r);
  free (s);
  free (th);
  return gt;
}

TprofGatheredTime *
_tprof_columns_cut (TprofProfileFile *pf,
                    size_t            k,
                    const double     *times,
                    const double     *starts,
                    const int32_t    *threads,
                    bool             *own,
                    TprofError       *error)
{
  const TprofH5Operation *op = &pf->ops[k];
  bool take = *own;
  TprofGatheredTime *gt;

  *own = false;
  if (!take && (starts == NULL) == (threads == NULL))
    gt = columns_copy_inline (pf, op, times, starts, threads);
  else
    gt = columns_copy_arrays (pf, op, times, starts, threads, take);
  if (gt == NULL)
    tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation '%s'", pf->path, op->name);
  else if (!_tprof_operation_cache_attach_recorded (pf, op, gt, NULL, 0))
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
      tprof_gathered_time_free (gt);
      gt = NULL;
    }
  return gt;
}

/* The rows a block holds: TPROF_BATCH_ROWS, or fewer for a small file. */
static uint64_t
batches_block_rows (const TprofProfileFile *pf)
{
  return pf->n_samples < TPROF_BATCH_ROWS ? pf->n_samples : TPROF_BATCH_ROWS;
}

/* Which columns the file has (times always), and their checksums. */
static int
batches_init (Batches *b)
{
  const bool present[N_BATCH_COLUMNS] = { true, b->pf->has_starts, b->pf->has_threads };

  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    {
      int got = present[i] ? b->pf->source->column_crc (b->pf, batch_columns[i], &b->stored[i], b->error) : 0;

      if (got < 0)
        return -1;
      b->check[i] = got > 0;
    }
  return 0;
}

/* Rows [@row, @row + @n) read into @arrays (NULL where the file has no
 * such column) for operations [@first, @end), checked (values, then the
 * operations' caches, all at once), and counted into the running
 * checksums. */
static int
batches_read (Batches  *b,
              size_t    first,
              size_t    end,
              uint64_t  row,
              uint64_t  n,
              void    **arrays)
{
  if (b->pf->source->read_rows (b->pf, first, end, row, n, arrays[0], arrays[1], arrays[2], b->error) != 0)
    return -1;
  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    if (b->check[i])
      b->crc[i] = _tprof_crc32c (b->crc[i], arrays[i], n * _tprof_column_value_size (batch_columns[i]));
  b->summed = row + n;
  if (_tprof_columns_check_rows (b->pf, row, n, arrays[0], arrays[1], arrays[2], b->error) < 0)
    return -1;
  return _tprof_columns_check_block (b->pf, first, end, arrays[0], b->error);
}

/* The checksums against those stored: 0, or -1 naming the first column
 * whose bytes differ. */
static int
batches_check_crc (Batches *b)
{
  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    if (b->check[i] && b->crc[i] != b->stored[i])
      return _tprof_columns_crc_error (b->pf, _tprof_columns[batch_columns[i]].path, b->stored[i], b->crc[i],
                                       b->error);
  return 0;
}

/* A value or a cache refused: when the rows not read yet make a checksum
 * differ, the damage is the column's, and the error says so. */
static void
batches_blame_crc (Batches *b)
{
  uint64_t n_rows = b->pf->n_samples;
  TprofError ignored = { 0 };
  void *arrays[N_BATCH_COLUMNS] = { NULL };
  bool any = false;

  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    any |= b->check[i];
  if (!any || b->error == NULL || b->error->code != TPROF_ERROR_FORMAT)
    return;
  /* times is always read; the other columns where checked */
  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    if (i == 0 || b->check[i])
      {
        if (b->block[i] == NULL)
          b->block[i] = batch_array ((size_t) batches_block_rows (b->pf), _tprof_column_value_size (batch_columns[i]));
        if ((arrays[i] = b->block[i]) == NULL)
          return;
      }
  for (uint64_t row = b->summed; row < n_rows; row += TPROF_BATCH_ROWS)
    {
      uint64_t n = n_rows - row < TPROF_BATCH_ROWS ? n_rows - row : TPROF_BATCH_ROWS;

      if (b->pf->source->read_rows (b->pf, b->pf->n_ops, b->pf->n_ops, row, n, arrays[0], arrays[1], arrays[2],
                                    &ignored) != 0)
        return;
      for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
        if (b->check[i])
          b->crc[i] = _tprof_crc32c (b->crc[i], arrays[i], n * _tprof_column_value_size (batch_columns[i]));
    }
  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    if (b->check[i] && b->crc[i] != b->stored[i])
      {
        tprof_error_clear (b->error);
        batches_check_crc (b);
        return;
      }
}

/* Operations [@first, @end) cut out of @arrays (taken with @own: one
 * operation read alone) and handed over. */
static int
batches_hand_over (Batches  *b,
                   size_t    first,
                   size_t    end,
                   void    **arrays,
                   bool      own)
{
  uint64_t at = 0;

  for (size_t k = first; k < end; at += b->pf->ops[k].n, k++)
    {
      const double *s = arrays[1] != NULL ? (const double *) arrays[1] + at : NULL;
      const int32_t *th = arrays[2] != NULL ? (const int32_t *) arrays[2] + at : NULL;
      TprofGatheredTime *gt = _tprof_columns_cut (b->pf, k, (const double *) arrays[0] + at, s, th, &own,
                                                  b->error);

      if (gt == NULL)
        return -1;
      if (!b->func (k, gt, b->user_data, b->error))
        {
          if (b->error != NULL && b->error->code == 0)
            tprof_error_set (b->error, TPROF_ERROR_CANCELLED, "%s: cancelled", b->pf->path);
          return -1;
        }
    }
  return 0;
}

/* One block: operations [@first, @end), @n rows from @row; an operation
 * of more rows than a block holds is read into arrays of its own. */
static int
batches_block (Batches  *b,
               size_t    first,
               size_t    end,
               uint64_t  row,
               uint64_t  n)
{
  const bool present[N_BATCH_COLUMNS] = { true, b->pf->has_starts, b->pf->has_threads };
  bool own = n > TPROF_BATCH_ROWS;
  void *arrays[N_BATCH_COLUMNS] = { NULL };
  int result = 0;

  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    if (present[i])
      {
        size_t size = _tprof_column_value_size (batch_columns[i]);

        if (!own && b->block[i] == NULL)
          b->block[i] = batch_array ((size_t) batches_block_rows (b->pf), size);
        arrays[i] = own ? batch_array ((size_t) n, size) : b->block[i];
        if (arrays[i] == NULL)
          result = tprof_error_set (b->error, TPROF_ERROR_NO_MEMORY, "%s: not enough memory for %s",
                                    b->pf->path, _tprof_columns[batch_columns[i]].path);
      }
  if (result == 0)
    result = batches_read (b, first, end, row, n, arrays);
  if (result == 0)
    {
      result = batches_hand_over (b, first, end, arrays, own);
      own = false;  /* taken, or freed on failure */
    }
  for (size_t i = 0; own && i < N_BATCH_COLUMNS; i++)
    free (arrays[i]);
  return result;
}

/* Every operation, block by block, then the checksums. */
static int
batches_run (Batches *b)
{
  TprofProfileFile *pf = b->pf;
  /* the operations' rows tile the columns in order: the open checked it */
  uint64_t row = 0;
  size_t k = 0;

  while (k < pf->n_ops)
    {
      size_t end = k + 1;
      uint64_t rows = pf->ops[k].n;

      while (end < pf->n_ops && rows + pf->ops[end].n <= TPROF_BATCH_ROWS)
        rows += pf->ops[end++].n;
      if (batches_block (b, k, end, row, rows) < 0)
        {
          batches_blame_crc (b);
          return -1;
        }
      row += rows;
      k = end;
    }
  return batches_check_crc (b);
}

/* Format 3 in blocks, where the source can: 1 when it cannot. */
static int
tprof_profile_file_read_columns (TprofProfileFile         *pf,
                                 TprofProfileFileReadFunc  func,
                                 void                     *user_data,
                                 TprofError               *error)
{
  Batches b = { .pf = pf, .func = func, .user_data = user_data, .error = error };
  int result;

  if (pf->format_version < 3 || pf->source->read_rows == NULL)
    return 1;
  result = pf->source->read_rows (pf, 0, 0, 0, 0, NULL, NULL, NULL, error);
  if (result == 0)
    result = batches_init (&b);
  if (result == 0)
    result = batches_run (&b);
  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    free (b.block[i]);
  return result;
}

int
tprof_profile_file_read_all (TprofProfileFile         *file,
                             const int32_t            *ranks,
                             size_t                    n_ranks,
                             TprofProfileFileReadFunc  func,
                             void                     *user_data,
                             TprofError               *error)
{
  int result = 1;

  tprof_error_clear (error);
  if (file == NULL || func == NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profile_file_read_all: %s is NULL",
                            file == NULL ? "the file" : "the callback");
  if (ranks == NULL)
    result = tprof_profile_file_read_columns (file, func, user_data, error);
  for (size_t op = 0; result > 0 && op < file->n_ops; op++)
    {
      TprofGatheredTime *gt = tprof_profile_file_read_operation (file, op, ranks, n_ranks, NULL, NULL, NULL, error);

      if (gt == NULL)
        return -1;
      if (!func (op, gt, user_data, error))
        {
          if (error != NULL && error->code == 0)
            tprof_error_set (error, TPROF_ERROR_CANCELLED, "%s: cancelled", file->path);
          return -1;
        }
    }
  return result < 0 ? -1 : 0;
}
