/* tprof-profile.c — TprofProfile: opening a profile on its cached statistics through libcapture's isolated reader, and reading operations' samples in workers. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tprof-profile-live.h"
#include "tprof-profile-private.h"

G_DEFINE_FINAL_TYPE (TprofProfile, tprof_profile, G_TYPE_OBJECT)

G_DEFINE_QUARK (tprof-profile-error-quark, _tprof_profile_error)

enum {
  STRAGGLERS_FOUND,
  TREE_FOUND,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
_tprof_profile_contents_free (ProfileContents *contents)
{
  if (contents == NULL)
    return;
  g_strfreev (contents->hostnames);
  g_ptr_array_unref (contents->names);
  for (gsize i = 0; contents->samples != NULL && i < contents->n_ops; i++)
    _tprof_operation_samples_unref (contents->samples[i]);
  g_free (contents->samples);
  g_free (contents->last_used);
  g_free (contents->stats);
  tprof_stragglers_free (contents->stragglers);
  tprof_topology_free (contents->topology);
  _tprof_profile_tree_free (contents->tree);
  g_clear_pointer (&contents->live_stats, g_ptr_array_unref);
  for (gsize i = 0; contents->live_samples != NULL && i < contents->n_ops; i++)
    tprof_gathered_time_free (contents->live_samples[i]);
  g_free (contents->live_samples);
  g_free (contents);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProfileContents, _tprof_profile_contents_free)

static ProfileContents *
profile_contents_new (TprofProfileFile *file)
{
  ProfileContents *contents = g_new0 (ProfileContents, 1);

  contents->world_size = tprof_profile_file_world_size (file);
  contents->n_ops = tprof_profile_file_n_operations (file);
  contents->first_synchronising = -1;
  contents->names = g_ptr_array_new_full (contents->n_ops, g_free);
  contents->stats = g_new0 (const TprofOperationStats *, MAX (contents->n_ops, 1));
  contents->samples = g_new0 (TprofOperationSamples *, MAX (contents->n_ops, 1));
  contents->last_used = g_new0 (guint64, MAX (contents->n_ops, 1));
  for (gsize i = 0; i < contents->n_ops; i++)
    g_ptr_array_add (contents->names, g_strdup (tprof_profile_file_operation_name (file, i)));

  if (tprof_profile_file_hostname (file, 0) != NULL)
    {
      contents->hostnames = g_new0 (char *, contents->world_size + 1);
      for (int r = 0; r < contents->world_size; r++)
        contents->hostnames[r] = g_strdup (tprof_profile_file_hostname (file, r));
    }
  return contents;
}

static void
tprof_profile_finalize (GObject *object)
{
  TprofProfile *self = (TprofProfile *)object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->contents, _tprof_profile_contents_free);
  g_clear_pointer (&self->handle, tprof_profile_file_close);
  g_mutex_clear (&self->handle_lock);
  g_cond_clear (&self->handle_free);

  G_OBJECT_CLASS (tprof_profile_parent_class)->finalize (object);
}

static void
tprof_profile_class_init (TprofProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tprof_profile_finalize;

  signals[STRAGGLERS_FOUND] =
    g_signal_new ("stragglers-found", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[TREE_FOUND] =
    g_signal_new ("tree-found", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tprof_profile_init (TprofProfile *self)
{
  const char *eager = g_getenv ("TPROF_VIEWER_EAGER_SAMPLES");
  const char *at_once = g_getenv ("TPROF_VIEWER_TREE_AT_ONCE_SAMPLES");

  g_mutex_init (&self->handle_lock);
  g_cond_init (&self->handle_free);
  self->eager_samples = TPROF_PROFILE_EAGER_SAMPLES;
  if (eager != NULL && eager[0] != '\0')
    self->eager_samples = g_ascii_strtoull (eager, NULL, 10);
  self->tree_at_once_samples = TPROF_PROFILE_TREE_AT_ONCE_SAMPLES;
  if (at_once != NULL && at_once[0] != '\0')
    self->tree_at_once_samples = g_ascii_strtoull (at_once, NULL, 10);
}

TprofProfile *
_tprof_profile_new (GFile *file)
{
  TprofProfile *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (TPROF_TYPE_PROFILE, NULL);
  self->file = g_object_ref (file);
  return self;
}

GFile *
_tprof_profile_get_file (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  return self->file;
}

int
_tprof_profile_get_world_size (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), 0);
  return self->contents != NULL ? self->contents->world_size : 0;
}

gsize
_tprof_profile_get_n_operations (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), 0);
  return self->contents != NULL ? self->contents->n_ops : 0;
}

const char *
_tprof_profile_get_name (TprofProfile *self,
                         gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (op >= _tprof_profile_get_n_operations (self))
    return NULL;
  return g_ptr_array_index (self->contents->names, op);
}

const char *
_tprof_profile_get_hostname (TprofProfile *self,
                             int           rank)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (self->contents == NULL || self->contents->hostnames == NULL
      || rank < 0 || rank >= self->contents->world_size)
    return NULL;
  return self->contents->hostnames[rank];
}

guint64
_tprof_profile_get_sample_count (TprofProfile *self,
                                 gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), 0);
  if (op >= _tprof_profile_get_n_operations (self))
    return 0;
  return self->contents->stats[op]->summary.count;
}

const TprofSummary *
_tprof_profile_get_summary (TprofProfile *self,
                            gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (op >= _tprof_profile_get_n_operations (self))
    return NULL;
  return &self->contents->stats[op]->summary;
}

/* A sampled operation under a rank filter: the stored samples give std
 * and the quantiles (estimates); count, sum, mean, extremes and balance
 * come exact from what the ranks shown recorded (docs/file-format.md). */
