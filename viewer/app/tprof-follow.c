/* tprof-follow.c — TprofFollow: polling a running job's spill files through libcapture's follower, telling what changed. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-follow.h"
#include "tprof-follow-quantiles.h"
#include "tprof-follow-samples.h"
#include "tprof-plot.h"
#include "tprof-profile-live.h"

struct _TprofFollow
{
  GObject         parent_instance;
  GFile          *directory;
  TprofSpillLive *sl;
  TprofFollowSamples *samples;  /* what arrived, for the charts and the quantiles */
  guint           interval_ms;
  guint           source;
  gboolean        started;
  gboolean        paused;
  gboolean        ended;
  gboolean        failed;
  guint64         n_reads;
  gint64          updated;
  guint64         fingerprint;   /* of what the last poll found */
  char           *stopped;       /* the ranks that stopped reporting at the last poll */
  guint           n_stopped;
  guint           compute_source;  /* the worker starts once the refresh is shown */
  GCancellable   *computing;     /* while a worker computes the quantiles, NULL otherwise */
  gboolean        recompute;     /* a poll found more meanwhile: start again */
  TprofFollowQuantiles *quantiles;  /* the last ones computed, by operation */
  gsize           n_quantiles;
  guint           ahead_source;  /* memory for the next poll is readied once the refresh is shown */
  guint           n_readying;    /* workers readying it */
};

G_DEFINE_FINAL_TYPE (TprofFollow, tprof_follow, G_TYPE_OBJECT)

enum { PROP_0, PROP_INTERVAL, N_PROPS };
enum { UPDATED, ENDED, ERROR, N_SIGNALS };

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* What the follower has seen: changes whenever a poll finds something. */
static guint64
follow_fingerprint (const TprofSpillLive *sl)
{
  guint64 h = tprof_live_n_operations (sl->live);

  for (int r = 0; r < sl->job->world_size; r++)
    {
      const TprofSpillLiveRank *rank = &sl->ranks[r];

      h = h * 1000003u + rank->samples;
      h = h * 1000003u + rank->flushes;
      h = h * 1000003u + ((guint64) rank->has_file | (guint64) rank->ended << 1 | (guint64) rank->damaged << 2
                           | (guint64) rank->not_reporting << 3);
    }
  return h;
}

static char *follow_ranks_where (TprofFollow *self,
                                 gboolean   (*keep) (const TprofSpillLive *sl, int r),
                                 guint       *n);

static gboolean
stopped_now (const TprofSpillLive *sl,
             int                   r)
{
  return _tprof_spill_live_stopped (sl, r, (double) g_get_real_time () * 1e-6);
}

/* What a quantile worker reads: the samples kept at the poll that started it. */
typedef struct
{
  TprofGatheredTime   **samples;
  gsize                 n_ops;
  TprofFollowQuantiles *previous;
  gsize                 n_previous;
} QuantilesJob;

static void
quantiles_job_free (QuantilesJob *job)
{
  for (gsize op = 0; op < job->n_ops; op++)
    tprof_gathered_time_free (job->samples[op]);
  g_free (job->samples);
  g_free (job->previous);
  g_free (job);
}

static void
quantiles_worker (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  QuantilesJob *job = task_data;
  TprofFollowQuantiles *quantiles = _tprof_follow_quantiles_compute ((TprofGatheredTime * const *) job->samples,
                                                                     job->n_ops, job->previous, job->n_previous,
                                                                     cancellable);

  if (quantiles == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, quantiles, g_free);
}

static void follow_compute_quantiles (TprofFollow *self);

/* A worker finished: its figures are shown ("updated"). They are newer
 * than the ones shown even when a later poll found more meanwhile, so
 * they replace them, and another worker starts for what came since: on a
 * machine too slow to finish between two polls the columns still move. */
