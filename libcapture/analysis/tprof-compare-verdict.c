/* tprof-compare-verdict.c — the test a comparison's verdict rests on: medians of blocks of occurrences for one run a side, medians of whole runs for several, and the run-to-run spread of a calibration. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-compare.h>
#include <tprof/tprof-occurrences.h>

#include "tprof-compare-private.h"
#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"

/* Mean and sum of squared deviations of @x[0..@n). */
static void
mean_and_squares (const double *x,
                  size_t        n,
                  double       *mean,
                  double       *squares)
{
  double m = 0.0, ss = 0.0;

  for (size_t i = 0; i < n; i++)
    m += x[i];
  m /= (double) n;
  for (size_t i = 0; i < n; i++)
    ss += (x[i] - m) * (x[i] - m);
  *mean = m;
  *squares = ss;
}

/* The two-sided p of the log ratio @difference over its standard @error
 * with @df degrees of freedom, and the 95% interval of the ratio the same
 * t makes; an error of 0 tells a difference for sure, or none. */
static void
set_t_test (TprofComparison  *out,
            TprofVerdictTest  test,
            double            difference,
            double            error,
            double            df)
{
  double half = error > 0.0 ? tprof_student_t_upper (0.025, df) * error : 0.0;

  out->verdict_test = test;
  out->verdict_df = df;
  if (!(error > 0.0))
    out->p_verdict_raw = difference == 0.0 ? 1.0 : 0.0;
  else
    out->p_verdict_raw = tprof_student_t_p (difference / error, df);
  out->p_verdict = out->p_verdict_raw;
  out->ci_low = exp (difference - half);
  out->ci_high = exp (difference + half);
}

/* No test (yet): the verdict's fields and the interval NaN / none. */
static void
clear_test (TprofComparison *out)
{
  out->verdict_test = TPROF_VERDICT_TEST_NONE;
  out->verdict_df = out->p_verdict_raw = out->p_verdict = out->ci_low = out->ci_high = NAN;
}

/* numpy's median of @values[0..@n) (@n > 0), reordered, in O(@n). */
static double
median_in_place (double *values,
                 size_t  n)
{
  size_t k = n / 2;
  double pair[2];

  _tprof_select_nth (values, n, k);
  if (n % 2 == 1)
    return values[k];
  /* the largest of those before the k-th is the (k-1)-th */
  pair[0] = values[0];
  for (size_t i = 1; i < k; i++)
    pair[0] = values[i] > pair[0] ? values[i] : pair[0];
  pair[1] = values[k];
  return _tprof_sorted_median (pair, 2);
}

/* ---- one run a side: blocks of consecutive occurrences ---- */

/* The largest occurrence count of a rank of @occ. */
static size_t
most_occurrences (const TprofOccurrences *occ)
{
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  size_t most = 0;

  for (size_t i = 0; i < tprof_occurrences_n_ranks (occ); i++)
    if (tprof_occurrences_count (occ, ranks[i]) > most)
      most = tprof_occurrences_count (occ, ranks[i]);
  return most;
}

static TprofOccurrences *
occurrences_of (const TprofGatheredTime *gt)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  int32_t top = 0;

  for (size_t i = 0; i < tprof_gathered_time_count (gt); i++)
    if (ranks[i] > top)
      top = ranks[i];
  return tprof_occurrences_new (gt, top + 1, NULL);
}

/* Into @medians[0..@n_blocks): the median of block b of @occ, which holds
 * occurrence k of a rank with c occurrences when b = floor (k n_blocks / c):
 * the same stretch of the run on every rank. */
static bool
block_medians (const TprofOccurrences *occ,
               size_t                  n_blocks,
               double                 *medians)
{
  const TprofGatheredTime *gt = tprof_occurrences_selection (occ);
  const double *times = tprof_gathered_time_times (gt);
  size_t n = tprof_gathered_time_count (gt);
  double *values = _tprof_malloc_array (n, sizeof *values);
  size_t *fill = calloc (n_blocks + 1, sizeof *fill);
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  bool ok = values != NULL && fill != NULL;

  /* counting sort of the samples by block: sizes, starts, then values */
  for (int pass = 0; ok && pass < 2; pass++)
    for (size_t i = 0; i < tprof_occurrences_n_ranks (occ); i++)
      {
        size_t count = tprof_occurrences_count (occ, ranks[i]), sample;

        for (size_t k = 0; k < count && tprof_occurrences_sample (occ, ranks[i], k, &sample); k++)
          {
            size_t b = k * n_blocks / count;

            if (pass == 0)
              fill[b + 1]++;
            else
              values[fill[b]++] = times[sample];
          }
        if (pass == 0 && i + 1 == tprof_occurrences_n_ranks (occ))
          for (size_t b = 0; b < n_blocks; b++)
            fill[b + 1] += fill[b];
      }
  for (size_t b = 0; ok && b < n_blocks; b++)
    {
      size_t start = b > 0 ? fill[b - 1] : 0;

      medians[b] = median_in_place (values + start, fill[b] - start);
    }
  free (values);
  free (fill);
  return ok;
}

