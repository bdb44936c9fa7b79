/* tprof-window-private.h — TprofWindow's state, shared by tprof-window.c, tprof-window-actions.c and tests. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-charts-panel.h"
#include "tprof-follow.h"
#include "tprof-operation-table.h"
#include "tprof-profile.h"
#include "tprof-rank-filter.h"
#include "tprof-window.h"

G_BEGIN_DECLS

struct _TprofWindow
{
  GtkApplicationWindow  parent_instance;

  GSettings            *settings;
  GFile                *file;             /* shown or loading */
  TprofProfile         *profile;          /* shown, NULL when empty */
  TprofProfile         *loading;          /* being loaded */
  GCancellable         *cancellable;
  guint                 progress_source;
  GBytes               *mask;             /* NULL: every rank */
  guint                 table_generation; /* drops stale table recomputations */
  GCancellable         *table_cancellable;
  guint                 table_pending;
  GCancellable         *read_cancellable; /* the selected operation's read */
  gssize                reading_op;       /* whose samples are being read, -1: none */
  guint                 read_pending;     /* reads not yet finished (cancelled ones too) */
  gulong                stragglers_handler;
  gulong                tree_handler;

  /* comparing (tprof-window-compare.c) */
  TprofProfile         *baseline;         /* compared with, NULL: none */
  TprofProfile         *baseline_loading;
  GCancellable         *baseline_cancellable;
  guint                 extras_loading;   /* baselines after the first not yet loaded (cancelled ones too) */
  gssize               *baseline_ops;     /* per operation of profile: the baseline's, -1: none */
  GCancellable         *baseline_read_cancellable;
  gssize                baseline_reading_op;  /* the baseline's operation being read, -1: none */

  /* template widgets */
  GtkStack             *stack;
  GtkRevealer          *error_revealer;
  GtkLabel             *error_label;
  GtkLabel             *loading_label;
  GtkProgressBar       *progress_bar;
  GtkSpinner           *loading_spinner;
  GtkLabel             *empty_title;
  TprofOperationTable  *table;
  TprofChartsPanel     *charts;
  TprofRankFilter      *rank_filter;
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkWidget            *straggler_bar;
  GtkLabel             *straggler_label;
  GtkButton            *straggler_button;
  int                   straggler;        /* the rank named from arrival (a host's: the one
                                           * latest most often), -1: none */
  char                 *straggler_host;   /* the host named instead of one rank, or NULL */
  gint32               *straggler_host_ranks;
  gsize                 straggler_host_n_ranks;

  GWeakRef              opener;           /* the window whose Open made this one, if any */

  /* following a running job (tprof-window-follow.c); NULL: not following */
  TprofFollow          *follow;

  /* the first view (tprof-window-first-view.c) */
  gboolean              first_view;       /* the window still chooses the operation shown */
  gboolean              choosing;         /* it is choosing now */
  int                   shown_index;      /* the operation selected, -1: none */
  int                   straggler_op_rank; /* the rank straggler_op is for, -1: not found yet */
  gssize                straggler_op;     /* where that rank stands out most, -1: nowhere */
};

/* tprof-window.c */
/* A window made by another's Open that could show nothing: @message goes
 * to that window, this one goes away (TRUE); FALSE otherwise. */
gboolean    _tprof_window_hand_back_error (TprofWindow  *self,
                                           const char   *message);
void        _tprof_window_show_error      (TprofWindow  *self,
                                           const char   *message);
void        _tprof_window_hide_error      (TprofWindow  *self);
/* The shown error message, NULL when none. */
const char *_tprof_window_get_error       (TprofWindow  *self);
/* "empty", "loading" or "profile". */
const char *_tprof_window_get_page        (TprofWindow  *self);
/* The rank the straggler bar names (-1: none), and its text ("" when hidden). */
int         _tprof_window_get_straggler   (TprofWindow  *self,
                                           const char  **text);
/* TRUE while a file loads, an operation's samples are read, the table is
 * recomputed for a new rank filter, or the profile finds its straggler or
 * builds its tree. */
gboolean    _tprof_window_is_busy         (TprofWindow  *self);

/* Keeps the progress shown (loading, reading, straggler search) ticking. */
void        _tprof_window_start_progress  (TprofWindow  *self);

/* tprof-window-reading.c: the selected operation's charts, its samples
 * read first when they are not in memory */
void        _tprof_window_update_charts   (TprofWindow  *self);
/* Connects the charts panel's Cancel and Read Again. */
void        _tprof_window_connect_reading (TprofWindow  *self);
/* Stops reading the selected operation's samples. */
void        _tprof_window_cancel_reading  (TprofWindow  *self);
/* The reading page's progress; FALSE when nothing is being read. */
gboolean    _tprof_window_tick_reading    (TprofWindow  *self);
/* The profile's table under the mask changed: summaries again. */
void        _tprof_window_update_table    (TprofWindow  *self);

