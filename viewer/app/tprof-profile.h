/* tprof-profile.h — TprofProfile: a profile file read off the UI thread, with the statistics index of each operation. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

/* The largest world the viewer lists rank by rank. */
#define TPROF_PROFILE_MAX_RANKS (1 << 20)

#define TPROF_PROFILE_ERROR (_tprof_profile_error_quark ())
GQuark _tprof_profile_error_quark (void);

#define TPROF_TYPE_PROFILE (tprof_profile_get_type ())
G_DECLARE_FINAL_TYPE (TprofProfile, tprof_profile, TPROF, PROFILE, GObject)

TprofProfile *_tprof_profile_new              (GFile        *file);
GFile        *_tprof_profile_get_file         (TprofProfile *self);
/* What the file says, once loaded (0 and NULL before). */
int           _tprof_profile_get_world_size   (TprofProfile *self);
gsize         _tprof_profile_get_n_operations (TprofProfile *self);
/* Name of operation @op; NULL when out of range. */
const char   *_tprof_profile_get_name         (TprofProfile *self,
                                               gsize         op);
/* Host of @rank, or NULL when the file does not say. */
const char   *_tprof_profile_get_hostname     (TprofProfile *self,
                                               int           rank);
/* The statistics of every sample of @op; NULL when out of range. */
/* An operation's durations as ranks x occurrences, computed while it is
 * read (tprof_heatmap_fill(), durations): rows first_rank.. with n_cols
 * columns of at most TPROF_PROFILE_HEAT_COLUMNS over n_occurrences. */
#define TPROF_PROFILE_HEAT_COLUMNS 600
typedef struct
{
  double *cells;
  guint   n_rows;
  guint   n_cols;
  gint32  first_rank;
  gsize   n_occurrences;
} TprofProfileHeat;

/* NULL for an operation without starts (a profile without a timeline). */
const TprofProfileHeat *_tprof_profile_get_heat (TprofProfile *self,
                                                 gsize         op);

/* Blame from arrival (DESIGN 4b) over every operation, and the first
 * synchronising operation (or -1); NULL for a profile without a timeline. */
const TprofStragglers *_tprof_profile_get_stragglers (TprofProfile *self,
                                                      gssize       *first_synchronising);
const TprofSummary *_tprof_profile_get_summary (TprofProfile *self,
                                                gsize         op);
/* The index of @op's samples, owned by @self: NULL when out of range or
 * while its samples are not read (today every operation is indexed when
 * the file loads). Usable from any thread while @self lives. */
const TprofOperationIndex *_tprof_profile_get_operation_index (TprofProfile *self,
                                                               gsize         op);
/* 0..1 while loading: the reading phase reports 0, indexing the rest. */
double        _tprof_profile_get_progress     (TprofProfile *self);
gboolean      _tprof_profile_get_is_reading   (TprofProfile *self);
/* Reads the file and indexes each operation in a worker thread. */
void          _tprof_profile_load_async       (TprofProfile        *self,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* The error message is libcapture's, which names the file and the fault. */
gboolean      _tprof_profile_load_finish      (TprofProfile  *self,
                                               GAsyncResult  *result,
                                               GError       **error);

G_END_DECLS
