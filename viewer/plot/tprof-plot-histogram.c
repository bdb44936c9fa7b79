/* tprof-plot-histogram.c — the histogram of one operation: all ranks together or overlaid on shared edges. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

#define DEFAULT_ALPHA            0.35
/* A baseline is drawn in the text colour: apart from the bars' blue and
 * the highlight's vermillion for every common colour blindness, and
 * readable on light and dark themes alike. */

/* Where bins sit on the x axis. numpy gives a single distinct value v the
 * range [v-0.5, v+0.5], which for durations means a bar from minus half a
 * second; such a histogram is drawn as one narrow bar at v instead. */
typedef struct
{
  double   lo, hi;          /* x axis range */
  gboolean single_value;
  double   value;
  double   half_width;      /* of the single bar (a factor on log axes) */
} BinGeometry;

/* One histogram being drawn: onto what, at which sizes, where its data
 * area is and how its bins sit on the x axis. */
typedef struct
{
  cairo_t                  *cr;
  const TprofPlotFrame     *frame;
  const TprofPlotHistogram *plot;
  BinGeometry               geometry;
  TprofPlotArea            *area;
  double                    gap;      /* left between neighbouring bars, user units */
} Picture;

void
tprof_plot_histogram_init (TprofPlotHistogram *plot)
{
  g_return_if_fail (plot != NULL);

  memset (plot, 0, sizeof *plot);
  plot->hover_bin = -1;
}

static gboolean
histogram_is_empty (const TprofPlotHistogram *plot)
{
  return plot->hist == NULL || plot->hist->n_bins == 0 || plot->hist->edges == NULL;
}

static gboolean
find_single_value (const TprofPlotHistogram *plot,
                   double                   *value)
{
  const TprofHistogram *hist = plot->hist;
  gsize nonzero = 0, where = 0;

  if (plot->summary != NULL && plot->summary->count > 0)
    {
      *value = plot->summary->min;
      return plot->summary->min == plot->summary->max;
    }
  for (gsize i = 0; i < hist->n_bins; i++)
    if (hist->counts[i] > 0)
      nonzero++, where = i;
  if (nonzero != 1 || hist->edges[hist->n_bins] - hist->edges[0] != 1.0)
    return FALSE;
  *value = (hist->edges[0] + hist->edges[hist->n_bins]) / 2;
  return *value >= hist->edges[where] && *value <= hist->edges[where + 1];
}

static void
bin_geometry (const TprofPlotHistogram *plot,
              BinGeometry              *geometry)
{
  const TprofHistogram *hist = plot->hist;
  double v;

  geometry->single_value = FALSE;
  geometry->lo = hist->edges[0];
  geometry->hi = hist->edges[hist->n_bins];
  if (!find_single_value (plot, &v))
    return;

  geometry->single_value = TRUE;
  geometry->value = v;
  if (plot->log_x && v > 0)
    {
      geometry->lo = v / 10;
      geometry->hi = v * 10;
      geometry->half_width = 1.1;
    }
  else if (v > 0)
    {
      geometry->lo = 0;
      geometry->hi = 2 * v;
      geometry->half_width = v / 40;
    }
  else
    {
      geometry->lo = -1e-6;
      geometry->hi = 1e-6;
      geometry->half_width = 5e-8;
    }
}

static void
bin_span (const TprofPlotHistogram *plot,
          const BinGeometry        *geometry,
          gsize                     i,
          double                   *x0,
          double                   *x1)
{
  if (!geometry->single_value)
    {
      *x0 = plot->hist->edges[i];
      *x1 = plot->hist->edges[i + 1];
    }
  else if (plot->log_x && geometry->value > 0)
    {
      *x0 = geometry->value / geometry->half_width;
      *x1 = geometry->value * geometry->half_width;
    }
  else
    {
      *x0 = geometry->value - geometry->half_width;
      *x1 = geometry->value + geometry->half_width;
    }
}

/* A baseline is drawn only on the same bins, and only over all ranks
 * together (an overlay of ranks of two runs would not read). */
static gboolean
has_baseline (const TprofPlotHistogram *plot)
{
  return plot->baseline != NULL && plot->baseline->n_bins == plot->hist->n_bins && !plot->separate_ranks;
}

