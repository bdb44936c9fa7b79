/* tprof-h5-samples.c — one operation's samples read from its `times` and `ranks` (format 3: its rows of the columns), all or some ranks' runs, in blocks, checked. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tprof-analysis-internal.h"
#include "tprof-h5-reader-private.h"

/* Below this many bytes, HDF5 reads a dataset as fast as pread() would. */
#define TPROF_H5_DIRECT_MIN_BYTES ((size_t) 1 << 16)

typedef struct
{
  TprofProfileFile   *pf;
  const char         *op;
  TprofH5Guard        guard;          /* held except while filling */
  hid_t               group;          /* the operation's group; format 3: /samples */
  const TprofH5Operation *operation;
  uint64_t            base;           /* format 3: the operation's first row; else 0 */
  bool                columns;        /* format 3: ranks come from the segments */
  hid_t               times_dset;
  hid_t               ranks_dset;
  off_t               times_direct;   /* file offset of times[0]; -1: HDF5 reads */
  off_t               ranks_direct;
  TprofError         *error;
} TprofH5SampleRead;

/* Where pread() can read all @n values of @dset, or -1. */
static off_t
tprof_h5_locate (const TprofH5SampleRead *sr,
                 hid_t                    dset,
                 hid_t                    mem_type,
                 size_t                   elem_size,
                 uint64_t                 n)
{
  off_t offset;

  if (sr->pf->fd >= 0 && n * elem_size >= TPROF_H5_DIRECT_MIN_BYTES
      && _tprof_h5_direct_offset (dset, mem_type, (size_t) n, elem_size, &offset))
    return offset;
  return -1;
}

/* HDF5 clamps integers too wide for int32: the message shows rank @i as
 * stored, read again on its own. */
static void
tprof_h5_format_stored_rank (hid_t    dset,
                             uint64_t i,
                             int32_t  converted,
                             char    *text,
                             size_t   text_size)
{
  hid_t type = H5Dget_type (dset);
  bool is_unsigned = type >= 0 && H5Tget_sign (type) == H5T_SGN_NONE;
  unsigned long long u = 0;
  long long v = 0;
  bool read;

  _tprof_h5_close (type);
  read = _tprof_h5_read_range (dset, is_unsigned ? H5T_NATIVE_ULLONG : H5T_NATIVE_LLONG, i, 1,
                               is_unsigned ? (void *) &u : (void *) &v);
  if (read && is_unsigned)
    snprintf (text, text_size, "%llu", u);
  else if (read)
    snprintf (text, text_size, "%lld", v);
  else
    snprintf (text, text_size, "%d", (int) converted);
}

/* What HDF5 must read of the block: the arrays pread() cannot reach. */
static int
tprof_h5_read_block_hdf5 (TprofH5SampleRead *sr,
                          uint64_t           start,
                          uint64_t           count,
                          double            *times,
                          int32_t           *ranks)
{
  if (sr->times_direct < 0
      && !_tprof_h5_read_range (sr->times_dset, H5T_NATIVE_DOUBLE, sr->base + start, count, times))
    return _tprof_h5_error (sr->error, TPROF_ERROR_FORMAT, sr->pf->path,
                            "operation '%s': cannot read dataset 'times'", sr->op);
  if (sr->columns)
    _tprof_h5_ranks_from_counts (sr->operation->cache.rank_count, sr->pf->world_size, start, count, ranks);
  else if (sr->ranks_direct < 0
      && !_tprof_h5_read_range (sr->ranks_dset, H5T_NATIVE_INT32, start, count, ranks))
    return _tprof_h5_error (sr->error, TPROF_ERROR_FORMAT, sr->pf->path,
                            "operation '%s': cannot read dataset 'ranks'", sr->op);
  return 0;
}

