/* tprof-gathered-time.c — a selection of samples over ranks: ownership, accessors and sub-selections by rank or slice. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <tprof/tprof-gathered-time.h>

#include "tprof-gathered-time-private.h"

struct _TprofGatheredTime
{
  double  *times;
  int32_t *ranks;
  double  *starts;   /* the timeline (format 2), or NULL */
  int32_t *threads;  /* thread of each sample within its rank, or NULL */
  size_t   n;
  /* when times and ranks lie in a shared mapping (the isolated reader's),
   * unmapped instead of freed */
  void    *mapping;
  size_t   mapping_bytes;
  /* when times and ranks, or starts and threads, lie in the allocation
   * of the selection itself */
  bool     inline_arrays;
  bool     inline_timeline;
  /* a shared selection's arrays belong to its owner: released, not freed
   * (tprof_gathered_time_new_shared()) */
  bool     shared;
  /* a view's timeline is its owner's too, until replaced: one of the
   * shared selections whose timeline may be replaced */
  bool     view;
  void   (*release) (void *user_data);
  void    *release_data;
  /* min/max, computed once on demand: the samples never change, and the
   * extremes are asked for by min(), max() and every linear histogram. */
  int      extremes_state;  /* EXTREMES_*, accessed atomically */
  bool     extremes_finite;
  double   min;
  double   max;
  /* every time known finite and >= 0 without a pass (set by its builder) */
  bool     times_valid;
  /* ranks known grouped by ascending rank without a pass (set by its builder) */
  bool     ranks_grouped;
  /* sampled capture: what each rank recorded, or NULL */
  TprofRankRecorded *recorded;
  size_t             n_recorded;
};

enum { EXTREMES_UNKNOWN, EXTREMES_KNOWN };

bool
_tprof_gathered_time_extremes (const TprofGatheredTime *gt, double *min, double *max)
{
  TprofGatheredTime *cache = (TprofGatheredTime *) gt;

  if (__atomic_load_n (&gt->extremes_state, __ATOMIC_ACQUIRE) != EXTREMES_KNOWN)
    {
      double lo = NAN, hi = NAN;
      bool finite = _tprof_values_min_max (gt->times, gt->n, &lo, &hi);

      /* Threads racing here store the same values. */
      __atomic_store (&cache->min, &lo, __ATOMIC_RELAXED);
      __atomic_store (&cache->max, &hi, __ATOMIC_RELAXED);
      __atomic_store_n (&cache->extremes_finite, finite, __ATOMIC_RELAXED);
      __atomic_store_n (&cache->extremes_state, EXTREMES_KNOWN, __ATOMIC_RELEASE);
    }
  __atomic_load (&gt->min, min, __ATOMIC_RELAXED);
  __atomic_load (&gt->max, max, __ATOMIC_RELAXED);
  return __atomic_load_n (&gt->extremes_finite, __ATOMIC_RELAXED);
}

void
_tprof_gathered_time_set_times_valid (TprofGatheredTime *gt)
{
  gt->times_valid = true;
}

bool
_tprof_gathered_time_times_valid (const TprofGatheredTime *gt)
{
  return gt->times_valid;
}

void
_tprof_gathered_time_set_ranks_grouped (TprofGatheredTime *gt)
{
  gt->ranks_grouped = true;
}

bool
_tprof_gathered_time_ranks_grouped (const TprofGatheredTime *gt)
{
  return gt->ranks_grouped;
}

TprofGatheredTime *
tprof_gathered_time_new_take (double  *times,
                              int32_t *ranks,
                              size_t   n)
{
  TprofGatheredTime *gt = NULL;

  if (n == 0 || (times != NULL && ranks != NULL))
    gt = calloc (1, sizeof *gt);
  if (gt == NULL)
    {
      free (times);
      free (ranks);
      return NULL;
    }

  /* An empty selection holds no arrays, so times() is NULL as documented. */
  if (n == 0)
    {
      free (times);
      free (ranks);
      times = NULL;
      ranks = NULL;
    }

  gt->times = times;
  gt->ranks = ranks;
  gt->n = n;

  return gt;
}

TprofGatheredTime *
tprof_gathered_time_new (const double  *times,
                         const int32_t *ranks,
                         size_t         n)
{
  double *times_copy = NULL;
  int32_t *ranks_copy = NULL;

  if (n > 0)
    {
      if (times == NULL || ranks == NULL)
        return NULL;

      times_copy = _tprof_malloc_array (n, sizeof *times_copy);
      ranks_copy = _tprof_malloc_array (n, sizeof *ranks_copy);
      if (times_copy == NULL || ranks_copy == NULL)
        {
          free (times_copy);
          free (ranks_copy);
          return NULL;
        }

      memcpy (times_copy, times, n * sizeof *times_copy);
      memcpy (ranks_copy, ranks, n * sizeof *ranks_copy);
    }

  return tprof_gathered_time_new_take (times_copy, ranks_copy, n);
}

