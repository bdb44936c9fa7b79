/* tprof-h5-read-samples.c — one operation's `times` and `ranks` datasets: shape, type and length checked, then read and every value checked. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-private.h"

static const char *
tprof_h5_class_name (H5T_class_t klass)
{
  if (klass == H5T_INTEGER)
    return "integer";
  if (klass == H5T_FLOAT)
    return "floating point";
  if (klass == H5T_STRING)
    return "string";
  if (klass == H5T_COMPOUND)
    return "compound";
  if (klass == H5T_ENUM)
    return "enum";
  if (klass == H5T_ARRAY)
    return "array";
  if (klass == H5T_VLEN)
    return "variable-length sequence";
  return "unsupported";
}

/* Opens dataset @dset_name of operation @op and checks it is 1-D of class
 * @klass; stores its length in *@n. Returns the dataset, or -1 with the
 * error set. */
static hid_t
tprof_h5_open_samples (TprofH5Reader *r,
                       hid_t          group,
                       const char    *op,
                       const char    *dset_name,
                       H5T_class_t    klass,
                       hsize_t       *n)
{
  hid_t dset = -1, type = -1, space = -1;
  H5T_class_t found_class;
  int ndims;
  htri_t exists = H5Lexists (group, dset_name, H5P_DEFAULT);

  if (exists <= 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: operation '%s' has no dataset '%s'",
                       r->path, op, dset_name);
      return -1;
    }
  dset = H5Dopen2 (group, dset_name, H5P_DEFAULT);
  if (dset < 0)
    {
      _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path,
                       "operation '%s': '%s' is not a readable dataset", op, dset_name);
      return -1;
    }
  type = H5Dget_type (dset);
  found_class = type >= 0 ? H5Tget_class (type) : H5T_NO_CLASS;
  _tprof_h5_close (type);
  if (found_class != klass)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: operation '%s': dataset '%s' holds %s values, expected %s",
                       r->path, op, dset_name, tprof_h5_class_name (found_class),
                       tprof_h5_class_name (klass));
      goto failed;
    }
  space = H5Dget_space (dset);
  ndims = space >= 0 ? H5Sget_simple_extent_ndims (space) : -1;
  if (ndims != 1 || H5Sget_simple_extent_dims (space, n, NULL) != 1)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: operation '%s': dataset '%s' has %d dimensions, expected 1",
                       r->path, op, dset_name, ndims);
      goto failed;
    }
  _tprof_h5_close (space);
  return dset;

failed:
  _tprof_h5_close (space);
  _tprof_h5_close (dset);
  return -1;
}

/* Below this many bytes, HDF5 reads a dataset as fast as pread() would. */
#define TPROF_H5_DIRECT_MIN_BYTES ((size_t) 1 << 16)

/* Either leaves @dset to be read with pread() at the *@offset it returns,
 * or fills @data with HDF5 (*@offset -1): the only way when the file stores
 * the values chunked, filtered or in another type. */
static int
tprof_h5_read_or_locate (TprofH5Reader *r,
                         hid_t          dset,
                         hid_t          mem_type,
                         size_t         elem_size,
                         size_t         n,
                         void          *data,
                         const char    *op,
                         const char    *dset_name,
                         off_t         *offset)
{
  if (r->fd >= 0 && n * elem_size >= TPROF_H5_DIRECT_MIN_BYTES
      && _tprof_h5_direct_offset (dset, mem_type, n, elem_size, offset))
    return 0;
  *offset = -1;
  if (H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    return _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path,
                            "operation '%s': cannot read dataset '%s'", op, dset_name);
  return 0;
}

/* HDF5 clamps integers too wide for int32: the message shows rank @i as
 * stored, read again on its own. */
