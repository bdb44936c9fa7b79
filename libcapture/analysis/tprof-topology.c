/* tprof-topology.c — TprofTopology: levels of groups of ranks (rank, host, then a topology file's levels), each group's ranks and name. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-analysis-internal.h"
#include "tprof-gathered-time-private.h"
#include "tprof-string-index-private.h"
#include "tprof-topology-private.h"

typedef struct
{
  char     *name;
  size_t    n_groups;
  char    **group_names;  /* n_groups; NULL at the rank level */
  uint32_t *group_of;     /* per rank */
  size_t   *first;        /* group g's ranks are members[first[g] .. first[g + 1]) */
  int32_t  *members;      /* ranks grouped by group, ascending within each */
} Level;

struct _TprofTopology
{
  int    world_size;
  size_t n_levels;
  Level  levels[TPROF_TOPOLOGY_MAX_LEVELS];
};

static void
level_clear (Level *lv)
{
  for (size_t g = 0; lv->group_names != NULL && g < lv->n_groups; g++)
    free (lv->group_names[g]);
  free (lv->group_names);
  free (lv->name);
  free (lv->group_of);
  free (lv->first);
  free (lv->members);
  memset (lv, 0, sizeof *lv);
}

static bool
level_alloc (Level      *lv,
             const char *name,
             int         world_size)
{
  size_t n = (size_t) world_size;

  lv->name = _tprof_strdup (name);
  lv->group_of = _tprof_malloc_array (n, sizeof *lv->group_of);
  lv->first = calloc (n + 1, sizeof *lv->first);
  lv->members = _tprof_malloc_array (n, sizeof *lv->members);
  return lv->name != NULL && lv->group_of != NULL && lv->first != NULL && lv->members != NULL;
}

/* Counting sort of the ranks by group (ascending within each). */
static void
level_fill_members (Level *lv,
                    int    world_size)
{
  for (int r = 0; r < world_size; r++)
    lv->first[lv->group_of[r] + 1]++;
  for (size_t g = 0; g < lv->n_groups; g++)
    lv->first[g + 1] += lv->first[g];
  for (int r = 0; r < world_size; r++)
    lv->members[lv->first[lv->group_of[r]]++] = r;
  for (size_t g = lv->n_groups; g > 0; g--)
    lv->first[g] = lv->first[g - 1];
  lv->first[0] = 0;
}

static bool
level_init_ranks (Level *lv,
                  int    world_size)
{
  if (!level_alloc (lv, "rank", world_size))
    return false;
  lv->n_groups = (size_t) world_size;
  for (int r = 0; r < world_size; r++)
    lv->group_of[r] = (uint32_t) r;
  level_fill_members (lv, world_size);
  return true;
}

/* Groups numbered by their lowest rank; a NULL or empty name is a group
 * of its own. */
static bool
level_init_named (Level             *lv,
                  const char        *name,
                  int                world_size,
                  const char *const *names)
{
  TprofStringIndex index = { 0 };
  bool ok = level_alloc (lv, name, world_size)
            && (lv->group_names = calloc ((size_t) world_size, sizeof *lv->group_names)) != NULL
            && _tprof_string_index_init (&index, (size_t) world_size);

  for (int r = 0; ok && r < world_size; r++)
    {
      const char *group = names != NULL && names[r] != NULL ? names[r] : "";
      bool added = true;

      lv->group_of[r] = group[0] == '\0' ? (uint32_t) lv->n_groups
                        : _tprof_string_index_intern (&index, group, (uint32_t) lv->n_groups, &added);
      if (added)
        ok = (lv->group_names[lv->n_groups++] = _tprof_strdup (group)) != NULL;
    }
  _tprof_string_index_clear (&index);
  if (ok)
    level_fill_members (lv, world_size);
  return ok;
}

TprofTopology *
tprof_topology_new (int                world_size,
                    const char *const *hostnames,
                    TprofError        *error)
{
  TprofTopology *topo;

  if (world_size < 1)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "world size %d is not positive", world_size);
      return NULL;
    }
  topo = calloc (1, sizeof *topo);
  if (topo == NULL || !level_init_ranks (&topo->levels[0], world_size)
      || !level_init_named (&topo->levels[1], "host", world_size, hostnames))
    {
      tprof_topology_free (topo);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory grouping %d ranks", world_size);
      return NULL;
    }
  topo->world_size = world_size;
  topo->n_levels = 2;
  return topo;
}

