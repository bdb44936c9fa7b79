/* tprof-h5-root.c — a profile file's root attributes (format, version, world size, provenance) and the optional /ranks/hostname. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-reader-private.h"

int
_tprof_h5_read_hostnames (TprofProfileFile *pf,
                          TprofError       *error)
{
  hid_t ranks_group = -1, dset = -1, space = -1;
  hsize_t dims[1] = { 0 };
  char **hostnames = NULL;
  char problem[128] = "";
  int result = -1;

  if (H5Lexists (pf->file, "ranks", H5P_DEFAULT) <= 0)
    return 0;
  ranks_group = H5Gopen2 (pf->file, "ranks", H5P_DEFAULT);
  if (ranks_group < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "/ranks is not a group");
  if (H5Lexists (ranks_group, "hostname", H5P_DEFAULT) <= 0)
    {
      _tprof_h5_close (ranks_group);
      return 0;
    }

  dset = H5Dopen2 (ranks_group, "hostname", H5P_DEFAULT);
  if (dset >= 0)
    space = H5Dget_space (dset);
  if (space < 0 || H5Sget_simple_extent_ndims (space) != 1 ||
      H5Sget_simple_extent_dims (space, dims, NULL) != 1 || dims[0] != (hsize_t) pf->world_size)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT,
                       "%s: /ranks/hostname must be a 1-D dataset of world_size (%d) strings",
                       pf->path, pf->world_size);
      goto out;
    }
  if (_tprof_h5_read_string_dataset (dset, (size_t) pf->world_size, &hostnames,
                                     problem, sizeof problem) < 0)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: /ranks/hostname %s", pf->path, problem);
      goto out;
    }
  pf->hostnames = hostnames;
  hostnames = NULL;
  result = 0;

out:
  _tprof_h5_free_strings (hostnames, (size_t) pf->world_size);
  _tprof_h5_close (space);
  _tprof_h5_close (dset);
  _tprof_h5_close (ranks_group);
  return result;
}

/* What tprof_h5_read_rank_doubles() accepts besides finite values. */
enum
{
  RANK_DOUBLES_FINITE = 0,
  RANK_DOUBLES_NON_NEGATIVE = 1,  /* only values >= 0 */
  RANK_DOUBLES_NAN = 2,           /* NaN too (a rank without a value) */
};

/* /ranks/@name, world_size finite values (as @rules say), into a new
 * array in *@out; absent: NULL. 0, or -1 with the error set. */
static int
tprof_h5_read_rank_doubles (TprofProfileFile *pf,
                            hid_t             ranks_group,
                            const char       *name,
                            unsigned          rules,
                            double          **out,
                            TprofError       *error)
{
  bool non_negative = (rules & RANK_DOUBLES_NON_NEGATIVE) != 0, nan = (rules & RANK_DOUBLES_NAN) != 0;
  size_t n = (size_t) pf->world_size;
  double *values;
  int found;

  *out = NULL;
  if (H5Lexists (ranks_group, name, H5P_DEFAULT) <= 0)
    return 0;
  values = malloc (n * sizeof *values);
  if (values == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
  found = _tprof_h5_read_member (pf, ranks_group, "/ranks", name, H5T_FLOAT, H5T_NATIVE_DOUBLE, n, values, error);
  for (size_t r = 0; found > 0 && r < n; r++)
    if ((!isfinite (values[r]) && !(nan && isnan (values[r]))) || (non_negative && values[r] < 0))
      {
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: /ranks/%s[%zu] is %g, expected a finite %s%s",
                         pf->path, name, r, values[r], non_negative ? "value >= 0" : "value",
                         nan ? " or NaN" : "");
        found = -1;
      }
  if (found <= 0)
    {
      free (values);
      return found < 0 ? -1 : 0;
    }
  *out = values;
  return 0;
}

int
_tprof_h5_read_clock_offsets (TprofProfileFile *pf,
                              TprofError       *error)
{
  hid_t ranks_group;
  int result;

  if (H5Lexists (pf->file, "ranks", H5P_DEFAULT) <= 0)
    return 0;
  ranks_group = H5Gopen2 (pf->file, "ranks", H5P_DEFAULT);
  if (ranks_group < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "/ranks is not a group");
  result = tprof_h5_read_rank_doubles (pf, ranks_group, "clock_offset", RANK_DOUBLES_FINITE, &pf->clock_offsets,
                                       error);
  if (result == 0)
    result = tprof_h5_read_rank_doubles (pf, ranks_group, "clock_offset_error", RANK_DOUBLES_NON_NEGATIVE,
                                         &pf->clock_offset_errors, error);
  if (result == 0)
    result = tprof_h5_read_rank_doubles (pf, ranks_group, "data_until", RANK_DOUBLES_NAN, &pf->data_until, error);
  _tprof_h5_close (ranks_group);
  return result;
}

/* The required integer root attribute @name, or -1 with the error set. */
static int
tprof_h5_read_required_int (TprofProfileFile *pf,
                            const char       *name,
                            long long        *value,
                            TprofError       *error)
{
  char problem[128];
  int found = _tprof_h5_read_int_attr (pf->file, name, value, problem, sizeof problem);

  if (found < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s",
                            pf->path, name, problem);
  if (found == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' is missing",
                            pf->path, name);
  return 0;
}

int
_tprof_h5_read_root (TprofProfileFile *pf,
                     TprofError       *error)
{
  static const char *const optional[] = { "created", "producer", "clock", "timeline_origin" };
  char *info[4] = { NULL, NULL, NULL };
  char problem[128];
  char *format = NULL;
  long long version, world_size;
  int found;

  found = _tprof_h5_read_string_attr (pf->file, "format", &format, problem, sizeof problem);
  if (found < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute 'format' %s",
                            pf->path, problem);
  if (found == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: not a tprof profile (root attribute 'format' is missing)", pf->path);
  if (strcmp (format, TPROF_H5_FORMAT) != 0)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT,
                       "%s: not a tprof profile (root attribute 'format' is '%.64s', expected '%s')",
                       pf->path, format, TPROF_H5_FORMAT);
      free (format);
      return -1;
    }
  free (format);

  if (tprof_h5_read_required_int (pf, "format_version", &version, error) < 0)
    return -1;
  if (version > TPROF_H5_READER_MAX_VERSION)
    return tprof_error_set (error, TPROF_ERROR_VERSION,
                            "%s: the file is newer than this reader (format_version %lld; "
                            "this reader understands up to %d): update tprof",
                            pf->path, version, TPROF_H5_READER_MAX_VERSION);
  if (version < 1)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: root attribute 'format_version' is %lld, expected 1 to %d",
                            pf->path, version, TPROF_H5_READER_MAX_VERSION);

  if (tprof_h5_read_required_int (pf, "world_size", &world_size, error) < 0)
    return -1;
  if (world_size < 1 || world_size > INT_MAX)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: root attribute 'world_size' is %lld, expected an integer in [1, %d]",
                            pf->path, world_size, INT_MAX);
  pf->format_version = (int) version;
  pf->world_size = (int) world_size;

  for (size_t i = 0; i < 4; i++)
    if (_tprof_h5_read_string_attr (pf->file, optional[i], &info[i], problem, sizeof problem) < 0)
      {
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s",
                         pf->path, optional[i], problem);
        for (size_t k = 0; k < i; k++)
          free (info[k]);
        return -1;
      }
  pf->created = info[0];
  pf->producer = info[1];
  pf->clock = info[2];
  pf->timeline_origin = info[3];
  return 0;
}
