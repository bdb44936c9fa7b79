/* tprof-plot-ranks.c — the per-rank chart: each rank's total or mean, slowest ranks highlighted, up to thousands of ranks. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* Below this width (device pixels) bars merge into a filled band. */
#define MIN_BAR_PIXELS 2.0


void
tprof_plot_ranks_init (TprofPlotRanks *plot)
{
  g_return_if_fail (plot != NULL);

  memset (plot, 0, sizeof *plot);
  plot->metric = TPROF_PLOT_RANK_TOTAL;
  plot->hover_index = -1;
}

static double
rank_value (const TprofPlotRanks *plot,
            gsize                 i)
{
  return plot->metric == TPROF_PLOT_RANK_MEAN ? plot->ranks[i].mean : plot->ranks[i].sum;
}

static double
rank_top (const TprofPlotRanks *plot,
          gsize                 i)
{
  return plot->metric == TPROF_PLOT_RANK_MEAN ? plot->ranks[i].max : plot->ranks[i].sum;
}

static gint
compare_by_value_desc (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  const TprofPlotRanks *plot = user_data;
  double va = rank_value (plot, *(const gsize *) a);
  double vb = rank_value (plot, *(const gsize *) b);

  if (isnan (va) || isnan (vb))
    return isnan (va) - isnan (vb);
  return (va < vb) - (va > vb);
}

/* Whether @rank is one of the straggler group's. */
static gboolean
in_group (const TprofPlotRanks *plot,
          int32_t               rank)
{
  for (gsize g = 0; g < plot->n_group_ranks; g++)
    if (plot->group_ranks[g] == rank)
      return TRUE;
  return FALSE;
}

/* TRUE for those of the n_highlight ranks with the largest values that
 * stand out from the others beyond noise (the engine's rule, as the
 * table's Slowest column): equal ranks get no mark. When the straggler
 * is a group (a host), its ranks that stand out are marked too: the
 * chart then shows the host the bar above the table names, not only
 * whichever of its ranks happened to be slowest. */
gboolean *
tprof_plot_ranks_find_marked (const TprofPlotRanks *plot,
                              gsize                *slowest)
{
  gsize n, n_highlight, *order;
  double *values;
  gboolean *marked;

  g_return_val_if_fail (plot != NULL && slowest != NULL, NULL);
  n = plot->n_ranks;
  n_highlight = MIN (plot->n_highlight > 0 ? plot->n_highlight : 1, n);
  order = g_new (gsize, MAX (n, 1));
  values = g_new (double, MAX (n, 1));
  marked = g_new0 (gboolean, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      order[i] = i;
      values[i] = rank_value (plot, i);
    }
  g_qsort_with_data (order, (gint) n, sizeof *order, compare_by_value_desc, (gpointer) plot);
  for (gsize k = 0; k < n_highlight; k++)
    if (tprof_slowest_stands_out (values, n, order[k]))
      marked[order[k]] = TRUE;
  for (gsize i = 0; plot->group_ranks != NULL && i < n; i++)
    if (in_group (plot, plot->ranks[i].rank) && tprof_slowest_stands_out (values, n, i))
      marked[i] = TRUE;
  *slowest = n > 0 ? order[0] : 0;
  g_free (values);
  g_free (order);
  return marked;
}

static void
slot_span (const TprofPlotArea *area,
           gsize                n,
           gsize                i,
           double               fill,
           double              *x0,
           double              *x1)
{
  double slot = area->width / n;
  double centre = area->x + (i + 0.5) * slot;

  *x0 = centre - slot * fill / 2;
  *x1 = centre + slot * fill / 2;
}

