/* tprof-heatmap.c — ranks x occurrences of one operation, each cell the maximum of the occurrences it covers. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-heatmap.h>

#include "tprof-select-private.h"

/* min, p5, median, p95, max */
#define N_BAND_QUANTILES 5

size_t
tprof_heatmap_occurrences (const TprofOccurrences *occ)
{
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  size_t n = 0;

  for (size_t i = 0; i < tprof_occurrences_n_ranks (occ); i++)
    {
      size_t count = tprof_occurrences_count (occ, ranks[i]);

      if (count > n)
        n = count;
    }
  return n;
}

/* Occurrences whose medians are gathered at once: each rank's samples of
 * a block are read in order, rather than one occurrence at a time across
 * all the ranks. */
#define MEDIAN_BLOCK 64

/* The median over every rank with samples of each occurrence's time
 * (numpy's, through the one selection). */
static double *
occurrence_medians (const TprofOccurrences *occ,
                    size_t                  n)
{
  static const double half = 0.5;
  const double *times = tprof_gathered_time_times (tprof_occurrences_selection (occ));
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  size_t n_ranks = tprof_occurrences_n_ranks (occ), stride = n_ranks > 0 ? n_ranks : 1;
  double *medians = malloc (n * sizeof *medians);
  double *block = malloc (MEDIAN_BLOCK * stride * sizeof *block);
  size_t m[MEDIAN_BLOCK];

  if (medians == NULL || block == NULL)
    {
      free (medians);
      free (block);
      return NULL;
    }
  for (size_t k0 = 0; k0 < n; k0 += MEDIAN_BLOCK)
    {
      size_t width = n - k0 < MEDIAN_BLOCK ? n - k0 : MEDIAN_BLOCK;

      memset (m, 0, sizeof m);
      for (size_t i = 0; i < n_ranks; i++)
        for (size_t c = 0; c < width; c++)
          {
            size_t sample;

            if (tprof_occurrences_sample (occ, ranks[i], k0 + c, &sample))
              block[c * stride + m[c]++] = times[sample];
          }
      for (size_t c = 0; c < width; c++)
        {
          medians[k0 + c] = NAN;
          if (m[c] > 0 && !_tprof_select_quantiles (block + c * stride, m[c], &half, 1, &medians[k0 + c]))
            {
              free (medians);
              free (block);
              return NULL;
            }
        }
    }
  free (block);
  return medians;
}

size_t
tprof_heatmap_fill (const TprofOccurrences *occ,
                    const int32_t          *rows,
                    size_t                  n_rows,
                    size_t                  n_cols,
                    TprofHeatmapValue       value,
                    double                 *cells)
{
  const double *times = tprof_gathered_time_times (tprof_occurrences_selection (occ));
  size_t n = tprof_heatmap_occurrences (occ);
  double *medians = NULL;

  if (n == 0 || n_rows == 0 || n_cols == 0)
    return 0;
  if (n_cols > n)
    n_cols = n;
  if (value == TPROF_HEATMAP_DEVIATION && (medians = occurrence_medians (occ, n)) == NULL)
    return 0;
  for (size_t i = 0; i < n_rows; i++)
    for (size_t j = 0; j < n_cols; j++)
      {
        size_t first = j * n / n_cols, last = (j + 1) * n / n_cols;
        double cell = NAN;

        for (size_t k = first; k < last; k++)
          {
            size_t sample;
            double v;

            if (!tprof_occurrences_sample (occ, rows[i], k, &sample))
              continue;
            v = times[sample] - (medians != NULL ? medians[k] : 0.0);
            if (isnan (cell) || v > cell)
              cell = v;
          }
        cells[i * n_cols + j] = cell;
      }
  free (medians);
  return n_cols;
}

/* Columns gathered at once: the rows are read in order, a block of
 * columns at a time, rather than one column at a time down the rows
 * (a stride of a whole row per value). */
#define BAND_BLOCK 64

bool
tprof_heatmap_band (const double     *cells,
                    size_t            n_rows,
                    size_t            n_cols,
                    TprofHeatmapBand *band)
{
  static const double qs[] = { 0.0, 0.05, 0.5, 0.95, 1.0 };
  size_t rows = n_rows > 0 ? n_rows : 1;
  double *block = malloc (BAND_BLOCK * rows * sizeof *block);
  size_t m[BAND_BLOCK];

  if (block == NULL)
    return false;
  for (size_t j0 = 0; j0 < n_cols; j0 += BAND_BLOCK)
    {
      size_t width = n_cols - j0 < BAND_BLOCK ? n_cols - j0 : BAND_BLOCK;

      /* column j0 + c's values without NaN at block + c * rows */
      memset (m, 0, sizeof m);
      for (size_t i = 0; i < n_rows; i++)
        {
          const double *row = cells + i * n_cols + j0;

          for (size_t c = 0; c < width; c++)
            if (!isnan (row[c]))
              block[c * rows + m[c]++] = row[c];
        }
      for (size_t c = 0; c < width; c++)
        {
          TprofHeatmapBand *out = &band[j0 + c];
          double q[N_BAND_QUANTILES];

          out->n_ranks = m[c];
          if (m[c] == 0)
            {
              out->min = out->p5 = out->median = out->p95 = out->max = NAN;
              continue;
            }
          if (!_tprof_quantiles_of (block + c * rows, m[c], qs, N_BAND_QUANTILES, q))
            {
              free (block);
              return false;
            }
          out->min = q[0];
          out->p5 = q[1];
          out->median = q[2];
          out->p95 = q[3];
          out->max = q[4];
        }
    }
  free (block);
  return true;
}

size_t
tprof_heatmap_column_starts (const TprofOccurrences *occ,
                             size_t                  n_cols,
                             double                 *out)
{
  const double *starts = tprof_gathered_time_starts (tprof_occurrences_selection (occ));
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  size_t n = tprof_heatmap_occurrences (occ);

  if (starts == NULL || n == 0 || n_cols == 0)
    return 0;
  if (n_cols > n)
    n_cols = n;
  for (size_t j = 0; j < n_cols; j++)
    {
      size_t k = j * n / n_cols, sample;

      out[j] = NAN;
      for (size_t i = 0; i < tprof_occurrences_n_ranks (occ); i++)
        if (tprof_occurrences_sample (occ, ranks[i], k, &sample) && !(starts[sample] >= out[j]))
          out[j] = starts[sample];
    }
  return n_cols;
}

bool
tprof_rolling_median (const double *values,
                      size_t        n,
                      size_t        half,
                      double       *out)
{
  static const double median = 0.5;
  double *window = malloc ((2 * half + 1) * sizeof *window);

  if (window == NULL)
    return false;
  for (size_t j = 0; j < n; j++)
    {
      size_t lo = j > half ? j - half : 0, hi = j + half < n ? j + half : n - 1, m = 0;

      for (size_t k = lo; k <= hi; k++)
        if (isfinite (values[k]))
          window[m++] = values[k];
      out[j] = NAN;
      if (m > 0 && !_tprof_select_quantiles (window, m, &median, 1, &out[j]))
        {
          free (window);
          return false;
        }
    }
  free (window);
  return true;
}