/* Fills and checks samples [@start, @start + @count) of the file. */
static int
tprof_h5_read_block (TprofH5SampleRead *sr,
                     uint64_t           start,
                     uint64_t           count,
                     double            *times,
                     int32_t           *ranks)
{
  TprofH5SampleSource source = { .fd = sr->pf->fd, .times_offset = -1, .ranks_offset = -1 };
  const char *failed_array = NULL;
  size_t invalid = (size_t) count;
  char rank_text[32];
  int status;

  if (tprof_h5_read_block_hdf5 (sr, start, count, times, ranks) < 0)
    return -1;
  if (sr->times_direct >= 0)
    source.times_offset = sr->times_direct + (off_t) ((sr->base + start) * sizeof *times);
  if (sr->ranks_direct >= 0)
    source.ranks_offset = sr->ranks_direct + (off_t) (start * sizeof *ranks);

  /* pread() and the checks need no HDF5: other files may be read meanwhile */
  _tprof_h5_leave (&sr->guard);
  status = _tprof_h5_fill_samples (&source, times, ranks, (size_t) count, sr->pf->world_size,
                                   &invalid, &failed_array);
  _tprof_h5_enter (&sr->guard);
  if (status == -1)
    return tprof_error_set (sr->error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' runs past the end of the file (truncated?)",
                            sr->pf->path, sr->op, failed_array);
  if (status != 0)
    return tprof_error_set (sr->error, TPROF_ERROR_IO, "%s: operation '%s': cannot read dataset '%s': %s",
                            sr->pf->path, sr->op, failed_array, strerror (status));
  if (TPROF_LIKELY (invalid == count))
    return 0;
  if (sr->columns)
    return _tprof_h5_report_invalid_row (sr->pf, sr->op, times[invalid], sr->base + start + invalid, sr->error);
  tprof_h5_format_stored_rank (sr->ranks_dset, start + invalid, ranks[invalid], rank_text, sizeof rank_text);
  return _tprof_h5_report_invalid (sr->pf, sr->op, times[invalid], rank_text, start + invalid, sr->error);
}

bool
_tprof_h5_all_of_rank (const int32_t *ranks,
                       uint64_t       n,
                       int32_t        rank)
{
  int32_t differ = 0;

  for (uint64_t i = 0; i < n; i++)
    differ |= ranks[i] ^ rank;
  return differ == 0;
}

/* Keeps, in order, the samples of the ranks marked in @keep (with their
 * starts and threads where not NULL); their count. */
size_t
_tprof_h5_keep_ranks (double        *times,
                      int32_t       *ranks,
                      double        *starts,
                      int32_t       *threads,
                      size_t         n,
                      const uint8_t *keep)
{
  size_t m = 0;

  for (size_t i = 0; i < n; i++)
    if (keep[ranks[i]])
      {
        times[m] = times[i];
        if (starts != NULL)
          starts[m] = starts[i];
        if (threads != NULL)
          threads[m] = threads[i];
        ranks[m++] = ranks[i];
      }
  return m;
}

/* Reads dataset @name (class @klass) of the operation at @runs into @out
 * (@elem_size bytes a value, as @mem_type); *@present false when the
 * operation has none. 0, or -1 with the error set. */
static int
tprof_h5_read_member_runs (TprofH5SampleRead *sr,
                           const char        *name,
                           H5T_class_t        klass,
                           hid_t              mem_type,
                           size_t             elem_size,
                           const TprofH5Run  *runs,
                           size_t             n_runs,
                           void              *out,
                           bool              *present)
{
  hsize_t len = 0;
  hid_t dset;
  size_t dest = 0;
  int result = 0;

  *present = H5Lexists (sr->group, name, H5P_DEFAULT) > 0;
  if (!*present)
    return 0;
  dset = _tprof_h5_open_dataset_1d (sr->pf, sr->group, sr->op, name, klass, &len, sr->error);
  if (dset < 0)
    return -1;
  for (size_t k = 0; k < n_runs && result == 0; k++)
    {
      if (sr->base + runs[k].start + runs[k].count > len
          || !_tprof_h5_read_range (dset, mem_type, sr->base + runs[k].start, runs[k].count,
                                    (char *) out + dest * elem_size))
        result = _tprof_h5_error (sr->error, TPROF_ERROR_FORMAT, sr->pf->path,
                                  "operation '%s': cannot read dataset '%s'", sr->op, name);
      dest += (size_t) runs[k].count;
    }
  _tprof_h5_close (dset);
  return result;
}