static void
draw_bars (cairo_t              *cr,
           const TprofPlotFrame *frame,
           const TprofPlotRanks *plot,
           const TprofPlotArea  *area,
           const gboolean       *slowest,
           double                slot_px)
{
  double bottom = area->y + area->height;
  double fill = slot_px >= 5 ? 0.8 : 1.0;
  double rgb[3];

  for (int pass = 0; pass < 2; pass++)
    {
      for (gsize i = 0; i < plot->n_ranks; i++)
        {
          double x0, x1, y;

          if (slowest[i] != (pass == 1) || !(rank_value (plot, i) > 0))
            continue;
          slot_span (area, plot->n_ranks, i, fill, &x0, &x1);
          y = _tprof_plot_area_y (area, rank_value (plot, i));
          cairo_rectangle (cr, x0, y, x1 - x0, bottom - y);
        }
      if (pass == 0)
        {
          tprof_plot_palette_color (0, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
        }
      else
        _tprof_plot_set_rgba (cr, frame->theme->highlight);
      cairo_fill (cr);
    }

  if (plot->metric != TPROF_PLOT_RANK_MEAN || slot_px < 6)
    return;
  /* min/max whiskers; narrower bars get the band of draw_min_max_band() */
  for (gsize i = 0; i < plot->n_ranks; i++)
    {
      double x0, x1, centre, y_min, y_max;

      slot_span (area, plot->n_ranks, i, fill * 0.5, &x0, &x1);
      centre = (x0 + x1) / 2;
      y_min = _tprof_plot_area_y (area, plot->ranks[i].min);
      y_max = _tprof_plot_area_y (area, plot->ranks[i].max);
      cairo_move_to (cr, centre, y_min);
      cairo_line_to (cr, centre, y_max);
      cairo_move_to (cr, x0, y_min);
      cairo_line_to (cr, x1, y_min);
      cairo_move_to (cr, x0, y_max);
      cairo_line_to (cr, x1, y_max);
    }
  cairo_set_line_width (cr, frame->line);
  cairo_set_source_rgba (cr, frame->theme->foreground[0], frame->theme->foreground[1],
                         frame->theme->foreground[2], 0.6);
  cairo_stroke (cr);
}

/* The outline of each rank's value as steps, closed along @bottom_of. */
static void
add_band (cairo_t              *cr,
          const TprofPlotRanks *plot,
          const TprofPlotArea  *area,
          double (*top_of) (const TprofRankSummary *),
          double (*bottom_of) (const TprofRankSummary *))
{
  gsize n = plot->n_ranks;
  double slot = area->width / n;

  cairo_move_to (cr, area->x, _tprof_plot_area_y (area, top_of (&plot->ranks[0])));
  for (gsize i = 0; i < n; i++)
    {
      double y = _tprof_plot_area_y (area, top_of (&plot->ranks[i]));

      cairo_line_to (cr, area->x + i * slot, y);
      cairo_line_to (cr, area->x + (i + 1) * slot, y);
    }
  for (gsize i = n; i-- > 0;)
    {
      double y = bottom_of != NULL ? _tprof_plot_area_y (area, bottom_of (&plot->ranks[i]))
                                   : area->y + area->height;

      cairo_line_to (cr, area->x + (i + 1) * slot, y);
      cairo_line_to (cr, area->x + i * slot, y);
    }
  cairo_close_path (cr);
}

static double
summary_sum (const TprofRankSummary *s)
{
  return s->sum;
}

static double
summary_mean (const TprofRankSummary *s)
{
  return s->mean;
}

static double
summary_min (const TprofRankSummary *s)
{
  return s->min;
}

static double
summary_max (const TprofRankSummary *s)
{
  return s->max;
}

/* Where whiskers would crowd, each rank's min-max range as a pale band. */
static void
draw_min_max_band (cairo_t              *cr,
                   const TprofPlotRanks *plot,
                   const TprofPlotArea  *area)
{
  double rgb[3];

  tprof_plot_palette_color (0, rgb);
  add_band (cr, plot, area, summary_max, summary_min);
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.3);
  cairo_fill (cr);
}