static void
quantiles_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(TprofFollow) self = g_weak_ref_get (ref);
  QuantilesJob *job = g_task_get_task_data (G_TASK (result));
  g_autofree TprofFollowQuantiles *quantiles = g_task_propagate_pointer (G_TASK (result), NULL);

  g_weak_ref_clear (ref);
  g_free (ref);
  if (self == NULL || quantiles == NULL)
    return;
  g_clear_object (&self->computing);
  g_free (self->quantiles);
  self->quantiles = g_steal_pointer (&quantiles);
  self->n_quantiles = job->n_ops;
  if (self->recompute)
    {
      self->recompute = FALSE;
      follow_compute_quantiles (self);
    }
  g_signal_emit (self, signals[UPDATED], 0);
}

static gboolean
compute_cb (gpointer user_data)
{
  TprofFollow *self = user_data;
  g_autoptr(GTask) task = NULL;
  QuantilesJob *job = g_new0 (QuantilesJob, 1);
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  self->compute_source = 0;
  job->n_ops = tprof_live_n_operations (self->sl->live);
  job->samples = g_new0 (TprofGatheredTime *, MAX (job->n_ops, 1));
  for (gsize op = 0; op < job->n_ops; op++)
    job->samples[op] = _tprof_follow_samples_dup (self->samples, op);
  job->previous = g_memdup2 (self->quantiles, self->n_quantiles * sizeof (TprofFollowQuantiles));
  job->n_previous = self->n_quantiles;
  g_weak_ref_init (ref, self);
  self->computing = g_cancellable_new ();
  task = g_task_new (NULL, self->computing, quantiles_done, ref);
  g_task_set_task_data (task, job, (GDestroyNotify) quantiles_job_free);
  g_task_run_in_thread (task, quantiles_worker);
  return G_SOURCE_REMOVE;
}

/* The std and quantiles of every sample kept, in a worker: the refresh
 * itself stays independent of how much has arrived. The worker starts
 * once the main loop is idle, after the refresh is drawn, not competing
 * with it. */
static void
follow_compute_quantiles (TprofFollow *self)
{
  if (self->computing != NULL)
    self->recompute = TRUE;
  else if (self->compute_source == 0)
    self->compute_source = g_idle_add (compute_cb, self);
}

static void
ahead_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  _tprof_follow_samples_ahead_run (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
ahead_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(TprofFollow) self = g_weak_ref_get (ref);

  g_weak_ref_clear (ref);
  g_free (ref);
  if (self != NULL)
    self->n_readying--;
}

static gboolean
ahead_cb (gpointer user_data)
{
  TprofFollow *self = user_data;
  TprofFollowSamplesAhead *ahead = _tprof_follow_samples_ahead (self->samples);
  g_autoptr(GTask) task = NULL;
  GWeakRef *ref;

  self->ahead_source = 0;
  if (ahead == NULL)
    return G_SOURCE_REMOVE;
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  self->n_readying++;
  task = g_task_new (NULL, NULL, ahead_done, ref);
  g_task_set_task_data (task, ahead, (GDestroyNotify) _tprof_follow_samples_ahead_free);
  g_task_run_in_thread (task, ahead_worker);
  return G_SOURCE_REMOVE;
}

/* The kept samples' next pages, as many as the last poll brought, made
 * present in a worker while nothing is shown: a page first written costs
 * a fault (zeroing it, and on some virtual machines much more), which
 * the next refresh then does not pay. Once per poll that found samples,
 * none while nothing arrives. */
static void
follow_ready_ahead (TprofFollow *self)
{
  if (self->ahead_source == 0)
    self->ahead_source = g_idle_add (ahead_cb, self);
}

static void
follow_stop_timer (TprofFollow *self)
{
  g_clear_handle_id (&self->source, g_source_remove);
}

