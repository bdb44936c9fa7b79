/* tprof-follow-quantiles.h — the std and quantiles of a followed job's kept samples, computed off the main thread after each refresh. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

/* One operation's std, median, P95 and P99 over its first @n_kept kept
 * samples: they are the snapshot's when it keeps as many. */
typedef struct
{
  gsize  n_kept;
  double std;
  double median;
  double p95;
  double p99;
} TprofFollowQuantiles;

/* The figures of @gt (NULL or empty: n_kept 0 and NaN). */
void                  _tprof_follow_quantiles_of      (const TprofGatheredTime *gt,
                                                       TprofFollowQuantiles    *out);
/* The figures of each of @n_ops operations' samples @samples[op] (NULL:
 * none kept, n_kept 0 and NaN), reusing those of @previous (@n_previous
 * of them, may be NULL) where an operation kept no more samples since: a
 * new array of @n_ops. Stops early, returning NULL, once @cancellable is
 * cancelled. Any thread; the statistics are libcapture's. */
TprofFollowQuantiles *_tprof_follow_quantiles_compute (TprofGatheredTime * const *samples,
                                                       gsize                      n_ops,
                                                       const TprofFollowQuantiles *previous,
                                                       gsize                      n_previous,
                                                       GCancellable              *cancellable);

G_END_DECLS