static void
tprof_h5_format_stored_rank (hid_t    dset,
                             size_t   i,
                             int32_t  converted,
                             char    *text,
                             size_t   text_size)
{
  hid_t type = H5Dget_type (dset);
  hid_t file_space = H5Dget_space (dset);
  hid_t mem_space = -1;
  hsize_t start = i, count = 1;
  bool is_unsigned = type >= 0 && H5Tget_sign (type) == H5T_SGN_NONE;
  unsigned long long u = 0;
  long long v = 0;
  bool read = false;

  if (file_space >= 0
      && H5Sselect_hyperslab (file_space, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0
      && (mem_space = H5Screate_simple (1, &count, NULL)) >= 0)
    read = H5Dread (dset, is_unsigned ? H5T_NATIVE_ULLONG : H5T_NATIVE_LLONG,
                    mem_space, file_space, H5P_DEFAULT, is_unsigned ? (void *) &u : (void *) &v) >= 0;
  if (read && is_unsigned)
    snprintf (text, text_size, "%llu", u);
  else if (read)
    snprintf (text, text_size, "%lld", v);
  else
    snprintf (text, text_size, "%d", (int) converted);
  _tprof_h5_close (mem_space);
  _tprof_h5_close (file_space);
  _tprof_h5_close (type);
}

/* Fills @times and @ranks (@n > 0 samples) and checks every sample. */
static int
tprof_h5_load_samples (TprofH5Reader *r,
                       const char    *op,
                       hid_t          times_dset,
                       hid_t          ranks_dset,
                       double        *times,
                       int32_t       *ranks,
                       size_t         n)
{
  TprofH5SampleSource source = { r->fd, -1, -1 };
  const char *failed_array = NULL;
  size_t invalid = n;
  char rank_text[32];
  int status;

  if (tprof_h5_read_or_locate (r, times_dset, H5T_NATIVE_DOUBLE, sizeof *times, n, times,
                               op, "times", &source.times_offset) < 0
      || tprof_h5_read_or_locate (r, ranks_dset, H5T_NATIVE_INT32, sizeof *ranks, n, ranks,
                                  op, "ranks", &source.ranks_offset) < 0)
    return -1;

  status = _tprof_h5_fill_samples (&source, times, ranks, n, r->world_size, &invalid, &failed_array);
  if (status == -1)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' runs past the end of the file (truncated?)",
                            r->path, op, failed_array);
  if (status != 0)
    return tprof_error_set (r->error, TPROF_ERROR_IO, "%s: operation '%s': cannot read dataset '%s': %s",
                            r->path, op, failed_array, strerror (status));
  if (TPROF_LIKELY (invalid == n))
    return 0;

  tprof_h5_format_stored_rank (ranks_dset, invalid, ranks[invalid], rank_text, sizeof rank_text);
  return _tprof_h5_report_invalid (r, op, times[invalid], rank_text, invalid);
}

int
_tprof_h5_read_op_samples (TprofH5Reader  *r,
                           hid_t           group,
                           const char     *op,
                           double        **times_out,
                           int32_t       **ranks_out,
                           size_t         *n_out)
{
  hid_t times_dset = -1, ranks_dset = -1;
  hsize_t n_times = 0, n_ranks = 0;
  double *times = NULL;
  int32_t *ranks = NULL;
  int result = -1;

  times_dset = tprof_h5_open_samples (r, group, op, "times", H5T_FLOAT, &n_times);
  if (times_dset < 0)
    goto out;
  ranks_dset = tprof_h5_open_samples (r, group, op, "ranks", H5T_INTEGER, &n_ranks);
  if (ranks_dset < 0)
    goto out;
  if (n_times != n_ranks)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: operation '%s': length mismatch: 'times' has %llu samples, 'ranks' has %llu",
                       r->path, op, (unsigned long long) n_times, (unsigned long long) n_ranks);
      goto out;
    }
  if (n_times > SIZE_MAX)
    {
      tprof_error_set (r->error, TPROF_ERROR_TOO_LARGE, "%s: operation '%s': too many samples",
                       r->path, op);
      goto out;
    }

  if (n_times != 0)
    {
      times = _tprof_h5_alloc_samples ((size_t) n_times, sizeof *times);
      ranks = _tprof_h5_alloc_samples ((size_t) n_times, sizeof *ranks);
      if (times == NULL || ranks == NULL)
        {
          tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                           "%s: operation '%s': not enough memory for %llu samples",
                           r->path, op, (unsigned long long) n_times);
          goto out;
        }
      if (tprof_h5_load_samples (r, op, times_dset, ranks_dset, times, ranks, (size_t) n_times) < 0)
        goto out;
    }

  *times_out = times;
  *ranks_out = ranks;
  *n_out = (size_t) n_times;
  times = NULL;
  ranks = NULL;
  result = 0;

out:
  free (times);
  free (ranks);
  _tprof_h5_close (ranks_dset);
  _tprof_h5_close (times_dset);
  return result;
}
