/* tprof-profile-stragglers.c — TprofProfile: finding the straggler from arrival and building the operation tree, reading a profile's operations once in the background. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include "tprof-profile-private.h"

typedef struct
{
  TprofStragglers  *stragglers;
  gssize            first_synchronising;
  TprofProfileTree *tree;
} Found;

static void
found_free (Found *found)
{
  tprof_stragglers_free (found->stragglers);
  _tprof_profile_tree_free (found->tree);
  g_free (found);
}

void
_tprof_profile_stragglers_add (TprofStragglers         **stragglers,
                               gssize                   *first_synchronising,
                               const TprofGatheredTime  *gt,
                               gsize                     op)
{
  TprofArrival arrival;

  if (*stragglers == NULL)
    return;
  /* an operation without a timeline: nobody can be blamed from arrival */
  if (tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL)
    g_clear_pointer (stragglers, tprof_stragglers_free);
  else if (!tprof_stragglers_add (*stragglers, gt, &arrival))
    g_clear_pointer (stragglers, tprof_stragglers_free);
  else if (arrival.synchronising && *first_synchronising < 0)
    *first_synchronising = (gssize) op;
}

/* Reads @op for the search, giving way to reads of selected operations:
 * NULL when closed or on an error. */
static TprofGatheredTime *
scan_read (TprofProfile *self,
           gsize         op)
{
  for (;;)
    {
      TprofError error = { 0 };
      TprofGatheredTime *gt;

      g_mutex_lock (&self->handle_lock);
      for (;;)
        {
          /* cleared before looking, so that a reader arriving now stops us */
          g_atomic_int_set (&self->scan_stop, g_atomic_int_get (&self->closed));
          if (g_atomic_int_get (&self->readers_waiting) == 0 || g_atomic_int_get (&self->closed))
            break;
          g_cond_wait (&self->handle_free, &self->handle_lock);
        }
      if (g_atomic_int_get (&self->closed))
        {
          g_mutex_unlock (&self->handle_lock);
          return NULL;
        }
      gt = tprof_profile_file_read_operation (self->handle, op, NULL, 0, NULL, NULL, &self->scan_stop, &error);
      g_mutex_unlock (&self->handle_lock);
      if (gt != NULL || error.code != TPROF_ERROR_CANCELLED)
        return gt;
      /* stopped for a selected operation, or closed: try again after it */
    }
}

/* The blame from arrival, handed to the main thread as soon as every
 * operation was read for it: the verdict does not wait for the tree,
 * which at 10^5 ranks takes many times longer to build. */
typedef struct
{
  TprofProfile    *profile;
  TprofStragglers *stragglers;
  gssize           first_synchronising;
} StragglersReady;

static gboolean
stragglers_ready_cb (gpointer data)
{
  StragglersReady *ready = data;
  TprofProfile *self = ready->profile;

  self->contents->stragglers = g_steal_pointer (&ready->stragglers);
  self->contents->first_synchronising = ready->first_synchronising;
  self->contents->stragglers_known = TRUE;
  g_atomic_int_set (&self->scan_stragglers, FALSE);
  if (!g_atomic_int_get (&self->closed))
    _tprof_profile_emit_stragglers_found (self);
  return G_SOURCE_REMOVE;
}

static void
stragglers_ready_free (gpointer data)
{
  StragglersReady *ready = data;

  tprof_stragglers_free (ready->stragglers);
  g_object_unref (ready->profile);
  g_free (ready);
}

static void
hand_over_stragglers (GTask        *task,
                      TprofProfile *self,
                      Found        *found)
{
  StragglersReady *ready = g_new0 (StragglersReady, 1);

  ready->profile = g_object_ref (self);
  ready->stragglers = g_steal_pointer (&found->stragglers);
  ready->first_synchronising = found->first_synchronising;
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT, stragglers_ready_cb, ready,
                              stragglers_ready_free);
}

/* Reads every operation once: each is added to the blame from arrival
 * (when the straggler is not known yet) and kept for the tree (when it is
 * pending), until neither needs more (a profile without a timeline has
 * neither). */
