/* test-i18n.c — tprof-viewer in German: its labels come from po/de.po, as GNU gettext(1) reads it. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>

#include "app-test-gui.h"
#include "app-test-util.h"

static TprofApplication *app;
static char *fixture_dir;
static char *locale_dir;

/* What GNU gettext(1)/ngettext(1) say the German text is; independent of our process. */
static char *
expected_translation (const char *msgid,
                      const char *msgid_plural,
                      int         n)
{
  g_autofree char *count = g_strdup_printf ("%d", n);
  const char *argv_single[] = { GETTEXT_PROGRAM, "-d", GETTEXT_PACKAGE, msgid, NULL };
  const char *argv_plural[] = { NGETTEXT_PROGRAM, "-d", GETTEXT_PACKAGE, msgid, msgid_plural, count, NULL };
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  env = g_environ_setenv (env, "TEXTDOMAINDIR", locale_dir, TRUE);
  env = g_environ_setenv (env, "LANGUAGE", "de", TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
  if (!g_spawn_sync (NULL, (char **) (msgid_plural != NULL ? argv_plural : argv_single), env,
                     G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error))
    g_error ("could not run gettext: %s", error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
test_i18n_empty_state (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  const char *english = "Open a profile or drop a .h5 file here";
  g_autofree char *german = expected_translation (english, NULL, 0);

  g_assert_cmpstr (german, !=, english);
  g_assert_cmpstr (gtk_label_get_text (window->empty_title), ==, german);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_i18n_loaded (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  g_autofree char *path = app_test_make_profile (fixture_dir, "basic.h5", APP_TEST_PROFILE_BASIC);
  g_autofree char *format = expected_translation ("Showing %u of %u rank", "Showing %u of %u ranks", 8);
  g_autofree char *expected = NULL;
  g_autofree char *bad = g_build_filename (fixture_dir, "kaputt.h5", NULL);
  g_autofree char *auto_text = expected_translation ("Auto", NULL, 0);

  app_test_gui_open (window, path);
  g_assert_cmpstr (format, !=, "Showing %u of %u ranks");
  expected = g_strdup_printf (format, 8, 8);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, expected);

  /* the bin spin button's "Auto" is translated too, and still means 0 */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (_tprof_charts_panel_get_bins_spin (window->charts))), ==, auto_text);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (_tprof_charts_panel_get_bins_spin (window->charts)), ==, 0);

  g_assert_true (g_file_set_contents (bad, "kein Profil", -1, NULL));
  app_test_gui_open (window, bad);
  g_assert_nonnull (_tprof_window_get_error (window));
  g_assert_false (g_str_has_prefix (_tprof_window_get_error (window), "Could not open"));
  g_assert_nonnull (strstr (_tprof_window_get_error (window), "kaputt.h5"));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *messages = NULL;
  g_autofree char *mo = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  int ret;

  g_test_init (&argc, &argv, NULL);

  /* a locale tree in a temporary directory, holding the .mo built from po/de.po */
  fixture_dir = app_test_make_dir ();
  locale_dir = g_build_filename (fixture_dir, "locale", NULL);
  messages = g_build_filename (locale_dir, "de", "LC_MESSAGES", NULL);
  g_assert_cmpint (g_mkdir_with_parents (messages, 0755), ==, 0);
  mo = g_build_filename (messages, GETTEXT_PACKAGE ".mo", NULL);
  g_assert_true (g_file_get_contents (TEST_MO_FILE, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (mo, contents, length, NULL));

  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "C.UTF-8");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = app_test_gui_start ();

  g_test_add_func ("/app/i18n/empty-state", test_i18n_empty_state);
  g_test_add_func ("/app/i18n/loaded", test_i18n_loaded);

  ret = g_test_run ();

  app_test_remove_dir (fixture_dir);
  g_free (fixture_dir);
  g_free (locale_dir);
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return ret;
}
