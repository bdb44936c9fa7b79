/* tprof-profile-live.c — TprofProfile as a snapshot of a running job: what its spill files held at one refresh, from the follower's TprofLive. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tprof-profile-live.h"
#include "tprof-profile-private.h"

/* std and the quantiles, which TprofLive does not know: those a worker
 * computed of the samples kept (tprof-follow-quantiles.h), of an earlier
 * poll until it computed those of this one. */
static void
live_summary_take_quantiles (TprofSummary               *summary,
                             const TprofFollowQuantiles *quantiles)
{
  if (quantiles == NULL || quantiles->n_kept == 0)
    return;
  summary->std = quantiles->std;
  summary->median = quantiles->median;
  summary->p95 = quantiles->p95;
  summary->p99 = quantiles->p99;
}

/* One operation's statistics and per-rank totals in one block. */
static TprofOperationStats *
live_stats_new (const TprofLive            *live,
                gsize                       op,
                const TprofFollowQuantiles *quantiles)
{
  int world = tprof_live_world_size (live);
  TprofOperationStats *stats = g_malloc0 (sizeof *stats + (gsize) world * (sizeof (gint64) + 3 * sizeof (double)));
  gint64 *count = (gint64 *) (stats + 1);
  double *sum = (double *) (count + world);
  double *min = sum + world;
  double *max = min + world;
  const int64_t *live_count;
  const double *live_sum, *live_min, *live_max;

  if (!tprof_live_summary (live, op, &stats->summary))
    stats->summary = (TprofSummary) {
      .sum = NAN, .mean = NAN, .std = NAN, .min = NAN, .max = NAN,
      .median = NAN, .p95 = NAN, .p99 = NAN, .imbalance = NAN, .slowest_rank = -1, .imbalance_time = NAN,
    };
  else
    live_summary_take_quantiles (&stats->summary, quantiles);
  tprof_live_rank_totals (live, op, &live_count, &live_sum, &live_min, &live_max);
  for (int r = 0; r < world; r++)
    {
      count[r] = live_count[r];
      sum[r] = live_sum[r];
      /* as a file's cache says it: NaN where the rank has nothing */
      min[r] = live_count[r] > 0 ? live_min[r] : NAN;
      max[r] = live_count[r] > 0 ? live_max[r] : NAN;
    }
  stats->rank_count = count;
  stats->rank_sum = sum;
  stats->rank_min = min;
  stats->rank_max = max;
  return stats;
}

/* The blame so far, and the first operation whose complete occurrences
 * synchronise the ranks (-1: none yet). */
static void
live_stragglers (ProfileContents *contents,
                 const TprofLive *live)
{
  contents->stragglers = tprof_live_stragglers (live);
  contents->first_synchronising = -1;
  for (gsize op = 0; op < contents->n_ops && contents->first_synchronising < 0; op++)
    {
      TprofArrival arrival;

      tprof_live_arrival (live, op, &arrival);
      if (arrival.synchronising)
        contents->first_synchronising = (gssize) op;
    }
  contents->stragglers_known = contents->stragglers != NULL;
}

/* The host of each rank from its file's header; NULL when no file says. */
static char **
live_hostnames (const TprofSpillLive *sl)
{
  int world = sl->job->world_size;
  char **hostnames = g_new0 (char *, world + 1);
  gboolean any = FALSE;

  for (int r = 0; r < world; r++)
    {
      const TprofSpillReader *reader = sl->job->readers[r];
      const char *host = reader != NULL ? _tprof_spill_reader_header (reader)->host : NULL;

      any |= host != NULL && host[0] != '\0';
      /* Translators: in place of a host name in the rank list and the
       * charts, for the ranks whose spill file has not appeared (their host
       * is not known) */
      hostnames[r] = g_strdup (host != NULL && host[0] != '\0' ? host : _("no spill file"));
    }
  if (!any)
    g_clear_pointer (&hostnames, g_strfreev);
  return hostnames;
}

