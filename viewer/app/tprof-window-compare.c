/* tprof-window-compare.c — TprofWindow: baseline runs beside the profile: loading them, matching operations by name, testing each change, and the charts' second run. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tprof-operation.h"
#include "tprof-window-private.h"

/* Baselines after the first (a GPtrArray of TprofProfile, as window data):
 * their runs' medians join the first's in the verdict's test. */
#define EXTRA_BASELINES "tprof-extra-baselines"

/* What the table's worker needs to compare, taken on the main thread. */
struct _WindowComparison
{
  TprofProfile           *baseline;
  gsize                   n_ops;
  gssize                 *base_ops;      /* per operation: the baseline's, -1: none */
  TprofOperationSamples **base_samples;  /* per operation, NULL where not in memory */
  gboolean                same_world;    /* the rank filter applies to the baseline too */
  guint                   n_extra;       /* baselines after the first */
  double                 *extra_medians; /* n_ops x n_extra: their cached medians of all ranks, NaN: none */
  TprofComparison        *out;
  gboolean               *tested;
};

static GPtrArray *
extra_baselines (TprofWindow *self)
{
  return g_object_get_data (G_OBJECT (self), EXTRA_BASELINES);
}

char *
_tprof_window_baseline_names (TprofWindow *self,
                              guint       *n)
{
  GPtrArray *extras = extra_baselines (self);
  GString *names = g_string_new (NULL);

  *n = 1 + (extras != NULL ? extras->len : 0);
  for (guint i = 0; i < *n; i++)
    {
      TprofProfile *baseline = i == 0 ? self->baseline : g_ptr_array_index (extras, i - 1);
      g_autofree char *name = g_file_get_basename (_tprof_profile_get_file (baseline));

      g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", name);
    }
  return g_string_free (names, FALSE);
}

/* The cached median of all ranks of each extra baseline's operation of
 * the same name as the profile's operation @i. */
static void
take_extra_medians (WindowComparison *c,
                    TprofWindow      *self,
                    GPtrArray        *extras)
{
  c->n_extra = extras != NULL ? extras->len : 0;
  c->extra_medians = g_new (double, MAX (c->n_ops * c->n_extra, 1));
  for (guint e = 0; e < c->n_extra; e++)
    {
      TprofProfile *extra = g_ptr_array_index (extras, e);
      g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);

      for (gsize j = 0; j < _tprof_profile_get_n_operations (extra); j++)
        g_hash_table_insert (by_name, (gpointer) _tprof_profile_get_name (extra, j), GSIZE_TO_POINTER (j + 1));
      for (gsize i = 0; i < c->n_ops; i++)
        {
          gsize j = GPOINTER_TO_SIZE (g_hash_table_lookup (by_name, _tprof_profile_get_name (self->profile, i)));

          c->extra_medians[i * c->n_extra + e] = j > 0 ? _tprof_profile_get_summary (extra, j - 1)->median : NAN;
        }
    }
}

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
  take_extra_medians (c, self, extra_baselines (self));
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
  g_free (c->extra_medians);
  g_object_unref (c->baseline);
  g_free (c);
}

/* The heat map's durations of the ranks of @mask (NULL: all) as a
 * selection, each rank's in occurrence order: with at most
 * TPROF_PROFILE_HEAT_COLUMNS occurrences, every occurrence's duration. */
static TprofGatheredTime *
heat_selection (const TprofProfileHeat *heat,
                const guint8           *mask)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (guint row = 0; row < heat->n_rows; row++)
    {
      gint32 rank = heat->first_rank + (gint32) row;

      if (mask != NULL && !mask[rank])
        continue;
      for (guint col = 0; col < heat->n_cols; col++)
        {
          double v = heat->cells[(gsize) row * heat->n_cols + col];

          if (!isnan (v))
            {
              g_array_append_val (times, v);
              g_array_append_val (ranks, rank);
            }
        }
    }
  return tprof_gathered_time_new ((const double *) times->data, (const int32_t *) ranks->data, times->len);
}

/* The verdict's test with one baseline: blocks of occurrences, from the
 * heat maps, whose columns are occurrences themselves up to
 * TPROF_PROFILE_HEAT_COLUMNS, or the largest of equally many occurrences
 * on both sides. FALSE when it cannot be made. */
static gboolean
test_blocks (const TprofOperationSamples *samples,
             const TprofOperationSamples *base,
             const guint8                *mask,
             const guint8                *base_mask,
             TprofComparison             *out)
{
  const TprofProfileHeat *heat = _tprof_operation_samples_get_heat (samples);
  const TprofProfileHeat *base_heat = _tprof_operation_samples_get_heat (base);
  TprofGatheredTime *a, *b;
  gboolean ok;

  if (heat == NULL || base_heat == NULL || heat->n_cols == 0 || base_heat->n_cols == 0
      || (heat->n_occurrences != base_heat->n_occurrences
          && MAX (heat->n_occurrences, base_heat->n_occurrences) > TPROF_PROFILE_HEAT_COLUMNS))
    return FALSE;
  a = heat_selection (base_heat, base_mask);
  b = heat_selection (heat, mask);
  ok = a != NULL && b != NULL && tprof_compare_blocks (a, b, out) && out->verdict_test != TPROF_VERDICT_TEST_NONE;
  tprof_gathered_time_free (a);
  tprof_gathered_time_free (b);
  return ok;
}

