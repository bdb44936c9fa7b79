/* tprof-topology-private.h — what the topology's files share: adding a level named per rank. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <tprof/tprof-topology.h>

/* Levels at most, rank and host included. */
#define TPROF_TOPOLOGY_MAX_LEVELS 16

/* Adds level @name on top: rank r belongs to the group named
 * @group_names[r] (copied). -1 with @error (its message starting with
 * @origin) when a group of the level below would lie in two groups of
 * this one, or memory is exhausted; nothing is added then. */
int _tprof_topology_add_level (TprofTopology     *topo,
                               const char        *name,
                               const char *const *group_names,
                               const char        *origin,
                               TprofError        *error);

/* Drops the levels from @n_levels up (at least 2 stay). */
void _tprof_topology_truncate (TprofTopology *topo,
                               size_t         n_levels);
