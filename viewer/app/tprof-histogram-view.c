/* tprof-histogram-view.c — TprofHistogramView: computes the histogram from the profile index (keeping the every-rank one across a filter) and draws it. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tprof-histogram-view.h"

/* Overlays list at most this many ranks in the tooltip. */
#define TOOLTIP_MAX_RANKS 8

/* What an every-rank result is of. The samples and the profile are held,
 * so their addresses cannot be reused by others while the key lives; the
 * samples are immutable, so the same samples give the same histogram. */
typedef struct
{
  TprofOperationSamples *samples;  /* NULL: the key is unset */
  TprofProfile          *profile;
  gssize                 op;
  guint                  bins;
  TprofHistogramFlags    flags;
} TprofHistogramKey;

static void
tprof_histogram_key_clear (TprofHistogramKey *key)
{
  g_clear_pointer (&key->samples, _tprof_operation_samples_unref);
  g_clear_object (&key->profile);
}

static gboolean
tprof_histogram_key_equal (const TprofHistogramKey *a,
                           const TprofHistogramKey *b)
{
  return a->samples != NULL && a->samples == b->samples && a->profile == b->profile
         && a->op == b->op && a->bins == b->bins && a->flags == b->flags;
}

struct _TprofHistogramView
{
  TprofChart         parent_instance;

  gboolean           separate_ranks;
  gboolean           log_x;
  gboolean           log_y;
  guint              bins;

  TprofHistogram    *hist;
  TprofHistogram    *baseline;   /* comparing: on hist's edges; NULL: none */
  TprofSummary       summary;
  TprofRankSummary  *rank_summaries;
  gsize              n_rank_summaries;
  char              *subtitle;

