/* tprof-columns-batches.c — tprof_profile_file_read_all(): every operation of a file, format 3's columns read in blocks of many operations, handed over as views of them, checked once against their checksums. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profile-file.h"
#include "tprof-analysis-internal.h"
#include "tprof-crc32c.h"
#include "tprof-h5-reader-private.h"

/* Rows a block holds (24 bytes each with a timeline and the ranks: 6 MiB):
 * enough that a read costs little beside its bytes, few enough to stay in
 * the cache while its ranks are filled. An operation with more rows is
 * read alone, into a block of its size. */
#define TPROF_BATCH_ROWS ((uint64_t) 1 << 18)

/* The sample columns, in the order the blocks hold them. */
static const TprofColumn batch_columns[] = { TPROF_COL_TIMES, TPROF_COL_STARTS, TPROF_COL_THREADS };
#define N_BATCH_COLUMNS (sizeof batch_columns / sizeof batch_columns[0])

/* Rows read from the sample columns, with the ranks their operations'
 * cached counts give them, in one allocation: the operations cut from it
 * are views of it (no copy), and it is freed when the reader and the
 * last of those operations have let go of it. */
typedef struct
{
  int      refs;      /* accessed atomically: views are freed on any thread */
  uint64_t capacity;  /* rows */
  size_t   bytes;     /* allocated, this head included */
  double  *times;
  double  *starts;    /* NULL where the file has no such column */
  int32_t *threads;
  int32_t *ranks;
} RowsBlock;

typedef struct
{
  TprofProfileFile         *pf;
  TprofProfileFileReadFunc  func;
  TprofProfileFileViewFunc  view_func;  /* NULL: every operation to func */
  void                     *user_data;
  TprofError               *error;
  /* per batch column: whether its checksum is checked, the stored one,
   * and the running one over the rows read so far */
  bool                      check[N_BATCH_COLUMNS];
  uint32_t                  stored[N_BATCH_COLUMNS];
  uint32_t                  crc[N_BATCH_COLUMNS];
  /* the block read into: used again while no operation holds it */
  RowsBlock                *block;
  uint64_t                  summed;  /* rows in the running checksums */
} Batches;

static void
rows_block_unref (void *data)
{
  RowsBlock *block = data;

  /* the last reference: the block kept for the next load's, where large */
  if (block != NULL && __atomic_sub_fetch (&block->refs, 1, __ATOMIC_ACQ_REL) == 0)
    _tprof_free_array_paged (block, 1, block->bytes);
}

/* A block of @rows rows of the columns @pf has, or NULL. */
static RowsBlock *
rows_block_new (const TprofProfileFile *pf,
                uint64_t                rows)
{
  size_t head = (sizeof (RowsBlock) + 63) & ~(size_t) 63;
  size_t per_row = sizeof (double) + sizeof (int32_t) + (pf->has_starts ? sizeof (double) : 0)
                   + (pf->has_threads ? sizeof (int32_t) : 0);
  RowsBlock *block;
  size_t bytes;
  char *at;

  if (rows > (SIZE_MAX - head) / per_row
      || (block = _tprof_malloc_array_paged (1, bytes = head + (size_t) rows * per_row, false)) == NULL)
    return NULL;
  at = (char *) block + head;
  *block = (RowsBlock) { .refs = 1, .capacity = rows, .bytes = bytes };
  block->times = (double *) at;
  at += rows * sizeof (double);
  if (pf->has_starts)
    {
      block->starts = (double *) at;
      at += rows * sizeof (double);
    }
  block->ranks = (int32_t *) at;
  at += rows * sizeof (int32_t);
  if (pf->has_threads)
    block->threads = (int32_t *) at;
  return block;
}

/* The reader's block, of at least @rows rows: the one it has when no
 * operation holds it and it is large enough, else a new one. NULL with
 * the error set. */
static RowsBlock *
batches_block_for (Batches  *b,
                   uint64_t  rows)
{
  if (b->block != NULL
      && (b->block->capacity < rows || __atomic_load_n (&b->block->refs, __ATOMIC_ACQUIRE) > 1))
    {
      rows_block_unref (b->block);
      b->block = NULL;
    }
  if (b->block == NULL && (b->block = rows_block_new (b->pf, rows)) == NULL)
    tprof_error_set (b->error, TPROF_ERROR_NO_MEMORY, "%s: not enough memory for %llu rows of %s", b->pf->path,
                     (unsigned long long) rows, _tprof_columns[TPROF_COL_TIMES].path);
  return b->block;
}

/* The rank of each of @op's rows into @ranks: its segments' where this
 * process read them (one run each), else from its cached counts (the
 * isolated reader's client). */
