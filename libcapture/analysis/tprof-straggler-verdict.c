/* tprof-straggler-verdict.c — what explains the late arrivals: a host (or a higher group) whose ranks were late together, one rank, or nothing. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-arrival.h>

#include "tprof-topology-private.h"

/* Blame per group, for the levels from rank up to the one asked. */
typedef struct
{
  const TprofStragglers *s;
  const TprofTopology   *topo;
  uint64_t              *late[TPROF_TOPOLOGY_MAX_LEVELS];
  double                *wait[TPROF_TOPOLOGY_MAX_LEVELS];
  double                *expected[TPROF_TOPOLOGY_MAX_LEVELS];
  size_t                *stamp;    /* per group of any level: the last walk that saw it */
  size_t                 walk;
} Sums;

void
tprof_stragglers_group_blame (const TprofStragglers *s,
                              const TprofTopology   *topo,
                              size_t                 level,
                              uint64_t              *late_count,
                              double                *wait_caused,
                              double                *expected_late)
{
  const uint64_t *late = tprof_stragglers_late_count (s);
  const double *wait = tprof_stragglers_wait_caused (s);
  const double *expected = tprof_stragglers_expected_late_ranks (s);
  size_t n = tprof_topology_n_groups (topo, level);

  for (size_t g = 0; g < n; g++)
    {
      size_t n_ranks;
      const int32_t *ranks = tprof_topology_group_ranks (topo, level, g, &n_ranks);
      uint64_t l = 0;
      double w = 0.0, e = 0.0;

      for (size_t i = 0; i < n_ranks; i++)
        {
          l += late[ranks[i]];
          w += wait[ranks[i]];
          e += expected[ranks[i]];
        }
      if (late_count != NULL)
        late_count[g] = l;
      if (wait_caused != NULL)
        wait_caused[g] = w;
      if (expected_late != NULL)
        expected_late[g] = e;
    }
}

static void
sums_clear (Sums *sums)
{
  for (size_t l = 1; l < TPROF_TOPOLOGY_MAX_LEVELS; l++)
    {
      free (sums->late[l]);
      free (sums->wait[l]);
      free (sums->expected[l]);
    }
  free (sums->stamp);
}

static bool
sums_init (Sums                  *sums,
           const TprofStragglers *s,
           const TprofTopology   *topo,
           size_t                 level)
{
  size_t world = (size_t) tprof_topology_world_size (topo);

  memset (sums, 0, sizeof *sums);
  sums->s = s;
  sums->topo = topo;
  sums->late[0] = (uint64_t *) tprof_stragglers_late_count (s);
  sums->wait[0] = (double *) tprof_stragglers_wait_caused (s);
  sums->expected[0] = (double *) tprof_stragglers_expected_late_ranks (s);
  sums->stamp = calloc (world, sizeof *sums->stamp);
  if (sums->stamp == NULL)
    return false;
  for (size_t l = 1; l <= level; l++)
    {
      size_t n = tprof_topology_n_groups (topo, l);

      sums->late[l] = malloc (n * sizeof *sums->late[l]);
      sums->wait[l] = malloc (n * sizeof *sums->wait[l]);
      sums->expected[l] = malloc (n * sizeof *sums->expected[l]);
      if (sums->late[l] == NULL || sums->wait[l] == NULL || sums->expected[l] == NULL)
        return false;
      tprof_stragglers_group_blame (s, topo, l, sums->late[l], sums->wait[l], sums->expected[l]);
    }
  return true;
}

/* min (1, @tests * P(X >= @k)), X ~ Binomial (@n, @chance). */
static double
corrected_tail (uint64_t k,
                uint64_t n,
                double   chance,
                size_t   tests)
{
  return fmin (1.0, tprof_binomial_upper_tail (k, n, chance) * (double) tests);
}

/* The group of @level with the most wait caused (-1 when none caused
 * any), and its late count against chance over the level's groups that
 * took part. */
static long
level_candidate (const Sums *sums,
                 size_t      level,
                 double     *p_value)
{
  size_t n = tprof_topology_n_groups (sums->topo, level), taking_part = 0;
  uint64_t occurrences = tprof_stragglers_occurrences (sums->s);
  const double *wait = sums->wait[level], *expected = sums->expected[level];
  long worst = -1;

  for (size_t g = 0; g < n; g++)
    {
      taking_part += expected[g] > 0.0;
      if (wait[g] > 0.0 && (worst < 0 || wait[g] > wait[worst]))
        worst = (long) g;
    }
  if (worst >= 0)
    *p_value = corrected_tail (sums->late[level][worst], occurrences, expected[worst] / (double) occurrences,
                               taking_part);
  return worst;
}

