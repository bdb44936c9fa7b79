/* tprof-profile.h — TprofProfile: a profile file loaded and indexed off the UI thread. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "tprof-profile-index.h"

G_BEGIN_DECLS

/* The largest world the viewer lists rank by rank. */
#define TPROF_PROFILE_MAX_RANKS (1 << 20)

#define TPROF_PROFILE_ERROR (_tprof_profile_error_quark ())
GQuark _tprof_profile_error_quark (void);

#define TPROF_TYPE_PROFILE (tprof_profile_get_type ())
G_DECLARE_FINAL_TYPE (TprofProfile, tprof_profile, TPROF, PROFILE, GObject)

TprofProfile            *_tprof_profile_new            (GFile               *file);
GFile                   *_tprof_profile_get_file       (TprofProfile        *self);
/* NULL until loaded. */
const TprofProfileIndex *_tprof_profile_get_index      (TprofProfile        *self);
/* 0..1 while loading: the reading phase reports 0, indexing the rest. */
double                   _tprof_profile_get_progress   (TprofProfile        *self);
gboolean                 _tprof_profile_get_is_reading (TprofProfile        *self);
/* Reads and indexes the file in a worker thread. */
void                     _tprof_profile_load_async     (TprofProfile        *self,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
/* The error message is libcapture's, which names the file and the fault. */
gboolean                 _tprof_profile_load_finish    (TprofProfile        *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

G_END_DECLS
