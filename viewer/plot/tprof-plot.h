/* tprof-plot.h — the charts of tprof, drawn with cairo and pango for screen and export alike (no GTK). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <tprof/capture.h>

#include "tprof-text.h"

G_BEGIN_DECLS

/* Colours and sizes; the viewer fills it from the GTK theme, export uses the default. */
typedef struct
{
  double foreground[4];   /* text and axes, RGBA 0..1 */
  double background[4];   /* alpha 0: transparent */
  double grid[4];
  double highlight[4];    /* slowest ranks, hovered bar */
  double font_size;       /* points at scale 1; 0: derived from the picture size */
  double scale;           /* device scale (HiDPI); 1 for export */
} TprofPlotTheme;

/* A light theme on white, as exports use. */
void tprof_plot_theme_init_default (TprofPlotTheme *theme);

/* RGB (0..1) of palette entry @i (colour-blind-safe, cycles). */
void tprof_plot_palette_color (guint i, double rgb[3]);

/* Where the data area ended up, filled by the draw functions and used for hit-testing. */
typedef struct
{
  double x, y, width, height;   /* the data rectangle, in user units */
  double x_min, x_max;          /* data coordinates at its left and right edges */
  double y_min, y_max;          /* at its bottom and top */
  gboolean log_x, log_y;
} TprofPlotArea;

/* ---- histogram of one operation ---- */

typedef struct
{
  const TprofHistogram   *hist;            /* required; SEPARATE_RANKS for overlays */
  const TprofSummary     *summary;         /* of the whole selection, for the subtitle; may be NULL */
  const TprofRankSummary *rank_summaries;  /* for the legend of overlays; may be NULL */
  gsize                   n_rank_summaries;
  gboolean                separate_ranks;  /* overlay ranks (needs hist->rank_counts) */
  gboolean                log_x;           /* hist must be TPROF_HISTOGRAM_LOG for a log duration axis */
  gboolean                log_y;
  double                  alpha;           /* overlay fill opacity; 0 means the default 0.35 (outlines are solid) */
  const char             *title;           /* NULL: "Time Distribution" */
  const char             *subtitle;        /* NULL: "All 4 Ranks, n=…, mean=…, std=…" */
  guint                   max_legend_ranks;/* 0: default; more ranks collapse into one legend line */
  gssize                  hover_bin;       /* -1: none; drawn highlighted */
  /* comparing two runs: the baseline binned on hist's edges, drawn as an
   * outline over hist's bars, with a legend naming both (NULL: none) */
  const TprofHistogram   *baseline;
  const char             *label;           /* hist's run in the legend */
  const char             *baseline_label;
} TprofPlotHistogram;

void tprof_plot_histogram_init (TprofPlotHistogram *plot);

/* Draws @plot into the rectangle (0, 0, @width, @height) of @cr. @area, if
 * not NULL, receives the data rectangle for hit-testing. */
void tprof_plot_histogram_draw (cairo_t                  *cr,
                                double                    width,
                                double                    height,
                                const TprofPlotHistogram *plot,
                                const TprofPlotTheme     *theme,
                                TprofPlotArea            *area);

/* The bin under (@x, @y), or -1. */
gssize tprof_plot_histogram_hit_bin (const TprofPlotHistogram *plot,
                                     const TprofPlotArea      *area,
                                     double                    x,
                                     double                    y);

/* ---- per-rank chart of one operation ---- */

typedef enum
{
  TPROF_PLOT_RANK_TOTAL,   /* each rank's sum */
  TPROF_PLOT_RANK_MEAN,    /* each rank's mean, min/max whiskers */
} TprofPlotRankMetric;