static void
scan_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  TprofProfile *self = source_object;
  ProfileContents *contents = self->contents;
  gboolean for_stragglers = g_atomic_int_get (&self->scan_stragglers);
  Found *found = g_new0 (Found, 1);
  g_autofree TprofGatheredTime **gts = NULL;
  gboolean timeline = TRUE;

  if (g_atomic_int_get (&self->scan_tree))
    gts = g_new0 (TprofGatheredTime *, MAX (contents->n_ops, 1));
  found->first_synchronising = -1;
  if (for_stragglers)
    found->stragglers = tprof_stragglers_new (contents->world_size);
  for (gsize i = 0; i < contents->n_ops && timeline; i++)
    {
      TprofGatheredTime *gt = scan_read (self, i);

      if (gt == NULL)
        {
          /* closed, or the file cannot be read: nobody is named, no tree */
          g_clear_pointer (&found->stragglers, tprof_stragglers_free);
          timeline = FALSE;
          break;
        }
      timeline = tprof_gathered_time_count (gt) == 0 || tprof_gathered_time_starts (gt) != NULL;
      if (for_stragglers)
        _tprof_profile_stragglers_add (&found->stragglers, &found->first_synchronising, gt, i);
      if (gts != NULL)
        gts[i] = gt;
      else
        tprof_gathered_time_free (gt);
      /* the straggler alone: nothing more to find once blame is impossible */
      if (gts == NULL && found->stragglers == NULL)
        break;
      _tprof_profile_set_permille (&self->scan_permille, (double) (i + 1) / (double) contents->n_ops);
    }
  if (for_stragglers)
    hand_over_stragglers (task, self, found);
  if (gts != NULL && timeline)
    found->tree = _tprof_profile_tree_new (gts, contents->n_ops, contents->world_size);
  for (gsize i = 0; gts != NULL && i < contents->n_ops; i++)
    tprof_gathered_time_free (gts[i]);
  g_task_return_pointer (task, found, (GDestroyNotify) found_free);
}

static void
scan_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  TprofProfile *self = TPROF_PROFILE (object);
  Found *found = g_task_propagate_pointer (G_TASK (result), NULL);
  gboolean for_tree = g_atomic_int_get (&self->scan_tree);

  /* the blame went ahead (hand_over_stragglers), the tree follows */
  g_atomic_int_set (&self->scanning, FALSE);
  g_atomic_int_set (&self->scan_tree, FALSE);
  if (found == NULL)
    return;
  if (for_tree)
    {
      self->contents->tree = g_steal_pointer (&found->tree);
      self->contents->tree_pending = FALSE;
    }
  found_free (found);
  if (!g_atomic_int_get (&self->closed) && for_tree)
    _tprof_profile_emit_tree_found (self);
}

void
_tprof_profile_find_stragglers (TprofProfile *self)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, scan_done, NULL);

  g_atomic_int_set (&self->scanning, TRUE);
  g_atomic_int_set (&self->scan_stragglers, !self->contents->stragglers_known);
  g_atomic_int_set (&self->scan_tree, self->contents->tree_pending);
  g_atomic_int_set (&self->scan_permille, 0);
  g_task_run_in_thread (task, scan_worker);
}

gboolean
_tprof_profile_is_building_tree (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  return g_atomic_int_get (&self->scan_tree);
}

gboolean
_tprof_profile_is_finding_stragglers (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  return g_atomic_int_get (&self->scan_stragglers);
}

double
_tprof_profile_get_straggler_progress (TprofProfile *self)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), 0.0);
  return g_atomic_int_get (&self->scan_permille) / 1000.0;
}

void
_tprof_profile_close (TprofProfile *self)
{
  g_return_if_fail (TPROF_IS_PROFILE (self));

  g_atomic_int_set (&self->closed, TRUE);
  g_atomic_int_set (&self->scan_stop, TRUE);
  g_mutex_lock (&self->handle_lock);
  g_cond_broadcast (&self->handle_free);
  g_mutex_unlock (&self->handle_lock);
}

gboolean
_tprof_profile_decide_straggler (TprofProfile           *self,
                                 TprofStragglerVerdict  *verdict,
                                 const TprofTopology   **topology)
{
  ProfileContents *contents;

  g_return_val_if_fail (TPROF_IS_PROFILE (self), FALSE);
  contents = self->contents;
  if (contents == NULL || contents->stragglers == NULL || !contents->stragglers_known
      || g_atomic_int_get (&self->scan_stragglers))
    return FALSE;
  if (_tprof_profile_get_topology (self) == NULL
      || !tprof_stragglers_decide (contents->stragglers, contents->topology,
                                   tprof_topology_default_level (contents->topology), verdict))
    return FALSE;
  *topology = contents->topology;
  return TRUE;
}

const TprofTopology *
_tprof_profile_get_topology (TprofProfile *self)
{
  ProfileContents *contents;

  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  contents = self->contents;
  if (contents == NULL || contents->world_size <= 0)
    return NULL;
  if (contents->topology == NULL)
    contents->topology = tprof_topology_new (contents->world_size, (const char *const *) contents->hostnames,
                                             NULL);
  return contents->topology;
}
