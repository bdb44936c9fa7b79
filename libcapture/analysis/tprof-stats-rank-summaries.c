/* tprof-stats-rank-summaries.c — each rank's count, sum, mean, std and extremes, as numpy gives them. */
/* SPDX-License-Identifier: MIT */

#include <tprof/tprof-gathered-time.h>

#include "tprof-gathered-time-private.h"

size_t
tprof_gathered_time_rank_summaries (const TprofGatheredTime  *gt,
                                    TprofRankSummary        **out)
{
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  TprofRankIndex index;
  TprofRankSummary *summaries = NULL;
  double *grouped = NULL;
  size_t *offsets = NULL;
  size_t n = tprof_gathered_time_count (gt);
  size_t n_ranks;

  if (out == NULL)
    return (size_t) -1;
  *out = NULL;
  if (n == 0)
    return 0;

  if (!_tprof_rank_index_init (&index, ranks, n))
    return (size_t) -1;
  n_ranks = index.n_ranks;

  summaries = _tprof_malloc_array (n_ranks, sizeof *summaries);
  grouped = _tprof_malloc_array (n, sizeof *grouped);
  offsets = calloc (n_ranks + 1, sizeof *offsets);
  if (summaries == NULL || grouped == NULL || offsets == NULL)
    {
      free (summaries);
      free (grouped);
      free (offsets);
      _tprof_rank_index_clear (&index);
      return (size_t) -1;
    }

  /* A counting sort by rank keeps each rank's samples contiguous and in
   * recording order, so each rank reuses the whole-array statistics. */
  for (size_t i = 0; i < n; i++)
    offsets[_tprof_rank_index_lookup (&index, ranks[i]) + 1]++;
  for (size_t r = 0; r < n_ranks; r++)
    offsets[r + 1] += offsets[r];
  for (size_t i = 0; i < n; i++)
    grouped[offsets[_tprof_rank_index_lookup (&index, ranks[i])]++] = times[i];

  /* The fill loop advanced each offset to the start of the next rank. */
  for (size_t r = 0; r < n_ranks; r++)
    {
      size_t begin = r > 0 ? offsets[r - 1] : 0;

      _tprof_values_summarize (grouped + begin, offsets[r] - begin, &summaries[r]);
      summaries[r].rank = index.ranks[r];
    }

  free (grouped);
  free (offsets);
  _tprof_rank_index_clear (&index);

  *out = summaries;
  return n_ranks;
}