/* The verdict's test with several baselines: each run's median of all
 * ranks (the extra baselines' cached ones); FALSE under a rank filter. */
static gboolean
test_runs (const WindowComparison *c,
           gsize                   op,
           const guint8           *mask,
           TprofComparison        *out)
{
  g_autofree double *base = g_new (double, c->n_extra + 1);
  guint n = 0;

  if (mask != NULL)
    return FALSE;
  base[n++] = out->base_median;
  for (guint e = 0; e < c->n_extra; e++)
    if (!isnan (c->extra_medians[op * c->n_extra + e]))
      base[n++] = c->extra_medians[op * c->n_extra + e];
  tprof_compare_run_medians (base, n, &out->new_median, 1, NULL, out);
  return out->verdict_test != TPROF_VERDICT_TEST_NONE;
}

/* One operation with both runs' samples at hand: the per-sample figures,
 * then the verdict's test; FALSE when it could not be made. */
static gboolean
compare_samples (const WindowComparison      *c,
                 gsize                        op,
                 const TprofOperationSamples *samples,
                 const guint8                *mask,
                 const guint8                *base_mask,
                 TprofComparison             *out)
{
  const TprofOperationSamples *base = c->base_samples[op];
  size_t n = 0, n_base = 0;
  g_autofree double *values = tprof_operation_index_values (_tprof_operation_samples_get_index (samples), mask, &n);
  g_autofree double *base_values = tprof_operation_index_values (_tprof_operation_samples_get_index (base),
                                                                 base_mask, &n_base);

  /* index values are each rank's ascending: their order says nothing of
   * time, so the verdict's test is made apart */
  if (values == NULL || base_values == NULL || !tprof_compare_samples (base_values, n_base, values, n, out))
    return FALSE;
  if (n == 0 || n_base == 0)
    return TRUE;
  return c->n_extra > 0 ? test_runs (c, op, mask, out) : test_blocks (samples, base, mask, base_mask, out);
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
        c->tested[i] = compare_samples (c, i, samples[i], mask, base_mask, out);
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

static void
close_profile (gpointer profile)
{
  _tprof_profile_close (profile);
  g_object_unref (profile);
}

/* An extra baseline being loaded, for the comparison started with
 * @cancellable (a later one makes it stale). */
typedef struct
{
  TprofWindow  *window;
  GCancellable *cancellable;
} ExtraLoad;

static void
extra_loaded_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  ExtraLoad *load = user_data;
  TprofWindow *self = load->window;
  TprofProfile *extra = TPROF_PROFILE (object);
  g_autoptr(GError) error = NULL;
  gboolean current = load->cancellable == self->baseline_cancellable;

  self->extras_loading--;
  if (!_tprof_profile_load_finish (extra, result, &error))
    {
      if (current && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *name = g_file_get_basename (_tprof_profile_get_file (extra));
          /* Translators: the first %s is a file name, the second says what is wrong with it */
          g_autofree char *message = g_strdup_printf (_("Could not compare with %s: %s"), name, error->message);

          _tprof_window_show_error (self, message);
        }
      g_object_unref (extra);
    }
  else if (current && extra_baselines (self) != NULL)
    {
      g_ptr_array_add (extra_baselines (self), extra);
      _tprof_window_comparison_changed (self);
    }
  else
    close_profile (extra);
  g_object_unref (load->window);
  g_object_unref (load->cancellable);
  g_free (load);
}

void
_tprof_window_compare_with_runs (TprofWindow *self,
                                 GListModel  *files)
{
  guint n = g_list_model_get_n_items (files);

  g_return_if_fail (TPROF_IS_WINDOW (self));
  if (n == 0)
    return;
  {
    g_autoptr(GFile) first = g_list_model_get_item (files, 0);

    _tprof_window_compare_with (self, first);
  }
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      ExtraLoad *load = g_new (ExtraLoad, 1);

      load->window = g_object_ref (self);
      load->cancellable = g_object_ref (self->baseline_cancellable);
      /* the window is busy until every baseline has its say */
      self->extras_loading++;
      _tprof_profile_load_async (_tprof_profile_new (file), self->baseline_cancellable, extra_loaded_cb, load);
    }
}

void
_tprof_window_compare_with (TprofWindow *self,
                            GFile       *file)
{
  g_return_if_fail (TPROF_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_object_set_data_full (G_OBJECT (self), EXTRA_BASELINES, g_ptr_array_new_with_free_func (close_profile),
                          (GDestroyNotify) g_ptr_array_unref);
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
  g_object_set_data (G_OBJECT (self), EXTRA_BASELINES, NULL);
  _tprof_window_cancel_baseline_reading (self);
  if (self->baseline != NULL)
    _tprof_profile_close (self->baseline);
  g_clear_object (&self->baseline);
  _tprof_window_comparison_changed (self);
}
