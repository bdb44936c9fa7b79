/* tprof-heatmap-view.h — TprofHeatmapView: the selected operation over time, ranks x occurrences, drawn by viewer/plot. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_HEATMAP_VIEW (tprof_heatmap_view_get_type ())
G_DECLARE_FINAL_TYPE (TprofHeatmapView, tprof_heatmap_view, TPROF, HEATMAP_VIEW, TprofChart)

/* The cells shown, n_rows x n_cols: one row per rank shown, ascending
 * (under a rank filter, only its ranks); NULL when the operation has no
 * timeline. */
const double *_tprof_heatmap_view_get_cells (TprofHeatmapView *self,
                                             guint            *n_rows,
                                             guint            *n_cols);
/* The rows' names when more ranks are shown than rows of 3 px fit and the
 * rows are hosts (or runs of hosts) instead, as last drawn; NULL (and
 * *@n_rows 0) when the rows are ranks. */
const char *const *_tprof_heatmap_view_get_row_labels (TprofHeatmapView *self,
                                                       guint            *n_rows);

G_END_DECLS