TprofProfile *
_tprof_profile_new_live (GFile                      *directory,
                         const TprofSpillLive       *sl,
                         const TprofFollowSamples   *samples,
                         const TprofFollowQuantiles *quantiles,
                         gsize                       n_quantiles)
{
  TprofProfile *self = _tprof_profile_new (directory);
  ProfileContents *contents = g_new0 (ProfileContents, 1);
  const TprofLive *live = sl->live;

  contents->world_size = tprof_live_world_size (live);
  contents->n_ops = tprof_live_n_operations (live);
  contents->names = g_ptr_array_new_full (contents->n_ops, g_free);
  contents->live_stats = g_ptr_array_new_full (contents->n_ops, g_free);
  contents->stats = g_new0 (const TprofOperationStats *, MAX (contents->n_ops, 1));
  contents->samples = g_new0 (TprofOperationSamples *, MAX (contents->n_ops, 1));
  contents->last_used = g_new0 (guint64, MAX (contents->n_ops, 1));
  contents->live_samples = g_new0 (TprofGatheredTime *, MAX (contents->n_ops, 1));
  for (gsize op = 0; op < contents->n_ops; op++)
    {
      TprofOperationStats *stats;

      if (samples != NULL)
        contents->live_samples[op] = _tprof_follow_samples_dup (samples, op);
      stats = live_stats_new (live, op, op < n_quantiles ? &quantiles[op] : NULL);

      g_ptr_array_add (contents->names, g_strdup (tprof_live_operation_name (live, op)));
      g_ptr_array_add (contents->live_stats, stats);
      contents->stats[op] = stats;
    }
  contents->hostnames = live_hostnames (sl);
  live_stragglers (contents, live);
  self->contents = contents;
  return self;
}

/* The samples kept of @op on the ranks of @mask: a new selection. */
static TprofGatheredTime *
live_masked_samples (const ProfileContents *contents,
                     gsize                  op,
                     const guint8          *mask)
{
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  if (contents->live_samples[op] == NULL)
    return NULL;
  for (gint32 r = 0; r < contents->world_size; r++)
    if (mask[r])
      g_array_append_val (ranks, r);
  return tprof_gathered_time_get_rank (contents->live_samples[op], (const gint32 *) ranks->data, ranks->len);
}

void
_tprof_profile_live_summarize (TprofProfile                *self,
                               gsize                        op,
                               const TprofOperationSamples *samples,
                               const guint8                *mask,
                               TprofSummary                *out)
{
  const ProfileContents *contents = self->contents;
  const TprofOperationStats *stats = contents->stats[op];
  TprofFollowQuantiles quantiles = { 0 };
  TprofSummary kept;

  if (!tprof_rank_totals_summarize (stats->rank_count, stats->rank_sum, stats->rank_min, stats->rank_max,
                                    contents->world_size, mask, out))
    {
      *out = (TprofSummary) {
        .sum = NAN, .mean = NAN, .std = NAN, .min = NAN, .max = NAN,
        .median = NAN, .p95 = NAN, .p99 = NAN, .imbalance = NAN, .slowest_rank = -1, .imbalance_time = NAN,
      };
      return;
    }
  /* indexed for the charts: at once; otherwise a pass over the kept samples */
  if (samples != NULL && tprof_operation_index_summarize (_tprof_operation_samples_get_index (samples), mask, &kept))
    quantiles = (TprofFollowQuantiles) { kept.count, kept.std, kept.median, kept.p95, kept.p99 };
  else
    {
      TprofGatheredTime *selected = live_masked_samples (contents, op, mask);

      _tprof_follow_quantiles_of (selected, &quantiles);
      tprof_gathered_time_free (selected);
    }
  live_summary_take_quantiles (out, &quantiles);
}

gboolean
_tprof_profile_is_live (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  return self->contents != NULL && self->contents->live_stats != NULL;
}

TprofOperationSamples *
_tprof_profile_live_ref_samples (TprofProfile *self,
                                 gsize         op)
{
  ProfileContents *contents;
  TprofError error = { 0 };

  g_return_val_if_fail (_tprof_profile_is_live (self), NULL);
  contents = self->contents;
  if (op >= contents->n_ops || contents->live_samples[op] == NULL)
    return NULL;
  if (contents->samples[op] == NULL)
    contents->samples[op] = _tprof_operation_samples_new (contents->live_samples[op], contents->world_size,
                                                          NULL, NULL, NULL, &error);
  tprof_error_clear (&error);
  return _tprof_profile_ref_samples (self, op);
}
