/* tprof-application.c — TprofApplication: app actions, styling, and routing opened files to windows. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-application.h"
#include "tprof-window-private.h"

struct _TprofApplication
{
  GtkApplication parent_instance;
  GFile         *compare;   /* --compare BASE: the baseline of the files opened */
};

G_DEFINE_FINAL_TYPE (TprofApplication, tprof_application, GTK_TYPE_APPLICATION)

static void
quit_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GApplication *app = G_APPLICATION (user_data);
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* closing each window saves its size like a normal close would */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
  g_application_quit (app);
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char * const authors[] = { "The tprof developers", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "tprof",
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("See where the time of a distributed program goes, rank by rank"),
                         "license-type", GTK_LICENSE_MIT_X11,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_activated },
  { .name = "about", .activate = about_activated },
};

static void
tprof_application_startup (GApplication *application)
{
  GtkApplication *app = GTK_APPLICATION (application);
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

  G_APPLICATION_CLASS (tprof_application_parent_class)->startup (application);
  /* the viewer opens file after file: each open skips the helper's start */
  tprof_profile_file_keep_helper_ready ();

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);

  gtk_application_set_accels_for_action (app, "app.quit", (const char *[]) { "<Control>q", NULL });
  gtk_application_set_accels_for_action (app, "win.open", (const char *[]) { "<Control>o", NULL });
  gtk_application_set_accels_for_action (app, "win.compare-with", (const char *[]) { "<Control><Shift>o", NULL });
  gtk_application_set_accels_for_action (app, "win.export-chart", (const char *[]) { "<Control>e", NULL });
  gtk_application_set_accels_for_action (app, "win.export-table", (const char *[]) { "<Control><Shift>e", NULL });
  gtk_application_set_accels_for_action (app, "follow.pause", (const char *[]) { "<Control>p", NULL });
  gtk_application_set_accels_for_action (app, "win.find", (const char *[]) { "<Control>f", NULL });
  gtk_application_set_accels_for_action (app, "win.close", (const char *[]) { "<Control>w", NULL });
  gtk_application_set_accels_for_action (app, "win.filter-ranks", (const char *[]) { "<Control>r", NULL });
  gtk_application_set_accels_for_action (app, "win.all-ranks", (const char *[]) { "<Control><Shift>a", NULL });
  /* the charts' toggles, from the window's "settings" actions */
  gtk_application_set_accels_for_action (app, "settings.separate-ranks", (const char *[]) { "<Control><Shift>r", NULL });
  gtk_application_set_accels_for_action (app, "settings.log-x", (const char *[]) { "<Control>l", NULL });
  gtk_application_set_accels_for_action (app, "settings.log-y", (const char *[]) { "<Control><Shift>l", NULL });

  gtk_css_provider_load_from_resource (css, "/io/github/tprof/Viewer/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
tprof_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  TprofApplication *self = TPROF_APPLICATION (application);

  if (window == NULL)
    window = GTK_WINDOW (_tprof_window_new (self));
  /* --compare BASE with no FILE: say what is missing rather than show an
   * empty window as if nothing was asked */
  if (self->compare != NULL && TPROF_IS_WINDOW (window))
    {
      g_autofree char *base = g_file_get_basename (self->compare);
      /* Translators: %s is the baseline's file name given to --compare */
      g_autofree char *message = g_strdup_printf (_("Nothing to compare with %s: name the profile to compare "
                                                    "after it (tprof-viewer --compare BASE FILE), or open one "
                                                    "and choose Compare With…"), base);

      _tprof_window_show_error (TPROF_WINDOW (window), message);
    }
  gtk_window_present (window);
}

