/* tprof-topology.h — TprofTopology: the ranks of a run grouped by host, and hosts by higher levels (switch, rack) from a topology file. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-breakdown.h>
#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* Levels of a topology, lowest first: level 0 has one group per rank,
 * level 1 one per host, and levels 2 and up are those a topology file
 * names (docs/topology.md). Each group of a level lies wholly inside one
 * group of the level above: the levels form a tree. */
#define TPROF_TOPOLOGY_RANK 0
#define TPROF_TOPOLOGY_HOST 1

typedef struct _TprofTopology TprofTopology;

/* Ranks 0 .. @world_size - 1 grouped by host: @hostnames[r] (@world_size
 * entries, copied) names rank r's host. A rank whose entry is NULL or
 * empty, or every rank when @hostnames is NULL, is a host of its own,
 * named "". Groups of a level are numbered in the order of their lowest
 * rank. NULL with @error set when @world_size < 1 or memory is
 * exhausted; free with tprof_topology_free(). */
TPROF_EXPORT TprofTopology *tprof_topology_new (int                world_size,
                                                const char *const *hostnames,
                                                TprofError        *error);
TPROF_EXPORT void tprof_topology_free (TprofTopology *topo);

/* Adds the levels above host that the topology text @text (@length bytes)
 * describes; @origin (a file name) starts every error message. -1 with
 * @error naming the line and what is wrong (an unknown directive, a level
 * named twice, a rank outside the run, a rank or host with no line, a
 * group inside two groups of the level above), the topology unchanged.
 * Only once per topology. */
TPROF_EXPORT int tprof_topology_parse (TprofTopology *topo,
                                       const char    *text,
                                       size_t         length,
                                       const char    *origin,
                                       TprofError    *error);
/* tprof_topology_parse() of the file at @path. */
TPROF_EXPORT int tprof_topology_load (TprofTopology *topo,
                                      const char    *path,
                                      TprofError    *error);

TPROF_EXPORT int    tprof_topology_world_size (const TprofTopology *topo);
/* Whether some host holds two ranks or more: host names group ranks. */
TPROF_EXPORT bool   tprof_topology_has_hosts (const TprofTopology *topo);
TPROF_EXPORT size_t tprof_topology_n_levels (const TprofTopology *topo);
/* "rank", "host", then the file's level names. */
TPROF_EXPORT const char *tprof_topology_level_name (const TprofTopology *topo,
                                                    size_t               level);
/* The level named @name, or -1. */
TPROF_EXPORT int tprof_topology_find_level (const TprofTopology *topo,
                                            const char          *name);

/* The level blame is grouped at unless asked otherwise: the highest with
 * two groups or more, fewer than the ranks; rank when there is none (no
 * host names, every rank on one host). */
TPROF_EXPORT size_t tprof_topology_default_level (const TprofTopology *topo);

TPROF_EXPORT size_t tprof_topology_n_groups (const TprofTopology *topo,
                                             size_t               level);
/* The group's name (owned by @topo); NULL at the rank level. */
TPROF_EXPORT const char *tprof_topology_group_name (const TprofTopology *topo,
                                                    size_t               level,
                                                    size_t               group);
/* The group of @rank at @level. */
TPROF_EXPORT size_t tprof_topology_group_of (const TprofTopology *topo,
                                             size_t               level,
                                             int                  rank);
/* The group's ranks, ascending (owned by @topo); *@n_ranks gets their
 * number. */
TPROF_EXPORT const int32_t *tprof_topology_group_ranks (const TprofTopology *topo,
                                                        size_t               level,
                                                        size_t               group,
                                                        size_t              *n_ranks);

/* An operation's per-rank sample counts and total times (@rank_count,
 * @rank_sum: world_size entries) summed per group of @level, over the
 * ranks @selected (world_size flags; NULL: every rank): @count, @sum and
 * @ranks_with_samples get n_groups entries each. */
TPROF_EXPORT void tprof_topology_group_totals (const TprofTopology *topo,
                                               size_t               level,
                                               const int64_t       *rank_count,
                                               const double        *rank_sum,
                                               const bool          *selected,
                                               int64_t             *count,
                                               double              *sum,
                                               size_t              *ranks_with_samples);

/* The shown groups of @level (those with a rank @selected: world_size
 * flags; NULL: every rank) gathered, in group order, into at most
 * @max_bins rows of a chart, consecutive groups each, their sizes
 * differing by one at most: one row per group when they are few enough.
 * @group_bin (n_groups entries) gets each group's row, SIZE_MAX for a
 * group not shown; @bin_first and @bin_last (@max_bins entries) each
 * row's first and last group. Returns the rows used (0: nothing shown). */
