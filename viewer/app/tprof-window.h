/* tprof-window.h — TprofWindow: one window showing one profile. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "tprof-application.h"

G_BEGIN_DECLS

#define TPROF_TYPE_WINDOW (tprof_window_get_type ())
G_DECLARE_FINAL_TYPE (TprofWindow, tprof_window, TPROF, WINDOW, GtkApplicationWindow)

TprofWindow *_tprof_window_new       (TprofApplication *application);
/* Loads @file into this window in the background (replacing what it shows on success). */
void         _tprof_window_open      (TprofWindow      *self,
                                      GFile            *file);
/* Compares the profile shown (and those opened later) with @file, loaded
 * as the baseline. */
void         _tprof_window_compare_with (TprofWindow *self,
                                         GFile       *file);
/* The same with several baseline runs (a list of GFile): the first is
 * drawn beside the profile, every one's median joins the verdict's test. */
void         _tprof_window_compare_with_runs (TprofWindow *self,
                                              GListModel  *files);
/* The file shown or being loaded; NULL for an empty window. */
GFile       *_tprof_window_get_file  (TprofWindow      *self);
/* TRUE when the window shows nothing and loads nothing, so a new file may go here. */
gboolean     _tprof_window_is_empty  (TprofWindow      *self);

G_END_DECLS
