/* tprof-columns-reader.c — format 3 opened: the tables read whole and checked, each refusal naming the column and the row. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-crc32c.h"
#include "tprof-analysis-internal.h"
#include "tprof-h5-reader-private.h"

/* Below this many names their index is built on the caller's thread:
 * a second one costs some 20 us of the caller's to start, where the
 * index of 4 000 names takes about 50 us. */
#define INDEX_THREAD_MIN_NAMES 4096

/* The names' index, built on a second thread while the other columns
 * are read (10^4 names: a twentieth of a load), by a thread that reads
 * only the names and writes only the index (and its result here). */
typedef struct
{
  TprofProfileFile *pf;
  char *const      *names;
  size_t            n;
  TprofColumnsJob   job;
  bool              started;
  int               result;
  TprofError        error;
} IndexJob;

/* The tables as read, native: one array per column (NULL when absent). */
typedef struct
{
  TprofProfileFile *pf;
  uint64_t          k, s, n;
  char            **names;
  char             *names_block;      /* what names[] points into, or NULL: malloc'd each */
  size_t            names_span;       /* the block's bytes, where the names lie end to end in it; else 0 */
  void             *values[TPROF_N_COLUMNS];
  IndexJob          index;
  TprofError       *error;
} ColumnsRead;

#define BAD(cr, ...) tprof_error_set ((cr)->error, TPROF_ERROR_FORMAT, __VA_ARGS__)

static H5T_class_t
columns_class (TprofColumn c)
{
  TprofColumnType t = _tprof_columns[c].type;

  return t == TPROF_COLTYPE_STRING ? H5T_STRING : t == TPROF_COLTYPE_FLOAT64 ? H5T_FLOAT : H5T_INTEGER;
}

/* Opens column @c: 1-D, of its class. Returns the dataset (its length in
 * *@len), 0 when an optional column is absent, -1 with the error set. */
static hid_t
columns_open (ColumnsRead *cr,
              TprofColumn  c,
              hsize_t     *len)
{
  const TprofColumnInfo *info = &_tprof_columns[c];
  hid_t dset, space, type;
  int ndims;
  H5T_class_t klass;

  *len = 0;
  /* as the heaps' check opened it, else opened at once, as it is in a
   * sound file; only a failure looks for the links, to tell a missing
   * column from a broken one */
  dset = cr->pf->opened_columns[c];
  cr->pf->opened_columns[c] = 0;
  if (dset <= 0)
    dset = H5Dopen2 (cr->pf->file, info->path, H5P_DEFAULT);
  if (dset < 0 && (H5Lexists (cr->pf->file, info->group, H5P_DEFAULT) <= 0
                   || H5Lexists (cr->pf->file, info->path, H5P_DEFAULT) <= 0))
    return info->required ? BAD (cr, "%s: %s: missing", cr->pf->path, info->path) : 0;
  if (dset < 0)
    dset = H5Dopen2 (cr->pf->file, info->path, H5P_DEFAULT);
  if (dset < 0)
    return _tprof_h5_error (cr->error, TPROF_ERROR_FORMAT, cr->pf->path, "%s: not a readable dataset",
                            info->path);
  space = H5Dget_space (dset);
  type = H5Dget_type (dset);
  ndims = space >= 0 ? H5Sget_simple_extent_ndims (space) : -1;
  klass = type >= 0 ? H5Tget_class (type) : H5T_NO_CLASS;
  if (ndims == 1)
    H5Sget_simple_extent_dims (space, len, NULL);
  _tprof_h5_close (space);
  _tprof_h5_close (type);
  if (ndims != 1 || klass != columns_class (c))
    {
      _tprof_h5_close (dset);
      if (ndims != 1)
        return BAD (cr, "%s: %s: has %d dimensions, expected 1", cr->pf->path, info->path, ndims);
      return BAD (cr, "%s: %s: holds %s values, expected %s", cr->pf->path, info->path,
                  _tprof_h5_class_name (klass), _tprof_h5_class_name (columns_class (c)));
    }
  return dset;
}

/* The checksum attribute of dataset @dset (column @path) in *@stored:
 * 1, 0 when it has none, -1 with @error. */
