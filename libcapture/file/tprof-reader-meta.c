/* tprof-reader-meta.c — a TprofProfileFile's metadata and statistics as the isolated reader's helper sends them, and rebuilt on the other side. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-reader-private.h"
#include "tprof-reader-private.h"

/* The per-rank arrays of a cache, world_size values of 8 bytes each, in
 * the order they travel. A new member of section 2b is one more line. */
static const size_t tprof_reader_cache_arrays[] = {
  offsetof (TprofOperationCache, rank_count),
  offsetof (TprofOperationCache, rank_recorded),
  offsetof (TprofOperationCache, rank_sum),
  offsetof (TprofOperationCache, rank_min),
  offsetof (TprofOperationCache, rank_max),
};

#define TPROF_READER_N_CACHE_ARRAYS (sizeof tprof_reader_cache_arrays / sizeof tprof_reader_cache_arrays[0])

static void **
tprof_reader_cache_array (TprofOperationCache *cache,
                          size_t               i)
{
  return (void **) ((char *) cache + tprof_reader_cache_arrays[i]);
}

void
_tprof_reader_put_cache (TprofWire                 *w,
                         const TprofOperationCache *cache,
                         int                        world_size)
{
  size_t n = (size_t) world_size;

  _tprof_wire_put_u64 (w, cache->has_count);
  _tprof_wire_put_u64 (w, (uint64_t) cache->count);
  _tprof_wire_put_u64 (w, cache->floats_present);
  _tprof_wire_put_u64 (w, TPROF_CACHE_N_FLOATS);
  _tprof_wire_put (w, cache->floats, sizeof cache->floats);
  _tprof_wire_put_u64 (w, TPROF_READER_N_CACHE_ARRAYS);
  for (size_t i = 0; i < TPROF_READER_N_CACHE_ARRAYS; i++)
    {
      const void *array = *tprof_reader_cache_array ((TprofOperationCache *) cache, i);

      _tprof_wire_put_u64 (w, array != NULL);
      if (array != NULL)
        _tprof_wire_put (w, array, n * 8);
    }
}

bool
_tprof_reader_get_cache (TprofWire           *w,
                         TprofOperationCache *cache,
                         int                  world_size)
{
  size_t n = (size_t) world_size;

  /* as _tprof_operation_cache_clear(), which the helper cannot reach */
  for (size_t i = 0; i < TPROF_READER_N_CACHE_ARRAYS && !cache->borrowed; i++)
    free (*tprof_reader_cache_array (cache, i));
  memset (cache, 0, sizeof *cache);
  cache->has_count = _tprof_wire_get_u64 (w) != 0;
  cache->count = (int64_t) _tprof_wire_get_u64 (w);
  cache->floats_present = (unsigned) _tprof_wire_get_u64 (w);
  if (_tprof_wire_get_u64 (w) != TPROF_CACHE_N_FLOATS
      || !_tprof_wire_get (w, cache->floats, sizeof cache->floats)
      || _tprof_wire_get_u64 (w) != TPROF_READER_N_CACHE_ARRAYS)
    return false;
  for (size_t i = 0; i < TPROF_READER_N_CACHE_ARRAYS; i++)
    if (_tprof_wire_get_u64 (w) != 0)
      {
        void **array = tprof_reader_cache_array (cache, i);

        if (n > (w->len - w->pos) / 8 || (*array = malloc (n * 8)) == NULL
            || !_tprof_wire_get (w, *array, n * 8))
          return false;
      }
  return !w->failed;
}

void
_tprof_reader_put_location (TprofWire                 *w,
                            const TprofReaderLocation *loc)
{
  _tprof_wire_put_u64 (w, loc->direct);
  _tprof_wire_put_u64 (w, loc->dev);
  _tprof_wire_put_u64 (w, loc->ino);
  _tprof_wire_put_u64 (w, loc->n);
  _tprof_wire_put_u64 (w, loc->ranks_from_counts);
  _tprof_wire_put_u64 (w, loc->row);
  _tprof_wire_put_u64 (w, loc->n_rows);
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS; i++)
    {
      const TprofReaderArray *a = &loc->arrays[i];

      _tprof_wire_put_u64 (w, a->present);
      _tprof_wire_put_u64 (w, a->offset);
      _tprof_wire_put_u64 (w, a->type.kind);
      _tprof_wire_put_u64 (w, a->type.size);
      _tprof_wire_put_u64 (w, a->type.big_endian);
      _tprof_wire_put_u64 (w, a->has_crc);
      _tprof_wire_put_u64 (w, a->crc);
    }
}

