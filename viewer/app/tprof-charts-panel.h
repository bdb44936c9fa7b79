/* tprof-charts-panel.h — TprofChartsPanel: the histogram and per-rank chart of the selected operation, with their controls. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "tprof-heatmap-view.h"
#include "tprof-histogram-view.h"
#include "tprof-profile.h"
#include "tprof-rank-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_CHARTS_PANEL (tprof_charts_panel_get_type ())
G_DECLARE_FINAL_TYPE (TprofChartsPanel, tprof_charts_panel, TPROF, CHARTS_PANEL, GtkWidget)

/* Shows operation @op of @profile (-1: none) on the ranks of @mask (NULL: all). */
void                _tprof_charts_panel_set_source    (TprofChartsPanel *self,
                                                       TprofProfile     *profile,
                                                       gssize            op,
                                                       GBytes           *mask);
TprofHistogramView *_tprof_charts_panel_get_histogram (TprofChartsPanel *self);
TprofRankChart     *_tprof_charts_panel_get_rank_chart (TprofChartsPanel *self);
GtkSpinButton      *_tprof_charts_panel_get_bins_spin (TprofChartsPanel *self);
/* The name of the operation shown, "" for none. */
const char         *_tprof_charts_panel_get_title     (TprofChartsPanel *self);

/* The heat map that rank-metric "time" shows in place of the rank chart. */
TprofHeatmapView   *_tprof_charts_panel_get_heatmap    (TprofChartsPanel *self);
gboolean            _tprof_charts_panel_shows_heatmap  (TprofChartsPanel *self);

G_END_DECLS
