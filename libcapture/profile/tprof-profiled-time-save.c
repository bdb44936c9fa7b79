/* tprof-h5-save.c — tprof_profiled_time_save(): the HDF5 image written beside the target, then renamed over it. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-private.h"

/* Creates a new empty file "<dir>/.<base>.XXXXXX" beside @path, like
 * mkstemp() but with the permissions the umask gives ordinary files. Returns
 * its malloc'd name and its descriptor in *@fd, or NULL with @error set. */
static char *
tprof_h5_create_temp (const char *path,
                      int        *fd,
                      TprofError *error)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static unsigned counter;
  const char *slash = strrchr (path, '/');
  const char *base = slash != NULL ? slash + 1 : path;
  size_t dir_len = (size_t) (base - path);
  size_t len = strlen (path) + sizeof "/..XXXXXX";
  char *tmp;
  int saved_errno = EEXIST;

  if (base[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the path names a directory, not a file", path);
      return NULL;
    }
  tmp = malloc (len);
  if (tmp == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
      return NULL;
    }

  for (int attempt = 0; attempt < 100 && saved_errno == EEXIST; attempt++)
    {
      uint64_t seed = (uint64_t) tprof_clock_now_ns () ^ ((uint64_t) getpid () << 32)
                      ^ ((uint64_t) __atomic_add_fetch (&counter, 1, __ATOMIC_RELAXED) * 2654435761u);
      char suffix[7];

      for (int k = 0; k < 6; k++, seed /= sizeof alphabet - 1)
        suffix[k] = alphabet[seed % (sizeof alphabet - 1)];
      suffix[6] = '\0';
      snprintf (tmp, len, "%.*s.%s.%s", (int) dir_len, path, base, suffix);
      *fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (*fd >= 0)
        return tmp;
      saved_errno = errno;
    }

  tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot create a temporary file beside it: %s",
                   path, strerror (saved_errno));
  free (tmp);
  return NULL;
}

/* Writes all of @data to @fd and makes it durable; 0, or -1 with errno. */
static int
tprof_h5_write_all (int         fd,
                    const char *data,
                    size_t      size)
{
  while (size > 0)
    {
      ssize_t written = write (fd, data, size);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          if (written == 0)
            errno = EIO;
          return -1;
        }
      data += written;
      size -= (size_t) written;
    }
  return fsync (fd);
}

int
tprof_profiled_time_save (const TprofProfiledTime *pt,
                          const char              *path,
                          TprofError              *error)
{
  TprofH5Guard guard;
  TprofH5Image image = { NULL, 0, false };
  size_t image_size = 0;
  char *tmp;
  int fd = -1;
  int result;

  tprof_error_clear (error);
  if (pt == NULL || path == NULL || path[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profiled_time_save: %s",
                            pt == NULL ? "the profile is NULL" : "the path is empty");

  /* the temporary file first: an unwritable place fails before any work */
  tmp = tprof_h5_create_temp (path, &fd, error);
  if (tmp == NULL)
    return -1;

  _tprof_h5_enter (&guard);
  result = _tprof_h5_build_image (pt, tmp, path, &image, &image_size, error);
  _tprof_h5_leave (&guard);

  if (result == 0 && tprof_h5_write_all (fd, image.buffer, image_size) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s",
                              path, tmp, strerror (errno));
  _tprof_h5_image_release (&image);
  if (close (fd) < 0 && result == 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s",
                              path, tmp, strerror (errno));
  if (result == 0 && rename (tmp, path) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot replace it with %s: %s",
                              path, tmp, strerror (errno));
  if (result < 0)
    unlink (tmp);
  free (tmp);
  return result;
}
