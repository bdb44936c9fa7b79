/* tprof-window-actions.c — TprofWindow's actions: open, compare, export chart and table, find, close. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "tprof-window-private.h"

typedef struct
{
  int width;
  int height;
} ExportSize;

static const ExportSize export_sizes[] = {
  { 800, 500 },
  { 1200, 750 },
  { 1600, 1000 },
  { 2400, 1500 },
};

static void
draw_chart_cb (cairo_t  *cr,
               double    width,
               double    height,
               gpointer  user_data)
{
  _tprof_chart_draw (user_data, cr, width, height, NULL);
}

gboolean
_tprof_window_export_chart (TprofWindow  *self,
                            const char   *path,
                            const char   *chart,
                            int           width,
                            int           height,
                            GError      **error)
{
  gboolean ranks = g_strcmp0 (chart, "ranks") == 0;
  TprofHistogramView *histogram = _tprof_charts_panel_get_histogram (self->charts);
  TprofChart *shown = ranks ? _tprof_charts_panel_get_right_chart (self->charts) : TPROF_CHART (histogram);

  g_return_val_if_fail (TPROF_IS_WINDOW (self), FALSE);

  if (_tprof_operation_table_get_selected_index (self->table) < 0)
    {
      g_set_error_literal (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_EMPTY,
                           _("Select an operation to export its chart"));
      return FALSE;
    }
  /* the numbers, as tprof hist and tprof plot --kind heatmap|trend|breakdown write them */
  if (tprof_plot_format_from_path (path) == TPROF_PLOT_FORMAT_CSV && TPROF_CHART_GET_CLASS (shown)->to_csv != NULL)
    {
      g_autofree char *csv = _tprof_chart_to_csv (shown, error);

      return csv != NULL && g_file_set_contents (path, csv, -1, error);
    }

  /* "ranks": the right-hand chart, as shown: per-rank bars, over time, the trend or the breakdown */
  return tprof_plot_export (path, width, height, draw_chart_cb, shown, error);
}

gboolean
_tprof_window_export_table (TprofWindow  *self,
                            const char   *path,
                            GError      **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TPROF_IS_WINDOW (self), FALSE);

  csv = _tprof_operation_table_to_csv (self->table);
  return g_file_set_contents (path, csv, -1, error);
}

static void
tprof_window_report_export_error (TprofWindow *self,
                                  const char  *path,
                                  GError      *error)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *message = NULL;

  /* Translators: the first %s is a file name, the second the reason */
  message = g_strdup_printf (_("Could not export to %s: %s"), name, error->message);
  _tprof_window_show_error (self, message);
}

/* The next export dialog opens where the last export went. */
static void
remember_export_folder (TprofWindow *self,
                        const char  *path)
{
  g_autofree char *folder = g_path_get_dirname (path);

  g_settings_set_string (self->settings, "export-folder", folder);
}

static void
open_in_export_folder (TprofWindow    *self,
                       GtkFileChooser *chooser)
{
  g_autofree char *folder = g_settings_get_string (self->settings, "export-folder");

  if (folder[0] != '\0' && g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GFile) file = g_file_new_for_path (folder);

      gtk_file_chooser_set_current_folder (chooser, file, NULL);
    }
}

char *
_tprof_window_export_file_name (TprofWindow *self,
                                const char  *what,
                                const char  *suffix)
{
  int op = _tprof_operation_table_get_selected_index (self->table);
  const char *name = op >= 0 && self->profile != NULL ? _tprof_profile_get_name (self->profile, (gsize) op) : NULL;
  GString *base = g_string_new (NULL);

  /* the operation's name as a file name: letters, digits, '.', '_' and '-' */
  for (const char *p = name; p != NULL && *p != '\0' && base->len < 64; p++)
    {
      gboolean plain = g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '-';

      if (plain && !(base->len == 0 && *p == '.'))
        g_string_append_c (base, *p);
      else if (base->len > 0 && base->str[base->len - 1] != '-')
        g_string_append_c (base, '-');
    }
  while (base->len > 0 && base->str[base->len - 1] == '-')
    g_string_truncate (base, base->len - 1);
  if (base->len > 0)
    g_string_append_c (base, '-');
  g_string_append_printf (base, "%s.%s", what, suffix);
  return g_string_free (base, FALSE);
}

