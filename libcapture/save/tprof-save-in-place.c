/* tprof-save-in-place.c — a save whose sample rows its producer writes at their final offsets as it reads them, their statistics then computed from the file. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprof-crc32c.h"
#include "tprof-h5-writer-private.h"
#include "tprof-save-in-place-internal.h"

/* The sample columns, each with its field of an operation's parts. */
static const struct { TprofColumn c; TprofH5Field f; } in_place_columns[] = {
  { TPROF_COL_TIMES, TPROF_H5_FIELD_TIMES },
  { TPROF_COL_STARTS, TPROF_H5_FIELD_STARTS },
  { TPROF_COL_THREADS, TPROF_H5_FIELD_THREADS },
};
#define N_IN_PLACE_COLUMNS (sizeof in_place_columns / sizeof in_place_columns[0])

struct _TprofSaveInPlace
{
  TprofSaveFile        out;
  TprofProfileWriter   w;
  bool                 writer_open;
  TprofColumnsLayout   l;
  TprofOperationParts *ops;
  TprofCachedStats    *caches;
  int                  world_size;
};

/* The bytes of column @c's rows, every operation's. */
static uint64_t
in_place_column_bytes (const TprofSaveInPlace *s,
                       TprofColumn             c)
{
  return s->l.n_samples * _tprof_column_value_size (c);
}

/* Every sample column has room, its values aligned (they are read
 * back as doubles). 0, or -1 with @error. */
static int
in_place_check_room (TprofSaveInPlace *s,
                     TprofError       *error)
{
  for (size_t i = 0; s->l.n_samples > 0 && i < N_IN_PLACE_COLUMNS; i++)
    {
      TprofColumn c = in_place_columns[i].c;

      if (!s->l.present[c] || s->l.offset[c] == UINT64_MAX || s->l.offset[c] % sizeof (double) != 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: the column %s has no aligned room", s->out.path,
                                _tprof_columns[c].path);
    }
  return 0;
}

/* HDF5's part of the start: the file, its root attributes, the columns. */
static int
in_place_create (TprofSaveInPlace        *s,
                 const TprofProfiledTime *info,
                 TprofError              *error)
{
  TprofH5Guard guard;
  int result;

  _tprof_h5_enter (&guard);
  /* the producer and the statistics read doubles there: aligned */
  result = _tprof_profile_writer_create_aligned (&s->w, info, s->out.path, &s->out, sizeof (double), error);
  s->writer_open = result == 0;
  if (result == 0)
    result = _tprof_columns_layout_init (&s->l, s->ops, s->l.n_ops, s->world_size, s->out.path, error);
  if (result == 0)
    result = _tprof_columns_writer_create (&s->w, &s->l, error);
  _tprof_h5_leave (&guard);
  return result;
}

/* Roughly the bytes of @ops in the file, for the first reservation. */
static uint64_t
in_place_estimate (const TprofOperationParts *ops,
                   size_t                     n_ops,
                   int                        world_size)
{
  uint64_t segments = 0, samples = 0;

  for (size_t k = 0; k < n_ops; k++)
    {
      for (int r = 0; r < world_size; r++)
        segments += ops[k].cache->rank_count[r] > 0;
      segments += ops[k].n == 0;
      samples += ops[k].n;
    }
  return _tprof_save_operations_estimate (n_ops, segments, samples, samples);
}

bool
_tprof_save_in_place_worth (const TprofOperationParts *ops,
                            size_t                     n_ops,
                            int                        world_size)
{
  return in_place_estimate (ops, n_ops, world_size) > TPROF_SAVE_IMAGE_MAX;
}