static void
profile_summary_take_recorded (const TprofOperationStats *stats,
                               int                        world_size,
                               const guint8              *mask,
                               TprofSummary              *out)
{
  TprofSummary exact;

  if (!tprof_rank_totals_summarize (stats->rank_recorded, stats->rank_sum, stats->rank_min, stats->rank_max,
                                    world_size, mask, &exact))
    return;
  out->count = exact.count;
  out->rank_count = exact.rank_count;
  out->sum = exact.sum;
  out->mean = exact.mean;
  out->min = exact.min;
  out->max = exact.max;
  out->imbalance = exact.imbalance;
  out->slowest_rank = exact.slowest_rank;
  out->imbalance_time = exact.imbalance_time;
}

void
_tprof_profile_summarize (TprofProfile                *self,
                          gsize                        op,
                          const TprofOperationSamples *samples,
                          const guint8                *mask,
                          TprofSummary                *out)
{
  const TprofOperationStats *stats;

  g_return_if_fail (TPROF_IS_PROFILE (self));
  g_return_if_fail (op < _tprof_profile_get_n_operations (self));

  stats = self->contents->stats[op];
  if (mask == NULL)
    {
      *out = stats->summary;
      return;
    }
  if (self->contents->live_stats != NULL)
    {
      _tprof_profile_live_summarize (self, op, samples, mask, out);
      return;
    }
  if (samples != NULL && tprof_operation_index_summarize (_tprof_operation_samples_get_index (samples), mask, out))
    {
      if (stats->rank_recorded != NULL)
        profile_summary_take_recorded (stats, self->contents->world_size, mask, out);
      return;
    }
  /* a sampled operation's per-rank arrays cover what each rank recorded */
  if (!tprof_rank_totals_summarize (stats->rank_recorded != NULL ? stats->rank_recorded : stats->rank_count,
                                    stats->rank_sum, stats->rank_min, stats->rank_max,
                                    self->contents->world_size, mask, out))
    /* no memory: a row of unknowns */
    *out = (TprofSummary) {
      .sum = NAN, .mean = NAN, .std = NAN, .min = NAN, .max = NAN,
      .median = NAN, .p95 = NAN, .p99 = NAN, .imbalance = NAN, .slowest_rank = -1, .imbalance_time = NAN,
    };
}

gboolean
_tprof_profile_is_sampled (TprofProfile *self,
                           gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (op < _tprof_profile_get_n_operations (self), FALSE);
  return self->contents->stats[op]->rank_recorded != NULL;
}

const TprofStragglers *
_tprof_profile_get_stragglers (TprofProfile *self,
                               gssize       *first_synchronising)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (first_synchronising != NULL)
    *first_synchronising = self->contents != NULL ? self->contents->first_synchronising : -1;
  return self->contents != NULL ? self->contents->stragglers : NULL;
}

double
_tprof_profile_get_progress (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), 0.0);
  return g_atomic_int_get (&self->progress_permille) / 1000.0;
}

gboolean
_tprof_profile_get_is_reading (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  return g_atomic_int_get (&self->reading);
}

