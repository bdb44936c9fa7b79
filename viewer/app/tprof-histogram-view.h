/* tprof-histogram-view.h — TprofHistogramView: the histogram of the selected operation, drawn by viewer/plot. */
#pragma once

#include <gtk/gtk.h>

#include "tprof-plot.h"
#include "tprof-profile.h"

G_BEGIN_DECLS

#define TPROF_TYPE_HISTOGRAM_VIEW (tprof_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (TprofHistogramView, tprof_histogram_view, TPROF, HISTOGRAM_VIEW, GtkWidget)

GtkWidget            *_tprof_histogram_view_new           (void);
/* Shows operation @op of @profile (-1: none) on the ranks of @mask (NULL: all). */
void                  _tprof_histogram_view_set_source    (TprofHistogramView *self,
                                                           TprofProfile       *profile,
                                                           gssize              op,
                                                           GBytes             *mask);
/* The histogram drawn now (NULL when nothing is shown); owned by the view. */
const TprofHistogram *_tprof_histogram_view_get_histogram (TprofHistogramView *self);
/* Draws what the view shows with @theme (NULL: the export theme), no hover. */
void                  _tprof_histogram_view_draw          (TprofHistogramView   *self,
                                                           cairo_t              *cr,
                                                           double                width,
                                                           double                height,
                                                           const TprofPlotTheme *theme);
/* The tooltip text of bin @bin; NULL when out of range. */
char                 *_tprof_histogram_view_describe_bin  (TprofHistogramView *self,
                                                           gssize              bin);

G_END_DECLS