/* The file index of the @i-th value read from @runs. */
uint64_t
_tprof_h5_file_index (const TprofH5Run *runs,
                      size_t            i)
{
  for (;; runs++)
    {
      if (i < runs->count)
        return runs->start + i;
      i -= (size_t) runs->count;
    }
}

int
_tprof_h5_check_timeline (const TprofProfileFile *pf,
                          const char             *op,
                          uint64_t                row,
                          const TprofH5Run       *runs,
                          const double           *starts,
                          const int32_t          *threads,
                          size_t                  n,
                          TprofError             *error)
{
  bool columns = pf->format_version >= 3;

  for (size_t i = 0; starts != NULL && i < n; i++)
    if (!isfinite (starts[i]))
      return columns
             ? tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: samples/starts[%llu]: is %g, expected a finite "
                                "time (operation '%s')", pf->path,
                                (unsigned long long) (row + _tprof_h5_file_index (runs, i)), starts[i], op)
             : tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: operation '%s': starts[%llu] is not finite",
                                pf->path, op, (unsigned long long) _tprof_h5_file_index (runs, i));
  for (size_t i = 0; threads != NULL && i < n; i++)
    if (threads[i] < 0)
      return columns
             ? tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: samples/threads[%llu]: is %d, expected a "
                                "thread >= 0 (operation '%s')", pf->path,
                                (unsigned long long) (row + _tprof_h5_file_index (runs, i)), threads[i], op)
             : tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: operation '%s': threads[%llu] is negative",
                                pf->path, op, (unsigned long long) _tprof_h5_file_index (runs, i));
  return 0;
}

/* The starts and threads of the samples at @runs, where the operation has
 * them, checked: starts finite, threads >= 0. 0 (the
 * arrays NULL when absent), or -1 with the error set. */
static int
tprof_h5_read_timeline (TprofH5SampleRead *sr,
                        const TprofH5Run  *runs,
                        size_t             n_runs,
                        size_t             n,
                        double           **starts,
                        int32_t          **threads)
{
  bool has_starts = false, has_threads = false;

  *starts = n > 0 ? _tprof_malloc_array (n, sizeof **starts) : NULL;
  *threads = n > 0 ? _tprof_malloc_array (n, sizeof **threads) : NULL;
  if (n > 0 && (*starts == NULL || *threads == NULL))
    return tprof_error_set (sr->error, TPROF_ERROR_NO_MEMORY,
                            "%s: operation '%s': not enough memory for the timeline of %zu samples",
                            sr->pf->path, sr->op, n);
  if (tprof_h5_read_member_runs (sr, "starts", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof (double), runs, n_runs,
                                 *starts, &has_starts) < 0
      || tprof_h5_read_member_runs (sr, "threads", H5T_INTEGER, H5T_NATIVE_INT32, sizeof (int32_t), runs,
                                    n_runs, *threads, &has_threads) < 0)
    return -1;
  if (_tprof_h5_check_timeline (sr->pf, sr->op, sr->base, runs, has_starts ? *starts : NULL,
                                has_threads ? *threads : NULL, n, sr->error) < 0)
    return -1;
  if (!has_starts)
    {
      free (*starts);
      *starts = NULL;
    }
  if (!has_threads)
    {
      free (*threads);
      *threads = NULL;
    }
  return 0;
}

/* With the cached per-rank counts: one run per selected rank with samples,
 * where a file grouped by ascending rank stores it. NULL (and *@n_runs 0)
 * when the counts are unknown. */
