/* tprof-profiled-time-save.c — tprof_profiled_time_save(): a reserved temporary file, format 3's columns (HDF5's metadata, our bytes), then a rename. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-writer-private.h"

/* A name in the file: its heap id in the column (16 bytes), its global
 * heap object's header (16) and a short name; the names' exact room is
 * reserved before they are written (_tprof_columns_layout_bytes()). */
#define SAVE_NAME_ESTIMATE 48

uint64_t
_tprof_save_operation_segments (size_t n,
                                int    world_size)
{
  /* a segment per rank at most, and no more than samples (an empty
   * operation still has its row) */
  return n < (size_t) world_size ? (n > 0 ? n : 1) : (uint64_t) world_size;
}

uint64_t
_tprof_save_operations_estimate (uint64_t k,
                                 uint64_t segments,
                                 uint64_t samples,
                                 uint64_t timeline_samples)
{
  uint64_t bytes, add;

  if (__builtin_mul_overflow (k, (uint64_t) SAVE_NAME_ESTIMATE, &bytes))
    return UINT64_MAX;
  /* what the operations add to each column, from the format's table:
   * every length is linear in k, segments and samples, so the sum over
   * operations is the length of their totals (a column per call, not per
   * operation) */
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      const TprofColumnInfo *info = &_tprof_columns[c];
      uint64_t n = info->per_sample && !info->required ? timeline_samples : samples;

      if (info->type == TPROF_COLTYPE_STRING)
        continue;
      if (__builtin_mul_overflow (_tprof_column_length (c, k, segments, n) - _tprof_column_length (c, 0, 0, 0),
                                  (uint64_t) _tprof_column_value_size (c), &add)
          || __builtin_add_overflow (bytes, add, &bytes))
        return UINT64_MAX;
    }
  return bytes;
}

/* Roughly the size of @pt's operations (see _tprof_save_start()). */
static uint64_t
tprof_profiled_time_operations_estimate (const TprofProfiledTime *pt)
{
  uint64_t segments = 0, samples = 0, timeline_samples = 0;
  size_t k = tprof_profiled_time_len (pt);

  for (size_t op = 0; op < k; op++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, op);
      size_t n = tprof_gathered_time_count (gt);

      segments += _tprof_save_operation_segments (n, tprof_profiled_time_world_size (pt));
      samples += n;
      if (tprof_gathered_time_starts (gt) != NULL)
        timeline_samples += n;
    }
  return _tprof_save_operations_estimate (k, segments, samples, timeline_samples);
}

int
_tprof_save_start (const TprofProfiledTime *pt,
                   TprofSaveFile           *out,
                   uint64_t                 operations,
                   TprofError              *error)
{
  /* what creating the file takes, the operations and the margins the
   * writer keeps, so that its reservations fall within this one */
  uint64_t estimate;

  if (__builtin_add_overflow (_tprof_profile_writer_root_bound (pt) + TPROF_H5_WRITER_MARGIN, operations, &estimate)
      || estimate > (uint64_t) INT64_MAX)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: the file would be too large", out->path);
  return _tprof_save_file_reserve (out, (off_t) estimate, error);
}

/* Per-rank arrays up to this size are zeroed on huge pages; larger ones
 * (many ranks) come zeroed from calloc(), whose untouched pages cost
 * nothing (a rank without samples leaves most of its values alone). */
#define SAVE_RANK_BLOCK_PAGED ((size_t) 64 << 20)

/* The blocks of @so for @k_ops operations of @world_size ranks. false
 * when memory is exhausted; without the per-rank block (too large) each
 * cache allocates its own arrays. */
