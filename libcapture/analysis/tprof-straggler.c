/* tprof-straggler.c — naming the straggler: the rank that caused the most wait, when it came last more often than chance allows. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include <tprof/tprof-arrival.h>

#include "tprof-straggler-private.h"

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

struct _TprofStragglers
{
  int       world_size;
  double   *wait_caused;
  uint64_t *late_count;
  double   *expected_rank;  /* per rank, its late count by chance */
  size_t   *seen;           /* per rank, the last operation it had samples in */
  size_t    n_added;
  uint64_t  occurrences;
  double    expected_late;
  size_t    n_synchronising;
};

TprofStragglers *
tprof_stragglers_new (int world_size)
{
  TprofStragglers *s = calloc (1, sizeof *s);

  if (s == NULL || world_size < 1)
    {
      free (s);
      return NULL;
    }
  s->world_size = world_size;
  s->wait_caused = calloc ((size_t) world_size, sizeof *s->wait_caused);
  s->late_count = calloc ((size_t) world_size, sizeof *s->late_count);
  s->expected_rank = calloc ((size_t) world_size, sizeof *s->expected_rank);
  s->seen = calloc ((size_t) world_size, sizeof *s->seen);
  if (s->wait_caused == NULL || s->late_count == NULL || s->expected_rank == NULL || s->seen == NULL)
    {
      tprof_stragglers_free (s);
      return NULL;
    }
  return s;
}

void
tprof_stragglers_free (TprofStragglers *s)
{
  if (s == NULL)
    return;
  free (s->wait_caused);
  free (s->late_count);
  free (s->expected_rank);
  free (s->seen);
  free (s);
}

/* Each rank with samples in @gt gets @chance more lates by chance. */
static void
add_expected_ranks (TprofStragglers         *s,
                    const TprofGatheredTime *gt,
                    double                   chance)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);

  for (size_t i = 0; i < n; i++)
    if (s->seen[ranks[i]] != s->n_added)
      {
        s->seen[ranks[i]] = s->n_added;
        s->expected_rank[ranks[i]] += chance;
      }
}

/* The totals over the synchronising operations, @arrival one of them. */
static void
count_synchronising (TprofStragglers    *s,
                     const TprofArrival *arrival)
{
  s->n_synchronising++;
  s->occurrences += arrival->n_occurrences;
  s->expected_late += (double) arrival->n_occurrences / (double) arrival->n_ranks;
}

bool
tprof_stragglers_add (TprofStragglers         *s,
                      const TprofGatheredTime *gt,
                      TprofArrival            *arrival)
{
  TprofArrival local;

  if (arrival == NULL)
    arrival = &local;
  if (!tprof_arrival_analyze (gt, s->world_size, arrival, s->wait_caused, s->late_count))
    return false;
  s->n_added++;
  if (arrival->synchronising)
    {
      add_expected_ranks (s, gt, (double) arrival->n_occurrences / (double) arrival->n_ranks);
      count_synchronising (s, arrival);
    }
  return true;
}

void
_tprof_stragglers_add_blame (TprofStragglers    *s,
                             const TprofArrival *arrival,
                             const double       *wait_caused,
                             const uint64_t     *late_count,
                             const bool         *has_samples)
{
  s->n_added++;
  if (!arrival->synchronising)
    return;
  for (int r = 0; r < s->world_size; r++)
    {
      s->wait_caused[r] += wait_caused[r];
      s->late_count[r] += late_count[r];
      if (has_samples[r])
        s->expected_rank[r] += (double) arrival->n_occurrences / (double) arrival->n_ranks;
    }
  count_synchronising (s, arrival);
}

int
tprof_stragglers_name (const TprofStragglers *s,
                       double                *p_value)
{
  return tprof_straggler_name (s->wait_caused, s->late_count, s->world_size, s->occurrences,
                               s->occurrences > 0 ? s->expected_late / (double) s->occurrences : 0.0,
                               p_value);
}

int
tprof_stragglers_world_size (const TprofStragglers *s)
{
  return s->world_size;
}

const double *
tprof_stragglers_wait_caused (const TprofStragglers *s)
{
  return s->wait_caused;
}

const uint64_t *
tprof_stragglers_late_count (const TprofStragglers *s)
{
  return s->late_count;
}

uint64_t
tprof_stragglers_occurrences (const TprofStragglers *s)
{
  return s->occurrences;
}

double
tprof_stragglers_expected_late (const TprofStragglers *s)
{
  return s->expected_late;
}

size_t
tprof_stragglers_n_synchronising (const TprofStragglers *s)
{
  return s->n_synchronising;
}

const double *
tprof_stragglers_expected_late_ranks (const TprofStragglers *s)
{
  return s->expected_rank;
}
