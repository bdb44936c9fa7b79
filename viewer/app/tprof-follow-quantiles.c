/* tprof-follow-quantiles.c — std, median, P95 and P99 of each operation's kept samples, for a worker thread. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>

#include "tprof-follow-quantiles.h"

void
_tprof_follow_quantiles_of (const TprofGatheredTime *gt,
                            TprofFollowQuantiles    *out)
{
  static const double qs[] = { 0.5, 0.95, 0.99 };
  double values[G_N_ELEMENTS (qs)];

  *out = (TprofFollowQuantiles) { .n_kept = 0, .std = NAN, .median = NAN, .p95 = NAN, .p99 = NAN };
  if (gt == NULL || !tprof_gathered_time_quantiles (gt, qs, G_N_ELEMENTS (qs), values))
    return;
  out->n_kept = tprof_gathered_time_count (gt);
  out->std = tprof_gathered_time_std (gt);
  out->median = values[0];
  out->p95 = values[1];
  out->p99 = values[2];
}

TprofFollowQuantiles *
_tprof_follow_quantiles_compute (TprofGatheredTime * const *samples,
                                 gsize                      n_ops,
                                 const TprofFollowQuantiles *previous,
                                 gsize                      n_previous,
                                 GCancellable              *cancellable)
{
  TprofFollowQuantiles *out = g_new (TprofFollowQuantiles, MAX (n_ops, 1));

  for (gsize op = 0; op < n_ops; op++)
    {
      gsize n = samples[op] != NULL ? tprof_gathered_time_count (samples[op]) : 0;

      if (g_cancellable_is_cancelled (cancellable))
        {
          g_free (out);
          return NULL;
        }
      /* past the cap (or between two operations' arrivals) nothing changed */
      if (op < n_previous && previous[op].n_kept == n && n > 0)
        out[op] = previous[op];
      else
        _tprof_follow_quantiles_of (samples[op], &out[op]);
    }
  return out;
}