static bool
save_operations_alloc (TprofSaveOperations *so,
                       size_t               k_ops,
                       int                  world_size)
{
  size_t n = k_ops + 1;
  /* each size is a multiple of 8: each array stays aligned */
  size_t parts = n * sizeof *so->parts, caches = n * sizeof *so->caches, copies = n * sizeof *so->copies;
  size_t per_op = (size_t) world_size * TPROF_CACHED_STATS_ARRAYS, ranks;
  char *block;

  if (n > SIZE_MAX / (sizeof *so->parts + sizeof *so->caches + sizeof *so->copies))
    return false;
  /* not zeroed here: each part and copy is set before it is read, and
   * each cache is zeroed by the statistics' thread (tprof-save-helper.c) */
  block = _tprof_malloc_array_paged (parts + caches + copies, 1, false);
  if (block == NULL)
    return false;
  /* the caches last: the helper, which alone writes them, then faults
   * in the pages past the parts and copies, not the writing thread */
  so->block = block;
  so->block_bytes = parts + caches + copies;
  so->parts = (TprofOperationParts *) block;
  so->copies = (TprofGatheredTime **) (block + parts);
  so->caches = (TprofCachedStats *) (block + parts + copies);
  if (per_op > 0 && !__builtin_mul_overflow (k_ops, per_op * sizeof (int64_t), &ranks) && ranks > 0)
    {
      so->rank_bytes = ranks <= SAVE_RANK_BLOCK_PAGED ? ranks : 0;
      so->rank_block = so->rank_bytes > 0 ? _tprof_malloc_array_paged (ranks, 1, true) : calloc (ranks, 1);
    }
  return true;
}

static void
save_operations_clear (TprofSaveOperations *so)
{
  for (size_t k = 0; k < so->n; k++)
    tprof_gathered_time_free (so->copies[k]);
  for (size_t k = 0; k < so->n_cached; k++)
    _tprof_cached_stats_clear (&so->caches[k]);
  for (size_t k = so->from_cached; k < so->n; k++)
    _tprof_cached_stats_clear (&so->caches[k]);
  /* their pages kept for the next save's, where large */
  _tprof_free_array_paged (so->rank_block, so->rank_bytes, 1);
  _tprof_free_array_paged (so->block, so->block_bytes, 1);
}

/* Groups each operation by rank, handing each over to @helper, which
 * checks it. */
static int
save_prepare (TprofProfileWriter      *w,
              const TprofProfiledTime *pt,
              TprofSaveOperations     *so,
              TprofSaveHelper         *helper,
              TprofError              *error)
{
  size_t k_ops = tprof_profiled_time_len (pt);

  for (; so->n < k_ops; _tprof_save_helper_prepared (helper, ++so->n))
    {
      size_t k = so->n;
      const char *name = tprof_profiled_time_name (pt, k);
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, k);
      const TprofRankRecorded *recorded = NULL;

      if ((gt = _tprof_operation_writer_grouped (w, name, gt, &so->copies[k], error)) == NULL)
        return -1;
      so->parts[k] = (TprofOperationParts) {
        .name = name,
        .n = tprof_gathered_time_count (gt),
        .timeline = tprof_gathered_time_starts (gt) != NULL,
        .data = { tprof_gathered_time_times (gt), tprof_gathered_time_ranks (gt),
                  tprof_gathered_time_starts (gt), tprof_gathered_time_threads (gt) },
      };
      if (tprof_gathered_time_is_sampled (gt))
        so->parts[k].n_recorded = tprof_gathered_time_recorded (gt, &recorded);
      so->parts[k].recorded = recorded;
    }
  return 0;
}

/* The columns: their layout, HDF5's objects and the names on this
 * thread, the statistics (and in an image the samples) on the helper's;
 * then the tables, which cache those statistics, and the checksums. */
