/* tprof-rank-chart.h — TprofRankChart: each rank's time for the selected operation, drawn by viewer/plot. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_RANK_CHART (tprof_rank_chart_get_type ())
G_DECLARE_FINAL_TYPE (TprofRankChart, tprof_rank_chart, TPROF, RANK_CHART, TprofChart)

/* The ranks shown, ascending; owned by the chart. */
const TprofRankSummary *_tprof_rank_chart_get_rank_summaries (TprofRankChart *self,
                                                              gsize          *n_ranks);

/* The bars of hosts drawn last, or NULL when the bars are ranks. */
const TprofPlotRankGroups *_tprof_rank_chart_get_groups (TprofRankChart *self);

G_END_DECLS
