/* tprof-gathered-time.c — a selection of samples over ranks: ownership, accessors and sub-selections by rank or slice. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-gathered-time.h>

#include "tprof-gathered-time-private.h"

struct _TprofGatheredTime
{
  double  *times;
  int32_t *ranks;
  size_t   n;
  /* min/max, computed once on demand: the samples never change, and the
   * extremes are asked for by min(), max() and every linear histogram. */
  int      extremes_state;  /* EXTREMES_*, accessed atomically */
  bool     extremes_finite;
  double   min;
  double   max;
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

void
tprof_gathered_time_free (TprofGatheredTime *gt)
{
  if (gt == NULL)
    return;

  free (gt->times);
  free (gt->ranks);
  free (gt);
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

TprofGatheredTime *
tprof_gathered_time_get_rank (const TprofGatheredTime *gt,
                              const int32_t           *ranks,
                              size_t                   n_ranks)
{
  TprofRankIndex wanted;
  double *times = NULL;
  int32_t *sample_ranks = NULL;
  size_t n = tprof_gathered_time_count (gt);
  size_t n_kept = 0;

  if (n_ranks > 0 && ranks == NULL)
    return NULL;
  if (!_tprof_rank_index_init (&wanted, ranks, n_ranks))
    return NULL;

  for (size_t i = 0; i < n; i++)
    if (_tprof_rank_index_lookup (&wanted, gt->ranks[i]) >= 0)
      n_kept++;

  if (n_kept > 0)
    {
      times = _tprof_malloc_array (n_kept, sizeof *times);
      sample_ranks = _tprof_malloc_array (n_kept, sizeof *sample_ranks);
      if (times != NULL && sample_ranks != NULL)
        {
          size_t j = 0;

          for (size_t i = 0; i < n; i++)
            if (_tprof_rank_index_lookup (&wanted, gt->ranks[i]) >= 0)
              {
                times[j] = gt->times[i];
                sample_ranks[j] = gt->ranks[i];
                j++;
              }
        }
      else
        {
          free (times);
          free (sample_ranks);
          _tprof_rank_index_clear (&wanted);
          return NULL;
        }
    }

  _tprof_rank_index_clear (&wanted);
  return tprof_gathered_time_new_take (times, sample_ranks, n_kept);
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
  double *times = NULL;
  int32_t *ranks = NULL;

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

  if (slice_length > 0)
    {
      times = _tprof_malloc_array (slice_length, sizeof *times);
      ranks = _tprof_malloc_array (slice_length, sizeof *ranks);
      if (times == NULL || ranks == NULL)
        {
          free (times);
          free (ranks);
          return NULL;
        }

      for (size_t k = 0; k < slice_length; k++)
        {
          size_t i = (size_t) (start + (ptrdiff_t) k * step);

          times[k] = gt->times[i];
          ranks[k] = gt->ranks[i];
        }
    }

  return tprof_gathered_time_new_take (times, ranks, slice_length);
}
