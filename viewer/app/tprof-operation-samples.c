/* tprof-operation-samples.c — TprofOperationSamples: an operation's index and heat map, built once in a worker and shared by reference. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include "tprof-operation-samples.h"

struct _TprofOperationSamples
{
  TprofOperationIndex *index;
  TprofProfileHeat    *heat;
  gsize                size;
};

static void
profile_heat_free (TprofProfileHeat *heat)
{
  if (heat == NULL)
    return;
  g_free (heat->cells);
  g_free (heat->deviation);
  g_free (heat->column_starts);
  g_free (heat);
}

/* The heat map of @gt, one column for at most TPROF_PROFILE_HEAT_COLUMNS
 * occurrences each, rows from its lowest to its highest rank; NULL
 * without starts (or memory). */
static TprofProfileHeat *
profile_heat_new (const TprofGatheredTime *gt,
                  int                      world_size)
{
  TprofError error = { 0 };
  TprofOccurrences *occ;
  TprofProfileHeat *heat;
  const int32_t *present;
  g_autofree gint32 *rows = NULL;
  size_t n;

  if (tprof_gathered_time_count (gt) == 0 || tprof_gathered_time_starts (gt) == NULL
      || (occ = tprof_occurrences_new (gt, world_size, &error)) == NULL)
    return NULL;
  present = tprof_occurrences_ranks (occ);
  n = tprof_heatmap_occurrences (occ);
  heat = g_new0 (TprofProfileHeat, 1);
  heat->first_rank = present[0];
  heat->n_rows = (guint) (present[tprof_occurrences_n_ranks (occ) - 1] - present[0] + 1);
  heat->n_occurrences = n;
  rows = g_new (gint32, heat->n_rows);
  for (guint i = 0; i < heat->n_rows; i++)
    rows[i] = heat->first_rank + (gint32) i;
  heat->cells = g_new (double, (gsize) heat->n_rows * MIN (n, TPROF_PROFILE_HEAT_COLUMNS));
  heat->deviation = g_new (double, (gsize) heat->n_rows * MIN (n, TPROF_PROFILE_HEAT_COLUMNS));
  heat->n_cols = (guint) tprof_heatmap_fill (occ, rows, heat->n_rows, MIN (n, TPROF_PROFILE_HEAT_COLUMNS),
                                             TPROF_HEATMAP_DURATION, heat->cells);
  if (heat->n_cols > 0
      && tprof_heatmap_fill (occ, rows, heat->n_rows, MIN (n, TPROF_PROFILE_HEAT_COLUMNS),
                             TPROF_HEATMAP_DEVIATION, heat->deviation) != heat->n_cols)
    heat->n_cols = 0;
  if (heat->n_cols > 0)
    {
      heat->column_starts = g_new (double, heat->n_cols);
      tprof_heatmap_column_starts (occ, heat->n_cols, heat->column_starts);
    }
  tprof_occurrences_free (occ);
  if (heat->n_cols == 0)
    {
      profile_heat_free (heat);
      return NULL;
    }
  return heat;
}

static void
operation_samples_clear (TprofOperationSamples *self)
{
  tprof_operation_index_free (self->index);
  profile_heat_free (self->heat);
}

TprofOperationSamples *
_tprof_operation_samples_new (const TprofGatheredTime *gt,
                              int                      world_size,
                              TprofProgressFunc        progress,
                              void                    *user_data,
                              const volatile int      *cancel,
                              TprofError              *error)
{
  TprofOperationSamples *self;
  TprofOperationIndex *index;

  index = tprof_operation_index_new (gt, progress, user_data, cancel, error);
  if (index == NULL)
    return NULL;
  self = g_atomic_rc_box_new0 (TprofOperationSamples);
  self->index = index;
  self->heat = profile_heat_new (gt, world_size);
  /* the index keeps each sample's value and rank, sorted per rank */
  self->size = tprof_operation_index_count (index) * (sizeof (double) + sizeof (gint32));
  if (self->heat != NULL)
    self->size += 2 * (gsize) self->heat->n_rows * self->heat->n_cols * sizeof (double);
  return self;
}

TprofOperationSamples *
_tprof_operation_samples_ref (TprofOperationSamples *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
_tprof_operation_samples_unref (TprofOperationSamples *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, (GDestroyNotify) operation_samples_clear);
}

const TprofOperationIndex *
_tprof_operation_samples_get_index (const TprofOperationSamples *self)
{
  return self->index;
}

const TprofProfileHeat *
_tprof_operation_samples_get_heat (const TprofOperationSamples *self)
{
  return self->heat;
}

gsize
_tprof_operation_samples_get_size (const TprofOperationSamples *self)
{
  return self->size;
}
