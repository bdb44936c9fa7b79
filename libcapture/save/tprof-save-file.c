/* tprof-save-file.c — TprofSaveFile: the temporary file of a save (unnamed where it can be), its reserved space, written, then renamed over the target. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof/tprof-clock.h"
#include "tprof-h5-writer-private.h"

#define MAX_LINK_DEPTH 40

/* @path with every symbolic link along the last component followed, as
 * open() would; malloc'd, or NULL with errno. A dangling link resolves to
 * the missing file it names, which the save then creates. */
static char *
tprof_save_file_follow (const char *path)
{
  char *current = strdup (path);

  for (int depth = 0; current != NULL && depth < MAX_LINK_DEPTH; depth++)
    {
      char link[4096];
      ssize_t len = readlink (current, link, sizeof link - 1);
      const char *slash = strrchr (current, '/');
      char *next;

      if (len < 0)
        return errno == EINVAL || errno == ENOENT ? current : (free (current), NULL);
      link[len] = '\0';
      /* a relative link is relative to the link's own directory */
      if (link[0] == '/' || slash == NULL)
        next = strdup (link);
      else if (asprintf (&next, "%.*s/%s", (int) (slash - current), current, link) < 0)
        next = NULL;
      free (current);
      current = next;
    }
  if (current != NULL)
    {
      free (current);
      errno = ELOOP;
    }
  return NULL;
}

/* The directory of @path ("." when it has none); malloc'd or NULL. */
static char *
tprof_save_file_dirname (const char *path)
{
  const char *slash = strrchr (path, '/');

  if (slash == NULL)
    return strdup (".");
  if (slash == path)
    return strdup ("/");
  return strndup (path, (size_t) (slash - path));
}

/* Refuses a target that exists and is not a regular file: a save replaces
 * a profile, never a device, a FIFO or a directory. */
static int
tprof_save_file_check_target (const TprofSaveFile *file,
                              TprofError          *error)
{
  struct stat st;

  if (stat (file->target, &st) < 0)
    return errno == ENOENT ? 0
           : tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", file->path, strerror (errno));
  if (S_ISREG (st.st_mode))
    return 0;
  return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot save over it: %s; a profile replaces only "
                          "a regular file", file->path,
                          S_ISDIR (st.st_mode) ? strerror (EISDIR) : S_ISFIFO (st.st_mode) ? "it is a FIFO"
                          : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? "it is a device"
                          : "it is not a regular file");
}

static int
tprof_save_file_open (TprofSaveFile *file,
                      const char    *path,
                      bool           may_be_unnamed,
                      TprofError    *error)
{
  *file = (TprofSaveFile) { .path = path, .fd = -1 };
  if ((strrchr (path, '/') != NULL ? strrchr (path, '/') + 1 : path)[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the path names a directory, not a file", path);
  file->target = tprof_save_file_follow (path);
  if (file->target == NULL && errno == ENAMETOOLONG)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: the file name is too long (%s)", path,
                            strerror (errno));
  if (file->target == NULL)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot follow the link: %s", path, strerror (errno));
  file->dir = tprof_save_file_dirname (file->target);
  if (file->dir == NULL)
    {
      _tprof_save_file_abandon (file);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
    }
  if (tprof_save_file_check_target (file, error) < 0)
    {
      _tprof_save_file_abandon (file);
      return -1;
    }
  /* What saves killed here before left behind goes first: nothing
   * else ever would remove it. */
  _tprof_save_temp_sweep (file->dir);
  if (may_be_unnamed)
    file->fd = _tprof_save_temp_open_unnamed (file->dir, &file->tmp_path);
  file->unnamed = file->fd >= 0;
  if (!file->unnamed)
    file->fd = _tprof_save_temp_open (file->dir, &file->tmp_path);
  file->linked = !file->unnamed;
  if (file->fd < 0)
    {
      tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot create a temporary file in %s: %s",
                       path, file->dir, strerror (errno));
      _tprof_save_file_abandon (file);
      return -1;
    }
  return 0;
}

int
_tprof_save_file_create (TprofSaveFile *file,
                         const char    *path,
                         TprofError    *error)
{
  return tprof_save_file_open (file, path, true, error);
}

int
_tprof_save_file_create_named (TprofSaveFile *file,
                               const char    *path,
                               TprofError    *error)
{
  return tprof_save_file_open (file, path, false, error);
}

/* Gives an unnamed temporary file its name @file->tmp_path (once only:
 * the kernel links an O_TMPFILE file in once). 0, or -1 with @error. */
