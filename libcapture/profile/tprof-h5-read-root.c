/* tprof-h5-read-root.c — the root attributes (format, version, world size, provenance) and the optional /ranks/hostname. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-private.h"
#include "tprof-profiled-time-private.h"

int
_tprof_h5_read_hostnames (TprofH5Reader *r)
{
  hid_t ranks_group = -1, dset = -1, space = -1;
  hsize_t dims[1] = { 0 };
  char **hostnames = NULL;
  char problem[128] = "";
  int result = -1;

  if (H5Lexists (r->file, "ranks", H5P_DEFAULT) <= 0)
    return 0;
  ranks_group = H5Gopen2 (r->file, "ranks", H5P_DEFAULT);
  if (ranks_group < 0)
    return _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path, "/ranks is not a group");
  if (H5Lexists (ranks_group, "hostname", H5P_DEFAULT) <= 0)
    {
      _tprof_h5_close (ranks_group);
      return 0;
    }

  dset = H5Dopen2 (ranks_group, "hostname", H5P_DEFAULT);
  if (dset >= 0)
    space = H5Dget_space (dset);
  if (space < 0 || H5Sget_simple_extent_ndims (space) != 1 ||
      H5Sget_simple_extent_dims (space, dims, NULL) != 1 || dims[0] != (hsize_t) r->world_size)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: /ranks/hostname must be a 1-D dataset of world_size (%d) strings",
                       r->path, r->world_size);
      goto out;
    }
  if (_tprof_h5_read_string_dataset (dset, (size_t) r->world_size, &hostnames,
                                     problem, sizeof problem) < 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: /ranks/hostname %s", r->path, problem);
      goto out;
    }
  result = tprof_profiled_time_set_hostnames (r->pt, (const char *const *) hostnames, r->error);

out:
  _tprof_h5_free_strings (hostnames, (size_t) r->world_size);
  _tprof_h5_close (space);
  _tprof_h5_close (dset);
  _tprof_h5_close (ranks_group);
  return result;
}

/* The required integer root attribute @name, or -1 with the error set. */
static int
tprof_h5_read_required_int (TprofH5Reader *r,
                            const char    *name,
                            long long     *value)
{
  char problem[128];
  int found = _tprof_h5_read_int_attr (r->file, name, value, problem, sizeof problem);

  if (found < 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s",
                            r->path, name, problem);
  if (found == 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' is missing",
                            r->path, name);
  return 0;
}

int
_tprof_h5_read_root (TprofH5Reader *r)
{
  static const char *const optional[] = { "created", "producer", "clock" };
  char *info[3] = { NULL, NULL, NULL };
  char problem[128];
  char *format = NULL;
  long long version, world_size;
  int found;

  found = _tprof_h5_read_string_attr (r->file, "format", &format, problem, sizeof problem);
  if (found < 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute 'format' %s",
                            r->path, problem);
  if (found == 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: not a tprof profile (root attribute 'format' is missing)", r->path);
  if (strcmp (format, TPROF_H5_FORMAT) != 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: not a tprof profile (root attribute 'format' is '%.64s', expected '%s')",
                       r->path, format, TPROF_H5_FORMAT);
      free (format);
      return -1;
    }
  free (format);

  if (tprof_h5_read_required_int (r, "format_version", &version) < 0)
    return -1;
  if (version > TPROF_H5_FORMAT_VERSION)
    return tprof_error_set (r->error, TPROF_ERROR_VERSION,
                            "%s: the file is newer than this reader (format_version %lld; "
                            "this reader understands up to %d): update tprof",
                            r->path, version, TPROF_H5_FORMAT_VERSION);
  if (version < 1)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: root attribute 'format_version' is %lld, expected 1 or 2",
                            r->path, version);

  if (tprof_h5_read_required_int (r, "world_size", &world_size) < 0)
    return -1;
  if (world_size < 1 || world_size > INT_MAX)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: root attribute 'world_size' is %lld, expected an integer in [1, %d]",
                            r->path, world_size, INT_MAX);
  r->world_size = (int) world_size;
  r->pt = tprof_profiled_time_new (r->world_size);
  if (r->pt == NULL)
    return tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", r->path);

  for (size_t i = 0; i < 3; i++)
    if (_tprof_h5_read_string_attr (r->file, optional[i], &info[i], problem, sizeof problem) < 0)
      {
        tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s",
                         r->path, optional[i], problem);
        for (size_t k = 0; k < i; k++)
          free (info[k]);
        return -1;
      }
  _tprof_profiled_time_take_info (r->pt, info[0], info[1], info[2]);
  return 0;
}
