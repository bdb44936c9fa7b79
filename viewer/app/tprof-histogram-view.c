/* tprof-histogram-view.c — TprofHistogramView: recomputes the histogram from the profile index and draws it. */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-chart-util.h"
#include "tprof-histogram-view.h"

/* Overlays list at most this many ranks in the tooltip. */
#define TOOLTIP_MAX_RANKS 8

struct _TprofHistogramView
{
  GtkWidget          parent_instance;

  TprofChartSource   source;
  gboolean           separate_ranks;
  gboolean           log_x;
  gboolean           log_y;
  guint              bins;

  TprofHistogram    *hist;
  TprofSummary       summary;
  TprofRankSummary  *rank_summaries;
  gsize              n_rank_summaries;
  gssize             hover_bin;
  TprofPlotArea      area;
  gboolean           have_area;
};

enum {
  PROP_0,
  PROP_SEPARATE_RANKS,
  PROP_LOG_X,
  PROP_LOG_Y,
  PROP_BINS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TprofHistogramView, tprof_histogram_view, GTK_TYPE_WIDGET)

static void
tprof_histogram_view_recompute (TprofHistogramView *self)
{
  const TprofProfileIndex *index = _tprof_chart_source_get_index (&self->source);
  const guint8 *mask = _tprof_chart_source_get_mask (&self->source);
  TprofHistogramFlags flags = TPROF_HISTOGRAM_DEFAULT;

  g_clear_pointer (&self->hist, _tprof_histogram_free);
  g_clear_pointer (&self->rank_summaries, g_free);
  self->n_rank_summaries = 0;
  self->hover_bin = -1;
  self->have_area = FALSE;

  if (index != NULL)
    {
      if (self->separate_ranks)
        flags |= TPROF_HISTOGRAM_SEPARATE_RANKS;
      if (self->log_x)
        flags |= TPROF_HISTOGRAM_LOG;

      self->hist = _tprof_profile_index_histogram (index, self->source.op, mask, self->bins, flags);
      _tprof_profile_index_summarize_moments (index, self->source.op, mask, &self->summary);
      if (self->separate_ranks)
        self->n_rank_summaries = _tprof_profile_index_rank_summaries (index, self->source.op, mask,
                                                                      &self->rank_summaries);
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tprof_histogram_view_fill_plot (TprofHistogramView *self,
                                TprofPlotHistogram *plot)
{
  tprof_plot_histogram_init (plot);
  plot->hist = self->hist;
  plot->summary = &self->summary;
  plot->rank_summaries = self->rank_summaries;
  plot->n_rank_summaries = self->n_rank_summaries;
  plot->separate_ranks = self->separate_ranks;
  plot->log_x = self->log_x;
  plot->log_y = self->log_y;
  plot->hover_bin = -1;
}

void
_tprof_histogram_view_draw (TprofHistogramView   *self,
                            cairo_t              *cr,
                            double                width,
                            double                height,
                            const TprofPlotTheme *theme)
{
  TprofPlotHistogram plot;
  TprofPlotTheme export_theme;

  g_return_if_fail (TPROF_IS_HISTOGRAM_VIEW (self));

  if (theme == NULL)
    {
      tprof_plot_theme_init_default (&export_theme);
      theme = &export_theme;
    }
  tprof_histogram_view_fill_plot (self, &plot);
  if (plot.hist != NULL)
    tprof_plot_histogram_draw (cr, width, height, &plot, theme, NULL);
}

static void
tprof_histogram_view_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TprofHistogramView *self = TPROF_HISTOGRAM_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  TprofPlotHistogram plot;
  TprofPlotTheme theme;
  cairo_t *cr;

  if (self->hist == NULL)
    {
      _tprof_chart_snapshot_message (widget, snapshot, _("Select an operation to see its histogram"));
      return;
    }
  if (self->hist->n_bins == 0)
    {
      _tprof_chart_snapshot_message (widget, snapshot,
                                     self->hist->n_nonpositive > 0
                                     ? _("No samples above zero to show on a logarithmic time axis")
                                     : _("No samples on the selected ranks"));
      return;
    }
  if (width <= 0 || height <= 0)
    return;

  _tprof_chart_theme_from_widget (widget, &theme);
  tprof_histogram_view_fill_plot (self, &plot);
  plot.hover_bin = self->hover_bin;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  tprof_plot_histogram_draw (cr, width, height, &plot, &theme, &self->area);
  self->have_area = TRUE;
  cairo_destroy (cr);
}

static gssize
tprof_histogram_view_hit (TprofHistogramView *self,
                          double              x,
                          double              y)
{
  TprofPlotHistogram plot;

  if (self->hist == NULL || self->hist->n_bins == 0 || !self->have_area)
    return -1;
  tprof_histogram_view_fill_plot (self, &plot);
  return tprof_plot_histogram_hit_bin (&plot, &self->area, x, y);
}

static void
tprof_histogram_view_set_hover (TprofHistogramView *self,
                                gssize              bin)
{
  if (self->hover_bin == bin)
    return;
  self->hover_bin = bin;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TprofHistogramView       *self)
{
  tprof_histogram_view_set_hover (self, tprof_histogram_view_hit (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          TprofHistogramView       *self)
{
  tprof_histogram_view_set_hover (self, -1);
}

char *
_tprof_histogram_view_describe_bin (TprofHistogramView *self,
                                    gssize              bin)
{
  const TprofHistogram *hist = self->hist;
  g_autofree char *left = NULL;
  g_autofree char *right = NULL;
  GString *text;
  guint listed = 0;

  if (hist == NULL || bin < 0 || (gsize) bin >= hist->n_bins)
    return NULL;

  left = tprof_format_duration (hist->edges[bin], 4);
  right = tprof_format_duration (hist->edges[bin + 1], 4);
  text = g_string_new (NULL);
  /* Translators: a histogram bin's range, then how many samples fell in it */
  g_string_append_printf (text, _("%s – %s: %" G_GUINT64_FORMAT " samples"),
                          left, right, (guint64) hist->counts[bin]);

  for (gsize r = 0; r < hist->n_ranks && hist->rank_counts != NULL; r++)
    {
      guint64 c = hist->rank_counts[r * hist->n_bins + bin];

      if (c == 0)
        continue;
      if (listed++ == TOOLTIP_MAX_RANKS)
        {
          g_string_append (text, "\n…");
          break;
        }
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Rank %d: %" G_GUINT64_FORMAT), hist->ranks[r], (guint64) c);
    }

  return g_string_free (text, FALSE);
}

static gboolean
query_tooltip_cb (GtkWidget          *widget,
                  int                 x,
                  int                 y,
                  gboolean            keyboard,
                  GtkTooltip         *tooltip,
                  TprofHistogramView *self)
{
  g_autofree char *text = _tprof_histogram_view_describe_bin (self, tprof_histogram_view_hit (self, x, y));

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
tprof_histogram_view_dispose (GObject *object)
{
  TprofHistogramView *self = (TprofHistogramView *)object;

  _tprof_chart_source_clear (&self->source);
  g_clear_pointer (&self->hist, _tprof_histogram_free);
  g_clear_pointer (&self->rank_summaries, g_free);

  G_OBJECT_CLASS (tprof_histogram_view_parent_class)->dispose (object);
}

static void
tprof_histogram_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TprofHistogramView *self = TPROF_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_SEPARATE_RANKS:
      g_value_set_boolean (value, self->separate_ranks);
      break;
    case PROP_LOG_X:
      g_value_set_boolean (value, self->log_x);
      break;
    case PROP_LOG_Y:
      g_value_set_boolean (value, self->log_y);
      break;
    case PROP_BINS:
      g_value_set_int (value, self->bins);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tprof_histogram_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TprofHistogramView *self = TPROF_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_SEPARATE_RANKS:
      self->separate_ranks = g_value_get_boolean (value);
      break;
    case PROP_LOG_X:
      self->log_x = g_value_get_boolean (value);
      break;
    case PROP_LOG_Y:
      self->log_y = g_value_get_boolean (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    case PROP_BINS:
      self->bins = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  tprof_histogram_view_recompute (self);
}

static void
tprof_histogram_view_class_init (TprofHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tprof_histogram_view_dispose;
  object_class->get_property = tprof_histogram_view_get_property;
  object_class->set_property = tprof_histogram_view_set_property;

  widget_class->snapshot = tprof_histogram_view_snapshot;

  properties[PROP_SEPARATE_RANKS] =
    g_param_spec_boolean ("separate-ranks", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG_X] =
    g_param_spec_boolean ("log-x", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG_Y] =
    g_param_spec_boolean ("log-y", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BINS] =
    g_param_spec_int ("bins", NULL, NULL, 0, 1000, 0,
                      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "histogramview");
}

static void
tprof_histogram_view_init (TprofHistogramView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->source.op = -1;
  self->hover_bin = -1;

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}

GtkWidget *
_tprof_histogram_view_new (void)
{
  return g_object_new (TPROF_TYPE_HISTOGRAM_VIEW, NULL);
}

void
_tprof_histogram_view_set_source (TprofHistogramView *self,
                                  TprofProfile       *profile,
                                  gssize              op,
                                  GBytes             *mask)
{
  g_return_if_fail (TPROF_IS_HISTOGRAM_VIEW (self));

  if (_tprof_chart_source_set (&self->source, profile, op, mask))
    tprof_histogram_view_recompute (self);
}

const TprofHistogram *
_tprof_histogram_view_get_histogram (TprofHistogramView *self)
{
  g_return_val_if_fail (TPROF_IS_HISTOGRAM_VIEW (self), NULL);
  return self->hist;
}
