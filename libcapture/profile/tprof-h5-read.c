/* tprof-h5-read.c — tprof_profiled_time_load(): checks and reads an HDF5 profile (DESIGN.md section 2). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-private.h"

static TprofProfiledTime *
tprof_h5_read_file (const char *path,
                    TprofError *error)
{
  TprofH5Reader r = { path, error, -1, NULL, 0, -1 };
  htri_t is_hdf5 = H5Fis_hdf5 (path);

  if (is_hdf5 <= 0)
    {
      if (is_hdf5 == 0)
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: not an HDF5 file", path);
      else
        _tprof_h5_error (error, TPROF_ERROR_FORMAT, path, "not a readable HDF5 file");
      return NULL;
    }
  r.file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (r.file < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_FORMAT, path, "cannot open as HDF5");
      return NULL;
    }
  r.fd = _tprof_h5_file_descriptor (r.file);

  /* after H5Fopen, whose check of a truncated file says it best */
  if (_tprof_h5_check_global_heaps (path, r.file, error) < 0 ||
      _tprof_h5_read_root (&r) < 0 ||
      _tprof_h5_read_timings (&r) < 0 ||
      _tprof_h5_read_hostnames (&r) < 0)
    {
      tprof_profiled_time_free (r.pt);
      r.pt = NULL;
    }
  _tprof_h5_close (r.file);
  return r.pt;
}

/* Plain-POSIX checks first: their errno says more than HDF5 would. */
static int
tprof_h5_check_readable (const char *path,
                         TprofError *error)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (errno));
  if (fstat (fd, &st) < 0)
    {
      int saved_errno = errno;

      close (fd);
      return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (saved_errno));
    }
  close (fd);
  if (S_ISDIR (st.st_mode))
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: is a directory, not a profile", path);
  /* HDF5 needs to seek; a pipe or a device could also block forever */
  if (!S_ISREG (st.st_mode))
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: is not a regular file", path);
  if (st.st_size == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the file is empty", path);
  return 0;
}

TprofProfiledTime *
tprof_profiled_time_load (const char *path,
                          TprofError *error)
{
  TprofH5Guard guard;
  TprofProfiledTime *pt;

  tprof_error_clear (error);
  if (path == NULL || path[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profiled_time_load: the path is empty");
      return NULL;
    }
  if (tprof_h5_check_readable (path, error) < 0)
    return NULL;

  _tprof_h5_enter (&guard);
  pt = tprof_h5_read_file (path, error);
  _tprof_h5_leave (&guard);
  return pt;
}
