/* tprof-gather-union.c — the union of every rank's operation names, and where each rank's samples land in it. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-gather-mpi-private.h"

static uint64_t
gather_hash_name (const char *s)
{
  uint64_t h = 14695981039346656037u;

  for (; *s != '\0'; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211u;
  return h;
}

/* The union of the names, in the order of the first rank that has each one,
 * and where each (rank, name)'s samples go in its operation. */
int
_tprof_gather_unite_names (TprofGather *g, TprofError *error)
{
  size_t n = g->name_base[g->size];
  size_t cap = 16;
  size_t *slots;

  while (cap / 2 < n)
    if (!_tprof_gather_size_mul (cap, 2, &cap))
      return _tprof_gather_set_no_memory (error, "merging the operation names");
  slots = calloc (cap, sizeof *slots);
  g->op_names = malloc ((n > 0 ? n : 1) * sizeof *g->op_names);
  g->op_counts = calloc (n > 0 ? n : 1, sizeof *g->op_counts);
  if (slots == NULL || g->op_names == NULL || g->op_counts == NULL)
    {
      free (slots);
      return _tprof_gather_set_no_memory (error, "merging the operation names");
    }
  for (size_t i = 0; i < n; i++)
    {
      size_t s = gather_hash_name (g->name_str[i]) & (cap - 1);

      while (slots[s] != 0 && strcmp (g->op_names[slots[s] - 1], g->name_str[i]) != 0)
        s = (s + 1) & (cap - 1);
      if (slots[s] == 0)
        {
          g->op_names[g->n_ops] = g->name_str[i];
          slots[s] = ++g->n_ops;
        }
      g->name_op[i] = slots[s] - 1;
      /* ranks come in ascending order, so the samples end up grouped by rank;
       * the sum is bounded by the total checked in _tprof_gather_share_sizes() */
      g->name_offset[i] = g->op_counts[g->name_op[i]];
      g->op_counts[g->name_op[i]] += g->name_count[i];
    }
  free (slots);
  return 0;
}