gboolean
_tprof_window_save_chart (TprofWindow *self,
                          const char  *path,
                          const char  *chart,
                          int          width,
                          int          height)
{
  g_autoptr(GError) error = NULL;

  if (_tprof_window_export_chart (self, path, chart, width, height, &error))
    {
      remember_export_folder (self, path);
      return TRUE;
    }
  tprof_window_report_export_error (self, path, error);
  return FALSE;
}

gboolean
_tprof_window_save_table (TprofWindow *self,
                          const char  *path)
{
  g_autoptr(GError) error = NULL;

  if (_tprof_window_export_table (self, path, &error))
    {
      remember_export_folder (self, path);
      return TRUE;
    }
  tprof_window_report_export_error (self, path, error);
  return FALSE;
}

/* @patterns is NULL-terminated. */
static void
add_filter (GtkFileChooser     *chooser,
            const char         *name,
            const char * const *patterns)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

void
_tprof_window_open_files (TprofWindow  *self,
                          GFile       **files,
                          guint         n_files)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(GList) before = NULL;
  guint first = 0;

  if (n_files > 0 && _tprof_window_is_empty (self))
    {
      _tprof_window_open (self, files[0]);
      first = 1;
    }
  if (first == n_files || app == NULL)
    return;
  before = g_list_copy (gtk_application_get_windows (app));
  g_application_open (G_APPLICATION (app), files + first, (int) (n_files - first), "");
  /* the windows made for them report a failure here, and go */
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (TPROF_IS_WINDOW (l->data) && g_list_find (before, l->data) == NULL)
      g_weak_ref_set (&TPROF_WINDOW (l->data)->opener, self);
}

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  TprofWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      guint n = g_list_model_get_n_items (files);
      g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (all, g_list_model_get_item (files, i));
      _tprof_window_open_files (self, (GFile **) all->pdata, all->len);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  TprofWindow *self = TPROF_WINDOW (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open Profile"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
  add_filter (GTK_FILE_CHOOSER (dialog), _("HDF5 profiles"), (const char * const[]) { "*.h5", "*.hdf5", NULL });
  add_filter (GTK_FILE_CHOOSER (dialog), _("All files"), (const char * const[]) { "*", NULL });

  g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
compare_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     TprofWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        _tprof_window_compare_with (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/* Compare With…: a baseline run beside the profile shown. */
static void
compare_with_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  TprofWindow *self = TPROF_WINDOW (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Compare With Baseline"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  add_filter (GTK_FILE_CHOOSER (dialog), _("HDF5 profiles"), (const char * const[]) { "*.h5", "*.hdf5", NULL });
  add_filter (GTK_FILE_CHOOSER (dialog), _("All files"), (const char * const[]) { "*", NULL });
  g_signal_connect (dialog, "response", G_CALLBACK (compare_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
stop_comparing_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  _tprof_window_stop_comparing (TPROF_WINDOW (widget));
}

static char *
export_size_id (int width,
                int height)
{
  return g_strdup_printf ("%dx%d", width, height);
}

static void
export_chart_response_cb (GtkNativeDialog *dialog,
                          int              response,
                          TprofWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      const char *chart = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "chart");
      const char *size = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "size");
      int width = g_settings_get_int (self->settings, "export-width");
      int height = g_settings_get_int (self->settings, "export-height");
      g_autoptr(GError) error = NULL;

      if (size != NULL && sscanf (size, "%dx%d", &width, &height) == 2)
        {
          g_settings_set_int (self->settings, "export-width", width);
          g_settings_set_int (self->settings, "export-height", height);
        }

      /* no known suffix: PNG, the format most people want */
      if (path != NULL && tprof_plot_format_from_path (path) == TPROF_PLOT_FORMAT_UNKNOWN)
        {
          char *png = g_strconcat (path, ".png", NULL);

          g_free (path);
          path = png;
        }

      if (path == NULL)
        {
          g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("not a local file"));
          tprof_window_report_export_error (self, "?", error);
        }
      else
        _tprof_window_save_chart (self, path, chart, width, height);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  TprofWindow *self = TPROF_WINDOW (widget);
  GtkFileChooserNative *dialog;
  GtkFileChooser *chooser;
  const char *chart_ids[] = { "histogram", "ranks", NULL };
  const char *chart_labels[] = { _("Histogram"), _("Time per rank"), NULL };
  const char *size_ids[G_N_ELEMENTS (export_sizes) + 2] = { NULL };
  const char *size_labels[G_N_ELEMENTS (export_sizes) + 2] = { NULL };
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *current = export_size_id (g_settings_get_int (self->settings, "export-width"),
                                             g_settings_get_int (self->settings, "export-height"));
  guint n_sizes = 0;
  gboolean have_current = FALSE;

  dialog = gtk_file_chooser_native_new (_("Export Chart"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (dialog);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  {
    g_autofree char *name = _tprof_window_export_file_name (self, "histogram", "png");

    open_in_export_folder (self, chooser);
    gtk_file_chooser_set_current_name (chooser, name);
  }
  add_filter (chooser, _("PNG, SVG or PDF images"), (const char * const[]) { "*.png", "*.svg", "*.pdf", NULL });
  gtk_file_chooser_add_choice (chooser, "chart", _("Chart"), chart_ids, chart_labels);
  gtk_file_chooser_set_choice (chooser, "chart", "histogram");

  for (guint i = 0; i < G_N_ELEMENTS (export_sizes); i++)
    {
      char *id = export_size_id (export_sizes[i].width, export_sizes[i].height);
      char *label = g_strdup_printf ("%d × %d", export_sizes[i].width, export_sizes[i].height);

      have_current |= g_str_equal (id, current);
      g_ptr_array_add (strings, id);
      g_ptr_array_add (strings, label);
      size_ids[n_sizes] = id;
      size_labels[n_sizes++] = label;
    }
  if (!have_current)
    {
      size_ids[n_sizes] = current;
      size_labels[n_sizes++] = current;
    }
  gtk_file_chooser_add_choice (chooser, "size", _("Size in pixels"), size_ids, size_labels);
  gtk_file_chooser_set_choice (chooser, "size", current);

  g_signal_connect (dialog, "response", G_CALLBACK (export_chart_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_table_response_cb (GtkNativeDialog *dialog,
                          int              response,
                          TprofWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        {
          g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("not a local file"));
          tprof_window_report_export_error (self, "?", error);
        }
      else
        _tprof_window_save_table (self, path);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_table_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  TprofWindow *self = TPROF_WINDOW (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Export Table as CSV"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  open_in_export_folder (self, GTK_FILE_CHOOSER (dialog));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "operations.csv");
  add_filter (GTK_FILE_CHOOSER (dialog), _("CSV files"), (const char * const[]) { "*.csv", NULL });

  g_signal_connect (dialog, "response", G_CALLBACK (export_table_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  _tprof_operation_table_focus_search (TPROF_WINDOW (widget)->table);
}

static void
filter_ranks_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  _tprof_rank_filter_focus_entry (TPROF_WINDOW (widget)->rank_filter);
}

static void
all_ranks_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  _tprof_rank_filter_select_all (TPROF_WINDOW (widget)->rank_filter);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
dismiss_error_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  _tprof_window_hide_error (TPROF_WINDOW (widget));
}

void
_tprof_window_update_actions (TprofWindow *self)
{
  gboolean have_profile = self->profile != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-chart", have_profile);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-table", have_profile);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.find", have_profile);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.filter-ranks", have_profile);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.all-ranks", have_profile);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-with", have_profile);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-comparing",
                                 self->baseline != NULL || self->baseline_loading != NULL);
}

void
_tprof_window_class_add_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.export-chart", NULL, export_chart_action);
  gtk_widget_class_install_action (widget_class, "win.export-table", NULL, export_table_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.filter-ranks", NULL, filter_ranks_action);
  gtk_widget_class_install_action (widget_class, "win.all-ranks", NULL, all_ranks_action);
  gtk_widget_class_install_action (widget_class, "win.compare-with", NULL, compare_with_action);
  gtk_widget_class_install_action (widget_class, "win.stop-comparing", NULL, stop_comparing_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-error", NULL, dismiss_error_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.compare-with", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-chart", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_E, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-table", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.filter-ranks", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_A, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.all-ranks", NULL);
}
