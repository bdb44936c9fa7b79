/* tprof-application.h — TprofApplication: the GtkApplication of tprof-viewer, one window per profile. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TPROF_TYPE_APPLICATION (tprof_application_get_type ())
G_DECLARE_FINAL_TYPE (TprofApplication, tprof_application, TPROF, APPLICATION, GtkApplication)

/* @flags are added to G_APPLICATION_HANDLES_OPEN (tests pass G_APPLICATION_NON_UNIQUE). */
TprofApplication *_tprof_application_new (GApplicationFlags flags);

G_END_DECLS
