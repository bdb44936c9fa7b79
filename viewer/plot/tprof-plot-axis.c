/* tprof-plot-axis.c — nice ticks for linear and log axes, their labels, and the axes drawn around a chart. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include "tprof-plot-private.h"

double
_tprof_plot_nice_step (double raw)
{
  double magnitude, norm;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  magnitude = pow (10, floor (log10 (raw)));
  norm = raw / magnitude;
  if (norm <= 1 + 1e-9)
    return magnitude;
  if (norm <= 2 + 1e-9)
    return 2 * magnitude;
  if (norm <= 5 + 1e-9)
    return 5 * magnitude;
  return 10 * magnitude;
}

/* The 1, 2 or 5 times a power of ten nearest to @raw (geometrically), so
 * that an axis gets about as many ticks as asked, not up to half as many. */
static double
round_step (double raw)
{
  double magnitude, norm;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  magnitude = pow (10, floor (log10 (raw)));
  norm = raw / magnitude;
  if (norm < G_SQRT2)
    return magnitude;
  if (norm < sqrt (10))
    return 2 * magnitude;
  if (norm < sqrt (50))
    return 5 * magnitude;
  return 10 * magnitude;
}

static void
add_linear_ticks (TprofPlotAxis *axis,
                  double         lo,
                  double         hi,
                  double         step)
{
  double first = ceil (lo / step - 1e-9);
  double k;

  axis->step = step;
  axis->n_ticks = 0;
  for (k = first; k * step <= hi + step * 1e-9 && axis->n_ticks < TPROF_PLOT_AXIS_MAX_TICKS; k++)
    axis->ticks[axis->n_ticks++] = k * step;
}

void
_tprof_plot_axis_init_linear (TprofPlotAxis     *axis,
                              TprofPlotAxisKind  kind,
                              double             lo,
                              double             hi,
                              guint              target,
                              gboolean           expand)
{
  double step;

  if (!isfinite (lo) || !isfinite (hi))
    lo = 0, hi = 1;
  if (hi <= lo)
    hi = lo + (lo != 0 ? fabs (lo) : 1);
  step = round_step ((hi - lo) / MAX (target, 1));
  if (kind == TPROF_PLOT_AXIS_COUNT)
    step = MAX (step, 1);  /* no "0.5" between two whole counts */

  *axis = (TprofPlotAxis) { .kind = kind };
  axis->log = FALSE;
  axis->min = expand ? floor (lo / step + 1e-9) * step : lo;
  axis->max = expand ? ceil (hi / step - 1e-9) * step : hi;
  add_linear_ticks (axis, axis->min, axis->max, step);
}

static guint
collect_log_ticks (TprofPlotAxis *axis,
                   const double  *multipliers,
                   guint          n_multipliers,
                   guint          decade_step)
{
  int first = (int) floor (log10 (axis->min));
  int last = (int) ceil (log10 (axis->max));
  int d;

  axis->n_ticks = 0;
  for (d = first; d <= last; d++)
    {
      if (((d % (int) decade_step) + (int) decade_step) % (int) decade_step != 0)
        continue;
      for (guint m = 0; m < n_multipliers; m++)
        {
          double v = multipliers[m] * pow (10, d);

          if (v >= axis->min * (1 - 1e-9) && v <= axis->max * (1 + 1e-9)
              && axis->n_ticks < TPROF_PLOT_AXIS_MAX_TICKS)
            axis->ticks[axis->n_ticks++] = v;
        }
    }
  return axis->n_ticks;
}

void
_tprof_plot_axis_init_log (TprofPlotAxis     *axis,
                           TprofPlotAxisKind  kind,
                           double             lo,
                           double             hi)
{
  static const double decades[] = { 1 };
  static const double one_two_five[] = { 1, 2, 5 };
  guint n_decades;

  if (!(lo > 0) || !isfinite (lo))
    lo = hi > 0 && isfinite (hi) ? hi / 10 : 1;
  if (!(hi > lo) || !isfinite (hi))
    hi = lo * 10;

  *axis = (TprofPlotAxis) { .kind = kind };
  axis->log = TRUE;
  axis->min = lo;
  axis->max = hi;
  axis->step = 0;

  n_decades = (guint) (ceil (log10 (hi)) - floor (log10 (lo))) + 1;
  if (collect_log_ticks (axis, decades, 1, 1) >= 3)
    {
      /* Many decades: every second, fifth... so that about 8 remain. */
      if (axis->n_ticks > 8)
        collect_log_ticks (axis, decades, 1, (guint) _tprof_plot_nice_step (n_decades / 8.0));
      return;
    }
  if (collect_log_ticks (axis, one_two_five, G_N_ELEMENTS (one_two_five), 1) >= 3)
    return;

  /* Less than a decade: plain steps, still valid positions on a log scale. */
  add_linear_ticks (axis, lo, hi, _tprof_plot_nice_step ((hi - lo) / 4));
}

