/* tprof-plot-atomic-file.c — writing an export through a temporary file renamed into place. */
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

#include "tprof-plot-private.h"

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

/* The mode an export at @path gets: that of the file it replaces, else
 * what creat(2) would give under the umask. */
static mode_t
export_mode (const char *path)
{
  struct stat st;

  if (stat (path, &st) == 0 && S_ISREG (st.st_mode))
    return st.st_mode & 07777;
  return 0666 & ~current_umask ();
}

static void
clear_file (TprofAtomicFile *file)
{
  g_clear_pointer (&file->path, g_free);
  g_clear_pointer (&file->tmp_path, g_free);
  file->stream = NULL;
}

gboolean
_tprof_atomic_file_open (TprofAtomicFile  *file,
                         const char       *path,
                         GError          **error)
{
  char *dir = g_path_get_dirname (path);
  char *base = g_path_get_basename (path);
  char *tmp_name = g_strdup_printf (".%s.XXXXXX", base);
  int fd, errsv;

  memset (file, 0, sizeof *file);
  file->path = g_strdup (path);
  file->tmp_path = g_build_filename (dir, tmp_name, NULL);
  g_free (dir);
  g_free (base);
  g_free (tmp_name);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      _tprof_atomic_file_set_error (error, path, g_strerror (EISDIR));
      clear_file (file);
      return FALSE;
    }

  fd = g_mkstemp (file->tmp_path);
  if (fd < 0)
    {
      errsv = errno;
      _tprof_atomic_file_set_error (error, path, g_strerror (errsv));
      clear_file (file);
      return FALSE;
    }
  /* mkstemp makes the file private; an export is an ordinary file. A
   * failure is not fatal: the file stays readable by its owner. */
  (void) !fchmod (fd, export_mode (path));
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
  if (!failed && g_rename (file->tmp_path, file->path) != 0)
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
