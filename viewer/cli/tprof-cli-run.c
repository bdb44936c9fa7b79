/* tprof-cli-run.c — what every process of the command line sets up first, and one command run under its name. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <locale.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

void
tprof_cli_init (gboolean writes_hdf5)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* a command that only reads profiles has nothing of HDF5's to flush at
   * exit, and a damaged file must not make it print after the error line */
  if (!writes_hdf5)
    tprof_profile_file_skip_exit_cleanup ();
}

int
tprof_cli_run (const char *name,
               int       (*run) (int argc, char **argv),
               int         argc,
               char      **argv)
{
  char *prgname = g_strdup_printf ("tprof %s", name);
  char **args = g_new0 (char *, argc + 1);
  int status;

  /* GOptionContext prints "Usage: tprof summary [OPTION…] FILE" from argv[0] */
  g_set_prgname (prgname);
  args[0] = prgname;
  for (int i = 1; i < argc; i++)
    args[i] = argv[i];
  status = run (argc, args);
  g_free (args);
  g_free (prgname);
  return status;
}