void
tprof_topology_free (TprofTopology *topo)
{
  if (topo == NULL)
    return;
  for (size_t i = 0; i < TPROF_TOPOLOGY_MAX_LEVELS; i++)
    level_clear (&topo->levels[i]);
  free (topo);
}

/* Each group of @below within one group of @above. */
static int
check_nested (const Level *below,
              const Level *above,
              const char  *origin,
              TprofError  *error)
{
  for (size_t g = 0; g < below->n_groups; g++)
    {
      uint32_t parent = above->group_of[below->members[below->first[g]]];

      for (size_t i = below->first[g] + 1; i < below->first[g + 1]; i++)
        {
          int32_t r = below->members[i];

          if (above->group_of[r] != parent)
            return tprof_error_set (error, TPROF_ERROR_FORMAT,
                                    "%s: %s %s (rank %d) is in %s %s and in %s %s: each %s lies in one %s",
                                    origin, below->name, below->group_names[g], (int) r, above->name,
                                    above->group_names[parent], above->name,
                                    above->group_names[above->group_of[r]], below->name, above->name);
        }
    }
  return 0;
}

int
_tprof_topology_add_level (TprofTopology     *topo,
                           const char        *name,
                           const char *const *group_names,
                           const char        *origin,
                           TprofError        *error)
{
  Level *lv = &topo->levels[topo->n_levels];

  if (topo->n_levels >= TPROF_TOPOLOGY_MAX_LEVELS)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: more than %d levels", origin,
                            TPROF_TOPOLOGY_MAX_LEVELS - 2);
  if (!level_init_named (lv, name, topo->world_size, group_names))
    {
      level_clear (lv);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", origin);
    }
  if (check_nested (&topo->levels[topo->n_levels - 1], lv, origin, error) != 0)
    {
      level_clear (lv);
      return -1;
    }
  topo->n_levels++;
  return 0;
}

int
tprof_topology_world_size (const TprofTopology *topo)
{
  return topo->world_size;
}

bool
tprof_topology_has_hosts (const TprofTopology *topo)
{
  return topo->levels[TPROF_TOPOLOGY_HOST].n_groups < (size_t) topo->world_size;
}

size_t
tprof_topology_n_levels (const TprofTopology *topo)
{
  return topo->n_levels;
}

const char *
tprof_topology_level_name (const TprofTopology *topo,
                           size_t               level)
{
  return level < topo->n_levels ? topo->levels[level].name : NULL;
}

int
tprof_topology_find_level (const TprofTopology *topo,
                           const char          *name)
{
  for (size_t i = 0; i < topo->n_levels; i++)
    if (strcmp (topo->levels[i].name, name) == 0)
      return (int) i;
  return -1;
}

size_t
tprof_topology_default_level (const TprofTopology *topo)
{
  for (size_t level = topo->n_levels - 1; level > TPROF_TOPOLOGY_RANK; level--)
    if (topo->levels[level].n_groups >= 2 && topo->levels[level].n_groups < (size_t) topo->world_size)
      return level;
  return TPROF_TOPOLOGY_RANK;
}

size_t
tprof_topology_n_groups (const TprofTopology *topo,
                         size_t               level)
{
  return topo->levels[level].n_groups;
}

const char *
tprof_topology_group_name (const TprofTopology *topo,
                           size_t               level,
                           size_t               group)
{
  const Level *lv = &topo->levels[level];

  return lv->group_names != NULL && group < lv->n_groups ? lv->group_names[group] : NULL;
}

size_t
tprof_topology_group_of (const TprofTopology *topo,
                         size_t               level,
                         int                  rank)
{
  return topo->levels[level].group_of[rank];
}

const int32_t *
tprof_topology_group_ranks (const TprofTopology *topo,
                            size_t               level,
                            size_t               group,
                            size_t              *n_ranks)
{
  const Level *lv = &topo->levels[level];

  *n_ranks = lv->first[group + 1] - lv->first[group];
  return lv->members + lv->first[group];
}

void
_tprof_topology_truncate (TprofTopology *topo,
                          size_t         n_levels)
{
  for (; topo->n_levels > n_levels && topo->n_levels > 2; topo->n_levels--)
    level_clear (&topo->levels[topo->n_levels - 1]);
}
