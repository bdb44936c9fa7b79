/* tprof-h5-write.c — a profile written as HDF5 (DESIGN.md section 2) into an in-memory image. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-private.h"

typedef struct
{
  const char *path;      /* what the user asked for: used in messages */
  hid_t       file;
  hid_t       str_type;  /* variable-length UTF-8 */
  hid_t       lcpl;      /* UTF-8 link names */
  hid_t       scalar;
} TprofH5Writer;

static int
tprof_h5_write_string_attr (TprofH5Writer *w,
                            hid_t          obj,
                            const char    *attr_name,
                            const char    *value)
{
  hid_t attr = H5Acreate2 (obj, attr_name, w->str_type, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
  herr_t status = attr >= 0 ? H5Awrite (attr, w->str_type, &value) : -1;

  _tprof_h5_close (attr);
  return status < 0 ? -1 : 0;
}

static int
tprof_h5_write_int_attr (TprofH5Writer *w,
                         hid_t          obj,
                         const char    *attr_name,
                         long long      value)
{
  hid_t attr = H5Acreate2 (obj, attr_name, H5T_STD_I64LE, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
  herr_t status = attr >= 0 ? H5Awrite (attr, H5T_NATIVE_LLONG, &value) : -1;

  _tprof_h5_close (attr);
  return status < 0 ? -1 : 0;
}

/* One 1-D contiguous dataset, written with a single H5Dwrite. */
static int
tprof_h5_write_array (hid_t       group,
                      const char *dset_name,
                      hid_t       file_type,
                      hid_t       mem_type,
                      const void *data,
                      size_t      n)
{
  hsize_t dims[1] = { n };
  hid_t space = H5Screate_simple (1, dims, NULL);
  hid_t dset = -1;
  herr_t status = -1;

  if (space >= 0)
    dset = H5Dcreate2 (group, dset_name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0)
    status = n == 0 ? 0 : H5Dwrite (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  _tprof_h5_close (dset);
  _tprof_h5_close (space);
  return status < 0 ? -1 : 0;
}

static int
tprof_h5_write_operation (TprofH5Writer           *w,
                          const TprofProfiledTime *pt,
                          hid_t                    timings,
                          size_t                   op,
                          TprofError              *error)
{
  const char *name = tprof_profiled_time_name (pt, op);
  const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, op);
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);
  double *sorted_times = NULL;
  int32_t *sorted_ranks = NULL;
  char *link_name = _tprof_h5_escape_name (name);
  TprofH5RankOrder order;
  hid_t group = -1;
  int result = -1;

  if (link_name == NULL)
    goto no_memory;

  order = _tprof_h5_rank_order (ranks, n, tprof_profiled_time_world_size (pt));
  if (order == TPROF_H5_OUT_OF_RANGE)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: operation '%s' has a rank outside [0, %d)",
                       w->path, name, tprof_profiled_time_world_size (pt));
      goto out;
    }
  /* Gathered profiles come grouped already: write them without a copy. */
  if (order == TPROF_H5_INTERLEAVED)
    {
      /* n fits: the selection already holds n doubles */
      sorted_times = malloc (n * sizeof *sorted_times);
      sorted_ranks = malloc (n * sizeof *sorted_ranks);
      if (sorted_times == NULL || sorted_ranks == NULL ||
          !_tprof_h5_group_by_rank (times, ranks, n, tprof_profiled_time_world_size (pt),
                                   sorted_times, sorted_ranks))
        goto no_memory;
      times = sorted_times;
      ranks = sorted_ranks;
    }

  group = H5Gcreate2 (timings, link_name, w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0 ||
      tprof_h5_write_string_attr (w, group, "name", name) < 0 ||
      tprof_h5_write_array (group, "times", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, times, n) < 0 ||
      tprof_h5_write_array (group, "ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, ranks, n) < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write operation '%s'", name);
      goto out;
    }
  result = 0;
  goto out;

no_memory:
  tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'",
                   w->path, name);

out:
  _tprof_h5_close (group);
  free (link_name);
  free (sorted_times);
  free (sorted_ranks);
  return result;
}

