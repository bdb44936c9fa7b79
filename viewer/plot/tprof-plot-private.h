/* tprof-plot-private.h — helpers shared by the chart files of viewer/plot, not part of its interface. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdio.h>

#include <pango/pangocairo.h>

#include "tprof-plot.h"
#include "tprof-text-private.h"

G_BEGIN_DECLS

/* Sizes of one picture, all derived from its size so that a chart looks the
 * same at any size (or from the theme's font size on screen). */
typedef struct
{
  double width, height;
  double font;      /* base font size, user units */
  double line;      /* thin line width */
  double pad;       /* outer margin */
  double tick;      /* tick mark length */
  const TprofPlotTheme *theme;
  TprofPlotTheme default_theme;   /* what theme points to when none is given */
  TprofPlotArea  own_area;        /* the data area when the caller wants none */
} TprofPlotFrame;

/* Starts a chart on @cr: sizes @frame for @theme (NULL: the default theme),
 * saves @cr and paints the background. Returns @area, or the frame's own
 * when @area is NULL, zeroed for the chart to fill. End with cairo_restore(). */
TprofPlotArea *_tprof_plot_frame_begin (TprofPlotFrame       *frame,
                                        cairo_t              *cr,
                                        double                width,
                                        double                height,
                                        const TprofPlotTheme *theme,
                                        TprofPlotArea        *area);
/* Title and subtitle centred at the top; returns the y below them. */
double _tprof_plot_frame_draw_titles (cairo_t              *cr,
                                      const TprofPlotFrame *frame,
                                      const char           *title,
                                      const char           *subtitle);
/* A message in the middle of @area, for charts with nothing to show. */
void _tprof_plot_frame_draw_message (cairo_t              *cr,
                                     const TprofPlotFrame *frame,
                                     double                top,
                                     const char           *message);
/* Snaps a coordinate to the device pixel grid for crisp hairlines. */
double _tprof_plot_frame_snap (const TprofPlotFrame *frame, double v);

void _tprof_plot_set_rgba (cairo_t *cr, const double rgba[4]);

/* Distinct colours of tprof_plot_palette_color() before it cycles. */
#define TPROF_PLOT_PALETTE_SIZE 8

/* ---- text ---- */

typedef struct
{
  double size;       /* user units */
  gboolean bold;
} TprofPlotFont;

void _tprof_plot_text_extents (cairo_t             *cr,
                               const TprofPlotFont *font,
                               const char          *text,
                               double              *width,
                               double              *height);
/* Draws @text with its anchor (@halign, @valign in 0..1 of its box) at
 * (@x, @y); @vertical turns it a quarter counter-clockwise. */
void _tprof_plot_text_draw (cairo_t             *cr,
                            const TprofPlotFont *font,
                            const char          *text,
                            double               x,
                            double               y,
                            double               halign,
                            double               valign,
                            gboolean             vertical,
                            const double         rgba[4]);
/* @text in lines at most @width wide centred on @x from @y down, wrapped
 * at words (@wrap) or shortened in the middle; returns its height. */
double _tprof_plot_text_draw_fitted (cairo_t             *cr,
                                     const TprofPlotFont *font,
                                     const char          *text,
                                     double               x,
                                     double               y,
                                     double               width,
                                     gboolean             wrap,
                                     const double         rgba[4]);
/* The height of @text wrapped into lines at most @width wide. */
double _tprof_plot_text_wrapped_height (cairo_t             *cr,
                                        const TprofPlotFont *font,
                                        const char          *text,
                                        double               width);

/* ---- axes ---- */

#define TPROF_PLOT_AXIS_MAX_TICKS 64

typedef enum
{
  TPROF_PLOT_AXIS_DURATION,   /* seconds, labelled in human units */
  TPROF_PLOT_AXIS_COUNT,      /* counts, labelled 1k, 2.5M */
} TprofPlotAxisKind;

typedef struct
{
  TprofPlotAxisKind kind;
  gboolean log;
  double   min, max;              /* range shown */
  double   step;                  /* linear tick step; 0 for log ticks */
  guint    n_ticks;
  double   ticks[TPROF_PLOT_AXIS_MAX_TICKS];
  const gint32 *labels;           /* NULL: ticks labelled by value; else a tick
                                     at integer i is labelled labels[i] (rows
                                     of ranks that are not consecutive) */
  const char *const *text_labels; /* the same with names (hosts): labels
                                     text_labels[i] instead, when set */
  guint    n_labels;
} TprofPlotAxis;

/* Linear axis over [@lo, @hi] with about @target ticks; @expand widens the
 * range to whole ticks (count axes), otherwise it stays exactly [@lo, @hi]. */
void _tprof_plot_axis_init_linear (TprofPlotAxis     *axis,
                                   TprofPlotAxisKind  kind,
                                   double             lo,
                                   double             hi,
                                   guint              target,
                                   gboolean           expand);
/* Log axis over [@lo, @hi] (both > 0): decades, or 1-2-5 steps, or plain
 * nice steps when the range is narrower than that. */
void _tprof_plot_axis_init_log (TprofPlotAxis     *axis,
                                TprofPlotAxisKind  kind,
                                double             lo,
                                double             hi);
