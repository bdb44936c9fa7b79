/* tprof-columns-writer.c — format 3's columns written: HDF5 creates them from the format's table, we fill them with pwrite(). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-crc32c.h"
#include "tprof-h5-writer-private.h"

/* The file and memory types of a column's values as writers store them
 * (strings have their own type, made by the writer). */
static hid_t
columns_file_type (TprofColumn c)
{
  TprofColumnType t = _tprof_columns[c].type;

  return t == TPROF_COLTYPE_INT32 ? H5T_STD_I32LE : t == TPROF_COLTYPE_INT64 ? H5T_STD_I64LE : H5T_IEEE_F64LE;
}

static hid_t
columns_mem_type (TprofColumn c)
{
  TprofColumnType t = _tprof_columns[c].type;

  return t == TPROF_COLTYPE_INT32 ? H5T_NATIVE_INT32 : t == TPROF_COLTYPE_INT64 ? H5T_NATIVE_INT64
         : H5T_NATIVE_DOUBLE;
}

static hid_t
columns_group (const TprofProfileWriter *w,
               TprofColumn               c)
{
  for (int g = 0; g < TPROF_N_COLUMN_GROUPS; g++)
    if (strcmp (_tprof_column_groups[g], _tprof_columns[c].group) == 0)
      return w->groups[g];
  return -1;
}

/* HDF5 converts variable-length strings through a buffer it allocates
 * and zeroes at every write, 1 MiB by default: fresh pages to fault in
 * for a few kilobytes of names. Strips of this many bytes cost less. */
#define NAMES_CONVERSION_BUFFER ((size_t) 64 << 10)

static herr_t
columns_write_names (hid_t        dset,
                     hid_t        type,
                     const char **names,
                     size_t       n)
{
  hid_t dxpl = H5Pcreate (H5P_DATASET_XFER);
  /* room for one value in the file (a heap id) or in memory at least */
  size_t size = n * 16 < NAMES_CONVERSION_BUFFER ? n * 16 + 16 : NAMES_CONVERSION_BUFFER;
  herr_t status = -1;

  if (dxpl >= 0 && H5Pset_buffer (dxpl, size, NULL, NULL) >= 0)
    status = H5Dwrite (dset, type, H5S_ALL, H5S_ALL, dxpl, names);
  _tprof_h5_close (dxpl);
  return status;
}

void
_tprof_columns_writer_names_crc (TprofColumnsLayout *l)
{
  uint32_t crc = 0;

  /* each name's bytes and its terminating zero */
  for (size_t k = 0; k < l->n_ops; k++)
    crc = _tprof_crc32c (crc, l->ops[k].name, l->name_length[k] + 1);
  l->crc[TPROF_COL_OP_NAME] = crc;
}

/* The names: variable-length strings, which HDF5 writes itself, but in
 * an image (tprof-names-heap.c). */
static int
columns_create_names (TprofProfileWriter *w,
                      TprofColumnsLayout *l,
                      TprofError         *error)
{
  hsize_t dims[1] = { l->n_ops };
  const char **names = malloc ((l->n_ops > 0 ? l->n_ops : 1) * sizeof *names);
  hid_t space = H5Screate_simple (1, dims, NULL);
  hid_t dset = -1;
  int ours, result = -1;

  if (names == NULL)
    {
      _tprof_h5_close (space);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing the names", w->path);
    }
  for (size_t k = 0; k < l->n_ops; k++)
    names[k] = l->ops[k].name;
  if (!l->names_crc_later)
    _tprof_columns_writer_names_crc (l);
  /* in an image we write them ourselves, after HDF5 */
  ours = space >= 0 ? _tprof_names_heap_create (w, l, columns_group (w, TPROF_COL_OP_NAME), space, &dset) : -1;
  if (ours == 0)
    dset = H5Dcreate2 (columns_group (w, TPROF_COL_OP_NAME), _tprof_columns[TPROF_COL_OP_NAME].name,
                       w->str_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0 && (ours > 0 || l->n_ops == 0 || columns_write_names (dset, w->str_type, names, l->n_ops) >= 0))
    result = 0;
  /* kept open for its checksum */
  if (result == 0)
    l->dset[TPROF_COL_OP_NAME] = dset;
  else
    _tprof_h5_close (dset);
  _tprof_h5_close (space);
  free (names);
  return result;
}

