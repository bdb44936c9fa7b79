/* tprof-profile.c — TprofProfile: reading a profile through libcapture's isolated reader and indexing its operations in a GTask worker. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tprof-profile.h"

/* What a load produces, handed from the worker to the profile at once. */
typedef struct
{
  int         world_size;
  char      **hostnames;   /* world_size entries, or NULL */
  GPtrArray  *names;       /* char *, one per operation */
  GPtrArray  *indexes;     /* TprofOperationIndex *, one per operation; NULL until read */
  GPtrArray  *heats;       /* TprofProfileHeat *, one per operation; NULL without starts */
  TprofStragglers *stragglers;  /* blame from arrival; NULL without a timeline */
  gssize      first_synchronising;  /* operation, or -1 */
} ProfileContents;

struct _TprofProfile
{
  GObject          parent_instance;
  GFile           *file;
  ProfileContents *contents;
  gint             progress_permille;  /* atomic, written by the worker */
  gint             reading;            /* atomic */
  gint             cancelled;          /* atomic */
};

G_DEFINE_FINAL_TYPE (TprofProfile, tprof_profile, G_TYPE_OBJECT)

G_DEFINE_QUARK (tprof-profile-error-quark, _tprof_profile_error)

static void
profile_heat_free (TprofProfileHeat *heat)
{
  if (heat == NULL)
    return;
  g_free (heat->cells);
  g_free (heat);
}

/* The heat map of @gt, one column for at most TPROF_PROFILE_HEAT_COLUMNS
 * occurrences each, rows from its lowest to its highest rank; NULL
 * without starts (or memory). */
static TprofProfileHeat *
profile_heat_new (const TprofGatheredTime *gt,
                  int                      world_size)
{
  TprofError error = { 0 };
  TprofOccurrences *occ;
  TprofProfileHeat *heat;
  const int32_t *present;
  g_autofree gint32 *rows = NULL;
  size_t n;

  if (tprof_gathered_time_count (gt) == 0 || tprof_gathered_time_starts (gt) == NULL
      || (occ = tprof_occurrences_new (gt, world_size, &error)) == NULL)
    return NULL;
  present = tprof_occurrences_ranks (occ);
  n = tprof_heatmap_occurrences (occ);
  heat = g_new0 (TprofProfileHeat, 1);
  heat->first_rank = present[0];
  heat->n_rows = (guint) (present[tprof_occurrences_n_ranks (occ) - 1] - present[0] + 1);
  heat->n_occurrences = n;
  rows = g_new (gint32, heat->n_rows);
  for (guint i = 0; i < heat->n_rows; i++)
    rows[i] = heat->first_rank + (gint32) i;
  heat->cells = g_new (double, (gsize) heat->n_rows * MIN (n, TPROF_PROFILE_HEAT_COLUMNS));
  heat->n_cols = (guint) tprof_heatmap_fill (occ, rows, heat->n_rows, MIN (n, TPROF_PROFILE_HEAT_COLUMNS),
                                             TPROF_HEATMAP_DURATION, heat->cells);
  tprof_occurrences_free (occ);
  if (heat->n_cols == 0)
    {
      profile_heat_free (heat);
      return NULL;
    }
  return heat;
}

static void
profile_contents_free (ProfileContents *contents)
{
  g_strfreev (contents->hostnames);
  g_ptr_array_unref (contents->names);
  g_ptr_array_unref (contents->indexes);
  g_ptr_array_unref (contents->heats);
  tprof_stragglers_free (contents->stragglers);
  g_free (contents);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProfileContents, profile_contents_free)