TprofGatheredTime *
tprof_gathered_time_new_shared (const double  *times,
                                const int32_t *ranks,
                                const double  *starts,
                                size_t         n,
                                void         (*release) (void *user_data),
                                void          *user_data)
{
  TprofGatheredTime *gt = (n == 0 || (times != NULL && ranks != NULL)) ? calloc (1, sizeof *gt) : NULL;

  if (gt == NULL)
    {
      if (release != NULL)
        release (user_data);
      return NULL;
    }
  if (n > 0)
    {
      gt->times = (double *) times;
      gt->ranks = (int32_t *) ranks;
      gt->starts = (double *) starts;
      gt->n = n;
    }
  gt->shared = true;
  gt->release = release;
  gt->release_data = user_data;
  return gt;
}

TprofGatheredTime *
_tprof_gathered_time_new_view (const double  *times,
                               const int32_t *ranks,
                               const double  *starts,
                               const int32_t *threads,
                               size_t         n,
                               void         (*release) (void *user_data),
                               void          *user_data)
{
  TprofGatheredTime *gt = tprof_gathered_time_new_shared (times, ranks, starts, n, release, user_data);

  if (gt != NULL && n > 0)
    {
      gt->threads = (int32_t *) threads;
      gt->view = true;
      gt->inline_timeline = true;  /* not freed: the owner's */
      gt->times_valid = true;
    }
  return gt;
}

void
tprof_gathered_time_free (TprofGatheredTime *gt)
{
  if (gt == NULL)
    return;

  if (gt->shared)
    {
      if (gt->release != NULL)
        gt->release (gt->release_data);
    }
  else if (gt->mapping != NULL)
    munmap (gt->mapping, gt->mapping_bytes);
  else if (!gt->inline_arrays)
    {
      free (gt->times);
      free (gt->ranks);
    }
  if ((!gt->shared || gt->view) && !gt->inline_timeline)
    {
      free (gt->starts);
      free (gt->threads);
    }
  free (gt->recorded);
  free (gt);
}

bool
tprof_gathered_time_set_recorded (TprofGatheredTime       *gt,
                                  const TprofRankRecorded *ranks,
                                  size_t                   n)
{
  TprofRankRecorded *copy = NULL;
  TprofRankSummary *stored = NULL;
  size_t n_stored = 0;

  if (gt == NULL)
    return false;
  if (n > 0)
    {
      copy = _tprof_malloc_array (n, sizeof *copy);
      n_stored = tprof_gathered_time_rank_summaries (gt, &stored);
      if (copy == NULL || n_stored == (size_t) -1)
        {
          free (copy);
          return false;
        }
      memcpy (copy, ranks, n * sizeof *copy);
      /* both ascending by rank */
      for (size_t i = 0, j = 0; i < n; i++)
        {
          while (j < n_stored && stored[j].rank < copy[i].rank)
            j++;
          if (j < n_stored && stored[j].rank == copy[i].rank)
            {
              /* a clock refit between the figures and the samples moves
               * a tick's seconds by a few ppm: the figures still cover */
              if (copy[i].recorded < stored[j].count)
                copy[i].recorded = stored[j].count;
              copy[i].min = fmin (copy[i].min, stored[j].min);
              copy[i].max = fmax (copy[i].max, stored[j].max);
            }
        }
      free (stored);
    }
  free (gt->recorded);
  gt->recorded = copy;
  gt->n_recorded = n;
  return true;
}

size_t
tprof_gathered_time_recorded (const TprofGatheredTime  *gt,
                              const TprofRankRecorded **ranks)
{
  *ranks = gt != NULL ? gt->recorded : NULL;
  return gt != NULL ? gt->n_recorded : 0;
}

bool
tprof_gathered_time_is_sampled (const TprofGatheredTime *gt)
{
  uint64_t recorded = 0;

  if (gt == NULL || gt->recorded == NULL)
    return false;
  for (size_t i = 0; i < gt->n_recorded; i++)
    recorded += gt->recorded[i].recorded;
  return recorded > gt->n;
}

TprofGatheredTime *
_tprof_gathered_time_new_mapped (void   *mapping,
                                 size_t  bytes,
                                 size_t  n)
{
  TprofGatheredTime *gt;

  if (n == 0 || bytes < n * (sizeof (double) + sizeof (int32_t))
      || (gt = calloc (1, sizeof *gt)) == NULL)
    {
      munmap (mapping, bytes);
      return n == 0 ? tprof_gathered_time_new_take (NULL, NULL, 0) : NULL;
    }
  gt->times = mapping;
  gt->ranks = (int32_t *) ((char *) mapping + n * sizeof (double));
  gt->n = n;
  gt->mapping = mapping;
  gt->mapping_bytes = bytes;
  return gt;
}

