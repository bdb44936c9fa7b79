/* app-test-gui.c — the application and window plumbing that the GUI tests share. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "app-test-gui.h"
#include "app-test-util.h"

void
app_test_gui_bind_locale (void)
{
  const char *dir = g_getenv ("TPROF_TEST_LOCALEDIR");

  if (dir == NULL)
    return;
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

TprofApplication *
app_test_gui_start (void)
{
  g_autoptr(GError) error = NULL;
  TprofApplication *app = _tprof_application_new (G_APPLICATION_NON_UNIQUE);

  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("could not register the application: %s", error->message);
  /* the tests drive the main context themselves instead of g_application_run() */
  g_application_hold (G_APPLICATION (app));
  /* screenshots show finished states, not transitions half-way */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  return app;
}

TprofWindow *
app_test_gui_new_window (TprofApplication *app)
{
  TprofWindow *window = _tprof_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static gboolean
window_idle (gpointer data)
{
  return !_tprof_window_is_busy (data);
}

void
app_test_gui_wait_idle (TprofWindow *window)
{
  app_test_wait (window_idle, window);
}

void
app_test_gui_open (TprofWindow *window,
                   const char  *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  _tprof_window_open (window, file);
  g_assert_true (_tprof_window_is_busy (window));
  app_test_gui_wait_idle (window);
}

static gboolean
frame_drawn (gpointer data)
{
  return GPOINTER_TO_INT (*(gpointer *) data);
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer      *drawn)
{
  *drawn = GINT_TO_POINTER (TRUE);
}

void
app_test_gui_wait_frame (TprofWindow *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  gpointer drawn = GINT_TO_POINTER (FALSE);
  gulong handler;

  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &drawn);
  gtk_widget_queue_draw (GTK_WIDGET (window));
  app_test_wait (frame_drawn, &drawn);
  g_signal_handler_disconnect (clock, handler);
}

void
app_test_gui_render_png (TprofWindow *window,
                         const char  *path)
{
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderNode *node;
  GtkSnapshot *snapshot;
  int width;
  int height;

  /* Let layout settle: wait for a painted frame. Something the main loop
   * ran after that frame (a deferred row, a worker's result) may have
   * invalidated what was painted, which leaves the paintable empty until
   * the next frame: then wait for that one. */
  paintable = gtk_widget_paintable_new (widget);
  node = NULL;
  for (int frames = 0; node == NULL && frames < 50; frames++)
    {
      app_test_gui_wait_frame (window);
      width = gtk_widget_get_width (widget);
      height = gtk_widget_get_height (widget);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}
