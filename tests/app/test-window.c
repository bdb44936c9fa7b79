/* test-window.c — tprof-viewer's window under Xvfb: table, sorting, search, charts, rank filter, export, bad files. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <tprof/capture.h>

#include "app-test-gui.h"
#include "app-test-util.h"
#include "tprof-operation.h"

static TprofApplication *app;
static char *fixture_dir;
static char *fixture_path;

/* Number of windows the application holds. */
static guint
n_windows (void)
{
  return g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
}

static TprofWindow *
open_fixture (void)
{
  TprofWindow *window = app_test_gui_new_window (app);

  app_test_gui_open (window, fixture_path);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_null (_tprof_window_get_error (window));
  return window;
}

static void
close_window (TprofWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static TprofOperation *
find_row (TprofWindow *window,
          const char  *name,
          guint       *position)
{
  GListModel *model = _tprof_operation_table_get_model (window->table);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) op = g_list_model_get_item (model, i);

      if (g_str_equal (_tprof_operation_get_name (op), name))
        {
          if (position != NULL)
            *position = i;
          return op;
        }
    }
  return NULL;
}

static void
assert_row_matches_numpy (TprofWindow *window,
                          const char  *name,
                          const char  *ranks)
{
  TprofOperation *op = find_row (window, name, NULL);
  g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "summary", name, ranks, NULL, NULL);
  GArray *want = app_test_reference_get (reference, "summary");
  const TprofSummary *s;
  g_autofree char *mean_cell = NULL;
  g_autofree char *mean_text = NULL;
  guint64 count;
  double mean;

  g_assert_nonnull (op);
  s = _tprof_operation_get_summary (op);

  /* the properties the sorters read are the numbers numpy gives */
  g_object_get (op, "count", &count, "mean", &mean, NULL);
  g_assert_cmpuint (count, ==, (guint64) g_array_index (want, double, 0));
  app_test_assert_close (mean, g_array_index (want, double, 2), 1e-9, name);
  app_test_assert_close (s->sum, g_array_index (want, double, 1), 1e-9, name);
  app_test_assert_close (s->std, g_array_index (want, double, 3), 1e-9, name);
  app_test_assert_close (s->min, g_array_index (want, double, 4), 0.0, name);
  app_test_assert_close (s->max, g_array_index (want, double, 5), 0.0, name);
  app_test_assert_close (s->median, g_array_index (want, double, 6), 1e-9, name);
  app_test_assert_close (s->p95, g_array_index (want, double, 7), 1e-9, name);
  g_assert_cmpuint (s->rank_count, ==, (gsize) g_array_index (want, double, 9));
  app_test_assert_close (s->imbalance, g_array_index (want, double, 10), 1e-9, name);
  g_assert_cmpint (s->slowest_rank, ==, (int) g_array_index (want, double, 11));

  /* and the cell shows them in human units */
  mean_cell = _tprof_operation_table_format_cell ("mean", op);
  mean_text = tprof_format_duration (g_array_index (want, double, 2), 3);
  g_assert_cmpstr (mean_cell, ==, mean_text);
}

static void
test_window_table (void)
{
  TprofWindow *window = open_fixture ();
  GListModel *model = _tprof_operation_table_get_model (window->table);
  static const char * const names[] = { "forward", "allreduce", "io/checkpoint", "empty", "constant", "zeros", "big" };
  g_autoptr(TprofOperation) first = NULL;
  g_autofree char *title = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, APP_TEST_BASIC_N_OPS);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    assert_row_matches_numpy (window, names[i], "all");

  /* a fresh profile is sorted by total time, largest first, and selects that row */
  first = g_list_model_get_item (model, 0);
  g_assert_cmpstr (_tprof_operation_get_name (first), ==, "big");
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 6);

  g_object_get (window, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "basic.h5");

  close_window (window);
}

/* Each column's header says what the column means. */
static void
test_window_header_tooltips (void)
{
  TprofWindow *window = open_fixture ();

  g_assert_cmpstr (_tprof_operation_table_get_header_tooltip (window->table, "imbalance-time"), ==,
                   "The slowest rank's total minus the mean rank total: how long the other ranks wait for it, "
                   "on average");
  g_assert_nonnull (_tprof_operation_table_get_header_tooltip (window->table, "p99"));
  g_assert_nonnull (_tprof_operation_table_get_header_tooltip (window->table, "verdict"));
  close_window (window);
}

static void
assert_sorted (TprofWindow *window,
               const char  *property,
               gboolean     ascending)
{
  GListModel *model = _tprof_operation_table_get_model (window->table);
  double previous = ascending ? -INFINITY : INFINITY;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) op = g_list_model_get_item (model, i);
      double value;

      g_object_get (op, property, &value, NULL);
      if (isnan (value))
        continue;
      if (ascending)
        g_assert_cmpfloat (value, >=, previous);
      else
        g_assert_cmpfloat (value, <=, previous);
      previous = value;
    }
}

/* The first widget of @type below @widget, depth first. */
static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_window_sort (void)
{
  TprofWindow *window = open_fixture ();
  GListModel *model = _tprof_operation_table_get_model (window->table);
  g_autoptr(TprofOperation) first = NULL;
  g_autoptr(TprofOperation) last = NULL;

  /* a profile opens sorted by the time lost to imbalance, on its first row */
  assert_sorted (window, "imbalance-time", FALSE);
  first = g_list_model_get_item (model, 0);
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==,
                   (int) _tprof_operation_get_index (first));
  g_clear_object (&first);

  g_assert_true (_tprof_operation_table_sort_by (window->table, "mean", GTK_SORT_ASCENDING));
  assert_sorted (window, "mean", TRUE);
  g_assert_true (_tprof_operation_table_sort_by (window->table, "max", GTK_SORT_DESCENDING));
  assert_sorted (window, "max", FALSE);
  first = g_list_model_get_item (model, 0);
  g_assert_cmpstr (_tprof_operation_get_name (first), ==, "io/checkpoint");

  g_assert_true (_tprof_operation_table_sort_by (window->table, "name", GTK_SORT_ASCENDING));
  g_clear_object (&first);
  first = g_list_model_get_item (model, 0);
  last = g_list_model_get_item (model, g_list_model_get_n_items (model) - 1);
  g_assert_cmpstr (_tprof_operation_get_name (first), ==, "allreduce");
  g_assert_cmpstr (_tprof_operation_get_name (last), ==, "zeros");

  g_assert_false (_tprof_operation_table_sort_by (window->table, "no-such-column", GTK_SORT_ASCENDING));

  /* the first click on a numeric header (the column view's "ascending")
   * puts the largest values first */
  {
    GtkColumnView *view = GTK_COLUMN_VIEW (_tprof_operation_table_get_stats_view (window->table));
    GListModel *columns;

    g_assert_nonnull (view);
    columns = gtk_column_view_get_columns (view);
    for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
      {
        g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

        if (g_str_equal (gtk_column_view_column_get_title (column), "Max"))
          gtk_column_view_sort_by_column (view, column, GTK_SORT_ASCENDING);
      }
    assert_sorted (window, "max", FALSE);
  }

  /* the selection follows its operation, not its row */
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 6);

  close_window (window);
}

static void
test_window_search (void)
{
  TprofWindow *window = open_fixture ();
  GListModel *model = _tprof_operation_table_get_model (window->table);
  g_autoptr(TprofOperation) only = NULL;

  _tprof_operation_table_set_search (window->table, "FORW");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  only = g_list_model_get_item (model, 0);
  g_assert_cmpstr (_tprof_operation_get_name (only), ==, "forward");

  _tprof_operation_table_set_search (window->table, "o");   /* allreduce? no: forward, io/checkpoint, constant, zeros */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);

  _tprof_operation_table_set_search (window->table, "nothing matches this");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);

  _tprof_operation_table_set_search (window->table, "");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, APP_TEST_BASIC_N_OPS);

  /* Enter selects the first match; a search that still matches the
   * selected operation keeps it; Escape shows every operation again */
  {
    GtkWidget *entry = find_descendant (GTK_WIDGET (window->table), GTK_TYPE_SEARCH_ENTRY);
    g_autoptr(TprofOperation) first = NULL;
    guint position;

    gtk_editable_set_text (GTK_EDITABLE (entry), "check");
    g_signal_emit_by_name (entry, "activate");
    first = g_list_model_get_item (model, 0);
    g_assert_cmpstr (_tprof_operation_get_name (first), ==, "io/checkpoint");
    g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==,
                     (int) _tprof_operation_get_index (first));
    _tprof_operation_table_set_search (window->table, "o");
    g_assert_nonnull (find_row (window, "io/checkpoint", &position));
    g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==,
                     (int) _tprof_operation_get_index (first));
    g_signal_emit_by_name (entry, "stop-search");
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, APP_TEST_BASIC_N_OPS);
    g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==,
                     (int) _tprof_operation_get_index (first));
  }

  close_window (window);
}

static void
assert_histogram_matches_numpy (TprofWindow *window,
                                const char  *op,
                                const char  *ranks,
                                const char  *bins)
{
  const TprofHistogram *hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "hist", op, ranks, bins, NULL);
  GArray *counts = app_test_reference_get (reference, "counts");
  GArray *edges = app_test_reference_get (reference, "edges");

  g_assert_nonnull (hist);
  g_assert_cmpuint (hist->n_bins, ==, counts->len);
  for (gsize i = 0; i < hist->n_bins; i++)
    g_assert_cmpuint (hist->counts[i], ==, (guint64) g_array_index (counts, double, i));
  for (gsize i = 0; i <= hist->n_bins; i++)
    app_test_assert_close (hist->edges[i], g_array_index (edges, double, i), 1e-12, "edge");
}

static void
select_operation (TprofWindow *window,
                  const char  *name)
{
  TprofOperation *row = find_row (window, name, NULL);

  g_assert_nonnull (row);
  _tprof_operation_table_select_index (window->table, (int) _tprof_operation_get_index (row));
  g_assert_cmpstr (_tprof_charts_panel_get_title (window->charts), ==, name);
}

static void
test_window_histogram (void)
{
  TprofWindow *window = open_fixture ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const TprofHistogram *hist;
  g_autofree char *tooltip = NULL;

  select_operation (window, "forward");
  assert_histogram_matches_numpy (window, "forward", "all", "auto");

  /* the bin count setting drives the view, and the spin button shows it */
  g_settings_set_int (settings, "bins", 10);
  assert_histogram_matches_numpy (window, "forward", "all", "10");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (_tprof_charts_panel_get_bins_spin (window->charts)), ==, 10);
  gtk_spin_button_set_value (_tprof_charts_panel_get_bins_spin (window->charts), 0);
  g_assert_cmpint (g_settings_get_int (settings, "bins"), ==, 0);
  assert_histogram_matches_numpy (window, "forward", "all", "auto");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (_tprof_charts_panel_get_bins_spin (window->charts))), ==, "Auto");
  /* "+" on Auto goes one past the automatic count, not to 1 bin */
  {
    guint automatic = (guint) _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts))->n_bins;

    gtk_spin_button_spin (_tprof_charts_panel_get_bins_spin (window->charts), GTK_SPIN_STEP_FORWARD, 1);
    g_assert_cmpint (g_settings_get_int (settings, "bins"), ==, (int) automatic + 1);
    g_settings_set_int (settings, "bins", 0);
  }

  /* separate ranks: per-rank counts on the shared edges */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "settings.separate-ranks", NULL));
  g_assert_true (g_settings_get_boolean (settings, "separate-ranks"));
  hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  g_assert_cmpuint (hist->n_ranks, ==, APP_TEST_BASIC_WORLD);
  {
    g_autoptr(GHashTable) reference = app_test_reference (fixture_path, "hist", "forward", "all", "auto", NULL);
    GArray *rank5 = app_test_reference_get (reference, "rank_5");

    for (gsize i = 0; i < hist->n_bins; i++)
      g_assert_cmpuint (hist->rank_counts[5 * hist->n_bins + i], ==, (guint64) g_array_index (rank5, double, i));
  }

  /* hovering a bin describes its range, count and ranks */
  tooltip = _tprof_chart_describe (TPROF_CHART (_tprof_charts_panel_get_histogram (window->charts)), 0);
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "samples"));
  g_assert_nonnull (strstr (tooltip, "Rank "));
  g_assert_null (_tprof_chart_describe (TPROF_CHART (_tprof_charts_panel_get_histogram (window->charts)), 100000));

  g_settings_reset (settings, "separate-ranks");
  g_settings_set_boolean (settings, "log-x", TRUE);
  hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  g_assert_cmpfloat (hist->edges[1] / hist->edges[0], >, 1.0);
  app_test_assert_close (hist->edges[2] / hist->edges[1], hist->edges[1] / hist->edges[0], 1e-9, "log edges");
  g_settings_reset (settings, "log-x");

  close_window (window);
}

/* Back to every rank after a filter, the histogram is the one shown before
 * it (kept, not recomputed), and a bin setting changed meanwhile is not
 * answered with the kept one. */