bool
tprof_gathered_time_set_timeline_take (TprofGatheredTime *gt,
                                       double            *starts,
                                       int32_t           *threads)
{
  if (gt == NULL || gt->n == 0 || (gt->shared && !gt->view))
    {
      free (starts);
      free (threads);
      return gt != NULL;
    }

  if (!gt->inline_timeline)
    {
      free (gt->starts);
      free (gt->threads);
    }
  gt->inline_timeline = false;
  gt->starts = starts;
  gt->threads = threads;
  return true;
}

TprofGatheredTime *
_tprof_gathered_time_new_inline (size_t     n,
                                 bool       timeline,
                                 double   **times,
                                 int32_t  **ranks,
                                 double   **starts,
                                 int32_t  **threads)
{
  /* the struct, then the 8-byte arrays, then the 4-byte ones */
  size_t head = (sizeof (TprofGatheredTime) + 7) & ~(size_t) 7;
  size_t per_sample = sizeof (double) + sizeof (int32_t) + (timeline ? sizeof (double) + sizeof (int32_t) : 0);
  TprofGatheredTime *gt;

  if (n == 0)
    gt = tprof_gathered_time_new_take (NULL, NULL, 0);
  else if (n > (SIZE_MAX - head) / per_sample || (gt = malloc (head + n * per_sample)) == NULL)
    return NULL;
  else
    {
      *gt = (TprofGatheredTime) { .n = n, .inline_arrays = true, .inline_timeline = timeline };
      gt->times = (double *) ((char *) gt + head);
      gt->starts = timeline ? gt->times + n : NULL;
      gt->ranks = (int32_t *) (gt->times + (timeline ? 2 * n : n));
      gt->threads = timeline ? gt->ranks + n : NULL;
    }
  if (gt != NULL)
    {
      *times = gt->times;
      *ranks = gt->ranks;
      *starts = gt->starts;
      *threads = gt->threads;
    }
  return gt;
}

const double *
tprof_gathered_time_starts (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->starts : NULL;
}

const int32_t *
tprof_gathered_time_threads (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->threads : NULL;
}

const double *
tprof_gathered_time_times (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->times : NULL;
}

const int32_t *
tprof_gathered_time_ranks (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->ranks : NULL;
}

size_t
tprof_gathered_time_count (const TprofGatheredTime *gt)
{
  return gt != NULL ? gt->n : 0;
}

bool
tprof_gathered_time_is_empty (const TprofGatheredTime *gt)
{
  return tprof_gathered_time_count (gt) == 0;
}

/* ---- sub-selections ---- */

/* The arrays of a sub-selection of @n samples of @from: times and ranks,
 * and starts and threads where @from has them. */
typedef struct
{
  double  *times;
  int32_t *ranks;
  double  *starts;
  int32_t *threads;
} Picked;

static void
picked_clear (Picked *p)
{
  free (p->times);
  free (p->ranks);
  free (p->starts);
  free (p->threads);
  memset (p, 0, sizeof *p);
}

static bool
picked_alloc (Picked                  *p,
              const TprofGatheredTime *from,
              size_t                   n)
{
  memset (p, 0, sizeof *p);
  if (n == 0)
    return true;

  p->times = _tprof_malloc_array (n, sizeof *p->times);
  p->ranks = _tprof_malloc_array (n, sizeof *p->ranks);
  if (from->starts != NULL)
    p->starts = _tprof_malloc_array (n, sizeof *p->starts);
  if (from->threads != NULL)
    p->threads = _tprof_malloc_array (n, sizeof *p->threads);

  if (p->times == NULL || p->ranks == NULL
      || (from->starts != NULL && p->starts == NULL)
      || (from->threads != NULL && p->threads == NULL))
    {
      picked_clear (p);
      return false;
    }
  return true;
}

static inline void
picked_copy (Picked                  *p,
             size_t                   to,
             const TprofGatheredTime *from,
             size_t                   i)
{
  p->times[to] = from->times[i];
  p->ranks[to] = from->ranks[i];
  if (p->starts != NULL)
    p->starts[to] = from->starts[i];
  if (p->threads != NULL)
    p->threads[to] = from->threads[i];
}