static void
batches_fill_ranks (const TprofProfileFile *pf,
                    const TprofH5Operation *op,
                    int32_t                *ranks)
{
  if (pf->seg_rank == NULL)
    {
      _tprof_h5_ranks_from_counts (op->cache.rank_count, pf->world_size, 0, op->n, ranks);
      return;
    }
  for (int64_t s = op->seg_first; s < op->seg_end; s++)
    {
      int32_t r = pf->seg_rank[s];
      int32_t *end = ranks + (pf->seg_offset[s + 1] - pf->seg_offset[s]);

      /* four at a time: one store of the four, where the compiler
       * leaves a loop of unknown length one value a turn */
      for (; end - ranks >= 4; ranks += 4)
        ranks[0] = ranks[1] = ranks[2] = ranks[3] = r;
      while (ranks < end)
        *ranks++ = r;
    }
}

/* Operation @k's rows, from row @at of @block (read and checked against
 * its cache), with the ranks its cached counts give: a view holding a
 * reference on @block. */
static TprofProfiledView
batches_rows (TprofProfileFile *pf,
              size_t            k,
              RowsBlock        *block,
              uint64_t          at)
{
  const TprofH5Operation *op = &pf->ops[k];
  size_t n = (size_t) op->n;

  if (n > 0)
    batches_fill_ranks (pf, op, block->ranks + at);
  __atomic_add_fetch (&block->refs, 1, __ATOMIC_RELAXED);
  return (TprofProfiledView) {
    .times = block->times + at, .ranks = block->ranks + at,
    .starts = block->starts != NULL ? block->starts + at : NULL,
    .threads = block->threads != NULL ? block->threads + at : NULL,
    .n = n, .release = rows_block_unref, .release_data = block,
  };
}

/* Operation @k, as batches_rows() gives it, as a selection, with what
 * its ranks recorded attached. NULL with @error. */