/* Each operation's rows of the sample columns, for a parallel save's ranks. */
static void
columns_room_offsets (TprofColumnsLayout *l)
{
  static const TprofColumn field_column[TPROF_H5_N_FIELDS] = {
    [TPROF_H5_FIELD_TIMES] = TPROF_COL_TIMES,
    [TPROF_H5_FIELD_RANKS] = TPROF_N_COLUMNS,
    [TPROF_H5_FIELD_STARTS] = TPROF_COL_STARTS,
    [TPROF_H5_FIELD_THREADS] = TPROF_COL_THREADS,
  };

  uint64_t base[TPROF_H5_N_FIELDS], size[TPROF_H5_N_FIELDS];

  /* each field's column and value size found once, not once an operation */
  for (int f = 0; f < TPROF_H5_N_FIELDS; f++)
    {
      TprofColumn c = field_column[f];
      bool stored = c < TPROF_N_COLUMNS && l->present[c] && l->offset[c] != UINT64_MAX;

      base[f] = stored ? l->offset[c] : UINT64_MAX;
      size[f] = stored ? _tprof_column_value_size (c) : 0;
    }
  for (size_t k = 0; k < l->n_ops; k++)
    for (int f = 0; f < TPROF_H5_N_FIELDS; f++)
      l->ops[k].offsets[f] = base[f] == UINT64_MAX ? UINT64_MAX : base[f] + l->rows[k] * size[f];
}

int
_tprof_columns_writer_create (TprofProfileWriter *w,
                              TprofColumnsLayout *l,
                              TprofError         *error)
{
  if (_tprof_profile_writer_reserve (w, _tprof_columns_layout_bytes (l) + TPROF_H5_COLUMN_HEADERS, error) < 0)
    return -1;
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      const TprofColumnInfo *info = &_tprof_columns[c];
      uint64_t n = _tprof_column_length (c, l->n_ops, l->n_segments, l->n_samples);
      int result;

      if (!l->present[c])
        continue;
      result = info->type == TPROF_COLTYPE_STRING
               ? columns_create_names (w, l, error)
               : _tprof_profile_writer_add_room (w, columns_group (w, c), info->name, columns_file_type (c),
                                                 (size_t) n, &l->offset[c], &l->dset[c]);
      if (result < 0)
        return error != NULL && error->code != 0 ? -1
               : _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot create the column %s", info->path);
    }
  if (!l->no_room_offsets)
    columns_room_offsets (l);
  return 0;
}

/* Values of one column written in order, through a buffer so that small
 * operations do not cost a system call each; the checksum as they go.
 * In an image the buffer is the column's own place there (direct): the
 * values are copied once, and a flush only checksums them and moves
 * past them. */
typedef struct
{
  TprofProfileWriter *w;
  uint64_t            at;      /* file offset of the next byte */
  uint32_t            crc;
  char               *buffer;
  size_t              capacity;
  size_t              used;
  bool                direct;
  TprofError         *error;
} ColumnStream;

#define COLUMN_STREAM_BUFFER ((size_t) 1 << 20)

static int
stream_flush (ColumnStream *cs)
{
  if (cs->direct)
    {
      /* one checksum over the whole run, not one call per operation's
       * few values: the long-buffer path checksums three runs at once */
      cs->crc = _tprof_crc32c (cs->crc, cs->buffer, cs->used);
      cs->buffer += cs->used;
      cs->capacity -= cs->used;
    }
  else if (cs->used > 0 && _tprof_save_file_pwrite (cs->w->out, cs->buffer, cs->used, (off_t) cs->at, cs->error) < 0)
    return -1;
  cs->at += cs->used;
  cs->used = 0;
  return 0;
}