static gboolean
poll_cb (gpointer user_data)
{
  TprofFollow *self = user_data;

  _tprof_follow_poll (self);
  return self->source != 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
follow_start_timer (TprofFollow *self)
{
  follow_stop_timer (self);
  if (self->started && !self->paused && !self->ended && !self->failed)
    self->source = g_timeout_add (self->interval_ms, poll_cb, self);
}

gboolean
_tprof_follow_poll (TprofFollow *self)
{
  TprofError error = { 0 };
  g_autofree char *stopped = NULL;
  guint64 fingerprint;
  gboolean changed;

  g_return_val_if_fail (TPROF_IS_FOLLOW (self), FALSE);
  if (self->ended || self->failed)
    return FALSE;
  self->n_reads++;
  if (_tprof_spill_live_refresh (self->sl, &error) < 0)
    {
      self->failed = TRUE;
      follow_stop_timer (self);
      g_signal_emit (self, signals[ERROR], 0, error.message);
      tprof_error_clear (&error);
      return FALSE;
    }
  fingerprint = follow_fingerprint (self->sl);
  stopped = follow_ranks_where (self, stopped_now, &self->n_stopped);
  changed = fingerprint != self->fingerprint || g_strcmp0 (stopped, self->stopped) != 0;
  self->fingerprint = fingerprint;
  g_free (self->stopped);
  self->stopped = g_steal_pointer (&stopped);
  if (changed)
    {
      self->updated = g_get_real_time ();
      follow_compute_quantiles (self);
      follow_ready_ahead (self);
      g_signal_emit (self, signals[UPDATED], 0);
    }
  if (_tprof_spill_live_ended (self->sl))
    {
      self->ended = TRUE;
      follow_stop_timer (self);
      g_signal_emit (self, signals[ENDED], 0);
    }
  return changed;
}

/* TPROF_FOLLOW_DEFAULT_MAX_SAMPLES, or TPROF_VIEWER_FOLLOW_MAX_SAMPLES. */
static guint64
follow_max_samples (void)
{
  const char *max = g_getenv ("TPROF_VIEWER_FOLLOW_MAX_SAMPLES");

  if (max != NULL && max[0] != '\0')
    return g_ascii_strtoull (max, NULL, 10);
  return TPROF_FOLLOW_DEFAULT_MAX_SAMPLES;
}

TprofFollow *
_tprof_follow_new (GFile   *directory,
                   GError **error)
{
  g_autofree char *path = g_file_get_path (directory);
  g_autofree char *name = g_file_get_parse_name (directory);
  TprofError tprof_error = { 0 };
  TprofFollow *self;
  TprofSpillLive *sl;
  TprofFollowSamples *samples;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      /* Translators: %s is a folder given to follow a running job */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY, _("%s is not a folder of spill files"), name);
      return NULL;
    }
  samples = _tprof_follow_samples_new (follow_max_samples ());
  sl = _tprof_spill_live_open_full (path, NULL, _tprof_follow_samples_add, samples, &tprof_error);
  if (sl == NULL)
    {
      _tprof_follow_samples_free (samples);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", tprof_error.message);
      tprof_error_clear (&tprof_error);
      return NULL;
    }
  self = g_object_new (TPROF_TYPE_FOLLOW, NULL);
  self->directory = g_object_ref (directory);
  self->sl = sl;
  self->samples = samples;
  _tprof_follow_samples_settle (samples);
  self->n_reads = 1;
  self->updated = g_get_real_time ();
  self->fingerprint = follow_fingerprint (sl);
  self->stopped = follow_ranks_where (self, stopped_now, &self->n_stopped);
  self->ended = _tprof_spill_live_ended (sl);
  follow_compute_quantiles (self);
  return self;
}

GFile *
_tprof_follow_get_directory (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  return self->directory;
}

void
_tprof_follow_start (TprofFollow *self)
{
  g_return_if_fail (TPROF_IS_FOLLOW (self));
  self->started = TRUE;
  follow_start_timer (self);
}

void
_tprof_follow_set_paused (TprofFollow *self,
                          gboolean     paused)
{
  g_return_if_fail (TPROF_IS_FOLLOW (self));
  paused = !!paused;
  if (self->paused == paused)
    return;
  self->paused = paused;
  follow_stop_timer (self);
  /* resuming shows at once what came meanwhile */
  if (!paused && self->started)
    _tprof_follow_poll (self);
  follow_start_timer (self);
}

