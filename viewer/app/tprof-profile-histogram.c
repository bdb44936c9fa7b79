/* tprof-profile-histogram.c — numpy.histogram of a rank selection, counted on sorted runs by searching the edges. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tprof-plot.h"
#include "tprof-profile-index-private.h"

void
_tprof_histogram_free (TprofHistogram *hist)
{
  if (hist == NULL)
    return;

  g_free (hist->edges);
  g_free (hist->counts);
  g_free (hist->ranks);
  g_free (hist->rank_counts);
  g_free (hist);
}

/* numpy's 'auto' on the selection, or on its log10 for a log axis, as
 * tprof_histogram_compute() counts it over [@first, @last] (the extremes,
 * in log10 for a log axis): the narrower of the Freedman-Diaconis and Sturges
 * widths, the quartiles interpolated between log10 of the order statistics.
 * Unlike numpy, capped at TPROF_PLOT_MAX_AUTO_BINS. */
static gsize
auto_bins (TprofRun *runs,
           gsize     n_runs,
           gsize     total,
           double    first,
           double    last,
           gboolean  log_scale)
{
  double (*map) (double) = log_scale ? log10 : NULL;
  double ptp = last - first;
  double sturges, fd, width, bins;

  if (total < 2 || ptp == 0.0)
    return 1;

  sturges = ptp / (log2 ((double) total) + 1.0);
  fd = 2.0 * (_tprof_runs_quantile (runs, n_runs, total, 0.75, map)
              - _tprof_runs_quantile (runs, n_runs, total, 0.25, map)) * pow ((double) total, -1.0 / 3.0);
  /* Python's min (fd, sturges) keeps fd unless sturges is strictly smaller */
  width = fd != 0.0 ? (sturges < fd ? sturges : fd) : sturges;
  if (!(width > 0.0))
    return 1;
  bins = ceil (ptp / width);
  return (gsize) CLAMP (bins, 1.0, (double) TPROF_PLOT_MAX_AUTO_BINS);
}

/* The edges of @n_bins bins that libcapture, and so `tprof hist`, gives a
 * selection whose extremes (positive extremes for a log axis) are @lo and
 * @hi: they depend on nothing else, so asking libcapture with just those two
 * samples shares its code and its rounding instead of repeating them. */
static double *
library_edges (double   lo,
               double   hi,
               gsize    n_bins,
               gboolean log_scale)
{
  const double extremes[] = { lo, hi };
  const gint32 ranks[] = { 0, 0 };
  TprofGatheredTime *gt = tprof_gathered_time_new (extremes, ranks, G_N_ELEMENTS (extremes));
  TprofHistogram *hist = gt != NULL ? tprof_histogram_compute (gt, n_bins,
                                                               log_scale ? TPROF_HISTOGRAM_LOG
                                                                         : TPROF_HISTOGRAM_DEFAULT)
                                    : NULL;
  double *edges;

  if (hist == NULL || hist->n_bins != n_bins)
    g_error ("libtprof-capture could not place %zu histogram edges", n_bins);
  edges = g_memdup2 (hist->edges, (n_bins + 1) * sizeof *edges);
  tprof_histogram_free (hist);
  tprof_gathered_time_free (gt);
  return edges;
}

/* Runs counted side by side: their searches are independent, so the CPU
 * overlaps their cache misses, which is what bounds this loop. */
#define LANES 8

/* The edges span the selection's extremes, so every value of a run falls in
 * a bin: the first bin starts at 0 and the last, closed, ends at the run's end.
 * Each edge is found by branchless bisections of all lanes in lockstep. */
