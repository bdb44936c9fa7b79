/* tprof-heatmap-view.c — TprofHeatmapView: when the selected operation was slow on which rank, from the heat map its profile computed while reading it. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tprof-heatmap-view.h"

struct _TprofHeatmapView
{
  TprofChart              parent_instance;

  const TprofProfileHeat *heat;      /* the profile's, NULL: no timeline */
  double                 *cells;     /* n_rows x heat's columns: the rows of the ranks shown */
  gint32                 *row_ranks; /* n_rows: each row's rank; NULL: heat's rows, every rank */
  guint                   n_rows;
  gboolean                deviation; /* cells are deviations from each occurrence's median */
  gboolean                log;       /* durations on a log colour scale */
  TprofPlotHeatmapRows   *hosts;     /* the rows gathered by host when they outnumber the room, or NULL */
  guint                   room;      /* the rows of 3 px that fit, when hosts was made */
};

enum {
  PROP_0,
  PROP_DEVIATION,
  PROP_LOG,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  RANK_CLICKED,
  RANKS_CLICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TprofHeatmapView, tprof_heatmap_view, TPROF_TYPE_CHART)

/* The rank of row @row shown. */
static gint32
row_rank (TprofHeatmapView *self,
          guint             row)
{
  return self->row_ranks != NULL ? self->row_ranks[row] : self->heat->first_rank + (gint32) row;
}

/* Under a rank filter only the rows of the ranks shown remain, so that a
 * few ranks fill the plot instead of a sliver of a thousand rows. */
static void
keep_shown_rows (TprofHeatmapView *self,
                 const guint8     *mask)
{
  guint n_cols = self->heat->n_cols, kept = 0;

  self->row_ranks = g_new (gint32, MAX (self->heat->n_rows, 1));
  for (guint i = 0; i < self->heat->n_rows; i++)
    {
      if (!mask[self->heat->first_rank + i])
        continue;
      memmove (self->cells + (gsize) kept * n_cols, self->cells + (gsize) i * n_cols, n_cols * sizeof (double));
      self->row_ranks[kept++] = self->heat->first_rank + (gint32) i;
    }
  self->n_rows = kept;
}

static void
tprof_heatmap_view_recompute (TprofChart *chart)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (chart);
  const guint8 *mask = _tprof_chart_get_mask (chart);

  g_clear_pointer (&self->cells, g_free);
  g_clear_pointer (&self->row_ranks, g_free);
  g_clear_pointer (&self->hosts, tprof_plot_heatmap_rows_free);
  self->room = 0;
  self->heat = _tprof_chart_get_heat (chart);
  self->cells = _tprof_chart_dup_heat_cells (chart, self->deviation);
  self->n_rows = self->heat != NULL ? self->heat->n_rows : 0;
  if (self->heat != NULL && mask != NULL)
    keep_shown_rows (self, mask);
}

static const char *
tprof_heatmap_view_empty_message (TprofChart *chart)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (chart);

  if (_tprof_chart_get_op (chart) < 0)
    return _("Select an operation to see it over time");
  if (self->heat == NULL)
    return _("This profile has no timeline: it was saved without start times");
  return NULL;
}

static void
tprof_heatmap_view_fill_plot (TprofHeatmapView *self,
                              TprofPlotHeatmap *plot)
{
  *plot = (TprofPlotHeatmap) { 0 };
  if (self->heat == NULL)
    return;
  plot->cells = self->cells;
  plot->n_rows = self->n_rows;
  plot->row_ranks = self->row_ranks;
  plot->n_cols = self->heat->n_cols;
  plot->first_rank = self->heat->first_rank;
  plot->n_occurrences = self->heat->n_occurrences;
  plot->value = self->deviation ? TPROF_HEATMAP_DEVIATION : TPROF_HEATMAP_DURATION;
  /* deviations keep their diverging scale */
  plot->log = self->log;
  if (self->hosts != NULL)
    tprof_plot_heatmap_use_rows (plot, self->hosts);
}

/* More ranks than rows of TPROF_PLOT_HEATMAP_MIN_ROW px: one row per host
 * (or run of hosts) instead, made again when the room changes. */