/* A piece of a large array written in place: small enough that the
 * checksum leaves it in the L2 cache for the kernel's copy, so that the
 * array is read from memory once, not once per pass. */
#define COLUMN_STREAM_PIECE ((size_t) 128 << 10)

/* @bytes at @data written in place, piece by piece, each checksummed
 * just before it is written. */
static int
stream_put_in_place (ColumnStream *cs,
                     const char   *data,
                     size_t        bytes)
{
  while (bytes > 0)
    {
      size_t take = bytes < COLUMN_STREAM_PIECE ? bytes : COLUMN_STREAM_PIECE;

      cs->crc = _tprof_crc32c (cs->crc, data, take);
      if (_tprof_save_file_pwrite (cs->w->out, data, take, (off_t) cs->at, cs->error) < 0)
        return -1;
      cs->at += take;
      data += take;
      bytes -= take;
    }
  return 0;
}

static int
stream_put (ColumnStream *cs,
            const void   *data,
            size_t        bytes)
{
  if (bytes == 0)
    return 0;
  if (cs->used + bytes > cs->capacity)
    {
      if (stream_flush (cs) < 0)
        return -1;
      if (bytes >= cs->capacity / 4)
        return stream_put_in_place (cs, data, bytes);
    }
  if (!cs->direct)
    cs->crc = _tprof_crc32c (cs->crc, data, bytes);
  memcpy (cs->buffer + cs->used, data, bytes);
  cs->used += bytes;
  return 0;
}

/* @n zeros of @size bytes: the threads of an operation that has none. */
static int
stream_zeros (ColumnStream *cs,
              size_t        n,
              size_t        size)
{
  static const char zeros[4096];
  size_t bytes = n * size;

  while (bytes > 0)
    {
      size_t take = bytes < sizeof zeros ? bytes : sizeof zeros;

      if (stream_put (cs, zeros, take) < 0)
        return -1;
      bytes -= take;
    }
  return 0;
}

/* The sample columns and the operations' field each is made of. */
static const struct { TprofColumn c; TprofH5Field f; } columns_samples[TPROF_N_SAMPLE_COLUMNS] = {
  { TPROF_COL_TIMES, TPROF_H5_FIELD_TIMES },
  { TPROF_COL_STARTS, TPROF_H5_FIELD_STARTS },
  { TPROF_COL_THREADS, TPROF_H5_FIELD_THREADS },
};

/* Field @f of every operation into @cs, and its checksum into *@crc. */
static int
columns_stream_samples (const TprofColumnsLayout *l,
                        TprofColumn               c,
                        TprofH5Field              f,
                        ColumnStream             *cs,
                        uint32_t                 *crc)
{
  size_t size = _tprof_column_value_size (c);

  for (size_t k = 0; k < l->n_ops; k++)
    {
      const TprofOperationParts *op = &l->ops[k];
      int result = op->data[f] != NULL ? stream_put (cs, op->data[f], op->n * size) : stream_zeros (cs, op->n, size);

      if (result < 0)
        return -1;
    }
  if (stream_flush (cs) < 0)
    return -1;
  *crc = cs->crc;
  return 0;
}

/* The bytes of sample column @c in a file: the operations' rows fill it
 * exactly. */
static size_t
columns_sample_bytes (const TprofColumnsLayout *l,
                      TprofColumn               c)
{
  return (size_t) _tprof_column_length (c, l->n_ops, l->n_segments, l->n_samples) * _tprof_column_value_size (c);
}

/* The bytes of a table column in a file, which _tprof_columns_writer_tables()
 * fills. */
static size_t
columns_table_bytes (const TprofColumnsLayout *l,
                     TprofColumn               c)
{
  return (size_t) _tprof_column_length (c, l->n_ops, l->n_segments, l->n_samples) * _tprof_column_value_size (c);
}

/* The image's runs that we fill, every byte, before the commit: the
 * tables and the names' ids (at most TPROF_N_COLUMNS), ascending. */