static void
test_window_histogram_back_to_all (void)
{
  TprofWindow *window = open_fixture ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofHistogramView *view;
  const TprofHistogram *hist;
  g_autofree guint64 *counts = NULL;
  g_autofree double *edges = NULL;
  gsize n_bins;
  guint64 total = 0;

  view = _tprof_charts_panel_get_histogram (window->charts);
  select_operation (window, "forward");
  assert_histogram_matches_numpy (window, "forward", "all", "auto");
  hist = _tprof_histogram_view_get_histogram (view);
  n_bins = hist->n_bins;
  counts = g_memdup2 (hist->counts, n_bins * sizeof *counts);
  edges = g_memdup2 (hist->edges, (n_bins + 1) * sizeof *edges);

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2,5", NULL));
  assert_histogram_matches_numpy (window, "forward", "0,1,2,5", "auto");
  _tprof_rank_filter_select_all (window->rank_filter);
  hist = _tprof_histogram_view_get_histogram (view);
  g_assert_cmpuint (hist->n_bins, ==, n_bins);
  g_assert_cmpmem (hist->counts, n_bins * sizeof *counts, counts, n_bins * sizeof *counts);
  g_assert_cmpmem (hist->edges, (n_bins + 1) * sizeof *edges, edges, (n_bins + 1) * sizeof *edges);
  assert_histogram_matches_numpy (window, "forward", "all", "auto");
  g_assert_true (g_str_has_prefix (_tprof_histogram_view_get_subtitle (view), "All 8 Ranks, n=2400, "));

  /* the bin count changed under the filter */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2,5", NULL));
  g_settings_set_int (settings, "bins", 10);
  assert_histogram_matches_numpy (window, "forward", "0,1,2,5", "10");
  _tprof_rank_filter_select_all (window->rank_filter);
  assert_histogram_matches_numpy (window, "forward", "all", "10");
  g_settings_set_int (settings, "bins", 0);
  assert_histogram_matches_numpy (window, "forward", "all", "auto");

  /* a logarithmic time axis chosen under the filter */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2,5", NULL));
  g_settings_set_boolean (settings, "log-x", TRUE);
  _tprof_rank_filter_select_all (window->rank_filter);
  hist = _tprof_histogram_view_get_histogram (view);
  app_test_assert_close (hist->edges[2] / hist->edges[1], hist->edges[1] / hist->edges[0], 1e-9, "log edges");
  g_assert_cmpfloat (hist->edges[2] - hist->edges[1], >, hist->edges[1] - hist->edges[0]);
  for (gsize i = 0; i < hist->n_bins; i++)
    total += hist->counts[i];
  g_assert_cmpuint (total, ==, 8 * 300);
  g_settings_reset (settings, "log-x");

  /* separate ranks chosen under the filter: every rank's own counts */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2,5", NULL));
  g_settings_set_boolean (settings, "separate-ranks", TRUE);
  g_assert_cmpuint (_tprof_histogram_view_get_histogram (view)->n_ranks, ==, 4);
  _tprof_rank_filter_select_all (window->rank_filter);
  g_assert_cmpuint (_tprof_histogram_view_get_histogram (view)->n_ranks, ==, APP_TEST_BASIC_WORLD);
  g_settings_reset (settings, "separate-ranks");
  assert_histogram_matches_numpy (window, "forward", "all", "auto");

  /* another operation chosen under the filter */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2,5", NULL));
  select_operation (window, "allreduce");
  _tprof_rank_filter_select_all (window->rank_filter);
  assert_histogram_matches_numpy (window, "allreduce", "all", "auto");

  close_window (window);
}

static void
test_window_rank_filter (void)
{
  TprofWindow *window = open_fixture ();
  g_autoptr(GError) error = NULL;
  const TprofRankSummary *ranks;
  gsize n_ranks = 0;
  guint64 total_before = 0;
  guint64 total_after = 0;
  const TprofHistogram *hist;
  g_autofree char *rank_tip = NULL;

  select_operation (window, "forward");
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 8 of 8 ranks");
  g_assert_true (g_str_has_prefix (_tprof_histogram_view_get_subtitle (_tprof_charts_panel_get_histogram (window->charts)),
                                   "All 8 Ranks, n=2400, "));
  hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  for (gsize i = 0; i < hist->n_bins; i++)
    total_before += hist->counts[i];
  g_assert_cmpuint (total_before, ==, 8 * 300);

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2,5", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 4 of 8 ranks");
  /* the histogram names the filter */
  g_assert_true (g_str_has_prefix (_tprof_histogram_view_get_subtitle (_tprof_charts_panel_get_histogram (window->charts)),
                                   "Ranks 0-2,5, n=1200, "));

  /* charts follow at once */
  hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  for (gsize i = 0; i < hist->n_bins; i++)
    total_after += hist->counts[i];
  g_assert_cmpuint (total_after, ==, 4 * 300);
  assert_histogram_matches_numpy (window, "forward", "0,1,2,5", "auto");

  ranks = _tprof_rank_chart_get_rank_summaries (_tprof_charts_panel_get_rank_chart (window->charts), &n_ranks);
  g_assert_cmpuint (n_ranks, ==, 4);
  g_assert_cmpint (ranks[0].rank, ==, 0);
  g_assert_cmpint (ranks[3].rank, ==, 5);
  rank_tip = _tprof_chart_describe (TPROF_CHART (_tprof_charts_panel_get_rank_chart (window->charts)), 3);
  g_assert_nonnull (strstr (rank_tip, "Rank 5 on node-b"));

  /* the table follows once its worker is done */
  app_test_gui_wait_idle (window);
  assert_row_matches_numpy (window, "forward", "0,1,2,5");
  assert_row_matches_numpy (window, "allreduce", "0,1,2,5");
  assert_row_matches_numpy (window, "io/checkpoint", "0,1,2,5");
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 0);

  /* a bad expression is refused, explained and marked, and changes nothing */
  g_assert_false (_tprof_rank_filter_apply_expression (window->rank_filter, "3-1", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (_tprof_rank_filter_apply_expression (window->rank_filter, "0-99", &error));
  g_assert_nonnull (error);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 4 of 8 ranks");
  _tprof_rank_chart_get_rank_summaries (_tprof_charts_panel_get_rank_chart (window->charts), &n_ranks);
  g_assert_cmpuint (n_ranks, ==, 4);

  /* clicking a rank in the chart shows it alone; clicking it again, the
   * ranks shown before (0,1,2,5) */
  g_signal_emit_by_name (_tprof_charts_panel_get_rank_chart (window->charts), "rank-clicked", 5);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 1 of 8 ranks");
  g_signal_emit_by_name (_tprof_charts_panel_get_rank_chart (window->charts), "rank-clicked", 5);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 4 of 8 ranks");
  {
    const guint8 shown[8] = { 1, 1, 1, 0, 0, 1, 0, 0 };

    g_assert_cmpmem (g_bytes_get_data (window->mask, NULL), 8, shown, 8);
  }
  g_signal_emit_by_name (_tprof_charts_panel_get_rank_chart (window->charts), "rank-clicked", 2);
  g_signal_emit_by_name (_tprof_charts_panel_get_rank_chart (window->charts), "rank-clicked", 6);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 1 of 8 ranks");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-2", NULL));
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 3 of 8 ranks");
  app_test_gui_wait_idle (window);
  assert_row_matches_numpy (window, "forward", "0,1,2");

  _tprof_rank_filter_invert (window->rank_filter);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 5 of 8 ranks");
  app_test_gui_wait_idle (window);
  assert_row_matches_numpy (window, "forward", "3,4,5,6,7");
  assert_histogram_matches_numpy (window, "forward", "3,4,5,6,7", "auto");

  _tprof_rank_filter_select_none (window->rank_filter);
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts))->n_bins, ==, 0);
  assert_row_matches_numpy (window, "forward", "none");

  _tprof_rank_filter_select_all (window->rank_filter);
  app_test_gui_wait_idle (window);
  assert_row_matches_numpy (window, "forward", "all");

  close_window (window);
}

static void
test_window_rank_filter_entry (void)
{
  TprofWindow *window = open_fixture ();
  GtkWidget *entry = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (window->rank_filter)));

  /* the entry is the second child of the panel's box */
  entry = gtk_widget_get_next_sibling (entry);
  g_assert_true (GTK_IS_ENTRY (entry));

  gtk_editable_set_text (GTK_EDITABLE (entry), "1-x");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 8 of 8 ranks");

  gtk_editable_set_text (GTK_EDITABLE (entry), "6,7");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 2 of 8 ranks");

  /* the entry shows what the check boxes select */
  _tprof_rank_filter_toggle_rank (window->rank_filter, 0);
  _tprof_rank_filter_toggle_rank (window->rank_filter, 1);
  _tprof_rank_filter_toggle_rank (window->rank_filter, 2);
  {
    g_autoptr(GArray) shown = NULL;
    static const gint32 expected[] = { 0, 1, 2, 6, 7 };

    g_assert_true (tprof_rank_expr_parse (gtk_editable_get_text (GTK_EDITABLE (entry)), 8, &shown, NULL));
    g_assert_cmpmem (shown->data, shown->len * sizeof (gint32), expected, sizeof expected);
  }
  /* All reads as the whole range; None as an empty entry that says so */
  _tprof_rank_filter_select_all (window->rank_filter);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "0-7");
  _tprof_rank_filter_select_none (window->rank_filter);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (entry)), ==, "No rank selected");
  /* and an open-ended range applies */
  gtk_editable_set_text (GTK_EDITABLE (entry), "5-");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 3 of 8 ranks");

  close_window (window);
}

static void
test_window_export (void)
{
  TprofWindow *window = open_fixture ();
  g_autofree char *png = g_build_filename (fixture_dir, "chart.png", NULL);
  g_autofree char *svg = g_build_filename (fixture_dir, "ranks.svg", NULL);
  g_autofree char *pdf = g_build_filename (fixture_dir, "chart.pdf", NULL);
  g_autofree char *csv = g_build_filename (fixture_dir, "table.csv", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;

  select_operation (window, "forward");

  /* the chart says what it shows, and the dialog proposes a name after it */
  {
    g_autofree char *title = _tprof_chart_format_title (TPROF_CHART (_tprof_charts_panel_get_histogram (window->charts)),
                                                        "Time Distribution: %s");
    g_autofree char *name = _tprof_window_export_file_name (window, "histogram", "png");
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_autofree char *folder = NULL;

    g_assert_cmpstr (title, ==, "Time Distribution: forward");
    g_assert_cmpstr (name, ==, "forward-histogram.png");
    select_operation (window, "io/checkpoint");
    g_clear_pointer (&name, g_free);
    name = _tprof_window_export_file_name (window, "ranks", "svg");
    g_assert_cmpstr (name, ==, "io-checkpoint-ranks.svg");
    select_operation (window, "forward");

    g_assert_true (_tprof_window_save_chart (window, png, "histogram", 640, 400));
    folder = g_settings_get_string (settings, "export-folder");
    g_assert_cmpstr (folder, ==, fixture_dir);
    g_settings_reset (settings, "export-folder");
  }

  g_assert_true (_tprof_window_export_chart (window, png, "histogram", 640, 400, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 640);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 400);
  cairo_surface_destroy (surface);

  g_assert_true (_tprof_window_export_chart (window, svg, "ranks", 800, 500, &error));
  g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_clear_pointer (&contents, g_free);

  g_assert_true (_tprof_window_export_chart (window, pdf, "histogram", 800, 500, &error));
  g_assert_true (g_file_get_contents (pdf, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF"));
  g_clear_pointer (&contents, g_free);

  g_assert_true (_tprof_window_export_table (window, csv, &error));
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  /* tprof summary's columns (seconds); every number in its shortest exact form */
  g_assert_cmpstr (lines[0], ==, "name,count,rank_count,sum,mean,std,min,max,median,p95,p99,imbalance,slowest_rank,"
                                 "parent,self_sum,sampled,stored,imbalance_time");
  g_assert_cmpuint (g_strv_length (lines), ==, APP_TEST_BASIC_N_OPS + 2);   /* header, rows, final "" */
  g_assert_true (g_str_has_prefix (lines[1], "big,16000,8,"));
  for (guint i = 1; lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], ",", -1);

      for (guint f = 3; f < 11 && fields[f] != NULL; f++)
        if (fields[f][0] != '\0')
          {
            double value = g_ascii_strtod (fields[f], NULL);
            char short_form[G_ASCII_DTOSTR_BUF_SIZE];

            /* exact, and no longer than 15 digits where those suffice */
            g_ascii_formatd (short_form, sizeof short_form, "%.15g", value);
            if (g_ascii_strtod (short_form, NULL) == value)
              g_assert_cmpstr (fields[f], ==, short_form);
          }
    }

  /* failures say why */
  g_assert_false (_tprof_window_export_chart (window, "/nonexistent-dir/chart.png", "histogram", 640, 400, &error));
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, !=, "");
  g_clear_error (&error);
  g_assert_false (_tprof_window_export_chart (window, "/tmp/chart.bmp", "histogram", 640, 400, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (_tprof_window_export_table (window, "/nonexistent-dir/table.csv", &error));
  g_assert_nonnull (error);

  /* through the dialogs' path the window shows why */
  g_assert_null (_tprof_window_get_error (window));
  g_assert_false (_tprof_window_save_chart (window, "/nonexistent-dir/chart.png", "histogram", 640, 400));
  g_assert_true (g_str_has_prefix (_tprof_window_get_error (window), "Could not export to chart.png: "));
  g_assert_false (_tprof_window_save_table (window, "/nonexistent-dir/table.csv"));
  g_assert_true (g_str_has_prefix (_tprof_window_get_error (window), "Could not export to table.csv: "));
  g_assert_true (_tprof_window_save_table (window, csv));

  close_window (window);
}

static char *
write_bad_file (guint i)
{
  g_autofree char *name = g_strdup_printf ("bad-%02u.h5", i);
  char *path = g_build_filename (fixture_dir, name, NULL);
  g_autofree char *good = NULL;
  gsize good_len = 0;

  switch (i % 4)
    {
    case 0:   /* not HDF5 at all */
      g_assert_true (g_file_set_contents (path, "this is not a profile\n", -1, NULL));
      break;
    case 1:   /* empty */
      g_assert_true (g_file_set_contents (path, "", 0, NULL));
      break;
    case 2:   /* a truncated real profile */
      g_assert_true (g_file_get_contents (fixture_path, &good, &good_len, NULL));
      g_assert_true (g_file_set_contents (path, good, good_len / (2 + i), NULL));
      break;
    default:  /* missing */
      break;
    }
  return path;
}

static void
test_window_bad_file (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  g_autofree char *path = write_bad_file (0);
  const char *message;

  app_test_gui_open (window, path);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "empty");
  message = _tprof_window_get_error (window);
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "Could not open bad-00.h5: "));
  g_assert_cmpuint (strlen (message), >, strlen ("Could not open bad-00.h5: "));
  g_assert_true (_tprof_window_is_empty (window));
  g_assert_null (_tprof_window_get_file (window));

  /* still alive: a good file opens in the same window and clears the message */
  app_test_gui_open (window, fixture_path);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_null (_tprof_window_get_error (window));

  /* a world too large to list is refused with the reason, not allocated */
  {
    g_autofree char *huge = g_build_filename (fixture_dir, "huge-world.h5", NULL);
    TprofProfiledTime *pt = tprof_profiled_time_new (TPROF_PROFILE_MAX_RANKS + 1);
    TprofError error = { 0 };
    TprofWindow *other = app_test_gui_new_window (app);

    g_assert_cmpint (tprof_profiled_time_save (pt, huge, &error), ==, 0);
    tprof_profiled_time_free (pt);
    app_test_gui_open (other, huge);
    g_assert_cmpstr (_tprof_window_get_page (other), ==, "empty");
    g_assert_true (g_str_has_prefix (_tprof_window_get_error (other), "Could not open huge-world.h5: "));
    g_assert_nonnull (strstr (_tprof_window_get_error (other), "ranks"));
    close_window (other);
  }

  /* a bad file opened over a shown profile keeps the profile */
  app_test_gui_open (window, path);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_nonnull (_tprof_window_get_error (window));

  close_window (window);
}

