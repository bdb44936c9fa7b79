/* app-test-gui.h — starting tprof-viewer's application and windows inside a test, and waiting for them. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-application.h"
#include "tprof-window-private.h"

G_BEGIN_DECLS

/* Translates the viewer's strings as the environment asks when
 * TPROF_TEST_LOCALEDIR names a locale tree (such as the build's po/): for
 * the German runs (LANGUAGE=de) and screenshots. Call before starting. */
void              app_test_gui_bind_locale  (void);
/* Registers a non-unique TprofApplication (initialising GTK); call once. */
TprofApplication *app_test_gui_start        (void);
TprofWindow      *app_test_gui_new_window   (TprofApplication *app);
/* Opens @path in @window and waits until it is loaded or refused. */
void              app_test_gui_open         (TprofWindow      *window,
                                             const char       *path);
/* Waits until @window no longer loads or recomputes. */
void              app_test_gui_wait_idle    (TprofWindow      *window);
/* Queues a redraw of @window and waits until its next frame is painted. */
void              app_test_gui_wait_frame   (TprofWindow      *window);
/* Renders @window as it would appear on screen into the PNG @path. */
void              app_test_gui_render_png   (TprofWindow      *window,
                                             const char       *path);

G_END_DECLS