static void
draw_band (cairo_t              *cr,
           const TprofPlotFrame *frame,
           const TprofPlotRanks *plot,
           const TprofPlotArea  *area,
           const gboolean       *slowest)
{
  double scale = frame->theme->scale > 0 ? frame->theme->scale : 1;
  double marker = frame->font * 0.45;
  double rgb[3];

  tprof_plot_palette_color (0, rgb);
  add_band (cr, plot, area, plot->metric == TPROF_PLOT_RANK_MEAN ? summary_mean : summary_sum, NULL);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_fill (cr);

  /* A straggler must stay visible when its bar is a fraction of a pixel:
   * a bar at least a few pixels wide, and a marker above it. */
  for (gsize i = 0; i < plot->n_ranks; i++)
    {
      double x0, x1, centre, w, y;

      if (!slowest[i])
        continue;
      slot_span (area, plot->n_ranks, i, 1.0, &x0, &x1);
      centre = (x0 + x1) / 2;
      w = MAX (x1 - x0, 3.0 / scale);
      y = _tprof_plot_area_y (area, rank_value (plot, i));
      cairo_rectangle (cr, centre - w / 2, y, w, area->y + area->height - y);
      cairo_move_to (cr, centre, y - marker * 0.3);
      cairo_line_to (cr, centre - marker / 2, y - marker * 1.2);
      cairo_line_to (cr, centre + marker / 2, y - marker * 1.2);
      cairo_close_path (cr);
    }
  _tprof_plot_set_rgba (cr, frame->theme->highlight);
  cairo_fill (cr);
}

static void
draw_hover (cairo_t              *cr,
            const TprofPlotFrame *frame,
            const TprofPlotRanks *plot,
            const TprofPlotArea  *area)
{
  double x0, x1;

  slot_span (area, plot->n_ranks, (gsize) plot->hover_index, 1.0, &x0, &x1);
  cairo_rectangle (cr, x0, area->y, MAX (x1 - x0, frame->line), area->height);
  cairo_set_source_rgba (cr, frame->theme->highlight[0], frame->theme->highlight[1],
                         frame->theme->highlight[2], 0.2);
  cairo_fill (cr);
}

/* The baseline's value of each rank: a mark across each bar, or on
 * narrow bars one step line. */
static void
draw_baseline (cairo_t              *cr,
               const TprofPlotFrame *frame,
               const TprofPlotRanks *plot,
               const TprofPlotArea  *area,
               double                slot_px)
{
  gboolean marks = slot_px >= 6;
  gboolean drawing = FALSE;

  for (gsize i = 0; i < plot->n_ranks; i++)
    {
      double x0, x1, y;

      if (!isfinite (plot->baseline[i]))
        {
          drawing = FALSE;
          continue;
        }
      slot_span (area, plot->n_ranks, i, marks ? 0.95 : 1.0, &x0, &x1);
      y = _tprof_plot_area_y (area, plot->baseline[i]);
      if (marks || !drawing)
        cairo_move_to (cr, x0, y);
      else
        cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
      drawing = TRUE;
    }
  /* the text colour, as the histogram draws a baseline */
  _tprof_plot_set_rgba (cr, frame->theme->foreground);
  cairo_set_line_width (cr, frame->line * (marks ? 3 : 2));
  cairo_stroke (cr);
}

/* Names the two runs of a comparison in the top right corner. */
static void
draw_compare_legend (cairo_t              *cr,
                     const TprofPlotFrame *frame,
                     const TprofPlotRanks *plot,
                     const TprofPlotArea  *area)
{
  TprofPlotLegendItem items[2] = { { { 0 }, 1.0, NULL }, { { 0 }, 1.0, NULL } };
  double width, height;

  tprof_plot_palette_color (0, items[0].rgb);
  items[0].label = (char *) (plot->label != NULL ? plot->label : _("This run"));
  memcpy (items[1].rgb, frame->theme->foreground, sizeof items[1].rgb);
  items[1].alpha = frame->theme->foreground[3];
  items[1].label = (char *) (plot->baseline_label != NULL ? plot->baseline_label : _("Baseline"));
  _tprof_plot_legend_measure (cr, frame, items, 2, NULL, &width, &height);
  _tprof_plot_legend_draw (cr, frame, area->x + area->width - width - frame->font * 0.5,
                           area->y + frame->font * 0.5, items, 2, NULL);
}

/* Says what the whiskers (or, on narrow bars, the band) of the mean
 * chart stand for, in the top left corner of the data area. */
