/* tprof-sort-few.c — a sorted copy of up to eight values by a fixed network of compare-exchanges: no branch on the data, every value in a register. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "tprof-select-private.h"

/* minsd and maxsd: the smaller of @a and @b in @a, the larger in @b. */
static inline double
few_min (double a,
         double b)
{
  return a < b ? a : b;
}

static inline double
few_max (double a,
         double b)
{
  return a > b ? a : b;
}

#define EXCHANGE(a, b)                  \
  do                                    \
    {                                   \
      double lo_ = few_min (a, b);      \
      (b) = few_max (a, b);             \
      (a) = lo_;                        \
    }                                   \
  while (0)

/* Sorts x[0..8) into out[0..8): the 19 exchanges of the smallest network
 * known for eight values. */
static void
few_network (const double *x,
             double       *out)
{
  double v0 = x[0], v1 = x[1], v2 = x[2], v3 = x[3], v4 = x[4], v5 = x[5], v6 = x[6], v7 = x[7];

  EXCHANGE (v0, v2); EXCHANGE (v1, v3); EXCHANGE (v4, v6); EXCHANGE (v5, v7);
  EXCHANGE (v0, v4); EXCHANGE (v1, v5); EXCHANGE (v2, v6); EXCHANGE (v3, v7);
  EXCHANGE (v0, v1); EXCHANGE (v2, v3); EXCHANGE (v4, v5); EXCHANGE (v6, v7);
  EXCHANGE (v2, v4); EXCHANGE (v3, v5);
  EXCHANGE (v1, v4); EXCHANGE (v3, v6);
  EXCHANGE (v1, v2); EXCHANGE (v3, v4); EXCHANGE (v5, v6);
  out[0] = v0, out[1] = v1, out[2] = v2, out[3] = v3, out[4] = v4, out[5] = v5, out[6] = v6, out[7] = v7;
}

void
_tprof_sort_few (const double *values,
                 size_t        n,
                 double       *sorted)
{
  double padded[TPROF_SORT_FEW];

  if (n == TPROF_SORT_FEW)
    {
      few_network (values, sorted);
      return;
    }
  /* fewer: the rest +inf, which the network leaves at the top */
  for (size_t i = 0; i < TPROF_SORT_FEW; i++)
    padded[i] = i < n ? values[i] : INFINITY;
  few_network (padded, padded);
  memcpy (sorted, padded, n * sizeof *sorted);
}