static TprofGatheredTime *
batches_view (TprofProfileFile *pf,
              size_t            k,
              RowsBlock        *block,
              uint64_t          at,
              TprofError       *error)
{
  const TprofH5Operation *op = &pf->ops[k];
  TprofProfiledView rows = batches_rows (pf, k, block, at);
  TprofGatheredTime *gt = _tprof_gathered_time_new_view (rows.times, rows.ranks, rows.starts, rows.threads, rows.n,
                                                         rows.release, rows.release_data);

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

/* Rows [@row, @row + @n), read into @arrays (NULL where the file has
 * no such column), counted into the running checksums and checked
 * against the values' rules. */
static int
batches_check_values (Batches  *b,
                      uint64_t  row,
                      uint64_t  n,
                      void    **arrays)
{
  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    if (b->check[i])
      b->crc[i] = _tprof_crc32c (b->crc[i], arrays[i], n * _tprof_column_value_size (batch_columns[i]));
  b->summed = row + n;
  return _tprof_columns_check_rows (b->pf, row, n, arrays[0], arrays[1], arrays[2], b->error);
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

/* The batch columns of @block, in batch_columns' order (NULL where the
 * file has none). */
static void
rows_block_arrays (RowsBlock *block,
                   void     **arrays)
{
  arrays[0] = block->times;
  arrays[1] = block->starts;
  arrays[2] = block->threads;
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
  RowsBlock *block;

  for (size_t i = 0; i < N_BATCH_COLUMNS; i++)
    any |= b->check[i];
  if (!any || b->error == NULL || b->error->code != TPROF_ERROR_FORMAT)
    return;
  if (b->summed < n_rows)
    {
      if ((block = batches_block_for (b, batches_block_rows (b->pf))) == NULL)
        return;
      rows_block_arrays (block, arrays);
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

/* Operations [@first, @end), read into @block, handed over as views. */
static int
batches_hand_over (Batches   *b,
                   size_t     first,
                   size_t     end,
                   RowsBlock *block)
{
  uint64_t at = 0;

  for (size_t k = first; k < end; at += b->pf->ops[k].n, k++)
    {
      TprofGatheredTime *gt = NULL;
      TprofProfiledView rows;
      bool go_on;

      if (b->view_func != NULL && !_tprof_operation_cache_sampled (b->pf, &b->pf->ops[k]))
        {
          rows = batches_rows (b->pf, k, block, at);
          go_on = b->view_func (k, &rows, b->user_data, b->error);
        }
      else if ((gt = batches_view (b->pf, k, block, at, b->error)) == NULL)
        return -1;
      else
        go_on = b->func (k, gt, b->user_data, b->error);
      if (!go_on)
        {
          if (b->error != NULL && b->error->code == 0)
            tprof_error_set (b->error, TPROF_ERROR_CANCELLED, "%s: cancelled", b->pf->path);
          return -1;
        }
    }
  return 0;
}

/* Operations [@first, @end), read into @block, handed over while
 * @share checks them against their caches (@result: the values' check
 * before): where the callbacks are the views' (a load's own, into a
 * profile that a refusal frees), during the check, which they leave
 * alone; else after it. A refusal of the values or of a cache comes
 * before any failure of the hand-over, as where checked first. */
static int
batches_hand_over_checking (Batches                *b,
                            size_t                  first,
                            size_t                  end,
                            RowsBlock              *block,
                            TprofColumnsCheckShare *share,
                            int                     result)
{
  TprofError *error = b->error, handing = { 0 };
  int handed = 0;

  if (result == 0 && b->view_func != NULL)
    {
      b->error = &handing;
      handed = batches_hand_over (b, first, end, block);
      b->error = error;
    }
  if (_tprof_columns_check_share_finish (share, result, error) < 0)
    return -1;
  if (b->view_func == NULL)
    return batches_hand_over (b, first, end, block);
  if (handed < 0 && error != NULL)
    *error = handing;
  return handed;
}

/* One block: operations [@first, @end), @n rows from @row (an operation
 * of more rows than a block holds alone, in a block of its size), read,
 * checked (values, then the operations' caches, all at once: a large
 * block's with a thread on another processor, which starts on them
 * while the values are checked) and handed over. */
static int
batches_block (Batches  *b,
               size_t    first,
               size_t    end,
               uint64_t  row,
               uint64_t  n)
{
  RowsBlock *block = batches_block_for (b, n > TPROF_BATCH_ROWS ? n : batches_block_rows (b->pf));
  void *arrays[N_BATCH_COLUMNS];
  TprofColumnsCheckShare share;
  bool shared;
  int result;

  if (block == NULL)
    return -1;
  rows_block_arrays (block, arrays);
  /* the thread, started first, is running when the rows are read; it
   * checks the times alone, read first, while the others are read */
  shared = _tprof_columns_check_share_start (&share, b->pf, first, end, arrays[0]);
  result = b->pf->source->read_rows (b->pf, first, end, row, n, arrays[0], shared ? NULL : arrays[1],
                                     shared ? NULL : arrays[2], b->error);
  if (shared)
    {
      _tprof_columns_check_share_rows_read (&share, result == 0);
      if (result == 0 && (arrays[1] != NULL || arrays[2] != NULL))
        result = b->pf->source->read_rows (b->pf, end, end, row, n, NULL, arrays[1], arrays[2], b->error);
    }
  if (result != 0)
    return shared ? _tprof_columns_check_share_finish (&share, -1, b->error) : -1;
  result = batches_check_values (b, row, n, arrays);
  if (shared)
    return batches_hand_over_checking (b, first, end, block, &share, result);
  if (result < 0 || _tprof_columns_check_block (b->pf, first, end, arrays[0], b->error) < 0)
    return -1;
  return batches_hand_over (b, first, end, block);
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
                                 TprofProfileFileViewFunc  view_func,
                                 void                     *user_data,
                                 TprofError               *error)
{
  Batches b = { .pf = pf, .func = func, .view_func = view_func, .user_data = user_data, .error = error };
  int result;

  if (pf->format_version < 3 || pf->source->read_rows == NULL)
    return 1;
  result = pf->source->read_rows (pf, 0, 0, 0, 0, NULL, NULL, NULL, error);
  if (result == 0)
    result = batches_init (&b);
  if (result == 0)
    result = batches_run (&b);
  rows_block_unref (b.block);
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
    result = tprof_profile_file_read_columns (file, func, NULL, user_data, error);
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

int
_tprof_profile_file_read_views (TprofProfileFile         *pf,
                                TprofProfileFileReadFunc  func,
                                TprofProfileFileViewFunc  view_func,
                                void                     *user_data,
                                TprofError               *error)
{
  int result;

  tprof_error_clear (error);
  result = tprof_profile_file_read_columns (pf, func, view_func, user_data, error);
  /* read an operation at a time: the caches the open left to the
   * columns' pass are checked first, as an open checks them */
  for (size_t k = 0; result > 0 && pf->defer_cache && pf->format_version >= 3 && k < pf->n_ops; k++)
    if (_tprof_operation_cache_validate (pf, &pf->ops[k], error) < 0)
      return -1;
  if (result > 0)
    return tprof_profile_file_read_all (pf, NULL, 0, func, user_data, error);
  return result < 0 ? -1 : 0;
}
