/* held-files.c — which deleted files this process still holds open: a save's replaced file must be let go. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <unistd.h>

#include <glib.h>

#include "held-files.h"

int
held_deleted_files_in (const char *dir)
{
  DIR *fds = opendir ("/proc/self/fd");
  struct dirent *e;
  int count = 0;

  g_assert_nonnull (fds);
  while ((e = readdir (fds)) != NULL)
    {
      char link[4096], *at = g_strdup_printf ("/proc/self/fd/%s", e->d_name);
      ssize_t len = readlink (at, link, sizeof link - 1);

      g_free (at);
      if (len <= 0)
        continue;
      link[len] = '\0';
      if (g_str_has_prefix (link, dir) && g_str_has_suffix (link, " (deleted)"))
        count++;
    }
  closedir (fds);
  return count;
}