/* The logs of @medians[0..@n) into @logs (which may be @medians); false
 * when one is not positive. */
static bool
logs_of (const double *medians,
         size_t        n,
         double       *logs)
{
  for (size_t i = 0; i < n; i++)
    {
      if (!(medians[i] > 0.0))
        return false;
      logs[i] = log (medians[i]);
    }
  return true;
}

/* How whole ranks of the runs compared differ: the sum over the runs of
 * the squared deviations of the logs of their ranks' medians from the
 * run's mean, and its degrees of freedom (a run's ranks - 1 each). */
typedef struct
{
  double squares;
  double df;
} RankSpread;

/* Adds the spread of @occ's ranks' medians to @spread (nothing when a
 * median is not positive); false when memory is exhausted. */
static bool
add_rank_spread (const TprofOccurrences *occ,
                 RankSpread             *spread)
{
  const TprofGatheredTime *gt = tprof_occurrences_selection (occ);
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  size_t n_ranks = tprof_occurrences_n_ranks (occ);
  double *values = _tprof_malloc_array (tprof_gathered_time_count (gt) + 1, sizeof *values);
  double *logs = _tprof_malloc_array (n_ranks + 1, sizeof *logs);
  bool ok = values != NULL && logs != NULL;

  for (size_t i = 0; ok && i < n_ranks; i++)
    {
      size_t count = tprof_occurrences_count (occ, ranks[i]), sample, m = 0;

      for (size_t j = 0; j < count && tprof_occurrences_sample (occ, ranks[i], j, &sample); j++)
        values[m++] = times[sample];
      logs[i] = median_in_place (values, m);  /* a rank of occ has a sample */
    }
  if (ok && n_ranks >= 2 && logs_of (logs, n_ranks, logs))
    {
      double mean, squares;

      mean_and_squares (logs, n_ranks, &mean, &squares);
      spread->squares += squares;
      spread->df += (double) (n_ranks - 1);
    }
  free (values);
  free (logs);
  return ok;
}

/* One run a side: the run is the unit, and how much whole runs differ is
 * not seen from one run. Its variance is bounded by the larger of two seen
 * inside the runs, pooled over both: that of a block's log median (a
 * stretch of the run against another) and that of a rank's (a process
 * against another), v, times the square of RUN_SPREAD_FACTOR, k. The
 * difference of the mean logs of the blocks @a and @b (@n each) then has
 * the variance 2 k^2 v + 2 s^2 / n, s^2 the blocks', with the degrees of
 * freedom of v's estimate (docs/compare.md). */
static void
blocks_test (double           *a,
             double           *b,
             size_t            n,
             const RankSpread *ranks,
             TprofComparison  *out)
{
  const double k = TPROF_COMPARE_RUN_SPREAD_FACTOR;
  double mean_a, mean_b, ss_a, ss_b, blocks, prior, df;

  if (!logs_of (a, n, a) || !logs_of (b, n, b))
    return;  /* a median of 0: no ratio to test */
  mean_and_squares (a, n, &mean_a, &ss_a);
  mean_and_squares (b, n, &mean_b, &ss_b);
  df = 2.0 * (double) (n - 1);
  blocks = prior = (ss_a + ss_b) / df;
  if (ranks->df >= 1.0 && ranks->squares / ranks->df > blocks)
    {
      prior = ranks->squares / ranks->df;
      df = ranks->df;
    }
  set_t_test (out, TPROF_VERDICT_TEST_BLOCKS, mean_b - mean_a,
              sqrt (2.0 * k * k * prior + 2.0 * blocks / (double) n), df);
}

/* How many blocks runs of at most @a and @b occurrences a rank make:
 * at most TPROF_COMPARE_BLOCKS of at least BLOCK_MIN_OCCURRENCES. */