static int
columns_stored_crc (const TprofProfileFile *pf,
                    hid_t                   dset,
                    const char             *path,
                    uint32_t               *stored,
                    TprofError             *error)
{
  unsigned value = 0;
  hid_t attr;
  herr_t status;

  if (H5Aexists (dset, TPROF_FORMAT_CRC_ATTR) <= 0)
    return 0;
  attr = H5Aopen (dset, TPROF_FORMAT_CRC_ATTR, H5P_DEFAULT);
  status = attr >= 0 ? H5Aread (attr, H5T_NATIVE_UINT, &value) : -1;
  _tprof_h5_close (attr);
  if (status < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s: attribute '%s' is not an unsigned integer",
                            pf->path, path, TPROF_FORMAT_CRC_ATTR);
  *stored = (uint32_t) value;
  return 1;
}

int
_tprof_columns_check_crc (const TprofProfileFile *pf,
                          hid_t                   dset,
                          const char             *path,
                          const void             *bytes,
                          size_t                  size,
                          TprofError             *error)
{
  uint32_t stored = 0, computed;
  int has = columns_stored_crc (pf, dset, path, &stored, error);

  if (has <= 0)
    return has;
  computed = _tprof_crc32c (0, bytes, size);
  if (computed != stored)
    return _tprof_columns_crc_error (pf, path, stored, computed, error);
  return 0;
}

int
_tprof_columns_crc_error (const TprofProfileFile *pf,
                          const char             *path,
                          uint32_t                stored,
                          uint32_t                computed,
                          TprofError             *error)
{
  return tprof_error_set (error, TPROF_ERROR_FORMAT,
                          "%s: %s: checksum mismatch (stored %08x, computed %08x): the column is damaged",
                          pf->path, path, stored, computed);
}

/* The memory type a numeric column is read as. */
static hid_t
columns_mem_type (TprofColumn c)
{
  TprofColumnType t = _tprof_columns[c].type;

  return t == TPROF_COLTYPE_INT32 ? H5T_NATIVE_INT32 : t == TPROF_COLTYPE_INT64 ? H5T_NATIVE_INT64
         : H5T_NATIVE_DOUBLE;
}

/* The values of numeric @dset (@n of them) as stored, against its
 * checksum where it has one: those read as @native (@c's memory type)
 * when it is the type stored, as it is in every file this library
 * writes on this machine; else read again as stored. */
static int
columns_check_stored (ColumnsRead *cr,
                      hid_t        dset,
                      TprofColumn  c,
                      uint64_t     n,
                      const void  *native)
{
  const char *path = _tprof_columns[c].path;
  uint32_t stored = 0, computed;
  int has = columns_stored_crc (cr->pf, dset, path, &stored, cr->error);
  hid_t type;
  size_t size;
  void *raw = NULL;
  const void *bytes = native;

  if (has <= 0)
    return has;
  type = H5Dget_type (dset);
  size = type >= 0 ? H5Tget_size (type) : 0;
  if (size == 0 || (H5Tequal (type, columns_mem_type (c)) <= 0
                    && ((bytes = raw = malloc (n * size + 1)) == NULL
                        || (n > 0 && H5Dread (dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) < 0))))
    {
      free (raw);
      _tprof_h5_close (type);
      return _tprof_h5_error (cr->error, TPROF_ERROR_FORMAT, cr->pf->path, "%s: cannot read", path);
    }
  computed = _tprof_crc32c (0, bytes, n * size);
  free (raw);
  _tprof_h5_close (type);
  if (computed != stored)
    return _tprof_columns_crc_error (cr->pf, path, stored, computed, cr->error);
  return 0;
}

/* The bytes of the names read into one block, where each lies right
 * after the previous one's zero (no name holds a zero of its own): what
 * the checksum covers, end to end. 0 where they do not so lie. */
static size_t
columns_names_span (const ColumnsRead *cr)
{
  const char *p = cr->names_block;

  if (p == NULL)
    return 0;
  for (uint64_t k = 0; k < cr->k; k++)
    {
      if (cr->names[k] != p)
        return 0;
      p += strlen (p) + 1;
    }
  return (size_t) (p - cr->names_block);
}

/* The names: each one's bytes and a zero, as the checksum covers them,
 * summed at once where they lie end to end in their block, else name by
 * name. */