static ProfileContents *
profile_contents_new (TprofProfileFile *file)
{
  ProfileContents *contents = g_new0 (ProfileContents, 1);
  gsize n_ops = tprof_profile_file_n_operations (file);

  contents->world_size = tprof_profile_file_world_size (file);
  contents->first_synchronising = -1;
  contents->names = g_ptr_array_new_full (n_ops, g_free);
  contents->indexes = g_ptr_array_new_full (n_ops, (GDestroyNotify) tprof_operation_index_free);
  contents->heats = g_ptr_array_new_full (n_ops, (GDestroyNotify) profile_heat_free);
  for (gsize i = 0; i < n_ops; i++)
    {
      g_ptr_array_add (contents->names, g_strdup (tprof_profile_file_operation_name (file, i)));
      g_ptr_array_add (contents->indexes, NULL);
      g_ptr_array_add (contents->heats, NULL);
    }

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
  g_clear_pointer (&self->contents, profile_contents_free);

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
  return self->contents != NULL ? self->contents->names->len : 0;
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

const TprofOperationIndex *
_tprof_profile_get_operation_index (TprofProfile *self,
                                    gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (op >= _tprof_profile_get_n_operations (self))
    return NULL;
  return g_ptr_array_index (self->contents->indexes, op);
}

const TprofProfileHeat *
_tprof_profile_get_heat (TprofProfile *self,
                         gsize         op)
{
  g_return_val_if_fail (TPROF_IS_PROFILE (self), NULL);
  if (op >= _tprof_profile_get_n_operations (self))
    return NULL;
  return g_ptr_array_index (self->contents->heats, op);
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

const TprofSummary *
_tprof_profile_get_summary (TprofProfile *self,
                            gsize         op)
{
  const TprofOperationIndex *index = _tprof_profile_get_operation_index (self, op);

  /* a lazy reader would answer from the file's cached statistics */
  return index != NULL ? tprof_operation_index_summary (index) : NULL;
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

/* Where one operation's indexing lies in the whole load's progress. */
typedef struct
{
  TprofProfile *profile;
  double        start;
  double        share;
} IndexProgress;

static void
index_progress_cb (double  fraction,
                   void   *user_data)
{
  IndexProgress *p = user_data;

  g_atomic_int_set (&p->profile->progress_permille, (gint) lround ((p->start + fraction * p->share) * 1000.0));
}

static void
cancelled_cb (GCancellable *cancellable,
              TprofProfile *self)
{
  g_atomic_int_set (&self->cancelled, TRUE);
}

/* The window says which file could not be opened: the library's message
 * loses its own leading "PATH: ". */
static gboolean
set_load_error (GError           **error,
                const TprofError  *tprof_error,
                const char        *path,
                const char        *op_name)
{
  const char *message = tprof_error->message;

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

/* Reads every operation of @file and indexes it into @contents, one after
 * the other, freeing each one's samples once indexed. Returns FALSE with
 * @error set on failure. */
static gboolean
profile_contents_index (ProfileContents   *contents,
                        TprofProfileFile  *file,
                        TprofProfile      *self,
                        GError           **error)
{
  gsize total = 0;
  gsize done = 0;

  for (gsize i = 0; i < contents->indexes->len; i++)
    total += tprof_profile_file_sample_count (file, i) + 1;
  /* the straggler from arrival, while each operation's samples are here;
   * dropped as soon as an operation has no timeline */
  contents->stragglers = tprof_stragglers_new (contents->world_size);

  for (gsize i = 0; i < contents->indexes->len; i++)
    {
      const char *name = g_ptr_array_index (contents->names, i);
      gsize weight = tprof_profile_file_sample_count (file, i) + 1;
      /* reading the samples and indexing them: half of the weight each */
      IndexProgress reading = { self, (double) done / (double) total, 0.5 * (double) weight / (double) total };
      IndexProgress indexing = { self, reading.start + reading.share, reading.share };
      TprofError tprof_error = { 0 };
      TprofGatheredTime *gt;
      TprofOperationIndex *index;

      gt = tprof_profile_file_read_operation (file, i, NULL, 0, index_progress_cb, &reading,
                                              &self->cancelled, &tprof_error);
      if (gt == NULL)
        return set_load_error (error, &tprof_error, tprof_profile_file_path (file), name);
      if (contents->stragglers != NULL)
        {
          TprofArrival arrival;

          if (tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL)
            g_clear_pointer (&contents->stragglers, tprof_stragglers_free);
          else if (!tprof_stragglers_add (contents->stragglers, gt, &arrival))
            g_clear_pointer (&contents->stragglers, tprof_stragglers_free);
          else if (arrival.synchronising && contents->first_synchronising < 0)
            contents->first_synchronising = (gssize) i;
        }
      g_ptr_array_index (contents->heats, i) = profile_heat_new (gt, contents->world_size);
      index = tprof_operation_index_new (gt, index_progress_cb, &indexing, &self->cancelled, &tprof_error);
      tprof_gathered_time_free (gt);
      if (index == NULL)
        return set_load_error (error, &tprof_error, tprof_profile_file_path (file), name);
      g_ptr_array_index (contents->indexes, i) = index;
      done += weight;
    }
  return TRUE;
}

/* Opens the file in a helper process (a file HDF5 cannot survive fails
 * there, not here), then reads and indexes it: NULL with @error set on
 * failure. */
static ProfileContents *
profile_read (TprofProfile  *self,
              const char    *path,
              GError       **error)
{
  g_autoptr(ProfileContents) contents = NULL;
  TprofProfileFile *file;
  TprofError tprof_error = { 0 };
  gboolean indexed;

  g_atomic_int_set (&self->reading, TRUE);
  file = tprof_profile_file_open_isolated (path, &tprof_error);
  g_atomic_int_set (&self->reading, FALSE);
  if (file == NULL)
    {
      set_load_error (error, &tprof_error, path, NULL);
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
  indexed = profile_contents_index (contents, file, self, error);
  tprof_profile_file_close (file);
  return indexed ? g_steal_pointer (&contents) : NULL;
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
  contents = profile_read (self, path, &error);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);

  if (contents == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, contents, (GDestroyNotify) profile_contents_free);
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

  g_clear_pointer (&self->contents, profile_contents_free);
  self->contents = contents;
  return TRUE;
}
