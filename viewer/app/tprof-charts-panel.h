/* tprof-charts-panel.h — TprofChartsPanel: the histogram and per-rank chart of the selected operation, with their controls. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "tprof-heatmap-view.h"
#include "tprof-histogram-view.h"
#include "tprof-profile.h"
#include "tprof-rank-chart.h"
#include "tprof-breakdown-view.h"
#include "tprof-hosts-view.h"
#include "tprof-trend-view.h"

G_BEGIN_DECLS

#define TPROF_TYPE_CHARTS_PANEL (tprof_charts_panel_get_type ())
G_DECLARE_FINAL_TYPE (TprofChartsPanel, tprof_charts_panel, TPROF, CHARTS_PANEL, GtkWidget)

/* Shows operation @op of @profile (-1: none) from its @samples on the
 * ranks of @mask (NULL: all). Without samples for an operation, the panel
 * names it and waits for _tprof_charts_panel_show_reading() or _unread(). */
void                _tprof_charts_panel_set_source    (TprofChartsPanel      *self,
                                                       TprofProfile          *profile,
                                                       gssize                 op,
                                                       TprofOperationSamples *samples,
                                                       GBytes                *mask);
/* Comparing: the baseline's samples of the operation shown (NULL: none),
 * drawn in the histogram and the rank chart with a legend naming both
 * runs; @same_world: the rank filter applies to the baseline too. */
void                _tprof_charts_panel_set_baseline  (TprofChartsPanel      *self,
                                                       TprofOperationSamples *samples,
                                                       gboolean               same_world,
                                                       const char            *label,
                                                       const char            *baseline_label);
/* In place of the charts while the operation's samples are read: @text,
 * a progress bar and Cancel ("cancel-reading"). */
void                _tprof_charts_panel_show_reading  (TprofChartsPanel *self,
                                                       const char       *text);
void                _tprof_charts_panel_set_reading_progress (TprofChartsPanel *self,
                                                              double            fraction);
/* In place of the charts when the samples were not read (cancelled or
 * failed): @text and Read Again ("read-again"). */
void                _tprof_charts_panel_show_unread   (TprofChartsPanel *self,
                                                       const char       *text);
/* The same without a button: charts that cannot be had by reading. */
void                _tprof_charts_panel_show_message  (TprofChartsPanel *self,
                                                       const char       *text);
/* "charts" or "reading" (the latter for reading and unread alike). */
const char         *_tprof_charts_panel_get_page      (TprofChartsPanel *self);
/* The reading page's button (Cancel or Read Again), for tests. */
GtkWidget          *_tprof_charts_panel_get_reading_button (TprofChartsPanel *self);
/* The text of the reading page. */
const char         *_tprof_charts_panel_get_reading_text (TprofChartsPanel *self);
TprofHistogramView *_tprof_charts_panel_get_histogram (TprofChartsPanel *self);
TprofRankChart     *_tprof_charts_panel_get_rank_chart (TprofChartsPanel *self);
GtkSpinButton      *_tprof_charts_panel_get_bins_spin (TprofChartsPanel *self);
/* The name of the operation shown, "" for none. */
const char         *_tprof_charts_panel_get_title     (TprofChartsPanel *self);
/* The row of the per-rank chart's mode buttons. */
GtkWidget          *_tprof_charts_panel_get_mode_buttons (TprofChartsPanel *self);

/* The heat map that rank-metric "time" shows in place of the rank chart. */
TprofHeatmapView   *_tprof_charts_panel_get_heatmap    (TprofChartsPanel *self);
gboolean            _tprof_charts_panel_shows_heatmap  (TprofChartsPanel *self);
/* The right-hand chart as shown: the rank chart, the heat map, the trend
 * or the breakdown. */
TprofChart         *_tprof_charts_panel_get_right_chart (TprofChartsPanel *self);
/* The trend that rank-metric "trend" shows in place of the rank chart. */
TprofTrendView     *_tprof_charts_panel_get_trend      (TprofChartsPanel *self);
/* The breakdown that rank-metric "breakdown" shows in place of the rank chart. */
TprofBreakdownView *_tprof_charts_panel_get_breakdown  (TprofChartsPanel *self);
/* The per-host chart that rank-metric "hosts" shows. */
TprofHostsView *_tprof_charts_panel_get_hosts (TprofChartsPanel *self);
/* The profile's operation tree became known: the breakdown follows. */
void                _tprof_charts_panel_tree_changed   (TprofChartsPanel *self);

G_END_DECLS
