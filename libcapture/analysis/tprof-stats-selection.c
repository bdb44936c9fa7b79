/* tprof-stats-selection.c — the single statistics of a selection: count of ranks, sum, mean, std, extremes, quantiles. */
/* SPDX-License-Identifier: MIT */

#include <math.h>

#include <tprof/tprof-gathered-time.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"

size_t
tprof_gathered_time_rank_count (const TprofGatheredTime *gt)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);
  TprofRankIndex index;
  size_t n_ranks;

  if (n == 0)
    return 0;

  if (!_tprof_rank_index_init (&index, ranks, n))
    return _tprof_ranks_count_distinct_in_place (ranks, n);

  n_ranks = index.n_ranks;
  _tprof_rank_index_clear (&index);
  return n_ranks;
}

double
tprof_gathered_time_sum (const TprofGatheredTime *gt)
{
  if (tprof_gathered_time_is_empty (gt))
    return 0.0;
  return _tprof_values_sum (tprof_gathered_time_times (gt), tprof_gathered_time_count (gt));
}

double
tprof_gathered_time_mean (const TprofGatheredTime *gt)
{
  if (tprof_gathered_time_is_empty (gt))
    return NAN;
  return tprof_gathered_time_sum (gt) / (double) tprof_gathered_time_count (gt);
}

double
tprof_gathered_time_std (const TprofGatheredTime *gt)
{
  if (tprof_gathered_time_count (gt) < 2)
    return NAN;
  return _tprof_values_std (tprof_gathered_time_times (gt), tprof_gathered_time_count (gt),
                            tprof_gathered_time_mean (gt));
}

double
tprof_gathered_time_min (const TprofGatheredTime *gt)
{
  double min, max;

  _tprof_gathered_time_extremes (gt, &min, &max);
  return min;
}

double
tprof_gathered_time_max (const TprofGatheredTime *gt)
{
  double min, max;

  _tprof_gathered_time_extremes (gt, &min, &max);
  return max;
}

bool
tprof_gathered_time_quantiles (const TprofGatheredTime *gt,
                               const double            *qs,
                               size_t                   n_qs,
                               double                  *out)
{
  if (n_qs > 0 && (qs == NULL || out == NULL))
    return false;

  return _tprof_quantiles_of (tprof_gathered_time_times (gt), tprof_gathered_time_count (gt),
                              qs, n_qs, out);
}

double
tprof_gathered_time_quantile (const TprofGatheredTime *gt,
                              double                   q)
{
  double result;

  if (!tprof_gathered_time_quantiles (gt, &q, 1, &result))
    return NAN;
  return result;
}