typedef struct
{
  const TprofRankSummary *ranks;       /* ascending by rank */
  gsize                   n_ranks;
  TprofPlotRankMetric     metric;
  guint                   n_highlight; /* how many of the slowest to highlight; 0: default (1) */
  const char             *title;       /* NULL: "Time per Rank" / "Mean Time per Rank" */
  gssize                  hover_index; /* -1: none */
  /* comparing two runs: the baseline's value of each entry of ranks (the
   * same metric; NaN where the baseline has none), drawn as a mark on each
   * bar, with a legend naming both runs (NULL: none) */
  const double           *baseline;
  const char             *label;
  const char             *baseline_label;
  /* bars that are hosts (tprof_plot_ranks_use_groups()): each bar's axis
   * label ("node064", "node000–031") and the name of the host whose value
   * it shows, for the subtitle (NULL: bars are ranks) */
  const char *const      *bar_labels;
  const char *const      *bar_names;
  const char             *x_title;     /* NULL: "Rank" */
  /* the straggler named from arrival when it is a group of ranks (a
   * host): its name and ranks; those of its ranks shown that stand out
   * are marked too, and the subtitle names the group when the slowest
   * rank is one of them (NULL: none) */
  const char             *group_name;
  const int32_t          *group_ranks;
  gsize                   n_group_ranks;
} TprofPlotRanks;

/* No bar of a per-rank chart is narrower (px): more ranks than fit make
 * bars of hosts. */
#define TPROF_PLOT_RANKS_MIN_BAR 3.0

/* The width of the data area tprof_plot_ranks_draw() would give @plot. */
double tprof_plot_ranks_bars_width (double                width,
                                    double                height,
                                    const TprofPlotRanks *plot,
                                    const TprofPlotTheme *theme);

/* A per-rank chart's ranks gathered into bars of hosts, or runs of hosts
 * (of ranks when the file names no hosts shared by ranks), so that each
 * bar is TPROF_PLOT_RANKS_MIN_BAR wide at least; a bar shows its ranks'
 * samples together, of its slowest host for a run (the engine's
 * tprof_topology_group_bars()). */
typedef struct
{
  TprofGroupBar    *bars;      /* n_bars */
  TprofRankSummary *summaries; /* n_bars: what each bar shows */
  char            **labels;    /* n_bars + 1: "node064", "node000–031" */
  char            **names;     /* n_bars + 1: the host each bar shows */
  guint             n_bars;
  gsize             level;
  const char       *title;     /* the axis: "Host", "Hosts", a level's name */
} TprofPlotRankGroups;

/* @ranks (@n_ranks summaries) gathered into at most @max_bars bars by
 * host when they are more than that (NULL otherwise, or without hosts
 * and @max_bars >= @n_ranks); @metric chooses a run's host. */
TprofPlotRankGroups *tprof_plot_rank_groups_new  (const TprofRankSummary *ranks,
                                                  gsize                   n_ranks,
                                                  const TprofTopology    *topo,
                                                  TprofPlotRankMetric     metric,
                                                  guint                   max_bars);
void                 tprof_plot_rank_groups_free (TprofPlotRankGroups *groups);
/* Makes @plot draw @groups' bars instead of its ranks (no baseline: set
 * plot->baseline to the baseline's value of each bar after). */
void                 tprof_plot_ranks_use_groups (TprofPlotRanks            *plot,
                                                  const TprofPlotRankGroups *groups);

void tprof_plot_ranks_init (TprofPlotRanks *plot);
/* Which entries of plot->ranks the chart marks as slow (g_free() it), and
 * the index of the slowest into @slowest. */
gboolean *tprof_plot_ranks_find_marked (const TprofPlotRanks *plot,
                                        gsize                *slowest);
void tprof_plot_ranks_draw (cairo_t              *cr,
                            double                width,
                            double                height,
                            const TprofPlotRanks *plot,
                            const TprofPlotTheme *theme,
                            TprofPlotArea        *area);
/* Index into plot->ranks of the rank under (@x, @y), or -1. */
gssize tprof_plot_ranks_hit (const TprofPlotRanks *plot,
                             const TprofPlotArea  *area,
                             double                x,
                             double                y);

/* ---- export ---- */

typedef enum
{
  TPROF_PLOT_FORMAT_UNKNOWN,
  TPROF_PLOT_FORMAT_PNG,
  TPROF_PLOT_FORMAT_SVG,
  TPROF_PLOT_FORMAT_PDF,
  TPROF_PLOT_FORMAT_CSV,
} TprofPlotFormat;