static size_t
blocks_for (size_t a,
            size_t b)
{
  size_t n_blocks = (a < b ? a : b) / TPROF_COMPARE_BLOCK_MIN_OCCURRENCES;

  return n_blocks > TPROF_COMPARE_BLOCKS ? TPROF_COMPARE_BLOCKS : n_blocks;
}

bool
tprof_compare_blocks (const TprofGatheredTime *base,
                      const TprofGatheredTime *new_samples,
                      TprofComparison         *out)
{
  TprofOccurrences *a, *b;
  size_t n_blocks;
  double medians[2][TPROF_COMPARE_BLOCKS];
  RankSpread ranks = { 0.0, 0.0 };
  bool ok;

  clear_test (out);
  if (tprof_gathered_time_count (base) == 0 || tprof_gathered_time_count (new_samples) == 0)
    return true;
  a = occurrences_of (base);
  b = a != NULL ? occurrences_of (new_samples) : NULL;
  if (b == NULL)
    {
      tprof_occurrences_free (a);
      return false;
    }
  n_blocks = blocks_for (most_occurrences (a), most_occurrences (b));
  ok = n_blocks < 2
       || (block_medians (a, n_blocks, medians[0]) && block_medians (b, n_blocks, medians[1])
           && add_rank_spread (a, &ranks) && add_rank_spread (b, &ranks));
  if (ok && n_blocks >= 2)
    blocks_test (medians[0], medians[1], n_blocks, &ranks, out);
  tprof_occurrences_free (a);
  tprof_occurrences_free (b);
  return ok;
}

/* Into @medians: the medians of @n_blocks consecutive stretches of
 * @values[0..@n), value k in stretch floor (k n_blocks / n), as blocks of
 * one rank's occurrences. False when memory is exhausted. */
static bool
flat_block_medians (const double *values,
                    size_t        n,
                    size_t        n_blocks,
                    double       *medians)
{
  double *copy = _tprof_malloc_array (n, sizeof *copy);

  if (copy == NULL)
    return false;
  memcpy (copy, values, n * sizeof *copy);
  for (size_t block = 0; block < n_blocks; block++)
    {
      /* the first k with k n_blocks / n >= block */
      size_t start = (block * n + n_blocks - 1) / n_blocks, end = ((block + 1) * n + n_blocks - 1) / n_blocks;

      medians[block] = median_in_place (copy + start, end - start);
    }
  free (copy);
  return true;
}

bool
_tprof_compare_flat_blocks (const double    *base,
                            size_t           n_base,
                            const double    *new_samples,
                            size_t           n_new,
                            TprofComparison *out)
{
  size_t n_blocks = blocks_for (n_base, n_new);
  double medians[2][TPROF_COMPARE_BLOCKS];
  const RankSpread one_rank = { 0.0, 0.0 };

  if (n_blocks < 2)
    return true;
  if (!flat_block_medians (base, n_base, n_blocks, medians[0])
      || !flat_block_medians (new_samples, n_new, n_blocks, medians[1]))
    return false;
  blocks_test (medians[0], medians[1], n_blocks, &one_rank, out);
  return true;
}

/* ---- several runs a side: each run's median is one observation ---- */

/* Into @medians: the median of each of @runs[0..@n) with samples; returns
 * how many, (size_t) -1 when memory is exhausted. */
static size_t
run_medians (const TprofGatheredTime *const *runs,
             size_t                          n,
             double                         *medians)
{
  size_t k = 0;

  for (size_t i = 0; i < n; i++)
    {
      if (tprof_gathered_time_count (runs[i]) == 0)
        continue;
      medians[k] = tprof_gathered_time_quantile (runs[i], 0.5);
      if (isnan (medians[k++]))
        return (size_t) -1;
    }
  return k;
}

void
tprof_compare_run_medians (const double         *base_medians,
                           size_t                n_base,
                           const double         *new_medians,
                           size_t                n_new,
                           const TprofRunSpread *spread,
                           TprofComparison      *out)
{
  double *logs = _tprof_malloc_array (n_base + n_new + 1, sizeof *logs);
  double mean_a, mean_b, ss_a, ss_b, df, variance;

  clear_test (out);
  if (logs == NULL || n_base == 0 || n_new == 0 || !logs_of (base_medians, n_base, logs)
      || !logs_of (new_medians, n_new, logs + n_base))
    {
      free (logs);
      return;  /* a side without runs, or a median of 0: no ratio to test */
    }
  mean_and_squares (logs, n_base, &mean_a, &ss_a);
  mean_and_squares (logs + n_base, n_new, &mean_b, &ss_b);
  /* the run-to-run variance pooled from both sides and the calibration */
  df = (double) (n_base - 1) + (double) (n_new - 1);
  variance = ss_a + ss_b;
  if (spread != NULL && spread->runs >= 2 && !isnan (spread->log_sd))
    {
      df += (double) (spread->runs - 1);
      variance += (double) (spread->runs - 1) * spread->log_sd * spread->log_sd;
    }
  if (df >= 1.0)
    set_t_test (out, TPROF_VERDICT_TEST_RUNS, mean_b - mean_a,
                sqrt (variance / df * (1.0 / (double) n_base + 1.0 / (double) n_new)), df);
  free (logs);
}