static guint64
max_count (const TprofPlotHistogram *plot)
{
  const TprofHistogram *hist = plot->hist;
  guint64 m = 0;

  if (plot->separate_ranks && hist->rank_counts != NULL)
    {
      for (gsize k = 0; k < hist->n_ranks * hist->n_bins; k++)
        m = MAX (m, hist->rank_counts[k]);
    }
  else
    {
      for (gsize i = 0; i < hist->n_bins; i++)
        m = MAX (m, hist->counts[i]);
    }
  for (gsize i = 0; has_baseline (plot) && i < hist->n_bins; i++)
    m = MAX (m, plot->baseline->counts[i]);
  return m;
}

static void
add_bar (cairo_t             *cr,
         const TprofPlotArea *area,
         double               x0,
         double               x1,
         double               count)
{
  double bottom = area->y + area->height;
  double top = MAX (area->y, _tprof_plot_area_y (area, count));

  cairo_rectangle (cr, x0, top, x1 - x0, bottom - top);
}

/* Bins narrower than a device pixel: the tallest bin of each pixel column,
 * so that a million bins cost no more than the picture is wide. */
static void
add_bars_per_pixel (const Picture *picture,
                    const guint64 *counts,
                    double         pixel)
{
  const TprofPlotArea *area = picture->area;
  gsize n_columns = (gsize) ceil (area->width / pixel);
  guint64 *tallest = g_new0 (guint64, n_columns);
  gsize c = 0;

  for (gsize i = 0; i < picture->plot->hist->n_bins; i++)
    {
      double x0, x1;
      gsize first, last;

      if (counts[i] == 0)
        continue;
      bin_span (picture->plot, &picture->geometry, i, &x0, &x1);
      x0 = CLAMP ((_tprof_plot_area_x (area, x0) - area->x) / pixel, 0, n_columns - 1);
      x1 = CLAMP ((_tprof_plot_area_x (area, x1) - area->x) / pixel, 0, n_columns - 1);
      first = (gsize) x0;
      last = (gsize) x1;
      for (gsize k = first; k <= last; k++)
        tallest[k] = MAX (tallest[k], counts[i]);
    }
  while (c < n_columns)
    {
      gsize end = c + 1;

      while (end < n_columns && tallest[end] == tallest[c])
        end++;
      if (tallest[c] > 0)
        add_bar (picture->cr, area, area->x + c * pixel, MIN (area->x + end * pixel, area->x + area->width),
                 (double) tallest[c]);
      c = end;
    }
  g_free (tallest);
}

static void
add_bars (const Picture *picture,
          const guint64 *counts)
{
  const TprofPlotArea *area = picture->area;
  const TprofPlotTheme *theme = picture->frame->theme;
  double pixel = 1.0 / (theme->scale > 0 ? theme->scale : 1);

  if (!picture->geometry.single_value && area->width / picture->plot->hist->n_bins < pixel)
    {
      add_bars_per_pixel (picture, counts, pixel);
      return;
    }
  for (gsize i = 0; i < picture->plot->hist->n_bins; i++)
    {
      double x0, x1;

      if (counts[i] == 0)
        continue;
      bin_span (picture->plot, &picture->geometry, i, &x0, &x1);
      x0 = _tprof_plot_area_x (area, x0);
      x1 = _tprof_plot_area_x (area, x1);
      if (x1 - x0 > 2 * picture->gap)
        {
          x0 += picture->gap / 2;
          x1 -= picture->gap / 2;
        }
      add_bar (picture->cr, area, x0, x1, (double) counts[i]);
    }
}

/* Everything after it stays inside the data area, until cairo_restore(). */
static void
clip_to_area (const Picture *picture)
{
  const TprofPlotArea *area = picture->area;

  cairo_save (picture->cr);
  cairo_rectangle (picture->cr, area->x, area->y, area->width, area->height);
  cairo_clip (picture->cr);
}

/* The colour of the band standing for the ranks not drawn one by one. */
static void
band_rgba (const TprofPlotFrame *frame,
           double                rgba[4])
{
  memcpy (rgba, frame->theme->foreground, 4 * sizeof (double));
  rgba[3] *= 0.22;
}