/* Position of @v as a fraction of the axis (0 at min, 1 at max). */
double _tprof_plot_axis_fraction (const TprofPlotAxis *axis, double v);
double _tprof_plot_axis_value (const TprofPlotAxis *axis, double fraction);
/* Label of tick @i, in a unit chosen once for the whole axis. */
char *_tprof_plot_axis_tick_label (const TprofPlotAxis *axis, guint i);
/* The nice step (1, 2 or 5 times a power of ten) nearest above @raw. */
double _tprof_plot_nice_step (double raw);

/* The two axes of a chart: x is either numeric or a row of categories
 * labelled by integers (ranks), thinned out to nice steps when crowded. */
typedef struct
{
  const TprofPlotAxis *x;              /* NULL: categories */
  const gint32        *categories;
  const char *const   *category_labels; /* n_categories names (hosts) instead
                                           of the integers; NULL: none */
  guint                n_categories;
  const TprofPlotAxis *y;
  const char          *x_title;
  const char          *y_title;
} TprofPlotAxes;

/* Computes the data rectangle inside the frame below @top. */
void _tprof_plot_axes_layout (cairo_t              *cr,
                              const TprofPlotFrame *frame,
                              const TprofPlotAxes  *axes,
                              double                top,
                              TprofPlotArea        *area);
void _tprof_plot_axes_draw_grid (cairo_t              *cr,
                                 const TprofPlotFrame *frame,
                                 const TprofPlotAxes  *axes,
                                 const TprofPlotArea  *area);
void _tprof_plot_axes_draw (cairo_t              *cr,
                            const TprofPlotFrame *frame,
                            const TprofPlotAxes  *axes,
                            const TprofPlotArea  *area);

/* Maps data coordinates of @area to user units and back. */
double _tprof_plot_area_x (const TprofPlotArea *area, double v);
double _tprof_plot_area_y (const TprofPlotArea *area, double v);
double _tprof_plot_area_x_value (const TprofPlotArea *area, double x);
/* Whether (@x, @y) falls on the data rectangle, which must not be empty. */
gboolean _tprof_plot_area_contains (const TprofPlotArea *area, double x, double y);

/* ---- groups of ranks (tprof-plot-heatmap-rows.c) ---- */

/* The axis' title for bars of @level, the first of which covers groups
 * @first..@last: "Ranks", "Host", "Hosts" or a level's name. */
const char *_tprof_plot_groups_title (const TprofTopology *topo,
                                      gsize                level,
                                      gsize                first,
                                      gsize                last);
/* The axis label of groups @first..@last of @level: "node064",
 * "node000–031" (a rank's number at the rank level); free it. */
char *_tprof_plot_groups_label (const TprofTopology *topo,
                                gsize                level,
                                gsize                first,
                                gsize                last);
/* Names @n_bars bars of @level: each one's axis label into *@labels and
 * the name of the group it shows (its top group) into *@names, both
 * NULL-terminated for g_strfreev; returns the axis' title. */
const char *_tprof_plot_groups_name_bars (const TprofTopology  *topo,
                                          gsize                 level,
                                          const TprofGroupBar  *bars,
                                          gsize                 n_bars,
                                          char               ***labels,
                                          char               ***names);

/* ---- legend ---- */

typedef struct
{
  double   rgb[3];
  double   alpha;    /* of the swatch's fill */
  char    *label;
  gboolean outline;  /* the swatch also has a solid outline, as the series does */
} TprofPlotLegendItem;

/* The size of the boxed legend of @items; @more (may be NULL) is a last
 * line without a swatch. */
void _tprof_plot_legend_measure (cairo_t                   *cr,
                                 const TprofPlotFrame      *frame,
                                 const TprofPlotLegendItem *items,
                                 guint                      n_items,
                                 const char                *more,
                                 double                    *width,
                                 double                    *height);
/* Draws it with its top left corner at (@x, @y). */
void _tprof_plot_legend_draw (cairo_t                   *cr,
                              const TprofPlotFrame      *frame,
                              double                     x,
                              double                     y,
                              const TprofPlotLegendItem *items,
                              guint                      n_items,
                              const char                *more);

/* ---- overlays (tprof-plot-overlay.c) ---- */

/* The rows of plot->hist->rank_counts an overlay draws one by one, in the
 * order of their colours, and whether the other rows make one band. */
typedef struct
{
  gsize   *rows;
  gsize    n_rows;
  gboolean band;
} TprofPlotOverlay;

/* Every rank while colours last, else the slowest few (by their summary's
 * total, or by the time their bins hold) and a band. */
void     _tprof_plot_overlay_init        (TprofPlotOverlay         *overlay,
                                          const TprofPlotHistogram *plot);
void     _tprof_plot_overlay_clear       (TprofPlotOverlay         *overlay);
/* Each bin's highest count among the rows not drawn one by one (g_free). */
guint64 *_tprof_plot_overlay_band_counts (const TprofPlotOverlay   *overlay,
                                          const TprofHistogram     *hist);
/* plot->max_legend_ranks or its default. */
guint    _tprof_plot_max_legend_ranks    (const TprofPlotHistogram *plot);
/* The summary of @rank in plot->rank_summaries, or NULL. */
const TprofRankSummary *_tprof_plot_find_rank_summary (const TprofPlotHistogram *plot,
                                                       gint32                    rank);

G_END_DECLS