/* From @path's suffix, case-insensitive. */
TprofPlotFormat tprof_plot_format_from_path (const char *path);

typedef void (*TprofPlotDrawFunc) (cairo_t *cr, double width, double height, gpointer user_data);

/* Renders @draw at @width x @height pixels into @path as PNG, SVG or PDF
 * (from the suffix). Writes through a temporary file renamed into place: a
 * failure leaves an earlier file at @path untouched. */
gboolean tprof_plot_export (const char        *path,
                            int                width,
                            int                height,
                            TprofPlotDrawFunc  draw,
                            gpointer           user_data,
                            GError           **error);

/* The numbers behind @hist as CSV: `left,right,count` and, with per-rank
 * counts, one `rank_N` column per rank. Times in seconds, full precision. */
char *tprof_plot_histogram_to_csv (const TprofHistogram *hist);
/* ---- additions ---- */

/* The subtitle of a selection: "All 4 Ranks, n=…, mean=…, std=…" when @ranks
 * is NULL, "Rank 3, …" or "Ranks 0-3,8, …" for a subset of @n_ranks ranks.
 * @summary may be NULL (no statistics). Free with g_free(). */
char *tprof_plot_format_selection (const TprofSummary *summary,
                                   const gint32       *ranks,
                                   gsize               n_ranks,
                                   int                 world_size);

/* TprofPlotDrawFunc adapters for tprof_plot_export(): @user_data is a
 * TprofPlotHistogram or a TprofPlotRanks, drawn with the default theme. */
void tprof_plot_histogram_draw_default (cairo_t *cr, double width, double height, gpointer user_data);
void tprof_plot_ranks_draw_default (cairo_t *cr, double width, double height, gpointer user_data);

/* Writes @text to @path through a temporary file renamed into place, like
 * tprof_plot_export(); for CSV exports. */
gboolean tprof_plot_save_text (const char  *path,
                               const char  *text,
                               GError     **error);
/* The same for @length bytes of @data (a compressed trace, say). */
gboolean tprof_plot_save_bytes (const char  *path,
                                const void  *data,
                                gsize        length,
                                GError     **error);

/* ---- the charts over an operation's timeline, by name ---- */

/* tprof plot --kind NAME, and the viewer's per-rank card's pages. */
typedef enum
{
  TPROF_PLOT_KIND_HEATMAP,    /* "heatmap": ranks x occurrences */
  TPROF_PLOT_KIND_TREND,      /* "trend": the spread across ranks, occurrence by occurrence */
  TPROF_PLOT_KIND_BREAKDOWN,  /* "breakdown": each rank's time by the operations inside */
  TPROF_PLOT_N_KINDS
} TprofPlotKind;

/* The kind's name (static). */
const char *tprof_plot_kind_name      (TprofPlotKind  kind);
/* The kind called @name; FALSE when none is. */
gboolean    tprof_plot_kind_from_name (const char    *name,
                                       TprofPlotKind *kind);

/* ---- heat map of one operation: ranks x occurrences ---- */

typedef struct
{
  const double     *cells;            /* n_rows x n_cols, tprof_heatmap_fill()'s order */
  guint             n_rows;           /* ranks first_rank, first_rank + 1, ... */
  guint             n_cols;
  gint32            first_rank;
  const gint32     *row_ranks;        /* n_rows: the rank of each row, when they are
                                       * not consecutive (a rank filter); NULL:
                                       * first_rank + row */
  const char *const *row_labels;      /* n_rows: each row's name when rows are
                                       * hosts or runs of them (then row_ranks
                                       * is not read); NULL: ranks */
  const char       *row_title;        /* the rows' axis title; NULL: "Rank" */
  gsize             first_occurrence; /* the columns cover these occurrences */
  gsize             n_occurrences;
  TprofHeatmapValue value;
  gboolean          log;              /* log colour scale (durations only) */
  const char       *title;            /* NULL: "Heat Map" */
  const char       *subtitle;
} TprofPlotHeatmap;

