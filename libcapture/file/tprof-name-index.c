/* tprof-name-index.c — an opened profile's operations found by name: a hash table built at open, which refuses a name given twice. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-reader-private.h"

/* Operation @k's name: @names[k], else (@names NULL) its record's. */
static inline const char *
name_index_name (const TprofProfileFile *pf,
                 const char *const      *names,
                 size_t                  k)
{
  return names != NULL ? names[k] : pf->ops[k].name;
}

/* The slot holding operation @name, or the empty one where it would go. */
static size_t
name_index_slot (const TprofProfileFile *pf,
                 const char *const      *names,
                 const char             *name)
{
  size_t i = (size_t) _tprof_name_hash (name, pf->name_seed) & pf->name_mask;

  /* linear probing: the table is at most half full */
  while (pf->name_slots[i] != 0 && strcmp (name_index_name (pf, names, pf->name_slots[i] - 1), name) != 0)
    i = (i + 1) & pf->name_mask;
  return i;
}

int
_tprof_h5_index_names_of (TprofProfileFile  *pf,
                          const char *const *names,
                          size_t             n,
                          TprofError        *error)
{
  size_t size = 16;

  while (size < 2 * n)
    size *= 2;
  free (pf->name_slots);
  pf->name_slots = calloc (size, sizeof *pf->name_slots);
  if (pf->name_slots == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
  pf->name_mask = size - 1;
  /* a seed of this table's own: names a file chose cannot be made to
   * collide in advance */
  pf->name_seed = (uint64_t) (uintptr_t) pf->name_slots * 0x9e3779b97f4a7c15u;
  for (size_t k = 0; k < n; k++)
    {
      const char *name = name_index_name (pf, names, k);
      size_t i = name_index_slot (pf, names, name);
      size_t earlier = pf->name_slots[i] - 1;

      if (pf->name_slots[i] == 0)
        pf->name_slots[i] = k + 1;
      /* the first operation, in file order, that repeats an earlier one
       * (an isolated reader's client has no link names: its helper
       * refused any duplicate before) */
      else if (names != NULL || pf->format_version >= 3 || pf->ops[k].link_name == NULL)
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: operations/name[%zu]: duplicate of "
                                "operations/name[%zu] ('%s')", pf->path, k, earlier, name);
      else
        return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: duplicate operation name '%s' (again in /timings/%s)",
                                pf->path, name, pf->ops[k].link_name);
    }
  return 0;
}

int
_tprof_h5_index_names (TprofProfileFile *pf,
                       TprofError       *error)
{
  return _tprof_h5_index_names_of (pf, NULL, pf->n_ops, error);
}

size_t
_tprof_h5_find_name (const TprofProfileFile *pf,
                     const char             *name)
{
  size_t i;

  if (pf->name_slots == NULL)
    return TPROF_PROFILE_FILE_NOT_FOUND;
  i = name_index_slot (pf, NULL, name);
  return pf->name_slots[i] != 0 ? pf->name_slots[i] - 1 : TPROF_PROFILE_FILE_NOT_FOUND;
}
