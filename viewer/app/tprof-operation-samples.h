/* tprof-operation-samples.h — TprofOperationSamples: one operation's samples as the charts use them, indexed, with its heat map. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

/* An operation's durations as ranks x occurrences (tprof_heatmap_fill(),
 * durations), and their deviations from each occurrence's median over
 * the ranks: rows first_rank.. with n_cols columns of at most
 * TPROF_PROFILE_HEAT_COLUMNS over n_occurrences. */
#define TPROF_PROFILE_HEAT_COLUMNS 600
typedef struct
{
  double *cells;
  double *deviation;
  double *column_starts;  /* n_cols: where each column begins on the timeline */
  guint   n_rows;
  guint   n_cols;
  gint32  first_rank;
  gsize   n_occurrences;
} TprofProfileHeat;

/* Immutable once made and reference counted, so the table's worker, the
 * charts and the profile's memory budget can each hold it independently. */
typedef struct _TprofOperationSamples TprofOperationSamples;

/* Indexes @gt (reporting @progress and stopping when *@cancel becomes
 * true) and computes its heat map: NULL with @error set on failure. */
TprofOperationSamples *_tprof_operation_samples_new   (const TprofGatheredTime *gt,
                                                       int                      world_size,
                                                       TprofProgressFunc        progress,
                                                       void                    *user_data,
                                                       const volatile int      *cancel,
                                                       TprofError              *error);
TprofOperationSamples *_tprof_operation_samples_ref   (TprofOperationSamples *self);
void                   _tprof_operation_samples_unref (TprofOperationSamples *self);
const TprofOperationIndex *_tprof_operation_samples_get_index (const TprofOperationSamples *self);
/* NULL for an operation without starts (a profile without a timeline). */
const TprofProfileHeat    *_tprof_operation_samples_get_heat  (const TprofOperationSamples *self);
/* About how much memory it holds, for the profile's budget. */
gsize                      _tprof_operation_samples_get_size  (const TprofOperationSamples *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofOperationSamples, _tprof_operation_samples_unref)

G_END_DECLS