static void
draw_overlay (const Picture          *picture,
              const TprofPlotOverlay *overlay)
{
  const TprofHistogram *hist = picture->plot->hist;
  cairo_t *cr = picture->cr;
  double alpha = picture->plot->alpha > 0 ? picture->plot->alpha : DEFAULT_ALPHA;
  double rgb[3];

  if (overlay->band)
    {
      g_autofree guint64 *band = _tprof_plot_overlay_band_counts (overlay, hist);
      double rgba[4];

      add_bars (picture, band);
      band_rgba (picture->frame, rgba);
      _tprof_plot_set_rgba (cr, rgba);
      cairo_fill (cr);
    }
  /* translucent fills blend where ranks overlap, so that the colour that
   * names a rank is a solid outline of its bars, as in the legend */
  for (gsize k = 0; k < overlay->n_rows; k++)
    {
      add_bars (picture, hist->rank_counts + overlay->rows[k] * hist->n_bins);
      tprof_plot_palette_color ((guint) k, rgb);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, picture->frame->line * 1.5);
      cairo_stroke (cr);
    }
}

/* The baseline's counts as a step outline over the bars. */
static void
draw_baseline (const Picture *picture)
{
  const TprofHistogram *base = picture->plot->baseline;
  const TprofPlotArea *area = picture->area;
  cairo_t *cr = picture->cr;
  double bottom = area->y + area->height;

  for (gsize i = 0; i < base->n_bins; i++)
    {
      double x0, x1, y = base->counts[i] > 0 ? MAX (area->y, _tprof_plot_area_y (area, (double) base->counts[i]))
                                             : bottom;

      bin_span (picture->plot, &picture->geometry, i, &x0, &x1);
      x0 = _tprof_plot_area_x (area, x0);
      x1 = _tprof_plot_area_x (area, x1);
      if (i == 0)
        cairo_move_to (cr, x0, bottom);
      cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
      if (i + 1 == base->n_bins)
        cairo_line_to (cr, x1, bottom);
    }
  _tprof_plot_set_rgba (cr, picture->frame->theme->foreground);
  cairo_set_line_width (cr, picture->frame->line * 2.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_stroke (cr);
}

/* @overlay: NULL for all ranks together. */
static void
draw_bars (const Picture          *picture,
           const TprofPlotOverlay *overlay)
{
  const TprofPlotFrame *frame = picture->frame;
  cairo_t *cr = picture->cr;

  clip_to_area (picture);
  if (overlay != NULL)
    draw_overlay (picture, overlay);
  else
    {
      double bar_px = picture->area->width / picture->plot->hist->n_bins * frame->theme->scale;
      double rgb[3];

      /* thin gaps between wide bars show where one bin ends: left empty,
       * so that the screen (transparent background) and an export (white)
       * look alike */
      Picture gapped = *picture;

      gapped.gap = bar_px > 4 ? frame->line : 0;
      add_bars (&gapped, picture->plot->hist->counts);
      tprof_plot_palette_color (0, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_fill (cr);
      if (has_baseline (picture->plot))
        draw_baseline (picture);
    }
  cairo_restore (cr);
}

static void
draw_hover (const Picture *picture)
{
  const TprofPlotHistogram *plot = picture->plot;
  const TprofHistogram *hist = plot->hist;
  const TprofPlotArea *area = picture->area;
  const double *hl = picture->frame->theme->highlight;
  cairo_t *cr = picture->cr;
  gsize bin = (gsize) plot->hover_bin;
  guint64 top_count = hist->counts[bin];
  double x0, x1, top;

  if (plot->separate_ranks && hist->rank_counts != NULL)
    {
      top_count = 0;
      for (gsize r = 0; r < hist->n_ranks; r++)
        top_count = MAX (top_count, hist->rank_counts[r * hist->n_bins + bin]);
    }
  bin_span (plot, &picture->geometry, bin, &x0, &x1);
  x0 = _tprof_plot_area_x (area, x0);
  x1 = _tprof_plot_area_x (area, x1);

  clip_to_area (picture);
  cairo_rectangle (cr, x0, area->y, x1 - x0, area->height);
  cairo_set_source_rgba (cr, hl[0], hl[1], hl[2], 0.12);
  cairo_fill (cr);
  if (top_count > 0)
    {
      top = MAX (area->y, _tprof_plot_area_y (area, (double) top_count));
      cairo_rectangle (cr, x0, top, x1 - x0, area->y + area->height - top);
      cairo_set_line_width (cr, picture->frame->line * 2);
      _tprof_plot_set_rgba (cr, hl);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static char *
rank_legend_label (const TprofPlotHistogram *plot,
                   gsize                     r)
{
  const TprofHistogram *hist = plot->hist;
  const TprofRankSummary *summary = _tprof_plot_find_rank_summary (plot, hist->ranks[r]);
  char *mean, *std, *label;
  guint64 n = 0;

  if (summary == NULL)
    {
      for (gsize i = 0; i < hist->n_bins; i++)
        n += hist->rank_counts[r * hist->n_bins + i];
      return g_strdup_printf (_("Rank #%d (n=%" PRIu64 ")"), hist->ranks[r], n);
    }
  mean = tprof_format_duration (summary->mean, 3);
  std = tprof_format_duration (summary->std, 3);
  label = g_strdup_printf (_("Rank #%d (n=%zu, mean=%s, std=%s)"),
                           summary->rank, summary->count, mean, std);
  g_free (mean);
  g_free (std);
  return label;
}

/* The overlay's legend, built before the axes so that its size can decide
 * where it goes. */
typedef struct
{
  TprofPlotLegendItem *items;
  guint                n_items;
  char                *more;
  double               width, height;
  double               x, y;
} Legend;

static void
legend_init (Legend                 *legend,
             const Picture          *picture,
             const TprofPlotOverlay *overlay)
{
  const TprofPlotHistogram *plot = picture->plot;
  const TprofHistogram *hist = plot->hist;
  guint n_listed = (guint) MIN (overlay->n_rows, _tprof_plot_max_legend_ranks (plot));

  memset (legend, 0, sizeof *legend);
  legend->n_items = n_listed + (overlay->band ? 1 : 0);
  legend->items = g_new0 (TprofPlotLegendItem, legend->n_items);
  for (guint i = 0; i < n_listed; i++)
    {
      tprof_plot_palette_color (i, legend->items[i].rgb);
      legend->items[i].alpha = plot->alpha > 0 ? plot->alpha : DEFAULT_ALPHA;
      legend->items[i].outline = TRUE;
      legend->items[i].label = rank_legend_label (plot, overlay->rows[i]);
    }
  if (overlay->band)
    {
      TprofPlotLegendItem *item = &legend->items[n_listed];
      gsize rest = hist->n_ranks - overlay->n_rows;
      double rgba[4];

      band_rgba (picture->frame, rgba);
      memcpy (item->rgb, rgba, sizeof item->rgb);
      item->alpha = rgba[3];
      /* TRANSLATORS: the shaded band standing for the ranks not drawn one by one */
      item->label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                  "%zu other rank: highest count per bin",
                                                  "%zu other ranks: highest count per bin",
                                                  rest), rest);
    }
  else if (hist->n_ranks > n_listed)
    {
      gsize rest = hist->n_ranks - n_listed;

      legend->more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %zu more rank",
                                                   "… and %zu more ranks", rest), rest);
    }
  _tprof_plot_legend_measure (picture->cr, picture->frame, legend->items, legend->n_items, legend->more,
                              &legend->width, &legend->height);
}