  /* what the result above is of, when it is of every rank (else unset) */
  TprofHistogramKey  shown_key;
  /* the last every-rank result while a rank filter is shown, so that
   * going back to every rank at 10^5 ranks does not bin 10^6 samples
   * again (unset when none) */
  TprofHistogramKey  kept_key;
  TprofHistogram    *kept_hist;
  TprofSummary       kept_summary;
  TprofRankSummary  *kept_rank_summaries;
  gsize              kept_n_rank_summaries;
  char              *kept_subtitle;
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

G_DEFINE_FINAL_TYPE (TprofHistogramView, tprof_histogram_view, TPROF_TYPE_CHART)

/* Names the rank filter, not only the ranks that happen to have samples:
 * "Ranks 0-5, n=…" under a filter, "All 16 Ranks, n=…" without. */
static char *
tprof_histogram_view_format_subtitle (TprofHistogramView *self,
                                      TprofProfile       *profile,
                                      const guint8       *mask)
{
  int world_size = _tprof_profile_get_world_size (profile);
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  gssize op = _tprof_chart_get_op (TPROF_CHART (self));
  g_autofree char *selection = NULL;
  TprofSummary recorded;

  for (gint32 r = 0; mask != NULL && r < world_size; r++)
    if (mask[r])
      g_array_append_val (ranks, r);
  if (mask == NULL || ranks->len == (guint) world_size)
    selection = tprof_plot_format_selection (&self->summary, NULL, 0, world_size);
  else
    selection = tprof_plot_format_selection (&self->summary, (const gint32 *) ranks->data, ranks->len, world_size);
  if (op < 0 || !_tprof_profile_is_sampled (profile, (gsize) op))
    return g_steal_pointer (&selection);
  /* a bounded capture: the bars are a random subset of what was recorded */
  _tprof_profile_summarize (profile, (gsize) op, NULL, mask, &recorded);
  /* Translators: after "All 4 Ranks, n=80, mean=…": the samples the ranks recorded, of which n were kept */
  return g_strdup_printf (_("%s; a random subset of %'zu recorded"), selection, recorded.count);
}

static void
tprof_histogram_view_clear_kept (TprofHistogramView *self)
{
  tprof_histogram_key_clear (&self->kept_key);
  g_clear_pointer (&self->kept_hist, tprof_histogram_free);
  g_clear_pointer (&self->kept_rank_summaries, free);
  g_clear_pointer (&self->kept_subtitle, g_free);
  self->kept_n_rank_summaries = 0;
}

/* Clears the result shown; an every-rank one is kept rather than freed. */
static void
tprof_histogram_view_keep_shown (TprofHistogramView *self)
{
  g_clear_pointer (&self->baseline, tprof_histogram_free);
  if (self->shown_key.samples != NULL && self->hist != NULL)
    {
      tprof_histogram_view_clear_kept (self);
      self->kept_key = self->shown_key;
      self->kept_hist = g_steal_pointer (&self->hist);
      self->kept_summary = self->summary;
      self->kept_rank_summaries = g_steal_pointer (&self->rank_summaries);
      self->kept_n_rank_summaries = self->n_rank_summaries;
      self->kept_subtitle = g_steal_pointer (&self->subtitle);
      memset (&self->shown_key, 0, sizeof self->shown_key);
    }
  tprof_histogram_key_clear (&self->shown_key);
  g_clear_pointer (&self->hist, tprof_histogram_free);
  g_clear_pointer (&self->rank_summaries, free);
  g_clear_pointer (&self->subtitle, g_free);
  self->n_rank_summaries = 0;
}

/* Shows the kept every-rank result again if it is of @key. */
static gboolean
tprof_histogram_view_take_kept (TprofHistogramView      *self,
                                const TprofHistogramKey *key)
{
  if (!tprof_histogram_key_equal (&self->kept_key, key))
    return FALSE;
  self->shown_key = self->kept_key;
  memset (&self->kept_key, 0, sizeof self->kept_key);
  self->hist = g_steal_pointer (&self->kept_hist);
  self->summary = self->kept_summary;
  self->rank_summaries = g_steal_pointer (&self->kept_rank_summaries);
  self->n_rank_summaries = self->kept_n_rank_summaries;
  self->subtitle = g_steal_pointer (&self->kept_subtitle);
  self->kept_n_rank_summaries = 0;
  return TRUE;
}

static void
tprof_histogram_view_recompute (TprofChart *chart)
{
  TprofHistogramView *self = TPROF_HISTOGRAM_VIEW (chart);
  const TprofOperationIndex *index = _tprof_chart_get_index (chart);
  const guint8 *mask = _tprof_chart_get_mask (chart);
  const TprofOperationIndex *base_index = _tprof_chart_get_baseline_index (chart);
  const guint8 *base_mask = _tprof_chart_get_baseline_mask (chart);
  TprofHistogramFlags flags = TPROF_HISTOGRAM_DEFAULT;

  TprofHistogramKey key = { NULL, NULL, -1, 0, 0 };

  tprof_histogram_view_keep_shown (self);
  /* the kept result holds its samples: never those of an operation no
   * longer shown, which the profile's memory budget may have let go */
  if (self->kept_key.samples != _tprof_chart_get_samples (chart))
    tprof_histogram_view_clear_kept (self);

  if (index == NULL)
    return;

  if (self->separate_ranks)
    flags |= TPROF_HISTOGRAM_SEPARATE_RANKS;
  if (self->log_x)
    flags |= TPROF_HISTOGRAM_LOG;
  if (mask == NULL && base_index == NULL && _tprof_chart_get_profile (chart) != NULL)
    {
      key.samples = _tprof_chart_get_samples (chart);
      key.profile = _tprof_chart_get_profile (chart);
      key.op = _tprof_chart_get_op (chart);
      key.bins = self->bins;
      key.flags = flags;
      if (tprof_histogram_view_take_kept (self, &key))
        return;
    }

  /* out of memory: the chart shows nothing rather than stale numbers */
  if (base_index != NULL && !self->separate_ranks)
    {
      /* both runs on shared edges: the range of both, numpy's range= */
      double lo, hi, base_lo, base_hi;
      gboolean have = tprof_operation_index_extent (index, mask, flags, &lo, &hi);

      if (tprof_operation_index_extent (base_index, base_mask, flags, &base_lo, &base_hi) && have)
        {
          lo = fmin (lo, base_lo);
          hi = fmax (hi, base_hi);
        }
      self->hist = have ? tprof_operation_index_histogram_range (index, mask, self->bins, flags, lo, hi)
                        : tprof_operation_index_histogram (index, mask, self->bins, flags);
      if (have && self->hist != NULL && self->hist->n_bins > 0)
        self->baseline = tprof_operation_index_histogram_range (base_index, base_mask, self->hist->n_bins, flags,
                                                                lo, hi);
    }
  else
    self->hist = tprof_operation_index_histogram (index, mask, self->bins, flags);
  if (self->hist == NULL || !tprof_operation_index_summarize_moments (index, mask, &self->summary))
    {
      g_clear_pointer (&self->hist, tprof_histogram_free);
      return;
    }
  if (self->separate_ranks)
    self->rank_summaries = tprof_operation_index_rank_summaries (index, mask, &self->n_rank_summaries);
  self->subtitle = tprof_histogram_view_format_subtitle (self, _tprof_chart_get_profile (chart), mask);
  if (key.samples != NULL)
    {
      self->shown_key = key;
      self->shown_key.samples = _tprof_operation_samples_ref (key.samples);
      self->shown_key.profile = g_object_ref (key.profile);
    }
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
  plot->subtitle = self->subtitle;
  plot->baseline = self->baseline;
  plot->label = _tprof_chart_get_label (TPROF_CHART (self));
  plot->baseline_label = _tprof_chart_get_baseline_label (TPROF_CHART (self));
}

static const char *
tprof_histogram_view_empty_message (TprofChart *chart)
{
  TprofHistogramView *self = TPROF_HISTOGRAM_VIEW (chart);

  if (self->hist == NULL)
    return _("Select an operation to see its histogram");
  if (self->hist->n_bins > 0)
    return NULL;
  if (self->hist->n_nonpositive > 0)
    return _("No samples above zero to show on a logarithmic time axis");
  return _("No samples on the selected ranks");
}

static void
tprof_histogram_view_draw (TprofChart           *chart,
                           cairo_t              *cr,
                           double                width,
                           double                height,
                           const TprofPlotTheme *theme,
                           gssize                hover,
                           TprofPlotArea        *area)
{
  TprofHistogramView *self = TPROF_HISTOGRAM_VIEW (chart);
  TprofPlotHistogram plot;
  /* TRANSLATORS: the chart title; %s is the operation name */
  g_autofree char *title = _tprof_chart_format_title (chart, _("Time Distribution: %s"));

  if (self->hist == NULL)
    return;
  tprof_histogram_view_fill_plot (self, &plot);
  plot.hover_bin = hover;
  plot.title = title;
  tprof_plot_histogram_draw (cr, width, height, &plot, theme, area);
}

static gssize
tprof_histogram_view_hit (TprofChart          *chart,
                          const TprofPlotArea *area,
                          double               x,
                          double               y)
{
  TprofPlotHistogram plot;

  tprof_histogram_view_fill_plot (TPROF_HISTOGRAM_VIEW (chart), &plot);
  return tprof_plot_histogram_hit_bin (&plot, area, x, y);
}

static char *
tprof_histogram_view_describe (TprofChart *chart,
                               gssize      bin)
{
  const TprofHistogram *hist = TPROF_HISTOGRAM_VIEW (chart)->hist;
  g_autofree char *left = NULL;
  g_autofree char *right = NULL;
  GString *text;
  guint listed = 0;

  if (hist == NULL || (gsize) bin >= hist->n_bins)
    return NULL;

  left = tprof_format_duration (hist->edges[bin], 4);
  right = tprof_format_duration (hist->edges[bin + 1], 4);
  text = g_string_new (NULL);
  /* Translators: a histogram bin's range, then how many samples fell in it */
  g_string_append_printf (text, _("%s – %s: %" PRIu64 " samples"),
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
      g_string_append_printf (text, _("Rank %d: %" PRIu64), hist->ranks[r], (guint64) c);
    }

  return g_string_free (text, FALSE);
}

static void
tprof_histogram_view_dispose (GObject *object)
{
  TprofHistogramView *self = (TprofHistogramView *)object;

  g_clear_pointer (&self->hist, tprof_histogram_free);
  g_clear_pointer (&self->baseline, tprof_histogram_free);
  g_clear_pointer (&self->rank_summaries, free);
  g_clear_pointer (&self->subtitle, g_free);
  tprof_histogram_key_clear (&self->shown_key);
  tprof_histogram_view_clear_kept (self);

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
      /* the counts stay; only the axis changes */
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
  _tprof_chart_recompute (TPROF_CHART (self));
}

static char *
tprof_histogram_view_to_csv (TprofChart  *chart,
                             GError     **error)
{
  const TprofHistogram *hist = _tprof_histogram_view_get_histogram (TPROF_HISTOGRAM_VIEW (chart));

  if (hist == NULL)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_EMPTY, _("No samples"));
      return NULL;
    }
  return tprof_plot_histogram_to_csv (hist);
}

