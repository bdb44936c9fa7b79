/* tprof-profile-private.h — TprofProfile's insides, shared by its files: opening, reading samples, finding the straggler. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-profile.h"

G_BEGIN_DECLS

/* What a load produces, handed from the worker to the profile at once. */
typedef struct
{
  int                         world_size;
  gsize                       n_ops;
  char                      **hostnames;   /* world_size entries, or NULL */
  GPtrArray                  *names;       /* char *, one per operation */
  const TprofOperationStats **stats;       /* n_ops, owned by the file handle */
  /* main thread only: the samples in memory and when each was last used */
  TprofOperationSamples     **samples;
  guint64                    *last_used;
  TprofStragglers            *stragglers;  /* blame from arrival; NULL without a timeline */
  gssize                      first_synchronising;  /* operation, or -1 */
  gboolean                    stragglers_known;     /* FALSE until every operation was seen */
} ProfileContents;

struct _TprofProfile
{
  GObject          parent_instance;
  GFile           *file;
  ProfileContents *contents;
  guint64          eager_samples;
  guint64          use_clock;          /* main thread: ticks at each use of samples */

  /* loading */
  gint             progress_permille;  /* atomic, written by the worker */
  gint             reading;            /* atomic */
  gint             cancelled;          /* atomic */

  /* The open file, used by one thread at a time under handle_lock. A read
   * of a selected operation announces itself in readers_waiting and stops
   * the straggler search's read (scan_stop), which then waits on
   * handle_free until no such read is waiting. */
  TprofProfileFile *handle;
  GMutex           handle_lock;
  GCond            handle_free;
  gint             readers_waiting;    /* atomic */
  gint             scan_stop;          /* atomic: the search's read stops */
  gint             closed;             /* atomic: the search ends */
  gint             read_permille;      /* atomic */
  gpointer         current_read;       /* atomic: the read whose progress is shown */

  gint             scanning;           /* atomic */
  gint             scan_permille;      /* atomic */
};

/* Where one phase lies in a whole task's progress. */
typedef struct
{
  gint   *permille;
  double  start;
  double  share;
} ProfileProgress;

void     _tprof_profile_set_permille (gint   *permille,
                                      double  fraction);
/* Sets @error from libcapture's @tprof_error (without its leading "PATH: ",
 * prefixed by @op_name when the message does not name it). FALSE. */
gboolean _tprof_profile_set_error    (GError           **error,
                                      const TprofError  *tprof_error,
                                      const char        *path,
                                      const char        *op_name);

/* Adds operation @op's @gt to the blame from arrival in *@stragglers,
 * dropping it (NULL) when @gt has samples but no starts. */
void     _tprof_profile_stragglers_add (TprofStragglers         **stragglers,
                                        gssize                   *first_synchronising,
                                        const TprofGatheredTime  *gt,
                                        gsize                     op);
/* Starts finding the straggler in the background (tprof-profile-stragglers.c). */
void     _tprof_profile_find_stragglers (TprofProfile *self);
void     _tprof_profile_emit_stragglers_found (TprofProfile *self);

/* The file handle for a read of a selected operation, and back. */
void     _tprof_profile_lock_for_read   (TprofProfile *self);
void     _tprof_profile_unlock_for_read (TprofProfile *self);

G_END_DECLS