static int
columns_check_names_crc (ColumnsRead *cr,
                         hid_t        dset)
{
  const char *path = _tprof_columns[TPROF_COL_OP_NAME].path;
  uint32_t stored = 0, computed = 0;
  int has = columns_stored_crc (cr->pf, dset, path, &stored, cr->error);
  size_t span;

  if (has <= 0)
    return has;
  if ((span = cr->names_span) > 0)
    computed = _tprof_crc32c (0, cr->names_block, span);
  else
    for (uint64_t k = 0; k < cr->k; k++)
      computed = _tprof_crc32c (computed, cr->names[k], strlen (cr->names[k]) + 1);
  if (computed != stored)
    return _tprof_columns_crc_error (cr->pf, path, stored, computed, cr->error);
  return 0;
}

static void
columns_index_run (void *data)
{
  IndexJob *job = data;

  job->result = _tprof_h5_index_names_of (job->pf, (const char *const *) job->names, job->n, &job->error);
}

/* The names read, their index begun on a second thread, where there
 * are enough of them and a processor is free; else built at the end. */
static void
columns_index_start (ColumnsRead *cr)
{
  IndexJob *job = &cr->index;

  if (cr->k < INDEX_THREAD_MIN_NAMES || cr->names == NULL)
    return;
  *job = (IndexJob) { .pf = cr->pf, .names = cr->names, .n = (size_t) cr->k };
  job->started = _tprof_columns_job_start (&job->job, columns_index_run, job);
}

/* Before the names move to the operations: the thread done with them. */
static void
columns_index_join (ColumnsRead *cr)
{
  if (cr->index.started)
    _tprof_columns_job_finish (&cr->index.job);
}

/* The index, as the thread built it, else built now: 0, or -1 with the
 * refusal of the first name given twice. */
static int
columns_index_names (ColumnsRead *cr)
{
  if (!cr->index.started)
    return _tprof_h5_index_names (cr->pf, cr->error);
  if (cr->index.result < 0 && cr->error != NULL)
    *cr->error = cr->index.error;
  return cr->index.result;
}

/* The length column @c must have; the first column of each kind sets it. */
static int
columns_check_length (ColumnsRead *cr,
                      TprofColumn  c,
                      uint64_t     len)
{
  static const TprofColumn defining[] = {
    [TPROF_LEN_K] = TPROF_COL_OP_NAME, [TPROF_LEN_K_PLUS_1] = TPROF_COL_OP_NAME,
    [TPROF_LEN_S] = TPROF_COL_SEG_RANK, [TPROF_LEN_S_PLUS_1] = TPROF_COL_SEG_RANK,
    [TPROF_LEN_N] = TPROF_COL_TIMES,
  };
  uint64_t want = _tprof_column_length (c, cr->k, cr->s, cr->n);

  if (len != want)
    return BAD (cr, "%s: %s: has %llu values, expected %llu (as %s has %llu)", cr->pf->path,
                _tprof_columns[c].path, (unsigned long long) len, (unsigned long long) want,
                _tprof_columns[defining[_tprof_columns[c].length]].path,
                (unsigned long long) (_tprof_columns[c].length <= TPROF_LEN_K_PLUS_1 ? cr->k
                                      : _tprof_columns[c].length <= TPROF_LEN_S_PLUS_1 ? cr->s : cr->n));
  return 0;
}

/* Reads table column @c whole (checked against its checksum), or notes
 * the length of a sample column. */
