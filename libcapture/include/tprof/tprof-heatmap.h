/* tprof-heatmap.h — one operation's durations as ranks x occurrences, downsampled by maximum: where and when a rank was slow (docs/analysis.md). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-macros.h>
#include <tprof/tprof-occurrences.h>

TPROF_BEGIN_DECLS

typedef enum
{
  TPROF_HEATMAP_DURATION,   /* the sample's time */
  TPROF_HEATMAP_DEVIATION,  /* its time minus the median time of that occurrence over
                               every rank that has it */
} TprofHeatmapValue;

/* The largest occurrence count of any rank of @occ: the heat map's width. */
TPROF_EXPORT size_t tprof_heatmap_occurrences (const TprofOccurrences *occ);

/* Fills @cells, @n_rows x @n_cols in row-major order: row i is rank
 * @rows[i]; column j covers occurrences [j n / @n_cols, (j + 1) n / @n_cols)
 * of n = tprof_heatmap_occurrences() (at least one each: @n_cols is capped
 * at n, and the columns used are returned). A cell holds the largest
 * @value of its occurrences on its rank, so that shrinking never hides a
 * stall; NaN when the rank has none of them. Returns 0 when memory is
 * exhausted or there is nothing to show. */
TPROF_EXPORT size_t tprof_heatmap_fill (const TprofOccurrences *occ,
                                        const int32_t          *rows,
                                        size_t                  n_rows,
                                        size_t                  n_cols,
                                        TprofHeatmapValue       value,
                                        double                 *cells);

/* @out[j] for each of the @n_cols columns tprof_heatmap_fill() makes
 * (same capping; the columns used are returned): when column j begins on
 * the timeline, the earliest start over every rank of its first
 * occurrence. 0 when the selection has no starts or nothing to show. */
TPROF_EXPORT size_t tprof_heatmap_column_starts (const TprofOccurrences *occ,
                                                 size_t                  n_cols,
                                                 double                 *out);

/* The spread across ranks of one heat-map column (numpy's linear
 * quantiles over the rows that have a value; NaN where none has). */
typedef struct
{
  size_t n_ranks;
  double min;
  double p5;
  double median;
  double p95;
  double max;
} TprofHeatmapBand;

/* @band[j] for each of the @n_cols columns of @cells (@n_rows x @n_cols,
 * as tprof_heatmap_fill() wrote them): the trend of an operation across
 * ranks, occurrence by occurrence. False when memory is exhausted. */
TPROF_EXPORT bool tprof_heatmap_band (const double     *cells,
                                      size_t            n_rows,
                                      size_t            n_cols,
                                      TprofHeatmapBand *band);

/* @out[j] = numpy's median of the finite values of @values[j - @half ..
 * j + @half] (clipped to [0, @n)): a rolling median, to see drift through
 * an occurrence-by-occurrence series (a trend's median over ranks). NaN
 * where the window holds none. False when memory is exhausted. */
TPROF_EXPORT bool tprof_rolling_median (const double *values,
                                        size_t        n,
                                        size_t        half,
                                        double       *out);

/* Rows of a heat map (@cells: @n_rows x @n_cols, as tprof_heatmap_fill()
 * wrote them) merged into @n_bins rows (@out: @n_bins x @n_cols): row i
 * goes to row @row_bin[i] (none when >= @n_bins), and a merged cell holds
 * the largest finite value of its rows, so that merging the ranks of a
 * host never hides a stall; NaN where none has a value. */
TPROF_EXPORT void tprof_heatmap_merge_rows (const double *cells,
                                            size_t        n_rows,
                                            size_t        n_cols,
                                            const size_t *row_bin,
                                            size_t        n_bins,
                                            double       *out);

TPROF_END_DECLS
