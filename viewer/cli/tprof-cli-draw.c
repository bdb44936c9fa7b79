/* tprof-cli-draw.c — `tprof hist` and `tprof plot` handed to the helper tprof-draw, so that no other command loads cairo and pango. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "tprof-cli.h"

/* The helper TPROF_DRAW names, if set; else the one beside this program
 * in a build tree; else where it is installed, found from this program's
 * directory first (an install moved or staged under DESTDIR), then at
 * the configured path. */
static char *
draw_helper_path (void)
{
  const char *chosen = g_getenv ("TPROF_DRAW");
  g_autofree char *self = NULL;
  g_autofree char *dir = NULL;
  const char *const candidates[] = { "tprof-draw", TPROF_DRAW_FROM_BINDIR };

  if (chosen != NULL && chosen[0] != '\0')
    return g_strdup (chosen);
  self = g_file_read_link ("/proc/self/exe", NULL);
  dir = self != NULL ? g_path_get_dirname (self) : NULL;

  for (gsize i = 0; dir != NULL && i < G_N_ELEMENTS (candidates); i++)
    {
      /* TPROF_DRAW_FROM_BINDIR is "" when libexecdir is not below the
       * prefix as bindir is: then the directory itself, no regular file */
      char *path = g_build_filename (dir, candidates[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && access (path, X_OK) == 0)
        return path;
      g_free (path);
    }
  return g_strdup (TPROF_DRAW_INSTALLED);
}

int
tprof_cli_draw (const char  *name,
                int          argc,
                char       **argv)
{
  char *path = draw_helper_path ();
  char **args = g_new0 (char *, argc + 2);
  int errsv;

  args[0] = path;
  args[1] = (char *) name;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  fflush (stdout);
  execv (path, args);
  errsv = errno;
  g_free (args);
  tprof_cli_file_error (path, "%s", g_strerror (errsv));
  g_free (path);
  return TPROF_CLI_EXIT_FAILED;
}
