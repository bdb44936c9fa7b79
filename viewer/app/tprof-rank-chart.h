/* tprof-rank-chart.h — TprofRankChart: each rank's time for the selected operation, drawn by viewer/plot. */
#pragma once

#include <gtk/gtk.h>

#include "tprof-plot.h"
#include "tprof-profile.h"

G_BEGIN_DECLS

#define TPROF_TYPE_RANK_CHART (tprof_rank_chart_get_type ())
G_DECLARE_FINAL_TYPE (TprofRankChart, tprof_rank_chart, TPROF, RANK_CHART, GtkWidget)

GtkWidget              *_tprof_rank_chart_new                (void);
void                    _tprof_rank_chart_set_source         (TprofRankChart *self,
                                                              TprofProfile   *profile,
                                                              gssize          op,
                                                              GBytes         *mask);
/* The ranks shown, ascending; owned by the chart. */
const TprofRankSummary *_tprof_rank_chart_get_rank_summaries (TprofRankChart *self,
                                                              gsize          *n_ranks);
void                    _tprof_rank_chart_draw               (TprofRankChart       *self,
                                                              cairo_t              *cr,
                                                              double                width,
                                                              double                height,
                                                              const TprofPlotTheme *theme);
/* The tooltip text of the rank at @index in the shown ranks; NULL when out of range. */
char                   *_tprof_rank_chart_describe_rank      (TprofRankChart *self,
                                                              gssize          index);

G_END_DECLS
