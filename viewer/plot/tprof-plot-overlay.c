/* tprof-plot-overlay.c — which ranks an overlaid histogram draws one by one (the slowest) and the band for the rest. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

#define DEFAULT_MAX_LEGEND_RANKS 8
/* Up to one rank per palette colour, each rank is its own translucent
 * series. Beyond, colours would repeat (two ranks, one legend entry), and a
 * thousand overlaid series cost ~150 ms a frame and read as a smear: only the
 * slowest ranks keep their own series, the others become one band. */
#define MAX_OVERLAID_RANKS       TPROF_PLOT_PALETTE_SIZE
/* Beside the band, a few slowest ranks are enough to show stragglers, and
 * they keep to the palette's first, most distinct colours (its last is a grey
 * like the band's). */
#define BAND_SERIES              4

const TprofRankSummary *
_tprof_plot_find_rank_summary (const TprofPlotHistogram *plot,
                               gint32                    rank)
{
  gsize lo = 0, hi = plot->n_rank_summaries;

  if (plot->rank_summaries == NULL)
    return NULL;
  while (lo < hi)
    {
      gsize mid = (lo + hi) / 2;

      if (plot->rank_summaries[mid].rank < rank)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < plot->n_rank_summaries && plot->rank_summaries[lo].rank == rank)
    return &plot->rank_summaries[lo];
  return NULL;
}

/* The time a rank spent: from its summary, or else from its bins' centres. */
static double
rank_weight (const TprofPlotHistogram *plot,
             gsize                     r)
{
  const TprofHistogram *hist = plot->hist;
  const TprofRankSummary *summary = _tprof_plot_find_rank_summary (plot, hist->ranks[r]);
  const guint64 *row = hist->rank_counts + r * hist->n_bins;
  double total = 0;

  if (summary != NULL)
    return summary->sum;
  for (gsize i = 0; i < hist->n_bins; i++)
    total += (double) row[i] * (hist->edges[i] + hist->edges[i + 1]) / 2;
  return total;
}

typedef struct
{
  gsize  row;
  double weight;
} WeightedRow;

static gint
compare_weight_desc (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const WeightedRow *x = a;
  const WeightedRow *y = b;

  if (x->weight != y->weight)
    return x->weight < y->weight ? 1 : -1;
  return (x->row > y->row) - (x->row < y->row);
}

guint
_tprof_plot_max_legend_ranks (const TprofPlotHistogram *plot)
{
  return plot->max_legend_ranks > 0 ? plot->max_legend_ranks : DEFAULT_MAX_LEGEND_RANKS;
}

void
_tprof_plot_overlay_init (TprofPlotOverlay         *overlay,
                          const TprofPlotHistogram *plot)
{
  gsize n_ranks = plot->hist->n_ranks;
  WeightedRow *order;

  overlay->band = n_ranks > MAX_OVERLAID_RANKS;
  overlay->n_rows = overlay->band ? MIN (_tprof_plot_max_legend_ranks (plot), BAND_SERIES) : n_ranks;
  overlay->rows = g_new (gsize, MAX (overlay->n_rows, 1));
  if (!overlay->band)
    {
      for (gsize r = 0; r < n_ranks; r++)
        overlay->rows[r] = r;
      return;
    }

  order = g_new (WeightedRow, n_ranks);
  for (gsize r = 0; r < n_ranks; r++)
    order[r] = (WeightedRow) { r, rank_weight (plot, r) };
  g_qsort_with_data (order, (gint) n_ranks, sizeof *order, compare_weight_desc, NULL);
  for (gsize k = 0; k < overlay->n_rows; k++)
    overlay->rows[k] = order[k].row;
  g_free (order);
}

void
_tprof_plot_overlay_clear (TprofPlotOverlay *overlay)
{
  g_clear_pointer (&overlay->rows, g_free);
}

guint64 *
_tprof_plot_overlay_band_counts (const TprofPlotOverlay *overlay,
                                 const TprofHistogram   *hist)
{
  guint64 *band = g_new0 (guint64, hist->n_bins);
  gboolean *own = g_new0 (gboolean, hist->n_ranks);

  for (gsize k = 0; k < overlay->n_rows; k++)
    own[overlay->rows[k]] = TRUE;
  for (gsize r = 0; r < hist->n_ranks; r++)
    {
      const guint64 *row = hist->rank_counts + r * hist->n_bins;

      if (own[r])
        continue;
      for (gsize i = 0; i < hist->n_bins; i++)
        band[i] = MAX (band[i], row[i]);
    }
  g_free (own);
  return band;
}