static int
tprof_save_file_show (TprofSaveFile *file,
                      TprofError    *error)
{
  if (file->linked)
    return 0;
  if (_tprof_save_temp_link (file->fd, file->dir, file->tmp_path) < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot name its temporary file in %s: %s",
                            file->path, file->dir, strerror (errno));
  file->linked = true;
  return 0;
}

int
_tprof_save_file_set_driver (TprofSaveFile *file,
                             hid_t                fapl,
                             const char         **name)
{
  /* unnamed, HDF5 is given the directory's name, which it only looks at;
   * through the descriptor, not by name with the sec2 driver, whose
   * create would truncate the file and lose its reservation */
  *name = file->linked ? file->tmp_path : file->dir;
  return _tprof_h5_fd_driver_set (fapl, file->fd, file->image != NULL ? file : NULL);
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
  if (file->image != NULL)
    {
      if ((uint64_t) target > SIZE_MAX || _tprof_save_image_reserve (file, (size_t) target) < 0)
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: cannot reserve %lld bytes for it in memory",
                                file->path, (long long) target);
      return 0;
    }
  /* Where the file system cannot allocate, glibc writes a byte per block:
   * slower, but the space is as much ours. A file size limit fails here
   * (EFBIG) too, before HDF5 writes anything. */
  status = posix_fallocate (file->fd, file->reserved, target - file->reserved);
  if (status != 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot reserve %lld bytes for it: %s",
                            file->path, (long long) target, strerror (status));
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

  if (file->image != NULL)
    return _tprof_save_image_write (file, data, size, (uint64_t) offset) < 0
           ? tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: cannot build it in memory: %s", file->path,
                              strerror (errno))
           : 0;
  while (size > 0)
    {
      ssize_t written = pwrite (file->fd, bytes, size, offset);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write its temporary file: %s",
                                file->path, written == 0 ? strerror (EIO) : strerror (errno));
      bytes += written;
      size -= (size_t) written;
      offset += written;
    }
  return 0;
}

void
_tprof_save_file_abandon (TprofSaveFile *file)
{
  if (file->image != NULL)
    _tprof_save_image_free (file);
  if (file->fd >= 0)
    close (file->fd);
  if (file->tmp_path != NULL && file->linked)
    unlink (file->tmp_path);
  free (file->tmp_path);
  free (file->target);
  free (file->dir);
  *file = (TprofSaveFile) { .path = file->path, .fd = -1 };
}

/* The new file takes the mode and group of the one it replaces (a
 * private profile stays private); failures only leave it as created. */
static void
tprof_save_file_keep_attributes (const TprofSaveFile *file)
{
  struct stat st;

  if (stat (file->target, &st) != 0 || !S_ISREG (st.st_mode))
    return;
  (void) !fchown (file->fd, (uid_t) -1, st.st_gid);
  (void) !fchmod (file->fd, st.st_mode & 07777);
}

int
_tprof_save_file_commit (TprofSaveFile *file,
                         off_t          size,
                         TprofError    *error)
{
  struct stat st;
  int result = 0, replaced = -1;

  /* an image is written at once, exactly its size; a reservation on disk
   * may extend past the end HDF5 settled on */
  if ((file->image != NULL && _tprof_save_image_flush (file, size) < 0) || fstat (file->fd, &st) < 0
      || (size >= 0 && st.st_size > size && ftruncate (file->fd, size) < 0) || fsync (file->fd) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write its temporary file: %s",
                              file->path, strerror (errno));
  if (result == 0)
    tprof_save_file_keep_attributes (file);
  /* an unnamed file takes its name only now, just before the rename */
  if (result == 0)
    result = tprof_save_file_show (file, error);
  if (close (file->fd) < 0 && result == 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write its temporary file: %s",
                              file->path, strerror (errno));
  file->fd = -1;
  /* the file replaced stays referenced across the rename, which then
   * frees none of its blocks: its last close does, on another thread
   * (O_PATH: whatever its mode, and nothing opened for reading) */
  if (result == 0)
    replaced = open (file->target, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (result == 0 && rename (file->tmp_path, file->target) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot replace it: %s",
                              file->path, strerror (errno));
  if (result == 0)
    {
      free (file->tmp_path);
      file->tmp_path = NULL;
    }
  if (replaced >= 0 && result == 0)
    _tprof_save_close_later (replaced);
  else if (replaced >= 0)
    close (replaced);
  _tprof_save_file_abandon (file);
  return result;
}