/* A file on which HDF5 itself crashes: the window says so, and it and
 * every other window live on (the file is parsed in a helper process). */
static void
test_window_hdf5_crash (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  TprofWindow *other = app_test_gui_new_window (app);
  g_autofree char *crash = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "fixtures",
                                             "flipped-crashes-hdf5.h5", NULL);

  app_test_gui_open (other, fixture_path);
  app_test_gui_open (window, crash);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "empty");
  g_assert_true (g_str_has_prefix (_tprof_window_get_error (window), "Could not open flipped-crashes-hdf5.h5: "));
  g_assert_nonnull (strstr (_tprof_window_get_error (window), "the HDF5 library crashed"));
  g_assert_cmpstr (_tprof_window_get_page (other), ==, "profile");

  app_test_gui_open (window, fixture_path);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  close_window (window);
  close_window (other);
}

static void
test_window_many_bad_files (void)
{
  TprofWindow *window = app_test_gui_new_window (app);

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *path = write_bad_file (i);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *prefix = g_strdup_printf ("Could not open %s: ", name);

      app_test_gui_open (window, path);
      g_assert_cmpstr (_tprof_window_get_page (window), ==, "empty");
      g_assert_nonnull (_tprof_window_get_error (window));
      g_assert_true (g_str_has_prefix (_tprof_window_get_error (window), prefix));
    }

  app_test_gui_open (window, fixture_path);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  close_window (window);
}

static void
test_window_open_while_loading (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  g_autofree char *bad = write_bad_file (4);
  g_autofree char *other_path = app_test_make_profile (fixture_dir, "second.h5", APP_TEST_PROFILE_REALISTIC);
  g_autoptr(GFile) good = g_file_new_for_path (fixture_path);
  g_autoptr(GFile) other = g_file_new_for_path (other_path);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autofree char *title = NULL;

  /* the newer request wins; the older one's result is dropped */
  _tprof_window_open (window, good);
  _tprof_window_open (window, bad_file);
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "empty");
  g_assert_true (g_str_has_prefix (_tprof_window_get_error (window), "Could not open bad-04.h5: "));

  _tprof_window_open (window, good);
  _tprof_window_open (window, other);
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_null (_tprof_window_get_error (window));
  g_assert_true (g_file_equal (_tprof_window_get_file (window), other));
  g_object_get (window, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "second.h5");
  g_assert_cmpuint (g_list_model_get_n_items (_tprof_operation_table_get_model (window->table)), ==, 6);

  close_window (window);
}

static void
test_window_open_routing (void)
{
  TprofWindow *window = open_fixture ();
  g_autoptr(GFile) same = g_file_new_for_path (fixture_path);
  g_autofree char *other_path = app_test_make_profile (fixture_dir, "other.h5", APP_TEST_PROFILE_REALISTIC);
  g_autoptr(GFile) other = g_file_new_for_path (other_path);
  guint before = n_windows ();
  GList *windows;
  TprofWindow *second = NULL;

  /* a file already shown is presented, not opened again */
  g_application_open (G_APPLICATION (app), &same, 1, "");
  g_assert_cmpuint (n_windows (), ==, before);

  /* another file gets its own window */
  g_application_open (G_APPLICATION (app), &other, 1, "");
  g_assert_cmpuint (n_windows (), ==, before + 1);
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != window && _tprof_window_get_file (l->data) != NULL &&
        g_file_equal (_tprof_window_get_file (l->data), other))
      second = l->data;
  g_assert_nonnull (second);
  app_test_gui_wait_idle (second);
  g_assert_cmpstr (_tprof_window_get_page (second), ==, "profile");

  close_window (second);
  close_window (window);
}

static void
test_window_settings_saved (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  gtk_window_close (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  /* the next window starts at the saved size */
  window = app_test_gui_new_window (app);
  {
    int width;
    int height;

    gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
    g_assert_cmpint (width, ==, 1100);
    g_assert_cmpint (height, ==, 700);
  }
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  close_window (window);
}

static GtkDropTarget *
find_drop_target (TprofWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

static void
test_window_drop (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  g_autofree char *other_path = app_test_make_profile (fixture_dir, "dropped.h5", APP_TEST_PROFILE_REALISTIC);
  GFile *files[] = { g_file_new_for_path (fixture_path), g_file_new_for_path (other_path) };
  GtkDropTarget *target = find_drop_target (window);
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;
  guint before = n_windows ();
  TprofWindow *second = NULL;

  g_assert_nonnull (target);
  g_assert_true (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (target), GDK_TYPE_FILE_LIST));

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_array (files, G_N_ELEMENTS (files)));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);

  /* the first file opens here, the second in a window of its own */
  g_assert_true (g_file_equal (_tprof_window_get_file (window), files[0]));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_cmpuint (n_windows (), ==, before + 1);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (_tprof_window_get_file (l->data) != NULL && g_file_equal (_tprof_window_get_file (l->data), files[1]))
      second = l->data;
  g_assert_nonnull (second);
  app_test_gui_wait_idle (second);

  /* both were added to the recent files (the recent manager asks for the
   * file's type asynchronously first: give it time on a busy machine) */
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *uri = g_file_get_uri (files[i]);
      gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

      while (!gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri)
             && g_get_monotonic_time () < deadline)
        if (!g_main_context_iteration (NULL, FALSE))
          g_usleep (10000);
      g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
      g_object_unref (files[i]);
    }

  close_window (second);
  close_window (window);
}

static void
test_window_actions (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  static const struct { const char *action; const char *accel; } accels[] = {
    { "win.open", "<Control>o" },
    { "win.export-chart", "<Control>e" },
    { "win.export-table", "<Shift><Control>e" },
    { "win.close", "<Control>w" },
    { "win.find", "<Control>f" },
    { "app.quit", "<Control>q" },
    { "win.show-help-overlay", "<Control>question" },
    { "win.filter-ranks", "<Control>r" },
    { "win.all-ranks", "<Shift><Control>a" },
    { "settings.separate-ranks", "<Shift><Control>r" },
    { "settings.log-x", "<Control>l" },
    { "settings.log-y", "<Shift><Control>l" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    {
      g_auto(GStrv) set = gtk_application_get_accels_for_action (GTK_APPLICATION (app), accels[i].action);
      guint key = 0;
      GdkModifierType mods = 0;
      guint want_key = 0;
      GdkModifierType want_mods = 0;

      g_assert_nonnull (set[0]);
      g_assert_true (gtk_accelerator_parse (set[0], &key, &mods));
      g_assert_true (gtk_accelerator_parse (accels[i].accel, &want_key, &want_mods));
      g_assert_cmpuint (gdk_keyval_to_lower (key), ==, gdk_keyval_to_lower (want_key));
      g_assert_cmpuint (mods, ==, want_mods);
    }

  /* the shortcuts window came from the GResource, About is an app action */
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));

  /* exports need a profile, and say so */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *png = g_build_filename (fixture_dir, "nothing.png", NULL);

    g_assert_false (_tprof_window_export_chart (window, png, "histogram", 100, 100, &error));
    g_assert_nonnull (error);
    g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  }
  app_test_gui_open (window, fixture_path);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.find", NULL));

  /* Ctrl+R puts the keyboard in the rank expression; Ctrl+Shift+A shows all */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.filter-ranks", NULL));
  g_assert_true (GTK_IS_TEXT (gtk_root_get_focus (GTK_ROOT (window))));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_WIDGET (window->rank_filter)));
  _tprof_rank_filter_select_none (window->rank_filter);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.all-ranks", NULL));
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 8 of 8 ranks");

  close_window (window);
}

static void
test_window_many_operations (void)
{
  g_autofree char *path = g_build_filename (fixture_dir, "many.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  TprofError error = { 0 };
  TprofWindow *window = app_test_gui_new_window (app);
  GListModel *model;

  for (int i = 0; i < 10000; i++)
    {
      double times[8];
      int32_t ranks[8];
      g_autofree char *name = g_strdup_printf ("op/%05d", i);

      for (int s = 0; s < 8; s++)
        {
          times[s] = 1e-6 * (i + 1) * (1 + s);
          ranks[s] = s % 4;
        }
      g_assert_cmpint (tprof_profiled_time_add (pt, name, tprof_gathered_time_new (times, ranks, 8), &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);

  app_test_gui_open (window, path);
  model = _tprof_operation_table_get_model (window->table);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10000);

  _tprof_operation_table_set_search (window->table, "op/0999");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10);
  _tprof_operation_table_set_search (window->table, "");

  /* ranks 0 and 1 hold samples s = 0, 1, 4, 5: sum = 1e-6 (i + 1) (1 + 2 + 5 + 6) */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-1", NULL));
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10000);
  {
    TprofOperation *op = find_row (window, "op/00041", NULL);

    g_assert_cmpuint (_tprof_operation_get_summary (op)->count, ==, 4);
    app_test_assert_close (_tprof_operation_get_summary (op)->sum, 1e-6 * 42 * 14, 1e-12, "sum");
  }

  close_window (window);
}

static void
assert_png_size (const char *png,
                 int         min_width)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (png);

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), >=, min_width);
  cairo_surface_destroy (surface);
  g_test_message ("screenshot: %s", png);
}

/* Renders @window into build/tests/app/@name and checks it is a real picture. */
static void
shoot (TprofWindow *window,
       const char  *name)
{
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, "app", name, NULL);

  app_test_gui_wait_idle (window);
  app_test_gui_render_png (window, png);
  assert_png_size (png, 900);
}

/* @path with @op selected, then its ranks overlaid, then on a log time axis. */
static void
shoot_profile (TprofWindow *window,
               const char  *path,
               const char  *op,
               const char  *prefix)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *main_png = g_strconcat (prefix, "-window.png", NULL);
  g_autofree char *overlay_png = g_strconcat (prefix, "-overlay.png", NULL);
  g_autofree char *log_png = g_strconcat (prefix, "-overlay-log.png", NULL);

  app_test_gui_open (window, path);
  select_operation (window, op);
  shoot (window, main_png);
  g_settings_set_boolean (settings, "separate-ranks", TRUE);
  shoot (window, overlay_png);
  g_settings_set_boolean (settings, "log-x", TRUE);
  shoot (window, log_png);
  g_settings_reset (settings, "separate-ranks");
  g_settings_reset (settings, "log-x");
}

/* A name with a newline or an escape shows whole, its control characters
 * escaped, in the table and above the charts. */