static void
tprof_heatmap_view_fit_rows (TprofHeatmapView     *self,
                             TprofPlotHeatmap     *plot,
                             double                width,
                             double                height,
                             const TprofPlotTheme *theme)
{
  const TprofTopology *topo = _tprof_profile_get_topology (_tprof_chart_get_profile (TPROF_CHART (self)));
  g_autofree gint32 *all_ranks = NULL;
  guint room;

  if (self->heat == NULL || topo == NULL)
    return;
  room = (guint) MAX (tprof_plot_heatmap_cells_height (width, height, plot, theme) / TPROF_PLOT_HEATMAP_MIN_ROW, 1);
  if (room == self->room)
    return;
  self->room = room;
  g_clear_pointer (&self->hosts, tprof_plot_heatmap_rows_free);
  if (self->n_rows <= room)
    return;
  if (self->row_ranks == NULL)
    {
      all_ranks = g_new (gint32, self->n_rows);
      for (guint i = 0; i < self->n_rows; i++)
        all_ranks[i] = self->heat->first_rank + (gint32) i;
    }
  self->hosts = tprof_plot_heatmap_rows_new (self->cells, self->row_ranks != NULL ? self->row_ranks : all_ranks,
                                             self->n_rows, self->heat->n_cols, topo, room);
}

static void
tprof_heatmap_view_draw (TprofChart           *chart,
                         cairo_t              *cr,
                         double                width,
                         double                height,
                         const TprofPlotTheme *theme,
                         gssize                hover,
                         TprofPlotArea        *area)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (chart);
  TprofPlotHeatmap plot;
  /* TRANSLATORS: the chart title; %s is the operation name */
  g_autofree char *title = _tprof_chart_format_title (chart, _("Over Time: %s"));

  tprof_heatmap_view_fill_plot (self, &plot);
  plot.title = title;
  plot.subtitle = self->deviation ? _("Deviation from each occurrence's median")
                                  : _("Duration by occurrence, the slowest of each column");
  tprof_heatmap_view_fit_rows (self, &plot, width, height, theme);
  tprof_heatmap_view_fill_plot (self, &plot);
  plot.title = title;
  if (self->hosts != NULL)
    /* Translators: the subtitle when rows are hosts: each cell shows its slowest rank */
    plot.subtitle = self->deviation ? _("Deviation from the median, the slowest rank of each cell")
                                    : _("Duration, the slowest rank of each cell");
  else
    plot.subtitle = self->deviation ? _("Deviation from each occurrence's median")
                                    : _("Duration by occurrence, the slowest of each column");
  tprof_plot_heatmap_draw (cr, width, height, &plot, theme, area);
}

/* The cell under (@x, @y): row * n_cols + column. */
static gssize
tprof_heatmap_view_hit (TprofChart          *chart,
                        const TprofPlotArea *area,
                        double               x,
                        double               y)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (chart);
  guint row, col, n_rows;

  if (self->heat == NULL || area->width <= 0 || area->height <= 0
      || x < area->x || x >= area->x + area->width || y < area->y || y >= area->y + area->height)
    return -1;
  n_rows = self->hosts != NULL ? self->hosts->n_rows : self->n_rows;
  if (n_rows == 0)
    return -1;
  col = (guint) ((x - area->x) / area->width * self->heat->n_cols);
  /* rows go bottom up */
  row = n_rows - 1 - MIN ((guint) ((y - area->y) / area->height * n_rows), n_rows - 1);
  return (gssize) row * self->heat->n_cols + MIN (col, self->heat->n_cols - 1);
}

