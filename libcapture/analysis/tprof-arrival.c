/* tprof-arrival.c — occurrences of an operation on each rank by start, the spread of arrivals and departures, and the wait the late rank caused (DESIGN.md 4b). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-arrival.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-sorted-runs-private.h"

static const double *sorting_starts;  /* qsort has no user data; see below */

static int
compare_by_start (const void *a,
                  const void *b)
{
  size_t x = *(const size_t *) a, y = *(const size_t *) b;
  double sx = sorting_starts[x], sy = sorting_starts[y];

  /* equal starts keep file order, as an occurrence without starts would */
  return sx != sy ? (sx > sy) - (sx < sy) : (x > y) - (x < y);
}

/* Sample indices grouped by rank, each rank's sorted by start: rank r's
 * occurrences are order[first[r] .. first[r + 1]). */
static bool
occurrences (const TprofGatheredTime *gt,
             int                      world_size,
             size_t                 **order,
             size_t                 **first)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  size_t n = tprof_gathered_time_count (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t *next;

  *order = _tprof_malloc_array (n > 0 ? n : 1, sizeof **order);
  *first = calloc ((size_t) world_size + 1, sizeof **first);
  next = calloc ((size_t) world_size + 1, sizeof *next);
  if (*order == NULL || *first == NULL || next == NULL)
    {
      free (next);
      return false;
    }
  for (size_t i = 0; i < n; i++)
    (*first)[ranks[i] + 1]++;
  for (int r = 0; r < world_size; r++)
    (*first)[r + 1] += (*first)[r];
  memcpy (next, *first, ((size_t) world_size + 1) * sizeof *next);
  for (size_t i = 0; i < n; i++)
    (*order)[next[ranks[i]]++] = i;
  free (next);

  pthread_mutex_lock (&lock);
  sorting_starts = tprof_gathered_time_starts (gt);
  for (int r = 0; r < world_size; r++)
    qsort (*order + (*first)[r], (*first)[r + 1] - (*first)[r], sizeof **order, compare_by_start);
  sorting_starts = NULL;
  pthread_mutex_unlock (&lock);
  return true;
}

bool
tprof_arrival_analyze (const TprofGatheredTime *gt,
                       int                      world_size,
                       TprofArrival            *out,
                       double                  *wait_caused,
                       uint64_t                *late_count)
{
  const double *starts = tprof_gathered_time_starts (gt);
  const double *times = tprof_gathered_time_times (gt);
  size_t *order = NULL, *first = NULL, n_occ = SIZE_MAX;
  double *start_spreads = NULL, *end_spreads = NULL, *scratch = NULL;
  bool ok = false;

  memset (out, 0, sizeof *out);
  out->start_spread = out->end_spread = NAN;
  if (starts == NULL || world_size < 1 || tprof_gathered_time_count (gt) == 0)
    return true;
  if (!occurrences (gt, world_size, &order, &first))
    goto out;
  for (int r = 0; r < world_size; r++)
    if (first[r + 1] > first[r])
      {
        out->n_ranks++;
        n_occ = first[r + 1] - first[r] < n_occ ? first[r + 1] - first[r] : n_occ;
      }
  out->n_occurrences = n_occ;
  start_spreads = _tprof_malloc_array (n_occ + 1, sizeof *start_spreads);
  end_spreads = _tprof_malloc_array (n_occ + 1, sizeof *end_spreads);
  scratch = _tprof_malloc_array (n_occ + 1, sizeof *scratch);
  if (start_spreads == NULL || end_spreads == NULL || scratch == NULL)
    goto out;

  for (size_t k = 0; k < n_occ; k++)
    {
      double lo_start = INFINITY, hi_start = -INFINITY, lo_end = INFINITY, hi_end = -INFINITY;

      for (int r = 0; r < world_size; r++)
        if (first[r + 1] > first[r])
          {
            size_t i = order[first[r] + k];

            lo_start = fmin (lo_start, starts[i]);
            hi_start = fmax (hi_start, starts[i]);
            lo_end = fmin (lo_end, starts[i] + times[i]);
            hi_end = fmax (hi_end, starts[i] + times[i]);
          }
      start_spreads[k] = hi_start - lo_start;
      end_spreads[k] = hi_end - lo_end;
    }
  _tprof_sort_doubles (start_spreads, n_occ, scratch);
  _tprof_sort_doubles (end_spreads, n_occ, scratch);
  out->start_spread = _tprof_sorted_median (start_spreads, n_occ);
  out->end_spread = _tprof_sorted_median (end_spreads, n_occ);
  out->synchronising = out->n_ranks >= 2 && n_occ > 0 && out->start_spread > 0.0
                       && out->end_spread <= TPROF_SYNCHRONISING_END_TO_START * out->start_spread;

  for (size_t k = 0; out->synchronising && k < n_occ; k++)
    {
      int late = -1;
      double latest = -INFINITY, wait = 0.0;

      for (int r = 0; r < world_size; r++)
        if (first[r + 1] > first[r] && starts[order[first[r] + k]] > latest)
          {
            latest = starts[order[first[r] + k]];
            late = r;
          }
      for (int r = 0; r < world_size; r++)
        if (first[r + 1] > first[r])
          wait += latest - starts[order[first[r] + k]];
      if (wait_caused != NULL)
        wait_caused[late] += wait;
      if (late_count != NULL)
        late_count[late]++;
    }
  ok = true;

out:
  free (order);
  free (first);
  free (start_spreads);
  free (end_spreads);
  free (scratch);
  return ok;
}