static int
columns_filled_runs (const TprofColumnsLayout *l,
                     uint64_t                  runs[][2])
{
  int n = 0;

  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      uint64_t bytes = c == TPROF_COL_OP_NAME ? l->names_ids_bytes : columns_table_bytes (l, c);
      int i = n++;

      if (!l->present[c] || _tprof_columns[c].per_sample || l->offset[c] == UINT64_MAX || bytes == 0)
        {
          n--;
          continue;
        }
      for (; i > 0 && runs[i - 1][0] > l->offset[c]; i--)
        memcpy (runs[i], runs[i - 1], sizeof runs[i]);
      runs[i][0] = l->offset[c];
      runs[i][1] = l->offset[c] + bytes;
    }
  return n;
}

/* The sample columns' spans zero the image up to them: what we fill
 * ourselves before the commit (1.3 MB of tables and ids before the
 * samples of 10^4 small operations) is taken first, so that only what
 * lies around it, HDF5's metadata and what it leaves unwritten, is
 * zeroed. */
static int
columns_take_filled_runs (TprofProfileWriter       *w,
                          const TprofColumnsLayout *l)
{
  uint64_t runs[TPROF_N_COLUMNS][2];
  int n = columns_filled_runs (l, runs);

  for (int i = 0; i < n; i++)
    if (_tprof_save_image_span (w->out, runs[i][0], (size_t) (runs[i][1] - runs[i][0])) == NULL)
      return -1;
  return 0;
}

int
_tprof_columns_writer_sample_spans (TprofProfileWriter *w,
                                    TprofColumnsLayout *l,
                                    char               *spans[TPROF_N_SAMPLE_COLUMNS],
                                    size_t              bytes[TPROF_N_SAMPLE_COLUMNS],
                                    TprofError         *error)
{
  if (columns_take_filled_runs (w, l) < 0)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: cannot build it in memory: %s", w->path,
                            strerror (errno));
  /* twice: a span taken may move the image, and with it those before;
   * the second time round every one is inside it already */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < TPROF_N_SAMPLE_COLUMNS; i++)
      {
        TprofColumn c = columns_samples[i].c;

        spans[i] = NULL;
        bytes[i] = 0;
        if (!l->present[c] || l->n_samples == 0)
          continue;
        bytes[i] = columns_sample_bytes (l, c);
        spans[i] = _tprof_save_image_span (w->out, l->offset[c], bytes[i]);
        if (spans[i] == NULL)
          return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: cannot build it in memory: %s", w->path,
                                  strerror (errno));
      }
  return 0;
}

int
_tprof_columns_writer_tables_out (TprofProfileWriter *w,
                                  TprofColumnsLayout *l,
                                  TprofError         *error)
{
  uint64_t from = UINT64_MAX, to = 0;

  /* the helper joined: from now on HDF5's writes into the runs written
   * out (the samples', these) reach the file too */
  w->out->image_write_through = true;
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (l->present[c] && !_tprof_columns[c].per_sample && c != TPROF_COL_OP_NAME && l->offset[c] != UINT64_MAX)
      {
        uint64_t end = l->offset[c] + _tprof_column_length (c, l->n_ops, l->n_segments, l->n_samples)
                                      * _tprof_column_value_size (c);

        from = l->offset[c] < from ? l->offset[c] : from;
        to = end > to ? end : to;
      }
  if (w->out->image == NULL || from >= to || to > w->out->image_end)
    return 0;
  /* one run, with nothing else of ours in it: the names' ids and the
   * samples are written elsewhere or already */
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (l->present[c] && (_tprof_columns[c].per_sample || c == TPROF_COL_OP_NAME) && l->offset[c] != UINT64_MAX)
      {
        /* the names' ids: as many bytes as HDF5 allocated them */
        uint64_t bytes = c == TPROF_COL_OP_NAME ? (l->dset[c] > 0 ? H5Dget_storage_size (l->dset[c]) : UINT64_MAX)
                                                : columns_sample_bytes (l, c);

        if (l->offset[c] < to && (bytes > to || l->offset[c] + bytes > from))
          return 0;
      }
  if (_tprof_save_image_write_out (w->out, (size_t) from, (size_t) to) < 0)
    {
      /* a run that would overlap one written is left to the commit */
      if (errno == EINVAL)
        return 0;
      return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write its temporary file: %s", w->path,
                              strerror (errno));
    }
  _tprof_save_image_start_write_back (w->out, (size_t) from, (size_t) to);
  return 0;
}

