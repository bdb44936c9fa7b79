/* tprof-profile-private.h — TprofProfile's insides, shared by its files: opening, reading samples, finding the straggler. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-profile.h"

G_BEGIN_DECLS

/* The operation tree (docs/analysis.md), from tprof_nesting_* over every
 * operation's samples: computed once, the nesting itself dropped. */
typedef struct
{
  gssize *parent;     /* n_ops: the parent operation, -1 at the top */
  double *self_sum;   /* n_ops: the sum of self times; NaN: no timeline */
  double *rank_self;  /* n_ops x world_size: the self times summed by rank */
} TprofProfileTree;

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
  TprofTopology              *topology;    /* main thread only: the ranks by host, made when asked */
  TprofProfileTree           *tree;        /* NULL: no timeline, too large, or not computed yet */
  gboolean                    tree_pending; /* the background pass builds the tree */
  GPtrArray                  *live_stats;  /* a running job's snapshot (tprof-profile-live.c): owns
                                            * what stats point at; NULL for a file */
  TprofGatheredTime         **live_samples; /* n_ops: a snapshot's kept samples of each operation
                                            * (NULL entries: none); NULL for a file */
} ProfileContents;

struct _TprofProfile
{
  GObject          parent_instance;
  GFile           *file;
  ProfileContents *contents;
  guint64          eager_samples;
  guint64          tree_at_once_samples;
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

  gint             scanning;           /* atomic: the background pass runs */
  gint             scan_stragglers;    /* atomic: ... for the straggler */
  gint             scan_tree;          /* atomic: ... for the tree */
  gint             scan_permille;      /* atomic */
};

/* Where one phase lies in a whole task's progress. */
typedef struct
{
  gint   *permille;
  double  start;
  double  share;
} ProfileProgress;

/* Frees @contents and what it owns. */
void     _tprof_profile_contents_free (ProfileContents *contents);

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
/* Whether a profile of @total_samples in @n_ops operations over
 * @world_size ranks is small enough to build its tree (all samples are
 * held at once for the nesting). */
gboolean  _tprof_profile_tree_fits (guint64 total_samples,
                                    gsize   n_ops,
                                    int     world_size);
/* The tree of the operations @gts[0..@n_ops) (every sample of each);
 * NULL when they have no timeline or memory is exhausted. */
TprofProfileTree *_tprof_profile_tree_new  (TprofGatheredTime *const *gts,
                                            gsize                     n_ops,
                                            int                       world_size);
void              _tprof_profile_tree_free (TprofProfileTree *tree);

/* Starts the background pass that reads every operation once, for the
 * straggler (unless known) and the tree (when pending)
 * (tprof-profile-stragglers.c). */
void     _tprof_profile_find_stragglers (TprofProfile *self);
void     _tprof_profile_emit_stragglers_found (TprofProfile *self);
void     _tprof_profile_emit_tree_found (TprofProfile *self);

/* The file handle for a read of a selected operation, and back. */
void     _tprof_profile_lock_for_read   (TprofProfile *self);
void     _tprof_profile_unlock_for_read (TprofProfile *self);

G_END_DECLS
