/* tprof-histogram-view.h — TprofHistogramView: the histogram of the selected operation, drawn by viewer/plot. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_HISTOGRAM_VIEW (tprof_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (TprofHistogramView, tprof_histogram_view, TPROF, HISTOGRAM_VIEW, TprofChart)

/* The histogram drawn now (NULL when nothing is shown); owned by the view. */
const TprofHistogram *_tprof_histogram_view_get_histogram (TprofHistogramView *self);
/* Comparing: the baseline on the histogram's edges; NULL otherwise. */
const TprofHistogram *_tprof_histogram_view_get_baseline (TprofHistogramView *self);
/* The chart's subtitle: the rank filter and the moments of the selection. */
const char           *_tprof_histogram_view_get_subtitle  (TprofHistogramView *self);

G_END_DECLS
