/* tprof-compare.c — one operation of two runs compared sample by sample: medians and their ratio, the Mann-Whitney U test; Holm's adjustment and the verdict. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-compare.h>

#include "tprof-compare-private.h"
#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-sorted-runs-private.h"

/* A sorted copy of @values, sorted with @scratch (@n values); NULL when
 * memory is exhausted (or @n is 0). */
static double *
sorted_copy (const double *values,
             size_t        n,
             double       *scratch)
{
  double *copy = n > 0 ? _tprof_malloc_array (n, sizeof *copy) : NULL;

  if (copy == NULL)
    return NULL;
  memcpy (copy, values, n * sizeof *copy);
  _tprof_sort_doubles (copy, n, scratch);
  return copy;
}

/* The two-sided p-value of the Mann-Whitney U test of ascending @a against
 * ascending @b: ranks from one merge pass (ties share their mean rank), the
 * normal approximation with the tie correction of the variance and a
 * continuity correction of 0.5, as scipy computes it. */
static double
mann_whitney_p (const double *a,
                size_t        na,
                const double *b,
                size_t        nb)
{
  double n = (double) na + (double) nb;
  double rank_sum_a = 0.0, tie_term = 0.0;
  double u_a, u, mu, sigma, z;
  size_t i = 0, j = 0;

  while (i < na || j < nb)
    {
      double v = i < na && (j >= nb || a[i] <= b[j]) ? a[i] : b[j];
      size_t ta = 0, tb = 0;
      double first = (double) (i + j) + 1.0, t, mean_rank;

      while (i < na && a[i] == v)
        i++, ta++;
      while (j < nb && b[j] == v)
        j++, tb++;
      t = (double) (ta + tb);
      mean_rank = first + (t - 1.0) / 2.0;
      rank_sum_a += (double) ta * mean_rank;
      tie_term += t * t * t - t;
    }

  u_a = rank_sum_a - (double) na * ((double) na + 1.0) / 2.0;
  u = fmax (u_a, (double) na * (double) nb - u_a);
  mu = (double) na * (double) nb / 2.0;
  sigma = sqrt ((double) na * (double) nb / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
  if (!(sigma > 0.0))
    return 1.0;  /* every value the same: no evidence of a difference */
  z = (u - mu - 0.5) / sigma;
  return fmin (1.0, erfc (z / M_SQRT2));  /* 2 * the normal's upper tail */
}

bool
_tprof_compare_pooled (const double    *base,
                       size_t           n_base,
                       const double    *new_samples,
                       size_t           n_new,
                       TprofComparison *out)
{
  size_t larger = n_base > n_new ? n_base : n_new;
  double *scratch = larger > 0 ? _tprof_malloc_array (larger, sizeof *scratch) : NULL;
  double *a = scratch != NULL ? sorted_copy (base, n_base, scratch) : NULL;
  double *b = scratch != NULL ? sorted_copy (new_samples, n_new, scratch) : NULL;

  free (scratch);
  memset (out, 0, sizeof *out);
  if ((n_base > 0 && a == NULL) || (n_new > 0 && b == NULL))
    {
      free (a);
      free (b);
      return false;
    }
  out->base_count = n_base;
  out->new_count = n_new;
  out->base_median = _tprof_sorted_median (a, n_base);
  out->new_median = _tprof_sorted_median (b, n_new);
  out->ratio = out->new_median / out->base_median;
  out->p_value = n_base > 0 && n_new > 0 ? mann_whitney_p (a, n_base, b, n_new) : NAN;
  out->p_adjusted = out->p_value;
  out->verdict_test = TPROF_VERDICT_TEST_NONE;
  out->verdict_df = out->p_verdict_raw = out->p_verdict = out->noise_floor = out->ci_low = out->ci_high = NAN;
  free (a);
  free (b);
  return true;
}

bool
tprof_compare_samples (const double    *base,
                       size_t           n_base,
                       const double    *new_samples,
                       size_t           n_new,
                       TprofComparison *out)
{
  if (!_tprof_compare_pooled (base, n_base, new_samples, n_new, out)
      || !_tprof_compare_flat_blocks (base, n_base, new_samples, n_new, out))
    return false;
  tprof_compare_decide (out, 1, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE);
  return true;
}

bool
tprof_compare_gathered (const TprofGatheredTime *base,
                        const TprofGatheredTime *new_samples,
                        TprofComparison         *out)
{
  if (!_tprof_compare_pooled (tprof_gathered_time_times (base), tprof_gathered_time_count (base),
                              tprof_gathered_time_times (new_samples), tprof_gathered_time_count (new_samples),
                              out)
      || !tprof_compare_blocks (base, new_samples, out))
    return false;
  tprof_compare_decide (out, 1, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE);
  return true;
}

/* A p-value of a comparison, and where its adjustment goes. */
typedef struct
{
  double  p;
  double *adjusted;
} Adjusting;

static int
compare_p_values (const void *x,
                  const void *y)
{
  double a = ((const Adjusting *) x)->p, b = ((const Adjusting *) y)->p;

  return (a > b) - (a < b);
}

/* Holm over the field at @raw of each of @comparisons[0..@n) into the field
 * at @adjusted (byte offsets): the k-th smallest of m p-values (k from 0)
 * times (m - k), made non-decreasing, at most 1. NaN takes no part. */
static bool
holm_adjust (TprofComparison *comparisons,
             size_t           n,
             size_t           raw,
             size_t           adjusted)
{
  Adjusting *order = _tprof_malloc_array (n > 0 ? n : 1, sizeof *order);
  size_t m = 0;
  double running = 0.0;

  if (order == NULL)
    return false;
  for (size_t i = 0; i < n; i++)
    {
      double p = *(const double *) ((const char *) &comparisons[i] + raw);
      double *to = (double *) ((char *) &comparisons[i] + adjusted);

      *to = p;
      if (!isnan (p))
        order[m++] = (Adjusting) { p, to };
    }
  qsort (order, m, sizeof *order, compare_p_values);
  for (size_t k = 0; k < m; k++)
    {
      running = fmax (running, fmin (1.0, (double) (m - k) * order[k].p));
      *order[k].adjusted = running;
    }
  free (order);
  return true;
}

void
tprof_compare_decide (TprofComparison *comparisons,
                      size_t           n,
                      double           alpha,
                      double           min_change)
{
  if (!holm_adjust (comparisons, n, offsetof (TprofComparison, p_value), offsetof (TprofComparison, p_adjusted))
      || !holm_adjust (comparisons, n, offsetof (TprofComparison, p_verdict_raw),
                       offsetof (TprofComparison, p_verdict)))
    return;  /* out of memory: the p-values stay unadjusted, verdicts as they were */
  for (size_t i = 0; i < n; i++)
    {
      TprofComparison *c = &comparisons[i];
      bool significant = c->p_verdict < alpha;
      double least = isnan (c->noise_floor) ? min_change : fmax (min_change, c->noise_floor);

      if (c->base_count > 0 && c->new_count == 0)
        c->verdict = TPROF_VERDICT_ONLY_BASE;
      else if (c->base_count == 0 && c->new_count > 0)
        c->verdict = TPROF_VERDICT_ONLY_NEW;
      else if (significant && c->ratio > 1.0 + least)
        c->verdict = TPROF_VERDICT_SLOWER;
      else if (significant && c->ratio < 1.0 / (1.0 + least))
        c->verdict = TPROF_VERDICT_FASTER;
      else
        c->verdict = TPROF_VERDICT_SAME;
    }
}

const char *
tprof_verdict_name (TprofVerdict verdict)
{
  switch (verdict)
    {
    case TPROF_VERDICT_SLOWER:
      return "slower";
    case TPROF_VERDICT_FASTER:
      return "faster";
    case TPROF_VERDICT_ONLY_BASE:
      return "only-base";
    case TPROF_VERDICT_ONLY_NEW:
      return "only-new";
    case TPROF_VERDICT_SAME:
    default:
      return "same";
    }
}
