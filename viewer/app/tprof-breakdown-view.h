/* tprof-breakdown-view.h — TprofBreakdownView: each rank's time in the selected operation, stacked by the operations inside it, drawn by viewer/plot. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_BREAKDOWN_VIEW (tprof_breakdown_view_get_type ())
G_DECLARE_FINAL_TYPE (TprofBreakdownView, tprof_breakdown_view, TPROF, BREAKDOWN_VIEW, TprofChart)

/* What is drawn: NULL when there is nothing to break down (no tree yet,
 * no operation inside the selected one). The title is not set. */
const TprofPlotBreakdown *_tprof_breakdown_view_get_plot (TprofBreakdownView *self);

/* The bars of hosts drawn when ranks outnumber pixels, or NULL. */
const TprofPlotBreakdownGroups *_tprof_breakdown_view_get_groups (TprofBreakdownView *self);

G_END_DECLS