/* A cell of a row of hosts: its hosts, its occurrences, its slowest rank's value. */
static char *
describe_host_row (TprofHeatmapView *self,
                   gssize            index)
{
  guint row, col;
  gsize first, last;
  double v;
  g_autofree char *value = NULL;

  if ((gsize) index >= (gsize) self->hosts->n_rows * self->hosts->n_cols)
    return NULL;
  row = (guint) (index / self->hosts->n_cols);
  col = (guint) (index % self->hosts->n_cols);
  v = self->hosts->cells[index];
  if (isnan (v))
    return NULL;
  first = col * self->heat->n_occurrences / self->heat->n_cols;
  last = (col + 1) * self->heat->n_occurrences / self->heat->n_cols - 1;
  value = tprof_format_duration (fabs (v), 4);
  if (self->deviation)
    {
      g_autofree char *magnitude = g_steal_pointer (&value);

      value = g_strdup_printf ("%s%s", v < 0 ? "−" : "+", magnitude);
    }
  if (first == last)
    /* Translators: hovering a heat-map row of hosts: the hosts (node064,
     * or node000–node093), the occurrence, and the slowest of their ranks */
    return g_strdup_printf (_("%s\nOccurrence %zu: %s on the slowest rank"), self->hosts->labels[row], first, value);
  /* Translators: the same for a cell covering several occurrences */
  return g_strdup_printf (_("%s\nOccurrences %zu–%zu: at most %s on the slowest rank"),
                          self->hosts->labels[row], first, last, value);
}

static char *
tprof_heatmap_view_describe (TprofChart *chart,
                             gssize      index)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (chart);
  const char *host;
  guint row, col;
  gsize first, last;
  gint32 rank;
  double v;
  g_autofree char *duration = NULL;
  g_autofree char *deviation = NULL;
  g_autofree char *magnitude = NULL;
  g_autofree char *who = NULL;

  if (self->heat == NULL || index < 0)
    return NULL;
  if (self->hosts != NULL)
    return describe_host_row (self, index);
  if ((gsize) index >= (gsize) self->n_rows * self->heat->n_cols)
    return NULL;
  row = (guint) (index / self->heat->n_cols);
  col = (guint) (index % self->heat->n_cols);
  rank = row_rank (self, row);
  first = col * self->heat->n_occurrences / self->heat->n_cols;
  last = (col + 1) * self->heat->n_occurrences / self->heat->n_cols - 1;
  if (isnan (self->cells[index]))
    return NULL;
  /* the profile's heat map holds every rank's row */
  index = (gssize) (rank - self->heat->first_rank) * self->heat->n_cols + col;
  v = self->heat->cells[index];
  host = _tprof_profile_get_hostname (_tprof_chart_get_profile (chart), rank);
  who = host != NULL ? g_strdup_printf (_("Rank %d on %s"), rank, host) : g_strdup_printf (_("Rank %d"), rank);
  duration = tprof_format_duration (v, 4);
  magnitude = tprof_format_duration (fabs (self->heat->deviation[index]), 3);
  /* a sign in front: +1.20 ms slower than the median, −0.80 ms faster */
  deviation = g_strdup_printf ("%s%s", self->heat->deviation[index] < 0 ? "−" : "+", magnitude);
  if (first == last)
    /* Translators: hovering a heat-map cell: the rank, the occurrence, its
     * duration, and how far that lies from the occurrence's median over the ranks */
    return g_strdup_printf (_("%s\nOccurrence %zu: %s (%s from the median)"), who, first, duration, deviation);
  /* Translators: hovering a heat-map cell covering several occurrences */
  return g_strdup_printf (_("%s\nOccurrences %zu–%zu: at most %s (at most %s from the median)"),
                          who, first, last, duration, deviation);
}

/* The shown ranks of the hosts of row @row of hosts (ascending). */
static GArray *
host_row_ranks (TprofHeatmapView *self,
                guint             row)
{
  const TprofTopology *topo = _tprof_profile_get_topology (_tprof_chart_get_profile (TPROF_CHART (self)));
  const guint8 *mask = _tprof_chart_get_mask (TPROF_CHART (self));
  GArray *ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (gsize g = self->hosts->first_group[row]; g <= self->hosts->last_group[row]; g++)
    {
      gsize n;
      const gint32 *group = tprof_topology_group_ranks (topo, self->hosts->level, g, &n);

      for (gsize i = 0; i < n; i++)
        if (mask == NULL || mask[group[i]])
          g_array_append_val (ranks, group[i]);
    }
  return ranks;
}

/* A click on a cell shows its rank alone, as on the rank chart; on a row
 * of hosts, their ranks. */
