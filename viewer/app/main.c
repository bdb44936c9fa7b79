/* main.c — tprof-viewer's entry point: set up translations and run the application. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include <tprof/capture.h>

#include "tprof-application.h"

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