/* The legend of a comparison: the two runs. */
static void
legend_init_compare (Legend        *legend,
                     const Picture *picture)
{
  const TprofPlotHistogram *plot = picture->plot;

  memset (legend, 0, sizeof *legend);
  legend->n_items = 2;
  legend->items = g_new0 (TprofPlotLegendItem, 2);
  tprof_plot_palette_color (0, legend->items[0].rgb);
  legend->items[0].alpha = 1.0;
  legend->items[0].label = g_strdup (plot->label != NULL ? plot->label : _("This run"));
  memcpy (legend->items[1].rgb, picture->frame->theme->foreground, sizeof legend->items[1].rgb);
  legend->items[1].alpha = picture->frame->theme->foreground[3];
  legend->items[1].label = g_strdup (plot->baseline_label != NULL ? plot->baseline_label : _("Baseline"));
  _tprof_plot_legend_measure (picture->cr, picture->frame, legend->items, legend->n_items, NULL,
                              &legend->width, &legend->height);
}

static void
legend_clear (Legend *legend)
{
  for (guint i = 0; i < legend->n_items; i++)
    g_free (legend->items[i].label);
  g_clear_pointer (&legend->items, g_free);
  g_clear_pointer (&legend->more, g_free);
}

/* The highest count of any rank in the bins under [@x0, @x1] (user units). */
static guint64
tallest_under (const Picture *picture,
               double         x0,
               double         x1)
{
  const TprofHistogram *hist = picture->plot->hist;
  guint64 tallest = 0;

  for (gsize i = 0; i < hist->n_bins; i++)
    {
      double b0, b1;

      bin_span (picture->plot, &picture->geometry, i, &b0, &b1);
      if (_tprof_plot_area_x (picture->area, b1) < x0 || _tprof_plot_area_x (picture->area, b0) > x1)
        continue;
      if (picture->plot->separate_ranks && hist->rank_counts != NULL)
        for (gsize r = 0; r < hist->n_ranks; r++)
          tallest = MAX (tallest, hist->rank_counts[r * hist->n_bins + i]);
      else
        tallest = MAX (tallest, hist->counts[i]);
      if (has_baseline (picture->plot))
        tallest = MAX (tallest, picture->plot->baseline->counts[i]);
    }
  return tallest;
}

