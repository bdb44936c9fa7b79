/* tprof-outliers.c — the robust z-score of values against their median (tprof ranks' outliers). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-outliers.h>

#include "tprof-select-private.h"

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* numpy's median of @n values, sorting @scratch (a copy). */
static double
median_of (const double *values,
           size_t        n,
           double       *scratch)
{
  memcpy (scratch, values, n * sizeof *scratch);
  qsort (scratch, n, sizeof *scratch, compare_doubles);
  return _tprof_sorted_median (scratch, n);
}

bool
tprof_robust_z (const double *values,
                size_t        n,
                double       *z)
{
  double *deviations, *scratch;
  double centre, mad, mean_ad = 0.0;

  if (n == 0)
    return true;
  deviations = malloc (n * sizeof *deviations);
  scratch = malloc (n * sizeof *scratch);
  if (deviations == NULL || scratch == NULL)
    {
      free (deviations);
      free (scratch);
      return false;
    }
  centre = median_of (values, n, scratch);
  for (size_t i = 0; i < n; i++)
    {
      deviations[i] = fabs (values[i] - centre);
      mean_ad += deviations[i] / (double) n;
    }
  mad = median_of (deviations, n, scratch);
  for (size_t i = 0; i < n; i++)
    {
      double d = values[i] - centre;

      if (mad > 0)
        z[i] = 0.6745 * d / mad;
      else if (mean_ad > 0)
        /* More than half the values are equal (the MAD is 0): the mean
         * absolute deviation, scaled to match the MAD for normal data,
         * still tells a value far from the rest. */
        z[i] = d / (1.253314 * mean_ad);
      else
        z[i] = 0.0;
    }
  free (deviations);
  free (scratch);
  return true;
}