static bool
runs_test (const TprofGatheredTime *const *base,
           size_t                          n_base,
           const TprofGatheredTime *const *new_runs,
           size_t                          n_new,
           const TprofRunSpread           *spread,
           TprofComparison                *out)
{
  double *medians = _tprof_malloc_array (n_base + n_new + 1, sizeof *medians);
  size_t na, nb;

  if (medians == NULL)
    return false;
  na = run_medians (base, n_base, medians);
  nb = na != (size_t) -1 ? run_medians (new_runs, n_new, medians + na) : (size_t) -1;
  if (na != (size_t) -1 && nb != (size_t) -1)
    tprof_compare_run_medians (medians, na, medians + na, nb, spread, out);
  free (medians);
  return na != (size_t) -1 && nb != (size_t) -1;
}

/* Every run's samples of a side in one array (NULL, *n = 0 when none;
 * false when memory is exhausted). */
static bool
concatenate (const TprofGatheredTime *const *runs,
             size_t                          n_runs,
             double                        **all,
             size_t                         *n)
{
  size_t total = 0, at = 0;

  for (size_t i = 0; i < n_runs; i++)
    total += tprof_gathered_time_count (runs[i]);
  *n = total;
  *all = total > 0 ? _tprof_malloc_array (total, sizeof **all) : NULL;
  if (total > 0 && *all == NULL)
    return false;
  for (size_t i = 0; i < n_runs; i++)
    {
      size_t count = tprof_gathered_time_count (runs[i]);

      if (count > 0)
        memcpy (*all + at, tprof_gathered_time_times (runs[i]), count * sizeof **all);
      at += count;
    }
  return true;
}

bool
tprof_compare_runs (const TprofGatheredTime *const *base,
                    size_t                          n_base,
                    const TprofGatheredTime *const *new_runs,
                    size_t                          n_new,
                    const TprofRunSpread           *spread,
                    TprofComparison                *out)
{
  double *a = NULL, *b = NULL;
  size_t na = 0, nb = 0;
  bool ok = concatenate (base, n_base, &a, &na) && concatenate (new_runs, n_new, &b, &nb)
            && _tprof_compare_pooled (a, na, b, nb, out);

  free (a);
  free (b);
  if (!ok)
    return false;
  out->noise_floor = spread != NULL ? spread->noise_floor : NAN;
  if (n_base == 1 && n_new == 1 && (spread == NULL || spread->runs < 2))
    ok = tprof_compare_blocks (base[0], new_runs[0], out);
  else
    ok = runs_test (base, n_base, new_runs, n_new, spread, out);
  if (ok)
    tprof_compare_decide (out, 1, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE);
  return ok;
}

bool
tprof_compare_calibrate (const TprofGatheredTime *const *runs,
                         size_t                          n,
                         TprofRunSpread                 *out)
{
  double *medians = _tprof_malloc_array (n + 1, sizeof *medians);
  size_t k;

  out->runs = 0;
  out->log_sd = out->noise_floor = NAN;
  if (medians == NULL)
    return false;
  k = run_medians (runs, n, medians);
  if (k == (size_t) -1)
    {
      free (medians);
      return false;
    }
  out->runs = k;
  if (k >= 2 && logs_of (medians, k, medians))
    {
      double mean, squares;

      mean_and_squares (medians, k, &mean, &squares);
      out->log_sd = sqrt (squares / (double) (k - 1));
      out->noise_floor = expm1 (tprof_student_t_upper (0.025, (double) (k - 1)) * M_SQRT2 * out->log_sd);
    }
  free (medians);
  return true;
}

const char *
tprof_verdict_test_name (TprofVerdictTest test)
{
  switch (test)
    {
    case TPROF_VERDICT_TEST_BLOCKS:
      return "blocks";
    case TPROF_VERDICT_TEST_RUNS:
      return "runs";
    case TPROF_VERDICT_TEST_NONE:
    default:
      return "none";
    }
}
