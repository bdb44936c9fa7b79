/* tprof-profile.c — TprofProfile: reading a profile with libcapture and indexing it in a GTask worker. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-profile.h"

struct _TprofProfile
{
  GObject            parent_instance;
  GFile             *file;
  TprofProfileIndex *index;
  gint               progress_permille;  /* atomic, written by the worker */
  gint               reading;            /* atomic */
  gint               cancelled;          /* atomic */
};

G_DEFINE_FINAL_TYPE (TprofProfile, tprof_profile, G_TYPE_OBJECT)

G_DEFINE_QUARK (tprof-profile-error-quark, _tprof_profile_error)

static void
tprof_profile_finalize (GObject *object)
{
  TprofProfile *self = (TprofProfile *)object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->index, _tprof_profile_index_free);

  G_OBJECT_CLASS (tprof_profile_parent_class)->finalize (object);
}

static void
tprof_profile_class_init (TprofProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tprof_profile_finalize;
}

static void
tprof_profile_init (TprofProfile *self)
{
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

const TprofProfileIndex *
_tprof_profile_get_index (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  return self->index;
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

static void
index_progress_cb (double   fraction,
                   gpointer user_data)
{
  TprofProfile *self = user_data;

  g_atomic_int_set (&self->progress_permille, (gint) (fraction * 1000.0));
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
  g_autofree char *uri = NULL;
  TprofProfiledTime *pt;
  TprofProfileIndex *index;
  TprofError error = { 0 };
  gulong handler = 0;

  if (path == NULL)
    {
      uri = g_file_get_uri (self->file);
      g_task_return_new_error (task, TPROF_PROFILE_ERROR, 0,
                               _("%s is not a local file"), uri);
      return;
    }

  g_atomic_int_set (&self->reading, TRUE);
  pt = tprof_profiled_time_load (path, &error);
  g_atomic_int_set (&self->reading, FALSE);
  if (pt == NULL)
    {
      g_task_return_new_error (task, TPROF_PROFILE_ERROR, error.code, "%s",
                               error.message[0] ? error.message : _("unknown error"));
      return;
    }

  /* one check box per rank: beyond this the window would not be usable */
  if (tprof_profiled_time_world_size (pt) > TPROF_PROFILE_MAX_RANKS)
    {
      g_autofree char *name = g_file_get_basename (self->file);

      g_task_return_new_error (task, TPROF_PROFILE_ERROR, 0,
                               _("%s holds %d ranks; tprof-viewer shows at most %d (use the tprof command line)"),
                               name, tprof_profiled_time_world_size (pt), TPROF_PROFILE_MAX_RANKS);
      tprof_profiled_time_free (pt);
      return;
    }

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self, NULL);
  index = _tprof_profile_index_new (pt, index_progress_cb, self, &self->cancelled);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);
  tprof_profiled_time_free (pt);

  if (index == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
  else
    g_task_return_pointer (task, index, (GDestroyNotify) _tprof_profile_index_free);
}

void
_tprof_profile_load_async (TprofProfile        *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TPROF_IS_PROFILE (self));
  g_return_if_fail (self->index == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _tprof_profile_load_async);
  g_task_run_in_thread (task, load_worker);
}

gboolean
_tprof_profile_load_finish (TprofProfile  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  TprofProfileIndex *index;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  index = g_task_propagate_pointer (G_TASK (result), error);
  if (index == NULL)
    return FALSE;

  g_clear_pointer (&self->index, _tprof_profile_index_free);
  self->index = index;
  return TRUE;
}