static void
draw_range_note (cairo_t              *cr,
                 const TprofPlotFrame *frame,
                 const TprofPlotArea  *area,
                 double                slot_px)
{
  TprofPlotFont font = { frame->font * 0.75, FALSE };
  /* TRANSLATORS: what the lines above and below each bar of the mean chart show */
  const char *note = slot_px >= 6 ? _("Whiskers: min–max") : _("Band: min–max");

  _tprof_plot_text_draw (cr, &font, note, area->x + frame->font * 0.5, area->y + frame->font * 0.5,
                         0, 0, FALSE, frame->theme->foreground);
}

static char *
slowest_subtitle (const TprofPlotRanks *plot,
                  gsize                 slowest,
                  gboolean              stands_out)
{
  char *value = tprof_format_duration (rank_value (plot, slowest), 3);
  const char *name = plot->bar_names != NULL ? plot->bar_names[slowest] : NULL;
  char *subtitle;

  if (name != NULL && plot->n_ranks < 2)
    /* TRANSLATORS: the only host shown and its time */
    subtitle = g_strdup_printf (_("%s (%s)"), name, value);
  else if (name != NULL && stands_out)
    /* TRANSLATORS: the host with the largest time and that time */
    subtitle = g_strdup_printf (_("Slowest: %s (%s)"), name, value);
  else if (name != NULL)
    /* TRANSLATORS: the hosts' times differ by less than noise; the largest one and its host */
    subtitle = g_strdup_printf (_("No host stands out (largest: %s, %s)"), name, value);
  else if (plot->n_ranks < 2)
    /* TRANSLATORS: the only rank shown and its time */
    subtitle = g_strdup_printf (_("Rank %d (%s)"), plot->ranks[slowest].rank, value);
  else if (stands_out && plot->group_name != NULL && in_group (plot, plot->ranks[slowest].rank))
    /* TRANSLATORS: the straggler host (node064), the slowest of its ranks and that rank's time */
    subtitle = g_strdup_printf (_("Slowest: host %s (rank %d, %s)"), plot->group_name, plot->ranks[slowest].rank,
                                value);
  else if (stands_out)
    /* TRANSLATORS: the rank with the largest time and that time */
    subtitle = g_strdup_printf (_("Slowest: rank %d (%s)"), plot->ranks[slowest].rank, value);
  else
    /* TRANSLATORS: the ranks' times differ by less than noise; the largest one and its rank */
    subtitle = g_strdup_printf (_("No rank stands out (largest: rank %d, %s)"), plot->ranks[slowest].rank, value);
  g_free (value);
  return subtitle;
}

