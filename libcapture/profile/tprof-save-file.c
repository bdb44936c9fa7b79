/* tprof-save-file.c — TprofSaveFile: the temporary file of a save, its reserved space, written, then renamed over the target. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof/tprof-clock.h"
#include "tprof-h5-writer-private.h"

/* Tries to create "<dir>/.<base>.XXXXXX" (in @tmp, @len bytes) beside
 * @path, like mkstemp() but with the permissions the umask gives ordinary
 * files. Returns the descriptor, or -1 with errno. */
static int
tprof_save_file_try_create (const char *path,
                            char       *tmp,
                            size_t      len)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static unsigned counter;
  const char *slash = strrchr (path, '/');
  const char *base = slash != NULL ? slash + 1 : path;
  int fd = -1;

  errno = EEXIST;
  for (int attempt = 0; attempt < 100 && fd < 0 && errno == EEXIST; attempt++)
    {
      uint64_t seed = (uint64_t) tprof_clock_now_ns () ^ ((uint64_t) getpid () << 32)
                      ^ ((uint64_t) __atomic_add_fetch (&counter, 1, __ATOMIC_RELAXED) * 2654435761u);
      char suffix[7];

      for (int k = 0; k < 6; k++, seed /= sizeof alphabet - 1)
        suffix[k] = alphabet[seed % (sizeof alphabet - 1)];
      suffix[6] = '\0';
      snprintf (tmp, len, "%.*s.%s.%s", (int) (base - path), path, base, suffix);
      /* read and write: glibc's posix_fallocate() emulation reads */
      fd = open (tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    }
  return fd;
}

int
_tprof_save_file_create (TprofSaveFile *file,
                         const char    *path,
                         TprofError    *error)
{
  const char *slash = strrchr (path, '/');
  size_t len = strlen (path) + sizeof "/..XXXXXX";

  *file = (TprofSaveFile) { path, NULL, -1, 0 };
  if ((slash != NULL ? slash + 1 : path)[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the path names a directory, not a file", path);
  file->tmp_path = malloc (len);
  if (file->tmp_path == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
  file->fd = tprof_save_file_try_create (path, file->tmp_path, len);
  if (file->fd < 0)
    {
      tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot create a temporary file beside it: %s",
                       path, strerror (errno));
      free (file->tmp_path);
      file->tmp_path = NULL;
      return -1;
    }
  return 0;
}

int
_tprof_save_file_reserve (TprofSaveFile *file,
                          off_t          size,
                          TprofError    *error)
{
  off_t target = size;
  int status;

  if (size <= file->reserved)
    return 0;
  /* grow geometrically: many operations, few calls */
  if (file->reserved > 0 && target - file->reserved < file->reserved / 8)
    target = file->reserved + file->reserved / 8;
  /* Where the file system cannot allocate, glibc writes a byte per block:
   * slower, but the space is as much ours. A file size limit fails here
   * (EFBIG) too, before HDF5 writes anything. */
  status = posix_fallocate (file->fd, file->reserved, target - file->reserved);
  if (status != 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot reserve %lld bytes for %s: %s",
                            file->path, (long long) target, file->tmp_path, strerror (status));
  file->reserved = target;
  return 0;
}

int
_tprof_save_file_pwrite (TprofSaveFile *file,
                         const void    *data,
                         size_t         size,
                         off_t          offset,
                         TprofError    *error)
{
  const char *bytes = data;

  while (size > 0)
    {
      ssize_t written = pwrite (file->fd, bytes, size, offset);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s", file->path,
                                file->tmp_path, written == 0 ? strerror (EIO) : strerror (errno));
      bytes += written;
      size -= (size_t) written;
      offset += written;
    }
  return 0;
}

void
_tprof_save_file_abandon (TprofSaveFile *file)
{
  if (file->fd >= 0)
    close (file->fd);
  if (file->tmp_path != NULL)
    unlink (file->tmp_path);
  free (file->tmp_path);
  file->tmp_path = NULL;
  file->fd = -1;
  file->reserved = 0;
}

int
_tprof_save_file_commit (TprofSaveFile *file,
                         off_t          size,
                         TprofError    *error)
{
  struct stat st;
  int result = 0;

  /* the reservation may extend past the end HDF5 settled on */
  if (fstat (file->fd, &st) < 0 || (size >= 0 && st.st_size > size && ftruncate (file->fd, size) < 0) ||
      fsync (file->fd) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s",
                              file->path, file->tmp_path, strerror (errno));
  if (close (file->fd) < 0 && result == 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s",
                              file->path, file->tmp_path, strerror (errno));
  file->fd = -1;
  if (result == 0 && rename (file->tmp_path, file->path) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot replace it with %s: %s",
                              file->path, file->tmp_path, strerror (errno));
  if (result == 0)
    {
      free (file->tmp_path);
      file->tmp_path = NULL;
    }
  _tprof_save_file_abandon (file);
  return result;
}
