/* tprof-window-reading.c — TprofWindow: the selected operation's charts, reading its samples first (with progress and cancel) when they are not in memory. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>

#include "tprof-plot.h"

#include "tprof-profile-live.h"
#include "tprof-window-private.h"

typedef struct
{
  TprofWindow  *window;
  TprofProfile *profile;
  gsize         op;
} ReadRequest;

static void
read_request_free (ReadRequest *request)
{
  g_object_unref (request->window);
  g_object_unref (request->profile);
  g_free (request);
}

void
_tprof_window_cancel_reading (TprofWindow *self)
{
  g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);
  self->reading_op = -1;
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ReadRequest *request = user_data;
  TprofWindow *self = request->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(TprofOperationSamples) samples = NULL;
  gboolean current;

  samples = _tprof_profile_read_samples_finish (request->profile, result, &error);
  self->read_pending--;
  current = request->profile == self->profile && self->reading_op == (gssize) request->op;
  if (current)
    {
      const char *name = _tprof_profile_get_name (request->profile, request->op);
      g_autofree char *shown = tprof_escape_text (name);

      self->reading_op = -1;
      g_clear_object (&self->read_cancellable);
      if (samples != NULL)
        {
          _tprof_window_update_charts (self);
          /* the table's row for it under a rank filter gains what needs
           * samples, and its comparison with a baseline can be tested */
          if (self->mask != NULL || self->baseline != NULL)
            _tprof_window_update_table (self);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: %s is an operation's name */
          g_autofree char *text = g_strdup_printf (_("Reading the samples of %s was cancelled."), shown);

          _tprof_charts_panel_show_unread (self->charts, text);
        }
      else
        {
          /* Translators: the first %s is an operation's name, the second what went wrong */
          g_autofree char *text = g_strdup_printf (_("Could not read the samples of %s: %s"), shown, error->message);

          _tprof_charts_panel_show_unread (self->charts, text);
        }
    }
  read_request_free (request);
}

/* Starts reading the samples of @op, the selected operation. */
static void
tprof_window_read (TprofWindow *self,
                   gsize        op)
{
  ReadRequest *request;
  g_autofree char *name = tprof_escape_text (_tprof_profile_get_name (self->profile, op));
  g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, _tprof_profile_get_sample_count (self->profile, op));
  g_autofree char *text = NULL;

  _tprof_window_cancel_reading (self);
  /* a running job's snapshot holds its samples: indexed here, at once */
  if (_tprof_profile_is_live (self->profile))
    {
      g_autoptr(TprofOperationSamples) samples = _tprof_profile_live_ref_samples (self->profile, op);
      /* Translators: %s is an operation's name */
      g_autofree char *none = g_strdup_printf (_("No sample of %s has arrived yet."), name);

      if (samples == NULL)
        _tprof_charts_panel_show_message (self->charts, none);
      else
        _tprof_window_update_charts (self);
      return;
    }
  self->read_cancellable = g_cancellable_new ();
  self->reading_op = (gssize) op;
  self->read_pending++;

  request = g_new0 (ReadRequest, 1);
  request->window = g_object_ref (self);
  request->profile = g_object_ref (self->profile);
  request->op = op;
  /* Translators: the first %s is an operation's name, the second a number of samples */
  text = g_strdup_printf (_("Reading the %2$s samples of %1$s…"), name, count);
  _tprof_charts_panel_show_reading (self->charts, text);
  _tprof_profile_read_samples_async (self->profile, op, self->read_cancellable, read_done_cb, request);
  _tprof_window_start_progress (self);
}

void
_tprof_window_cancel_baseline_reading (TprofWindow *self)
{
  g_cancellable_cancel (self->baseline_read_cancellable);
  g_clear_object (&self->baseline_read_cancellable);
  self->baseline_reading_op = -1;
}

static void
baseline_read_done_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  ReadRequest *request = user_data;
  TprofWindow *self = request->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(TprofOperationSamples) samples = _tprof_profile_read_samples_finish (request->profile, result, &error);

  self->read_pending--;
  if (request->profile == self->baseline && self->baseline_reading_op == (gssize) request->op)
    {
      self->baseline_reading_op = -1;
      g_clear_object (&self->baseline_read_cancellable);
      if (samples != NULL)
        {
          _tprof_window_update_charts (self);
          /* the operation's change can now be tested */
          _tprof_window_update_table (self);
        }
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *name = g_file_get_basename (_tprof_profile_get_file (request->profile));
          /* Translators: the first %s is the baseline's file name, the second what went wrong */
          g_autofree char *message = g_strdup_printf (_("Could not read the baseline %s: %s"), name, error->message);

          _tprof_window_show_error (self, message);
        }
    }
  read_request_free (request);
}