static void
test_window_control_characters (void)
{
  g_autofree char *path = g_build_filename (fixture_dir, "control-names.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  TprofError error = { 0 };
  TprofWindow *window;
  g_autofree char *cell = NULL;
  double *times = g_new (double, 1);
  int32_t *ranks = g_new0 (int32_t, 1);

  times[0] = 1e-3;
  g_assert_cmpint (tprof_profiled_time_add (pt, "two\nlines\x1b[31m", tprof_gathered_time_new_take (times, ranks, 1),
                                            &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);

  window = app_test_gui_new_window (app);
  app_test_gui_open (window, path);
  {
    g_autoptr(TprofOperation) op = g_list_model_get_item (_tprof_operation_table_get_model (window->table), 0);

    cell = _tprof_operation_table_format_cell ("name", op);
  }
  g_assert_cmpstr (cell, ==, "two\\nlines\\x1b[31m");
  g_assert_cmpstr (_tprof_charts_panel_get_title (window->charts), ==, "two\\nlines\\x1b[31m");
  close_window (window);
}

/* The header shows the file's name and its folder; a very long name is
 * shortened rather than widening the window past the screen. */
static void
test_window_title (void)
{
  g_autofree char *name = g_strnfill (200, 'x');
  g_autofree char *base = g_strconcat (name, ".h5", NULL);
  g_autofree char *path = g_build_filename (fixture_dir, base, NULL);
  g_autofree char *contents = NULL;
  gsize length;
  TprofWindow *window;
  int natural = 0;

  g_assert_true (g_file_get_contents (fixture_path, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  window = app_test_gui_new_window (app);
  app_test_gui_open (window, path);
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, base);
  g_assert_cmpstr (gtk_label_get_text (window->subtitle_label), ==, fixture_dir);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (natural, <, 1400);
  close_window (window);
  g_unlink (path);
}

/* The default columns answer "which operation, which rank" and fit; the
 * chooser's choice is kept in the settings and applied at once. */
static void
test_window_columns (void)
{
  TprofWindow *window = open_fixture ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "name"));
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "imbalance-time"));
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "p99"));
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "std"));
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "min"));

  g_settings_set_strv (settings, "table-columns", (const char *const[]) { "std", "no-such-column", NULL });
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "std"));
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "sum"));
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "name"));

  /* a box of the chooser: ticking Min adds it to the settings */
  {
    GtkWidget *box = find_descendant (GTK_WIDGET (window->table), GTK_TYPE_POPOVER);
    GtkWidget *check = NULL;
    g_auto(GStrv) ids = NULL;

    g_assert_nonnull (box);
    for (GtkWidget *w = find_descendant (box, GTK_TYPE_CHECK_BUTTON); w != NULL; w = gtk_widget_get_next_sibling (w))
      if (GTK_IS_CHECK_BUTTON (w) && g_str_equal (gtk_check_button_get_label (GTK_CHECK_BUTTON (w)), "Min"))
        check = w;
    g_assert_nonnull (check);
    g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
    gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
    ids = g_settings_get_strv (settings, "table-columns");
    g_assert_cmpstrv (ids, ((const char *const[]) { "min", "std", NULL }));
    g_assert_true (_tprof_operation_table_get_column_visible (window->table, "min"));
  }
  g_settings_reset (settings, "table-columns");
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "min"));
  close_window (window);
}

/* A profile of 3 ranks with a timeline: at "barrier" rank @late (or, for
 * -1, each rank in turn) arrives 2 ms after the others, and all leave
 * together; "compute" runs before it. */
static char *
write_timeline_profile (const char *name,
                        int         late)
{
  enum { RANKS = 3, STEPS = 40 };
  g_autofree char *path = g_build_filename (fixture_dir, name, NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (RANKS);
  TprofError error = { 0 };

  for (int op = 0; op < 2; op++)
    {
      gsize n = RANKS * STEPS;
      double *times = g_new (double, n), *starts = g_new (double, n);
      int32_t *ranks = g_new (int32_t, n), *threads = g_new0 (int32_t, n);
      TprofGatheredTime *gt;

      for (gsize i = 0; i < n; i++)
        {
          int r = (int) (i / STEPS), k = (int) (i % STEPS);
          double arrive = 0.01 * k + (r == (late >= 0 ? late : k % RANKS) ? 3e-3 : 1e-3);

          ranks[i] = r;
          starts[i] = op == 0 ? 0.01 * k : arrive;
          times[i] = op == 0 ? arrive - 0.01 * k : 0.01 * k + 4e-3 - arrive;
        }
      gt = tprof_gathered_time_new_take (times, ranks, n);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      g_assert_cmpint (tprof_profiled_time_add (pt, op == 0 ? "compute" : "barrier", gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  return g_steal_pointer (&path);
}

/* The bar above the table names the straggler from arrival, and its
 * button shows that rank alone; with no clear straggler it says so; a
 * profile without a timeline has no bar. */
static void
test_window_straggler (void)
{
  g_autofree char *chronic = write_timeline_profile ("straggler-2.h5", 2);
  g_autofree char *rotating = write_timeline_profile ("straggler-none.h5", -1);
  TprofWindow *window = app_test_gui_new_window (app);
  const char *text = NULL;

  app_test_gui_open (window, chronic);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  g_assert_nonnull (strstr (text, "rank 2"));
  g_assert_nonnull (strstr (text, "40 of 40"));
  g_assert_nonnull (strstr (text, "(barrier)"));
  g_assert_true (gtk_widget_get_visible (window->straggler_bar));
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, "Show Rank 2");
  g_signal_emit_by_name (window->straggler_button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, 1);
  /* and the way back beside it */
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, "Show All Ranks");
  g_signal_emit_by_name (window->straggler_button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, 3);
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, "Show Rank 2");

  app_test_gui_open (window, rotating);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, -1);
  g_assert_true (g_str_has_prefix (text, "No clear straggler"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->straggler_button)));

  app_test_gui_open (window, fixture_path);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, -1);
  g_assert_cmpstr (text, ==, "");
  g_assert_false (gtk_widget_get_visible (window->straggler_bar));
  close_window (window);
}

/* A large profile (here: every profile, TPROF_VIEWER_EAGER_SAMPLES=0)
 * opens on its cached statistics: the table is numpy's at once, the
 * selected operation's samples are read with progress in place of the
 * charts (Cancel, then Read Again), an unread operation's row under a
 * rank filter has exact totals and unknown quantiles, and the straggler
 * is found in the background, the same as when read whole. */
static void
test_window_lazy (void)
{
  g_autofree char *chronic = write_timeline_profile ("lazy-straggler-2.h5", 2);
  static const char * const names[] = { "forward", "allreduce", "io/checkpoint", "empty", "constant", "zeros", "big" };
  g_autoptr(GHashTable) reference = NULL;
  TprofWindow *window;
  TprofOperation *row;
  GtkWidget *button;
  const char *text = NULL;

  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  window = app_test_gui_new_window (app);

  app_test_gui_open (window, chronic);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  g_assert_nonnull (strstr (text, "40 of 40"));
  /* the operation it opened on was read */
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "charts");
  g_assert_nonnull (_tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts)));

  app_test_gui_open (window, fixture_path);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    assert_row_matches_numpy (window, names[i], "all");

  select_operation (window, "forward");
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "reading");
  g_assert_nonnull (strstr (_tprof_charts_panel_get_reading_text (window->charts), "forward"));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "charts");
  assert_histogram_matches_numpy (window, "forward", "all", "auto");

  /* Cancel shows why nothing is drawn; Read Again reads */
  select_operation (window, "allreduce");
  button = _tprof_charts_panel_get_reading_button (window->charts);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Cancel");
  g_signal_emit_by_name (button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "reading");
  g_assert_nonnull (strstr (_tprof_charts_panel_get_reading_text (window->charts), "cancelled"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Read Again");
  g_signal_emit_by_name (button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "charts");
  assert_histogram_matches_numpy (window, "allreduce", "all", "auto");

  /* "io/checkpoint" was never read: under ranks 0 and 4 its row has numpy's
   * count and sum, and no median rather than a wrong one */
  _tprof_rank_filter_apply_expression (window->rank_filter, "0,4", NULL);
  app_test_gui_wait_idle (window);
  row = find_row (window, "io/checkpoint", NULL);
  reference = app_test_reference (fixture_path, "summary", "io/checkpoint", "0,4", NULL, NULL);
  g_assert_cmpuint (_tprof_operation_get_summary (row)->count, ==,
                    (gsize) g_array_index (app_test_reference_get (reference, "summary"), double, 0));
  app_test_assert_close (_tprof_operation_get_summary (row)->sum,
                         g_array_index (app_test_reference_get (reference, "summary"), double, 1), 1e-12, "sum");
  g_assert_true (isnan (_tprof_operation_get_summary (row)->median));
  /* the operations read have every statistic under the filter */
  assert_row_matches_numpy (window, "forward", "0,4");

  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");
  close_window (window);
}

/* A sampled operation's row: count, sum and mean exact over what the
 * ranks shown recorded; std and quantiles those of the stored samples
 * (numpy), shown with ≈; the name says so; CSV marks the row. Read whole,
 * and unread in a lazily opened profile (no std or quantiles then). */
static void
test_window_sampled (void)
{
  g_autofree char *path = app_test_make_profile (fixture_dir, "sampled.h5", APP_TEST_PROFILE_SAMPLED);

  for (guint lazy = 0; lazy < 2; lazy++)
    {
      TprofWindow *window;
      TprofOperation *row;
      const TprofSummary *s;
      g_autofree char *median = NULL, *mean = NULL, *plain_median = NULL, *tip = NULL, *csv = NULL;
      g_autoptr(GHashTable) all = app_test_reference (path, "summary", "step", "all", NULL, NULL);
      g_autoptr(GHashTable) rank1 = app_test_reference (path, "summary", "step", "1", NULL, NULL);
      GArray *want = app_test_reference_get (all, "summary");

      if (lazy)
        g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
      window = app_test_gui_new_window (app);
      app_test_gui_open (window, path);
      select_operation (window, "plain");
      app_test_gui_wait_idle (window);

      row = find_row (window, "step", NULL);
      s = _tprof_operation_get_summary (row);
      g_assert_true (_tprof_operation_is_sampled (row));
      g_assert_false (_tprof_operation_is_sampled (find_row (window, "plain", NULL)));
      g_assert_cmpuint (s->count, ==, 1000 + 400 + APP_TEST_SAMPLED_KEPT);
      app_test_assert_close (s->sum, 25.0 + 12.0 + app_test_sampled_rank2_sum (), 1e-12, "sum");
      app_test_assert_close (s->min, 0.0005, 0.0, "min");
      app_test_assert_close (s->max, 0.3, 0.0, "max");
      app_test_assert_close (s->median, g_array_index (want, double, 6), 1e-12, "median");
      app_test_assert_close (s->std, g_array_index (want, double, 3), 1e-9, "std");
      median = _tprof_operation_table_format_cell ("median", row);
      mean = _tprof_operation_table_format_cell ("mean", row);
      plain_median = _tprof_operation_table_format_cell ("median", find_row (window, "plain", NULL));
      g_assert_true (g_str_has_prefix (median, "≈ "));
      g_assert_false (g_str_has_prefix (mean, "≈"));
      g_assert_false (g_str_has_prefix (plain_median, "≈"));
      /* the histogram says its bars are a subset (once read) */
      select_operation (window, "step");
      app_test_gui_wait_idle (window);
      {
        /* the count grouped as the locale groups it */
        g_autofree char *said = g_strdup_printf ("a random subset of %'zu recorded", (gsize) 1430);

        g_assert_nonnull (strstr (_tprof_histogram_view_get_subtitle (_tprof_charts_panel_get_histogram (window->charts)),
                                  said));
      }
      csv = _tprof_operation_table_to_csv (window->table);
      g_assert_nonnull (strstr (csv, ",sampled,stored,"));
      {
        /* step: 1430 recorded on 3 ranks, 30 of each kept in the file */
        const char *step = strstr (csv, "\nstep,1430,3,");
        g_autofree char *line = NULL;

        g_assert_nonnull (step);
        line = g_strndup (step + 1, strcspn (step + 1, "\n"));
        g_assert_nonnull (strstr (line, ",true,90,"));
      }

      /* rank 1 alone: what it recorded, exact */
      _tprof_rank_filter_apply_expression (window->rank_filter, "1", NULL);
      app_test_gui_wait_idle (window);
      row = find_row (window, "step", NULL);
      s = _tprof_operation_get_summary (row);
      g_assert_cmpuint (s->count, ==, 400);
      app_test_assert_close (s->sum, 12.0, 1e-12, "rank 1 sum");
      app_test_assert_close (s->mean, 12.0 / 400, 1e-12, "rank 1 mean");
      app_test_assert_close (s->max, 0.3, 0.0, "rank 1 max");
      if (!lazy || !isnan (s->median))
        /* read (a lazy profile's background pass may have read it too) */
        app_test_assert_close (s->median, g_array_index (app_test_reference_get (rank1, "summary"), double, 6),
                               1e-12, "rank 1 median");
      /* else not read yet: no estimate rather than a wrong one */

      g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");
      close_window (window);
    }
}

/* A training loop on 4 ranks, one thread each: "step" encloses forward,
 * backward, allreduce and optimizer, with untimed gaps between them (the
 * step's self time); rank r's forward is slower with r, its allreduce
 * shorter; "io" runs between steps, at the top. The operations are added
 * with step last, so that its place in the tree is found, not assumed. */
static char *
write_tree_profile (const char *name)
{
  enum { RANKS = 4, STEPS = 20 };
  static const char * const ops[] = { "forward", "backward", "allreduce", "optimizer", "step", "io" };
  g_autofree char *path = g_build_filename (fixture_dir, name, NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (RANKS);
  TprofError error = { 0 };

  for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
    {
      gsize n = RANKS * STEPS;
      double *times = g_new (double, n), *starts = g_new (double, n);
      int32_t *ranks = g_new (int32_t, n), *threads = g_new0 (int32_t, n);
      TprofGatheredTime *gt;

      for (gsize i = 0; i < n; i++)
        {
          int r = (int) (i / STEPS), k = (int) (i % STEPS);
          /* the parts of the step, each after a 1 ms gap */
          double dur[4] = { 0.010 * (1 + 0.1 * r), 0.020, 0.005 + 0.002 * (3 - r), 0.002 };
          double t = 0.1 * k + 0.001;

          ranks[i] = r;
          for (guint part = 0; part < 4; part++)
            {
              if (part == o)
                {
                  starts[i] = t;
                  times[i] = dur[part];
                }
              t += dur[part] + 0.001;
            }
          if (o == 4)
            {
              starts[i] = 0.1 * k;
              times[i] = t + 0.002 - 0.1 * k;
            }
          else if (o == 5)
            {
              starts[i] = 0.1 * k + 0.08;
              times[i] = 0.004 + 0.001 * r;
            }
        }
      gt = tprof_gathered_time_new_take (times, ranks, n);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      g_assert_cmpint (tprof_profiled_time_add (pt, ops[o], gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  return g_steal_pointer (&path);
}

/* The engine's tree of @path: parents and per-rank self sums. */
typedef struct
{
  gsize   n_ops;
  int     world;
  char  **names;
  gssize *parent;
  double *self_sum;
  double *rank_self;   /* n_ops x world */
} EngineTree;

static EngineTree *
engine_tree_new (const char *path)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);
  EngineTree *tree = g_new0 (EngineTree, 1);
  const TprofGatheredTime **gts;
  TprofNesting *nesting;

  g_assert_nonnull (pt);
  tree->n_ops = tprof_profiled_time_len (pt);
  tree->world = tprof_profiled_time_world_size (pt);
  tree->names = g_new0 (char *, tree->n_ops + 1);
  tree->parent = g_new (gssize, tree->n_ops);
  tree->self_sum = g_new (double, tree->n_ops);
  tree->rank_self = g_new0 (double, tree->n_ops * tree->world);
  gts = g_new (const TprofGatheredTime *, tree->n_ops);
  for (gsize i = 0; i < tree->n_ops; i++)
    {
      gts[i] = tprof_profiled_time_nth (pt, i);
      tree->names[i] = g_strdup (tprof_profiled_time_name (pt, i));
    }
  nesting = tprof_nesting_new (gts, tree->n_ops, &error);
  g_assert_nonnull (nesting);
  for (gsize i = 0; i < tree->n_ops; i++)
    {
      size_t parent;

      tree->parent[i] = tprof_nesting_parent_operation (nesting, i, &parent) ? (gssize) parent : -1;
      tree->self_sum[i] = tprof_nesting_self_sum (nesting, i);
      g_assert_true (tprof_nesting_rank_self_sums (nesting, i, gts[i], tree->world, tree->rank_self + i * tree->world));
    }
  tprof_nesting_free (nesting);
  g_free (gts);
  tprof_profiled_time_free (pt);
  return tree;
}

static void
engine_tree_free (EngineTree *tree)
{
  g_strfreev (tree->names);
  g_free (tree->parent);
  g_free (tree->self_sum);
  g_free (tree->rank_self);
  g_free (tree);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EngineTree, engine_tree_free)

/* Every row has the engine's parent and self time, on the ranks @ranks
 * gives (NULL: all; else a list of ranks ending in -1). */
static void
assert_tree_matches_engine (TprofWindow      *window,
                            const EngineTree *tree,
                            const int        *ranks)
{
  g_assert_true (_tprof_operation_table_is_tree (window->table));
  for (gsize i = 0; i < tree->n_ops; i++)
    {
      TprofOperation *row = find_row (window, tree->names[i], NULL);
      double want = 0;

      g_assert_nonnull (row);
      g_assert_cmpint (_tprof_operation_get_parent (row), ==, tree->parent[i]);
      g_assert_cmpuint (_tprof_operation_table_get_depth (window->table, (int) i), ==, tree->parent[i] >= 0 ? 1 : 0);
      if (ranks == NULL)
        want = tree->self_sum[i];
      else
        for (const int *r = ranks; *r >= 0; r++)
          want += tree->rank_self[i * tree->world + *r];
      app_test_assert_close (_tprof_operation_get_self (row), want, 1e-12, tree->names[i]);
    }
}

static guint
row_position (TprofWindow *window,
              const char  *name)
{
  guint position = G_MAXUINT;

  g_assert_nonnull (find_row (window, name, &position));
  return position;
}

/* The action a key triggers in the table's tree, from its shortcuts. */
static const char *
tree_key_action (GtkWidget  *view,
                 const char *key)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (view);

  for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, c);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (controller)); i++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), i);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (g_str_equal (trigger, key) && GTK_IS_NAMED_ACTION (action))
            return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
        }
    }
  return NULL;
}