static void
draw_left_out_note (const Picture *picture)
{
  const TprofPlotFrame *frame = picture->frame;
  const TprofPlotArea *area = picture->area;
  TprofPlotFont font = { frame->font * 0.75, FALSE };
  guint64 n = picture->plot->hist->n_nonpositive;
  char *note;

  if (!picture->plot->log_x || n == 0)
    return;
  note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%" PRIu64 " sample of 0 s not shown on the log axis",
                                       "%" PRIu64 " samples of 0 s not shown on the log axis",
                                       n), n);
  _tprof_plot_text_draw (picture->cr, &font, note, area->x + frame->font * 0.5, area->y + frame->font * 0.5,
                         0, 0, FALSE, frame->theme->foreground);
  g_free (note);
}

static char *
default_subtitle (const TprofPlotHistogram *plot)
{
  const TprofSummary *summary = plot->summary;

  if (summary == NULL || summary->count == 0)
    return NULL;
  if (summary->rank_count == 1)
    return tprof_plot_format_selection (summary, &summary->slowest_rank, 1, 1);
  return tprof_plot_format_selection (summary, NULL, 0, (int) summary->rank_count);
}

/* A count axis reaching a little above @top. */
static void
init_count_axis (TprofPlotAxis            *axis,
                 const TprofPlotHistogram *plot,
                 double                    top)
{
  top = MAX (top, 1);
  if (plot->log_y)
    _tprof_plot_axis_init_log (axis, TPROF_PLOT_AXIS_COUNT, 0.5, MAX (top * 1.6, 2));
  else
    _tprof_plot_axis_init_linear (axis, TPROF_PLOT_AXIS_COUNT, 0, top * 1.04, 5, TRUE);
}

static void
init_time_axis (TprofPlotAxis            *axis,
                const TprofPlotHistogram *plot,
                const BinGeometry        *geometry,
                double                    width_in_fonts)
{
  guint target = (guint) CLAMP (width_in_fonts / 8, 2, 10);

  if (plot->log_x && geometry->lo > 0)
    _tprof_plot_axis_init_log (axis, TPROF_PLOT_AXIS_DURATION, geometry->lo, geometry->hi);
  else
    _tprof_plot_axis_init_linear (axis, TPROF_PLOT_AXIS_DURATION, geometry->lo, geometry->hi,
                                  target, FALSE);
}

/* Puts the legend in the top corner over the lower bars and, when bars
 * still reach up to it, raises the count axis so that they stay below it,
 * unless the legend fills so much of a small chart that the bars would
 * shrink to nothing. */
static void
place_legend (Legend              *legend,
              const Picture       *picture,
              const TprofPlotAxes *axes,
              TprofPlotAxis       *y_axis,
              double               top)
{
  TprofPlotArea *area = picture->area;
  double margin = picture->frame->font * 0.5;
  double right_x = area->x + area->width - legend->width - margin;
  double left_x = area->x + margin;
  guint64 right = tallest_under (picture, right_x, right_x + legend->width);
  guint64 left = tallest_under (picture, left_x, left_x + legend->width);
  double tallest = (double) MIN (left, right);
  /* the fraction of the axis below the legend */
  double below = 1 - (margin + legend->height) / area->height;

  if (tallest > 0 && below > 0.4 && _tprof_plot_axis_fraction (y_axis, tallest) > below)
    {
      init_count_axis (y_axis, picture->plot, y_axis->log ? y_axis->min * pow (tallest / y_axis->min, 1 / below)
                                                 : tallest / below);
      _tprof_plot_axes_layout (picture->cr, picture->frame, axes, top, area);
    }
  legend->x = left < right ? area->x + margin : area->x + area->width - legend->width - margin;
  legend->y = area->y + margin;
}