TPROF_EXPORT size_t tprof_topology_bin_groups (const TprofTopology *topo,
                                               size_t               level,
                                               const bool          *selected,
                                               size_t               max_bins,
                                               size_t              *group_bin,
                                               size_t              *bin_first,
                                               size_t              *bin_last);

/* An operation's samples on a group's ranks shown. */
typedef struct
{
  size_t  ranks_shown;  /* its ranks @selected */
  int64_t count;        /* their samples */
  double  sum;          /* their total time */
  double  mean;         /* sum / count; NaN without samples */
} TprofGroupTotals;

/* @out (n_groups entries of @level) from an operation's per-rank sample
 * counts and totals (@rank_count, @rank_sum: world_size entries) over the
 * ranks @selected (world_size flags; NULL: every rank). */
TPROF_EXPORT void tprof_topology_group_summaries (const TprofTopology *topo,
                                                  size_t               level,
                                                  const int64_t       *rank_count,
                                                  const double        *rank_sum,
                                                  const bool          *selected,
                                                  TprofGroupTotals    *out);


/* A bar of a per-rank chart whose ranks are gathered by group (host). */
typedef struct
{
  size_t           first_group;  /* its groups, consecutive */
  size_t           last_group;
  size_t           top_group;    /* the group whose value it shows */
  size_t           ranks_shown;  /* that group's ranks with samples */
  /* that group's samples together: count and sum added, mean = sum /
   * count, std (N-1) and extremes over all its samples; rank: its lowest
   * rank shown */
  TprofRankSummary summary;
} TprofGroupBar;

/* The ranks of a per-rank chart (@ranks: @n_ranks summaries, as
 * tprof_operation_index_rank_summaries() gives them) gathered by the
 * groups of @level into at most @max_bars bars of consecutive groups (as
 * tprof_topology_bin_groups() bins them): a bar of one group shows the
 * summary of its ranks together; a bar of several shows that of its group
 * with the largest sum (@by_mean: mean), so that gathering never hides a
 * slow host. Writes @out (@max_bars entries); returns the bars written, 0
 * for none, (size_t) -1 when memory is exhausted. */
TPROF_EXPORT size_t tprof_topology_group_bars (const TprofTopology    *topo,
                                               size_t                  level,
                                               const TprofRankSummary *ranks,
                                               size_t                  n_ranks,
                                               bool                    by_mean,
                                               size_t                  max_bars,
                                               TprofGroupBar          *out);

/* What the @n_bars bars @bars (of tprof_topology_group_bars(), @level)
 * show, taken from other rank summaries @ranks (@n_ranks, ascending; a
 * baseline run's, of the same world): each bar's top_group summarised
 * over its ranks in @ranks as tprof_topology_group_bars() does.
 * A group without samples there gets count 0 and NaN sum and mean.
 * Writes @out (@n_bars entries); false when memory is exhausted. */
TPROF_EXPORT bool tprof_topology_bar_summaries (const TprofTopology    *topo,
                                                size_t                  level,
                                                const TprofGroupBar    *bars,
                                                size_t                  n_bars,
                                                const TprofRankSummary *ranks,
                                                size_t                  n_ranks,
                                                TprofRankSummary       *out);

/* The columns of breakdown @b (its ranks) gathered by the groups of
 * @level into at most @max_bars bars of consecutive groups, as
 * tprof_topology_group_bars() gathers a per-rank chart's: a bar of one
 * group holds each part summed over the group's ranks; a bar of several,
 * those of its group with the largest total (all parts; an unknown self
 * time counts 0), as the Total chart's bar of a run shows. Returns a
 * breakdown whose columns are the bars (n_ranks of them; ranks[j]: the
 * lowest rank of the group shown; a self time NaN where a rank's was) and
 * writes @bars (@max_bars entries: groups, group shown, its ranks shown;
 * summary.sum its total, summary.rank its lowest rank, no count); NULL
 * when memory is exhausted. Free with tprof_breakdown_free(). */
TPROF_EXPORT TprofBreakdown *tprof_topology_group_breakdown (const TprofTopology  *topo,
                                                             size_t                level,
                                                             const TprofBreakdown *b,
                                                             size_t                max_bars,
                                                             TprofGroupBar        *bars);

TPROF_END_DECLS
