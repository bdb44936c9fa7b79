/* tprof-stats-batch.c — the figures a profile caches, for many operations laid end to end in one pass: no allocation for a small operation. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-stats-parts-internal.h"

/* Up to this many samples an operation is summarized on the stack: a
 * sorted copy gives its quantiles. Larger ones take the whole-selection
 * functions (threads, sampled selection), whose set-up they amortize. */
#define BATCH_SMALL 64

_Static_assert (TPROF_SUMMARY_N_QUANTILES <= TPROF_QUANTILE_SPOTS_MAX, "the summary's quantiles fit the spots");

/* numpy's sum: one buffer needs neither threads nor a buffer table. */
static double
batch_sum (const double *x,
           size_t        n)
{
  if (n <= TPROF_NUMPY_BUFFER)
    return _tprof_values_sum_buffers (x, n, NULL, NULL, NULL);
  return _tprof_values_sum (x, n);
}

/* Extremes of @n > 0 finite values. */
static void
batch_min_max (const double *x,
               size_t        n,
               double       *min,
               double       *max)
{
  double lo = x[0], hi = x[0];

  if (n > BATCH_SMALL)
    {
      _tprof_values_min_max (x, n, min, max);
      return;
    }
  for (size_t i = 1; i < n; i++)
    {
      lo = x[i] < lo ? x[i] : lo;
      hi = x[i] > hi ? x[i] : hi;
    }
  *min = lo;
  *max = hi;
}

/* Extremes, median, p95 and p99 of @n > 0 values into @s: a small
 * operation's from a sorted copy on the stack, read in place (up to
 * TPROF_SORT_FEW values sorted by a network, a few more by insertion)
 * where @spots, worked out again only when @n changes, says. */
static bool
batch_order_figures (const double       *x,
                     size_t              n,
                     TprofQuantileSpots *spots,
                     TprofBatchSummary  *s)
{
  const double *qs = _tprof_summary_percentiles;
  double sorted[BATCH_SMALL], q[TPROF_SUMMARY_N_QUANTILES];

  if (n > BATCH_SMALL)
    {
      batch_min_max (x, n, &s->min, &s->max);
      if (!_tprof_quantiles_of (x, n, qs, TPROF_SUMMARY_N_QUANTILES, q))
        return false;
    }
  else
    {
      if (n <= TPROF_SORT_FEW)
        _tprof_sort_few (x, n, sorted);
      else
        {
          memcpy (sorted, x, n * sizeof *sorted);
          _tprof_insertion_sort (sorted, 0, n - 1);
        }
      s->min = sorted[0];
      s->max = sorted[n - 1];
      if (spots->n != n)
        _tprof_quantile_spots (spots, n, qs, TPROF_SUMMARY_N_QUANTILES);
      _tprof_sorted_quantiles_at (sorted, spots, q);
    }
  s->median = q[0];
  s->p95 = q[1];
  s->p99 = q[2];
  return true;
}

/* The std from the squared deviations, numpy's way. */
static double
batch_std (const double *x,
           size_t        n,
           double        mean)
{
  if (n < 2)
    return NAN;
  if (n <= TPROF_NUMPY_BUFFER)
    return _tprof_std_of_squared_deviations (_tprof_values_squared_deviations_serial (x, n, mean), n);
  return _tprof_values_std (x, n, mean);
}

/* The figures of one operation of @n values at @x into @s; @spots kept
 * from the operation before. */
static bool
batch_summarize_one (const double       *x,
                     size_t              n,
                     TprofQuantileSpots *spots,
                     TprofBatchSummary  *s)
{
  *s = (TprofBatchSummary) { n, 0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
  if (n == 0)
    return true;
  s->sum = batch_sum (x, n);
  s->mean = s->sum / (double) n;
  s->std = batch_std (x, n, s->mean);
  return batch_order_figures (x, n, spots, s);
}

bool
_tprof_batch_summarize (const double      *times,
                        const uint64_t    *rows,
                        size_t             n_ops,
                        TprofBatchSummary *out)
{
  TprofQuantileSpots spots = { .n = 0 };

  for (size_t k = 0; k < n_ops; k++)
    if (!batch_summarize_one (times + rows[k], (size_t) (rows[k + 1] - rows[k]), &spots, &out[k]))
      return false;
  return true;
}

/* A part's count, sum and extremes; its @sum already known. */
static void
batch_part_of (const double  *x,
               size_t         n,
               double         sum,
               TprofPartSums *out)
{
  _tprof_part_sums_init (out);
  if (n == 0)
    return;
  out->count = n;
  out->sum = sum;
  batch_min_max (x, n, &out->min, &out->max);
}

void
_tprof_batch_part_sums (const double   *times,
                        const uint64_t *bounds,
                        size_t          n_parts,
                        TprofPartSums  *out)
{
  for (size_t s = 0; s < n_parts; s++)
    {
      size_t n = (size_t) (bounds[s + 1] - bounds[s]);

      batch_part_of (times + bounds[s], n, n > 0 ? batch_sum (times + bounds[s], n) : 0.0, &out[s]);
    }
}

struct _TprofBatchState
{
  TprofQuantileSpots spots;
};

TprofBatchState *
_tprof_batch_state_new (void)
{
  TprofBatchState *state = malloc (sizeof *state);

  if (state != NULL)
    state->spots.n = 0;
  return state;
}

void
_tprof_batch_state_free (TprofBatchState *state)
{
  free (state);
}

bool
_tprof_batch_summarize_parts (TprofBatchState   *state,
                              const double      *times,
                              size_t             n,
                              const uint64_t    *bounds,
                              size_t             n_parts,
                              TprofBatchSummary *out,
                              TprofPartSums     *parts)
{
  if (!batch_summarize_one (times, n, &state->spots, out))
    return false;
  /* a lone part is the whole: the same sum of the same values */
  if (n_parts == 1 && bounds[0] == 0 && bounds[1] == n)
    batch_part_of (times, n, out->sum, &parts[0]);
  else
    _tprof_batch_part_sums (times, bounds, n_parts, parts);
  return true;
}