/* The member (group of @level - 1) of group @g of @level that came last
 * most often (ties: more wait, then the lower number), and how many
 * members took part. */
static size_t
latest_member (Sums   *sums,
               size_t  level,
               size_t  g,
               size_t *n_members)
{
  size_t n_ranks, best = SIZE_MAX, below = level - 1;
  const int32_t *ranks = tprof_topology_group_ranks (sums->topo, level, g, &n_ranks);
  const uint64_t *late = sums->late[below];
  const double *wait = sums->wait[below];

  sums->walk++;
  *n_members = 0;
  for (size_t i = 0; i < n_ranks; i++)
    {
      size_t c = tprof_topology_group_of (sums->topo, below, ranks[i]);

      if (sums->stamp[c] == sums->walk || !(sums->expected[below][c] > 0.0))
        continue;
      sums->stamp[c] = sums->walk;
      ++*n_members;
      if (best == SIZE_MAX || late[c] > late[best] || (late[c] == late[best] && wait[c] > wait[best])
          || (late[c] == late[best] && wait[c] == wait[best] && c < best))
        best = c;
    }
  return best;
}

/* From group *@g of *@level, down while one member explains its lates;
 * the p-value of the last member tested that did not goes to
 * *@spread_p_value. */
static void
descend (Sums   *sums,
         size_t *level,
         size_t *g,
         double *spread_p_value)
{
  *spread_p_value = NAN;
  while (*level > TPROF_TOPOLOGY_RANK)
    {
      size_t n_members, c = latest_member (sums, *level, *g, &n_members);
      double p = 0.0;

      if (n_members > 1)
        p = corrected_tail (sums->late[*level - 1][c], sums->late[*level][*g],
                            sums->expected[*level - 1][c] / sums->expected[*level][*g], n_members);
      if (p >= TPROF_STRAGGLER_ALPHA)
        {
          *spread_p_value = p;
          return;
        }
      --*level;
      *g = c;
    }
}

static void
name_group (const Sums            *sums,
            size_t                 level,
            size_t                 g,
            TprofStragglerVerdict *out)
{
  size_t taking_part = 0, n_ranks;
  const int32_t *ranks = tprof_topology_group_ranks (sums->topo, level, g, &n_ranks);
  const uint64_t *late = sums->late[0];
  const double *wait = sums->wait[0];

  for (size_t i = 0; i < tprof_topology_n_groups (sums->topo, level); i++)
    taking_part += sums->expected[level][i] > 0.0;
  out->kind = TPROF_STRAGGLER_VERDICT_GROUP;
  out->level = level;
  out->group = g;
  out->late_count = sums->late[level][g];
  out->wait_caused = sums->wait[level][g];
  out->expected_late = sums->expected[level][g];
  out->p_value = corrected_tail (out->late_count, out->occurrences, out->expected_late / (double) out->occurrences,
                                 taking_part);
  out->latest_rank = ranks[0];
  for (size_t i = 1; i < n_ranks; i++)
    {
      int32_t r = ranks[i], b = out->latest_rank;

      if (late[r] > late[b] || (late[r] == late[b] && wait[r] > wait[b]))
        out->latest_rank = r;
    }
}

bool
tprof_stragglers_decide (const TprofStragglers *s,
                         const TprofTopology   *topo,
                         size_t                 level,
                         TprofStragglerVerdict *out)
{
  Sums sums;
  bool ok;

  memset (out, 0, sizeof *out);
  out->p_value = out->spread_p_value = NAN;
  out->latest_rank = -1;
  if (tprof_topology_world_size (topo) != tprof_stragglers_world_size (s) || level >= tprof_topology_n_levels (topo))
    return false;
  out->rank = tprof_stragglers_name (s, &out->rank_p_value);
  out->occurrences = tprof_stragglers_occurrences (s);
  out->kind = out->rank >= 0 ? TPROF_STRAGGLER_VERDICT_RANK : TPROF_STRAGGLER_VERDICT_NONE;
  ok = sums_init (&sums, s, topo, level);
  for (size_t l = level; ok && l > TPROF_TOPOLOGY_RANK && out->occurrences > 0; l--)
    {
      double p = 1.0, spread_p;
      long worst = level_candidate (&sums, l, &p);
      size_t at = l, g = (size_t) worst;

      if (worst < 0 || p >= TPROF_STRAGGLER_ALPHA)
        continue;
      descend (&sums, &at, &g, &spread_p);
      if (at > TPROF_TOPOLOGY_RANK)
        {
          name_group (&sums, at, g, out);
          out->spread_p_value = spread_p;
        }
      break;
    }
  sums_clear (&sums);
  return ok;
}
