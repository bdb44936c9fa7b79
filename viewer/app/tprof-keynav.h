/* tprof-keynav.h — keyboard navigation GTK 4.8's list views lack: a list as one tab stop. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes @list one tab stop: Tab leaves it for @after, Shift+Tab for
 * @before (GTK 4.8's list views move to the next row instead, so a list
 * of 1024 ranks took 1024 presses to get past), the arrows move inside.
 * Space on a row whose child is a check button toggles it. Either target
 * may be NULL (then Tab moves as GTK moves it); a target that cannot take
 * the focus itself passes it to its first (last) focusable child. */
void _tprof_keynav_one_tab_stop (GtkWidget *list,
                                 GtkWidget *before,
                                 GtkWidget *after);

G_END_DECLS