void
tprof_plot_histogram_draw (cairo_t                  *cr,
                           double                    width,
                           double                    height,
                           const TprofPlotHistogram *plot,
                           const TprofPlotTheme     *theme,
                           TprofPlotArea            *area)
{
  TprofPlotFrame frame;
  TprofPlotAxis x_axis, y_axis;
  TprofPlotAxes axes = { 0 };
  Picture picture = { cr, &frame, plot };
  TprofPlotOverlay overlay;
  Legend legend;
  gboolean overlaid, compared;
  char *subtitle = NULL;
  double top;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  picture.area = _tprof_plot_frame_begin (&frame, cr, width, height, theme, area);

  if (plot->subtitle == NULL && plot->hist != NULL)
    subtitle = default_subtitle (plot);
  top = _tprof_plot_frame_draw_titles (cr, &frame,
                                       plot->title != NULL ? plot->title : _("Time Distribution"),
                                       plot->subtitle != NULL ? plot->subtitle : subtitle);
  g_free (subtitle);

  if (histogram_is_empty (plot))
    {
      _tprof_plot_frame_draw_message (cr, &frame, top, _("No samples"));
      cairo_restore (cr);
      return;
    }

  bin_geometry (plot, &picture.geometry);
  init_time_axis (&x_axis, plot, &picture.geometry, frame.width / frame.font);
  init_count_axis (&y_axis, plot, (double) max_count (plot));
  axes.x = &x_axis;
  axes.y = &y_axis;
  axes.x_title = _("Time");
  axes.y_title = _("Frequency");

  _tprof_plot_axes_layout (cr, &frame, &axes, top, picture.area);
  overlaid = plot->separate_ranks && plot->hist->rank_counts != NULL && plot->hist->n_ranks > 0;
  compared = has_baseline (plot);
  if (overlaid)
    {
      _tprof_plot_overlay_init (&overlay, plot);
      legend_init (&legend, &picture, &overlay);
      place_legend (&legend, &picture, &axes, &y_axis, top);
    }
  else if (compared)
    {
      legend_init_compare (&legend, &picture);
      place_legend (&legend, &picture, &axes, &y_axis, top);
    }
  _tprof_plot_axes_draw_grid (cr, &frame, &axes, picture.area);
  draw_bars (&picture, overlaid ? &overlay : NULL);
  if (plot->hover_bin >= 0 && (gsize) plot->hover_bin < plot->hist->n_bins)
    draw_hover (&picture);
  _tprof_plot_axes_draw (cr, &frame, &axes, picture.area);
  if (overlaid || compared)
    {
      _tprof_plot_legend_draw (cr, &frame, legend.x, legend.y, legend.items, legend.n_items, legend.more);
      legend_clear (&legend);
    }
  if (overlaid)
    _tprof_plot_overlay_clear (&overlay);
  draw_left_out_note (&picture);
  cairo_restore (cr);
}

void
tprof_plot_histogram_draw_default (cairo_t  *cr,
                                   double    width,
                                   double    height,
                                   gpointer  user_data)
{
  tprof_plot_histogram_draw (cr, width, height, user_data, NULL, NULL);
}

static gssize
single_value_hit (const TprofPlotHistogram *plot,
                  const BinGeometry        *geometry,
                  double                    v)
{
  double x0, x1;

  bin_span (plot, geometry, 0, &x0, &x1);
  if (v < x0 || v > x1)
    return -1;
  /* the one bar stands for the bin holding the value */
  for (gsize i = 0; i < plot->hist->n_bins; i++)
    if (plot->hist->counts[i] > 0)
      return (gssize) i;
  return -1;
}

gssize
tprof_plot_histogram_hit_bin (const TprofPlotHistogram *plot,
                              const TprofPlotArea      *area,
                              double                    x,
                              double                    y)
{
  BinGeometry geometry;
  double v;

  g_return_val_if_fail (plot != NULL, -1);
  g_return_val_if_fail (area != NULL, -1);

  if (histogram_is_empty (plot) || !_tprof_plot_area_contains (area, x, y))
    return -1;

  bin_geometry (plot, &geometry);
  v = _tprof_plot_area_x_value (area, x);
  if (geometry.single_value)
    return single_value_hit (plot, &geometry, v);

  return tprof_histogram_find_bin (plot->hist, v);
}