TprofH5Run *
_tprof_h5_plan_runs (const TprofProfileFile *pf,
                     const TprofH5Operation *op,
                     const int32_t          *ranks,
                     size_t                  n_ranks,
                     size_t                 *n_runs,
                     uint64_t               *total)
{
  const int64_t *counts = op->cache.rank_count;
  TprofH5Run *runs;
  uint64_t offset = 0;
  size_t k = 0;

  *n_runs = 0;
  *total = 0;
  if (counts == NULL || (runs = calloc (n_ranks + 1, sizeof *runs)) == NULL)
    return NULL;
  for (int r = 0; r < pf->world_size && k < n_ranks; r++)
    {
      if (r == ranks[k] && counts[r] > 0)
        runs[(*n_runs)++] = (TprofH5Run) { offset, (uint64_t) counts[r], r };
      if (r == ranks[k])
        k++;
      offset += (uint64_t) counts[r];
    }
  for (size_t i = 0; i < *n_runs; i++)
    *total += runs[i].count;
  return runs;
}

/* Opens `times` and `ranks` again and finds where pread() can read them. */
static int
tprof_h5_open_samples (TprofH5SampleRead      *sr,
                       hid_t                   group,
                       const TprofH5Operation *op)
{
  hsize_t n_times = 0, n_ranks = 0;

  sr->times_dset = _tprof_h5_open_dataset_1d (sr->pf, group, op->name, "times", H5T_FLOAT,
                                              &n_times, sr->error);
  if (sr->times_dset < 0)
    return -1;
  sr->ranks_dset = _tprof_h5_open_dataset_1d (sr->pf, group, op->name, "ranks", H5T_INTEGER,
                                              &n_ranks, sr->error);
  if (sr->ranks_dset < 0)
    return -1;
  if (n_times != op->n || n_ranks != op->n)
    return tprof_error_set (sr->error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': the file changed since it was opened", sr->pf->path, op->name);
  sr->times_direct = tprof_h5_locate (sr, sr->times_dset, H5T_NATIVE_DOUBLE, sizeof (double), op->n);
  sr->ranks_direct = tprof_h5_locate (sr, sr->ranks_dset, H5T_NATIVE_INT32, sizeof (int32_t), op->n);
  return 0;
}

/* Format 3: each sample column's rows of @op lie within the file as it is
 * now (HDF5 would read zeros past its end). 0, or -1 with the error. */
static int
tprof_h5_check_columns_extent (TprofH5SampleRead      *sr,
                               const TprofH5Operation *op)
{
  struct stat st;

  if (sr->pf->fd < 0 || fstat (sr->pf->fd, &st) < 0)
    return 0;
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    {
      const char *name = _tprof_columns[c].name;
      hid_t dset = _tprof_columns[c].per_sample && H5Lexists (sr->group, name, H5P_DEFAULT) > 0
                   ? H5Dopen2 (sr->group, name, H5P_DEFAULT) : -1;
      hid_t type = dset >= 0 ? H5Dget_type (dset) : -1;
      haddr_t at = dset >= 0 ? H5Dget_offset (dset) : HADDR_UNDEF;
      size_t size = type >= 0 ? H5Tget_size (type) : 0;

      _tprof_h5_close (type);
      _tprof_h5_close (dset);
      if (at != HADDR_UNDEF && op->n > 0 && at + (op->row + op->n) * size > (uint64_t) st.st_size)
        return tprof_error_set (sr->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': dataset '%s' runs past the end of the file (truncated?)",
                                sr->pf->path, op->name, name);
    }
  return 0;
}

/* Format 3: /samples/times, the whole column, and where pread() reads it. */
static int
tprof_h5_open_columns (TprofH5SampleRead      *sr,
                       const TprofH5Operation *op)
{
  hsize_t n_times = 0;

  sr->times_dset = _tprof_h5_open_dataset_1d (sr->pf, sr->group, op->name, "times", H5T_FLOAT, &n_times,
                                              sr->error);
  if (sr->times_dset < 0)
    return -1;
  if (n_times != sr->pf->n_samples || op->row + op->n > n_times)
    return tprof_error_set (sr->error, TPROF_ERROR_FORMAT,
                            "%s: samples/times: the file changed since it was opened", sr->pf->path);
  sr->times_direct = tprof_h5_locate (sr, sr->times_dset, H5T_NATIVE_DOUBLE, sizeof (double), n_times);
  return tprof_h5_check_columns_extent (sr, op);
}

/* Format 3: a read of every sample of the file (one operation holding
 * them all) checks each sample column against its checksum, where it is
 * stored as the values were read (float64 and int32, little-endian). */
static int
tprof_h5_check_columns_crc (TprofH5SampleRead       *sr,
                            const TprofGatheredTime *gt)
{
  size_t n = tprof_gathered_time_count (gt);
  int result = 0;

  if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || n != sr->pf->n_samples)
    return 0;
  for (int c = 0; result == 0 && c < TPROF_N_COLUMNS; c++)
    {
      const TprofColumnInfo *info = &_tprof_columns[c];
      const void *values = c == TPROF_COL_TIMES ? (const void *) tprof_gathered_time_times (gt)
                           : c == TPROF_COL_STARTS ? (const void *) tprof_gathered_time_starts (gt)
                           : (const void *) tprof_gathered_time_threads (gt);
      hid_t dset = info->per_sample && values != NULL ? H5Dopen2 (sr->group, info->name, H5P_DEFAULT) : -1;
      hid_t type = dset >= 0 ? H5Dget_type (dset) : -1;
      hid_t stored = info->type == TPROF_COLTYPE_FLOAT64 ? H5T_IEEE_F64LE : H5T_STD_I32LE;

      if (type >= 0 && H5Tequal (type, stored) > 0)
        result = _tprof_columns_check_crc (sr->pf, dset, info->path, values, n * H5Tget_size (type), sr->error);
      _tprof_h5_close (type);
      _tprof_h5_close (dset);
    }
  return result;
}