/* Draws @plot: the cells (a missing occurrence left blank), the axes and a
 * colour bar on the right. */
void tprof_plot_heatmap_draw (cairo_t                *cr,
                              double                  width,
                              double                  height,
                              const TprofPlotHeatmap *plot,
                              const TprofPlotTheme   *theme,
                              TprofPlotArea          *area);
/* The height in pixels the cells of @plot get when drawn at @width x
 * @height: how many rows of 3 px or more fit. */
double tprof_plot_heatmap_cells_height (double                  width,
                                        double                  height,
                                        const TprofPlotHeatmap *plot,
                                        const TprofPlotTheme   *theme);

/* The thinnest a heat map's row is drawn, in pixels: more rows than fit
 * are gathered by host (tprof_plot_heatmap_rows_new()). */
#define TPROF_PLOT_HEATMAP_MIN_ROW 3.0

/* A heat map's rows of ranks gathered into hosts, or runs of hosts (of
 * ranks when the file names no hosts shared by ranks), so that each row
 * is TPROF_PLOT_HEATMAP_MIN_ROW high at least; a row holds the slowest
 * of its ranks (the engine's tprof_heatmap_merge_rows()). */
typedef struct
{
  double  *cells;        /* n_rows x n_cols */
  guint    n_rows;
  guint    n_cols;
  char   **labels;       /* n_rows names ("node064", "node000–node093"), NULL-terminated */
  gsize    level;        /* the topology level gathered (host, or rank) */
  gsize   *first_group;  /* n_rows: each row's first and last group of that level */
  gsize   *last_group;
  const char *title;     /* the rows' axis title (static, or the topology's level name) */
} TprofPlotHeatmapRows;

/* The rows of @cells (@n_rows ranks @row_ranks x @n_cols) gathered to fit
 * @max_rows; NULL when they fit already (and when memory is exhausted:
 * then the ranks are drawn as they are). @topo has every rank's host. */
TprofPlotHeatmapRows *tprof_plot_heatmap_rows_new (const double        *cells,
                                                   const gint32        *row_ranks,
                                                   guint                n_rows,
                                                   guint                n_cols,
                                                   const TprofTopology *topo,
                                                   guint                max_rows);
/* The same at @level of @topo (host, or a level of a topology file),
 * whatever the ranks' number: at most @max_rows rows (G_MAXUINT: one per
 * group shown, a CSV's rows). NULL when nothing is shown or memory is
 * exhausted. */
TprofPlotHeatmapRows *tprof_plot_heatmap_rows_new_at (const double        *cells,
                                                      const gint32        *row_ranks,
                                                      guint                n_rows,
                                                      guint                n_cols,
                                                      const TprofTopology *topo,
                                                      gsize                level,
                                                      guint                max_rows);
void                  tprof_plot_heatmap_rows_free (TprofPlotHeatmapRows *rows);
/* Points @plot's rows at @rows. */
void                  tprof_plot_heatmap_use_rows (TprofPlotHeatmap           *plot,
                                                   const TprofPlotHeatmapRows *rows);

/* A TprofPlotDrawFunc for tprof_plot_export(): @user_data is a TprofPlotHeatmap. */
void tprof_plot_heatmap_draw_default (cairo_t *cr, double width, double height, gpointer user_data);

/* ---- trend of one operation: occurrence by occurrence ---- */

typedef struct
{
  const TprofHeatmapBand *band;        /* n_cols, across ranks */
  const double           *rolling;     /* n_cols: the rolling median of band's medians, or NULL */
  const double           *column_starts; /* n_cols: x on the timeline (seconds), or NULL: by occurrence */
  guint                   n_cols;
  gsize                   first_occurrence;
  gsize                   n_occurrences;
  const double           *series;      /* n_series x n_cols: ranks drawn as lines */
  const gint32           *series_ranks;
  guint                   n_series;
  const char             *title;       /* NULL: "Trend" */
  const char             *subtitle;
} TprofPlotTrend;