/* Whether @key's shortcut in the table's tree acts (else the key goes on
 * to the list). */
static gboolean
tree_key_activates (TprofWindow *window,
                    const char  *key)
{
  GtkWidget *view = _tprof_operation_table_get_view (window->table);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (view);

  for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, c);

      for (guint i = 0; GTK_IS_SHORTCUT_CONTROLLER (controller) && i < g_list_model_get_n_items (G_LIST_MODEL (controller)); i++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), i);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_str_equal (trigger, key))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, view, NULL);
        }
    }
  g_assert_not_reached ();
}

static void
assert_tree_keys (TprofWindow *window)
{
  GtkWidget *view = _tprof_operation_table_get_view (window->table);
  GListModel *model = _tprof_operation_table_get_model (window->table);

  g_assert_cmpstr (tree_key_action (view, "Left"), ==, "table.collapse");
  g_assert_cmpstr (tree_key_action (view, "minus"), ==, "table.collapse");
  g_assert_cmpstr (tree_key_action (view, "Right"), ==, "table.expand");
  g_assert_cmpstr (tree_key_action (view, "plus"), ==, "table.expand");

  _tprof_operation_table_select_index (window->table, 4);
  g_assert_true (tree_key_activates (window, "Left"));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->table), "table.expand", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  _tprof_operation_table_select_index (window->table, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->table), "table.collapse", NULL));
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
}

/* A profile with a timeline shows its operations as a tree: step above
 * the parts of the loop, with the engine's parents and self times (the
 * step's self time its untimed gaps), under a rank filter too; sorting
 * orders each level; a search keeps the parents of what it finds; rows
 * collapse and expand; a profile without a timeline stays a flat list. */
static void
test_window_tree (void)
{
  g_autofree char *path = write_tree_profile ("tree.h5");
  g_autoptr(EngineTree) tree = engine_tree_new (path);
  static const int some[] = { 0, 2, -1 };
  TprofWindow *window = app_test_gui_new_window (app);
  GListModel *model = _tprof_operation_table_get_model (window->table);
  g_autofree char *csv = NULL;
  TprofOperation *step;

  app_test_gui_open (window, path);
  assert_tree_matches_engine (window, tree, NULL);
  /* the nesting as written: the parts in step, io at the top */
  g_assert_cmpint (tree->parent[0], ==, 4);
  g_assert_cmpint (tree->parent[3], ==, 4);
  g_assert_cmpint (tree->parent[4], ==, -1);
  g_assert_cmpint (tree->parent[5], ==, -1);
  /* step's self time: five 1 ms gaps and a 2 ms tail in each of 80 steps */
  step = find_row (window, "step", NULL);
  app_test_assert_close (_tprof_operation_get_self (step), 80 * 0.007, 1e-9, "step's self time");
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "self"));

  /* sorted by name: each level in order, the children under their parent */
  g_assert_true (_tprof_operation_table_sort_by (window->table, "name", GTK_SORT_ASCENDING));
  g_assert_cmpuint (row_position (window, "io"), ==, 0);
  g_assert_cmpuint (row_position (window, "step"), ==, 1);
  g_assert_cmpuint (row_position (window, "allreduce"), ==, 2);
  g_assert_cmpuint (row_position (window, "backward"), ==, 3);
  g_assert_cmpuint (row_position (window, "forward"), ==, 4);
  g_assert_cmpuint (row_position (window, "optimizer"), ==, 5);
  /* by self time, largest first: backward (1.6 s) leads step's children */
  g_assert_true (_tprof_operation_table_sort_by (window->table, "self", GTK_SORT_DESCENDING));
  g_assert_cmpuint (row_position (window, "step"), ==, 0);
  g_assert_cmpuint (row_position (window, "backward"), ==, 1);
  g_assert_cmpuint (row_position (window, "io"), ==, 5);

  /* a search keeps the parents of its matches, and the selection */
  select_operation (window, "optimizer");
  _tprof_operation_table_set_search (window->table, "OPTIM");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_cmpuint (row_position (window, "step"), ==, 0);
  g_assert_cmpuint (row_position (window, "optimizer"), ==, 1);
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 3);
  _tprof_operation_table_set_search (window->table, "io");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  /* Enter selects the first match, not the parent kept above it */
  {
    GtkWidget *entry = find_descendant (GTK_WIDGET (window->table), GTK_TYPE_SEARCH_ENTRY);

    gtk_editable_set_text (GTK_EDITABLE (entry), "ward");
    g_signal_emit_by_name (entry, "activate");
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
    g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 1);
  }
  _tprof_operation_table_set_search (window->table, "");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);

  /* collapsed, step hides its parts; a part selected opens it again */
  g_assert_true (_tprof_operation_table_set_expanded (window->table, 4, FALSE));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_false (_tprof_operation_table_set_expanded (window->table, 5, TRUE));
  _tprof_operation_table_select_index (window->table, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 1);

  /* the keys: - or Left collapses, + or Right expands, Left on a part
   * goes to its parent */
  assert_tree_keys (window);

  /* the Self column follows the rank filter, and stays collapsed */
  g_assert_true (_tprof_operation_table_set_expanded (window->table, 4, FALSE));
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0,2", NULL));
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_true (_tprof_operation_table_set_expanded (window->table, 4, TRUE));
  assert_tree_matches_engine (window, tree, some);

  csv = _tprof_operation_table_to_csv (window->table);
  g_assert_nonnull (strstr (csv, ",parent,self_sum,"));
  g_assert_nonnull (strstr (csv, "\nforward,"));
  g_assert_nonnull (strstr (csv, ",step,"));

  /* no timeline: the flat list, without Self */
  app_test_gui_open (window, fixture_path);
  g_assert_false (_tprof_operation_table_is_tree (window->table));
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "self"));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, APP_TEST_BASIC_N_OPS);
  /* the tree's keys are not taken, so Left and Right stay the list's */
  g_assert_false (tree_key_activates (window, "Left"));
  g_assert_false (tree_key_activates (window, "plus"));
  close_window (window);
}


/* A large profile (TPROF_VIEWER_EAGER_SAMPLES=0) opens as a flat list on
 * its cached statistics; the background pass that reads every operation
 * for the straggler builds the tree, and the table becomes the same tree
 * as when read whole, keeping the selection and the order. A profile read
 * whole but too large to nest while opening does the same. */
static void
test_window_tree_lazy (void)
{
  g_autofree char *path = write_tree_profile ("tree-lazy.h5");
  g_autoptr(EngineTree) tree = engine_tree_new (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window;

  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  window = app_test_gui_new_window (app);
  _tprof_window_open (window, file);
  /* shown; the pass started on the way cannot have ended yet (its result
   * comes through the main loop, which is not run further here) */
  while (g_strcmp0 (_tprof_window_get_page (window), "profile") != 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (_tprof_operation_table_is_tree (window->table));
  g_assert_true (_tprof_profile_is_finding_stragglers (window->profile));
  g_assert_true (_tprof_operation_table_sort_by (window->table, "name", GTK_SORT_ASCENDING));
  select_operation (window, "step");
  g_settings_set_string (settings, "rank-metric", "breakdown");
  g_assert_null (_tprof_breakdown_view_get_plot (_tprof_charts_panel_get_breakdown (window->charts)));
  select_operation (window, "optimizer");
  select_operation (window, "step");

  app_test_gui_wait_idle (window);
  /* the breakdown follows the tree */
  g_assert_nonnull (_tprof_breakdown_view_get_plot (_tprof_charts_panel_get_breakdown (window->charts)));
  g_assert_cmpuint (_tprof_breakdown_view_get_plot (_tprof_charts_panel_get_breakdown (window->charts))->n_parts, ==, 5);
  g_settings_reset (settings, "rank-metric");
  select_operation (window, "optimizer");
  assert_tree_matches_engine (window, tree, NULL);
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 3);
  g_assert_cmpuint (row_position (window, "step"), ==, 1);
  g_assert_cmpuint (row_position (window, "optimizer"), ==, 5);

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0,2", NULL));
  app_test_gui_wait_idle (window);
  {
    static const int some[] = { 0, 2, -1 };

    assert_tree_matches_engine (window, tree, some);
  }
  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");

  /* read whole, but too large to nest while opening: the table shows at
   * once, flat, and becomes the same tree after */
  g_setenv ("TPROF_VIEWER_TREE_AT_ONCE_SAMPLES", "0", TRUE);
  _tprof_window_open (window, file);
  while (g_strcmp0 (_tprof_window_get_page (window), "profile") != 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (_tprof_operation_table_is_tree (window->table));
  g_assert_true (_tprof_profile_is_building_tree (window->profile));
  g_assert_false (_tprof_profile_is_finding_stragglers (window->profile));
  app_test_gui_wait_idle (window);
  assert_tree_matches_engine (window, tree, NULL);
  g_unsetenv ("TPROF_VIEWER_TREE_AT_ONCE_SAMPLES");
  close_window (window);
}

/* The engine's sum of operation @name's samples on each rank of @path
 * (world entries, 0 where none). */
static double *
engine_rank_sums (const char *path,
                  const char *name)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);
  double *sums = g_new0 (double, tprof_profiled_time_world_size (pt));
  TprofRankSummary *ranks = NULL;
  size_t n = tprof_gathered_time_rank_summaries (tprof_profiled_time_get (pt, name), &ranks);

  for (size_t i = 0; i < n; i++)
    sums[ranks[i].rank] = ranks[i].sum;
  free (ranks);
  tprof_profiled_time_free (pt);
  return sums;
}

/* "Breakdown" stacks each rank's step by the operations inside it and its
 * self time: each part is that operation's time on the rank (the engine's
 * per-rank sums and self times), the parts add up to the step's time on
 * the rank, the rank filter removes bars, hovering names rank, part and
 * time, and the chart exports as an image and as CSV. An operation with
 * nothing inside says so. */
