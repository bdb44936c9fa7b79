/* tprof-plot-hosts.c — the per-host chart: a bar of total time per host, slowest first, with its mean and late count written beside it. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* A row's height for @frame: a line of text and some air. */
static double
row_height (const TprofPlotFrame *frame)
{
  return frame->font * 1.7;
}

static char *
row_text (const TprofPlotHosts *plot,
          guint                 i)
{
  g_autofree char *mean = tprof_format_duration (plot->means[i], 3);

  if (plot->late == NULL)
    /* Translators: beside a host's bar: its mean time per sample */
    return g_strdup_printf (_("mean %s"), mean);
  /* Translators: beside a host's bar: its mean time per sample, and how many
   * times one of its ranks arrived last at a synchronising operation */
  return g_strdup_printf (_("mean %s · last %" PRId64 "×"), mean, plot->late[i]);
}

/* The rows that fit, their label column's width and the longest bar. */
static guint
layout_rows (cairo_t              *cr,
             const TprofPlotFrame *frame,
             const TprofPlotHosts *plot,
             double                top,
             double               *label_w,
             double               *max_total)
{
  TprofPlotFont font = { frame->font * 0.9, FALSE };
  guint fit = (guint) MAX ((frame->height - top - frame->pad) / row_height (frame), 0);
  guint n = MIN (plot->n_hosts, fit);

  *label_w = 0;
  *max_total = 0;
  for (guint i = 0; i < n; i++)
    {
      double w;

      _tprof_plot_text_extents (cr, &font, plot->names[i], &w, NULL);
      *label_w = MAX (*label_w, w);
      if (isfinite (plot->totals[i]))
        *max_total = MAX (*max_total, plot->totals[i]);
    }
  return n;
}

static void
draw_row (cairo_t              *cr,
          const TprofPlotFrame *frame,
          const TprofPlotHosts *plot,
          const TprofPlotArea  *area,
          guint                 i,
          double                max_total)
{
  TprofPlotFont font = { frame->font * 0.9, FALSE };
  double h = row_height (frame), y = area->y + i * h, rgb[3];
  double w = max_total > 0 && isfinite (plot->totals[i]) ? plot->totals[i] / max_total * area->width : 0;
  g_autofree char *total = tprof_format_duration (plot->totals[i], 3);
  g_autofree char *text = row_text (plot, i);
  g_autofree char *line = g_strdup_printf ("%s · %s", total, text);

  _tprof_plot_text_draw (cr, &font, plot->names[i], area->x - frame->tick, y + h / 2, 1, 0.5, FALSE,
                         frame->theme->foreground);
  tprof_plot_palette_color (0, rgb);
  if (i == plot->hover)
    cairo_set_source_rgba (cr, frame->theme->highlight[0], frame->theme->highlight[1], frame->theme->highlight[2],
                           frame->theme->highlight[3]);
  else
    cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, area->x, y + h * 0.15, w, h * 0.7);
  cairo_fill (cr);
  /* the numbers inside a long bar, beside a short one */
  {
    double tw;

    _tprof_plot_text_extents (cr, &font, line, &tw, NULL);
    if (w > tw + frame->font)
      _tprof_plot_text_draw (cr, &font, line, area->x + w - frame->font * 0.4, y + h / 2, 1, 0.5, FALSE,
                             (const double[]) { 1, 1, 1, 1 });
    else
      _tprof_plot_text_draw (cr, &font, line, area->x + w + frame->font * 0.4, y + h / 2, 0, 0.5, FALSE,
                             frame->theme->foreground);
  }
}

void
tprof_plot_hosts_draw (cairo_t              *cr,
                       double                width,
                       double                height,
                       const TprofPlotHosts *plot,
                       const TprofPlotTheme *theme,
                       TprofPlotArea        *area)
{
  TprofPlotFrame frame;
  double top, label_w, max_total;
  guint n;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  area = _tprof_plot_frame_begin (&frame, cr, width, height, theme, area);
  top = _tprof_plot_frame_draw_titles (cr, &frame, plot->title != NULL ? plot->title : _("Time per Host"),
                                       plot->subtitle);
  n = layout_rows (cr, &frame, plot, top, &label_w, &max_total);
  if (n == 0)
    {
      _tprof_plot_frame_draw_message (cr, &frame, top, _("No samples"));
      cairo_restore (cr);
      return;
    }
  area->x = frame.pad + label_w + frame.tick;
  area->y = top;
  area->width = MAX (width - area->x - frame.pad, frame.font);
  area->height = n * row_height (&frame);
  area->x_min = 0;
  area->x_max = max_total;
  area->y_min = 0;
  area->y_max = n;
  for (guint i = 0; i < n; i++)
    draw_row (cr, &frame, plot, area, i, max_total);
  cairo_restore (cr);
}

void
tprof_plot_hosts_draw_default (cairo_t  *cr,
                               double    width,
                               double    height,
                               gpointer  user_data)
{
  tprof_plot_hosts_draw (cr, width, height, user_data, NULL, NULL);
}

gssize
tprof_plot_hosts_hit (const TprofPlotHosts *plot,
                      const TprofPlotArea  *area,
                      double                x,
                      double                y)
{
  gssize row;

  if (area->height <= 0 || y < area->y || y >= area->y + area->height || x < 0)
    return -1;
  row = (gssize) ((y - area->y) / area->height * area->y_max);
  return row >= 0 && (gsize) row < plot->n_hosts ? row : -1;
}

char *
tprof_plot_hosts_to_csv (const TprofPlotHosts *plot)
{
  GString *out = g_string_new ("host,ranks,count,total,mean,late\n");

  for (guint i = 0; i < plot->n_hosts; i++)
    {
      tprof_csv_append_text (out, plot->names[i]);
      g_string_append_printf (out, ",%zu,%" G_GINT64_FORMAT ",", plot->ranks[i], plot->counts[i]);
      tprof_append_exact_double (out, plot->totals[i]);
      g_string_append_c (out, ',');
      if (isfinite (plot->means[i]))
        tprof_append_exact_double (out, plot->means[i]);
      g_string_append_c (out, ',');
      if (plot->late != NULL)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, plot->late[i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
