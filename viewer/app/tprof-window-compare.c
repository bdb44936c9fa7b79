/* tprof-window-compare.c — TprofWindow: a baseline run beside the profile: loading it, matching operations by name, testing each change, and the charts' second run. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tprof-operation.h"
#include "tprof-window-private.h"

/* What the table's worker needs to compare, taken on the main thread. */
struct _WindowComparison
{
  TprofProfile           *baseline;
  gsize                   n_ops;
  gssize                 *base_ops;      /* per operation: the baseline's, -1: none */
  TprofOperationSamples **base_samples;  /* per operation, NULL where not in memory */
  gboolean                same_world;    /* the rank filter applies to the baseline too */
  TprofComparison        *out;
  gboolean               *tested;
};

WindowComparison *
_tprof_window_comparison_new (TprofWindow *self)
{
  WindowComparison *c;

  if (self->baseline == NULL || self->profile == NULL || self->baseline_ops == NULL)
    return NULL;
  c = g_new0 (WindowComparison, 1);
  c->baseline = g_object_ref (self->baseline);
  c->n_ops = _tprof_profile_get_n_operations (self->profile);
  c->base_ops = g_memdup2 (self->baseline_ops, MAX (c->n_ops, 1) * sizeof *c->base_ops);
  c->base_samples = g_new0 (TprofOperationSamples *, MAX (c->n_ops, 1));
  for (gsize i = 0; i < c->n_ops; i++)
    if (c->base_ops[i] >= 0)
      c->base_samples[i] = _tprof_profile_ref_samples (self->baseline, (gsize) c->base_ops[i]);
  c->same_world = _tprof_profile_get_world_size (self->baseline) == _tprof_profile_get_world_size (self->profile);
  c->out = g_new0 (TprofComparison, MAX (c->n_ops, 1));
  c->tested = g_new0 (gboolean, MAX (c->n_ops, 1));
  return c;
}

void
_tprof_window_comparison_free (WindowComparison *c)
{
  if (c == NULL)
    return;
  for (gsize i = 0; i < c->n_ops; i++)
    _tprof_operation_samples_unref (c->base_samples[i]);
  g_free (c->base_samples);
  g_free (c->base_ops);
  g_free (c->out);
  g_free (c->tested);
  g_object_unref (c->baseline);
  g_free (c);
}

/* One operation with both runs' samples at hand: the test itself. */
static gboolean
compare_samples (const TprofOperationSamples *samples,
                 const TprofOperationSamples *base,
                 const guint8                *mask,
                 const guint8                *base_mask,
                 TprofComparison             *out)
{
  size_t n = 0, n_base = 0;
  g_autofree double *values = tprof_operation_index_values (_tprof_operation_samples_get_index (samples), mask, &n);
  g_autofree double *base_values = tprof_operation_index_values (_tprof_operation_samples_get_index (base),
                                                                 base_mask, &n_base);

  return values != NULL && base_values != NULL && tprof_compare_samples (base_values, n_base, values, n, out);
}

void
_tprof_window_comparison_run (WindowComparison            *c,
                              TprofProfile                *profile,
                              TprofOperationSamples *const *samples,
                              const guint8                *mask)
{
  const guint8 *base_mask = c->same_world ? mask : NULL;

  for (gsize i = 0; i < c->n_ops; i++)
    {
      TprofComparison *out = &c->out[i];
      const TprofSummary *summary = _tprof_profile_get_summary (profile, i);

      *out = (TprofComparison) {
        .base_median = NAN, .new_median = summary->median, .ratio = NAN, .ci_low = NAN, .ci_high = NAN,
        .p_value = NAN, .p_adjusted = NAN, .verdict = TPROF_VERDICT_SAME, .new_count = summary->count,
      };
      if (c->base_ops[i] < 0)
        {
          /* an operation the baseline does not have */
          out->verdict = TPROF_VERDICT_ONLY_NEW;
          c->tested[i] = TRUE;
        }
      else if (samples[i] != NULL && c->base_samples[i] != NULL)
        c->tested[i] = compare_samples (samples[i], c->base_samples[i], mask, base_mask, out);
      else
        {
          /* the samples of one side are not read: the cached medians of all
           * ranks say how it changed, and nothing is tested */
          const TprofSummary *base = _tprof_profile_get_summary (c->baseline, (gsize) c->base_ops[i]);

          out->base_median = base->median;
          out->base_count = base->count;
          if (mask == NULL)
            out->ratio = summary->median / base->median;
          else
            out->new_median = NAN;
        }
    }
  /* Holm over the operations tested together; the others keep their
   * own verdicts (not in baseline) or none */
  {
    g_autofree TprofComparison *tested = g_new (TprofComparison, MAX (c->n_ops, 1));
    gsize n = 0;

    for (gsize i = 0; i < c->n_ops; i++)
      if (c->tested[i] && c->base_ops[i] >= 0)
        tested[n++] = c->out[i];
    tprof_compare_decide (tested, n, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE);
    for (gsize i = 0, k = 0; i < c->n_ops; i++)
      if (c->tested[i] && c->base_ops[i] >= 0)
        c->out[i] = tested[k++];
  }
}