gboolean
_tprof_follow_get_paused (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), FALSE);
  return self->paused;
}

guint
_tprof_follow_get_interval (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), 0);
  return self->interval_ms;
}

void
_tprof_follow_set_interval (TprofFollow *self,
                            guint        interval_ms)
{
  g_return_if_fail (TPROF_IS_FOLLOW (self));
  self->interval_ms = MAX (interval_ms, 10);
  if (self->source != 0)
    follow_start_timer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL]);
}

guint64
_tprof_follow_get_n_reads (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), 0);
  return self->n_reads;
}

TprofProfile *
_tprof_follow_snapshot (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  return _tprof_profile_new_live (self->directory, self->sl, self->samples, self->quantiles, self->n_quantiles);
}

gboolean
_tprof_follow_is_computing (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), FALSE);
  return self->computing != NULL || self->compute_source != 0 || self->ahead_source != 0 || self->n_readying > 0;
}

char *
_tprof_follow_dup_samples_notice (TprofFollow *self)
{
  g_autofree char *max = NULL;

  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  if (!_tprof_follow_samples_is_full (self->samples))
    return NULL;
  max = g_strdup_printf ("%'" G_GUINT64_FORMAT, _tprof_follow_samples_get_max (self->samples));
  /* Translators: %s is a number of samples (TPROF_VIEWER_FOLLOW_MAX_SAMPLES) */
  return g_strdup_printf (_("Only the first %s samples are kept while following: the charts, std and "
                            "quantiles leave out the later ones; count, sum, mean and extremes count them all. "
                            "TPROF_VIEWER_FOLLOW_MAX_SAMPLES sets how many are kept."), max);
}

gint64
_tprof_follow_get_updated (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), 0);
  return self->updated;
}

gboolean
_tprof_follow_has_ended (TprofFollow *self)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), FALSE);
  return self->ended;
}

/* A relative @name is where the job ran: try the spill folder and its parent. */
static char *
follow_resolve (TprofFollow *self,
                const char  *name,
                gboolean    *found)
{
  g_autofree char *dir = g_file_get_path (self->directory);
  g_autofree char *parent = g_path_get_dirname (dir);
  const char *bases[] = { dir, parent };

  *found = FALSE;
  if (g_path_is_absolute (name))
    {
      *found = g_file_test (name, G_FILE_TEST_IS_REGULAR);
      return g_strdup (name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    {
      g_autofree char *path = g_build_filename (bases[i], name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          *found = TRUE;
          return g_steal_pointer (&path);
        }
    }
  return g_strdup (name);
}

char *
_tprof_follow_dup_profile (TprofFollow *self,
                           gboolean    *found)
{
  *found = FALSE;
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  for (int r = 0; r < self->sl->job->world_size; r++)
    {
      const char *name = self->sl->ranks[r].profile_path;

      if (name != NULL && name[0] != '\0')
        return follow_resolve (self, name, found);
    }
  return NULL;
}

char *
_tprof_follow_dup_damage (TprofFollow *self)
{
  GString *text = NULL;

  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  for (int r = 0; r < self->sl->job->world_size; r++)
    {
      const TprofSpillLiveRank *rank = &self->sl->ranks[r];
      g_autofree char *file = NULL;
      g_autofree char *offset = NULL;

      if (!rank->damaged)
        continue;
      file = g_path_get_basename (_tprof_spill_reader_path (self->sl->job->readers[r]));
      offset = g_strdup_printf ("%" G_GUINT64_FORMAT, rank->damaged_offset);
      text = text != NULL ? g_string_append_c (text, '\n') : g_string_new (NULL);
      /* Translators: a rank's spill file has a damaged end; the first %d
       * is the rank, then its file, the byte where the damage starts, and
       * what is wrong there. */
      g_string_append_printf (text, _("Rank %d: %s is damaged at byte %s (%s); what came before is shown, "
                                      "nothing after."),
                              r, file, offset, rank->problem);
    }
  return text != NULL ? g_string_free (text, FALSE) : NULL;
}

/* The ranks for which @keep holds, as a rank expression (NULL: none), and
 * how many in *@n (may be NULL). */
static char *
follow_ranks_where (TprofFollow *self,
                    gboolean   (*keep) (const TprofSpillLive *sl, int r),
                    guint       *n)
{
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (gint32 r = 0; r < self->sl->job->world_size; r++)
    if (keep (self->sl, r))
      g_array_append_val (ranks, r);
  if (n != NULL)
    *n = ranks->len;
  return ranks->len > 0 ? tprof_rank_expr_format ((const gint32 *) ranks->data, ranks->len) : NULL;
}

static gboolean
not_reporting (const TprofSpillLive *sl,
               int                   r)
{
  return _tprof_spill_live_not_reporting (sl, r);
}

static gboolean
no_file (const TprofSpillLive *sl,
         int                   r)
{
  return !sl->ranks[r].has_file;
}

char *
_tprof_follow_dup_not_reporting (TprofFollow *self,
                                 guint       *n)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  return follow_ranks_where (self, not_reporting, n);
}

char *
_tprof_follow_dup_no_file (TprofFollow *self,
                           guint       *n)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  return follow_ranks_where (self, no_file, n);
}