double
_tprof_plot_axis_fraction (const TprofPlotAxis *axis,
                           double               v)
{
  double f;

  if (axis->log)
    f = v > 0 ? (log10 (v) - log10 (axis->min)) / (log10 (axis->max) - log10 (axis->min)) : -1;
  else
    f = (v - axis->min) / (axis->max - axis->min);
  return CLAMP (f, -1.0, 2.0);
}

double
_tprof_plot_axis_value (const TprofPlotAxis *axis,
                        double               fraction)
{
  if (axis->log)
    return pow (10, log10 (axis->min) + fraction * (log10 (axis->max) - log10 (axis->min)));
  return axis->min + fraction * (axis->max - axis->min);
}

char *
_tprof_plot_axis_tick_label (const TprofPlotAxis *axis,
                             guint                i)
{
  double v = axis->ticks[i];
  double max_abs = 0;

  if (axis->labels != NULL || axis->text_labels != NULL)
    {
      long row = lround (v);

      if (row < 0 || (gulong) row >= axis->n_labels || fabs (v - row) >= 1e-9)
        return g_strdup ("");
      return axis->text_labels != NULL ? g_strdup (axis->text_labels[row]) : g_strdup_printf ("%d", axis->labels[row]);
    }
  for (guint k = 0; k < axis->n_ticks; k++)
    max_abs = MAX (max_abs, fabs (axis->ticks[k]));

  if (axis->kind == TPROF_PLOT_AXIS_DURATION)
    {
      /* Ticks a decade apart each get their own unit: "1 µs", "10 ms". */
      if (axis->log && axis->step == 0)
        return _tprof_format_duration_round (v, 3);
      return _tprof_format_duration_tick (v, max_abs, axis->step);
    }
  if (axis->log && axis->step == 0)
    return _tprof_format_count_tick (v, v, 0);
  return _tprof_format_count_tick (v, max_abs, axis->step);
}

/* ---- mapping ---- */

static double
area_fraction (double v, double lo, double hi, gboolean log_scale)
{
  double f;

  if (log_scale)
    f = v > 0 ? (log10 (v) - log10 (lo)) / (log10 (hi) - log10 (lo)) : -1;
  else
    f = (v - lo) / (hi - lo);
  return CLAMP (f, -1.0, 2.0);
}

double
_tprof_plot_area_x (const TprofPlotArea *area,
                    double               v)
{
  return area->x + area->width * area_fraction (v, area->x_min, area->x_max, area->log_x);
}

double
_tprof_plot_area_y (const TprofPlotArea *area,
                    double               v)
{
  return area->y + area->height * (1 - area_fraction (v, area->y_min, area->y_max, area->log_y));
}

double
_tprof_plot_area_x_value (const TprofPlotArea *area,
                          double               x)
{
  double f = (x - area->x) / area->width;

  if (area->log_x)
    return pow (10, log10 (area->x_min) + f * (log10 (area->x_max) - log10 (area->x_min)));
  return area->x_min + f * (area->x_max - area->x_min);
}

gboolean
_tprof_plot_area_contains (const TprofPlotArea *area,
                           double               x,
                           double               y)
{
  return area->width > 0 && area->height > 0 &&
         x >= area->x && x <= area->x + area->width &&
         y >= area->y && y <= area->y + area->height;
}

/* ---- layout and drawing ---- */

static TprofPlotFont
tick_font (const TprofPlotFrame *frame)
{
  TprofPlotFont font = { frame->font * 0.85, FALSE };
  return font;
}

static TprofPlotFont
title_font (const TprofPlotFrame *frame)
{
  TprofPlotFont font = { frame->font, FALSE };
  return font;
}

static double
widest_y_label (cairo_t              *cr,
                const TprofPlotFrame *frame,
                const TprofPlotAxis  *axis)
{
  TprofPlotFont font = tick_font (frame);
  double widest = 0;

  for (guint i = 0; i < axis->n_ticks; i++)
    {
      char *label = _tprof_plot_axis_tick_label (axis, i);
      double w;

      _tprof_plot_text_extents (cr, &font, label, &w, NULL);
      widest = MAX (widest, w);
      g_free (label);
    }
  return widest;
}