bool
_tprof_reader_get_location (TprofWire           *w,
                            TprofReaderLocation *loc)
{
  loc->direct = _tprof_wire_get_u64 (w) != 0;
  loc->dev = _tprof_wire_get_u64 (w);
  loc->ino = _tprof_wire_get_u64 (w);
  loc->n = _tprof_wire_get_u64 (w);
  loc->ranks_from_counts = _tprof_wire_get_u64 (w) != 0;
  loc->row = _tprof_wire_get_u64 (w);
  loc->n_rows = _tprof_wire_get_u64 (w);
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS; i++)
    {
      TprofReaderArray *a = &loc->arrays[i];
      uint64_t kind, size;

      bool floats = i == TPROF_READER_TIMES || i == TPROF_READER_STARTS;

      a->present = _tprof_wire_get_u64 (w) != 0;
      a->offset = _tprof_wire_get_u64 (w);
      kind = _tprof_wire_get_u64 (w);
      size = _tprof_wire_get_u64 (w);
      a->type.big_endian = _tprof_wire_get_u64 (w) != 0;
      a->has_crc = _tprof_wire_get_u64 (w) != 0;
      a->crc = (uint32_t) _tprof_wire_get_u64 (w);
      a->type.kind = (uint8_t) (kind <= TPROF_H5_RAW_UNSIGNED ? kind : TPROF_H5_RAW_NATIVE);
      a->type.size = (uint8_t) (size <= 8 ? size : 0);
      /* only what the conversions know, within a file's size: else the
       * helper reads */
      if (a->present
          && (floats ? kind != TPROF_H5_RAW_FLOAT || (size != 4 && size != 8)
                     : (kind != TPROF_H5_RAW_SIGNED && kind != TPROF_H5_RAW_UNSIGNED)
                       || (size != 1 && size != 2 && size != 4 && size != 8)
              || a->offset > (uint64_t) INT64_MAX || loc->n > ((uint64_t) INT64_MAX - a->offset) / 8))
        loc->direct = false;
    }
  if (!loc->arrays[TPROF_READER_TIMES].present
      || (!loc->arrays[TPROF_READER_RANKS].present && !loc->ranks_from_counts))
    loc->direct = false;
  return !w->failed;
}

void
_tprof_reader_put_stats (TprofWire                 *w,
                         const TprofOperationStats *stats,
                         int                        world_size)
{
  size_t n = (size_t) world_size;

  /* both sides are one build of this library: the struct travels as is */
  _tprof_wire_put (w, &stats->summary, sizeof stats->summary);
  _tprof_wire_put (w, stats->rank_count, n * sizeof *stats->rank_count);
  _tprof_wire_put (w, stats->rank_sum, n * sizeof *stats->rank_sum);
  _tprof_wire_put (w, stats->rank_min, n * sizeof *stats->rank_min);
  _tprof_wire_put (w, stats->rank_max, n * sizeof *stats->rank_max);
  _tprof_wire_put_u64 (w, stats->rank_recorded != NULL);
  if (stats->rank_recorded != NULL)
    _tprof_wire_put (w, stats->rank_recorded, n * sizeof *stats->rank_recorded);
}

/* Lets go of @o's computed arrays (allocated or borrowed). */
static void
tprof_reader_clear_computed (TprofH5OperationStats *o)
{
  if (!o->computed_borrowed)
    {
      free (o->computed_count);
      free (o->computed_sum);
      free (o->computed_min);
      free (o->computed_max);
      free (o->computed_recorded);
    }
  o->computed_count = o->computed_recorded = NULL;
  o->computed_sum = o->computed_min = o->computed_max = NULL;
  o->computed_borrowed = false;
}

