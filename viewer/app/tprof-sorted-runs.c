/* tprof-sorted-runs.c — sorting samples and selecting order statistics across several sorted runs. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tprof-profile-index-private.h"

/* Below this many values a plain merge-free copy and quickselect beats bisection. */
#define SMALL_SELECTION 4096
/* Once the bisection windows hold this few values they are gathered and selected directly. */
#define FEW_CANDIDATES 64

static inline guint64
double_bits (double x)
{
  guint64 bits;

  memcpy (&bits, &x, sizeof bits);
  return bits;
}

static inline double
bits_double (guint64 bits)
{
  double x;

  memcpy (&x, &bits, sizeof x);
  return x;
}

static void
insertion_sort (double *values,
                gsize   n)
{
  for (gsize i = 1; i < n; i++)
    {
      double x = values[i];
      gsize j = i;

      while (j > 0 && values[j - 1] > x)
        {
          values[j] = values[j - 1];
          j--;
        }
      values[j] = x;
    }
}

/* Non-negative doubles order like their bit patterns, so an LSD radix sort on
 * the bytes sorts them in linear time; bytes all values share are skipped. */
void
_tprof_sort_nonnegative (double *values,
                         gsize   n,
                         double *scratch)
{
  gsize histo[8][256];
  double *src = values;
  double *dst = scratch;

  if (n < 64)
    {
      insertion_sort (values, n);
      return;
    }

  memset (histo, 0, sizeof histo);
  for (gsize i = 0; i < n; i++)
    {
      guint64 bits = double_bits (values[i]);

      for (guint b = 0; b < 8; b++)
        histo[b][(bits >> (8 * b)) & 0xff]++;
    }

  for (guint b = 0; b < 8; b++)
    {
      gsize offsets[256];
      gsize sum = 0;
      guint shift = 8 * b;

      if (histo[b][(double_bits (src[0]) >> shift) & 0xff] == n)
        continue;

      for (guint d = 0; d < 256; d++)
        {
          offsets[d] = sum;
          sum += histo[b][d];
        }
      for (gsize i = 0; i < n; i++)
        dst[offsets[(double_bits (src[i]) >> shift) & 0xff]++] = src[i];

      double *tmp = src;
      src = dst;
      dst = tmp;
    }

  if (src != values)
    memcpy (values, src, n * sizeof *values);
}

gsize
_tprof_sorted_search (const double *values,
                      gsize         from,
                      gsize         len,
                      double        x,
                      gboolean      inclusive)
{
  gsize lo = from;
  gsize hi;
  gsize step = 1;

#define BEFORE(v) (inclusive ? (v) <= x : (v) < x)
  /* gallop to bracket the answer in [lo, hi) */
  while (lo + step < len && BEFORE (values[lo + step]))
    {
      lo += step;
      step *= 2;
    }
  if (lo >= len || !BEFORE (values[lo]))
    return lo;
  hi = MIN (lo + step, len);
  lo++;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (BEFORE (values[mid]))
        lo = mid + 1;
      else
        hi = mid;
    }
#undef BEFORE
  return lo;
}