/* The window already showing @file, else one that is free, else a new one. */
static TprofWindow *
tprof_application_window_for (TprofApplication *self,
                              GFile            *file,
                              gboolean         *already_open)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));

  *already_open = FALSE;
  for (GList *l = windows; l != NULL; l = l->next)
    {
      GFile *shown;

      if (!TPROF_IS_WINDOW (l->data))
        continue;
      shown = _tprof_window_get_file (l->data);
      if (shown != NULL && g_file_equal (shown, file))
        {
          *already_open = TRUE;
          return l->data;
        }
    }

  if (TPROF_IS_WINDOW (active) && _tprof_window_is_empty (TPROF_WINDOW (active)))
    return TPROF_WINDOW (active);
  for (GList *l = windows; l != NULL; l = l->next)
    if (TPROF_IS_WINDOW (l->data) && _tprof_window_is_empty (l->data))
      return l->data;

  return _tprof_window_new (self);
}

static void
tprof_application_open (GApplication  *application,
                        GFile        **files,
                        int            n_files,
                        const char    *hint)
{
  TprofApplication *self = TPROF_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    {
      gboolean already_open;
      TprofWindow *window = tprof_application_window_for (self, files[i], &already_open);

      if (!already_open)
        _tprof_window_open (window, files[i]);
      if (self->compare != NULL)
        _tprof_window_compare_with (window, self->compare);
      gtk_window_present (GTK_WINDOW (window));
    }
}

/* --follow DIR: a folder is opened as any file is, and followed. */
static int
tprof_application_follow (GApplication *application,
                          const char   *path)
{
  g_autoptr(GFile) directory = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (g_file_query_file_type (directory, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY)
    {
      /* Translators: %s is the folder given to --follow */
      g_printerr (_("tprof-viewer: --follow %s: not a folder of spill files\n"), path);
      return 2;
    }
  if (!g_application_register (application, NULL, &error))
    {
      g_printerr ("tprof-viewer: %s\n", error->message);
      return 1;
    }
  g_application_open (application, &directory, 1, "");
  /* a remote instance took it; this one runs on only when it is the primary */
  return g_application_get_is_remote (application) ? 0 : -1;
}

static int
tprof_application_handle_local_options (GApplication *application,
                                        GVariantDict *options)
{
  TprofApplication *self = TPROF_APPLICATION (application);
  g_autofree char *base = NULL;
  g_autofree char *follow = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("tprof-viewer %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_variant_dict_lookup (options, "compare", "^ay", &base))
    self->compare = g_file_new_for_commandline_arg (base);
  if (g_variant_dict_lookup (options, "follow", "^ay", &follow))
    return tprof_application_follow (application, follow);
  /* go on as usual */
  return -1;
}

static void
tprof_application_dispose (GObject *object)
{
  g_clear_object (&TPROF_APPLICATION (object)->compare);
  G_OBJECT_CLASS (tprof_application_parent_class)->dispose (object);
}

static void
tprof_application_class_init (TprofApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tprof_application_dispose;
  app_class->handle_local_options = tprof_application_handle_local_options;

  app_class->startup = tprof_application_startup;
  app_class->activate = tprof_application_activate;
  app_class->open = tprof_application_open;
}

static void
tprof_application_init (TprofApplication *self)
{
}

TprofApplication *
_tprof_application_new (GApplicationFlags flags)
{
  TprofApplication *self = g_object_new (TPROF_TYPE_APPLICATION,
                                         "application-id", APP_ID,
                                         "flags", G_APPLICATION_HANDLES_OPEN | flags,
                                         NULL);

  /* Translators: the arguments in `tprof-viewer --help` */
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_add_main_option (G_APPLICATION (self), "compare", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
                                 /* Translators: --compare's help in tprof-viewer --help */
                                 _("Compare every FILE with the baseline BASE"), _("BASE"));
  g_application_add_main_option (G_APPLICATION (self), "follow", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
                                 /* Translators: --follow's help in tprof-viewer --help */
                                 _("Follow the running job whose spill files are in DIR"), _("DIR"));
  g_application_add_main_option (G_APPLICATION (self), "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 /* Translators: --version's help in tprof-viewer --help */
                                 _("Show the version and exit"), NULL);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Show tprof profiles (.h5): per-operation statistics, histograms and per-rank times."));
  return self;
}