bool
_tprof_reader_get_stats (TprofWire        *w,
                         TprofProfileFile *file,
                         size_t            op,
                         int64_t          *storage)
{
  TprofH5OperationStats *o = &file->op_stats[op];
  size_t n = (size_t) file->world_size;

  tprof_reader_clear_computed (o);
  o->computed_borrowed = storage != NULL;
  o->computed_count = storage != NULL ? storage : malloc (n * sizeof *o->computed_count);
  o->computed_sum = storage != NULL ? (double *) (storage + n) : malloc (n * sizeof *o->computed_sum);
  o->computed_min = storage != NULL ? (double *) (storage + 2 * n) : malloc (n * sizeof *o->computed_min);
  o->computed_max = storage != NULL ? (double *) (storage + 3 * n) : malloc (n * sizeof *o->computed_max);
  if (o->computed_count == NULL || o->computed_sum == NULL || o->computed_min == NULL
      || o->computed_max == NULL
      || !_tprof_wire_get (w, &o->stats.summary, sizeof o->stats.summary)
      || !_tprof_wire_get (w, o->computed_count, n * sizeof *o->computed_count)
      || !_tprof_wire_get (w, o->computed_sum, n * sizeof *o->computed_sum)
      || !_tprof_wire_get (w, o->computed_min, n * sizeof *o->computed_min)
      || !_tprof_wire_get (w, o->computed_max, n * sizeof *o->computed_max))
    return false;
  if (_tprof_wire_get_u64 (w) != 0
      && ((o->computed_recorded = storage != NULL ? storage + 4 * n : malloc (n * sizeof *o->computed_recorded))
            == NULL
          || !_tprof_wire_get (w, o->computed_recorded, n * sizeof *o->computed_recorded)))
    return false;
  o->stats.rank_recorded = o->computed_recorded;
  o->stats.rank_count = o->computed_count;
  o->stats.rank_sum = o->computed_sum;
  o->stats.rank_min = o->computed_min;
  o->stats.rank_max = o->computed_max;
  o->stats_ready = true;
  return true;
}

bool
_tprof_reader_put_meta (TprofWire              *w,
                        const TprofProfileFile *file)
{
  _tprof_wire_put_u64 (w, (uint64_t) file->format_version);
  _tprof_wire_put_u64 (w, (uint64_t) file->world_size);
  _tprof_wire_put_string (w, file->created);
  _tprof_wire_put_string (w, file->producer);
  _tprof_wire_put_string (w, file->clock);
  _tprof_wire_put_u64 (w, file->hostnames != NULL);
  for (int r = 0; file->hostnames != NULL && r < file->world_size; r++)
    _tprof_wire_put_string (w, file->hostnames[r]);
  _tprof_wire_put_string (w, file->timeline_origin);
  _tprof_wire_put_u64 (w, tprof_profile_file_clock_offsets (file) != NULL);
  if (tprof_profile_file_clock_offsets (file) != NULL)
    {
      _tprof_wire_put (w, file->clock_offsets, (size_t) file->world_size * sizeof (double));
      _tprof_wire_put (w, file->clock_offset_errors, (size_t) file->world_size * sizeof (double));
    }
  _tprof_wire_put_u64 (w, file->data_until != NULL);
  if (file->data_until != NULL)
    _tprof_wire_put (w, file->data_until, (size_t) file->world_size * sizeof (double));
  _tprof_wire_put_u64 (w, file->n_ops);
  for (size_t i = 0; i < file->n_ops; i++)
    {
      const TprofH5Operation *o = &file->ops[i];
      const TprofH5OperationStats *st = _tprof_h5_operation_stats (file, o);

      _tprof_wire_put_string (w, o->name);
      _tprof_wire_put_u64 (w, o->n);
      _tprof_wire_put_u64 (w, st->cached);
      _tprof_wire_put_u64 (w, st->stats_ready);
      if (st->stats_ready)
        _tprof_reader_put_stats (w, &st->stats, file->world_size);
    }
  return !w->failed;
}

static void
tprof_reader_partial_close (TprofProfileFile *file)
{
  (void) file;
}

/* The source of a file whose metadata came malformed: only its close. */
static const TprofProfileSource tprof_reader_partial = { .close = tprof_reader_partial_close };