/* The new selection, owning @p's arrays (consumed, also on failure). */
static TprofGatheredTime *
picked_finish (Picked *p,
               size_t  n)
{
  TprofGatheredTime *gt = tprof_gathered_time_new_take (p->times, p->ranks, n);

  if (gt == NULL)
    {
      free (p->starts);
      free (p->threads);
    }
  else
    tprof_gathered_time_set_timeline_take (gt, p->starts, p->threads);
  memset (p, 0, sizeof *p);
  return gt;
}

TprofGatheredTime *
tprof_gathered_time_get_rank (const TprofGatheredTime *gt,
                              const int32_t           *ranks,
                              size_t                   n_ranks)
{
  TprofRankIndex wanted;
  Picked picked;
  size_t n = tprof_gathered_time_count (gt);
  size_t n_kept = 0;

  if (n_ranks > 0 && ranks == NULL)
    return NULL;
  if (!_tprof_rank_index_init (&wanted, ranks, n_ranks))
    return NULL;

  for (size_t i = 0; i < n; i++)
    if (_tprof_rank_index_lookup (&wanted, gt->ranks[i]) >= 0)
      n_kept++;

  if (!picked_alloc (&picked, gt, n_kept))
    {
      _tprof_rank_index_clear (&wanted);
      return NULL;
    }

  for (size_t i = 0, j = 0; j < n_kept; i++)
    if (_tprof_rank_index_lookup (&wanted, gt->ranks[i]) >= 0)
      picked_copy (&picked, j++, gt, i);

  {
    TprofGatheredTime *out = picked_finish (&picked, n_kept);
    TprofRankRecorded *kept = NULL;
    size_t n_rec = 0;

    if (out != NULL && gt->recorded != NULL)
      {
        kept = _tprof_malloc_array (gt->n_recorded, sizeof *kept);
        for (size_t i = 0; kept != NULL && i < gt->n_recorded; i++)
          if (_tprof_rank_index_lookup (&wanted, gt->recorded[i].rank) >= 0)
            kept[n_rec++] = gt->recorded[i];
        if (kept == NULL || !tprof_gathered_time_set_recorded (out, kept, n_rec))
          {
            tprof_gathered_time_free (out);
            out = NULL;
          }
        free (kept);
      }
    _tprof_rank_index_clear (&wanted);
    return out;
  }
}

TprofGatheredTime *
_tprof_gathered_time_permuted (const TprofGatheredTime *gt,
                               const size_t            *order)
{
  size_t n = tprof_gathered_time_count (gt);
  Picked picked;
  TprofGatheredTime *out;

  if (!picked_alloc (&picked, gt, n))
    return NULL;
  for (size_t i = 0; i < n; i++)
    picked_copy (&picked, i, gt, order[i]);
  out = picked_finish (&picked, n);
  /* the same samples: the same ranks recorded them */
  if (out != NULL && gt->recorded != NULL && !tprof_gathered_time_set_recorded (out, gt->recorded, gt->n_recorded))
    {
      tprof_gathered_time_free (out);
      return NULL;
    }
  return out;
}

/* Python's PySlice_AdjustIndices for one bound. */
static ptrdiff_t
slice_clamp_bound (ptrdiff_t bound,
                   ptrdiff_t length,
                   ptrdiff_t step)
{
  if (bound < 0)
    {
      bound += length;
      if (bound < 0)
        bound = step < 0 ? -1 : 0;
    }
  else if (bound >= length)
    bound = step < 0 ? length - 1 : length;

  return bound;
}

TprofGatheredTime *
tprof_gathered_time_slice (const TprofGatheredTime *gt,
                           ptrdiff_t                start,
                           ptrdiff_t                stop,
                           ptrdiff_t                step)
{
  ptrdiff_t length = (ptrdiff_t) tprof_gathered_time_count (gt);
  size_t slice_length = 0;
  Picked picked;

  if (step == TPROF_SLICE_DEFAULT)
    step = 1;
  if (step == 0)
    return NULL;

  if (start == TPROF_SLICE_DEFAULT)
    start = step < 0 ? length - 1 : 0;
  else
    start = slice_clamp_bound (start, length, step);

  if (stop == TPROF_SLICE_DEFAULT)
    stop = step < 0 ? -1 : length;
  else
    stop = slice_clamp_bound (stop, length, step);

  /* Divide as unsigned: -step cannot overflow since step > PTRDIFF_MIN. */
  if (step > 0 && start < stop)
    slice_length = (size_t) (stop - start - 1) / (size_t) step + 1;
  else if (step < 0 && stop < start)
    slice_length = (size_t) (start - stop - 1) / (size_t) -step + 1;

  if (!picked_alloc (&picked, gt, slice_length))
    return NULL;

  for (size_t k = 0; k < slice_length; k++)
    picked_copy (&picked, k, gt, (size_t) (start + (ptrdiff_t) k * step));

  return picked_finish (&picked, slice_length);
}