/* TprofH5Reading's callbacks on a TprofH5SampleRead. */
static int
tprof_h5_reading_block (void *source, uint64_t start, uint64_t count, double *times, int32_t *ranks)
{
  return tprof_h5_read_block (source, start, count, times, ranks);
}

static void
tprof_h5_reading_unlock (void *source, bool unlocked)
{
  TprofH5SampleRead *sr = source;

  if (unlocked)
    _tprof_h5_leave (&sr->guard);
  else
    _tprof_h5_enter (&sr->guard);
}

static int
tprof_h5_reading_timeline (void *source, const TprofH5Run *runs, size_t n_runs, size_t n, double **starts,
                           int32_t **threads)
{
  return tprof_h5_read_timeline (source, runs, n_runs, n, starts, threads);
}

TprofGatheredTime *
_tprof_h5_read_samples (TprofProfileFile   *pf,
                        size_t              op_index,
                        const int32_t      *ranks,
                        size_t              n_ranks,
                        TprofProgressFunc   progress,
                        void               *user_data,
                        const volatile int *cancel,
                        TprofError         *error)
{
  const TprofH5Operation *op = &pf->ops[op_index];
  TprofH5SampleRead sr = { pf, op->name, { 0 }, -1, op, 0, pf->format_version >= 3, -1, -1, -1, -1, error };
  TprofH5Reading reading = { pf, op->name, op->n, progress, user_data, cancel, error, &sr,
                             tprof_h5_reading_block, tprof_h5_reading_timeline, tprof_h5_reading_unlock, 0, 0 };
  TprofGatheredTime *gt = NULL;
  hid_t group;

  _tprof_h5_enter (&sr.guard);
  if (sr.columns)
    {
      sr.base = op->row;
      group = H5Gopen2 (pf->file, "samples", H5P_DEFAULT);
      if (group < 0)
        _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "samples is not a group");
    }
  else
    group = _tprof_h5_open_operation (pf, op_index, error);
  sr.group = group;
  if (group >= 0 && (sr.columns ? tprof_h5_open_columns (&sr, op) : tprof_h5_open_samples (&sr, group, op)) == 0)
    gt = _tprof_h5_read_planned (&reading, op, ranks, n_ranks);
  if (gt != NULL && sr.columns && ranks == NULL && tprof_h5_check_columns_crc (&sr, gt) < 0)
    {
      tprof_gathered_time_free (gt);
      gt = NULL;
    }
  _tprof_h5_close (sr.ranks_dset);
  _tprof_h5_close (sr.times_dset);
  _tprof_h5_close (group);
  _tprof_h5_leave (&sr.guard);
  return gt;
}
