/* tprof-chart.h — TprofChart: the base of the chart widgets: source, hover, tooltip, snapshot and export. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "tprof-plot.h"
#include "tprof-profile.h"

G_BEGIN_DECLS

#define TPROF_TYPE_CHART (tprof_chart_get_type ())
G_DECLARE_DERIVABLE_TYPE (TprofChart, tprof_chart, TPROF, CHART, GtkWidget)

struct _TprofChartClass
{
  GtkWidgetClass parent_class;

  /* What is shown changed (source or a setting): recompute the data drawn. */
  void        (*recompute)     (TprofChart *self);
  /* The message shown instead of the chart, or NULL when there is a chart. */
  const char *(*empty_message) (TprofChart *self);
  /* Draws the chart with @theme, item @hover highlighted (-1: none); fills
   * @area (never NULL) for hit-testing. */
  void        (*draw)          (TprofChart           *self,
                                cairo_t              *cr,
                                double                width,
                                double                height,
                                const TprofPlotTheme *theme,
                                gssize                hover,
                                TprofPlotArea        *area);
  /* The item (bin, rank) at (@x, @y) of the drawn @area, or -1; NULL for
   * a chart without items to point at. */
  gssize      (*hit)           (TprofChart          *self,
                                const TprofPlotArea *area,
                                double               x,
                                double               y);
  /* The tooltip of item @index; NULL when out of range. May be NULL. */
  char       *(*describe)      (TprofChart *self,
                                gssize      index);
  /* The numbers drawn as CSV, as tprof plot and tprof hist write them, or
   * NULL and @error saying why there are none. NULL for a chart whose
   * export is a picture only. */
  char       *(*to_csv)        (TprofChart  *self,
                                GError     **error);
};

/* Shows operation @op of @profile (-1: none), whose @samples the chart
 * keeps a reference to (NULL: not read), on the ranks of @mask
 * (world_size bytes; NULL: all), recomputing only when that changed. */
void                     _tprof_chart_set_source (TprofChart            *self,
                                                  TprofProfile          *profile,
                                                  gssize                 op,
                                                  TprofOperationSamples *samples,
                                                  GBytes                *mask);
/* Comparing two runs: the baseline's @samples of the same operation (NULL:
 * none), read on the chart's rank mask when @same_world (else on all its
 * ranks), and the names of both runs for the legend. */
void                     _tprof_chart_set_baseline (TprofChart            *self,
                                                    TprofOperationSamples *samples,
                                                    gboolean               same_world,
                                                    const char            *label,
                                                    const char            *baseline_label);
/* Draws what the chart shows with @theme (NULL: the export theme), no hover. */
void                     _tprof_chart_draw       (TprofChart           *self,
                                                  cairo_t              *cr,
                                                  double                width,
                                                  double                height,
                                                  const TprofPlotTheme *theme);
/* The message shown instead of a chart, wrapped to the chart's width;
 * NULL when a chart is shown. */
PangoLayout             *_tprof_chart_create_message_layout (TprofChart *self);
/* The data rectangle of the last picture on screen; FALSE before one. */
gboolean                 _tprof_chart_get_area   (TprofChart    *self,
                                                  TprofPlotArea *area);
/* The numbers the chart draws as CSV (free it); NULL with @error set
 * when there are none, or when the chart exports only as a picture
 * (TPROF_PLOT_ERROR_FORMAT). */
char                    *_tprof_chart_to_csv     (TprofChart  *self,
                                                  GError     **error);
/* The tooltip text of item @index (free it); NULL when out of range. */
char                    *_tprof_chart_describe   (TprofChart *self,
                                                  gssize      index);

/* For subclasses. */

/* The profile shown, or NULL. */
TprofProfile              *_tprof_chart_get_profile (TprofChart *self);
/* The index of the operation shown, or NULL when none is (or its samples
 * are not read yet). */
const TprofOperationIndex *_tprof_chart_get_index   (TprofChart *self);
/* The operation's samples (NULL: none): immutable, so a chart that holds
 * a reference knows its results of them stay true. */
TprofOperationSamples     *_tprof_chart_get_samples (TprofChart *self);
/* Its heat map, or NULL (none shown, not read, or no timeline). */
const TprofProfileHeat    *_tprof_chart_get_heat    (TprofChart *self);
/* A copy of the heat map's cells (durations, or with @deviation their
 * deviations from each occurrence's median) with the rows of ranks the
 * mask hides NaN (g_free() it); NULL without a heat map. */
double                    *_tprof_chart_dup_heat_cells (TprofChart *self,
                                                        gboolean    deviation);
gssize                   _tprof_chart_get_op        (TprofChart *self);
/* The baseline's index (NULL: no comparison, or not read), the mask that
 * applies to it, and the runs' names. */
const TprofOperationIndex *_tprof_chart_get_baseline_index (TprofChart *self);
const guint8            *_tprof_chart_get_baseline_mask (TprofChart *self);
gboolean                 _tprof_chart_get_baseline_same_world (TprofChart *self);
const char              *_tprof_chart_get_label          (TprofChart *self);
const char              *_tprof_chart_get_baseline_label (TprofChart *self);
/* @format (with one %s) around the shown operation's name, escaped, so
 * that a chart, exported, says what it shows; NULL with no operation. */
char                     *_tprof_chart_format_title  (TprofChart *self,
                                                      const char *format);
/* world_size bytes, non-zero for a shown rank; NULL: every rank. */
const guint8            *_tprof_chart_get_mask      (TprofChart *self);
/* The ranks shown of the groups of @level that @bar covers, ascending. */
GArray                  *_tprof_chart_bar_ranks     (TprofChart          *self,
                                                     gsize                level,
                                                     const TprofGroupBar *bar);
/* Recomputes and redraws after a setting of the subclass changed (when
 * the chart is on screen; else once it is mapped or refreshed). */
void                     _tprof_chart_recompute     (TprofChart *self);
/* Recomputes now what changed while the chart was not on screen: for
 * whatever reads its data. */
void                     _tprof_chart_refresh       (TprofChart *self);
/* The item under (@x, @y) in the last drawn picture, or -1. */
gssize                   _tprof_chart_hit           (TprofChart *self,
                                                     double      x,
                                                     double      y);

G_END_DECLS
