/* tprof-rank-filter.h — TprofRankFilter: the side panel choosing which ranks the table and charts show. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "tprof-profile.h"

G_BEGIN_DECLS

#define TPROF_TYPE_RANK_FILTER (tprof_rank_filter_get_type ())
G_DECLARE_FINAL_TYPE (TprofRankFilter, tprof_rank_filter, TPROF, RANK_FILTER, GtkWidget)

/* Lists the ranks of @profile (NULL: none), all selected. */
void      _tprof_rank_filter_set_profile     (TprofRankFilter         *self,
                                              TprofProfile            *profile);
/* @profile, a later snapshot of the same ranks (a followed job's), may
 * know hosts the list did not (files that appeared since): the list is
 * grouped again by them, the selection kept. Nothing when the hosts are
 * the same or the rank count differs. */
void      _tprof_rank_filter_update_hosts    (TprofRankFilter         *self,
                                              TprofProfile            *profile);
/* world_size bytes, non-zero for a selected rank; NULL when every rank is selected. */
GBytes   *_tprof_rank_filter_dup_mask        (TprofRankFilter         *self);
guint     _tprof_rank_filter_get_n_selected  (TprofRankFilter         *self);
/* The list's rows of a new profile are still to be made (after its first frame). */
gboolean  _tprof_rank_filter_is_filling      (TprofRankFilter         *self);
/* Shows the @n_ranks ranks of @ranks alone (a host's), remembering the
 * filter shown until then; when they are already shown alone, goes back. */
void      _tprof_rank_filter_focus_ranks     (TprofRankFilter         *self,
                                              const gint32            *ranks,
                                              gsize                    n_ranks);
/* _tprof_rank_filter_focus_ranks() of @rank alone. */
void      _tprof_rank_filter_focus_rank      (TprofRankFilter         *self,
                                              int                      rank);
/* Back to the filter shown before the latest focus, or every rank when
 * none is remembered (the user changed the filter since). */
void      _tprof_rank_filter_go_back         (TprofRankFilter         *self);
/* The filter going back shows, as an expression ("0-511"); NULL when it
 * shows every rank. */
char     *_tprof_rank_filter_dup_previous    (TprofRankFilter         *self);
/* Puts the keyboard in the expression entry, its text selected. */
void      _tprof_rank_filter_focus_entry     (TprofRankFilter         *self);
void      _tprof_rank_filter_toggle_rank     (TprofRankFilter         *self,
                                              int                      rank);
void      _tprof_rank_filter_select_all      (TprofRankFilter         *self);
/* Selects exactly the @n_ranks ranks of @ranks. */
void      _tprof_rank_filter_select_ranks    (TprofRankFilter         *self,
                                              const gint32            *ranks,
                                              gsize                    n_ranks);
void      _tprof_rank_filter_select_none     (TprofRankFilter         *self);
void      _tprof_rank_filter_invert          (TprofRankFilter         *self);
/* Selects exactly the ranks of @expr ("0-3,8"); on a bad expression changes
 * nothing, marks the entry and explains why. */
gboolean  _tprof_rank_filter_apply_expression (TprofRankFilter        *self,
                                               const char             *expr,
                                               GError                **error);
/* The "Showing 5 of 64 ranks" text. */
const char *_tprof_rank_filter_get_summary   (TprofRankFilter         *self);

/* Tab from the rank list goes to @next (Shift+Tab to Invert): the list is
 * one tab stop, its arrows move inside and Space toggles a rank. */
void      _tprof_rank_filter_set_next_focus (TprofRankFilter *self,
                                             GtkWidget       *next);

/* The rank list, for tests. */
GtkWidget *_tprof_rank_filter_get_list (TprofRankFilter *self);

G_END_DECLS
