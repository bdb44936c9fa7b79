/* tprof-profile-histogram.c — numpy.histogram of a rank selection, counted on sorted runs by searching the edges. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tprof-profile-index-private.h"

/* Guards memory against a pathological 'auto' result (numpy has no cap). */
#define MAX_AUTO_BINS 100000

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

/* numpy's 'auto': the narrower of the Freedman-Diaconis and Sturges widths. */
static gsize
auto_bins (gsize  n,
           double lo,
           double hi,
           double q25,
           double q75,
           double range_lo,
           double range_hi)
{
  double sturges = (hi - lo) / (log2 ((double) n) + 1.0);
  double fd = 2.0 * (q75 - q25) * pow ((double) n, -1.0 / 3.0);
  double width = fd > 0.0 ? MIN (fd, sturges) : sturges;
  double bins;

  if (!(width > 0.0))
    return 1;
  bins = ceil ((range_hi - range_lo) / width);
  return (gsize) CLAMP (bins, 1.0, (double) MAX_AUTO_BINS);
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
  double first;
  double last;

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

  if (separate)
    {
      hist->n_ranks = n_runs;
      hist->ranks = g_new (gint32, MAX (n_runs, 1));
      for (gsize r = 0; r < n_runs; r++)
        hist->ranks[r] = index->ops[op_i].ranks[runs[r].rank_index];
    }

  if (total == 0)
    return hist;

  if (log_scale)
    {
      first = log10 (lo);
      last = log10 (hi);
    }
  else
    {
      first = lo;
      last = hi;
    }
  if (first == last)
    {
      first -= 0.5;
      last += 0.5;
    }

  if (n_bins == TPROF_HISTOGRAM_AUTO_BINS)
    {
      double q25 = _tprof_runs_quantile (runs, n_runs, total, 0.25);
      double q75 = _tprof_runs_quantile (runs, n_runs, total, 0.75);

      if (log_scale)
        n_bins = auto_bins (total, log10 (lo), log10 (hi), log10 (q25), log10 (q75), first, last);
      else
        n_bins = auto_bins (total, lo, hi, q25, q75, first, last);
    }

  hist->n_bins = n_bins;
  hist->edges = g_new (double, n_bins + 1);
  hist->counts = g_new0 (guint64, n_bins);

  /* numpy.linspace: start + i * step, with the stop exact */
  {
    double step = (last - first) / (double) n_bins;

    for (gsize i = 0; i < n_bins; i++)
      {
        double e = first + (double) i * step;

        hist->edges[i] = log_scale ? pow (10.0, e) : e;
      }
    hist->edges[n_bins] = log_scale ? pow (10.0, last) : last;
    /* keep the extreme samples inside despite pow()'s rounding */
    if (log_scale && lo != hi)
      {
        hist->edges[0] = lo;
        hist->edges[n_bins] = hi;
      }
  }

  if (separate)
    hist->rank_counts = g_new0 (guint64, n_runs * n_bins);

  count_runs (runs, n_runs, hist->edges, n_bins, hist->counts, hist->rank_counts);

  return hist;
}
