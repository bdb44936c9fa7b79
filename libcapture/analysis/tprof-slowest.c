/* tprof-slowest.c — the rule that calls a rank slowest only when it stands out from the others beyond noise. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include <tprof/tprof-outliers.h>
#include <tprof/tprof-slowest.h>

#include "tprof-select-private.h"

/* numpy's median of @n values, reordering them (a selection, not a
 * sort); NaN when memory is exhausted, which calls nothing slowest. */
static double
select_median (double *values,
               size_t  n)
{
  const double half = 0.5;
  double median;

  return _tprof_select_quantiles (values, n, &half, 1, &median) ? median : NAN;
}

bool
tprof_slowest_stands_out (const double *values,
                          size_t        n,
                          size_t        index)
{
  double *others;
  double median, mad, excess;
  size_t n_others = 0;

  if (values == NULL || n < 2 || index >= n || isnan (values[index]))
    return false;
  others = malloc ((n - 1) * sizeof *others);
  if (others == NULL)
    return false;
  for (size_t i = 0; i < n; i++)
    if (i != index && !isnan (values[i]))
      others[n_others++] = values[i];
  if (n_others == 0)
    {
      free (others);
      return false;
    }
  median = select_median (others, n_others);
  for (size_t i = 0; i < n_others; i++)
    others[i] = fabs (others[i] - median);
  mad = select_median (others, n_others);
  free (others);

  excess = values[index] - median;
  if (!(excess > TPROF_SLOWEST_MIN_EXCESS * fabs (median)))
    return false;
  return mad == 0 || 0.6745 * excess / mad > TPROF_OUTLIER_Z;
}
