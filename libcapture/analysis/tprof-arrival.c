/* tprof-arrival.c — arrival at an operation across ranks: the spread of arrivals and departures per occurrence, and the wait the late rank caused (docs/analysis.md). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-arrival.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-sorted-runs-private.h"

/* The earliest and latest start and end of occurrence @k over the ranks
 * with samples, and the rank of the latest start (the lowest among equal
 * ones). */
typedef struct
{
  double first_start;
  double last_start;
  double first_end;
  double last_end;
  int    late_rank;
} Extent;

static void
occurrence_extent (const TprofOccurrences *occ,
                   size_t                  k,
                   Extent                 *e)
{
  const TprofGatheredTime *gt = tprof_occurrences_selection (occ);
  const double *starts = tprof_gathered_time_starts (gt);
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_occurrences_ranks (occ);

  e->first_start = e->first_end = INFINITY;
  e->last_start = e->last_end = -INFINITY;
  e->late_rank = -1;
  for (size_t j = 0; j < tprof_occurrences_n_ranks (occ); j++)
    {
      size_t i = 0;

      tprof_occurrences_sample (occ, ranks[j], k, &i);
      if (starts[i] > e->last_start)
        {
          e->last_start = starts[i];
          e->late_rank = ranks[j];
        }
      e->first_start = fmin (e->first_start, starts[i]);
      e->first_end = fmin (e->first_end, starts[i] + times[i]);
      e->last_end = fmax (e->last_end, starts[i] + times[i]);
    }
}

int
tprof_arrival_occurrence (const TprofOccurrences *occ,
                          size_t                  k,
                          double                 *lateness,
                          double                 *wait)
{
  const double *starts = tprof_gathered_time_starts (tprof_occurrences_selection (occ));
  const int32_t *ranks = tprof_occurrences_ranks (occ);
  double total = 0.0;
  Extent e;

  if (starts == NULL || k >= tprof_occurrences_common (occ))
    return -1;
  occurrence_extent (occ, k, &e);
  for (int r = 0; lateness != NULL && r < tprof_occurrences_world_size (occ); r++)
    lateness[r] = NAN;
  for (size_t j = 0; j < tprof_occurrences_n_ranks (occ); j++)
    {
      size_t i = 0;

      tprof_occurrences_sample (occ, ranks[j], k, &i);
      total += e.last_start - starts[i];
      if (lateness != NULL)
        lateness[ranks[j]] = starts[i] - e.first_start;
    }
  if (wait != NULL)
    *wait = total;
  return e.late_rank;
}

/* The median spreads of starts and ends over the common occurrences. */
static bool
median_spreads (const TprofOccurrences *occ,
                TprofArrival           *out)
{
  size_t n = tprof_occurrences_common (occ);
  double *starts = _tprof_malloc_array (n, sizeof *starts);
  double *ends = _tprof_malloc_array (n, sizeof *ends);
  double *scratch = _tprof_malloc_array (n, sizeof *scratch);
  bool ok = starts != NULL && ends != NULL && scratch != NULL;

  for (size_t k = 0; ok && k < n; k++)
    {
      Extent e;

      occurrence_extent (occ, k, &e);
      starts[k] = e.last_start - e.first_start;
      ends[k] = e.last_end - e.first_end;
    }
  if (ok)
    {
      _tprof_sort_doubles (starts, n, scratch);
      _tprof_sort_doubles (ends, n, scratch);
      out->start_spread = _tprof_sorted_median (starts, n);
      out->end_spread = _tprof_sorted_median (ends, n);
    }
  free (starts);
  free (ends);
  free (scratch);
  return ok;
}

bool
tprof_arrival_analyze (const TprofGatheredTime *gt,
                       int                      world_size,
                       TprofArrival            *out,
                       double                  *wait_caused,
                       uint64_t                *late_count)
{
  TprofOccurrences *occ;

  memset (out, 0, sizeof *out);
  out->start_spread = out->end_spread = NAN;
  if (gt == NULL || tprof_gathered_time_starts (gt) == NULL || tprof_gathered_time_count (gt) == 0)
    return true;
  occ = tprof_occurrences_new (gt, world_size, NULL);
  if (occ == NULL)
    return false;
  out->n_ranks = tprof_occurrences_n_ranks (occ);
  out->n_occurrences = tprof_occurrences_common (occ);
  if (!median_spreads (occ, out))
    {
      tprof_occurrences_free (occ);
      return false;
    }
  out->synchronising = out->n_ranks >= 2 && out->n_occurrences > 0 && out->start_spread > 0.0
                       && out->end_spread <= TPROF_SYNCHRONISING_END_TO_START * out->start_spread;
  for (size_t k = 0; out->synchronising && k < out->n_occurrences; k++)
    {
      double wait = 0.0;
      int late = tprof_arrival_occurrence (occ, k, NULL, &wait);

      if (wait_caused != NULL)
        wait_caused[late] += wait;
      if (late_count != NULL)
        late_count[late]++;
    }
  tprof_occurrences_free (occ);
  return true;
}