/* Draws @plot: the min-max and p5-p95 bands, the median, its rolling
 * median dashed, a line per series, a legend. */
void tprof_plot_trend_draw (cairo_t              *cr,
                            double                width,
                            double                height,
                            const TprofPlotTrend *plot,
                            const TprofPlotTheme *theme,
                            TprofPlotArea        *area);
/* A TprofPlotDrawFunc for tprof_plot_export(): @user_data is a TprofPlotTrend. */
void tprof_plot_trend_draw_default (cairo_t *cr, double width, double height, gpointer user_data);

/* The ranks a trend draws as lines: every one of few ranks, else the few
 * with the largest totals (@ranks: their summaries, any order). Writes at
 * most TPROF_PLOT_TREND_MAX_SERIES ranks into @picked; their number. */
#define TPROF_PLOT_TREND_MAX_SERIES 8
guint tprof_plot_trend_pick_series (const TprofRankSummary *ranks,
                                    gsize                   n_ranks,
                                    gint32                 *picked);

/* A trend and the arrays it points into, built from a heat map's @cells
 * (@n_rows ranks from @first_rank, x @n_cols; NaN where a rank has no
 * value): the band across ranks of each column, the rolling median of
 * its medians over TPROF_PLOT_TREND_ROLLING_WINDOW of the columns, and
 * the rows of @series_ranks as lines. Title and subtitle are the
 * caller's to set. */
#define TPROF_PLOT_TREND_ROLLING_WINDOW 0.05
typedef struct
{
  TprofPlotTrend    plot;
  TprofHeatmapBand *band;
  double           *rolling;
  double           *column_starts;  /* NULL: not known */
  double           *series;
  gint32            series_ranks[TPROF_PLOT_TREND_MAX_SERIES];
  guint             n_series;
} TprofPlotTrendModel;

/* NULL when memory is exhausted. */
/* With @column_starts (n_cols, tprof_heatmap_column_starts(); may be
 * NULL), the model can draw against the timeline: set
 * model->plot.column_starts = model->column_starts to do so. */
TprofPlotTrendModel *tprof_plot_trend_model_new  (const double *cells,
                                                  guint         n_rows,
                                                  guint         n_cols,
                                                  gint32        first_rank,
                                                  gsize         n_occurrences,
                                                  const double *column_starts,
                                                  const gint32 *series_ranks,
                                                  guint         n_series);
void                 tprof_plot_trend_model_free (TprofPlotTrendModel *model);

/* ---- breakdown: one operation's time on each rank, by its parts ---- */

typedef struct
{
  const gint32     *ranks;        /* n_ranks, the bars from left to right */
  guint             n_ranks;
  const char *const *part_names;  /* n_parts, stacked bottom up */
  guint             n_parts;
  const double     *values;       /* n_parts x n_ranks, seconds */
  const char       *title;        /* NULL: "Breakdown per Rank" */
  const char       *subtitle;
  /* bars that are hosts (tprof_plot_breakdown_use_groups()): each bar's
   * axis label and the axis' title (NULL: bars are ranks, "Rank") */
  const char *const *bar_labels;
  const char       *x_title;
} TprofPlotBreakdown;

void tprof_plot_breakdown_draw (cairo_t                  *cr,
                                double                    width,
                                double                    height,
                                const TprofPlotBreakdown *plot,
                                const TprofPlotTheme     *theme,
                                TprofPlotArea            *area);
/* A TprofPlotDrawFunc for tprof_plot_export(): @user_data is a TprofPlotBreakdown. */
void tprof_plot_breakdown_draw_default (cairo_t *cr, double width, double height, gpointer user_data);
/* The part of a bar under (@x, @y) in the @area that drew @plot, as
 * part * n_ranks + rank position; -1 for none. */
gssize tprof_plot_breakdown_hit (const TprofPlotBreakdown *plot,
                                 const TprofPlotArea      *area,
                                 double                    x,
                                 double                    y);

