/* tprof-save-in-place.c — a save whose sample rows its producer writes into the file's own pages (a shared mapping), its statistics then computed there. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
  char                *map;      /* the file from map_at, map_len bytes */
  uint64_t             map_at;
  size_t               map_len;
};

/* The bytes of column @c's rows, every operation's. */
static uint64_t
in_place_column_bytes (const TprofSaveInPlace *s,
                       TprofColumn             c)
{
  return s->l.n_samples * _tprof_column_value_size (c);
}

/* Maps the pages that hold the sample columns, shared: what is written
 * there is the file's. 0, or -1 with @error. */
static int
in_place_map (TprofSaveInPlace *s,
              TprofError       *error)
{
  uint64_t page = (uint64_t) sysconf (_SC_PAGESIZE), lo = UINT64_MAX, hi = 0;
  struct stat st;

  if (s->l.n_samples == 0)
    return 0;
  for (size_t i = 0; i < N_IN_PLACE_COLUMNS; i++)
    {
      TprofColumn c = in_place_columns[i].c;

      if (!s->l.present[c] || s->l.offset[c] == UINT64_MAX)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: the column %s has no room", s->out.path,
                                _tprof_columns[c].path);
      lo = s->l.offset[c] < lo ? s->l.offset[c] : lo;
      hi = s->l.offset[c] + in_place_column_bytes (s, c) > hi ? s->l.offset[c] + in_place_column_bytes (s, c) : hi;
    }
  for (size_t i = 0; i < N_IN_PLACE_COLUMNS; i++)
    if (s->l.offset[in_place_columns[i].c] % sizeof (double) != 0)
      return tprof_error_set (error, TPROF_ERROR_IO, "%s: the column %s is not aligned", s->out.path,
                              _tprof_columns[in_place_columns[i].c].path);
  lo -= lo % page;
  /* the reservation made the file this long: no page past its end */
  if (fstat (s->out.fd, &st) < 0 || (uint64_t) st.st_size < hi || hi - lo > SIZE_MAX)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: the temporary file is shorter than its columns", s->out.path);
  s->map = mmap (NULL, (size_t) (hi - lo), PROT_READ | PROT_WRITE, MAP_SHARED, s->out.fd, (off_t) lo);
  if (s->map == MAP_FAILED)
    {
      s->map = NULL;
      return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot map the temporary file: %s", s->out.path,
                              strerror (errno));
    }
  s->map_at = lo;
  s->map_len = (size_t) (hi - lo);
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
  /* never an image: the rows go into the file's pages, not into memory
   * of ours */
  if (_tprof_save_file_create (&s->out, path, error) < 0)
    {
      free (s);
      return NULL;
    }
  if (_tprof_save_start (info, &s->out, operations, error) < 0 || in_place_create (s, info, error) < 0
      || in_place_map (s, error) < 0)
    {
      _tprof_save_in_place_abandon (s);
      return NULL;
    }
  return s;
}

void *
_tprof_save_in_place_rows (TprofSaveInPlace *save,
                           size_t            op,
                           TprofH5Field      f)
{
  uint64_t at = save->ops[op].offsets[f];

  return save->map == NULL || at == UINT64_MAX ? NULL : save->map + (at - save->map_at);
}

/* The sample columns' checksums, in row order, into l->crc: on a thread
 * of their own while the statistics read the same pages. */
static void *
in_place_checksums (void *data)
{
  TprofSaveInPlace *s = data;

  for (size_t i = 0; i < N_IN_PLACE_COLUMNS; i++)
    {
      TprofColumn c = in_place_columns[i].c;

      s->l.crc[c] = s->map == NULL ? 0
                    : _tprof_crc32c (0, s->map + (s->l.offset[c] - s->map_at), in_place_column_bytes (s, c));
    }
  return NULL;
}

/* Each operation's cache from its rows of durations. */
static int
in_place_statistics (TprofSaveInPlace *s,
                     TprofError       *error)
{
  TprofCachedScratch scratch;

  if (!_tprof_cached_scratch_init (&scratch, s->world_size))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", s->out.path);
  for (size_t k = 0; k < s->l.n_ops; k++)
    {
      const double *times = _tprof_save_in_place_rows (s, k, TPROF_H5_FIELD_TIMES);

      if (!_tprof_cached_stats_of_rows (&s->caches[k], times, s->world_size, &scratch))
        {
          _tprof_cached_scratch_clear (&scratch);
          return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory for the statistics of '%s'",
                                  s->out.path, s->ops[k].name);
        }
    }
  _tprof_cached_scratch_clear (&scratch);
  return 0;
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
  if (s->map != NULL)
    munmap (s->map, s->map_len);
  _tprof_columns_layout_clear (&s->l);
  free (s);
}

int
_tprof_save_in_place_commit (TprofSaveInPlace        *save,
                             const TprofProfiledTime *info,
                             TprofError              *error)
{
  pthread_t thread;
  bool threaded = save->l.n_samples > 0 && pthread_create (&thread, NULL, in_place_checksums, save) == 0;
  off_t size = -1;
  int result;

  if (!threaded)
    in_place_checksums (save);
  result = in_place_statistics (save, error);
  if (threaded)
    pthread_join (thread, NULL);
  for (size_t k = 0; result == 0 && k < save->l.n_ops; k++)
    save->ops[k].cache = &save->caches[k];
  if (result == 0)
    result = in_place_finish (save, info, &size, error);
  if (result < 0)
    {
      _tprof_save_in_place_abandon (save);
      return -1;
    }
  /* unmapped first: the commit makes the file durable and cuts it */
  munmap (save->map, save->map_len);
  save->map = NULL;
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
  if (save->map != NULL)
    munmap (save->map, save->map_len);
  save->map = NULL;
  _tprof_save_file_abandon (&save->out);
  in_place_free (save);
}