void
_tprof_plot_axes_layout (cairo_t              *cr,
                         const TprofPlotFrame *frame,
                         const TprofPlotAxes  *axes,
                         double                top,
                         TprofPlotArea        *area)
{
  TprofPlotFont ticks = tick_font (frame);
  TprofPlotFont titles = title_font (frame);
  double tick_h, title_h, left, bottom, right;

  _tprof_plot_text_extents (cr, &ticks, "0", NULL, &tick_h);
  _tprof_plot_text_extents (cr, &titles, "Time", NULL, &title_h);

  left = frame->pad + widest_y_label (cr, frame, axes->y) + frame->tick + frame->font * 0.3;
  if (axes->y_title != NULL)
    left += title_h + frame->font * 0.4;
  bottom = frame->pad + tick_h + frame->tick + frame->font * 0.3;
  if (axes->x_title != NULL)
    bottom += title_h + frame->font * 0.3;
  /* room for half of the last x label, which is centred on the right edge */
  right = frame->pad + frame->font * 2.5;

  area->x = left;
  area->y = top;
  area->width = MAX (1, frame->width - left - right);
  area->height = MAX (1, frame->height - top - bottom);
  if (axes->x != NULL)
    {
      area->x_min = axes->x->min;
      area->x_max = axes->x->max;
      area->log_x = axes->x->log;
    }
  else
    {
      area->x_min = -0.5;
      area->x_max = axes->n_categories - 0.5;
      area->log_x = FALSE;
    }
  area->y_min = axes->y->min;
  area->y_max = axes->y->max;
  area->log_y = axes->y->log;
}