/* The width of the bars' area @plot would get in @width x @height. */
double tprof_plot_breakdown_bars_width (double                    width,
                                        double                    height,
                                        const TprofPlotBreakdown *plot,
                                        const TprofPlotTheme     *theme);

/* A breakdown's ranks gathered into bars of hosts (or runs of them), as
 * the per-rank chart's are (the engine's tprof_topology_group_breakdown()):
 * a bar holds its host's parts, of its slowest host for a run. */
typedef struct
{
  TprofBreakdown *matrix;     /* columns: the bars */
  TprofGroupBar  *bars;       /* n_bars */
  char          **labels;     /* n_bars + 1: "node064", "node000–031" */
  char          **names;      /* n_bars + 1: the host each bar shows */
  guint           n_bars;
  gsize           level;
  const char     *title;      /* the axis: "Host", "Hosts", a level's name */
} TprofPlotBreakdownGroups;

/* @b's ranks gathered into at most @max_bars bars by host when they are
 * more than that (NULL otherwise, or when memory is exhausted). */
TprofPlotBreakdownGroups *tprof_plot_breakdown_groups_new  (const TprofBreakdown *b,
                                                            const TprofTopology  *topo,
                                                            guint                 max_bars);
void                      tprof_plot_breakdown_groups_free (TprofPlotBreakdownGroups *groups);
/* Makes @plot draw @groups' bars instead of its ranks. */
void                      tprof_plot_breakdown_use_groups  (TprofPlotBreakdown             *plot,
                                                            const TprofPlotBreakdownGroups *groups);

/* ---- per host: each host's total time, slowest first ---- */

typedef struct
{
  const char *const *names;     /* n_hosts, in the order drawn (top down) */
  const gsize       *ranks;     /* n_hosts: the ranks shown on each */
  const gint64      *counts;    /* n_hosts: their samples */
  const double      *totals;    /* n_hosts: their total time */
  const double      *means;     /* n_hosts: their mean time per sample (NaN: none) */
  const gint64      *late;      /* n_hosts: times one of its ranks came last; NULL: not known */
  guint              n_hosts;
  guint              hover;     /* the row highlighted, G_MAXUINT: none */
  const char        *title;     /* NULL: "Time per Host" */
  const char        *subtitle;
} TprofPlotHosts;

/* Draws as many hosts of @plot, from the first, as rows of text fit: a
 * bar of its total, its total, mean and late count written by it. */
void tprof_plot_hosts_draw (cairo_t              *cr,
                            double                width,
                            double                height,
                            const TprofPlotHosts *plot,
                            const TprofPlotTheme *theme,
                            TprofPlotArea        *area);
/* A TprofPlotDrawFunc for tprof_plot_export(): @user_data is a TprofPlotHosts. */
void tprof_plot_hosts_draw_default (cairo_t *cr, double width, double height, gpointer user_data);
/* The row under (@x, @y) in the @area that drew @plot; -1 for none. */
gssize tprof_plot_hosts_hit (const TprofPlotHosts *plot,
                             const TprofPlotArea  *area,
                             double                x,
                             double                y);
/* Every host of @plot as CSV: host,ranks,count,total,mean,late (seconds;
 * late empty when not known). */
char *tprof_plot_hosts_to_csv (const TprofPlotHosts *plot);

/* The numbers behind a chart as CSV, seconds at full precision (an
 * exported chart's CSV from the viewer and from tprof plot alike):
 * heat map: rank,first,last,duration|deviation, a line per cell with
 * samples (host,... when its rows are hosts: row_labels); trend: first,last[,start],ranks,min,p5,median,p95,max,
 * rolling_median,rank_R... (start: against the timeline);
 * breakdown: rank (host, its bar's label, when its bars are hosts), then
 * a column per part. */
char *tprof_plot_heatmap_to_csv   (const TprofPlotHeatmap   *plot);
char *tprof_plot_trend_to_csv     (const TprofPlotTrend     *plot);
char *tprof_plot_breakdown_to_csv (const TprofPlotBreakdown *plot);

G_END_DECLS