static void
test_window_breakdown (void)
{
  g_autofree char *path = write_tree_profile ("breakdown.h5");
  g_autoptr(EngineTree) tree = engine_tree_new (path);
  g_autofree double *step_sums = engine_rank_sums (path, "step");
  static const char * const parts[] = { "forward", "backward", "allreduce", "optimizer" };
  g_autofree char *png = g_build_filename (fixture_dir, "breakdown.png", NULL);
  g_autofree char *csv_path = g_build_filename (fixture_dir, "breakdown.csv", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *tooltip = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GError) error = NULL;
  TprofWindow *window = app_test_gui_new_window (app);
  TprofBreakdownView *view = _tprof_charts_panel_get_breakdown (window->charts);
  const TprofPlotBreakdown *plot;

  app_test_gui_open (window, path);
  select_operation (window, "step");
  g_settings_set_string (settings, "rank-metric", "breakdown");
  app_test_gui_wait_idle (window);
  g_assert_true (_tprof_charts_panel_get_right_chart (window->charts) == TPROF_CHART (view));
  plot = _tprof_breakdown_view_get_plot (view);
  g_assert_nonnull (plot);
  g_assert_cmpuint (plot->n_ranks, ==, 4);
  g_assert_cmpuint (plot->n_parts, ==, 5);
  g_assert_cmpstr (plot->part_names[4], ==, "step (self)");
  for (guint p = 0; p < 4; p++)
    {
      g_autofree double *sums = engine_rank_sums (path, parts[p]);

      g_assert_cmpstr (plot->part_names[p], ==, parts[p]);
      for (guint r = 0; r < 4; r++)
        app_test_assert_close (plot->values[p * 4 + r], sums[plot->ranks[r]], 1e-12, parts[p]);
    }
  for (guint r = 0; r < 4; r++)
    {
      double total = 0;

      app_test_assert_close (plot->values[4 * 4 + r], tree->rank_self[4 * tree->world + plot->ranks[r]], 1e-12,
                             "step's self time");
      for (guint p = 0; p < 5; p++)
        total += plot->values[p * 4 + r];
      /* the parts make up the step */
      app_test_assert_close (total, step_sums[plot->ranks[r]], 1e-9, "a rank's bar");
    }

  /* ranks 1 and 3 alone: their bars, the same numbers */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "1,3", NULL));
  app_test_gui_wait_idle (window);
  plot = _tprof_breakdown_view_get_plot (view);
  g_assert_cmpuint (plot->n_ranks, ==, 2);
  g_assert_cmpint (plot->ranks[0], ==, 1);
  g_assert_cmpint (plot->ranks[1], ==, 3);
  {
    g_autofree double *sums = engine_rank_sums (path, "forward");

    app_test_assert_close (plot->values[1], sums[3], 1e-12, "forward on rank 3");
  }
  /* the second bar's forward */
  tooltip = _tprof_chart_describe (TPROF_CHART (view), 1);
  g_assert_nonnull (strstr (tooltip, "Rank 3"));
  g_assert_nonnull (strstr (tooltip, "forward: "));

  g_assert_true (_tprof_window_export_chart (window, png, "ranks", 640, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  g_assert_true (_tprof_window_export_chart (window, csv_path, "ranks", 640, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv, "rank,forward,backward,allreduce,optimizer,step (self)\n1,"));
  g_assert_nonnull (strstr (csv, "\n3,"));

  /* a click on a bar shows its rank alone */
  g_signal_emit_by_name (view, "rank-clicked", 3);
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, 1);
  g_assert_cmpuint (_tprof_breakdown_view_get_plot (view)->n_ranks, ==, 1);
  g_assert_cmpint (_tprof_breakdown_view_get_plot (view)->ranks[0], ==, 3);

  /* nothing inside forward */
  select_operation (window, "forward");
  app_test_gui_wait_idle (window);
  g_assert_null (_tprof_breakdown_view_get_plot (view));
  g_assert_false (_tprof_window_export_chart (window, csv_path, "ranks", 640, 400, NULL));

  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* 40 loops on 2 ranks, each "loop/K" enclosing "body/K": 80 rows, more
 * than a window shows. */
static char *
write_long_tree_profile (const char *name)
{
  enum { RANKS = 2, LOOPS = 40 };
  g_autofree char *path = g_build_filename (fixture_dir, name, NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (RANKS);
  TprofError error = { 0 };

  for (guint o = 0; o < 2 * LOOPS; o++)
    {
      guint k = o / 2;
      double *times = g_new (double, RANKS), *starts = g_new (double, RANKS);
      int32_t *ranks = g_new (int32_t, RANKS), *threads = g_new0 (int32_t, RANKS);
      g_autofree char *op = g_strdup_printf (o % 2 == 0 ? "loop/%02u" : "body/%02u", k);
      TprofGatheredTime *gt;

      for (int r = 0; r < RANKS; r++)
        {
          ranks[r] = r;
          starts[r] = k + (o % 2 == 0 ? 0.0 : 0.1);
          times[r] = (o % 2 == 0 ? 0.5 : 0.2) * (1 + 0.01 * k + 0.1 * r);
        }
      gt = tprof_gathered_time_new_take (times, ranks, RANKS);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      g_assert_cmpint (tprof_profiled_time_add (pt, op, gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  return g_steal_pointer (&path);
}

typedef struct
{
  GtkAdjustment *adjustment;
  double         value;
} ScrollWait;

static gboolean
scrolled_to (gpointer data)
{
  ScrollWait *wait = data;

  return fabs (gtk_adjustment_get_value (wait->adjustment) - wait->value) < 0.5;
}

static gboolean
table_scrolls (gpointer data)
{
  GtkAdjustment *adjustment = data;

  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + 200;
}

/* Refilling the tree (here for a rank filter; for a large profile when
 * the tree arrives) keeps where the table was scrolled to, the
 * selection and the collapsed rows. */
static void
test_window_tree_scroll (void)
{
  g_autofree char *path = write_long_tree_profile ("long-tree.h5");
  TprofWindow *window = app_test_gui_new_window (app);
  GtkAdjustment *adjustment, *stats_adjustment;
  GListModel *model = _tprof_operation_table_get_model (window->table);
  double scrolled;

  app_test_gui_open (window, path);
  g_assert_true (_tprof_operation_table_is_tree (window->table));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 80);
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (_tprof_operation_table_get_view (window->table)));
  stats_adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (_tprof_operation_table_get_stats_view (window->table)));
  app_test_wait (table_scrolls, adjustment);

  g_assert_true (_tprof_operation_table_sort_by (window->table, "name", GTK_SORT_ASCENDING));
  g_assert_true (_tprof_operation_table_set_expanded (window->table, 0, FALSE));   /* loop/00 */
  _tprof_operation_table_select_index (window->table, 41);                        /* body/20 */
  /* the list anchors its scroll on a row: where it settles */
  gtk_adjustment_set_value (adjustment, 200);
  app_test_gui_wait_idle (window);
  scrolled = gtk_adjustment_get_value (adjustment);
  g_assert_cmpfloat (scrolled, >, 100);
  app_test_wait (scrolled_to, &(ScrollWait) { stats_adjustment, scrolled });

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "1", NULL));
  app_test_gui_wait_idle (window);
  /* once the new rows are drawn (the wait fails after a minute) */
  app_test_wait (scrolled_to, &(ScrollWait) { adjustment, scrolled });
  /* and stays there, frames later */
  for (gint64 end = g_get_monotonic_time () + 300 * 1000; g_get_monotonic_time () < end;)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (adjustment), scrolled, 0.5);
  /* the statistics beside the names scrolled with them */
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (stats_adjustment), scrolled, 0.5);
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 41);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 79);
  close_window (window);
}

/* A run of 4 ranks for the comparison: forward @forward times the base's
 * durations, backward @backward times, io the same distribution (another
 * draw), and "extra" when @extra; occurrence k of every rank starts at
 * k 10 ms (a timeline, so that the verdict's blocks follow it). The
 * samples are kept in @kept (one GArray of double per operation, in the
 * order above, rank by rank) for the engine's answer. */