void
_tprof_plot_axes_draw_grid (cairo_t              *cr,
                            const TprofPlotFrame *frame,
                            const TprofPlotAxes  *axes,
                            const TprofPlotArea  *area)
{
  cairo_save (cr);
  cairo_set_line_width (cr, frame->line);
  _tprof_plot_set_rgba (cr, frame->theme->grid);
  for (guint i = 0; i < axes->y->n_ticks; i++)
    {
      double y = _tprof_plot_frame_snap (frame, _tprof_plot_area_y (area, axes->y->ticks[i]));

      cairo_move_to (cr, area->x, y);
      cairo_line_to (cr, area->x + area->width, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_x_tick (cairo_t              *cr,
             const TprofPlotFrame *frame,
             const TprofPlotArea  *area,
             double                x,
             const char           *label)
{
  TprofPlotFont font = tick_font (frame);
  double bottom = area->y + area->height;

  x = _tprof_plot_frame_snap (frame, x);
  cairo_move_to (cr, x, bottom);
  cairo_line_to (cr, x, bottom + frame->tick);
  cairo_stroke (cr);
  _tprof_plot_text_draw (cr, &font, label, x, bottom + frame->tick + frame->font * 0.15,
                         0.5, 0, FALSE, frame->theme->foreground);
}

static void
draw_numeric_x (cairo_t              *cr,
                const TprofPlotFrame *frame,
                const TprofPlotAxis  *axis,
                const TprofPlotArea  *area)
{
  TprofPlotFont font = tick_font (frame);
  double last_right = -G_MAXDOUBLE;

  for (guint i = 0; i < axis->n_ticks; i++)
    {
      char *label = _tprof_plot_axis_tick_label (axis, i);
      double x = _tprof_plot_area_x (area, axis->ticks[i]);
      double w;

      _tprof_plot_text_extents (cr, &font, label, &w, NULL);
      /* labels never overlap: a crowded one is skipped */
      if (x - w / 2 > last_right + frame->font * 0.5)
        {
          draw_x_tick (cr, frame, area, x, label);
          last_right = x + w / 2;
        }
      g_free (label);
    }
}

/* Names (hosts) under their slots, from the left, each one that does
 * not crowd the last drawn and ends under the plot (a run's name such as
 * "node12480–12499" centred on the last slot would run past the right
 * edge of the chart). */
static void
draw_named_x (cairo_t              *cr,
              const TprofPlotFrame *frame,
              const TprofPlotAxes  *axes,
              const TprofPlotArea  *area)
{
  TprofPlotFont font = tick_font (frame);
  double slot = area->width / axes->n_categories, last_right = -G_MAXDOUBLE;
  double right = area->x + area->width;

  for (guint i = 0; i < axes->n_categories; i++)
    {
      double x = area->x + (i + 0.5) * slot;
      double w;

      _tprof_plot_text_extents (cr, &font, axes->category_labels[i], &w, NULL);
      if (x - w / 2 <= last_right + frame->font * 0.8 || x + w / 2 > right)
        continue;
      draw_x_tick (cr, frame, area, x, axes->category_labels[i]);
      last_right = x + w / 2;
    }
}

static void
draw_category_x (cairo_t              *cr,
                 const TprofPlotFrame *frame,
                 const TprofPlotAxes  *axes,
                 const TprofPlotArea  *area)
{
  TprofPlotFont font = tick_font (frame);
  gint32 widest_value = 0;
  double slot, label_w, last_right = -G_MAXDOUBLE;
  char widest[32];
  gint32 step;

  if (axes->n_categories == 0)
    return;
  for (guint i = 0; i < axes->n_categories; i++)
    widest_value = MAX (widest_value, ABS (axes->categories[i]));
  g_snprintf (widest, sizeof widest, "%d", widest_value);
  _tprof_plot_text_extents (cr, &font, widest, &label_w, NULL);

  /* Label every rank that is a multiple of a nice step: 0, 50, 100... */
  slot = area->width / axes->n_categories;
  step = (gint32) _tprof_plot_nice_step ((label_w + frame->font * 1.5) / slot);
  step = MAX (step, 1);

  for (guint i = 0; i < axes->n_categories; i++)
    {
      gint32 value = axes->categories[i];
      double x = area->x + (i + 0.5) * slot;
      char label[32];
      double w;

      if (value % step != 0)
        continue;
      g_snprintf (label, sizeof label, "%d", value);
      _tprof_plot_text_extents (cr, &font, label, &w, NULL);
      if (x - w / 2 <= last_right + frame->font * 0.5)
        continue;
      draw_x_tick (cr, frame, area, x, label);
      last_right = x + w / 2;
    }
}

void
_tprof_plot_axes_draw (cairo_t              *cr,
                       const TprofPlotFrame *frame,
                       const TprofPlotAxes  *axes,
                       const TprofPlotArea  *area)
{
  TprofPlotFont ticks = tick_font (frame);
  TprofPlotFont titles = title_font (frame);
  double left = _tprof_plot_frame_snap (frame, area->x);
  double bottom = _tprof_plot_frame_snap (frame, area->y + area->height);
  double tick_h, widest;

  cairo_save (cr);
  cairo_set_line_width (cr, frame->line);
  _tprof_plot_set_rgba (cr, frame->theme->foreground);

  cairo_move_to (cr, left, area->y);
  cairo_line_to (cr, left, bottom);
  cairo_line_to (cr, area->x + area->width, bottom);
  cairo_stroke (cr);

  for (guint i = 0; i < axes->y->n_ticks; i++)
    {
      char *label = _tprof_plot_axis_tick_label (axes->y, i);
      double y = _tprof_plot_frame_snap (frame, _tprof_plot_area_y (area, axes->y->ticks[i]));

      cairo_move_to (cr, left - frame->tick, y);
      cairo_line_to (cr, left, y);
      cairo_stroke (cr);
      _tprof_plot_text_draw (cr, &ticks, label, left - frame->tick - frame->font * 0.3, y,
                             1, 0.5, FALSE, frame->theme->foreground);
      g_free (label);
    }

  if (axes->x != NULL)
    draw_numeric_x (cr, frame, axes->x, area);
  else if (axes->category_labels != NULL && axes->n_categories > 0)
    draw_named_x (cr, frame, axes, area);
  else
    draw_category_x (cr, frame, axes, area);

  _tprof_plot_text_extents (cr, &ticks, "0", NULL, &tick_h);
  if (axes->x_title != NULL)
    _tprof_plot_text_draw (cr, &titles, axes->x_title, area->x + area->width / 2,
                           bottom + frame->tick + frame->font * 0.3 + tick_h, 0.5, 0, FALSE,
                           frame->theme->foreground);
  if (axes->y_title != NULL)
    {
      widest = widest_y_label (cr, frame, axes->y);
      _tprof_plot_text_draw (cr, &titles, axes->y_title,
                             left - frame->tick - frame->font * 0.7 - widest,
                             area->y + area->height / 2, 0.5, 1, TRUE, frame->theme->foreground);
    }
  cairo_restore (cr);
}
