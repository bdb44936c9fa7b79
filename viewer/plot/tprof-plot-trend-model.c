/* tprof-plot-trend-model.c — what a trend draws, from a heat map's cells: the band across ranks and the ranks drawn as lines. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "tprof-plot-private.h"

/* Up to this many ranks each get a line; beyond, the slowest few. */
#define TREND_ALL_RANKS 8
#define TREND_SLOWEST   3

guint
tprof_plot_trend_pick_series (const TprofRankSummary *ranks,
                              gsize                   n_ranks,
                              gint32                 *picked)
{
  g_autofree gboolean *taken = NULL;
  guint n = 0;

  if (n_ranks <= TREND_ALL_RANKS)
    {
      for (gsize i = 0; i < n_ranks; i++)
        picked[n++] = ranks[i].rank;
      return n;
    }
  taken = g_new0 (gboolean, n_ranks);
  for (guint k = 0; k < TREND_SLOWEST; k++)
    {
      gsize best = n_ranks;

      for (gsize i = 0; i < n_ranks; i++)
        if (!taken[i] && (best == n_ranks || ranks[i].sum > ranks[best].sum))
          best = i;
      taken[best] = TRUE;
      picked[n++] = ranks[best].rank;
    }
  return n;
}

TprofPlotTrendModel *
tprof_plot_trend_model_new (const double *cells,
                            guint         n_rows,
                            guint         n_cols,
                            gint32        first_rank,
                            gsize         n_occurrences,
                            const double *column_starts,
                            const gint32 *series_ranks,
                            guint         n_series)
{
  TprofPlotTrendModel *model = g_new0 (TprofPlotTrendModel, 1);

  g_autofree double *medians = g_new (double, MAX (n_cols, 1));
  /* a window of about 5 % of the columns, centred: drift, not noise */
  gsize half = (gsize) (n_cols * TPROF_PLOT_TREND_ROLLING_WINDOW / 2);

  model->band = g_new (TprofHeatmapBand, MAX (n_cols, 1));
  model->rolling = g_new (double, MAX (n_cols, 1));
  if (!tprof_heatmap_band (cells, n_rows, n_cols, model->band))
    {
      tprof_plot_trend_model_free (model);
      return NULL;
    }
  for (guint j = 0; j < n_cols; j++)
    medians[j] = model->band[j].median;
  if (!tprof_rolling_median (medians, n_cols, half, model->rolling))
    {
      tprof_plot_trend_model_free (model);
      return NULL;
    }
  model->n_series = MIN (n_series, TPROF_PLOT_TREND_MAX_SERIES);
  memcpy (model->series_ranks, series_ranks, model->n_series * sizeof (gint32));
  model->series = g_new (double, MAX (model->n_series, 1) * (gsize) n_cols);
  for (guint s = 0; s < model->n_series; s++)
    memcpy (model->series + (gsize) s * n_cols, cells + (gsize) (series_ranks[s] - first_rank) * n_cols,
            n_cols * sizeof (double));
  if (column_starts != NULL)
    model->column_starts = g_memdup2 (column_starts, MAX (n_cols, 1) * sizeof (double));
  model->plot.band = model->band;
  model->plot.rolling = model->rolling;
  model->plot.n_cols = n_cols;
  model->plot.n_occurrences = n_occurrences;
  model->plot.series = model->series;
  model->plot.series_ranks = model->series_ranks;
  model->plot.n_series = model->n_series;
  return model;
}

void
tprof_plot_trend_model_free (TprofPlotTrendModel *model)
{
  if (model == NULL)
    return;
  g_free (model->band);
  g_free (model->rolling);
  g_free (model->column_starts);
  g_free (model->series);
  g_free (model);
}
