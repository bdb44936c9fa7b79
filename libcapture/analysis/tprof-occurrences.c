/* tprof-occurrences.c — TprofOccurrences: each rank's samples of an operation ordered by start, and the occurrence number of each sample. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-occurrences.h>

#include "tprof-gathered-time-private.h"

struct _TprofOccurrences
{
  const TprofGatheredTime *gt;
  int      world_size;
  size_t  *order;      /* sample indices grouped by ascending rank, each rank's by start */
  size_t  *first;      /* rank r's occurrences are order[first[r] .. first[r + 1]) */
  size_t  *number;     /* occurrence number of each sample */
  int32_t *present;    /* ranks with samples, ascending */
  size_t   n_present;
  size_t   common;
};

/* A total order, so that the result does not depend on qsort's algorithm:
 * equal starts keep the order of the selection. */
static int
compare_by_start (const void *a,
                  const void *b,
                  void       *starts_)
{
  const double *starts = starts_;
  size_t x = *(const size_t *) a, y = *(const size_t *) b;

  if (starts[x] != starts[y])
    return starts[x] < starts[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static bool
check_ranks (const TprofGatheredTime *gt,
             int                      world_size,
             TprofError              *error)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);

  if (world_size < 1)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "world size %d is not positive", world_size);
      return false;
    }
  for (size_t i = 0; i < n; i++)
    if (ranks[i] < 0 || ranks[i] >= world_size)
      {
        tprof_error_set (error, TPROF_ERROR_INVALID, "sample %zu has rank %d, outside [0, %d)",
                         i, (int) ranks[i], world_size);
        return false;
      }
  return true;
}

/* Counting sort by rank (stable: file order within a rank). */
static void
group_by_rank (TprofOccurrences *occ,
               size_t           *next)
{
  const int32_t *ranks = tprof_gathered_time_ranks (occ->gt);
  size_t n = tprof_gathered_time_count (occ->gt);

  for (size_t i = 0; i < n; i++)
    occ->first[ranks[i] + 1]++;
  for (int r = 0; r < occ->world_size; r++)
    occ->first[r + 1] += occ->first[r];
  memcpy (next, occ->first, (size_t) occ->world_size * sizeof *next);
  for (size_t i = 0; i < n; i++)
    occ->order[next[ranks[i]]++] = i;
}

/* Whether @order[0..@len) is already in the order compare_by_start()
 * gives: a rank's samples as one thread recorded them are. */
static bool
in_start_order (const size_t *order,
                size_t        len,
                const double *starts)
{
  for (size_t k = 1; k < len; k++)
    if (!(starts[order[k - 1]] < starts[order[k]])
        && !(starts[order[k - 1]] == starts[order[k]] && order[k - 1] < order[k]))
      return false;
  return true;
}

static void
index_occurrences (TprofOccurrences *occ)
{
  const double *starts = tprof_gathered_time_starts (occ->gt);

  occ->common = SIZE_MAX;
  for (int r = 0; r < occ->world_size; r++)
    {
      size_t len = occ->first[r + 1] - occ->first[r];

      if (len == 0)
        continue;
      /* sorting is what the occurrences cost: skipped when not needed */
      if (starts != NULL && !in_start_order (occ->order + occ->first[r], len, starts))
        qsort_r (occ->order + occ->first[r], len, sizeof *occ->order, compare_by_start, (void *) starts);
      for (size_t k = 0; k < len; k++)
        occ->number[occ->order[occ->first[r] + k]] = k;
      occ->present[occ->n_present++] = r;
      occ->common = len < occ->common ? len : occ->common;
    }
  if (occ->n_present == 0)
    occ->common = 0;
}

TprofOccurrences *
tprof_occurrences_new (const TprofGatheredTime *gt,
                       int                      world_size,
                       TprofError              *error)
{
  size_t n = tprof_gathered_time_count (gt);
  TprofOccurrences *occ;
  size_t *next;

  if (!check_ranks (gt, world_size, error))
    return NULL;
  occ = calloc (1, sizeof *occ);
  next = _tprof_malloc_array ((size_t) world_size, sizeof *next);
  if (occ != NULL)
    {
      occ->gt = gt;
      occ->world_size = world_size;
      occ->order = _tprof_malloc_array (n, sizeof *occ->order);
      occ->number = _tprof_malloc_array (n, sizeof *occ->number);
      occ->first = calloc ((size_t) world_size + 1, sizeof *occ->first);
      occ->present = _tprof_malloc_array ((size_t) world_size, sizeof *occ->present);
    }
  if (occ == NULL || next == NULL || occ->order == NULL || occ->number == NULL
      || occ->first == NULL || occ->present == NULL)
    {
      free (next);
      tprof_occurrences_free (occ);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory ordering %zu samples by start", n);
      return NULL;
    }
  group_by_rank (occ, next);
  free (next);
  index_occurrences (occ);
  return occ;
}

void
tprof_occurrences_free (TprofOccurrences *occ)
{
  if (occ == NULL)
    return;
  free (occ->order);
  free (occ->first);
  free (occ->number);
  free (occ->present);
  free (occ);
}

const TprofGatheredTime *
tprof_occurrences_selection (const TprofOccurrences *occ)
{
  return occ->gt;
}

int
tprof_occurrences_world_size (const TprofOccurrences *occ)
{
  return occ->world_size;
}

size_t
tprof_occurrences_n_ranks (const TprofOccurrences *occ)
{
  return occ->n_present;
}

const int32_t *
tprof_occurrences_ranks (const TprofOccurrences *occ)
{
  return occ->present;
}

size_t
tprof_occurrences_count (const TprofOccurrences *occ,
                         int                     rank)
{
  if (rank < 0 || rank >= occ->world_size)
    return 0;
  return occ->first[rank + 1] - occ->first[rank];
}

size_t
tprof_occurrences_common (const TprofOccurrences *occ)
{
  return occ->common;
}

bool
tprof_occurrences_sample (const TprofOccurrences *occ,
                          int                     rank,
                          size_t                  k,
                          size_t                 *sample)
{
  if (k >= tprof_occurrences_count (occ, rank))
    return false;
  *sample = occ->order[occ->first[rank] + k];
  return true;
}

bool
tprof_occurrences_of_sample (const TprofOccurrences *occ,
                             size_t                  sample,
                             size_t                 *k)
{
  if (sample >= tprof_gathered_time_count (occ->gt))
    return false;
  *k = occ->number[sample];
  return true;
}