static void
count_runs (const TprofRun *runs,
            gsize           n_runs,
            const double   *edges,
            gsize           n_bins,
            guint64        *counts,
            guint64        *rank_counts)
{
  for (gsize first = 0; first < n_runs; first += LANES)
    {
      gsize lanes = MIN (LANES, n_runs - first);
      const double *base[LANES];
      gsize prev[LANES] = { 0 };
      gsize n[LANES];
      gsize hint[LANES];
      static const double infinity = INFINITY;

      for (gsize l = 0; l < lanes; l++)
        hint[l] = MAX (2 * runs[first + l].len / n_bins, 2);

      for (gsize i = 0; i < n_bins; i++)
        {
          double x = edges[i + 1];
          gboolean more = FALSE;

          if (i + 1 == n_bins)
            {
              for (gsize l = 0; l < lanes; l++)
                {
                  gsize c = runs[first + l].len - prev[l];

                  counts[i] += c;
                  if (rank_counts != NULL)
                    rank_counts[(first + l) * n_bins + i] = c;
                }
              break;
            }

          /* a window from prev that ends at or past x, grown from the expected bin width */
          for (gsize l = 0; l < lanes; l++)
            {
              const TprofRun *run = &runs[first + l];
              gsize rest = run->len - prev[l];
              gsize w = MIN (hint[l], rest);

              while (w < rest && run->values[prev[l] + w - 1] < x)
                w = MIN (2 * w, rest);
              base[l] = w > 0 ? run->values + prev[l] : &infinity;
              n[l] = w;
              more |= n[l] > 1;
            }

          /* lower bound of x in each lane's [prev, len); a lane with n <= 1 stays put */
          while (more)
            {
              more = FALSE;
              for (gsize l = 0; l < lanes; l++)
                {
                  gsize half = n[l] / 2;

                  base[l] = base[l][half] < x ? base[l] + half : base[l];
                  n[l] -= half;
                  more |= n[l] > 1;
                }
            }

          for (gsize l = 0; l < lanes; l++)
            {
              const TprofRun *run = &runs[first + l];
              gsize next = n[l] == 0 ? prev[l] : (gsize) (base[l] - run->values) + (*base[l] < x);

              counts[i] += next - prev[l];
              if (rank_counts != NULL)
                rank_counts[(first + l) * n_bins + i] = next - prev[l];
              prev[l] = next;
            }
        }
    }
}

TprofHistogram *
_tprof_profile_index_histogram (const TprofProfileIndex *index,
                                gsize                    op_i,
                                const guint8            *mask,
                                gsize                    n_bins,
                                TprofHistogramFlags      flags)
{
  g_autofree TprofRun *runs = NULL;
  TprofHistogram *hist;
  gboolean log_scale = (flags & TPROF_HISTOGRAM_LOG) != 0;
  gboolean separate = (flags & TPROF_HISTOGRAM_SEPARATE_RANKS) != 0;
  gsize n_runs;
  gsize total = 0;
  double lo = INFINITY;
  double hi = -INFINITY;

  g_return_val_if_fail (op_i < index->n_ops, NULL);

  hist = g_new0 (TprofHistogram, 1);
  n_runs = _tprof_op_index_select_runs (&index->ops[op_i], mask, &runs);

  /* A log axis leaves out the samples <= 0: start each run past them. */
  for (gsize r = 0; r < n_runs; r++)
    {
      if (log_scale)
        {
          gsize skip = _tprof_sorted_search (runs[r].values, 0, runs[r].len, 0.0, TRUE);

          hist->n_nonpositive += skip;
          runs[r].values += skip;
          runs[r].len -= skip;
        }
      total += runs[r].len;
      if (runs[r].len == 0)
        continue;
      lo = MIN (lo, runs[r].values[0]);
      hi = MAX (hi, runs[r].values[runs[r].len - 1]);
    }

  /* like tprof_histogram_compute(), nothing to bin means no ranks either */
  if (total == 0)
    return hist;

  if (separate)
    {
      hist->n_ranks = n_runs;
      hist->ranks = g_new (gint32, n_runs);
      for (gsize r = 0; r < n_runs; r++)
        hist->ranks[r] = index->ops[op_i].ranks[runs[r].rank_index];
    }

  if (n_bins == TPROF_HISTOGRAM_AUTO_BINS)
    n_bins = log_scale ? auto_bins (runs, n_runs, total, log10 (lo), log10 (hi), TRUE)
                       : auto_bins (runs, n_runs, total, lo, hi, FALSE);

  hist->n_bins = n_bins;
  hist->edges = library_edges (lo, hi, n_bins, log_scale);
  hist->counts = g_new0 (guint64, n_bins);

  if (separate)
    hist->rank_counts = g_new0 (guint64, n_runs * n_bins);

  count_runs (runs, n_runs, hist->edges, n_bins, hist->counts, hist->rank_counts);

  return hist;
}
