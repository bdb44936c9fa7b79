/* tprof-follow-samples.c — TprofFollowSamples: appending a followed job's new samples per operation, copied out for each snapshot. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tprof-analysis-internal.h"
#include "tprof-follow-samples.h"

/* One operation's samples in arrays that never move: a snapshot shares
 * the first len of them while later ones are appended after. The arrays
 * are carved from one mapping reserving room for as many samples as may
 * be kept (address space only: its pages are made writable as the
 * samples come, and the kernel fills each when first written), so they
 * grow without a copy and a refresh costs what is new, not what was kept.
 * Only when no such mapping can be had are they allocated, and outgrown
 * copied once into arrays twice as large (amortised growth), the old ones
 * freed when no snapshot uses them any more. */
typedef struct
{
  double *durations;
  gint32 *ranks;
  double *starts;
  gsize   capacity;  /* samples writable now */
  gsize   reserved;  /* samples the mapping has room for; 0: allocated */
  void   *map;
  gsize   map_bytes;
} Block;

typedef struct
{
  Block *block;  /* atomic reference counted */
  gsize  len;
  gsize  len_seen;  /* len at the last _tprof_follow_samples_ahead() */
  gsize  ahead;     /* samples [0, ahead) of block have their pages present */
} OperationStore;

/* One operation's samples [from, to) of @block, whose pages to make
 * present before a poll writes them. */
typedef struct
{
  Block *block;
  gsize  from;
  gsize  to;
} Ahead;

struct _TprofFollowSamplesAhead
{
  GArray *ranges;  /* Ahead */
};

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
/* The most samples one operation's mapping reserves room for (~2.7 GB of
 * address space); more are kept by copying. */
#define MAX_RESERVED ((gsize) 1 << 27)

static gsize
round_up (gsize bytes)
{
  return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

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
  if (block->map != NULL)
    {
      munmap (block->map, block->map_bytes);
      return;
    }
  free (block->durations);
  free (block->ranks);
  free (block->starts);
}

static void
block_unref (void *block)
{
  g_atomic_rc_box_release_full (block, (GDestroyNotify) block_clear);
}

/* Makes the first @capacity samples of @block's mapping writable. */
static gboolean
block_commit (Block *block,
              gsize  capacity)
{
  guint8 *map = block->map;
  gsize doubles = round_up (block->reserved * sizeof (double));

  /* durations, starts, then ranks */
  if (mprotect (map, round_up (capacity * sizeof (double)), PROT_READ | PROT_WRITE) != 0
      || mprotect (map + doubles, round_up (capacity * sizeof (double)), PROT_READ | PROT_WRITE) != 0
      || mprotect (map + 2 * doubles, round_up (capacity * sizeof (gint32)), PROT_READ | PROT_WRITE) != 0)
    return FALSE;
  block->capacity = capacity;
  return TRUE;
}

/* A block reserving room for @reserved samples, @capacity of them
 * writable; NULL when no such mapping can be had. */
static Block *
block_reserve (gsize reserved,
               gsize capacity)
{
  gsize doubles = round_up (reserved * sizeof (double)), bytes = 2 * doubles + round_up (reserved * sizeof (gint32));
  void *map = mmap (NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  Block *block;

  if (map == MAP_FAILED)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise (map, bytes, MADV_HUGEPAGE);
#endif
  block = g_atomic_rc_box_new0 (Block);
  block->map = map;
  block->map_bytes = bytes;
  block->reserved = reserved;
  block->durations = map;
  block->starts = (double *) (void *) ((guint8 *) map + doubles);
  block->ranks = (gint32 *) (void *) ((guint8 *) map + 2 * doubles);
  if (!block_commit (block, capacity))
    {
      block_unref (block);
      return NULL;
    }
  return block;
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

/* Room in @store for @need samples: more of its mapping made writable, or
 * (without one, or past it) a new block. */
static void
store_reserve (OperationStore *store,
               gsize           need,
               guint64         max)
{
  Block *block = store->block;
  gsize capacity;

  if (block != NULL && need <= block->capacity)
    return;
  capacity = MAX (MAX (2 * store->len, need), 1024);
  if (block == NULL)
    {
      gsize reserved = (gsize) MIN (max, (guint64) MAX_RESERVED);

      store->block = reserved >= need ? block_reserve (reserved, MIN (capacity, reserved)) : NULL;
      if (store->block != NULL)
        return;
    }
  else if (block->reserved >= need && block_commit (block, MIN (capacity, block->reserved)))
    return;
  store->block = block_new (block, store->len, capacity);
  store->ahead = store->len;
  if (block != NULL)
    block_unref (block);
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
  store_reserve (store, store->len + kept, self->max);
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

/* Room in @store's mapping for as many more samples as came since the
 * last call, made writable; the range whose pages are not present yet
 * added to @ranges. */
static void
store_ahead (OperationStore *store,
             GArray         *ranges)
{
  Block *block = store->block;
  gsize came = store->len - store->len_seen, to, from;

  store->len_seen = store->len;
  if (block == NULL || block->map == NULL || came == 0)
    return;
  to = MIN (store->len + came, block->reserved);
  if (to > block->capacity && !block_commit (block, to))
    return;
  from = MAX (store->len, store->ahead);
  if (to > from)
    {
      Ahead ahead = { g_atomic_rc_box_acquire (block), from, to };

      g_array_append_val (ranges, ahead);
      store->ahead = to;
    }
}

void
_tprof_follow_samples_settle (TprofFollowSamples *self)
{
  for (guint op = 0; op < self->ops->len; op++)
    {
      OperationStore *store = self->ops->pdata[op];

      if (store != NULL)
        store->len_seen = store->len;
    }
}

TprofFollowSamplesAhead *
_tprof_follow_samples_ahead (TprofFollowSamples *self)
{
  TprofFollowSamplesAhead *ahead = g_new0 (TprofFollowSamplesAhead, 1);

  ahead->ranges = g_array_new (FALSE, FALSE, sizeof (Ahead));
  for (guint op = 0; op < self->ops->len; op++)
    if (self->ops->pdata[op] != NULL)
      store_ahead (self->ops->pdata[op], ahead->ranges);
  if (ahead->ranges->len == 0)
    g_clear_pointer (&ahead, _tprof_follow_samples_ahead_free);
  return ahead;
}

void
_tprof_follow_samples_ahead_run (TprofFollowSamplesAhead *ahead)
{
  for (guint i = 0; i < ahead->ranges->len; i++)
    {
      const Ahead *a = &g_array_index (ahead->ranges, Ahead, i);
      gsize n = a->to - a->from;

      _tprof_prefault_write (a->block->durations + a->from, n * sizeof (double));
      _tprof_prefault_write (a->block->starts + a->from, n * sizeof (double));
      _tprof_prefault_write (a->block->ranks + a->from, n * sizeof (gint32));
    }
}

void
_tprof_follow_samples_ahead_free (TprofFollowSamplesAhead *ahead)
{
  if (ahead == NULL)
    return;
  for (guint i = 0; i < ahead->ranges->len; i++)
    block_unref (g_array_index (ahead->ranges, Ahead, i).block);
  g_array_unref (ahead->ranges);
  g_free (ahead);
}