char *
_tprof_follow_dup_stopped (TprofFollow *self,
                           guint       *n)
{
  g_return_val_if_fail (TPROF_IS_FOLLOW (self), NULL);
  if (n != NULL)
    *n = self->n_stopped;
  return g_strdup (self->stopped);
}

static void
tprof_follow_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TprofFollow *self = TPROF_FOLLOW (object);

  if (prop_id == PROP_INTERVAL)
    g_value_set_uint (value, self->interval_ms);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
tprof_follow_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  TprofFollow *self = TPROF_FOLLOW (object);

  if (prop_id == PROP_INTERVAL)
    _tprof_follow_set_interval (self, g_value_get_uint (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
tprof_follow_dispose (GObject *object)
{
  TprofFollow *self = TPROF_FOLLOW (object);

  follow_stop_timer (self);
  g_clear_handle_id (&self->compute_source, g_source_remove);
  g_clear_handle_id (&self->ahead_source, g_source_remove);
  if (self->computing != NULL)
    g_cancellable_cancel (self->computing);
  g_clear_object (&self->computing);
  G_OBJECT_CLASS (tprof_follow_parent_class)->dispose (object);
}

static void
tprof_follow_finalize (GObject *object)
{
  TprofFollow *self = TPROF_FOLLOW (object);

  g_clear_pointer (&self->sl, _tprof_spill_live_free);
  g_clear_pointer (&self->samples, _tprof_follow_samples_free);
  g_clear_object (&self->directory);
  g_free (self->stopped);
  g_free (self->quantiles);
  G_OBJECT_CLASS (tprof_follow_parent_class)->finalize (object);
}

static void
tprof_follow_class_init (TprofFollowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tprof_follow_get_property;
  object_class->set_property = tprof_follow_set_property;
  object_class->dispose = tprof_follow_dispose;
  object_class->finalize = tprof_follow_finalize;

  properties[PROP_INTERVAL] = g_param_spec_uint ("interval", NULL, NULL, 10, G_MAXUINT,
                                                 TPROF_FOLLOW_DEFAULT_INTERVAL_MS,
                                                 G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ENDED] = g_signal_new ("ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ERROR] = g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
tprof_follow_init (TprofFollow *self)
{
  const char *interval = g_getenv ("TPROF_VIEWER_FOLLOW_INTERVAL_MS");

  self->interval_ms = TPROF_FOLLOW_DEFAULT_INTERVAL_MS;
  if (interval != NULL && interval[0] != '\0')
    self->interval_ms = MAX ((guint) g_ascii_strtoull (interval, NULL, 10), 10);
}