static double
quickselect (double *values,
             gsize   n,
             gsize   k)
{
  gsize left = 0;
  gsize right = n - 1;

  while (left < right)
    {
      double pivot = values[left + (right - left) / 2];
      gsize i = left;
      gsize j = right;

      while (i <= j)
        {
          while (values[i] < pivot)
            i++;
          while (values[j] > pivot)
            j--;
          if (i <= j)
            {
              double tmp = values[i];
              values[i] = values[j];
              values[j] = tmp;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      if (k <= j)
        right = j;
      else if (k >= i)
        left = i;
      else
        return values[k];
    }
  return values[k];
}

static double
select_from_windows (TprofRun *runs,
                     gsize     n_runs,
                     gsize     count,
                     gsize     k)
{
  double small[FEW_CANDIDATES];
  g_autofree double *heap = NULL;
  double *buf = count <= G_N_ELEMENTS (small) ? small : (heap = g_new (double, count));
  gsize at = 0;

  for (gsize r = 0; r < n_runs; r++)
    {
      gsize len = runs[r].hi - runs[r].lo;

      memcpy (buf + at, runs[r].values + runs[r].lo, len * sizeof *buf);
      at += len;
    }
  return quickselect (buf, count, k);
}

/* How many values of @run's window are <= @pivot; stores the position in run->pos. */
static inline gsize
run_count_le (TprofRun *run,
              double    pivot)
{
  gsize lo = run->lo;
  gsize hi = run->hi;

  while (lo < hi)
    {
      gsize m = lo + (hi - lo) / 2;

      if (run->values[m] <= pivot)
        lo = m + 1;
      else
        hi = m;
    }
  run->pos = lo;
  return lo - run->lo;
}

/* A pivot guess for the (@k - @below)-th of the @remaining window values:
 * the value at that fraction of the largest window, since ranks usually
 * share a distribution. */
static double
interpolated_pivot (const TprofRun *runs,
                    gsize           n_runs,
                    gsize           below,
                    gsize           remaining,
                    gsize           k)
{
  const TprofRun *widest = &runs[0];
  double fraction = ((double) (k - below) + 0.5) / (double) remaining;
  gsize at;

  for (gsize r = 1; r < n_runs; r++)
    if (runs[r].hi - runs[r].lo > widest->hi - widest->lo)
      widest = &runs[r];

  at = widest->lo + (gsize) (fraction * (double) (widest->hi - widest->lo));
  return widest->values[MIN (at, widest->hi - 1)];
}

/* Interpolated pivots converge in a few rounds on similar ranks; bisecting
 * the bit patterns afterwards bounds the rounds on any data. */
#define INTERPOLATED_ROUNDS 6

double
_tprof_runs_select_kth (TprofRun *runs,
                        gsize     n_runs,
                        gsize     total,
                        gsize     k)
{
  guint64 lo_bits = G_MAXUINT64;
  guint64 hi_bits = 0;
  gsize below = 0;
  guint round = 0;

  g_assert (k < total);

  if (n_runs == 1)
    return runs[0].values[k];

  for (gsize r = 0; r < n_runs; r++)
    {
      runs[r].lo = 0;
      runs[r].hi = runs[r].len;
      if (runs[r].len == 0)
        continue;
      lo_bits = MIN (lo_bits, double_bits (runs[r].values[0]));
      hi_bits = MAX (hi_bits, double_bits (runs[r].values[runs[r].len - 1]));
    }

  if (total <= SMALL_SELECTION)
    return select_from_windows (runs, n_runs, total, k);

  /* Invariant: `below` values are < lo_bits and at least k+1 are <= hi_bits,
   * and each run's window [lo, hi) holds its values in [lo_bits, hi_bits]. */
  while (lo_bits < hi_bits)
    {
      guint64 pivot_bits;
      gsize remaining = 0;
      gsize at_most_pivot = below;

      for (gsize r = 0; r < n_runs; r++)
        remaining += runs[r].hi - runs[r].lo;
      if (remaining <= FEW_CANDIDATES)
        return select_from_windows (runs, n_runs, remaining, k - below);

      if (round++ < INTERPOLATED_ROUNDS)
        pivot_bits = double_bits (interpolated_pivot (runs, n_runs, below, remaining, k));
      else
        pivot_bits = lo_bits + (hi_bits - lo_bits) / 2;
      pivot_bits = CLAMP (pivot_bits, lo_bits, hi_bits - 1);

      for (gsize r = 0; r < n_runs; r++)
        at_most_pivot += run_count_le (&runs[r], bits_double (pivot_bits));

      if (at_most_pivot >= k + 1)
        {
          hi_bits = pivot_bits;
          for (gsize r = 0; r < n_runs; r++)
            runs[r].hi = runs[r].pos;
        }
      else
        {
          lo_bits = pivot_bits + 1;
          below = at_most_pivot;
          for (gsize r = 0; r < n_runs; r++)
            runs[r].lo = runs[r].pos;
        }
    }

  return bits_double (hi_bits);
}

/* The (@k+1)-th smallest given the @k-th, @kth: itself when repeated, else
 * the smallest value above it. One binary search per run. */
static double
select_next (TprofRun *runs,
             gsize     n_runs,
             gsize     k,
             double    kth)
{
  gsize at_most = 0;
  double next = INFINITY;

  for (gsize r = 0; r < n_runs; r++)
    {
      runs[r].lo = 0;
      runs[r].hi = runs[r].len;
      at_most += run_count_le (&runs[r], kth);
      if (runs[r].pos < runs[r].len)
        next = MIN (next, runs[r].values[runs[r].pos]);
    }
  return at_most >= k + 2 ? kth : next;
}

/* numpy's _lerp: interpolates from the nearer end for accuracy. */
static double
lerp (double a,
      double b,
      double t)
{
  double diff = b - a;

  if (t >= 0.5)
    return b - diff * (1.0 - t);
  return a + diff * t;
}

double
_tprof_runs_quantile (TprofRun *runs,
                      gsize     n_runs,
                      gsize     total,
                      double    q,
                      double  (*map) (double))
{
  double h;
  double fl;
  gsize i;
  double a;
  double b;

  if (total == 0 || !(q >= 0.0 && q <= 1.0))
    return NAN;

  /* A monotonic @map keeps the order statistics where they are, so only the
   * two neighbours of the quantile need mapping before interpolation. */
  h = q * (double) (total - 1);
  fl = floor (h);
  i = (gsize) fl;
  if (i >= total - 1)
    {
      a = _tprof_runs_select_kth (runs, n_runs, total, total - 1);
      return map != NULL ? map (a) : a;
    }

  a = _tprof_runs_select_kth (runs, n_runs, total, i);
  if (h == fl)
    return map != NULL ? map (a) : a;
  b = select_next (runs, n_runs, i, a);
  if (map != NULL)
    {
      a = map (a);
      b = map (b);
    }
  return lerp (a, b, h - fl);
}