static int
save_columns (TprofProfileWriter  *w,
              TprofSaveOperations *so,
              TprofSaveHelper     *helper,
              TprofColumnsLayout  *l,
              TprofError          *error)
{
  static const TprofColumn sample_columns[] = { TPROF_COL_TIMES, TPROF_COL_STARTS, TPROF_COL_THREADS };
  int result;

  result = _tprof_columns_layout_init (l, so->parts, so->n, w->world_size, w->path, error);
  /* the helper takes the samples, in an image: the names' checksum too */
  l->names_crc_later = helper->threaded && w->out->image != NULL;
  /* the samples are written from the operations' arrays, not by ranks
   * at their rows' offsets */
  l->no_room_offsets = true;
  if (result == 0)
    result = _tprof_columns_writer_create (w, l, error);
  if (result == 0)
    result = _tprof_save_helper_samples (helper, w, l, error);
  if (result == 0)
    result = _tprof_save_helper_statistics (helper, error);
  if (result == 0)
    helper->checked = true;
  for (size_t k = 0; result == 0 && k < so->n; k++)
    so->parts[k].cache = &so->caches[k];
  /* the tables' values, beside the helper's samples: no HDF5 there */
  if (result == 0)
    result = _tprof_columns_writer_tables (w, l, error);
  if (_tprof_save_helper_join (helper, w->out, result == 0 ? error : NULL) < 0)
    result = -1;
  /* in an image, the tables on their way to the disk while HDF5 closes */
  if (result == 0 && l->names_crc_later)
    result = _tprof_columns_writer_tables_out (w, l, error);
  if (result == 0)
    result = _tprof_columns_writer_table_checksums (w, l, error);
  for (size_t i = 0; result == 0 && i < sizeof sample_columns / sizeof sample_columns[0]; i++)
    if (l->present[sample_columns[i]])
      result = _tprof_columns_writer_checksum (w, l, sample_columns[i], error);
  return result;
}

/* HDF5 adds the columns and the host names; @size is the file's end. */
static int
tprof_profiled_time_save_body (const TprofProfiledTime *pt,
                               TprofSaveFile           *out,
                               off_t                   *size,
                               TprofError              *error)
{
  TprofProfileWriter w;
  TprofH5Guard guard;
  TprofSaveOperations so = { 0 };
  TprofSaveHelper helper;
  TprofColumnsLayout l = { 0 };
  size_t checks = 0;
  int result;

  if (!save_operations_alloc (&so, tprof_profiled_time_len (pt), tprof_profiled_time_world_size (pt)))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", out->path);
  /* the helper starts at once: the image's pages while HDF5 creates the
   * file, each operation's statistics as soon as it is prepared */
  _tprof_save_helper_start (&helper, pt, &so, out);
  _tprof_h5_enter (&guard);
  result = _tprof_profile_writer_create (&w, pt, out->path, out, error);
  if (result == 0 && (result = save_prepare (&w, pt, &so, &helper, error)) < 0)
    checks = so.n + 1;  /* the operation that failed was checked first */
  if (result == 0)
    checks = tprof_profiled_time_len (pt);
  if (result == 0)
    result = save_columns (&w, &so, &helper, &l, error);
  if (_tprof_save_helper_join (&helper, out, result == 0 ? error : NULL) < 0)
    result = -1;
  /* the helper checks the operations: a refusal among those that were to
   * be checked before this failure comes first, as it would have */
  if (result < 0 && !helper.checked)
    _tprof_save_helper_recheck (&helper, checks, error);
  if (result == 0)
    result = _tprof_profile_writer_add_ranks (&w, pt, error);
  _tprof_columns_writer_close (&l);
  if (w.file >= 0 && _tprof_profile_writer_close (&w, size, error) < 0)
    result = -1;
  _tprof_h5_leave (&guard);
  /* the names' heap after HDF5's end, in an image */
  if (result == 0)
    result = _tprof_names_heap_write (out, &l, &helper.names, size, error);
  _tprof_names_heap_clear (&helper.names);
  _tprof_columns_layout_clear (&l);
  save_operations_clear (&so);
  return result;
}

int
tprof_profiled_time_save (const TprofProfiledTime *pt,
                          const char              *path,
                          TprofError              *error)
{
  TprofSaveFile out;
  off_t size = 0;
  uint64_t operations;

  tprof_error_clear (error);
  if (pt == NULL || path == NULL || path[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profiled_time_save: %s",
                            pt == NULL ? "the profile is NULL" : "the path is empty");

  /* the temporary file first: an unwritable place fails before any work */
  if (_tprof_save_file_create (&out, path, error) < 0)
    return -1;
  operations = tprof_profiled_time_operations_estimate (pt);
  if (operations <= TPROF_SAVE_IMAGE_MAX)
    _tprof_save_image_start (&out);
  if (_tprof_save_start (pt, &out, operations, error) < 0 ||
      tprof_profiled_time_save_body (pt, &out, &size, error) < 0)
    {
      _tprof_save_file_abandon (&out);
      return -1;
    }
  return _tprof_save_file_commit (&out, size, error);
}
