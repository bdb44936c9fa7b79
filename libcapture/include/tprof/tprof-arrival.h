/* tprof-arrival.h — arrival at an operation across ranks: its occurrences, whether it synchronises the ranks, and which rank kept the others waiting (docs/analysis.md). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>
#include <tprof/tprof-occurrences.h>
#include <tprof/tprof-topology.h>

TPROF_BEGIN_DECLS

/* An operation synchronises its ranks when, over its occurrences, the
 * median spread of the ends is at most this fraction of the median spread
 * of the starts: the ranks arrive apart and leave (at least twice as
 * much) together. Half, not less: on an oversubscribed node the ranks
 * leave a collective a scheduling quantum apart (the 4-rank demo on 2
 * cores: ends 5.7 ms apart, starts 12 ms). */
#define TPROF_SYNCHRONISING_END_TO_START 0.5

typedef struct
{
  size_t n_ranks;        /* ranks with samples */
  size_t n_occurrences;  /* occurrences that every one of them has */
  double start_spread;   /* median over those occurrences of latest - earliest start */
  double end_spread;     /* the same for the ends */
  bool   synchronising;  /* 2 ranks or more, start_spread > 0, and the rule above */
} TprofArrival;

/* Arrival at the operation whose samples are @gt (with starts; NULL or no
 * starts gives no occurrence). Occurrence k is the k-th sample of each
 * rank by start (tprof_occurrences_new()); the occurrences compared are
 * those every rank with samples has (tprof_occurrences_common()). When it
 * synchronises, each occurrence's late rank is charged the wait it caused
 * (tprof_arrival_occurrence()): added to @wait_caused[rank], and 1 to
 * @late_count[rank] (@world_size entries each, may be NULL). O(n log n).
 * Returns false when memory is exhausted or a rank of @gt is outside
 * [0, @world_size), leaving @wait_caused and @late_count untouched. */
TPROF_EXPORT bool tprof_arrival_analyze (const TprofGatheredTime *gt,
                                         int                      world_size,
                                         TprofArrival            *out,
                                         double                  *wait_caused,
                                         uint64_t                *late_count);

/* Arrival at occurrence @k of @occ, whose selection has starts, among the
 * ranks with samples: returns the late rank (the latest start; the lowest
 * rank among equal ones), or -1 when @k >= tprof_occurrences_common() or
 * the selection has no starts. @lateness (may be NULL; world_size
 * entries) gets each rank's start minus the earliest start (NaN for ranks
 * without samples); @wait (may be NULL) the wait the late rank caused:
 * the sum over the other ranks of (latest start - their start). */
TPROF_EXPORT int tprof_arrival_occurrence (const TprofOccurrences *occ,
                                           size_t                  k,
                                           double                 *lateness,
                                           double                 *wait);

/* The straggler is named only when it stands out: a run without one still
 * has a last rank at every occurrence, and some rank caused the most wait.
 * The rank with the largest wait caused is named when it came last
 * significantly more often than chance: a one-sided binomial test of its
 * late count among the synchronising occurrences, with the chance of being
 * last 1 / (ranks at the occurrence) (averaged over the occurrences), and
 * Bonferroni's correction for having picked one of the ranks. */
#define TPROF_STRAGGLER_ALPHA 0.001

/* P(X >= @k) for X ~ Binomial(@n, @p). */
TPROF_EXPORT double tprof_binomial_upper_tail (uint64_t k,
                                               uint64_t n,
                                               double   p);

/* The straggler among @world_size ranks whose @wait_caused and @late_count
 * were summed by tprof_arrival_analyze() over @occurrences synchronising
 * occurrences in all, where a given rank is last with probability @chance
 * by chance alone; -1 when no rank stands out by the rule above (none
 * caused any wait, or the one that caused most did not come last
 * significantly often). *@p_value (when not NULL) gets the test's
 * corrected p-value for that rank, NaN when there was none to test. */
TPROF_EXPORT int tprof_straggler_name (const double   *wait_caused,
                                       const uint64_t *late_count,
                                       int             world_size,
                                       uint64_t        occurrences,
                                       double          chance,
                                       double         *p_value);

/* Blame summed over the operations of one profile: add each operation's
 * samples (with starts) in turn; the synchronising ones charge their late
 * ranks, and the straggler is named by the rule above. */
typedef struct _TprofStragglers TprofStragglers;