void
_tprof_columns_writer_samples_fill (TprofColumnsLayout *l,
                                    char *const         spans[TPROF_N_SAMPLE_COLUMNS])
{
  for (int i = 0; i < TPROF_N_SAMPLE_COLUMNS; i++)
    {
      TprofColumn c = columns_samples[i].c;
      ColumnStream cs = { NULL, l->offset[c], 0, spans[i], 0, 0, true, NULL };

      if (spans[i] == NULL)
        continue;
      cs.capacity = columns_sample_bytes (l, c);
      /* in place: nothing can fail */
      (void) columns_stream_samples (l, c, columns_samples[i].f, &cs, &l->crc[c]);
    }
}

int
_tprof_columns_writer_samples (TprofProfileWriter *w,
                               TprofColumnsLayout *l,
                               TprofError         *error)
{
  /* no larger than the largest column; on a huge page when it is the
   * whole 1 MiB (see _tprof_malloc_array_paged()) */
  size_t size = l->n_samples * sizeof (double) < COLUMN_STREAM_BUFFER ? (size_t) l->n_samples * sizeof (double)
                : COLUMN_STREAM_BUFFER;
  char *spans[TPROF_N_SAMPLE_COLUMNS], *buffer;
  size_t bytes[TPROF_N_SAMPLE_COLUMNS];
  int result = 0;

  /* an image needs no buffer: each column is written in its place there */
  if (w->out->image != NULL)
    {
      if (_tprof_columns_writer_sample_spans (w, l, spans, bytes, error) < 0)
        return -1;
      _tprof_columns_writer_samples_fill (l, spans);
      return 0;
    }
  buffer = _tprof_malloc_array_paged (size, 1, false);
  if (buffer == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing samples", w->path);
  for (int i = 0; result == 0 && i < TPROF_N_SAMPLE_COLUMNS; i++)
    {
      TprofColumn c = columns_samples[i].c;
      ColumnStream cs = { w, l->offset[c], 0, buffer, size, 0, false, error };

      if (l->present[c])
        result = columns_stream_samples (l, c, columns_samples[i].f, &cs, &l->crc[c]);
    }
  free (buffer);
  return result;
}

void
_tprof_columns_writer_close (TprofColumnsLayout *l)
{
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      if (l->dset[c] > 0)
        _tprof_h5_close (l->dset[c]);
      l->dset[c] = 0;
    }
}

int
_tprof_columns_writer_checksum (TprofProfileWriter       *w,
                                const TprofColumnsLayout *l,
                                TprofColumn               c,
                                TprofError               *error)
{
  /* open since its creation: no look-up by name */
  hid_t dset = l->dset[c] > 0 ? l->dset[c] : H5Dopen2 (columns_group (w, c), _tprof_columns[c].name, H5P_DEFAULT);
  hid_t attr = dset >= 0 ? H5Acreate2 (dset, TPROF_FORMAT_CRC_ATTR, H5T_STD_U32LE, w->scalar, H5P_DEFAULT,
                                       H5P_DEFAULT) : -1;
  herr_t status = attr >= 0 ? H5Awrite (attr, H5T_NATIVE_UINT32, &l->crc[c]) : -1;

  _tprof_h5_close (attr);
  if (dset != l->dset[c])
    _tprof_h5_close (dset);
  if (status < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write the checksum of %s",
                            _tprof_columns[c].path);
  return 0;
}

/* Writes table column @c (@data native, little-endian host) at its room;
 * its checksum into l->crc. */
