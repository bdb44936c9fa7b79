/* tprof-follow-samples.c — TprofFollowSamples: appending a followed job's new samples per operation, copied out for each snapshot. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tprof-follow-samples.h"

/* One operation's samples in arrays that never move: a snapshot shares
 * the first len of them while later ones are appended after; outgrown, they
 * are copied once into arrays twice as large (amortised growth), the old
 * ones freed when no snapshot uses them any more. */
typedef struct
{
  double *durations;
  gint32 *ranks;
  double *starts;
  gsize   capacity;
} Block;

typedef struct
{
  Block *block;  /* atomic reference counted */
  gsize  len;
} OperationStore;

struct _TprofFollowSamples
{
  GPtrArray *ops;     /* OperationStore *, by operation */
  guint64    total;
  guint64    max;
  gboolean   full;
};

/* Large arrays in huge pages where the system allows: a refresh brings
 * up to millions of samples, and faulting them in 4 KiB pages costs more
 * than reading them. */
#define HUGE_PAGE ((gsize) 2 << 20)

static gpointer
block_alloc (gsize bytes)
{
  void *p = NULL;

  if (bytes < HUGE_PAGE)
    return g_malloc (bytes);
  if (posix_memalign (&p, HUGE_PAGE, bytes) != 0)
    g_error ("out of memory: %" G_GSIZE_FORMAT " bytes", bytes);
#ifdef MADV_HUGEPAGE
  madvise (p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

static void
block_clear (Block *block)
{
  free (block->durations);
  free (block->ranks);
  free (block->starts);
}

static void
block_unref (void *block)
{
  g_atomic_rc_box_release_full (block, (GDestroyNotify) block_clear);
}

/* A block of @capacity holding the first @len samples of @old (may be NULL). */
static Block *
block_new (const Block *old,
           gsize        len,
           gsize        capacity)
{
  Block *block = g_atomic_rc_box_new0 (Block);

  block->capacity = capacity;
  block->durations = block_alloc (capacity * sizeof (double));
  block->ranks = block_alloc (capacity * sizeof (gint32));
  block->starts = block_alloc (capacity * sizeof (double));
  if (old != NULL && len > 0)
    {
      memcpy (block->durations, old->durations, len * sizeof (double));
      memcpy (block->ranks, old->ranks, len * sizeof (gint32));
      memcpy (block->starts, old->starts, len * sizeof (double));
    }
  return block;
}

static void
operation_store_free (OperationStore *store)
{
  if (store == NULL)
    return;
  if (store->block != NULL)
    block_unref (store->block);
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
    self->ops->pdata[op] = g_new0 (OperationStore, 1);
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

  (void) error;
  if (kept < n)
    self->full = TRUE;
  if (kept == 0)
    return 0;
  store = follow_samples_store (self, op);
  if (store->block == NULL || store->len + kept > store->block->capacity)
    {
      gsize capacity = MAX (MAX (2 * store->len, store->len + kept), 1024);
      Block *grown = block_new (store->block, store->len, capacity);

      if (store->block != NULL)
        block_unref (store->block);
      store->block = grown;
    }
  memcpy (store->block->durations + store->len, durations, kept * sizeof (double));
  memcpy (store->block->starts + store->len, starts, kept * sizeof (double));
  for (gsize i = 0; i < kept; i++)
    store->block->ranks[store->len + i] = rank;
  store->len += kept;
  self->total += kept;
  return 0;
}

TprofGatheredTime *
_tprof_follow_samples_dup (const TprofFollowSamples *self,
                           gsize                     op)
{
  const OperationStore *store = op < self->ops->len ? self->ops->pdata[op] : NULL;
  Block *block;

  if (store == NULL || store->len == 0)
    return NULL;
  /* the snapshot reads [0, len), which appends never touch */
  block = g_atomic_rc_box_acquire (store->block);
  return tprof_gathered_time_new_shared (block->durations, block->ranks, block->starts, store->len,
                                         block_unref, block);
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