void
tprof_plot_ranks_draw (cairo_t              *cr,
                       double                width,
                       double                height,
                       const TprofPlotRanks *plot,
                       const TprofPlotTheme *theme,
                       TprofPlotArea        *area)
{
  TprofPlotFrame frame;
  TprofPlotAxis y_axis;
  TprofPlotAxes axes = { 0 };
  gboolean *slowest;
  gint32 *categories;
  gsize slowest_index;
  char *subtitle;
  double top, y_max = 0, slot_px;
  const char *title;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  area = _tprof_plot_frame_begin (&frame, cr, width, height, theme, area);
  title = plot->title != NULL ? plot->title
        : plot->metric == TPROF_PLOT_RANK_MEAN ? _("Mean Time per Rank") : _("Time per Rank");

  if (plot->ranks == NULL || plot->n_ranks == 0)
    {
      top = _tprof_plot_frame_draw_titles (cr, &frame, title, NULL);
      _tprof_plot_frame_draw_message (cr, &frame, top, _("No samples"));
      cairo_restore (cr);
      return;
    }

  slowest = tprof_plot_ranks_find_marked (plot, &slowest_index);
  subtitle = slowest_subtitle (plot, slowest_index, slowest[slowest_index]);
  top = _tprof_plot_frame_draw_titles (cr, &frame, title, subtitle);
  g_free (subtitle);

  categories = g_new (gint32, plot->n_ranks);
  for (gsize i = 0; i < plot->n_ranks; i++)
    {
      categories[i] = plot->ranks[i].rank;
      if (isfinite (rank_top (plot, i)))
        y_max = MAX (y_max, rank_top (plot, i));
      if (plot->baseline != NULL && isfinite (plot->baseline[i]))
        y_max = MAX (y_max, plot->baseline[i]);
    }
  /* room above the tallest bar for the legend of a comparison */
  if (plot->baseline != NULL)
    y_max *= 1.25;
  _tprof_plot_axis_init_linear (&y_axis, TPROF_PLOT_AXIS_DURATION, 0, y_max > 0 ? y_max * 1.04 : 1e-3,
                                5, TRUE);
  axes.categories = categories;
  axes.category_labels = plot->bar_labels;
  axes.n_categories = (guint) plot->n_ranks;
  axes.y = &y_axis;
  axes.x_title = plot->x_title != NULL ? plot->x_title : _("Rank");
  axes.y_title = plot->metric == TPROF_PLOT_RANK_MEAN ? _("Mean time") : _("Total time");

  _tprof_plot_axes_layout (cr, &frame, &axes, top, area);
  _tprof_plot_axes_draw_grid (cr, &frame, &axes, area);

  cairo_save (cr);
  cairo_rectangle (cr, area->x, area->y - frame.font, area->width, area->height + frame.font);
  cairo_clip (cr);
  if (plot->hover_index >= 0 && (gsize) plot->hover_index < plot->n_ranks)
    draw_hover (cr, &frame, plot, area);
  slot_px = area->width / plot->n_ranks * (frame.theme->scale > 0 ? frame.theme->scale : 1);
  if (plot->metric == TPROF_PLOT_RANK_MEAN && slot_px < 6)
    draw_min_max_band (cr, plot, area);
  if (slot_px >= MIN_BAR_PIXELS)
    draw_bars (cr, &frame, plot, area, slowest, slot_px);
  else
    draw_band (cr, &frame, plot, area, slowest);
  if (plot->baseline != NULL)
    draw_baseline (cr, &frame, plot, area, slot_px);
  cairo_restore (cr);

  _tprof_plot_axes_draw (cr, &frame, &axes, area);
  if (plot->metric == TPROF_PLOT_RANK_MEAN)
    draw_range_note (cr, &frame, area, slot_px);
  if (plot->baseline != NULL)
    draw_compare_legend (cr, &frame, plot, area);
  cairo_restore (cr);
  g_free (categories);
  g_free (slowest);
}

void
tprof_plot_ranks_draw_default (cairo_t  *cr,
                               double    width,
                               double    height,
                               gpointer  user_data)
{
  tprof_plot_ranks_draw (cr, width, height, user_data, NULL, NULL);
}

double
tprof_plot_ranks_bars_width (double                width,
                             double                height,
                             const TprofPlotRanks *plot,
                             const TprofPlotTheme *theme)
{
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  TprofPlotRanks outline = *plot;
  TprofPlotArea area = { 0 };
  gsize tallest = 0;

  /* the layout alone: one bar as tall as the tallest keeps the axes */
  for (gsize i = 1; i < plot->n_ranks; i++)
    if (rank_top (plot, i) > rank_top (plot, tallest))
      tallest = i;
  outline.ranks = plot->n_ranks > 0 ? &plot->ranks[tallest] : NULL;
  outline.n_ranks = plot->n_ranks > 0 ? 1 : 0;
  outline.baseline = NULL;
  outline.bar_labels = NULL;
  outline.bar_names = NULL;
  outline.hover_index = -1;
  tprof_plot_ranks_draw (cr, width, height, &outline, theme, &area);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return area.width;
}

gssize
tprof_plot_ranks_hit (const TprofPlotRanks *plot,
                      const TprofPlotArea  *area,
                      double                x,
                      double                y)
{
  gsize i;

  g_return_val_if_fail (plot != NULL, -1);
  g_return_val_if_fail (area != NULL, -1);

  if (plot->n_ranks == 0 || !_tprof_plot_area_contains (area, x, y))
    return -1;
  i = (gsize) ((x - area->x) / (area->width / plot->n_ranks));
  return (gssize) MIN (i, plot->n_ranks - 1);
}
