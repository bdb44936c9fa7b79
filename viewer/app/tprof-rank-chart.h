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
/* Comparing, with bars of hosts: the baseline's value of each bar's host
 * (NaN where it has no samples), marked on the bar; NULL otherwise. */
const double              *_tprof_rank_chart_get_groups_baseline (TprofRankChart *self);
/* The straggler the bar names when it is a group of ranks (a host): its
 * ranks that stand out are marked, and the chart names it; NULL: none. */
void                    _tprof_rank_chart_set_straggler_group (TprofRankChart *self,
                                                               const char     *name,
                                                               const int32_t  *ranks,
                                                               gsize           n_ranks);
/* The ranks the chart marks as slow, ascending (g_free() them), and the
 * slowest rank shown into @slowest (-1: none); for tests. */
int32_t                *_tprof_rank_chart_get_marked_ranks (TprofRankChart *self,
                                                            gsize          *n_marked,
                                                            int32_t        *slowest);

G_END_DECLS