/* The title and subtitle of the profile shown (and of its baseline). */
void        _tprof_window_show_title      (TprofWindow  *self);

/* tprof-window-first-view.c: a profile opens on the operation where the
 * straggler named from arrival stands out, until the user chooses */
void        _tprof_window_reset_first_view (TprofWindow *self);
/* The table's selection changed: by the user unless the window chose. */
void        _tprof_window_note_selection  (TprofWindow  *self);
/* Selects the straggler's operation while the window still chooses. */
void        _tprof_window_open_on_straggler (TprofWindow *self);

/* Shows @profile, a snapshot of the job followed: the first one as a
 * newly opened profile, the later ones in its place keeping the selection,
 * the rank filter and the sort. */
void        _tprof_window_show_live_profile (TprofWindow  *self,
                                             TprofProfile *profile,
                                             gboolean      first);

/* tprof-window-follow.c: following a running job's spill folder */
/* Follows the job whose spill files are in @directory, or says why not. */
void        _tprof_window_follow          (TprofWindow  *self,
                                           GFile        *directory);
/* Stops following (nothing when not following). */
void        _tprof_window_stop_following  (TprofWindow  *self);
/* The Follow action (a folder chooser), pause and the banner's button. */
void        _tprof_window_follow_class_init (GtkWidgetClass *widget_class);
void        _tprof_window_follow_init     (TprofWindow  *self);
/* The header bar's live state ("" when not following) and the end
 * banner's text (NULL when hidden), and whether it offers the profile. */
const char *_tprof_window_get_live_text   (TprofWindow  *self);
const char *_tprof_window_get_follow_banner (TprofWindow *self,
                                             gboolean    *offers_profile);

/* tprof-window-compare.c */
typedef struct _WindowComparison WindowComparison;
void        _tprof_window_stop_comparing  (TprofWindow  *self);
TprofProfile *_tprof_window_get_baseline  (TprofWindow  *self);
/* The file names of every baseline, the first first, comma-separated,
 * and how many into @n (there must be a baseline). */
char       *_tprof_window_baseline_names (TprofWindow *self,
                                          guint       *n);
/* The profile or the baseline changed: operations matched again, the
 * table's columns, title, table and charts updated. */
void        _tprof_window_comparison_changed (TprofWindow *self);
/* For the table's worker: taken on the main thread (NULL without a
 * baseline), run in the worker on the profile's @samples under @mask, and
 * set on the rows on the main thread. */
WindowComparison *_tprof_window_comparison_new (TprofWindow *self);
void        _tprof_window_comparison_run  (WindowComparison             *comparison,
                                           TprofProfile                 *profile,
                                           TprofOperationSamples *const *samples,
                                           const guint8                 *mask);
void        _tprof_window_comparison_apply (WindowComparison *comparison,
                                            GPtrArray        *operations);
void        _tprof_window_comparison_free (WindowComparison *comparison);
/* Stops reading the baseline's samples of the selected operation. */
void        _tprof_window_cancel_baseline_reading (TprofWindow *self);

/* tprof-window-actions.c */
void        _tprof_window_class_add_actions (GtkWidgetClass *widget_class);
/* Opens @files as the Open dialog does: the first here when this window is
 * empty, the others in windows of their own, which go away again if their
 * file cannot be opened, leaving the reason here. */
void        _tprof_window_open_files      (TprofWindow  *self,
                                           GFile       **files,
                                           guint         n_files);
void        _tprof_window_update_actions  (TprofWindow  *self);
/* Writes the chart @chart ("histogram" or "ranks") as shown to @path, its
 * format from the suffix. */
gboolean    _tprof_window_export_chart    (TprofWindow  *self,
                                           const char   *path,
                                           const char   *chart,
                                           int           width,
                                           int           height,
                                           GError      **error);
gboolean    _tprof_window_export_table    (TprofWindow  *self,
                                           const char   *path,
                                           GError      **error);
/* As the export dialogs do: export, and on failure tell the user why in the window. */
gboolean    _tprof_window_save_chart      (TprofWindow  *self,
                                           const char   *path,
                                           const char   *chart,
                                           int           width,
                                           int           height);
gboolean    _tprof_window_save_table      (TprofWindow  *self,
                                           const char   *path);
/* The file name an export dialog proposes: "OPERATION-WHAT.SUFFIX", the
 * selected operation's name made safe for a file name. */
char       *_tprof_window_export_file_name (TprofWindow *self,
                                            const char  *what,
                                            const char  *suffix);

G_END_DECLS