TprofSaveInPlace *
_tprof_save_in_place_begin (const char              *path,
                            const TprofProfiledTime *info,
                            TprofOperationParts     *ops,
                            TprofCachedStats        *caches,
                            size_t                   n_ops,
                            TprofError              *error)
{
  TprofSaveInPlace *s = calloc (1, sizeof *s);
  uint64_t operations;

  if (s == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
      return NULL;
    }
  s->ops = ops;
  s->caches = caches;
  s->l.n_ops = n_ops;
  s->world_size = tprof_profiled_time_world_size (info);
  operations = in_place_estimate (ops, n_ops, s->world_size);
  if (operations == UINT64_MAX)
    {
      tprof_error_set (error, TPROF_ERROR_IO, "%s: the file would be too large", path);
      free (s);
      return NULL;
    }
  /* never an image: the rows go into the file's page cache, not into memory
   * of ours */
  if (_tprof_save_file_create (&s->out, path, error) < 0)
    {
      free (s);
      return NULL;
    }
  if (_tprof_save_start (info, &s->out, operations, error) < 0 || in_place_create (s, info, error) < 0
      || in_place_check_room (s, error) < 0)
    {
      _tprof_save_in_place_abandon (s);
      return NULL;
    }
  return s;
}

/* The file offset of row @row of field @f of operation @op. */
static off_t
in_place_offset (const TprofSaveInPlace *s,
                 size_t                  op,
                 TprofH5Field            f,
                 uint64_t                row)
{
  size_t size = f == TPROF_H5_FIELD_THREADS ? sizeof (int32_t) : sizeof (double);

  return (off_t) (s->ops[op].offsets[f] + row * size);
}

int
_tprof_save_in_place_put (TprofSaveInPlace *save,
                          size_t            op,
                          TprofH5Field      f,
                          uint64_t          row,
                          const void       *data,
                          size_t            bytes,
                          TprofError       *error)
{
  return bytes == 0 ? 0 : _tprof_save_file_pwrite (&save->out, data, bytes, in_place_offset (save, op, f, row), error);
}

/* @bytes at @offset of the file into @data. 0, or -1 with @error. */
static int
in_place_pread (TprofSaveInPlace *s,
                void             *data,
                size_t            bytes,
                off_t             offset,
                TprofError       *error)
{
  char *to = data;

  while (bytes > 0)
    {
      ssize_t got = pread (s->out.fd, to, bytes, offset);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot read back its temporary file: %s", s->out.path,
                                got == 0 ? "it is shorter than its columns" : strerror (errno));
      to += got;
      bytes -= (size_t) got;
      offset += got;
    }
  return 0;
}

int
_tprof_save_in_place_get (TprofSaveInPlace *save,
                          size_t            op,
                          TprofH5Field      f,
                          uint64_t          row,
                          void             *data,
                          size_t            bytes,
                          TprofError       *error)
{
  return in_place_pread (save, data, bytes, in_place_offset (save, op, f, row), error);
}

/* Read back in pieces this large: a piece is checksummed while in the
 * L2 cache. */
#define IN_PLACE_PIECE ((size_t) 256 << 10)

/* The starts' and threads' checksums, in row order, read back from the
 * file through one reused buffer: on a thread of their own while the
 * statistics read the durations. */
typedef struct
{
  TprofSaveInPlace *s;
  TprofError        error;
  int               result;
} ChecksumTask;

static void *
in_place_checksums (void *data)
{
  ChecksumTask *task = data;
  TprofSaveInPlace *s = task->s;
  char *piece = malloc (IN_PLACE_PIECE);

  task->result = piece == NULL ? tprof_error_set (&task->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory",
                                                  s->out.path) : 0;
  for (size_t i = 1; task->result == 0 && i < N_IN_PLACE_COLUMNS; i++)
    {
      TprofColumn c = in_place_columns[i].c;
      uint64_t left = in_place_column_bytes (s, c), at = s->l.offset[c];
      uint32_t crc = 0;

      while (task->result == 0 && left > 0)
        {
          size_t take = left < IN_PLACE_PIECE ? (size_t) left : IN_PLACE_PIECE;

          task->result = in_place_pread (s, piece, take, (off_t) at, &task->error);
          crc = _tprof_crc32c (crc, piece, take);
          at += take;
          left -= take;
        }
      s->l.crc[c] = crc;
    }
  free (piece);
  return NULL;
}

/* Each operation's cache from its durations read back whole into one
 * buffer (the largest operation's), the durations' checksum as they
 * come, in row order. */