void
_tprof_window_comparison_apply (WindowComparison *c,
                                GPtrArray        *operations)
{
  for (guint i = 0; i < operations->len; i++)
    {
      TprofOperation *operation = g_ptr_array_index (operations, i);
      guint op = _tprof_operation_get_index (operation);

      if (c != NULL && op < c->n_ops)
        _tprof_operation_set_comparison (operation, &c->out[op], c->tested[op]);
    }
}

TprofProfile *
_tprof_window_get_baseline (TprofWindow *self)
{
  g_return_val_if_fail (TPROF_IS_WINDOW (self), NULL);
  return self->baseline;
}

/* The baseline's operation of each of the profile's, by name. */
static void
match_operations (TprofWindow *self)
{
  gsize n = self->profile != NULL ? _tprof_profile_get_n_operations (self->profile) : 0;
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);

  g_clear_pointer (&self->baseline_ops, g_free);
  if (self->baseline == NULL)
    return;
  for (gsize j = 0; j < _tprof_profile_get_n_operations (self->baseline); j++)
    g_hash_table_insert (by_name, (gpointer) _tprof_profile_get_name (self->baseline, j), GSIZE_TO_POINTER (j + 1));
  self->baseline_ops = g_new (gssize, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    self->baseline_ops[i] = (gssize) GPOINTER_TO_SIZE (g_hash_table_lookup (by_name,
                                                                            _tprof_profile_get_name (self->profile, i))) - 1;
}

/* After the profile or its baseline changed. */
void
_tprof_window_comparison_changed (TprofWindow *self)
{
  match_operations (self);
  _tprof_operation_table_set_comparing (self->table, self->baseline != NULL && self->profile != NULL);
  if (self->profile == NULL)
    return;
  _tprof_window_show_title (self);
  _tprof_window_update_table (self);
  _tprof_window_update_charts (self);
  _tprof_window_update_actions (self);
}

static void
baseline_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TprofWindow) self = user_data;
  TprofProfile *baseline = TPROF_PROFILE (object);
  g_autoptr(GError) error = NULL;

  if (!_tprof_profile_load_finish (baseline, result, &error))
    {
      g_autofree char *name = NULL;
      g_autofree char *message = NULL;

      if (baseline != self->baseline_loading || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_clear_object (&self->baseline_loading);
      name = g_file_get_basename (_tprof_profile_get_file (baseline));
      /* Translators: the first %s is a file name, the second says what is wrong with it */
      message = g_strdup_printf (_("Could not compare with %s: %s"), name, error->message);
      _tprof_window_show_error (self, message);
      _tprof_window_update_actions (self);
      return;
    }
  if (baseline != self->baseline_loading)
    return;
  g_clear_object (&self->baseline_loading);
  if (self->baseline != NULL)
    _tprof_profile_close (self->baseline);
  g_set_object (&self->baseline, baseline);
  _tprof_window_hide_error (self);
  _tprof_window_comparison_changed (self);
}

void
_tprof_window_compare_with (TprofWindow *self,
                            GFile       *file)
{
  g_return_if_fail (TPROF_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_cancellable_cancel (self->baseline_cancellable);
  g_clear_object (&self->baseline_cancellable);
  self->baseline_cancellable = g_cancellable_new ();
  g_clear_object (&self->baseline_loading);
  self->baseline_loading = _tprof_profile_new (file);
  _tprof_profile_load_async (self->baseline_loading, self->baseline_cancellable, baseline_loaded_cb,
                             g_object_ref (self));
  _tprof_window_update_actions (self);
}

void
_tprof_window_stop_comparing (TprofWindow *self)
{
  g_return_if_fail (TPROF_IS_WINDOW (self));

  g_cancellable_cancel (self->baseline_cancellable);
  g_clear_object (&self->baseline_cancellable);
  g_clear_object (&self->baseline_loading);
  _tprof_window_cancel_baseline_reading (self);
  if (self->baseline != NULL)
    _tprof_profile_close (self->baseline);
  g_clear_object (&self->baseline);
  _tprof_window_comparison_changed (self);
}