/* NULL when @world_size < 1 or memory is exhausted. */
TPROF_EXPORT TprofStragglers *tprof_stragglers_new (int world_size);
TPROF_EXPORT void tprof_stragglers_free (TprofStragglers *s);
/* Analyzes the operation whose samples are @gt (tprof_arrival_analyze(),
 * whose result goes to @arrival when not NULL) and adds its blame when it
 * synchronises the ranks. False when memory is exhausted. */
TPROF_EXPORT bool tprof_stragglers_add (TprofStragglers         *s,
                                        const TprofGatheredTime *gt,
                                        TprofArrival            *arrival);
/* tprof_straggler_name() over everything added: a rank, or -1. */
TPROF_EXPORT int tprof_stragglers_name (const TprofStragglers *s,
                                        double                *p_value);
TPROF_EXPORT int tprof_stragglers_world_size (const TprofStragglers *s);
/* Per rank, world_size entries, owned by @s. */
TPROF_EXPORT const double   *tprof_stragglers_wait_caused (const TprofStragglers *s);
TPROF_EXPORT const uint64_t *tprof_stragglers_late_count (const TprofStragglers *s);
/* Occurrences of the synchronising operations, the late count a rank gets
 * by chance over them, and how many operations synchronise. */
TPROF_EXPORT uint64_t tprof_stragglers_occurrences (const TprofStragglers *s);
TPROF_EXPORT double   tprof_stragglers_expected_late (const TprofStragglers *s);
TPROF_EXPORT size_t   tprof_stragglers_n_synchronising (const TprofStragglers *s);
/* Per rank (world_size entries, owned by @s), the late count it gets by
 * chance: over the synchronising operations where it has samples, their
 * occurrences divided by the ranks with samples. They sum to
 * tprof_stragglers_occurrences(). */
TPROF_EXPORT const double *tprof_stragglers_expected_late_ranks (const TprofStragglers *s);

/* Blame per group of @topo's @level (n_groups entries each, any may be
 * NULL): the sums over its ranks of late count, wait caused and late count
 * by chance. A group's late count is the number of occurrences at which
 * the last rank was one of its ranks. @topo has @s's world size. */
TPROF_EXPORT void tprof_stragglers_group_blame (const TprofStragglers *s,
                                                const TprofTopology   *topo,
                                                size_t                 level,
                                                uint64_t              *late_count,
                                                double                *wait_caused,
                                                double                *expected_late);

/* What explains the late arrivals: a group of ranks (a host, or a group
 * of a higher level), one rank, or nothing.
 *
 * From @level down to host: the group with the most wait caused is tested
 * like a rank (its late count against its chance, the share of the
 * expected late counts its ranks hold, Bonferroni over the level's
 * groups). When it stands out, the test goes down into it: when one of its
 * groups of the level below (or one of its ranks) holds significantly more
 * of its lates than its share (a binomial test among the group's lates,
 * Bonferroni over its members), that member explains them instead, and is
 * tested in turn; when none does, the group's ranks were late together and
 * the group is named. A group of one member is that member. Reaching the
 * rank level, or no group standing out, leaves the verdict to the rank
 * test (tprof_stragglers_name()). */
typedef enum
{
  TPROF_STRAGGLER_VERDICT_NONE,
  TPROF_STRAGGLER_VERDICT_RANK,
  TPROF_STRAGGLER_VERDICT_GROUP,
} TprofStragglerVerdictKind;

typedef struct
{
  TprofStragglerVerdictKind kind;
  int      rank;           /* tprof_stragglers_name(): the straggler rank, or -1 */
  double   rank_p_value;   /* its p-value */
  uint64_t occurrences;    /* synchronising occurrences in all */
  /* GROUP only: */
  size_t   level;          /* the level of the group named */
  size_t   group;          /* the group named */
  uint64_t late_count;     /* occurrences where one of its ranks came last */
  double   wait_caused;    /* the wait its ranks caused */
  double   expected_late;  /* its late count by chance */
  double   p_value;        /* its late count against chance, corrected over its level */
  double   spread_p_value; /* its most often late member's share of its lates, corrected: not significant */
  int      latest_rank;    /* its rank last most often (ties: more wait, then lower rank) */
} TprofStragglerVerdict;

/* The verdict above, looking at groups from @topo's @level down
 * (TPROF_TOPOLOGY_RANK: the rank test alone). False when memory is
 * exhausted, @topo's world size is not @s's or @level is not one of its
 * levels. */
TPROF_EXPORT bool tprof_stragglers_decide (const TprofStragglers  *s,
                                           const TprofTopology    *topo,
                                           size_t                  level,
                                           TprofStragglerVerdict  *out);

TPROF_END_DECLS
