/* tprof-chart-util.h — what the chart widgets share: theme colours from GTK, empty-state text, the chart source. */
#pragma once

#include <gtk/gtk.h>

#include "tprof-plot.h"
#include "tprof-profile.h"

G_BEGIN_DECLS

/* Fills @theme from @widget's style (foreground, grid) and scale factor. */
void _tprof_chart_theme_from_widget (GtkWidget      *widget,
                                     TprofPlotTheme *theme);
/* Draws @message centred, in the dimmed foreground colour. */
void _tprof_chart_snapshot_message  (GtkWidget      *widget,
                                     GtkSnapshot    *snapshot,
                                     const char     *message);

/* What a chart shows: an operation of a loaded profile under a rank mask. */
typedef struct
{
  TprofProfile *profile;  /* NULL: nothing to show */
  gssize        op;       /* -1: no operation selected */
  GBytes       *mask;     /* world_size bytes; NULL: every rank */
} TprofChartSource;

/* Replaces @source's contents (references @profile and @mask); returns TRUE when it changed. */
gboolean             _tprof_chart_source_set        (TprofChartSource *source,
                                                     TprofProfile     *profile,
                                                     gssize            op,
                                                     GBytes           *mask);
void                 _tprof_chart_source_clear      (TprofChartSource *source);
/* The index when an operation is shown, else NULL. */
const TprofProfileIndex *_tprof_chart_source_get_index (const TprofChartSource *source);
const guint8        *_tprof_chart_source_get_mask   (const TprofChartSource *source);

G_END_DECLS
