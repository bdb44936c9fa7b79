/* tprof-plot-csv.c — the numbers behind each chart as CSV, in seconds at full precision: the same for an export from the viewer and from tprof plot. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tprof-plot-private.h"

char *
tprof_plot_histogram_to_csv (const TprofHistogram *hist)
{
  GString *out;

  g_return_val_if_fail (hist != NULL, NULL);

  out = g_string_new ("left,right,count");
  for (gsize r = 0; r < hist->n_ranks && hist->rank_counts != NULL; r++)
    g_string_append_printf (out, ",rank_%d", hist->ranks[r]);
  g_string_append_c (out, '\n');

  for (gsize i = 0; i < hist->n_bins; i++)
    {
      tprof_append_exact_double (out, hist->edges[i]);
      g_string_append_c (out, ',');
      tprof_append_exact_double (out, hist->edges[i + 1]);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT, hist->counts[i]);
      for (gsize r = 0; r < hist->n_ranks && hist->rank_counts != NULL; r++)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, hist->rank_counts[r * hist->n_bins + i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* A comma, then @value unless it is not finite (an empty field). */
static void
csv_append_value (GString *out,
                  double   value)
{
  g_string_append_c (out, ',');
  if (isfinite (value))
    tprof_append_exact_double (out, value);
}

char *
tprof_plot_heatmap_to_csv (const TprofPlotHeatmap *plot)
{
  GString *out;

  g_return_val_if_fail (plot != NULL, NULL);
  /* rows of hosts are named by their hosts */
  out = g_string_new (plot->row_labels != NULL ? "host" : "rank");
  g_string_append (out, plot->value == TPROF_HEATMAP_DEVIATION ? ",first,last,deviation\n" : ",first,last,duration\n");
  for (guint i = 0; i < plot->n_rows; i++)
    for (guint j = 0; j < plot->n_cols; j++)
      {
        double v = plot->cells[(gsize) i * plot->n_cols + j];

        if (isnan (v))
          continue;
        if (plot->row_labels != NULL)
          tprof_csv_append_text (out, plot->row_labels[i]);
        else
          g_string_append_printf (out, "%d", plot->row_ranks != NULL ? plot->row_ranks[i] : plot->first_rank + (int) i);
        g_string_append_printf (out, ",%zu,%zu", j * plot->n_occurrences / plot->n_cols,
                                (j + 1) * plot->n_occurrences / plot->n_cols - 1);
        csv_append_value (out, v);
        g_string_append_c (out, '\n');
      }
  return g_string_free (out, FALSE);
}

char *
tprof_plot_trend_to_csv (const TprofPlotTrend *plot)
{
  GString *out;

  g_return_val_if_fail (plot != NULL, NULL);
  out = g_string_new ("first,last");
  /* against the timeline: where each column begins */
  if (plot->column_starts != NULL)
    g_string_append (out, ",start");
  g_string_append (out, ",ranks,min,p5,median,p95,max");
  if (plot->rolling != NULL)
    g_string_append (out, ",rolling_median");
  for (guint s = 0; s < plot->n_series; s++)
    g_string_append_printf (out, ",rank_%d", plot->series_ranks[s]);
  g_string_append_c (out, '\n');
  for (guint j = 0; j < plot->n_cols; j++)
    {
      const TprofHeatmapBand *b = &plot->band[j];

      g_string_append_printf (out, "%zu,%zu", j * plot->n_occurrences / plot->n_cols,
                              (j + 1) * plot->n_occurrences / plot->n_cols - 1);
      if (plot->column_starts != NULL)
        csv_append_value (out, plot->column_starts[j]);
      g_string_append_printf (out, ",%zu", b->n_ranks);
      csv_append_value (out, b->min);
      csv_append_value (out, b->p5);
      csv_append_value (out, b->median);
      csv_append_value (out, b->p95);
      csv_append_value (out, b->max);
      if (plot->rolling != NULL)
        csv_append_value (out, plot->rolling[j]);
      for (guint s = 0; s < plot->n_series; s++)
        csv_append_value (out, plot->series[(gsize) s * plot->n_cols + j]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

char *
tprof_plot_breakdown_to_csv (const TprofPlotBreakdown *plot)
{
  GString *out;

  g_return_val_if_fail (plot != NULL, NULL);
  /* bars of hosts are named by their hosts */
  out = g_string_new (plot->bar_labels != NULL ? "host" : "rank");
  for (guint p = 0; p < plot->n_parts; p++)
    {
      g_string_append_c (out, ',');
      tprof_csv_append_text (out, plot->part_names[p]);
    }
  g_string_append_c (out, '\n');
  for (guint r = 0; r < plot->n_ranks; r++)
    {
      if (plot->bar_labels != NULL)
        tprof_csv_append_text (out, plot->bar_labels[r]);
      else
        g_string_append_printf (out, "%d", plot->ranks[r]);
      for (guint p = 0; p < plot->n_parts; p++)
        csv_append_value (out, plot->values[(gsize) p * plot->n_ranks + r]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
