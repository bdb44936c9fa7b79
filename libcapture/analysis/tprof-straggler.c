/* tprof-straggler.c — naming the straggler: the rank that caused the most wait, when it came last more often than chance allows. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include <tprof/tprof-arrival.h>

/* P(X >= k) for X ~ Binomial(n, p): the terms from k up, summed in log
 * space until they no longer count. Above the mean (the only case asked
 * here) the terms only decrease, so this ends after a few hundred terms
 * at most; below it the sum runs to n. */
double
tprof_binomial_upper_tail (uint64_t k,
                           uint64_t n,
                           double   p)
{
  double log_p, log_q, log_term, sum = 0.0;

  if (k == 0 || p >= 1.0)
    return 1.0;
  if (k > n || p <= 0.0)
    return 0.0;
  log_p = log (p);
  log_q = log1p (-p);
  log_term = lgamma ((double) n + 1) - lgamma ((double) k + 1) - lgamma ((double) (n - k) + 1)
             + (double) k * log_p + (double) (n - k) * log_q;
  for (uint64_t j = k; j <= n; j++)
    {
      double term = exp (log_term);

      sum += term;
      if (j > (double) n * p && term < sum * 1e-17)
        break;
      /* term(j+1) / term(j) = (n - j) / (j + 1) * p / q */
      log_term += log ((double) (n - j)) - log ((double) j + 1) + log_p - log_q;
    }
  return fmin (sum, 1.0);
}

int
tprof_straggler_name (const double   *wait_caused,
                      const uint64_t *late_count,
                      int             world_size,
                      uint64_t        occurrences,
                      double          chance,
                      double         *p_value)
{
  int worst = -1;
  double p;

  for (int r = 0; r < world_size; r++)
    if (wait_caused[r] > 0 && (worst < 0 || wait_caused[r] > wait_caused[worst]))
      worst = r;
  if (p_value != NULL)
    *p_value = NAN;
  if (worst < 0 || occurrences == 0 || !(chance > 0.0 && chance < 1.0))
    return -1;
  /* Bonferroni over the ranks that could have been picked */
  p = fmin (1.0, tprof_binomial_upper_tail (late_count[worst], occurrences, chance) * world_size);
  if (p_value != NULL)
    *p_value = p;
  return p < TPROF_STRAGGLER_ALPHA ? worst : -1;
}
