/* tprof-follow-samples.c — TprofFollowSamples: appending a followed job's new samples per operation, copied out for each snapshot. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tprof-follow-samples.h"

/* One operation's samples; GArray doubles its storage as it grows. */
typedef struct
{
  GArray *durations;  /* double */
  GArray *ranks;      /* gint32 */
  GArray *starts;     /* double */
} OperationStore;

struct _TprofFollowSamples
{
  GPtrArray *ops;     /* OperationStore *, by operation */
  guint64    total;
  guint64    max;
  gboolean   full;
};

static void
operation_store_free (OperationStore *store)
{
  g_array_unref (store->durations);
  g_array_unref (store->ranks);
  g_array_unref (store->starts);
  g_free (store);
}

TprofFollowSamples *
_tprof_follow_samples_new (guint64 max_samples)
{
  TprofFollowSamples *self = g_new0 (TprofFollowSamples, 1);

  self->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) operation_store_free);
  self->max = max_samples;
  return self;
}

void
_tprof_follow_samples_free (TprofFollowSamples *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->ops);
  g_free (self);
}

static OperationStore *
follow_samples_store (TprofFollowSamples *self,
                      gsize               op)
{
  while (self->ops->len <= op)
    g_ptr_array_add (self->ops, NULL);
  if (self->ops->pdata[op] == NULL)
    {
      OperationStore *store = g_new0 (OperationStore, 1);

      store->durations = g_array_new (FALSE, FALSE, sizeof (double));
      store->ranks = g_array_new (FALSE, FALSE, sizeof (gint32));
      store->starts = g_array_new (FALSE, FALSE, sizeof (double));
      self->ops->pdata[op] = store;
    }
  return self->ops->pdata[op];
}

int
_tprof_follow_samples_add (void         *user_data,
                           size_t        op,
                           int           rank,
                           size_t        n,
                           const double *starts,
                           const double *durations,
                           TprofError   *error)
{
  TprofFollowSamples *self = user_data;
  OperationStore *store;
  gsize kept = (gsize) MIN ((guint64) n, self->max - self->total);
  guint len;

  (void) error;
  if (kept < n)
    self->full = TRUE;
  if (kept == 0)
    return 0;
  store = follow_samples_store (self, op);
  len = store->durations->len;
  g_array_append_vals (store->durations, durations, kept);
  g_array_append_vals (store->starts, starts, kept);
  g_array_set_size (store->ranks, len + kept);
  for (gsize i = 0; i < kept; i++)
    g_array_index (store->ranks, gint32, len + i) = rank;
  self->total += kept;
  return 0;
}

TprofGatheredTime *
_tprof_follow_samples_dup (const TprofFollowSamples *self,
                           gsize                     op)
{
  const OperationStore *store = op < self->ops->len ? self->ops->pdata[op] : NULL;
  TprofGatheredTime *gt;
  double *starts;
  gsize n;

  if (store == NULL || store->durations->len == 0)
    return NULL;
  n = store->durations->len;
  gt = tprof_gathered_time_new ((const double *) store->durations->data, (const int32_t *) store->ranks->data, n);
  starts = malloc (n * sizeof *starts);
  if (gt == NULL || starts == NULL)
    {
      free (starts);
      tprof_gathered_time_free (gt);
      return NULL;
    }
  memcpy (starts, store->starts->data, n * sizeof *starts);
  tprof_gathered_time_set_timeline_take (gt, starts, NULL);
  return gt;
}

guint64
_tprof_follow_samples_get_total (const TprofFollowSamples *self)
{
  return self->total;
}

guint64
_tprof_follow_samples_get_max (const TprofFollowSamples *self)
{
  return self->max;
}

gboolean
_tprof_follow_samples_is_full (const TprofFollowSamples *self)
{
  return self->full;
}
