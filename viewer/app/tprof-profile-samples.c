/* tprof-profile-samples.c — TprofProfile: reading a selected operation's samples in a worker, and keeping them within a memory budget. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-profile-private.h"

typedef struct
{
  TprofProfile *profile;
  gsize         op;
  gint          cancelled;  /* atomic */
} ReadJob;

/* Where one phase lies in a read's progress. */
typedef struct
{
  ReadJob *job;
  double   start;
  double   share;
} ReadProgress;

static void
read_job_free (ReadJob *job)
{
  g_object_unref (job->profile);
  g_free (job);
}

void
_tprof_profile_lock_for_read (TprofProfile *self)
{
  g_atomic_int_inc (&self->readers_waiting);
  /* the straggler search gives way: its read stops soon */
  g_atomic_int_set (&self->scan_stop, TRUE);
  g_mutex_lock (&self->handle_lock);
}

void
_tprof_profile_unlock_for_read (TprofProfile *self)
{
  g_mutex_unlock (&self->handle_lock);
  if (g_atomic_int_dec_and_test (&self->readers_waiting))
    {
      g_mutex_lock (&self->handle_lock);
      g_cond_broadcast (&self->handle_free);
      g_mutex_unlock (&self->handle_lock);
    }
}

/* Shown progress follows the latest read only; an earlier one that was
 * cancelled may still be ending. */
static void
read_progress_cb (double  fraction,
                  void   *user_data)
{
  ReadProgress *p = user_data;
  ReadJob *job = p->job;

  if (g_atomic_pointer_get (&job->profile->current_read) == job)
    _tprof_profile_set_permille (&job->profile->read_permille, p->start + fraction * p->share);
}

static void
read_cancelled_cb (GCancellable *cancellable,
                   ReadJob      *job)
{
  g_atomic_int_set (&job->cancelled, TRUE);
}

static TprofOperationSamples *
read_samples (ReadJob  *job,
              GError  **error)
{
  TprofProfile *self = job->profile;
  const char *name = g_ptr_array_index (self->contents->names, job->op);
  /* the read, then the index: half of the bar each */
  ReadProgress reading = { job, 0.0, 0.5 };
  ReadProgress indexing = { job, 0.5, 0.5 };
  TprofError tprof_error = { 0 };
  TprofGatheredTime *gt;
  TprofOperationSamples *samples;

  /* the straggler search waits until this is indexed too: the selected
   * operation has the processors and the memory to itself */
  _tprof_profile_lock_for_read (self);
  gt = tprof_profile_file_read_operation (self->handle, job->op, NULL, 0, read_progress_cb, &reading,
                                          &job->cancelled, &tprof_error);
  if (gt == NULL)
    {
      _tprof_profile_unlock_for_read (self);
      _tprof_profile_set_error (error, &tprof_error, tprof_profile_file_path (self->handle), name);
      return NULL;
    }
  samples = _tprof_operation_samples_new (gt, self->contents->world_size, read_progress_cb, &indexing,
                                          &job->cancelled, &tprof_error);
  tprof_gathered_time_free (gt);
  _tprof_profile_unlock_for_read (self);
  if (samples == NULL)
    _tprof_profile_set_error (error, &tprof_error, tprof_profile_file_path (self->handle), name);
  return samples;
}

static void
read_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ReadJob *job = task_data;
  TprofOperationSamples *samples;
  GError *error = NULL;
  gulong handler = 0;

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (read_cancelled_cb), job, NULL);
  samples = read_samples (job, &error);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);

  if (samples == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, samples, (GDestroyNotify) _tprof_operation_samples_unref);
}

void
_tprof_profile_read_samples_async (TprofProfile        *self,
                                   gsize                op,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ReadJob *job;

  g_return_if_fail (TPROF_IS_PROFILE (self));
  g_return_if_fail (op < _tprof_profile_get_n_operations (self));
  g_return_if_fail (self->handle != NULL);

  job = g_new0 (ReadJob, 1);
  job->profile = g_object_ref (self);
  job->op = op;
  g_atomic_pointer_set (&self->current_read, job);
  g_atomic_int_set (&self->read_permille, 0);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _tprof_profile_read_samples_async);
  g_task_set_task_data (task, job, (GDestroyNotify) read_job_free);
  g_task_run_in_thread (task, read_worker);
}

/* Drops the least recently used samples until what is kept, beside
 * @keep, fits TPROF_PROFILE_KEEP_BYTES. */
static void
profile_evict (TprofProfile *self,
               gsize         keep)
{
  ProfileContents *contents = self->contents;

  for (;;)
    {
      gsize held = 0;
      gssize oldest = -1;

      for (gsize i = 0; i < contents->n_ops; i++)
        if (i != keep && contents->samples[i] != NULL)
          {
            held += _tprof_operation_samples_get_size (contents->samples[i]);
            if (oldest < 0 || contents->last_used[i] < contents->last_used[oldest])
              oldest = (gssize) i;
          }
      if (held <= TPROF_PROFILE_KEEP_BYTES || oldest < 0)
        return;
      g_clear_pointer (&contents->samples[oldest], _tprof_operation_samples_unref);
    }
}

TprofOperationSamples *
_tprof_profile_read_samples_finish (TprofProfile  *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  ReadJob *job;
  TprofOperationSamples *samples;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  job = g_task_get_task_data (G_TASK (result));
  samples = g_task_propagate_pointer (G_TASK (result), error);
  if (samples == NULL)
    return NULL;
  if (self->contents->samples[job->op] == NULL)
    self->contents->samples[job->op] = _tprof_operation_samples_ref (samples);
  self->contents->last_used[job->op] = ++self->use_clock;
  profile_evict (self, job->op);
  return samples;
}

TprofOperationSamples *
_tprof_profile_ref_samples (TprofProfile *self,
                            gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (op >= _tprof_profile_get_n_operations (self) || self->contents->samples[op] == NULL)
    return NULL;
  self->contents->last_used[op] = ++self->use_clock;
  return _tprof_operation_samples_ref (self->contents->samples[op]);
}

double
_tprof_profile_get_read_progress (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), 0.0);
  return g_atomic_int_get (&self->read_permille) / 1000.0;
}