static char *
write_compare_profile (const char *name,
                       guint32     seed,
                       double      forward,
                       double      backward,
                       gboolean    extra,
                       GArray    **kept)
{
  enum { RANKS = 4, PER_RANK = 300 };
  static const char * const ops[] = { "forward", "backward", "io", "extra" };
  g_autofree char *path = g_build_filename (fixture_dir, name, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  TprofProfiledTime *pt = tprof_profiled_time_new (RANKS);
  TprofError error = { 0 };

  for (guint o = 0; o < (extra ? 4u : 3u); o++)
    {
      gsize n = RANKS * PER_RANK;
      double *times = g_new (double, n), *starts = g_new (double, n);
      int32_t *ranks = g_new (int32_t, n), *threads = g_new0 (int32_t, n);
      double factor = o == 0 ? forward : o == 1 ? backward : 1.0;
      TprofGatheredTime *gt;

      kept[o] = g_array_new (FALSE, FALSE, sizeof (double));
      for (gsize i = 0; i < n; i++)
        {
          ranks[i] = (int32_t) (i / PER_RANK);
          starts[i] = 0.01 * (double) (i % PER_RANK);
          times[i] = 1e-3 * (1 + o) * factor * exp (0.2 * (g_rand_double (rand) - 0.5));
          g_array_append_val (kept[o], times[i]);
        }
      gt = tprof_gathered_time_new_take (times, ranks, n);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      g_assert_cmpint (tprof_profiled_time_add (pt, ops[o], gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  return g_steal_pointer (&path);
}

/* @kept (4 ranks, rank by rank, in occurrence order) as a selection. */
static TprofGatheredTime *
kept_selection (GArray *kept)
{
  g_autofree int32_t *ranks = g_new (int32_t, kept->len);

  for (guint i = 0; i < kept->len; i++)
    ranks[i] = (int32_t) (i / (kept->len / 4));
  return tprof_gathered_time_new ((const double *) kept->data, ranks, kept->len);
}

static gint
compare_kept (gconstpointer a,
              gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
kept_median (GArray *kept)
{
  g_autoptr(GArray) sorted = g_array_copy (kept);

  g_array_sort (sorted, compare_kept);
  return sorted->len % 2 ? g_array_index (sorted, double, sorted->len / 2)
                         : 0.5 * (g_array_index (sorted, double, sorted->len / 2 - 1)
                                  + g_array_index (sorted, double, sorted->len / 2));
}

static const TprofComparison *
row_comparison (TprofWindow *window,
                const char  *name,
                gboolean    *tested)
{
  TprofOperation *row = find_row (window, name, NULL);

  g_assert_nonnull (row);
  return _tprof_operation_get_comparison (row, tested);
}

/* Compare With: the table gains the baseline's median, the change with its
 * interval and the verdict, equal to the engine's test with Holm's
 * adjustment over the operations; the histogram draws the baseline on the
 * same edges; a rank filter compares those ranks; Stop Comparing removes
 * it all. A large profile tests what it has read. */
static void
test_window_compare (void)
{
  GArray *base_kept[4] = { NULL }, *new_kept[4] = { NULL };
  g_autofree char *base = write_compare_profile ("compare-base.h5", 11, 1.0, 1.0, FALSE, base_kept);
  g_autofree char *new_path = write_compare_profile ("compare-new.h5", 12, 1.3, 0.7, TRUE, new_kept);
  g_autoptr(GFile) base_file = g_file_new_for_path (base);
  static const char * const names[] = { "forward", "backward", "io" };
  static const TprofVerdict verdicts[] = { TPROF_VERDICT_SLOWER, TPROF_VERDICT_FASTER, TPROF_VERDICT_SAME };
  TprofComparison expected[3];
  TprofWindow *window = app_test_gui_new_window (app);
  const TprofHistogram *hist, *baseline;
  const TprofComparison *c;
  g_autofree char *title = NULL;
  gboolean tested = FALSE;
  guint64 total = 0;

  for (guint o = 0; o < 3; o++)
    {
      TprofGatheredTime *a = kept_selection (base_kept[o]), *b = kept_selection (new_kept[o]);

      g_assert_true (tprof_compare_gathered (a, b, &expected[o]));
      g_assert_cmpint (expected[o].verdict_test, ==, TPROF_VERDICT_TEST_BLOCKS);
      tprof_gathered_time_free (a);
      tprof_gathered_time_free (b);
    }
  tprof_compare_decide (expected, 3, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE);

  app_test_gui_open (window, new_path);
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "verdict"));

  /* a baseline that cannot be read says so, and the profile stays as it was */
  {
    g_autofree char *missing_path = g_build_filename (fixture_dir, "no-such-baseline.h5", NULL);
    g_autoptr(GFile) missing = g_file_new_for_path (missing_path);

    _tprof_window_compare_with (window, missing);
    app_test_gui_wait_idle (window);
    g_assert_nonnull (_tprof_window_get_error (window));
    g_assert_true (g_str_has_prefix (_tprof_window_get_error (window), "Could not compare with no-such-baseline.h5: "));
    g_assert_null (_tprof_window_get_baseline (window));
    g_assert_false (_tprof_operation_table_get_column_visible (window->table, "verdict"));
    g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  }

  _tprof_window_compare_with (window, base_file);
  app_test_gui_wait_idle (window);
  g_assert_null (_tprof_window_get_error (window));
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "verdict"));
  g_assert_true (_tprof_operation_table_get_column_visible (window->table, "change"));
  g_object_get (window, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "compare-new.h5 compared with compare-base.h5");

  for (guint o = 0; o < 3; o++)
    {
      c = row_comparison (window, names[o], &tested);
      g_assert_nonnull (c);
      g_assert_true (tested);
      g_assert_cmpint (c->verdict, ==, verdicts[o]);
      g_assert_cmpint (c->verdict, ==, expected[o].verdict);
      app_test_assert_close (c->ratio, expected[o].ratio, 1e-12, "ratio");
      app_test_assert_close (c->ci_low, expected[o].ci_low, 1e-12, "ci_low");
      app_test_assert_close (c->p_adjusted, expected[o].p_adjusted, 1e-12, "p_adjusted");
      app_test_assert_close (c->p_verdict, expected[o].p_verdict, 1e-12, "p_verdict");
      app_test_assert_close (c->base_median, expected[o].base_median, 0.0, "base median");
    }
  c = row_comparison (window, "extra", &tested);
  g_assert_cmpint (c->verdict, ==, TPROF_VERDICT_ONLY_NEW);
  {
    g_autofree char *cell = _tprof_operation_table_format_cell ("verdict", find_row (window, "forward", NULL));

    g_assert_cmpstr (cell, ==, "▲ Slower");
  }

  /* the table's CSV carries the comparison */
  {
    g_autofree char *csv = _tprof_operation_table_to_csv (window->table);

    g_assert_nonnull (strstr (csv, ",imbalance_time,base_median,ratio,ci_low,ci_high,p_value,p_adjusted,verdict\n"));
    g_assert_nonnull (strstr (csv, ",slower\n"));
    g_assert_nonnull (strstr (csv, ",faster\n"));
    g_assert_nonnull (strstr (csv, ",only-new\n"));
  }

  /* the histogram shows both runs on one set of edges */
  select_operation (window, "forward");
  app_test_gui_wait_idle (window);
  hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  baseline = _tprof_histogram_view_get_baseline (_tprof_charts_panel_get_histogram (window->charts));
  g_assert_nonnull (baseline);
  g_assert_cmpuint (baseline->n_bins, ==, hist->n_bins);
  g_assert_cmpmem (baseline->edges, (hist->n_bins + 1) * sizeof (double), hist->edges,
                   (hist->n_bins + 1) * sizeof (double));
  for (gsize i = 0; i < baseline->n_bins; i++)
    total += baseline->counts[i];
  g_assert_cmpuint (total, ==, base_kept[0]->len);

  /* ranks 0 and 1 only: their samples are compared */
  _tprof_rank_filter_apply_expression (window->rank_filter, "0-1", NULL);
  app_test_gui_wait_idle (window);
  c = row_comparison (window, "forward", &tested);
  g_assert_cmpuint (c->new_count, ==, new_kept[0]->len / 2);
  g_assert_cmpuint (c->base_count, ==, base_kept[0]->len / 2);
  _tprof_rank_filter_apply_expression (window->rank_filter, "0-3", NULL);
  app_test_gui_wait_idle (window);

  /* several baselines: the verdict tests the runs' medians (the base run
   * twice over and a second draw of it against the new run) */
  {
    GArray *other_kept[4] = { NULL };
    g_autofree char *other = write_compare_profile ("compare-base2.h5", 13, 1.0, 1.0, FALSE, other_kept);
    g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
    g_autoptr(GFile) other_file = g_file_new_for_path (other);
    TprofComparison runs[3];

    for (guint o = 0; o < 3; o++)
      {
        const double medians[] = { kept_median (base_kept[o]), kept_median (other_kept[o]) };
        double new_median = kept_median (new_kept[o]);

        runs[o] = expected[o];
        tprof_compare_run_medians (medians, 2, &new_median, 1, NULL, &runs[o]);
        g_assert_cmpint (runs[o].verdict_test, ==, TPROF_VERDICT_TEST_RUNS);
      }
    tprof_compare_decide (runs, 3, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE);
    g_list_store_append (files, base_file);
    g_list_store_append (files, other_file);
    _tprof_window_compare_with_runs (window, G_LIST_MODEL (files));
    app_test_gui_wait_idle (window);
    g_assert_null (_tprof_window_get_error (window));
    /* the title names every baseline */
    g_clear_pointer (&title, g_free);
    g_object_get (window, "title", &title, NULL);
    g_assert_cmpstr (title, ==, "compare-new.h5 compared with compare-base.h5, compare-base2.h5");
    for (guint o = 0; o < 3; o++)
      {
        c = row_comparison (window, names[o], &tested);
        g_assert_true (tested);
        g_assert_cmpint (c->verdict_test, ==, TPROF_VERDICT_TEST_RUNS);
        app_test_assert_close (c->p_verdict, runs[o].p_verdict, 1e-12, "p_verdict of runs");
        g_assert_cmpint (c->verdict, ==, runs[o].verdict);
        app_test_assert_close (c->p_adjusted, expected[o].p_adjusted, 1e-12, "p_adjusted of the first");
      }
    /* under a rank filter the other runs' medians are unknown: not tested */
    _tprof_rank_filter_apply_expression (window->rank_filter, "0-1", NULL);
    app_test_gui_wait_idle (window);
    row_comparison (window, "forward", &tested);
    g_assert_false (tested);
    _tprof_rank_filter_apply_expression (window->rank_filter, "0-3", NULL);
    app_test_gui_wait_idle (window);
    for (guint o = 0; o < 4; o++)
      if (other_kept[o] != NULL)
        g_array_unref (other_kept[o]);
  }

  _tprof_window_stop_comparing (window);
  app_test_gui_wait_idle (window);
  g_assert_false (_tprof_operation_table_get_column_visible (window->table, "verdict"));
  g_assert_null (_tprof_histogram_view_get_baseline (_tprof_charts_panel_get_histogram (window->charts)));
  g_clear_pointer (&title, g_free);
  g_object_get (window, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "compare-new.h5");

  /* a large profile: what is read is tested, the rest waits */
  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  app_test_gui_open (window, new_path);
  _tprof_window_compare_with (window, base_file);
  app_test_gui_wait_idle (window);
  select_operation (window, "backward");
  app_test_gui_wait_idle (window);
  c = row_comparison (window, "backward", &tested);
  g_assert_true (tested);
  g_assert_cmpint (c->verdict, ==, TPROF_VERDICT_FASTER);
  c = row_comparison (window, "io", &tested);
  g_assert_false (tested);
  app_test_assert_close (c->base_median, expected[2].base_median, 0.0, "cached base median");
  {
    g_autofree char *cell = _tprof_operation_table_format_cell ("verdict", find_row (window, "io", NULL));

    g_assert_cmpstr (cell, ==, "Not tested");
  }
  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");
  _tprof_window_stop_comparing (window);

  for (guint o = 0; o < 4; o++)
    {
      if (base_kept[o] != NULL)
        g_array_unref (base_kept[o]);
      if (new_kept[o] != NULL)
        g_array_unref (new_kept[o]);
    }
  close_window (window);
}

/* Presses @keyval on @list as its one-tab-stop controller sees it. */
static gboolean
press_key (GtkWidget       *list,
           guint            keyval,
           GdkModifierType  state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (list);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (g_object_get_data (controller, "tprof-keynav-targets") != NULL)
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, state, &handled);
    }
  return handled;
}

