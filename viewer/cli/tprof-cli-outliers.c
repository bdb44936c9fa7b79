/* tprof-cli-outliers.c — the robust z-score that flags ranks whose total stands out. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tprof-cli.h"

static int
compare_doubles (const void *a,
                 const void *b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return (da > db) - (da < db);
}

static double
median (const double *values,
        gsize         n)
{
  double *sorted = g_memdup2 (values, n * sizeof *values);
  double m;

  qsort (sorted, n, sizeof *sorted, compare_doubles);
  m = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  g_free (sorted);
  return m;
}

void
tprof_cli_robust_z (const double *values,
                    gsize         n,
                    double       *z)
{
  double *deviations;
  double centre, mad, mean_ad = 0;

  if (n == 0)
    return;
  centre = median (values, n);
  deviations = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      deviations[i] = fabs (values[i] - centre);
      mean_ad += deviations[i] / n;
    }
  mad = median (deviations, n);
  g_free (deviations);

  for (gsize i = 0; i < n; i++)
    {
      double d = values[i] - centre;

      if (mad > 0)
        z[i] = 0.6745 * d / mad;
      else if (mean_ad > 0)
        /* More than half the ranks share one total exactly (the MAD is 0):
         * the mean absolute deviation, scaled to match the MAD for normal
         * data, still tells a rank far from the rest. */
        z[i] = d / (1.253314 * mean_ad);
      else
        z[i] = 0;
    }
}
