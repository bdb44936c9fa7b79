/* tprof-trend-view.h — TprofTrendView: the selected operation occurrence by occurrence, the spread across ranks and the slowest ranks, drawn by viewer/plot. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_TREND_VIEW (tprof_trend_view_get_type ())
G_DECLARE_FINAL_TYPE (TprofTrendView, tprof_trend_view, TPROF, TREND_VIEW, TprofChart)

/* What is drawn: NULL when the operation has no timeline. */
const TprofPlotTrend *_tprof_trend_view_get_trend (TprofTrendView *self);


G_END_DECLS