void
_tprof_profile_set_permille (gint   *permille,
                             double  fraction)
{
  g_atomic_int_set (permille, (gint) lround (CLAMP (fraction, 0.0, 1.0) * 1000.0));
}

static void
load_progress_cb (double  fraction,
                  void   *user_data)
{
  ProfileProgress *p = user_data;

  _tprof_profile_set_permille (p->permille, p->start + fraction * p->share);
}

gboolean
_tprof_profile_set_error (GError           **error,
                          const TprofError  *tprof_error,
                          const char        *path,
                          const char        *op_name)
{
  const char *message = tprof_error->message;

  /* the window says which file could not be opened: the library's message
   * loses its own leading "PATH: " */
  if (g_str_has_prefix (message, path) && g_str_has_prefix (message + strlen (path), ": "))
    message += strlen (path) + 2;
  if (tprof_error->code == TPROF_ERROR_CANCELLED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
  else if (op_name != NULL && strstr (message, op_name) == NULL)
    g_set_error (error, TPROF_PROFILE_ERROR, tprof_error->code, "%s: %s", op_name, message);
  else
    g_set_error (error, TPROF_PROFILE_ERROR, tprof_error->code, "%s",
                 message[0] ? message : _("unknown error"));
  return FALSE;
}

/* The statistics of every operation: the file's cache, or (format 1)
 * computed from the samples, read one operation after the other. */
static gboolean
profile_contents_read_stats (ProfileContents   *contents,
                             TprofProfileFile  *file,
                             TprofProfile      *self,
                             GError           **error)
{
  for (gsize i = 0; i < contents->n_ops; i++)
    {
      TprofError tprof_error = { 0 };

      if (g_atomic_int_get (&self->cancelled))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
          return FALSE;
        }
      contents->stats[i] = tprof_profile_file_operation_stats (file, i, &tprof_error);
      if (contents->stats[i] == NULL)
        return _tprof_profile_set_error (error, &tprof_error, tprof_profile_file_path (file),
                                         g_ptr_array_index (contents->names, i));
      _tprof_profile_set_permille (&self->progress_permille, (double) (i + 1) / (double) contents->n_ops);
    }
  return TRUE;
}

/* A small profile is read whole while it opens: every operation's samples
 * are indexed and kept, and the straggler found on the way. */
static gboolean
profile_contents_read_all (ProfileContents   *contents,
                           TprofProfileFile  *file,
                           TprofProfile      *self,
                           GError           **error)
{
  gsize total = 0;
  gsize done = 0;
  /* every operation's samples, kept until the tree is built from them
   * when that is quick; a larger one is built after opening */
  g_autofree TprofGatheredTime **gts = g_new0 (TprofGatheredTime *, MAX (contents->n_ops, 1));
  gboolean ok = TRUE, timeline = FALSE, at_once;

  for (gsize i = 0; i < contents->n_ops; i++)
    total += tprof_profile_file_sample_count (file, i) + 1;
  at_once = total - contents->n_ops <= self->tree_at_once_samples;
  contents->stragglers = tprof_stragglers_new (contents->world_size);

  for (gsize i = 0; i < contents->n_ops; i++)
    {
      const char *name = g_ptr_array_index (contents->names, i);
      gsize weight = tprof_profile_file_sample_count (file, i) + 1;
      /* reading the samples and indexing them: half of the weight each */
      ProfileProgress reading = { &self->progress_permille, (double) done / (double) total,
                                  0.5 * (double) weight / (double) total };
      ProfileProgress indexing = { &self->progress_permille, reading.start + reading.share, reading.share };
      TprofError tprof_error = { 0 };
      TprofGatheredTime *gt;

      gt = tprof_profile_file_read_operation (file, i, NULL, 0, load_progress_cb, &reading,
                                              &self->cancelled, &tprof_error);
      if (gt == NULL)
        {
          ok = _tprof_profile_set_error (error, &tprof_error, tprof_profile_file_path (file), name);
          break;
        }
      gts[i] = gt;
      timeline |= tprof_gathered_time_starts (gt) != NULL;
      _tprof_profile_stragglers_add (&contents->stragglers, &contents->first_synchronising, gt, i);
      contents->samples[i] = _tprof_operation_samples_new (gt, contents->world_size, load_progress_cb, &indexing,
                                                           &self->cancelled, &tprof_error);
      if (!at_once)
        g_clear_pointer (&gts[i], tprof_gathered_time_free);
      if (contents->samples[i] == NULL)
        {
          ok = _tprof_profile_set_error (error, &tprof_error, tprof_profile_file_path (file), name);
          break;
        }
      done += weight;
    }
  if (ok && timeline && _tprof_profile_tree_fits (total - contents->n_ops, contents->n_ops, contents->world_size))
    {
      if (at_once)
        contents->tree = _tprof_profile_tree_new (gts, contents->n_ops, contents->world_size);
      else
        contents->tree_pending = TRUE;
    }
  for (gsize i = 0; i < contents->n_ops; i++)
    tprof_gathered_time_free (gts[i]);
  contents->stragglers_known = ok;
  return ok;
}