static void
released_cb (GtkGestureClick  *click,
             int               n_press,
             double            x,
             double            y,
             TprofHeatmapView *self)
{
  gssize hit = _tprof_chart_hit (TPROF_CHART (self), x, y);
  g_autoptr(GArray) ranks = NULL;

  if (hit < 0 || self->heat == NULL)
    return;
  if (self->hosts == NULL)
    {
      g_signal_emit (self, signals[RANK_CLICKED], 0, (int) row_rank (self, (guint) (hit / self->heat->n_cols)));
      return;
    }
  ranks = host_row_ranks (self, (guint) (hit / self->hosts->n_cols));
  g_signal_emit (self, signals[RANKS_CLICKED], 0, ranks->data, ranks->len);
}

static char *
tprof_heatmap_view_to_csv (TprofChart  *chart,
                           GError     **error)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (chart);
  TprofPlotHeatmap plot;

  if (self->heat == NULL || self->cells == NULL)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_EMPTY,
                           _("This operation has no timeline to export"));
      return NULL;
    }
  tprof_heatmap_view_fill_plot (self, &plot);
  return tprof_plot_heatmap_to_csv (&plot);
}

static void
tprof_heatmap_view_dispose (GObject *object)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (object);

  g_clear_pointer (&self->cells, g_free);
  g_clear_pointer (&self->row_ranks, g_free);
  g_clear_pointer (&self->hosts, tprof_plot_heatmap_rows_free);
  self->heat = NULL;
  G_OBJECT_CLASS (tprof_heatmap_view_parent_class)->dispose (object);
}

static void
tprof_heatmap_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (object);

  switch (prop_id)
    {
    case PROP_DEVIATION:
      g_value_set_boolean (value, self->deviation);
      break;
    case PROP_LOG:
      g_value_set_boolean (value, self->log);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_heatmap_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TprofHeatmapView *self = TPROF_HEATMAP_VIEW (object);

  switch (prop_id)
    {
    case PROP_DEVIATION:
      if (self->deviation == g_value_get_boolean (value))
        return;
      self->deviation = g_value_get_boolean (value);
      _tprof_chart_recompute (TPROF_CHART (self));
      g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_LOG:
      if (self->log == g_value_get_boolean (value))
        return;
      self->log = g_value_get_boolean (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_heatmap_view_class_init (TprofHeatmapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TprofChartClass *chart_class = TPROF_CHART_CLASS (klass);

  object_class->get_property = tprof_heatmap_view_get_property;
  object_class->set_property = tprof_heatmap_view_set_property;
  properties[PROP_DEVIATION] =
    g_param_spec_boolean ("deviation", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG] =
    g_param_spec_boolean ("log", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  object_class->dispose = tprof_heatmap_view_dispose;
  chart_class->recompute = tprof_heatmap_view_recompute;
  chart_class->empty_message = tprof_heatmap_view_empty_message;
  chart_class->draw = tprof_heatmap_view_draw;
  chart_class->hit = tprof_heatmap_view_hit;
  chart_class->describe = tprof_heatmap_view_describe;
  chart_class->to_csv = tprof_heatmap_view_to_csv;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "heatmapview");

  signals[RANK_CLICKED] =
    g_signal_new ("rank-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* a row of hosts clicked: its shown ranks (const gint32 *, their number) */
  signals[RANKS_CLICKED] =
    g_signal_new ("ranks-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);
}

static void
tprof_heatmap_view_init (TprofHeatmapView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

const double *
_tprof_heatmap_view_get_cells (TprofHeatmapView *self,
                               guint            *n_rows,
                               guint            *n_cols)
{
  g_return_val_if_fail (TPROF_IS_HEATMAP_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  *n_rows = self->heat != NULL ? self->n_rows : 0;
  *n_cols = self->heat != NULL ? self->heat->n_cols : 0;
  return self->cells;
}

const char *const *
_tprof_heatmap_view_get_row_labels (TprofHeatmapView *self,
                                    guint            *n_rows)
{
  g_return_val_if_fail (TPROF_IS_HEATMAP_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  *n_rows = self->hosts != NULL ? self->hosts->n_rows : 0;
  return self->hosts != NULL ? (const char *const *) self->hosts->labels : NULL;
}