static int
tprof_h5_write_hostnames (TprofH5Writer           *w,
                          const TprofProfiledTime *pt,
                          TprofError              *error)
{
  int world_size = tprof_profiled_time_world_size (pt);
  const char **hostnames;
  hsize_t dims[1] = { (hsize_t) world_size };
  hid_t group = -1, space = -1, dset = -1;
  int result = -1;

  if (tprof_profiled_time_hostname (pt, 0) == NULL)
    return 0;
  hostnames = calloc ((unsigned) world_size, sizeof *hostnames);
  if (hostnames == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                            "%s: out of memory writing host names", w->path);
  for (int r = 0; r < world_size; r++)
    hostnames[r] = tprof_profiled_time_hostname (pt, r);

  group = H5Gcreate2 (w->file, "ranks", w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (group >= 0)
    space = H5Screate_simple (1, dims, NULL);
  if (space >= 0)
    dset = H5Dcreate2 (group, "hostname", w->str_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0 && H5Dwrite (dset, w->str_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, hostnames) >= 0)
    result = 0;
  else
    _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write /ranks/hostname");

  _tprof_h5_close (dset);
  _tprof_h5_close (space);
  _tprof_h5_close (group);
  free (hostnames);
  return result;
}

static int
tprof_h5_write_root (TprofH5Writer           *w,
                     const TprofProfiledTime *pt,
                     TprofError              *error)
{
  char created[32] = "";
  time_t now = time (NULL);
  struct tm utc;

  if (gmtime_r (&now, &utc) != NULL)
    strftime (created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &utc);

  if (tprof_h5_write_string_attr (w, w->file, "format", TPROF_H5_FORMAT) < 0 ||
      tprof_h5_write_int_attr (w, w->file, "format_version", TPROF_H5_FORMAT_VERSION) < 0 ||
      tprof_h5_write_int_attr (w, w->file, "world_size", tprof_profiled_time_world_size (pt)) < 0 ||
      (created[0] != '\0' && tprof_h5_write_string_attr (w, w->file, "created", created) < 0) ||
      tprof_h5_write_string_attr (w, w->file, "producer", TPROF_PRODUCER) < 0 ||
      tprof_h5_write_string_attr (w, w->file, "clock", TPROF_CLOCK_NAME) < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write the root attributes");
  return 0;
}

static int
tprof_h5_write_timings (TprofH5Writer           *w,
                        const TprofProfiledTime *pt,
                        TprofError              *error)
{
  hid_t gcpl = H5Pcreate (H5P_GROUP_CREATE);
  hid_t timings = -1;
  int result = 0;

  if (gcpl >= 0 &&
      H5Pset_link_creation_order (gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0)
    timings = H5Gcreate2 (w->file, "timings", w->lcpl, gcpl, H5P_DEFAULT);
  if (timings < 0)
    result = _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot create /timings");

  for (size_t op = 0; result == 0 && op < tprof_profiled_time_len (pt); op++)
    result = tprof_h5_write_operation (w, pt, timings, op, error);

  _tprof_h5_close (timings);
  _tprof_h5_close (gcpl);
  return result;
}
int
_tprof_h5_build_image (const TprofProfiledTime *pt,
                       const char              *tmp_path,
                       const char              *path,
                       TprofH5Image            *image_out,
                       size_t                  *image_size,
                       TprofError              *error)
{
  TprofH5Writer w = { path, -1, -1, -1, -1 };
  TprofH5Image image = { NULL, 0, false };
  hid_t fapl = -1;
  ssize_t size = -1;
  int result = -1;

  w.str_type = _tprof_h5_vlen_utf8_type ();
  w.scalar = H5Screate (H5S_SCALAR);
  w.lcpl = H5Pcreate (H5P_LINK_CREATE);
  fapl = _tprof_h5_image_fapl (pt, &image);
  if (w.str_type < 0 || w.scalar < 0 || w.lcpl < 0 || fapl < 0 ||
      H5Pset_char_encoding (w.lcpl, H5T_CSET_UTF8) < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot set up HDF5");
      goto out;
    }
  w.file = H5Fcreate (tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (w.file < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot create the HDF5 image in memory");
      goto out;
    }
  if (tprof_h5_write_root (&w, pt, error) < 0 ||
      tprof_h5_write_timings (&w, pt, error) < 0 ||
      tprof_h5_write_hostnames (&w, pt, error) < 0)
    goto out;
  if (H5Fflush (w.file, H5F_SCOPE_GLOBAL) < 0 || (size = H5Fget_file_image (w.file, NULL, 0)) <= 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot finish the HDF5 image");
      goto out;
    }
  *image_size = (size_t) size;
  result = 0;

out:
  /* in memory, a close has nothing to fail on */
  _tprof_h5_close (w.file);
  _tprof_h5_close (fapl);
  _tprof_h5_close (w.lcpl);
  _tprof_h5_close (w.scalar);
  _tprof_h5_close (w.str_type);
  if (result == 0 && (!image.kept || *image_size > image.size))
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: the HDF5 image was lost", path);
  if (result == 0)
    *image_out = image;
  else
    _tprof_h5_image_release (&image);
  return result;
}