/* Opens @path and reads what the window needs first: NULL with @error set
 * on failure; on success the handle stays open in @self. */
static ProfileContents *
profile_load (TprofProfile  *self,
              const char    *path,
              GError       **error)
{
  g_autoptr(ProfileContents) contents = NULL;
  TprofProfileFile *file;
  TprofError tprof_error = { 0 };
  guint64 total = 0;
  gboolean read;

  /* in a helper process: a file HDF5 cannot survive fails there, not here */
  g_atomic_int_set (&self->reading, TRUE);
  file = tprof_profile_file_open_isolated (path, &tprof_error);
  g_atomic_int_set (&self->reading, FALSE);
  if (file == NULL)
    {
      _tprof_profile_set_error (error, &tprof_error, path, NULL);
      return NULL;
    }

  /* one check box per rank: beyond this the window would not be usable */
  if (tprof_profile_file_world_size (file) > TPROF_PROFILE_MAX_RANKS)
    {
      g_autofree char *name = g_file_get_basename (self->file);

      g_set_error (error, TPROF_PROFILE_ERROR, 0,
                   _("%s holds %d ranks; tprof-viewer shows at most %d (use the tprof command line)"),
                   name, tprof_profile_file_world_size (file), TPROF_PROFILE_MAX_RANKS);
      tprof_profile_file_close (file);
      return NULL;
    }

  contents = profile_contents_new (file);
  for (gsize i = 0; i < contents->n_ops; i++)
    total += tprof_profile_file_sample_count (file, i);
  read = profile_contents_read_stats (contents, file, self, error);
  if (read && total <= self->eager_samples)
    read = profile_contents_read_all (contents, file, self, error);
  else
    /* the pass that finds the straggler finds out whether there is a timeline */
    contents->tree_pending = _tprof_profile_tree_fits (total, contents->n_ops, contents->world_size);
  if (!read)
    {
      tprof_profile_file_close (file);
      return NULL;
    }
  /* kept open: the samples of a large profile are read when needed */
  self->handle = file;
  return g_steal_pointer (&contents);
}

static void
cancelled_cb (GCancellable *cancellable,
              TprofProfile *self)
{
  g_atomic_int_set (&self->cancelled, TRUE);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  TprofProfile *self = source_object;
  g_autofree char *path = g_file_get_path (self->file);
  ProfileContents *contents;
  GError *error = NULL;
  gulong handler = 0;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (self->file);

      g_task_return_new_error (task, TPROF_PROFILE_ERROR, 0, _("%s is not a local file"), uri);
      return;
    }

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self, NULL);
  contents = profile_load (self, path, &error);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);

  if (contents == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, contents, (GDestroyNotify) _tprof_profile_contents_free);
}

void
_tprof_profile_load_async (TprofProfile        *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TPROF_IS_PROFILE (self));
  g_return_if_fail (self->contents == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _tprof_profile_load_async);
  g_task_run_in_thread (task, load_worker);
}

gboolean
_tprof_profile_load_finish (TprofProfile  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  ProfileContents *contents;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  contents = g_task_propagate_pointer (G_TASK (result), error);
  if (contents == NULL)
    return FALSE;

  g_clear_pointer (&self->contents, _tprof_profile_contents_free);
  self->contents = contents;
  if (!contents->stragglers_known || contents->tree_pending)
    _tprof_profile_find_stragglers (self);
  return TRUE;
}

void
_tprof_profile_emit_stragglers_found (TprofProfile *self)
{
  g_signal_emit (self, signals[STRAGGLERS_FOUND], 0);
}

void
_tprof_profile_emit_tree_found (TprofProfile *self)
{
  g_signal_emit (self, signals[TREE_FOUND], 0);
}
