/* tprof-plot-atomic-file.c — writing an export through a temporary file renamed into place, by the profile save's rules for the target. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tprof-text-private.h"

G_DEFINE_QUARK (tprof-plot-error-quark, tprof_plot_error)

void
_tprof_atomic_file_set_error (GError     **error,
                              const char  *path,
                              const char  *reason)
{
  g_set_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_WRITE,
               _("could not write \"%s\": %s"), path, reason);
}

/* The process's umask, read without changing it (umask(2) can only be
 * read by setting it, which races with other threads creating files). */
static mode_t
current_umask (void)
{
  g_autofree char *status = NULL;
  const char *line;
  mode_t mask;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (line = strstr (status, "\nUmask:")) != NULL)
    return (mode_t) strtoul (line + strlen ("\nUmask:"), NULL, 8) & 0777;

  mask = umask (022);
  umask (mask);
  return mask;
}

/* Gives the new file @fd the mode and group of the file @path it
 * replaces, else the mode creat(2) would give under the umask. Failures
 * are not fatal: the file stays readable by its owner. */
static void
take_attributes (int         fd,
                 const char *path)
{
  struct stat st;

  if (stat (path, &st) == 0 && S_ISREG (st.st_mode))
    {
      (void) !fchown (fd, (uid_t) -1, st.st_gid);
      (void) !fchmod (fd, st.st_mode & 07777);
    }
  else
    (void) !fchmod (fd, 0666 & ~current_umask ());
}

#define MAX_LINK_DEPTH 40

/* @path with every symbolic link of its last component followed, as open()
 * would, so that an export replaces the file a link names, not the link
 * (a dangling link names the file to create). NULL with errno. */
static char *
follow_links (const char *path)
{
  char *current = g_strdup (path);

  for (int depth = 0; depth < MAX_LINK_DEPTH; depth++)
    {
      char target[4096];
      ssize_t len = readlink (current, target, sizeof target - 1);
      g_autofree char *dir = NULL;
      int errsv = errno;

      if (len < 0)
        {
          if (errsv == EINVAL || errsv == ENOENT)
            return current;
          g_free (current);
          errno = errsv;
          return NULL;
        }
      target[len] = '\0';
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_path_is_absolute (target) ? g_strdup (target) : g_build_filename (dir, target, NULL);
    }
  g_free (current);
  errno = ELOOP;
  return NULL;
}

/* FALSE with @error when @target exists and is not a regular file: an
 * export replaces a file, never a FIFO, a device or a directory. */
static gboolean
check_target (const char  *path,
              const char  *target,
              GError     **error)
{
  struct stat st;

  if (stat (target, &st) != 0)
    {
      if (errno == ENOENT)
        return TRUE;
      _tprof_atomic_file_set_error (error, path, g_strerror (errno));
      return FALSE;
    }
  if (S_ISREG (st.st_mode))
    return TRUE;
  _tprof_atomic_file_set_error (error, path,
                                S_ISDIR (st.st_mode) ? g_strerror (EISDIR)
                                : S_ISFIFO (st.st_mode) ? _("it is a FIFO; an export replaces only a regular file")
                                : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode)
                                ? _("it is a device; an export replaces only a regular file")
                                : _("it is not a regular file; an export replaces only a regular file"));
  return FALSE;
}

static void
clear_file (TprofAtomicFile *file)
{
  g_clear_pointer (&file->path, g_free);
  g_clear_pointer (&file->target, g_free);
  g_clear_pointer (&file->tmp_path, g_free);
  file->stream = NULL;
}

gboolean
_tprof_atomic_file_open (TprofAtomicFile  *file,
                         const char       *path,
                         GError          **error)
{
  g_autofree char *dir = NULL;
  int fd, errsv;

  memset (file, 0, sizeof *file);
  /* the same target rules as a profile's save: links followed, only a
   * regular file (or nothing) replaced, its mode and group kept */
  file->path = g_strdup (path);
  file->target = follow_links (path);
  if (file->target == NULL)
    {
      _tprof_atomic_file_set_error (error, path, g_strerror (errno));
      clear_file (file);
      return FALSE;
    }
  if (!check_target (path, file->target, error))
    {
      clear_file (file);
      return FALSE;
    }
  /* a short name beside the target, whatever the length of its own */
  dir = g_path_get_dirname (file->target);
  file->tmp_path = g_build_filename (dir, ".tprof-export-XXXXXX", NULL);
  fd = g_mkstemp (file->tmp_path);
  if (fd < 0)
    {
      errsv = errno;
      _tprof_atomic_file_set_error (error, path, g_strerror (errsv));
      clear_file (file);
      return FALSE;
    }
  /* mkstemp makes the file private; an export is an ordinary file */
  take_attributes (fd, file->target);
  file->stream = fdopen (fd, "wb");
  if (file->stream == NULL)
    {
      errsv = errno;
      close (fd);
      _tprof_atomic_file_set_error (error, path, g_strerror (errsv));
      _tprof_atomic_file_abort (file);
      return FALSE;
    }
  return TRUE;
}

gboolean
_tprof_atomic_file_commit (TprofAtomicFile  *file,
                           GError          **error)
{
  gboolean failed = ferror (file->stream) != 0;
  int errsv = failed ? EIO : 0;

  if (fflush (file->stream) != 0 && !failed)
    failed = TRUE, errsv = errno;
  if (fsync (fileno (file->stream)) != 0 && !failed && errno != EINVAL)
    failed = TRUE, errsv = errno;
  if (fclose (file->stream) != 0 && !failed)
    failed = TRUE, errsv = errno;
  file->stream = NULL;
  if (!failed && g_rename (file->tmp_path, file->target) != 0)
    failed = TRUE, errsv = errno;

  if (failed)
    {
      _tprof_atomic_file_set_error (error, file->path, g_strerror (errsv));
      g_unlink (file->tmp_path);
    }
  clear_file (file);
  return !failed;
}

void
_tprof_atomic_file_abort (TprofAtomicFile *file)
{
  if (file->stream != NULL)
    fclose (file->stream);
  if (file->tmp_path != NULL)
    g_unlink (file->tmp_path);
  clear_file (file);
}
