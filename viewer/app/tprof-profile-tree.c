/* tprof-profile-tree.c — TprofProfile: the operation tree (each operation's parent, its self time in all and per rank) from the engine's nesting of every sample. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>

#include "tprof-profile-private.h"

void
_tprof_profile_tree_free (TprofProfileTree *tree)
{
  if (tree == NULL)
    return;
  g_free (tree->parent);
  g_free (tree->self_sum);
  g_free (tree->rank_self);
  g_free (tree);
}

gboolean
_tprof_profile_tree_fits (guint64 total_samples,
                          gsize   n_ops,
                          int     world_size)
{
  return total_samples <= TPROF_PROFILE_TREE_MAX_SAMPLES
         && (guint64) n_ops * (guint64) MAX (world_size, 1) <= TPROF_PROFILE_TREE_MAX_RANK_CELLS;
}

TprofProfileTree *
_tprof_profile_tree_new (TprofGatheredTime *const *gts,
                         gsize                     n_ops,
                         int                       world_size)
{
  TprofProfileTree *tree;
  TprofNesting *nesting;
  TprofError error = { 0 };
  gboolean timed = FALSE;

  /* a file without a timeline (format 1, or a writer that kept no starts) has no tree */
  for (gsize i = 0; i < n_ops; i++)
    {
      if (tprof_gathered_time_count (gts[i]) == 0)
        continue;
      if (tprof_gathered_time_starts (gts[i]) == NULL)
        return NULL;
      timed = TRUE;
    }
  if (!timed)
    return NULL;
  nesting = tprof_nesting_new ((const TprofGatheredTime *const *) gts, n_ops, &error);
  if (nesting == NULL)
    return NULL;

  tree = g_new0 (TprofProfileTree, 1);
  tree->parent = g_new (gssize, MAX (n_ops, 1));
  tree->self_sum = g_new (double, MAX (n_ops, 1));
  tree->rank_self = g_new0 (double, MAX (n_ops * (gsize) world_size, 1));
  for (gsize i = 0; i < n_ops; i++)
    {
      size_t parent;

      tree->parent[i] = tprof_nesting_parent_operation (nesting, i, &parent) ? (gssize) parent : -1;
      tree->self_sum[i] = tprof_nesting_self_sum (nesting, i);
      if (!tprof_nesting_rank_self_sums (nesting, i, gts[i], world_size, tree->rank_self + i * (gsize) world_size))
        for (int r = 0; r < world_size; r++)
          tree->rank_self[i * (gsize) world_size + r] = NAN;
    }
  tprof_nesting_free (nesting);
  return tree;
}

gboolean
_tprof_profile_has_tree (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  return self->contents != NULL && self->contents->tree != NULL;
}

gssize
_tprof_profile_get_parent (TprofProfile *self,
                           gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), -1);
  if (!_tprof_profile_has_tree (self) || op >= self->contents->n_ops)
    return -1;
  return self->contents->tree->parent[op];
}

const double *
_tprof_profile_get_rank_self_sums (TprofProfile *self,
                                   gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (!_tprof_profile_has_tree (self) || op >= self->contents->n_ops
      || isnan (self->contents->tree->self_sum[op]))
    return NULL;
  return self->contents->tree->rank_self + op * (gsize) self->contents->world_size;
}

const TprofOperationStats *
_tprof_profile_get_stats (TprofProfile *self,
                          gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (op >= _tprof_profile_get_n_operations (self))
    return NULL;
  return self->contents->stats[op];
}

double
_tprof_profile_get_self_time (TprofProfile *self,
                              gsize         op,
                              const guint8 *mask)
{
  const TprofOperationStats *stats;
  const double *rank_self;
  TprofSummary summary;

  g_return_val_if_fail (TPROF_IS_PROFILE (self), NAN);
  if (!_tprof_profile_has_tree (self) || op >= self->contents->n_ops)
    return NAN;
  if (mask == NULL)
    return self->contents->tree->self_sum[op];
  rank_self = _tprof_profile_get_rank_self_sums (self, op);
  if (rank_self == NULL)
    return NAN;
  /* the self times of the ranks shown, summed as the engine sums rank totals */
  stats = self->contents->stats[op];
  if (!tprof_rank_totals_summarize (stats->rank_count, rank_self, rank_self, rank_self,
                                    self->contents->world_size, mask, &summary))
    return NAN;
  return summary.count > 0 ? summary.sum : 0.0;
}