static void
tprof_histogram_view_class_init (TprofHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TprofChartClass *chart_class = TPROF_CHART_CLASS (klass);

  object_class->dispose = tprof_histogram_view_dispose;
  object_class->get_property = tprof_histogram_view_get_property;
  object_class->set_property = tprof_histogram_view_set_property;

  chart_class->recompute = tprof_histogram_view_recompute;
  chart_class->empty_message = tprof_histogram_view_empty_message;
  chart_class->draw = tprof_histogram_view_draw;
  chart_class->hit = tprof_histogram_view_hit;
  chart_class->describe = tprof_histogram_view_describe;
  chart_class->to_csv = tprof_histogram_view_to_csv;

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
}

const TprofHistogram *
_tprof_histogram_view_get_histogram (TprofHistogramView *self)
{
  g_return_val_if_fail (TPROF_IS_HISTOGRAM_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->hist;
}

const TprofHistogram *
_tprof_histogram_view_get_baseline (TprofHistogramView *self)
{
  g_return_val_if_fail (TPROF_IS_HISTOGRAM_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->baseline;
}

const char *
_tprof_histogram_view_get_subtitle (TprofHistogramView *self)
{
  g_return_val_if_fail (TPROF_IS_HISTOGRAM_VIEW (self), NULL);
  _tprof_chart_refresh (TPROF_CHART (self));
  return self->subtitle;
}
