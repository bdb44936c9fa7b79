/* tprof-operation.h — TprofOperation: one row of the operations table, the statistics of one operation. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib-object.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

#define TPROF_TYPE_OPERATION (tprof_operation_get_type ())
G_DECLARE_FINAL_TYPE (TprofOperation, tprof_operation, TPROF, OPERATION, GObject)

/* @index is the operation's position in the profile. */
TprofOperation     *_tprof_operation_new         (const char         *name,
                                                  guint               index,
                                                  const TprofSummary *summary);
const char         *_tprof_operation_get_name    (TprofOperation *self);
guint               _tprof_operation_get_index   (TprofOperation *self);
const TprofSummary *_tprof_operation_get_summary (TprofOperation *self);

/* Comparing with a baseline run: how this operation changed (docs/analysis.md).
 * @tested FALSE when the samples of one side were not at hand: the ratio
 * is then that of the cached medians and the verdict unknown. */
void                   _tprof_operation_set_comparison (TprofOperation        *self,
                                                        const TprofComparison *comparison,
                                                        gboolean               tested);
/* NULL when the window compares nothing. */
const TprofComparison *_tprof_operation_get_comparison (TprofOperation *self,
                                                        gboolean       *tested);

/* Its place in the operation tree (docs/analysis.md): the parent operation's
 * index (-1 at the top) and the sum of its self times on the ranks shown.
 * Without a tree (the default) the operation has no parent and its self
 * time is NaN. */
void                _tprof_operation_set_tree   (TprofOperation *self,
                                                 gboolean        in_tree,
                                                 gssize          parent,
                                                 double          self_time);
gboolean            _tprof_operation_in_tree    (TprofOperation *self);
gssize              _tprof_operation_get_parent (TprofOperation *self);
double              _tprof_operation_get_self   (TprofOperation *self);

/* Whether the file keeps a random subset of the operation's samples: its
 * std and quantiles are then estimates (_tprof_profile_is_sampled); and
 * how many samples of the ranks shown it keeps. */
void     _tprof_operation_set_sampled (TprofOperation *self,
                                       gboolean        sampled,
                                       guint64         stored);
gboolean _tprof_operation_is_sampled  (TprofOperation *self);
guint64  _tprof_operation_get_stored  (TprofOperation *self);

G_END_DECLS