static GtkWidget *
focus_of (TprofWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static gboolean
inside (GtkWidget *focus,
        gpointer   widget)
{
  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* The rank list and the table are one tab stop each: Tab leaves them,
 * Space toggles the focused row, and the rank boxes take no focus. */
static void
test_window_keynav (void)
{
  TprofWindow *window = open_fixture ();
  GtkWidget *list = _tprof_rank_filter_get_list (window->rank_filter);
  GtkWidget *view = _tprof_operation_table_get_view (window->table);
  GtkWidget *focus;
  guint before;

  g_assert_true (gtk_widget_grab_focus (list));
  focus = focus_of (window);
  g_assert_true (inside (focus, list));
  g_assert_false (GTK_IS_CHECK_BUTTON (focus));

  /* Space toggles the focused row: here the first host, so all its ranks */
  before = _tprof_rank_filter_get_n_selected (window->rank_filter);
  g_assert_true (press_key (list, GDK_KEY_space, 0));
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), <, before);
  g_assert_true (press_key (list, GDK_KEY_space, 0));
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, before);

  /* Tab leaves the list for the table's search; Shift+Tab goes back */
  g_assert_true (press_key (list, GDK_KEY_Tab, 0));
  focus = focus_of (window);
  g_assert_true (inside (focus, window->table));
  g_assert_false (inside (focus, view));
  g_assert_true (press_key (list, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  focus = focus_of (window);
  g_assert_true (GTK_IS_BUTTON (focus) && inside (focus, window->rank_filter));

  /* and the table's Tab goes on to the charts */
  g_assert_true (gtk_widget_grab_focus (view));
  g_assert_true (press_key (view, GDK_KEY_Tab, 0));
  focus = focus_of (window);
  g_assert_true (inside (focus, window->charts));

  close_window (window);
}

/* "Trend" shows the selected operation occurrence by occurrence: the
 * band across the ranks shown (the engine's, itself checked against numpy)
 * and every rank as a line when they are few; the filter applies. */
static void
test_window_trend (void)
{
  g_autofree char *path = write_timeline_profile ("trend.h5", 2);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = app_test_gui_new_window (app);
  TprofTrendView *view = _tprof_charts_panel_get_trend (window->charts);
  const TprofPlotTrend *trend;
  g_autofree char *png = g_build_filename (fixture_dir, "trend.png", NULL);
  g_autoptr(GError) error = NULL;

  app_test_gui_open (window, path);
  select_operation (window, "barrier");
  g_settings_set_string (settings, "rank-metric", "trend");
  app_test_gui_wait_idle (window);
  trend = _tprof_trend_view_get_trend (view);
  g_assert_nonnull (trend);
  g_assert_cmpuint (trend->n_cols, ==, 40);
  g_assert_cmpuint (trend->n_series, ==, 3);
  for (guint k = 0; k < trend->n_cols; k++)
    {
      /* ranks 0 and 1 wait 3 ms, rank 2 (late) 1 ms: median 3 ms */
      g_assert_cmpuint (trend->band[k].n_ranks, ==, 3);
      app_test_assert_close (trend->band[k].median, 3e-3, 1e-9, "median");
      app_test_assert_close (trend->band[k].min, 1e-3, 1e-9, "min");
      app_test_assert_close (trend->series[2 * trend->n_cols + k], 1e-3, 1e-9, "rank 2's line");
    }
  g_assert_cmpint (trend->series_ranks[2], ==, 2);

  /* ranks 0 and 1 alone: the late rank leaves the band and the lines */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-1", NULL));
  app_test_gui_wait_idle (window);
  trend = _tprof_trend_view_get_trend (view);
  g_assert_cmpuint (trend->n_series, ==, 2);
  g_assert_cmpuint (trend->band[0].n_ranks, ==, 2);
  app_test_assert_close (trend->band[0].min, 3e-3, 1e-9, "min without rank 2");

  g_assert_true (_tprof_window_export_chart (window, png, "ranks", 800, 500, &error));
  g_assert_no_error (error);
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* "Over Time" shows the selected operation as ranks x occurrences: the
 * cells are the samples' durations, ranks the filter hides are blank, a
 * click on a cell shows its rank alone, and the export draws it. */
static void
test_window_over_time (void)
{
  g_autofree char *path = write_timeline_profile ("over-time.h5", 2);
  g_autofree char *png = g_build_filename (fixture_dir, "over-time.png", NULL);
  g_autofree char *csv = g_build_filename (fixture_dir, "over-time.csv", NULL);
  g_autofree char *contents = NULL;
  gboolean log_scale = FALSE;
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = app_test_gui_new_window (app);
  TprofHeatmapView *view = _tprof_charts_panel_get_heatmap (window->charts);
  const double *cells;
  guint rows, cols;
  g_autofree char *tooltip = NULL;
  g_autoptr(GError) error = NULL;

  app_test_gui_open (window, path);
  select_operation (window, "barrier");
  g_settings_set_string (settings, "rank-metric", "time");
  g_assert_true (_tprof_charts_panel_shows_heatmap (window->charts));
  cells = _tprof_heatmap_view_get_cells (view, &rows, &cols);
  g_assert_cmpuint (rows, ==, 3);
  g_assert_cmpuint (cols, ==, 40);
  /* rank 2 arrives 2 ms after the others at every occurrence, and all
   * leave together: it waits 1 ms, the others 3 ms */
  for (guint k = 0; k < cols; k++)
    {
      app_test_assert_close (cells[0 * cols + k], 3e-3, 1e-9, "rank 0");
      app_test_assert_close (cells[1 * cols + k], 3e-3, 1e-9, "rank 1");
      app_test_assert_close (cells[2 * cols + k], 1e-3, 1e-9, "rank 2");
    }
  tooltip = _tprof_chart_describe (TPROF_CHART (view), 2 * cols + 5);
  g_assert_nonnull (strstr (tooltip, "Rank 2"));
  g_assert_nonnull (strstr (tooltip, "Occurrence 5"));

  /* a filter keeps its ranks' rows alone: rank 2's row goes */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-1", NULL));
  app_test_gui_wait_idle (window);
  cells = _tprof_heatmap_view_get_cells (view, &rows, &cols);
  g_assert_cmpuint (rows, ==, 2);
  app_test_assert_close (cells[1 * cols], 3e-3, 1e-9, "rank 1 filtered");
  g_signal_emit_by_name (view, "rank-clicked", 1);
  g_assert_cmpstr (_tprof_rank_filter_get_summary (window->rank_filter), ==, "Showing 1 of 3 ranks");

  g_assert_true (_tprof_window_export_chart (window, png, "ranks", 640, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));

  /* by deviation from each occurrence's median over the ranks (3, 3, 1
   * ms: the median is 3 ms): 0, 0 and -2 ms, and both in the tooltip */
  _tprof_rank_filter_apply_expression (window->rank_filter, "0-2", NULL);
  app_test_gui_wait_idle (window);
  g_settings_set_boolean (settings, "heatmap-deviation", TRUE);
  cells = _tprof_heatmap_view_get_cells (view, &rows, &cols);
  for (guint k = 0; k < cols; k++)
    {
      app_test_assert_close (cells[0 * cols + k], 0.0, 0.0, "rank 0 deviation");
      app_test_assert_close (cells[2 * cols + k], -2e-3, 1e-9, "rank 2 deviation");
    }
  g_clear_pointer (&tooltip, g_free);
  tooltip = _tprof_chart_describe (TPROF_CHART (view), 2 * cols + 5);
  g_assert_nonnull (strstr (tooltip, "1.000 ms (−2.00 ms from the median)"));
  /* the numbers behind it, as tprof plot writes them */
  g_assert_true (_tprof_window_export_chart (window, csv, "ranks", 640, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "rank,first,last,deviation\n"));
  g_assert_nonnull (strstr (contents, "\n2,5,5,-0.002"));
  g_clear_pointer (&contents, g_free);
  g_settings_reset (settings, "heatmap-deviation");
  /* Log Time puts the durations on a log colour scale */
  g_settings_set_boolean (settings, "log-x", TRUE);
  g_object_get (view, "log", &log_scale, NULL);
  g_assert_true (log_scale);
  g_settings_reset (settings, "log-x");
  g_object_get (view, "log", &log_scale, NULL);
  g_assert_false (log_scale);
  cells = _tprof_heatmap_view_get_cells (view, &rows, &cols);
  app_test_assert_close (cells[2 * cols], 1e-3, 1e-9, "rank 2 duration again");

  /* the trend's numbers: 3 ranks, min 1 ms, median and max 3 ms */
  g_settings_set_string (settings, "rank-metric", "trend");
  g_assert_true (_tprof_window_export_chart (window, csv, "ranks", 640, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "first,last,ranks,min,p5,median,p95,max"));
  g_assert_nonnull (strstr (contents, "\n0,0,3,0.001,"));
  g_clear_pointer (&contents, g_free);
  /* against the timeline: each column's start, the fixture's 10 ms apart */
  g_settings_set_boolean (settings, "trend-time-axis", TRUE);
  g_assert_true (_tprof_window_export_chart (window, csv, "ranks", 640, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "first,last,start,ranks,"));
  {
    g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);

    /* the barrier: ranks 0 and 1 arrive 1 ms into each 10 ms step */
    for (guint k = 0; k < 3; k++)
      {
        g_auto(GStrv) fields = g_strsplit (lines[1 + k], ",", -1);

        app_test_assert_close (g_ascii_strtod (fields[2], NULL), 0.01 * k + 1e-3, 1e-12, "column start");
      }
  }
  g_clear_pointer (&contents, g_free);
  g_settings_reset (settings, "trend-time-axis");

  g_settings_reset (settings, "rank-metric");
  g_assert_false (_tprof_charts_panel_shows_heatmap (window->charts));
  close_window (window);
}

/* The screenshots a person looks at, as PNG files in build/tests/app. Setting
 * TPROF_TEST_SCREENSHOT_PROFILE=FILE (and TPROF_TEST_SCREENSHOT_OP, default
 * "forward"; TPROF_TEST_SCREENSHOT_BASELINE=BASE[:BASE...] compares with
 * those baselines) also shoots FILE as profile-*.png, which is how the README's
 * screenshot of the demo profile is made. */
static void
test_window_screenshot (void)
{
  g_autofree char *path = app_test_make_profile (fixture_dir, "training-run.h5", APP_TEST_PROFILE_REALISTIC);
  g_autofree char *many = app_test_make_profile (fixture_dir, "1024-ranks.h5", APP_TEST_PROFILE_MANY_RANKS);
  g_autofree char *bad = write_bad_file (0);
  const char *extra = g_getenv ("TPROF_TEST_SCREENSHOT_PROFILE");
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = app_test_gui_new_window (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);

  app_test_gui_open (window, bad);
  shoot (window, "empty-window.png");
  {
    g_autofree char *crash = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "fixtures",
                                               "flipped-crashes-hdf5.h5", NULL);

    app_test_gui_open (window, crash);
    shoot (window, "hdf5-crash-window.png");
  }

  shoot_profile (window, path, "train/forward", "main");
  /* the right-hand chart over time */
  app_test_gui_open (window, path);
  select_operation (window, "train/forward");
  g_settings_set_string (settings, "rank-metric", "time");
  shoot (window, "over-time-window.png");
  g_settings_reset (settings, "rank-metric");
  shoot_profile (window, many, "train/forward", "many-ranks");

  /* ranks overlaid on a log axis, a filter applied and a refused expression */
  app_test_gui_open (window, path);
  g_settings_set_boolean (settings, "separate-ranks", TRUE);
  g_settings_set_boolean (settings, "log-y", TRUE);
  g_settings_set_string (settings, "rank-metric", "mean");
  select_operation (window, "data/load_batch");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-5", NULL));
  g_assert_false (_tprof_rank_filter_apply_expression (window->rank_filter, "0-5,7-3", NULL));
  shoot (window, "filtered-window.png");
  g_settings_reset (settings, "separate-ranks");
  g_settings_reset (settings, "log-y");
  g_settings_reset (settings, "rank-metric");

  /* a large profile: an operation whose read was cancelled */
  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  app_test_gui_open (window, path);
  select_operation (window, "data/load_batch");
  g_signal_emit_by_name (_tprof_charts_panel_get_reading_button (window->charts), "clicked");
  app_test_gui_wait_idle (window);
  shoot (window, "unread-window.png");
  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");

  close_window (window);

  /* the size a first start gets from the settings' defaults */
  window = app_test_gui_new_window (app);
  app_test_gui_open (window, path);
  select_operation (window, "train/forward");
  shoot (window, "default-size-window.png");

  if (extra != NULL)
    {
      const char *op = g_getenv ("TPROF_TEST_SCREENSHOT_OP");
      const char *size = g_getenv ("TPROF_TEST_SCREENSHOT_SIZE");
      int width = 0, height = 0;

      /* WIDTHxHEIGHT: a window of that size for the shots below */
      if (size != NULL && sscanf (size, "%dx%d", &width, &height) == 2 && width > 0 && height > 0)
        {
          close_window (window);
          window = _tprof_window_new (app);
          gtk_window_set_default_size (GTK_WINDOW (window), width, height);
          gtk_window_present (GTK_WINDOW (window));
        }

      const char *baseline = g_getenv ("TPROF_TEST_SCREENSHOT_BASELINE");

      shoot_profile (window, extra, op != NULL ? op : "forward", "profile");
      g_settings_set_string (settings, "rank-metric", "time");
      shoot (window, "profile-over-time.png");
      g_settings_set_boolean (settings, "heatmap-deviation", TRUE);
      shoot (window, "profile-deviation.png");
      g_settings_reset (settings, "heatmap-deviation");
      g_settings_set_string (settings, "rank-metric", "trend");
      shoot (window, "profile-trend.png");
      g_settings_set_boolean (settings, "trend-time-axis", TRUE);
      shoot (window, "profile-trend-time.png");
      g_settings_reset (settings, "trend-time-axis");
      g_settings_set_string (settings, "rank-metric", "breakdown");
      shoot (window, "profile-breakdown.png");
      g_settings_reset (settings, "rank-metric");
      if (baseline != NULL)
        {
          /* several baselines separated by ':' */
          g_auto(GStrv) paths = g_strsplit (baseline, ":", -1);
          g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);

          for (guint i = 0; paths[i] != NULL; i++)
            {
              g_autoptr(GFile) base_file = g_file_new_for_path (paths[i]);

              g_list_store_append (files, base_file);
            }
          _tprof_window_compare_with_runs (window, G_LIST_MODEL (files));
          app_test_gui_wait_idle (window);
          select_operation (window, op != NULL ? op : "forward");
          app_test_gui_wait_idle (window);
          shoot (window, "compare-window.png");
          g_settings_set_string (settings, "rank-metric", "mean");
          shoot (window, "compare-mean-window.png");
          g_settings_reset (settings, "rank-metric");
          /* the straggler's rank alone: where a straggler change shows */
          g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "1", NULL));
          app_test_gui_wait_idle (window);
          shoot (window, "compare-rank-window.png");
          _tprof_rank_filter_apply_expression (window->rank_filter, "0-", NULL);
          app_test_gui_wait_idle (window);
          _tprof_window_stop_comparing (window);
        }
    }

  close_window (window);
}

/* Asks numpy for what the tests compare with, in one Python run. */
static void
prefetch_references (void)
{
  static const char * const ops[] = { "forward", "allreduce", "io/checkpoint", "empty", "constant", "zeros", "big" };
  static const char * const selections[] = { "all", "0,1,2,5", "0,1,2", "3,4,5,6,7", "none" };
  g_autoptr(GPtrArray) queries = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
    {
      for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
        g_ptr_array_add (queries, g_strdupv ((char *[]) { "summary", (char *) ops[o], (char *) selections[s], NULL }));
      if (s != 4)
        g_ptr_array_add (queries, g_strdupv ((char *[]) { "hist", "forward", (char *) selections[s], "auto", NULL }));
    }
  g_ptr_array_add (queries, g_strdupv ((char *[]) { "hist", "forward", "all", "10", NULL }));

  app_test_reference_prefetch (fixture_path, (const char * const *const *) queries->pdata, queries->len);
}

static void
count_frame (GdkFrameClock *clock,
             guint         *frames)
{
  (*frames)++;
}

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* A window at rest draws nothing: no frame in a second of idling (a hidden
 * spinning spinner once kept the frame clock at 60 frames a second). */
static void
test_window_idle (void)
{
  TprofWindow *window = app_test_gui_new_window (app);
  GdkFrameClock *clock;
  gboolean done = FALSE;
  guint frames = 0;
  gulong handler;

  g_autoptr(GFile) file = g_file_new_for_path (fixture_path);

  /* the spinner spins on the loading page only */
  _tprof_window_open (window, file);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "loading");
  g_assert_true (gtk_spinner_get_spinning (window->loading_spinner));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_false (gtk_spinner_get_spinning (window->loading_spinner));
  /* let the first paints after presenting settle */
  g_timeout_add (500, set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "update", G_CALLBACK (count_frame), &frames);
  done = FALSE;
  g_timeout_add (1000, set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, handler);

  g_test_message ("%u frames while idle", frames);
  g_assert_cmpuint (frames, <=, 2);
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  app_test_gui_bind_locale ();

  app = app_test_gui_start ();
  fixture_dir = app_test_make_dir ();
  fixture_path = app_test_make_profile (fixture_dir, "basic.h5", APP_TEST_PROFILE_BASIC);
  prefetch_references ();

  g_test_add_func ("/app/window/table", test_window_table);
  g_test_add_func ("/app/window/idle", test_window_idle);
  g_test_add_func ("/app/window/sort", test_window_sort);
  g_test_add_func ("/app/window/search", test_window_search);
  g_test_add_func ("/app/window/histogram", test_window_histogram);
  g_test_add_func ("/app/window/histogram-back-to-all", test_window_histogram_back_to_all);
  g_test_add_func ("/app/window/rank-filter", test_window_rank_filter);
  g_test_add_func ("/app/window/rank-filter-entry", test_window_rank_filter_entry);
  g_test_add_func ("/app/window/export", test_window_export);
  g_test_add_func ("/app/window/bad-file", test_window_bad_file);
  g_test_add_func ("/app/window/hdf5-crash", test_window_hdf5_crash);
  g_test_add_func ("/app/window/many-bad-files", test_window_many_bad_files);
  g_test_add_func ("/app/window/open-while-loading", test_window_open_while_loading);
  g_test_add_func ("/app/window/open-routing", test_window_open_routing);
  g_test_add_func ("/app/window/settings-saved", test_window_settings_saved);
  g_test_add_func ("/app/window/drop", test_window_drop);
  g_test_add_func ("/app/window/actions", test_window_actions);
  g_test_add_func ("/app/window/many-operations", test_window_many_operations);
  g_test_add_func ("/app/window/straggler", test_window_straggler);
  g_test_add_func ("/app/window/lazy", test_window_lazy);
  g_test_add_func ("/app/window/sampled", test_window_sampled);
  g_test_add_func ("/app/window/tree", test_window_tree);
  g_test_add_func ("/app/window/tree-lazy", test_window_tree_lazy);
  g_test_add_func ("/app/window/breakdown", test_window_breakdown);
  g_test_add_func ("/app/window/tree-scroll", test_window_tree_scroll);
  g_test_add_func ("/app/window/compare", test_window_compare);
  g_test_add_func ("/app/window/keynav", test_window_keynav);
  g_test_add_func ("/app/window/header-tooltips", test_window_header_tooltips);
  g_test_add_func ("/app/window/columns", test_window_columns);
  g_test_add_func ("/app/window/title", test_window_title);
  g_test_add_func ("/app/window/over-time", test_window_over_time);
  g_test_add_func ("/app/window/trend", test_window_trend);
  g_test_add_func ("/app/window/control-characters", test_window_control_characters);
  g_test_add_func ("/app/window/screenshot", test_window_screenshot);

  ret = g_test_run ();

  app_test_remove_dir (fixture_dir);
  g_free (fixture_path);
  g_free (fixture_dir);
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return ret;
}
