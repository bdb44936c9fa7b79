/* main.c — tprof-viewer's entry point: set up translations, find the settings schema and run the application. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include <tprof/capture.h>

#include "tprof-application.h"

/* The schema directory of the tree this program runs from: SCHEMADIR
 * under the root its executable's BINDIR is in (a tree staged or moved
 * elsewhere, as by `meson install --destdir`), else SCHEMADIR itself;
 * NULL when neither holds a compiled schema. */
static char *
installed_schema_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  g_autofree char *moved = NULL;

  if (exe_dir != NULL && g_str_has_suffix (exe_dir, BINDIR) && strlen (exe_dir) > strlen (BINDIR))
    {
      g_autofree char *root = g_strndup (exe_dir, strlen (exe_dir) - strlen (BINDIR));

      moved = g_strconcat (root, SCHEMADIR, NULL);
    }
  for (int i = 0; i < 2; i++)
    {
      const char *dir = i == 0 ? moved : SCHEMADIR;
      g_autofree char *compiled = dir != NULL ? g_build_filename (dir, "gschemas.compiled", NULL) : NULL;

      if (compiled != NULL && g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
        return g_strdup (dir);
    }
  return NULL;
}

/* Makes the settings schema of the prefix this viewer was installed to
 * found where the system's search path (XDG_DATA_DIRS) does not reach it
 * (a home directory, a module tree on a cluster): its directory joins
 * GSETTINGS_SCHEMA_DIR, after any given there (a build tree's), before
 * GLib reads that variable, once, for every GSettings of the process. */
static void
use_installed_schema (void)
{
  const char *given = g_getenv ("GSETTINGS_SCHEMA_DIR");
  g_autofree char *dir = installed_schema_dir ();
  g_autofree char *dirs = NULL;

  if (dir == NULL)
    return;
  if (given != NULL && given[0] != '\0')
    dirs = g_strconcat (given, G_SEARCHPATH_SEPARATOR_S, dir, NULL);
  else
    dirs = g_strdup (dir);
  g_setenv ("GSETTINGS_SCHEMA_DIR", dirs, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TprofApplication) app = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  GSettingsSchemaSource *source;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* the viewer reads profiles only: nothing of HDF5's to flush at exit */
  tprof_profile_file_skip_exit_cleanup ();

  /* GSettings aborts on a missing schema; say how to fix it instead */
  use_installed_schema ();
  source = g_settings_schema_source_get_default ();
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_printerr (_("tprof-viewer: the settings schema %s is not installed; install tprof "
                    "or run the viewer from the build tree with `meson devenv`\n"), APP_ID);
      return 1;
    }

  app = _tprof_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