static int
in_place_statistics (TprofSaveInPlace *s,
                     TprofError       *error)
{
  TprofCachedScratch scratch;
  size_t largest = 1;
  double *times;
  uint32_t crc = 0;
  int result = 0;

  for (size_t k = 0; k < s->l.n_ops; k++)
    largest = s->ops[k].n > largest ? s->ops[k].n : largest;
  times = _tprof_malloc_array_paged (largest, sizeof *times, false);
  if (times == NULL || !_tprof_cached_scratch_init (&scratch, s->world_size))
    {
      free (times);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", s->out.path);
    }
  for (size_t k = 0; result == 0 && k < s->l.n_ops; k++)
    {
      size_t bytes = s->ops[k].n * sizeof *times;

      result = in_place_pread (s, times, bytes, in_place_offset (s, k, TPROF_H5_FIELD_TIMES, 0), error);
      crc = _tprof_crc32c (crc, times, bytes);
      if (result == 0 && !_tprof_cached_stats_of_rows (&s->caches[k], times, s->world_size, &scratch))
        result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory for the statistics of '%s'",
                                  s->out.path, s->ops[k].name);
    }
  s->l.crc[TPROF_COL_TIMES] = crc;
  _tprof_cached_scratch_clear (&scratch);
  free (times);
  return result;
}

/* HDF5's part of the end: the tables, the checksums, the timeline's
 * origin, /ranks; the file closed, its end in *@size. */
static int
in_place_finish (TprofSaveInPlace        *s,
                 const TprofProfiledTime *info,
                 off_t                   *size,
                 TprofError              *error)
{
  const char *origin = tprof_profiled_time_timeline_origin (info);
  TprofH5Guard guard;
  int result;

  _tprof_h5_enter (&guard);
  result = _tprof_columns_writer_tables (&s->w, &s->l, error);
  if (result == 0)
    result = _tprof_columns_writer_table_checksums (&s->w, &s->l, error);
  for (size_t i = 0; result == 0 && i < N_IN_PLACE_COLUMNS; i++)
    result = _tprof_columns_writer_checksum (&s->w, &s->l, in_place_columns[i].c, error);
  if (result == 0 && origin != NULL
      && _tprof_profile_writer_string_attr (&s->w, s->w.file, _tprof_root_attrs[TPROF_ROOT_TIMELINE_ORIGIN].name,
                                            origin) < 0)
    result = _tprof_h5_error (error, TPROF_ERROR_IO, s->out.path, "cannot write the timeline's origin");
  if (result == 0)
    result = _tprof_profile_writer_add_ranks (&s->w, info, error);
  _tprof_columns_writer_close (&s->l);
  if (_tprof_profile_writer_close (&s->w, size, error) < 0)
    result = -1;
  s->writer_open = false;
  _tprof_h5_leave (&guard);
  return result;
}

static void
in_place_free (TprofSaveInPlace *s)
{
  _tprof_columns_layout_clear (&s->l);
  free (s);
}

int
_tprof_save_in_place_commit (TprofSaveInPlace        *save,
                             const TprofProfiledTime *info,
                             TprofError              *error)
{
  ChecksumTask task = { save, { 0 }, 0 };
  pthread_t thread;
  bool threaded = save->l.n_samples > 0 && pthread_create (&thread, NULL, in_place_checksums, &task) == 0;
  off_t size = -1;
  int result;

  if (!threaded)
    in_place_checksums (&task);
  result = in_place_statistics (save, error);
  if (threaded)
    pthread_join (thread, NULL);
  if (result == 0 && task.result < 0)
    {
      *error = task.error;
      result = -1;
    }
  for (size_t k = 0; result == 0 && k < save->l.n_ops; k++)
    save->ops[k].cache = &save->caches[k];
  if (result == 0)
    result = in_place_finish (save, info, &size, error);
  if (result < 0)
    {
      _tprof_save_in_place_abandon (save);
      return -1;
    }
  result = _tprof_save_file_commit (&save->out, size, error);
  in_place_free (save);
  return result;
}

void
_tprof_save_in_place_abandon (TprofSaveInPlace *save)
{
  if (save == NULL)
    return;
  if (save->writer_open)
    {
      TprofH5Guard guard;
      TprofError ignored = { 0 };

      _tprof_h5_enter (&guard);
      _tprof_columns_writer_close (&save->l);
      _tprof_profile_writer_close (&save->w, NULL, &ignored);
      _tprof_h5_leave (&guard);
    }
  _tprof_save_file_abandon (&save->out);
  in_place_free (save);
}