TprofProfileFile *
_tprof_reader_get_meta (TprofWire  *w,
                        const char *path,
                        TprofError *error)
{
  TprofProfileFile *pf = calloc (1, sizeof *pf);
  bool ok = pf != NULL;
  uint64_t world_size, n_ops;

  if (pf == NULL)
    goto failed;
  pf->file = -1;
  pf->fd = -1;
  pf->path = strdup (path);
  pf->format_version = (int) _tprof_wire_get_u64 (w);
  world_size = _tprof_wire_get_u64 (w);
  pf->created = _tprof_wire_get_string (w, &ok);
  pf->producer = _tprof_wire_get_string (w, &ok);
  pf->clock = _tprof_wire_get_string (w, &ok);
  if (!ok || pf->path == NULL || world_size < 1 || world_size > INT32_MAX)
    goto failed;
  pf->world_size = (int) world_size;
  if (_tprof_wire_get_u64 (w) != 0)
    {
      pf->hostnames = calloc (world_size, sizeof *pf->hostnames);
      for (size_t r = 0; pf->hostnames != NULL && r < world_size && ok; r++)
        pf->hostnames[r] = _tprof_wire_get_string (w, &ok);
      if (pf->hostnames == NULL)
        goto failed;
    }
  pf->timeline_origin = _tprof_wire_get_string (w, &ok);
  if (_tprof_wire_get_u64 (w) != 0)
    {
      pf->clock_offsets = malloc (world_size * sizeof (double));
      pf->clock_offset_errors = malloc (world_size * sizeof (double));
      if (pf->clock_offsets == NULL || pf->clock_offset_errors == NULL
          || !_tprof_wire_get (w, pf->clock_offsets, world_size * sizeof (double))
          || !_tprof_wire_get (w, pf->clock_offset_errors, world_size * sizeof (double)))
        goto failed;
    }
  if (_tprof_wire_get_u64 (w) != 0
      && ((pf->data_until = malloc (world_size * sizeof (double))) == NULL
          || !_tprof_wire_get (w, pf->data_until, world_size * sizeof (double))))
    goto failed;
  n_ops = _tprof_wire_get_u64 (w);
  /* every operation takes at least 32 bytes of the message */
  if (!ok || w->failed || n_ops > (w->len - w->pos) / 32)
    goto failed;
  pf->ops_room = n_ops != 0 ? n_ops : 1;
  pf->ops = _tprof_malloc_array_paged (pf->ops_room, sizeof *pf->ops, true);
  pf->op_stats = _tprof_malloc_array_paged (pf->ops_room, sizeof *pf->op_stats, true);
  if (pf->ops == NULL || pf->op_stats == NULL)
    goto failed;
  pf->n_ops = (size_t) n_ops;
  /* format 3 caches every operation's statistics, which come here (32
   * bytes a rank each, so the message bounds the block): one block for
   * their per-rank arrays, not four or five allocations per operation */
  if (pf->format_version >= 3 && n_ops <= (w->len - w->pos) / 32 / world_size)
    pf->cache_block = calloc ((size_t) n_ops * world_size * 5 + 1, 8);
  for (size_t i = 0; i < pf->n_ops && ok; i++)
    {
      TprofH5Operation *o = &pf->ops[i];
      int64_t *storage = pf->cache_block != NULL ? (int64_t *) pf->cache_block + i * world_size * 5 : NULL;

      o->name = _tprof_wire_get_string (w, &ok);
      o->n = _tprof_wire_get_u64 (w);
      pf->op_stats[i].cached = _tprof_wire_get_u64 (w) != 0;
      if (_tprof_wire_get_u64 (w) != 0 && !_tprof_reader_get_stats (w, pf, i, storage))
        ok = false;
      ok = ok && o->name != NULL;
    }
  if (ok && !w->failed)
    return pf;

failed:
  if (pf != NULL)
    {
      /* the normal close frees a partial file as well, with a source
       * that holds nothing yet */
      pf->source = &tprof_reader_partial;
      tprof_profile_file_close (pf);
    }
  tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent malformed metadata", path);
  return NULL;
}
