/* tprof-h5-read-samples.c — one operation's `times` and `ranks` datasets: shape, type, length and every value checked. */
#include <math.h>
#include <stdint.h>
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

/* Reads @n samples of @dset into a new array of @elem_size bytes per value. */
static void *
tprof_h5_read_samples (TprofH5Reader *r,
                       hid_t          dset,
                       hid_t          mem_type,
                       size_t         elem_size,
                       size_t         n,
                       const char    *op,
                       const char    *dset_name)
{
  void *data;

  if (n > SIZE_MAX / elem_size || (data = malloc (n * elem_size)) == NULL)
    {
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                       "%s: operation '%s': not enough memory for %zu samples",
                       r->path, op, n);
      return NULL;
    }
  if (H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    {
      _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path,
                       "operation '%s': cannot read dataset '%s'", op, dset_name);
      free (data);
      return NULL;
    }
  return data;
}

/* Branch-free passes over the bits, cheap even unvectorized: true when
 * every sample is valid, the common case, so the search for the culprit
 * rarely runs. */
static bool
tprof_h5_samples_valid (const double  *times,
                        const int32_t *ranks,
                        size_t         n,
                        int            world_size)
{
  uint64_t times_bad = 0;
  uint32_t ranks_bad = 0;

  for (size_t i = 0; i < n; i++)
    {
      uint64_t bits;

      /* The sign bit flags negatives (and -0.0, which the slow pass then
       * accepts); adding one to the exponent carries into the sign bit
       * exactly for infinities and NaNs. */
      memcpy (&bits, &times[i], sizeof bits);
      times_bad |= (bits | (bits + UINT64_C (0x0010000000000000))) >> 63;
    }
  /* unsigned: negative ranks wrap to huge ones */
  for (size_t i = 0; i < n; i++)
    ranks_bad |= (uint32_t) ranks[i] >= (uint32_t) world_size;
  return times_bad == 0 && ranks_bad == 0;
}

static int
tprof_h5_check_samples (TprofH5Reader *r,
                        const char    *op,
                        const double  *times,
                        const int32_t *ranks,
                        size_t         n)
{
  if (TPROF_LIKELY (tprof_h5_samples_valid (times, ranks, n, r->world_size)))
    return 0;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (times[i]) || times[i] < 0)
        return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': times[%zu] is %s (%g), expected a finite time >= 0",
                                r->path, op, i,
                                isnan (times[i]) ? "NaN" : isinf (times[i]) ? "infinite" : "negative",
                                times[i]);
      if (ranks[i] < 0 || ranks[i] >= r->world_size)
        return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': ranks[%zu] is %d, outside [0, %d) (world_size %d)",
                                r->path, op, i, (int) ranks[i], r->world_size, r->world_size);
    }
  return 0;
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
      times = tprof_h5_read_samples (r, times_dset, H5T_NATIVE_DOUBLE, sizeof *times,
                                     (size_t) n_times, op, "times");
      if (times == NULL)
        goto out;
      ranks = tprof_h5_read_samples (r, ranks_dset, H5T_NATIVE_INT32, sizeof *ranks,
                                     (size_t) n_times, op, "ranks");
      if (ranks == NULL || tprof_h5_check_samples (r, op, times, ranks, (size_t) n_times) < 0)
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
