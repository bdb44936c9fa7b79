/* tprof-student.c — Student's t distribution: the two-sided p-value of a t statistic and the quantile of an upper tail, for the verdict's tests. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include <tprof/tprof-compare.h>

/* The continued fraction of the regularized incomplete beta function
 * I_x(a, b), evaluated by the modified Lentz method; it converges fast for
 * x < (a + 1) / (a + b + 2). */
static double
beta_fraction (double a,
               double b,
               double x)
{
  const double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;

  d = 1.0 / (fabs (d) < tiny ? tiny : d);
  f = d;
  for (int m = 1; m <= 500; m++)
    {
      /* the even step, then the odd one */
      double terms[2] = {
        m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)),
        -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
      };

      for (int k = 0; k < 2; k++)
        {
          double delta;

          d = 1.0 + terms[k] * d;
          d = 1.0 / (fabs (d) < tiny ? tiny : d);
          c = 1.0 + terms[k] / c;
          if (fabs (c) < tiny)
            c = tiny;
          delta = c * d;
          f *= delta;
          if (k == 1 && fabs (delta - 1.0) < 1e-15)
            return f;
        }
    }
  return f;
}

/* I_x(a, b) for x in [0, 1]. */
static double
incomplete_beta (double a,
                 double b,
                 double x)
{
  double front;

  if (x <= 0.0)
    return 0.0;
  if (x >= 1.0)
    return 1.0;
  front = exp (lgamma (a + b) - lgamma (a) - lgamma (b) + a * log (x) + b * log1p (-x));
  if (x < (a + 1.0) / (a + b + 2.0))
    return front * beta_fraction (a, b, x) / a;
  return 1.0 - front * beta_fraction (b, a, 1.0 - x) / b;
}

double
tprof_student_t_p (double t,
                   double df)
{
  if (isnan (t) || !(df > 0.0))
    return NAN;
  if (isinf (t))
    return 0.0;
  /* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
  return incomplete_beta (df / 2.0, 0.5, df / (df + t * t));
}

double
tprof_student_t_upper (double q,
                       double df)
{
  double low = 0.0, high = 1.0;

  if (!(q > 0.0 && q < 0.5) || !(df > 0.0))
    return q == 0.5 && df > 0.0 ? 0.0 : NAN;
  while (tprof_student_t_p (high, df) > 2.0 * q)
    {
      low = high;
      high *= 2.0;
      if (isinf (high))
        return INFINITY;
    }
  for (int i = 0; i < 200 && high - low > 1e-14 * high; i++)
    {
      double mid = 0.5 * (low + high);

      if (tprof_student_t_p (mid, df) > 2.0 * q)
        low = mid;
      else
        high = mid;
    }
  return 0.5 * (low + high);
}