static int
columns_put_table (TprofProfileWriter *w,
                   TprofColumnsLayout *l,
                   TprofColumn         c,
                   const void         *data,
                   TprofError         *error)
{
  uint64_t n = _tprof_column_length (c, l->n_ops, l->n_segments, l->n_samples);
  size_t bytes = columns_table_bytes (l, c);

  l->crc[c] = _tprof_crc32c (0, data, bytes);
  if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    {
      if (bytes > 0 && _tprof_save_file_pwrite (w->out, data, bytes, (off_t) l->offset[c], error) < 0)
        return -1;
    }
  else
    {
      hid_t dset = H5Dopen2 (columns_group (w, c), _tprof_columns[c].name, H5P_DEFAULT);
      herr_t status = dset >= 0 && (n == 0 || H5Dwrite (dset, columns_mem_type (c), H5S_ALL, H5S_ALL,
                                                        H5P_DEFAULT, data) >= 0) ? 0 : -1;

      _tprof_h5_close (dset);
      if (status < 0)
        return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write %s", _tprof_columns[c].path);
    }
  return 0;
}

/* Where each of the eight statistics columns finds its value. */
static const size_t columns_statistic_offset[] = {
  offsetof (TprofSummary, sum), offsetof (TprofSummary, mean), offsetof (TprofSummary, std),
  offsetof (TprofSummary, min), offsetof (TprofSummary, max), offsetof (TprofSummary, median),
  offsetof (TprofSummary, p95), offsetof (TprofSummary, p99),
};

/* A segment's figure from its operation's per-rank cache. */
static void
columns_segment_values (const TprofColumnsLayout *l,
                        TprofColumn               c,
                        void                     *out)
{
  for (size_t k = 0; k < l->n_ops; k++)
    {
      const TprofCachedStats *cache = l->ops[k].cache;
      const double *figure = c == TPROF_COL_SEG_SUM ? cache->rank_sum
                             : c == TPROF_COL_SEG_MIN ? cache->rank_min : cache->rank_max;
      const int64_t *recorded = cache->rank_recorded != NULL ? cache->rank_recorded : cache->rank_count;

      for (int64_t s = l->op_segments[k]; s < l->op_segments[k + 1]; s++)
        if (c == TPROF_COL_SEG_RECORDED)
          ((int64_t *) out)[s] = recorded[l->seg_rank[s]];
        else
          ((double *) out)[s] = figure[l->seg_rank[s]];
    }
}

/* Column @c's values, built from the caches into @scratch (or found in
 * the layout). */
static const void *
columns_table_values (const TprofColumnsLayout *l,
                      TprofColumn               c,
                      void                     *scratch)
{
  if (c == TPROF_COL_OP_SEGMENTS)
    return l->op_segments;
  if (c == TPROF_COL_SEG_RANK)
    return l->seg_rank;
  if (c == TPROF_COL_SEG_OFFSET)
    return l->seg_offset;
  if (c == TPROF_COL_OP_COUNT)
    for (size_t k = 0; k < l->n_ops; k++)
      ((int64_t *) scratch)[k] = (int64_t) l->ops[k].cache->summary.count;
  else if (c >= TPROF_COL_OP_SUM && c <= TPROF_COL_OP_P99)
    for (size_t k = 0; k < l->n_ops; k++)
      memcpy ((double *) scratch + k,
              (const char *) &l->ops[k].cache->summary + columns_statistic_offset[c - TPROF_COL_OP_SUM],
              sizeof (double));
  else
    columns_segment_values (l, c, scratch);
  return scratch;
}

/* The figures that come from the caches: the operations' count and
 * eight statistics, and the segments' sum, min, max and recorded. */
static bool
columns_is_figure (TprofColumn c)
{
  return (c >= TPROF_COL_OP_COUNT && c <= TPROF_COL_OP_P99) || (c >= TPROF_COL_SEG_SUM && c <= TPROF_COL_SEG_RECORDED);
}

/* Every figure column present, little-endian, in its place in the image,
 * in one pass over the caches (column after column, each pass would
 * fetch every cache again); their checksums into l->crc. 1 when written,
 * 0 when left to columns_put_table() (no image, a big-endian host), -1
 * with @error. */
