/* tprof-window-first-view.c — TprofWindow: which operation a profile opens on, so that the first chart agrees with the straggler bar. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>

#include "tprof-window-private.h"

/* The operation where @rank's total stands out most from the other ranks'
 * (the engine's rule, as the Slowest column), by the time it exceeds
 * their mean by; -1 when it stands out nowhere. Ranks without samples of
 * an operation take no part in it. */
static gssize
straggler_operation (TprofProfile *profile,
                     int           rank)
{
  int world = _tprof_profile_get_world_size (profile);
  g_autofree double *totals = g_new (double, MAX (world, 1));
  gssize best = -1;
  double best_excess = 0.0;

  for (gsize op = 0; op < _tprof_profile_get_n_operations (profile); op++)
    {
      const TprofOperationStats *stats = _tprof_profile_get_stats (profile, op);
      double others = 0.0, excess;
      int n_others = 0;

      if (stats == NULL || stats->rank_sum == NULL || rank >= world || stats->rank_count[rank] == 0)
        continue;
      for (int r = 0; r < world; r++)
        {
          totals[r] = stats->rank_count[r] > 0 ? stats->rank_sum[r] : NAN;
          if (r != rank && stats->rank_count[r] > 0)
            {
              others += stats->rank_sum[r];
              n_others++;
            }
        }
      if (n_others == 0 || !tprof_slowest_stands_out (totals, (size_t) world, (size_t) rank))
        continue;
      excess = totals[rank] - others / n_others;
      if (excess > best_excess)
        {
          best_excess = excess;
          best = (gssize) op;
        }
    }
  return best;
}

void
_tprof_window_reset_first_view (TprofWindow *self)
{
  self->first_view = TRUE;
  self->shown_index = -1;
  self->straggler_op_rank = -1;
}

void
_tprof_window_note_selection (TprofWindow *self)
{
  int index = _tprof_operation_table_get_selected_index (self->table);

  /* the user chose another operation: the window no longer chooses */
  if (!self->choosing && self->shown_index >= 0 && index >= 0 && index != self->shown_index)
    self->first_view = FALSE;
  self->shown_index = index;
}

void
_tprof_window_open_on_straggler (TprofWindow *self)
{
  gssize op;

  if (!self->first_view || self->profile == NULL || self->straggler < 0)
    return;
  /* the profile's statistics over every rank: a rank filter leaves the
   * answer as it is, so each table update reuses it */
  if (self->straggler_op_rank != self->straggler)
    {
      self->straggler_op = straggler_operation (self->profile, self->straggler);
      self->straggler_op_rank = self->straggler;
    }
  op = self->straggler_op;
  if (op < 0 || op == _tprof_operation_table_get_selected_index (self->table))
    return;
  self->choosing = TRUE;
  _tprof_operation_table_select_index (self->table, (int) op);
  self->choosing = FALSE;
}