/* The charts' second run: the baseline's samples of the selected
 * operation, read first when they are not in memory. */
static void
tprof_window_update_baseline (TprofWindow *self,
                              gssize       op)
{
  gssize base_op = self->baseline != NULL && self->baseline_ops != NULL && op >= 0 ? self->baseline_ops[op] : -1;
  g_autoptr(TprofOperationSamples) base = base_op >= 0 ? _tprof_profile_ref_samples (self->baseline, (gsize) base_op)
                                                       : NULL;
  g_autofree char *label = self->profile != NULL ? g_file_get_basename (_tprof_profile_get_file (self->profile))
                                                 : NULL;
  g_autofree char *base_label = self->baseline != NULL ? g_file_get_basename (_tprof_profile_get_file (self->baseline))
                                                       : NULL;
  gboolean same_world = self->baseline != NULL && self->profile != NULL
                        && _tprof_profile_get_world_size (self->baseline) == _tprof_profile_get_world_size (self->profile);
  ReadRequest *request;

  _tprof_charts_panel_set_baseline (self->charts, base, same_world, label, base_label);
  if (base_op < 0 || base != NULL)
    {
      _tprof_window_cancel_baseline_reading (self);
      return;
    }
  if (self->baseline_reading_op == base_op)
    return;
  _tprof_window_cancel_baseline_reading (self);
  self->baseline_read_cancellable = g_cancellable_new ();
  self->baseline_reading_op = base_op;
  self->read_pending++;
  request = g_new0 (ReadRequest, 1);
  request->window = g_object_ref (self);
  request->profile = g_object_ref (self->baseline);
  request->op = (gsize) base_op;
  _tprof_profile_read_samples_async (self->baseline, (gsize) base_op, self->baseline_read_cancellable,
                                     baseline_read_done_cb, request);
}

void
_tprof_window_update_charts (TprofWindow *self)
{
  gssize op = self->profile != NULL ? _tprof_operation_table_get_selected_index (self->table) : -1;
  g_autoptr(TprofOperationSamples) samples = NULL;

  tprof_window_update_baseline (self, op);
  if (op < 0)
    {
      _tprof_window_cancel_reading (self);
      _tprof_charts_panel_set_source (self->charts, self->profile, -1, NULL, self->mask);
      return;
    }
  samples = _tprof_profile_ref_samples (self->profile, (gsize) op);
  if (samples != NULL)
    _tprof_window_cancel_reading (self);
  _tprof_charts_panel_set_source (self->charts, self->profile, op, samples, self->mask);
  /* a new selection, not a new filter on the one being read */
  if (samples == NULL && self->reading_op != op)
    tprof_window_read (self, (gsize) op);
}

gboolean
_tprof_window_tick_reading (TprofWindow *self)
{
  if (self->reading_op < 0 || self->profile == NULL)
    return FALSE;
  _tprof_charts_panel_set_reading_progress (self->charts, _tprof_profile_get_read_progress (self->profile));
  return TRUE;
}

static void
cancel_reading_cb (TprofWindow      *self,
                   TprofChartsPanel *charts)
{
  _tprof_window_cancel_reading (self);
  /* the read ends soon; say so now */
  if (self->profile != NULL)
    {
      gssize op = _tprof_operation_table_get_selected_index (self->table);
      g_autofree char *name = op >= 0 ? tprof_escape_text (_tprof_profile_get_name (self->profile, (gsize) op)) : NULL;
      g_autofree char *text = g_strdup_printf (_("Reading the samples of %s was cancelled."), name != NULL ? name : "");

      _tprof_charts_panel_show_unread (self->charts, text);
    }
}

static void
read_again_cb (TprofWindow      *self,
               TprofChartsPanel *charts)
{
  gssize op = self->profile != NULL ? _tprof_operation_table_get_selected_index (self->table) : -1;

  if (op >= 0)
    tprof_window_read (self, (gsize) op);
}

void
_tprof_window_connect_reading (TprofWindow *self)
{
  g_signal_connect_object (self->charts, "cancel-reading", G_CALLBACK (cancel_reading_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->charts, "read-again", G_CALLBACK (read_again_cb), self, G_CONNECT_SWAPPED);
}
