/* tprof-trend-view.c — TprofTrendView: the trend of the selected operation, from its heat map's cells on the ranks shown. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-trend-view.h"

struct _TprofTrendView
{
  TprofChart           parent_instance;
  TprofPlotTrendModel *model;   /* NULL: nothing to draw */
  char                *subtitle;
  gboolean             time_axis;  /* x on the timeline rather than by occurrence */
};

enum {
  PROP_0,
  PROP_TIME_AXIS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofTrendView, tprof_trend_view, TPROF_TYPE_CHART)

static void
tprof_trend_view_recompute (TprofChart *chart)
{
  TprofTrendView *self = TPROF_TREND_VIEW (chart);
  const TprofProfileHeat *heat = _tprof_chart_get_heat (chart);
  const TprofOperationIndex *index = _tprof_chart_get_index (chart);
  g_autofree double *cells = _tprof_chart_dup_heat_cells (chart, FALSE);
  g_autofree TprofRankSummary *ranks = NULL;
  gint32 series[TPROF_PLOT_TREND_MAX_SERIES];
  guint n_series = 0;
  size_t n_ranks = 0;

  g_clear_pointer (&self->model, tprof_plot_trend_model_free);
  g_clear_pointer (&self->subtitle, g_free);
  if (heat == NULL || cells == NULL || index == NULL)
    return;
  /* the lines: the ranks shown, or the slowest of them */
  ranks = tprof_operation_index_rank_summaries (index, _tprof_chart_get_mask (chart), &n_ranks);
  if (ranks != NULL)
    n_series = tprof_plot_trend_pick_series (ranks, n_ranks, series);
  self->model = tprof_plot_trend_model_new (cells, heat->n_rows, heat->n_cols, heat->first_rank, heat->n_occurrences,
                                            heat->column_starts, series, n_series);
  if (self->model != NULL && self->time_axis)
    self->model->plot.column_starts = self->model->column_starts;
  self->subtitle = g_strdup_printf (n_series == n_ranks ? _("%zu occurrences; every rank drawn")
                                                        : _("%zu occurrences; the slowest ranks drawn"),
                                    heat->n_occurrences);
}

static const char *
tprof_trend_view_empty_message (TprofChart *chart)
{
  TprofTrendView *self = TPROF_TREND_VIEW (chart);

  if (_tprof_chart_get_op (chart) < 0)
    return _("Select an operation to see its trend");
  if (self->model == NULL)
    return _("This profile has no timeline: it was saved without start times");
  return NULL;
}

static void
tprof_trend_view_draw (TprofChart           *chart,
                       cairo_t              *cr,
                       double                width,
                       double                height,
                       const TprofPlotTheme *theme,
                       gssize                hover,
                       TprofPlotArea        *area)
{
  TprofTrendView *self = TPROF_TREND_VIEW (chart);
  TprofPlotTrend plot;
  /* TRANSLATORS: the chart title; %s is the operation name */
  g_autofree char *title = _tprof_chart_format_title (chart, _("Trend: %s"));

  if (self->model == NULL)
    return;
  plot = self->model->plot;
  plot.title = title;
  plot.subtitle = self->subtitle;
  tprof_plot_trend_draw (cr, width, height, &plot, theme, area);
}

static void
tprof_trend_view_dispose (GObject *object)
{
  TprofTrendView *self = TPROF_TREND_VIEW (object);

  g_clear_pointer (&self->model, tprof_plot_trend_model_free);
  g_clear_pointer (&self->subtitle, g_free);
  G_OBJECT_CLASS (tprof_trend_view_parent_class)->dispose (object);
}

static void
tprof_trend_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TprofTrendView *self = TPROF_TREND_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIME_AXIS:
      g_value_set_boolean (value, self->time_axis);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_trend_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TprofTrendView *self = TPROF_TREND_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIME_AXIS:
      if (self->time_axis == g_value_get_boolean (value))
        return;
      self->time_axis = g_value_get_boolean (value);
      if (self->model != NULL)
        self->model->plot.column_starts = self->time_axis ? self->model->column_starts : NULL;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static char *
tprof_trend_view_to_csv (TprofChart  *chart,
                         GError     **error)
{
  TprofTrendView *self = TPROF_TREND_VIEW (chart);

  if (self->model == NULL)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_EMPTY,
                           _("This operation has no timeline to export"));
      return NULL;
    }
  return tprof_plot_trend_to_csv (&self->model->plot);
}

static void
tprof_trend_view_class_init (TprofTrendViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TprofChartClass *chart_class = TPROF_CHART_CLASS (klass);

  object_class->get_property = tprof_trend_view_get_property;
  object_class->set_property = tprof_trend_view_set_property;
  properties[PROP_TIME_AXIS] =
    g_param_spec_boolean ("time-axis", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  object_class->dispose = tprof_trend_view_dispose;
  chart_class->recompute = tprof_trend_view_recompute;
  chart_class->empty_message = tprof_trend_view_empty_message;
  chart_class->draw = tprof_trend_view_draw;
  chart_class->to_csv = tprof_trend_view_to_csv;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "trendview");
}

static void
tprof_trend_view_init (TprofTrendView *self)
{
}

const TprofPlotTrend *
_tprof_trend_view_get_trend (TprofTrendView *self)
{
  g_return_val_if_fail (TPROF_IS_TREND_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->model != NULL ? &self->model->plot : NULL;
}