static int
columns_figures_in_image (TprofProfileWriter *w,
                          TprofColumnsLayout *l,
                          TprofError         *error)
{
  char *at[TPROF_N_COLUMNS] = { NULL };
  uint64_t end = 0;

  if (w->out->image == NULL || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || l->n_ops == 0)
    return 0;
  /* grown once to the last of them: no span moves while they are filled */
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (columns_is_figure (c) && l->present[c])
      {
        if (_tprof_column_value_size (c) != sizeof (double) || l->offset[c] == UINT64_MAX)
          return 0;
        end = l->offset[c] + columns_table_bytes (l, c) > end ? l->offset[c] + columns_table_bytes (l, c) : end;
      }
  if (_tprof_save_image_span (w->out, end, 0) == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: cannot build it in memory: %s", w->path,
                            strerror (errno));
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (columns_is_figure (c) && l->present[c])
      at[c] = _tprof_save_image_span (w->out, l->offset[c], columns_table_bytes (l, c));
  for (size_t k = 0; k < l->n_ops; k++)
    {
      const TprofCachedStats *cache = l->ops[k].cache;
      const TprofSummary *summary = &cache->summary;
      const int64_t *recorded = cache->rank_recorded != NULL ? cache->rank_recorded : cache->rank_count;
      int64_t count = (int64_t) summary->count;

      memcpy (at[TPROF_COL_OP_COUNT] + k * sizeof count, &count, sizeof count);
#pragma GCC unroll 8
      for (int c = TPROF_COL_OP_SUM; c <= TPROF_COL_OP_P99; c++)
        memcpy (at[c] + k * sizeof (double),
                (const char *) summary + columns_statistic_offset[c - TPROF_COL_OP_SUM], sizeof (double));
      for (int64_t s = l->op_segments[k]; s < l->op_segments[k + 1]; s++)
        {
          int32_t r = l->seg_rank[s];

          memcpy (at[TPROF_COL_SEG_SUM] + s * sizeof (double), &cache->rank_sum[r], sizeof (double));
          memcpy (at[TPROF_COL_SEG_MIN] + s * sizeof (double), &cache->rank_min[r], sizeof (double));
          memcpy (at[TPROF_COL_SEG_MAX] + s * sizeof (double), &cache->rank_max[r], sizeof (double));
          if (at[TPROF_COL_SEG_RECORDED] != NULL)
            memcpy (at[TPROF_COL_SEG_RECORDED] + s * sizeof (int64_t), &recorded[r], sizeof (int64_t));
        }
    }
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (at[c] != NULL)
      l->crc[c] = _tprof_crc32c (0, at[c], columns_table_bytes (l, c));
  return 1;
}

int
_tprof_columns_writer_tables (TprofProfileWriter *w,
                              TprofColumnsLayout *l,
                              TprofError         *error)
{
  size_t most = (l->n_ops > l->n_segments ? l->n_ops : l->n_segments) + 1;
  void *scratch = _tprof_malloc_array_paged (most, sizeof (double), false);
  int in_image, result = 0;

  if (scratch == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing the tables", w->path);
  in_image = columns_figures_in_image (w, l, error);
  if (in_image < 0)
    result = -1;
  for (int c = 0; result == 0 && c < TPROF_N_COLUMNS; c++)
    {
      if (!l->present[c] || _tprof_columns[c].per_sample || c == TPROF_COL_OP_NAME || (in_image && columns_is_figure (c)))
        continue;
      result = columns_put_table (w, l, c, columns_table_values (l, c, scratch), error);
    }
  free (scratch);
  return result;
}

int
_tprof_columns_writer_table_checksums (TprofProfileWriter *w,
                                       TprofColumnsLayout *l,
                                       TprofError         *error)
{
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (l->present[c] && !_tprof_columns[c].per_sample && _tprof_columns_writer_checksum (w, l, c, error) < 0)
      return -1;
  return 0;
}