static int
columns_read_one (ColumnsRead *cr,
                  TprofColumn  c)
{
  hsize_t len = 0;
  hid_t dset = columns_open (cr, c, &len);
  char problem[160];
  int result = 0;

  if (dset <= 0)
    return (int) dset;
  if (c == TPROF_COL_OP_NAME)
    cr->k = len;
  else if (c == TPROF_COL_SEG_RANK)
    cr->s = len;
  else if (c == TPROF_COL_TIMES)
    cr->n = len;
  result = columns_check_length (cr, c, len);
  if (result == 0 && c == TPROF_COL_OP_NAME)
    {
      size_t bad = SIZE_MAX;
      int direct = _tprof_columns_read_names (cr->pf, dset, (size_t) len, &cr->names, &cr->names_block,
                                              cr->error);

      /* read from the file itself, or else by HDF5 */
      if (direct < 0)
        result = -1;
      else if (direct > 0)
        {
          cr->names_span = columns_names_span (cr);
          result = columns_check_names_crc (cr, dset);
        }
      else if (_tprof_h5_read_string_column (dset, (size_t) len, &cr->names, &bad, problem, sizeof problem) < 0)
        result = bad != SIZE_MAX ? BAD (cr, "%s: %s[%zu]: not valid UTF-8", cr->pf->path, _tprof_columns[c].path, bad)
                 : BAD (cr, "%s: %s: %s", cr->pf->path, _tprof_columns[c].path, problem);
      else
        result = columns_check_names_crc (cr, dset);
      if (result == 0)
        columns_index_start (cr);
    }
  else if (result == 0 && !_tprof_columns[c].per_sample)
    {
      cr->values[c] = malloc ((size_t) len * sizeof (double) + 8);
      if (cr->values[c] == NULL)
        result = tprof_error_set (cr->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", cr->pf->path);
      else if (len > 0 && H5Dread (dset, columns_mem_type (c), H5S_ALL, H5S_ALL, H5P_DEFAULT, cr->values[c]) < 0)
        result = _tprof_h5_error (cr->error, TPROF_ERROR_FORMAT, cr->pf->path, "%s: cannot read",
                                  _tprof_columns[c].path);
      else
        result = columns_check_stored (cr, dset, c, len, cr->values[c]);
    }
  else if (result == 0 && c == TPROF_COL_STARTS)
    cr->pf->has_starts = true;
  else if (result == 0 && c == TPROF_COL_THREADS)
    cr->pf->has_threads = true;
  _tprof_h5_close (dset);
  return result;
}

/* Bounds @b (@count + 1 values): 0 first, non-decreasing, ending at
 * @end, the length of what they index (@indexed). */
static int
columns_check_bounds (ColumnsRead  *cr,
                      TprofColumn   c,
                      const int64_t *b,
                      uint64_t      count,
                      uint64_t      end,
                      const char   *indexed)
{
  const char *path = _tprof_columns[c].path;

  if (b[0] != 0)
    return BAD (cr, "%s: %s[0]: is %lld, expected 0", cr->pf->path, path, (long long) b[0]);
  for (uint64_t i = 1; i <= count; i++)
    {
      if (b[i] < b[i - 1])
        return BAD (cr, "%s: %s[%llu]: not non-decreasing (%lld after %lld)", cr->pf->path, path,
                    (unsigned long long) i, (long long) b[i], (long long) b[i - 1]);
      if ((uint64_t) b[i] > end)
        return BAD (cr, "%s: %s[%llu]: is %lld, past the end of %s (%llu)", cr->pf->path, path,
                    (unsigned long long) i, (long long) b[i], indexed, (unsigned long long) end);
    }
  if ((uint64_t) b[count] != end)
    return BAD (cr, "%s: %s[%llu]: is %lld, expected %llu, the length of %s", cr->pf->path, path,
                (unsigned long long) count, (long long) b[count], (unsigned long long) end, indexed);
  return 0;
}

/* Whether the names lying end to end in their block are all UTF-8 and
 * not empty, told at once: a zero ends a name and is no part of a
 * character, so the block is UTF-8 exactly when each name is. */
static bool
columns_names_block_plain (const ColumnsRead *cr)
{
  bool empty = false;

  if (cr->names_span == 0)
    return false;
  for (uint64_t k = 0; k < cr->k; k++)
    empty |= cr->names[k][0] == '\0';
  return !empty && _tprof_h5_utf8_valid (cr->names_block, cr->names_span);
}

/* Names: UTF-8, not empty, each once (the index checks that). At once
 * over their block where they lie in one, else, or where one is wrong,
 * name by name, naming the first that is. */
static int
columns_check_names (ColumnsRead *cr)
{
  if (columns_names_block_plain (cr))
    return 0;
  for (uint64_t k = 0; k < cr->k; k++)
    {
      size_t len = strlen (cr->names[k]);

      if (len == 0)
        return BAD (cr, "%s: operations/name[%llu]: is empty", cr->pf->path, (unsigned long long) k);
      if (!_tprof_h5_utf8_valid (cr->names[k], len))
        return BAD (cr, "%s: operations/name[%llu]: not valid UTF-8", cr->pf->path, (unsigned long long) k);
    }
  return 0;
}

/* Ranks within [0, world_size), strictly ascending within an operation. */
static int
columns_check_ranks (ColumnsRead *cr)
{
  const int32_t *rank = cr->values[TPROF_COL_SEG_RANK];
  const int64_t *segments = cr->values[TPROF_COL_OP_SEGMENTS];

  for (uint64_t k = 0; k < cr->k; k++)
    for (int64_t s = segments[k]; s < segments[k + 1]; s++)
      {
        if (rank[s] < 0 || rank[s] >= cr->pf->world_size)
          return BAD (cr, "%s: segments/rank[%lld]: is %d, outside [0, %d) (world_size)", cr->pf->path,
                      (long long) s, rank[s], cr->pf->world_size);
        if (s > segments[k] && rank[s] <= rank[s - 1])
          return BAD (cr, "%s: segments/rank[%lld]: not ascending within operation %llu (%d after %d)",
                      cr->pf->path, (long long) s, (unsigned long long) k, rank[s], rank[s - 1]);
      }
  return 0;
}

static int
columns_check_counts (ColumnsRead *cr,
                      TprofColumn  c,
                      uint64_t     n)
{
  const int64_t *v = cr->values[c];

  for (uint64_t i = 0; v != NULL && i < n; i++)
    if (v[i] < 0)
      return BAD (cr, "%s: %s[%llu]: is %lld, expected >= 0", cr->pf->path, _tprof_columns[c].path,
                  (unsigned long long) i, (long long) v[i]);
  return 0;
}

/* Operation @k's cache from the columns: the operation's figures, and per
 * rank those of its segments (none: 0 samples, NaN extremes). */
static int
columns_fill_cache (ColumnsRead      *cr,
                    TprofH5Operation *op,
                    uint64_t          k)
{
  TprofOperationCache *c = &op->cache;
  size_t ws = (size_t) cr->pf->world_size;
  const int64_t *offset = cr->pf->seg_offset;
  const int32_t *rank = cr->pf->seg_rank;
  const int64_t *recorded = cr->values[TPROF_COL_SEG_RECORDED];

  /* this operation's arrays in the file's one block: counts, sums,
   * minima, maxima, recorded, each value written once below */
  int64_t *block = (int64_t *) cr->pf->cache_block + k * ws * (recorded != NULL ? 5 : 4);
  int64_t s = op->seg_first;

  c->has_count = true;
  c->count = ((const int64_t *) cr->values[TPROF_COL_OP_COUNT])[k];
  for (int i = 0; i < TPROF_CACHE_N_FLOATS; i++)
    c->floats[i] = ((const double *) cr->values[TPROF_COL_OP_SUM + i])[k];
  c->floats_present = (1u << TPROF_CACHE_N_FLOATS) - 1;
  c->borrowed = true;
  c->rank_count = block;
  c->rank_sum = (double *) (block + ws);
  c->rank_min = (double *) (block + 2 * ws);
  c->rank_max = (double *) (block + 3 * ws);
  c->rank_recorded = recorded != NULL ? block + 4 * ws : NULL;
  /* the ranks in order, the segments' ascending among them (checked) */
  for (size_t r = 0; r < ws; r++)
    if (s < op->seg_end && (size_t) rank[s] == r)
      {
        c->rank_count[r] = offset[s + 1] - offset[s];
        c->rank_sum[r] = ((const double *) cr->values[TPROF_COL_SEG_SUM])[s];
        c->rank_min[r] = ((const double *) cr->values[TPROF_COL_SEG_MIN])[s];
        c->rank_max[r] = ((const double *) cr->values[TPROF_COL_SEG_MAX])[s];
        if (recorded != NULL)
          c->rank_recorded[r] = recorded[s];
        s++;
      }
    else
      {
        c->rank_count[r] = 0;
        c->rank_sum[r] = 0.0;
        c->rank_min[r] = c->rank_max[r] = __builtin_nan ("");
        if (recorded != NULL)
          c->rank_recorded[r] = 0;
      }
  return 0;
}

/* One TprofH5Operation per row of the operations' table. */
static int
columns_make_operations (ColumnsRead *cr)
{
  TprofProfileFile *pf = cr->pf;
  const int64_t *segments = cr->values[TPROF_COL_OP_SEGMENTS];
  const int64_t *offset = pf->seg_offset;

  size_t per_op = (size_t) pf->world_size * (cr->values[TPROF_COL_SEG_RECORDED] != NULL ? 5 : 4);

  /* each operation's fields set as it is filled: one pass over the table */
  pf->ops_room = cr->k > 0 ? cr->k : 1;
  pf->ops = _tprof_malloc_array_paged (pf->ops_room, sizeof *pf->ops, false);
  /* a load asks no operation for its statistics */
  if (!pf->defer_cache)
    pf->op_stats = _tprof_malloc_array_paged (pf->ops_room, sizeof *pf->op_stats, true);
  /* one block for every operation's per-rank arrays (8 bytes a value):
   * one allocation, not four or five per operation, each value written
   * as its operation is filled (not zeroed first) */
  pf->cache_block = cr->k <= SIZE_MAX / 8 / (per_op + 1) ? malloc (((size_t) cr->k * per_op + 1) * 8) : NULL;
  if (pf->ops == NULL || pf->cache_block == NULL || (!pf->defer_cache && pf->op_stats == NULL))
    return tprof_error_set (cr->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
  /* the names move to the operations, their block with them */
  pf->names_block = cr->names_block;
  pf->names_in_block = cr->names_block != NULL;
  cr->names_block = NULL;
  for (uint64_t k = 0; k < cr->k; k++)
    {
      TprofH5Operation *op = &pf->ops[k];

      /* every field, the cache's in columns_fill_cache() (a format 3
       * operation has no link name) */
      op->name = cr->names[k];
      op->link_name = NULL;
      cr->names[k] = NULL;
      pf->n_ops++;
      op->seg_first = segments[k];
      op->seg_end = segments[k + 1];
      op->row = (uint64_t) offset[op->seg_first];
      op->n = (uint64_t) (offset[op->seg_end] - offset[op->seg_first]);
      if (columns_fill_cache (cr, op, k) < 0
          || (!pf->defer_cache && _tprof_operation_cache_accept (pf, op, cr->error) < 0))
        return -1;
    }
  return 0;
}

/* Each table column by the rule the format's table gives it; the rules
 * of the sample columns apply as they are read, those of the statistics
 * when the cache is checked. */
static int
columns_check_tables (ColumnsRead *cr)
{
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      const TprofColumnInfo *info = &_tprof_columns[c];
      uint64_t len = _tprof_column_length (c, cr->k, cr->s, cr->n);
      /* a table of bounds indexes the next table: segments, or samples */
      bool of_segments = info->length == TPROF_LEN_K_PLUS_1;
      int result = 0;

      if (info->per_sample || (cr->values[c] == NULL && c != TPROF_COL_OP_NAME))
        continue;
      if (info->rule == TPROF_RULE_NAME)
        result = columns_check_names (cr);
      else if (info->rule == TPROF_RULE_BOUNDS)
        result = columns_check_bounds (cr, c, cr->values[c], len - 1, of_segments ? cr->s : cr->n,
                                       _tprof_columns[of_segments ? TPROF_COL_SEG_RANK : TPROF_COL_TIMES].path);
      else if (info->rule == TPROF_RULE_RANK)
        result = columns_check_ranks (cr);
      else if (info->rule == TPROF_RULE_COUNT)
        result = columns_check_counts (cr, c, len);
      if (result < 0)
        return -1;
    }
  return 0;
}

int
_tprof_columns_read (TprofProfileFile *pf,
                     TprofError       *error)
{
  ColumnsRead cr = { .pf = pf, .error = error };
  int result = 0;

  /* the columns that set K, S and N first: the table lists them first */
  static const TprofColumn order_first[] = { TPROF_COL_OP_NAME, TPROF_COL_SEG_RANK, TPROF_COL_TIMES };

  for (size_t i = 0; result == 0 && i < sizeof order_first / sizeof order_first[0]; i++)
    result = columns_read_one (&cr, order_first[i]);
  for (int c = 0; result == 0 && c < TPROF_N_COLUMNS; c++)
    if (c != TPROF_COL_OP_NAME && c != TPROF_COL_SEG_RANK && c != TPROF_COL_TIMES)
      result = columns_read_one (&cr, c);
  if (result == 0)
    result = columns_check_tables (&cr);
  columns_index_join (&cr);
  if (result == 0)
    {
      pf->n_segments = (size_t) cr.s;
      pf->n_samples = cr.n;
      pf->seg_rank = cr.values[TPROF_COL_SEG_RANK];
      pf->seg_offset = cr.values[TPROF_COL_SEG_OFFSET];
      cr.values[TPROF_COL_SEG_RANK] = cr.values[TPROF_COL_SEG_OFFSET] = NULL;
      result = columns_make_operations (&cr);
    }
  if (result == 0)
    result = columns_index_names (&cr);
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    free (cr.values[c]);
  /* names not moved lie in their block, or else were malloc'd each */
  if (cr.names != NULL && !pf->names_in_block && cr.names_block == NULL)
    _tprof_h5_free_strings (cr.names, (size_t) cr.k);
  else
    free (cr.names);
  free (cr.names_block);
  return result;
}

int64_t
_tprof_columns_segment_of (const TprofProfileFile *pf,
                           const TprofH5Operation *op,
                           int                     r)
{
  int64_t lo = op->seg_first, hi = op->seg_end;

  while (lo < hi)
    {
      int64_t mid = lo + (hi - lo) / 2;

      if (pf->seg_rank[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < op->seg_end && pf->seg_rank[lo] == r ? lo : -1;
}

/* Sample column @c, opened at its first read and kept open until the
 * file is closed; 0 when the file has none, -1 when it cannot be opened
 * (the open checked it: damage since). */
static hid_t
columns_open_sample (TprofProfileFile *pf,
                     TprofColumn       c)
{
  bool present = c == TPROF_COL_TIMES || (c == TPROF_COL_STARTS && pf->has_starts)
                 || (c == TPROF_COL_THREADS && pf->has_threads);
  hid_t *dset;

  if (!present)
    return 0;
  dset = &pf->sample_dset[c - TPROF_COL_TIMES];
  if (*dset == 0)
    {
      hid_t opened = H5Dopen2 (pf->file, _tprof_columns[c].path, H5P_DEFAULT);

      if (opened < 0)
        return -1;
      *dset = opened;
    }
  return *dset;
}

void
_tprof_columns_close_opened (TprofProfileFile *pf)
{
  for (size_t c = 0; c < TPROF_N_COLUMNS; c++)
    {
      if (pf->opened_columns[c] > 0)
        _tprof_h5_close (pf->opened_columns[c]);
      pf->opened_columns[c] = 0;
    }
}

void
_tprof_columns_close (TprofProfileFile *pf)
{
  _tprof_columns_close_opened (pf);
  for (size_t i = 0; i < TPROF_N_SAMPLE_DSETS; i++)
    {
      if (pf->sample_dset[i] > 0)
        _tprof_h5_close (pf->sample_dset[i]);
      pf->sample_dset[i] = 0;
    }
}

int
_tprof_columns_stored_crc (TprofProfileFile *pf,
                           int               c,
                           uint32_t         *crc,
                           TprofError       *error)
{
  const char *path = _tprof_columns[c].path;
  size_t size = _tprof_column_value_size (c);
  hid_t native = columns_mem_type (c);
  TprofH5Guard guard;
  unsigned stored = 0;
  hid_t dset, type = -1, attr = -1;
  int result = 0;

  _tprof_h5_enter (&guard);
  dset = columns_open_sample (pf, c);
  if (dset > 0)
    type = H5Dget_type (dset);
  /* the values as read are the bytes as stored */
  if (type >= 0 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && H5Tget_size (type) == size
      && H5Tget_class (type) == H5Tget_class (native) && H5Tget_order (type) == H5T_ORDER_LE
      && H5Aexists (dset, TPROF_FORMAT_CRC_ATTR) > 0)
    {
      attr = H5Aopen (dset, TPROF_FORMAT_CRC_ATTR, H5P_DEFAULT);
      result = attr >= 0 && H5Aread (attr, H5T_NATIVE_UINT, &stored) >= 0 ? 1
               : tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s: attribute '%s' is not an unsigned integer",
                                  pf->path, path, TPROF_FORMAT_CRC_ATTR);
    }
  else if (dset < 0)
    result = _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "%s: not a readable dataset", path);
  _tprof_h5_close (attr);
  _tprof_h5_close (type);
  _tprof_h5_leave (&guard);
  *crc = (uint32_t) stored;
  return result;
}

/* Rows [@row, @row + @count) of sample column @c into @values. */
static int
columns_read_range (TprofProfileFile *pf,
                    TprofColumn       c,
                    uint64_t          row,
                    uint64_t          count,
                    void             *values,
                    TprofError       *error)
{
  hid_t dset = columns_open_sample (pf, c);
  bool ok = dset > 0 && _tprof_h5_read_range (dset, columns_mem_type (c), row, count, values);

  if (!ok)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "%s: cannot read rows %llu to %llu",
                            _tprof_columns[c].path, (unsigned long long) row, (unsigned long long) (row + count));
  return 0;
}

int
_tprof_columns_read_rows (TprofProfileFile *pf,
                          size_t            first_op,
                          size_t            end_op,
                          uint64_t          row,
                          uint64_t          count,
                          double           *times,
                          double           *starts,
                          int32_t          *threads,
                          TprofError       *error)
{
  TprofH5Guard guard;
  int result;

  (void) first_op;
  (void) end_op;
  if (count == 0)
    return 0;
  _tprof_h5_enter (&guard);
  result = times != NULL ? columns_read_range (pf, TPROF_COL_TIMES, row, count, times, error) : 0;
  if (result == 0 && starts != NULL)
    result = columns_read_range (pf, TPROF_COL_STARTS, row, count, starts, error);
  if (result == 0 && threads != NULL)
    result = columns_read_range (pf, TPROF_COL_THREADS, row, count, threads, error);
  _tprof_h5_leave (&guard);
  return result;
}

/* Values a step of the checks below: blocks of a fixed length, which
 * the compiler vectorizes, then the rest one by one. */
#define ROWS_BLOCK 16

/* _tprof_h5_value_head() without the sign: 0x800 for an infinity or NaN. */
static inline uint64_t
rows_exponent (const double *p)
{
  return ((_tprof_h5_value_head (*p) - 1) & 0x7ff) + 1;
}

/* Whether times[0, @n) are all finite and >= 0 (or -0.0, which only the
 * slow path that names the row tells from a negative value). */
static bool
columns_times_good (const double *times,
                    uint64_t      n)
{
  uint64_t any = 0, i = 0;

  for (; i + ROWS_BLOCK <= n; i += ROWS_BLOCK)
    for (uint64_t j = 0; j < ROWS_BLOCK; j++)
      any |= _tprof_h5_value_head (times[i + j]);
  for (; i < n; i++)
    any |= _tprof_h5_value_head (times[i]);
  return any <= 0x7ff;
}

/* Whether starts[0, @n) are all finite. */
static bool
columns_starts_good (const double *starts,
                     uint64_t      n)
{
  uint64_t any = 0, i = 0;

  for (; i + ROWS_BLOCK <= n; i += ROWS_BLOCK)
    for (uint64_t j = 0; j < ROWS_BLOCK; j++)
      any |= rows_exponent (&starts[i + j]);
  for (; i < n; i++)
    any |= rows_exponent (&starts[i]);
  return any <= 0x7ff;
}

/* Whether threads[0, @n) are all >= 0: no sign bit in any. */
static bool
columns_threads_good (const int32_t *threads,
                      uint64_t       n)
{
  uint32_t any = 0;
  uint64_t i = 0;

  for (; i + ROWS_BLOCK <= n; i += ROWS_BLOCK)
    for (uint64_t j = 0; j < ROWS_BLOCK; j++)
      any |= (uint32_t) threads[i + j];
  for (; i < n; i++)
    any |= (uint32_t) threads[i];
  return (any >> 31) == 0;
}

/* Whether every value of rows [0, @n) keeps its rule: one branch-free
 * pass a column (false may still be all good: a time of -0.0). */
static bool
columns_rows_good (uint64_t       n,
                   const double  *times,
                   const double  *starts,
                   const int32_t *threads)
{
  return columns_times_good (times, n) && (starts == NULL || columns_starts_good (starts, n))
         && (threads == NULL || columns_threads_good (threads, n));
}

int
_tprof_columns_check_rows (const TprofProfileFile *pf,
                           uint64_t                row,
                           uint64_t                n,
                           const double           *times,
                           const double           *starts,
                           const int32_t          *threads,
                           TprofError             *error)
{
  if (columns_rows_good (n, times, starts, threads))
    return 0;
  /* the first row that breaks a rule, named */
  for (uint64_t i = 0; i < n; i++)
    {
      if (!(isfinite (times[i]) && times[i] >= 0))
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: samples/times[%llu]: is %s (%g), expected a "
                                "finite time >= 0", pf->path, (unsigned long long) (row + i),
                                isnan (times[i]) ? "NaN" : isinf (times[i]) ? "infinite" : "negative", times[i]);
      if (starts != NULL && !isfinite (starts[i]))
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: samples/starts[%llu]: is %g, expected a "
                                "finite time", pf->path, (unsigned long long) (row + i), starts[i]);
      if (threads != NULL && threads[i] < 0)
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: samples/threads[%llu]: is %d, expected a "
                                "thread >= 0", pf->path, (unsigned long long) (row + i), threads[i]);
    }
  return 0;
}
