/* test-fit.c — tprof-viewer's window fits a 1000 px screen in every chart mode, and its first view agrees with the straggler bar. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "app-test-gui.h"
#include "app-test-util.h"
#include "tprof-breakdown-view.h"
#include "tprof-heatmap-view.h"
#include "tprof-operation.h"
#include "tprof-rank-chart.h"

static TprofApplication *app;
static char *fixture_dir;

static const char * const modes[] = { "total", "mean", "time", "trend", "breakdown", "hosts" };

static void
close_window (TprofWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static int
minimum_width (GtkWidget *widget)
{
  int minimum = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  return minimum;
}

/* Lets a size request change after a setting: two frames painted. */
static void
settle (TprofWindow *window)
{
  g_autofree char *png = g_build_filename (fixture_dir, "settle.png", NULL);

  app_test_gui_wait_idle (window);
  app_test_gui_render_png (window, png);
}

/* A synthetic training profile of tools/make-scenario.py: @kind on @ranks ranks. */
static char *
make_scenario (const char *kind,
               int         ranks)
{
  g_autofree char *name = g_strdup_printf ("%s-%d.h5", kind, ranks);
  char *path = g_build_filename (fixture_dir, name, NULL);
  g_autofree char *ranks_text = g_strdup_printf ("%d", ranks);
  const char *argv[] = { PYTHON3, SCENARIO_SCRIPT, kind, path, "--ranks", ranks_text, "--steps", "40", NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, &error))
    g_error ("could not run %s: %s", SCENARIO_SCRIPT, error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

/* The selected row's operation (owned by the table). */
static TprofOperation *
selected_operation (TprofWindow *window)
{
  GListModel *model = _tprof_operation_table_get_model (window->table);
  int index = _tprof_operation_table_get_selected_index (window->table);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) op = g_list_model_get_item (model, i);

      if ((int) _tprof_operation_get_index (op) == index)
        return op;
    }
  g_assert_not_reached ();
}

/* Selects the operation called @name; FALSE when there is none. */
static gboolean
select_named (TprofWindow *window,
              const char  *name)
{
  GListModel *model = _tprof_operation_table_get_model (window->table);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) op = g_list_model_get_item (model, i);

      if (g_str_equal (_tprof_operation_get_name (op), name))
        {
          _tprof_operation_table_select_index (window->table, (int) _tprof_operation_get_index (op));
          return TRUE;
        }
    }
  return FALSE;
}

static const char *
selected_name (TprofWindow *window)
{
  return _tprof_charts_panel_get_title (window->charts);
}

/* Whether the rank filter selects exactly ranks @lo .. @hi. */
static gboolean
selects_exactly (TprofWindow *window,
                 int          lo,
                 int          hi)
{
  const guint8 *mask = window->mask != NULL ? g_bytes_get_data (window->mask, NULL) : NULL;
  gsize n = window->mask != NULL ? g_bytes_get_size (window->mask) : 0;

  if (mask == NULL)
    return FALSE;
  for (gsize r = 0; r < n; r++)
    if (!mask[r] != !((int) r >= lo && (int) r <= hi))
      return FALSE;
  return _tprof_rank_filter_get_n_selected (window->rank_filter) == (guint) (hi - lo + 1);
}

/* The bar's text for a host, in the session's language: @text starts
 * with the host's name, ranks and late count and ends as the format does
 * (the wait, computed by the engine, is not compared). */
static void
assert_host_text (const char *text,
                  const char *host,
                  const char *ranks,
                  guint64     late,
                  guint64     occurrences)
{
  g_autofree char *expected = g_strdup_printf (_("Straggler: host %s (ranks %s), last to arrive %" PRIu64 " of %"
                                                 PRIu64 " times, keeping the other ranks waiting %s in all."),
                                               host, ranks, late, occurrences, "\x01");
  char *cut = strchr (expected, '\x01');

  *cut = '\0';
  g_assert_true (g_str_has_prefix (text, expected));
  g_assert_true (g_str_has_suffix (text, cut + 1));
  g_assert_cmpuint (strlen (text), >, strlen (expected) + strlen (cut + 1));
}

/* The per-rank chart marks ranks @lo .. @hi as slow, and no other, and
 * the slowest of them is its slowest. */
static void
assert_marked_ranks (TprofWindow *window,
                     int          lo,
                     int          hi)
{
  TprofRankChart *chart = _tprof_charts_panel_get_rank_chart (window->charts);
  gsize n = 0;
  int32_t slowest = -1;
  g_autofree int32_t *marked = _tprof_rank_chart_get_marked_ranks (chart, &n, &slowest);

  g_assert_cmpuint (n, ==, (guint) (hi - lo + 1));
  for (gsize i = 0; i < n; i++)
    g_assert_cmpint (marked[i], ==, lo + (int) i);
  g_assert_cmpint (slowest, >=, lo);
  g_assert_cmpint (slowest, <=, hi);
}

/* The slow-node scenario slows the 8 ranks of its middle host (node064 of
 * 128, ranks 512-519), which arrive last at every step's allreduce: the
 * bar names that host, not one of its ranks, and its button shows those
 * 8 ranks alone, then all again. One slow rank is still named as a rank. */
static void
test_fit_straggler_host (void)
{
  g_autofree char *node = make_scenario ("slow-node", 1024);
  g_autofree char *rank = make_scenario ("straggler", 16);
  g_autofree char *show_host = g_strdup_printf (_("Show %s"), "node064");
  g_autofree char *show_rank = g_strdup_printf (_("Show Rank %d"), 1);
  g_autofree char *rank_1 = g_strdup_printf (_("rank %d"), 1);
  g_autofree char *host_format = g_strdup (_("Straggler: host %s (ranks %s), last to arrive %" PRIu64 " of %"
                                             PRIu64 " times, keeping the other ranks waiting %s in all."));
  TprofWindow *window = app_test_gui_new_window (app);
  const char *text = NULL;
  int named;

  app_test_gui_open (window, node);
  named = _tprof_window_get_straggler (window, &text);
  /* the rank it opens on lies in the host */
  g_assert_cmpint (named, >=, 512);
  g_assert_cmpint (named, <=, 519);
  assert_host_text (text, "node064", "512-519", 40, 40);
  /* the chart tells the same story: it marks the host's 8 ranks (the
   * named one among them), each 30 % slower than the rest, and no other */
  assert_marked_ranks (window, 512, 519);
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, show_host);
  g_signal_emit_by_name (window->straggler_button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_true (selects_exactly (window, 512, 519));
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, _("Show All Ranks"));
  g_signal_emit_by_name (window->straggler_button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, 1024);
  g_assert_null (window->mask);
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, show_host);
  /* one rank of the host alone is not the host alone */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "512", NULL));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, show_host);

  app_test_gui_open (window, rank);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 1);
  assert_marked_ranks (window, 1, 1);
  /* named as the rank, not as its host */
  *strstr (host_format, "%s") = '\0';
  g_assert_false (g_str_has_prefix (text, host_format));
  g_assert_nonnull (strstr (text, rank_1));
  g_assert_cmpstr (gtk_button_get_label (window->straggler_button), ==, show_rank);
  g_signal_emit_by_name (window->straggler_button, "clicked");
  app_test_gui_wait_idle (window);
  g_assert_true (selects_exactly (window, 1, 1));
  close_window (window);
}

/* The first view agrees with the straggler bar: rank 1 computes 50 %
 * slower, so the window opens on backward (where it loses most time,
 * 2 x forward's), the table and the chart call rank 1 the slowest, and
 * step, which every rank ends together, names no slowest rank. Without
 * a straggler nothing is called slowest. */
static void
test_fit_first_view (void)
{
  g_autofree char *straggler = make_scenario ("straggler", 16);
  g_autofree char *none = make_scenario ("none", 16);
  TprofWindow *window = app_test_gui_new_window (app);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *step_cell = NULL;
  const char *text = NULL;

  app_test_gui_open (window, straggler);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 1);
  g_assert_cmpstr (selected_name (window), ==, "backward");
  g_assert_cmpint (_tprof_operation_get_summary (selected_operation (window))->slowest_rank, ==, 1);
  g_assert_true (_tprof_operation_get_summary (selected_operation (window))->slowest_stands_out);

  /* a rank filter, even one without rank 1, leaves the first view on
   * backward: where rank 1 stands out is a matter of every rank */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "2-7", NULL));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (selected_name (window), ==, "backward");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-", NULL));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (selected_name (window), ==, "backward");

  /* the user's choice stays when the table is recomputed */
  _tprof_operation_table_select_index (window->table, 0);
  g_assert_cmpstr (selected_name (window), ==, "step");
  step_cell = _tprof_operation_table_format_cell ("slowest-rank", selected_operation (window));
  g_assert_cmpstr (step_cell, ==, "—");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-7", NULL));
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (selected_name (window), ==, "step");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-", NULL));
  app_test_gui_wait_idle (window);

  /* no straggler: the first row, and no rank called slowest anywhere */
  app_test_gui_open (window, none);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, -1);
  for (guint i = 0; i < 5; i++)
    {
      _tprof_operation_table_select_index (window->table, (int) i);
      g_assert_false (_tprof_operation_get_summary (selected_operation (window))->slowest_stands_out);
    }
  close_window (window);
}

/* Over Time filtered to a few of 64 ranks keeps only their rows: each
 * fills its share of the plot, at least 3 px, and is labelled and
 * clicked by its own rank, not its row. */
static void
test_fit_heatmap_rows (void)
{
  g_autofree char *path = make_scenario ("slow-node", 64);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = _tprof_window_new (app);
  TprofHeatmapView *view = _tprof_charts_panel_get_heatmap (window->charts);
  g_autofree char *csv = NULL;
  TprofPlotArea area;
  guint rows, cols;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  app_test_gui_open (window, path);
  g_settings_set_string (settings, "rank-metric", "time");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "5,40", NULL));
  settle (window);
  g_assert_nonnull (_tprof_heatmap_view_get_cells (view, &rows, &cols));
  g_assert_cmpuint (rows, ==, 2);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_test_message ("2 rows of %.0f px", area.height / rows);
  g_assert_cmpfloat (area.height / rows, >=, 3.0);
  g_assert_cmpfloat (area.height, >=, 100.0);
  csv = _tprof_chart_to_csv (TPROF_CHART (view), NULL);
  g_assert_true (g_str_has_prefix (csv, "rank,first,last,duration\n5,0,0,"));
  g_assert_nonnull (strstr (csv, "\n40,0,0,"));
  g_assert_null (strstr (csv, "\n6,"));

  /* one rank, as Show Rank N leaves it */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "40", NULL));
  settle (window);
  g_assert_nonnull (_tprof_heatmap_view_get_cells (view, &rows, &cols));
  g_assert_cmpuint (rows, ==, 1);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_assert_cmpfloat (area.height, >=, 100.0);
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* In every chart mode, at 1000 x 700, the window needs at most 1000 px
 * (in German too, when run so), keeps its width when the mode changes,
 * and the mode buttons stay where they were under the pointer. */
static void
test_fit_width (void)
{
  g_autofree char *path = make_scenario ("straggler", 16);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = _tprof_window_new (app);
  GtkWidget *modes_box = _tprof_charts_panel_get_mode_buttons (window->charts);
  graphene_point_t first_place = { 0 };
  int first_width = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  app_test_gui_open (window, path);
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      graphene_point_t place;

      g_settings_set_string (settings, "rank-metric", modes[m]);
      settle (window);
      g_test_message ("%s: at least %d px, %d px wide", modes[m], minimum_width (GTK_WIDGET (window)),
                      gtk_widget_get_width (GTK_WIDGET (window)));
      g_assert_cmpint (minimum_width (GTK_WIDGET (window)), <=, 1000);
      g_assert_true (gtk_widget_compute_point (modes_box, GTK_WIDGET (window), &GRAPHENE_POINT_INIT (0, 0), &place));
      if (m == 0)
        {
          first_width = gtk_widget_get_width (GTK_WIDGET (window));
          first_place = place;
        }
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, first_width);
      g_assert_cmpfloat (place.x, ==, first_place.x);
      g_assert_cmpfloat (place.y, ==, first_place.y);
    }
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* The Breakdown of an operation with nothing inside says so in lines
 * that fit the chart's width, at 1000 px. */
static void
test_fit_wrapped_message (void)
{
  g_autofree char *path = make_scenario ("straggler", 16);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = _tprof_window_new (app);
  TprofChart *chart = TPROF_CHART (_tprof_charts_panel_get_breakdown (window->charts));
  g_autoptr(PangoLayout) layout = NULL;
  int width = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  app_test_gui_open (window, path);
  g_settings_set_string (settings, "rank-metric", "breakdown");
  g_assert_true (select_named (window, "forward"));
  settle (window);
  layout = _tprof_chart_create_message_layout (chart);
  g_assert_nonnull (layout);
  g_assert_nonnull (strstr (pango_layout_get_text (layout), "forward"));
  pango_layout_get_pixel_size (layout, &width, NULL);
  g_test_message ("%d lines, %d px of %d", pango_layout_get_line_count (layout), width,
                  gtk_widget_get_width (GTK_WIDGET (chart)));
  g_assert_cmpint (pango_layout_get_line_count (layout), >, 1);
  g_assert_cmpint (width, <=, gtk_widget_get_width (GTK_WIDGET (chart)));
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* A file cut short says so, with both sizes and the likely cause; opened
 * with Open from a window showing a profile, it leaves no empty window
 * behind, its reason shown in the window it was opened from. */
static void
test_fit_truncated (void)
{
  g_autofree char *path = make_scenario ("straggler", 16);
  g_autofree char *cut = g_build_filename (fixture_dir, "cut.h5", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GFile) cut_file = g_file_new_for_path (cut);
  TprofWindow *window = app_test_gui_new_window (app);
  guint n_windows;
  gsize length = 0;
  const char *message;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (cut, contents, length / 3, NULL));
  app_test_gui_open (window, path);
  n_windows = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));

  _tprof_window_open_files (window, &cut_file, 1);
  while (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))) > n_windows
         || _tprof_window_get_error (window) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n_windows);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  message = _tprof_window_get_error (window);
  g_test_message ("%s", message);
  {
    /* the window's words in the language the test runs in */
    g_autofree char *prefix = g_strdup_printf (_("Could not open %s: %s"), "cut.h5", "");

    g_assert_true (g_str_has_prefix (message, prefix));
  }
  g_assert_nonnull (strstr (message, "the file is truncated"));
  g_assert_nonnull (strstr (message, " KiB of the "));
  g_assert_nonnull (strstr (message, "interrupted"));
  if (g_getenv ("TPROF_TEST_SHOTS_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("TPROF_TEST_SHOTS_DIR"), "truncated.png", NULL);

      app_test_gui_render_png (window, png);
    }
  close_window (window);
}

/* Export Table writes tprof summary --format csv's columns, and the same
 * numbers in them, then the time lost to imbalance. */
static void
test_fit_table_csv (void)
{
  g_autofree char *path = make_scenario ("straggler", 16);
  g_autofree char *csv_path = g_build_filename (fixture_dir, "table.csv", NULL);
  const char *argv[] = { TPROF_CLI, "summary", "--format", "csv", path, NULL };
  g_autofree char *cli = NULL;
  g_autofree char *viewer = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) cli_lines = NULL;
  g_auto(GStrv) viewer_lines = NULL;
  TprofWindow *window = app_test_gui_new_window (app);
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &cli, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  app_test_gui_open (window, path);
  g_assert_true (_tprof_operation_table_sort_by (window->table, "name", GTK_SORT_ASCENDING));
  g_assert_true (_tprof_window_export_table (window, csv_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &viewer, NULL, NULL));

  cli_lines = g_strsplit (cli, "\n", -1);
  viewer_lines = g_strsplit (viewer, "\n", -1);
  g_assert_cmpstr (viewer_lines[0], ==, "name,count,rank_count,sum,mean,std,min,max,median,p95,p99,imbalance,"
                                        "slowest_rank,parent,self_sum,sampled,stored,imbalance_time");
  g_assert_true (g_str_has_prefix (viewer_lines[0], cli_lines[0]));
  /* the CLI lists file order, the table by name: match rows by name */
  for (guint i = 1; cli_lines[i] != NULL && cli_lines[i][0] != '\0'; i++)
    {
      gboolean found = FALSE;

      for (guint j = 1; viewer_lines[j] != NULL && !found; j++)
        if (g_str_has_prefix (viewer_lines[j], cli_lines[i]) && viewer_lines[j][strlen (cli_lines[i])] == ',')
          found = TRUE;
      if (!found)
        g_error ("no viewer row starts with the CLI's %s", cli_lines[i]);
    }
  close_window (window);
}

/* The rows @view shows, top to bottom, as their bounds in @window, and
 * whether each is selected into @selected. */
static GArray *
row_bounds (GtkWidget   *view,
            TprofWindow *window,
            GArray      *selected)
{
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));

  for (GtkWidget *list = gtk_widget_get_first_child (view); list != NULL; list = gtk_widget_get_next_sibling (list))
    {
      if (!g_str_equal (gtk_widget_get_css_name (list), "listview"))
        continue;
      for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
        {
          graphene_rect_t rect;

          if (g_str_equal (gtk_widget_get_css_name (row), "row") && gtk_widget_get_child_visible (row)
              && gtk_widget_compute_bounds (row, GTK_WIDGET (window), &rect))
            {
              gboolean is_selected = (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) != 0;

              g_array_append_val (bounds, rect);
              g_array_append_val (selected, is_selected);
            }
        }
    }
  return bounds;
}

/* The two halves of the table show each row at the same height, side by side. */
static void
assert_rows_side_by_side (TprofWindow *window)
{
  g_autoptr(GArray) name_selected = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GArray) stats_selected = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GArray) names = row_bounds (_tprof_operation_table_get_view (window->table), window, name_selected);
  g_autoptr(GArray) stats = row_bounds (_tprof_operation_table_get_stats_view (window->table), window, stats_selected);
  guint n_selected = 0;

  g_assert_cmpuint (names->len, >, 0);
  g_assert_cmpuint (names->len, ==, stats->len);
  for (guint i = 0; i < names->len; i++)
    {
      graphene_rect_t *a = &g_array_index (names, graphene_rect_t, i);
      graphene_rect_t *b = &g_array_index (stats, graphene_rect_t, i);

      if (i == 0)
        g_test_message ("rows of %.0f px", a->size.height);
      g_assert_cmpfloat (a->origin.y, ==, b->origin.y);
      g_assert_cmpfloat (a->size.height, ==, b->size.height);
      g_assert_cmpint (g_array_index (name_selected, gboolean, i), ==, g_array_index (stats_selected, gboolean, i));
      n_selected += g_array_index (name_selected, gboolean, i);
    }
  /* the profile's rows all show: the one selected, in both halves */
  g_assert_cmpuint (n_selected, ==, 1);
  /* the statistics scroll beside the names, not over them */
  {
    graphene_rect_t name_view, stats_window;

    g_assert_true (gtk_widget_compute_bounds (_tprof_operation_table_get_view (window->table), GTK_WIDGET (window),
                                              &name_view));
    g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (_tprof_operation_table_get_stats_view (window->table)),
                                              GTK_WIDGET (window), &stats_window));
    g_assert_cmpfloat (name_view.origin.x + name_view.size.width, <=, stats_window.origin.x);
  }
}

/* Whether a header of @view shows a sort arrow (GTK 4.8 tells no column
 * view's sort column: its header's indicator does). */
static gboolean
sort_arrow_shows (GtkWidget *widget)
{
  if (g_str_equal (gtk_widget_get_css_name (widget), "sort-indicator"))
    return gtk_widget_has_css_class (widget, "ascending") || gtk_widget_has_css_class (widget, "descending");
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (!g_str_equal (gtk_widget_get_css_name (child), "listview") && sort_arrow_shows (child))
      return TRUE;
  return FALSE;
}

/* The rows under step, the tree's one top row, are in name order. */
static void
assert_sorted_by_name (GListModel *model)
{
  for (guint i = 2; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) a = g_list_model_get_item (model, i - 1);
      g_autoptr(TprofOperation) b = g_list_model_get_item (model, i);

      g_assert_cmpint (strcmp (_tprof_operation_get_name (a), _tprof_operation_get_name (b)), <, 0);
    }
}

/* The label @text in @widget or below it, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Where the Name column's header title lies in the window; it lies
 * within the table. */
static graphene_point_t
name_place (TprofWindow *window)
{
  GtkWidget *title = find_label (GTK_WIDGET (window->table), _("Name"));
  graphene_point_t place = { 0 }, table = { 0 };

  g_assert_nonnull (title);
  g_assert_true (gtk_widget_compute_point (title, GTK_WIDGET (window), &GRAPHENE_POINT_INIT (0, 0), &place));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (window->table), GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (0, 0), &table));
  g_assert_cmpfloat (place.x, >=, table.x);
  return place;
}

/* The statistics half's sideways adjustment. */
static GtkAdjustment *
stats_hadjustment (TprofWindow *window)
{
  return gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (_tprof_operation_table_get_stats_view (window->table)));
}

/* At 1000 x 700 (in German too, when run so) the statistics do not fit
 * beside the names: scrolled sideways to their end, Name stays where it
 * was, in full, and the rows stay side by side; scrolled down, both
 * halves follow; a click on either half's header sorts the one order,
 * and the selection is the same row in both. */
static void
test_fit_name_pinned (void)
{
  g_autofree char *path = make_scenario ("straggler", 16);
  TprofWindow *window = _tprof_window_new (app);
  GtkAdjustment *h = NULL;
  graphene_point_t before, after;
  GListModel *model;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  app_test_gui_open (window, path);
  settle (window);
  h = stats_hadjustment (window);
  g_test_message ("statistics %.0f px wide in %.0f px", gtk_adjustment_get_upper (h), gtk_adjustment_get_page_size (h));
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), >, gtk_adjustment_get_page_size (h) + 50);
  before = name_place (window);
  assert_rows_side_by_side (window);

  gtk_adjustment_set_value (h, gtk_adjustment_get_upper (h) - gtk_adjustment_get_page_size (h));
  settle (window);
  g_assert_cmpfloat (gtk_adjustment_get_value (h), >, 50);
  after = name_place (window);
  g_assert_cmpfloat (after.x, ==, before.x);
  g_assert_cmpfloat (after.y, ==, before.y);
  /* Name shows whole: its half is no narrower than at first */
  g_assert_cmpint (gtk_widget_get_width (_tprof_operation_table_get_view (window->table)), >=, 100);
  assert_rows_side_by_side (window);

  /* one order, whichever half's header is clicked: by name, then by sum
   * (largest first), each under step, the tree's one top row */
  model = _tprof_operation_table_get_model (window->table);
  g_assert_true (_tprof_operation_table_sort_by (window->table, "name", GTK_SORT_ASCENDING));
  settle (window);
  g_assert_true (sort_arrow_shows (_tprof_operation_table_get_view (window->table)));
  g_assert_false (sort_arrow_shows (_tprof_operation_table_get_stats_view (window->table)));
  assert_sorted_by_name (model);
  assert_rows_side_by_side (window);
  /* a statistic hidden (here Count) leaves the order by name */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_auto(GStrv) shown = g_settings_get_strv (settings, "table-columns");
    g_autoptr(GStrvBuilder) fewer = g_strv_builder_new ();
    g_auto(GStrv) ids = NULL;

    for (guint i = 0; shown[i] != NULL; i++)
      if (!g_str_equal (shown[i], "count"))
        g_strv_builder_add (fewer, shown[i]);
    ids = g_strv_builder_end (fewer);
    g_settings_set_strv (settings, "table-columns", (const char *const *) ids);
    settle (window);
    g_assert_false (_tprof_operation_table_get_column_visible (window->table, "count"));
    g_assert_true (sort_arrow_shows (_tprof_operation_table_get_view (window->table)));
    assert_sorted_by_name (model);
    g_settings_reset (settings, "table-columns");
    settle (window);
  }
  g_assert_true (_tprof_operation_table_sort_by (window->table, "sum", GTK_SORT_DESCENDING));
  settle (window);
  g_assert_false (sort_arrow_shows (_tprof_operation_table_get_view (window->table)));
  g_assert_true (sort_arrow_shows (_tprof_operation_table_get_stats_view (window->table)));
  {
    g_autoptr(TprofOperation) top = g_list_model_get_item (model, 0);
    g_autoptr(TprofOperation) first = g_list_model_get_item (model, 1);

    g_assert_cmpstr (_tprof_operation_get_name (top), ==, "step");
    g_assert_cmpstr (_tprof_operation_get_name (first), ==, "backward");
  }
  for (guint i = 2; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) a = g_list_model_get_item (model, i - 1);
      g_autoptr(TprofOperation) b = g_list_model_get_item (model, i);

      g_assert_cmpfloat (_tprof_operation_get_summary (a)->sum, >=, _tprof_operation_get_summary (b)->sum);
    }
  /* the selection is one row, the same in both halves, after each sort */
  g_assert_true (select_named (window, "forward"));
  settle (window);
  assert_rows_side_by_side (window);
  close_window (window);
}

/* Shots of @path at 1000x700 and 1200x800 in every mode into
 * $TPROF_TEST_SHOTS_DIR, named PREFIX-WIDTH-MODE.png; for looking at. */
static void
shoot_modes (const char *path,
             const char *prefix)
{
  static const int sizes[][2] = { { 1000, 700 }, { 1200, 800 } };
  const char *dir = g_getenv ("TPROF_TEST_SHOTS_DIR");
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      TprofWindow *window = _tprof_window_new (app);

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
      gtk_window_present (GTK_WINDOW (window));
      app_test_gui_open (window, path);
      /* TPROF_TEST_SHOTS_FILTER: a rank expression applied first */
      if (g_getenv ("TPROF_TEST_SHOTS_FILTER") != NULL)
        g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter,
                                                            g_getenv ("TPROF_TEST_SHOTS_FILTER"), NULL));
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          g_autofree char *name = g_strdup_printf ("%s-%d-%s.png", prefix, sizes[s][0], modes[m]);
          g_autofree char *png = g_build_filename (dir, name, NULL);

          g_settings_set_string (settings, "rank-metric", modes[m]);
          settle (window);
          app_test_gui_render_png (window, png);
          g_test_message ("%s: %d px wide, at least %d (ranks %d, table %d, charts %d)", png,
                          gtk_widget_get_width (GTK_WIDGET (window)), minimum_width (GTK_WIDGET (window)),
                          minimum_width (GTK_WIDGET (window->rank_filter)), minimum_width (GTK_WIDGET (window->table)),
                          minimum_width (GTK_WIDGET (window->charts)));
        }
      /* the table scrolled sideways to its end: Name stays */
      {
        g_autofree char *name = g_strdup_printf ("%s-%d-scrolled.png", prefix, sizes[s][0]);
        g_autofree char *png = g_build_filename (dir, name, NULL);
        GtkAdjustment *h = stats_hadjustment (window);

        g_settings_set_string (settings, "rank-metric", "total");
        gtk_adjustment_set_value (h, gtk_adjustment_get_upper (h));
        settle (window);
        app_test_gui_render_png (window, png);
      }
      g_settings_reset (settings, "rank-metric");
      close_window (window);
    }
}

/* TPROF_TEST_SHOTS_DIR=DIR TPROF_TEST_SHOTS=A.h5:B.h5 shoots each profile's
 * every mode into DIR; skipped otherwise. */
static void
test_fit_shots (void)
{
  const char *dir = g_getenv ("TPROF_TEST_SHOTS_DIR");
  const char *list = g_getenv ("TPROF_TEST_SHOTS");
  g_auto(GStrv) paths = NULL;

  if (dir == NULL || list == NULL)
    {
      g_test_skip ("TPROF_TEST_SHOTS_DIR and TPROF_TEST_SHOTS not set");
      return;
    }
  paths = g_strsplit (list, ":", -1);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (paths[i]);
      char *dot = strrchr (base, '.');

      if (dot != NULL)
        *dot = '\0';
      shoot_modes (paths[i], base);
    }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  app_test_gui_bind_locale ();
  if (g_strcmp0 (g_getenv ("TPROF_TEST_DARK"), "1") == 0)
    g_setenv ("GTK_THEME", "Adwaita:dark", TRUE);

  app = app_test_gui_start ();
  fixture_dir = app_test_make_dir ();

  g_test_add_func ("/app/fit/first-view", test_fit_first_view);
  g_test_add_func ("/app/fit/straggler-host", test_fit_straggler_host);
  g_test_add_func ("/app/fit/heatmap-rows", test_fit_heatmap_rows);
  g_test_add_func ("/app/fit/width", test_fit_width);
  g_test_add_func ("/app/fit/wrapped-message", test_fit_wrapped_message);
  g_test_add_func ("/app/fit/truncated", test_fit_truncated);
  g_test_add_func ("/app/fit/table-csv", test_fit_table_csv);
  g_test_add_func ("/app/fit/name-pinned", test_fit_name_pinned);
  g_test_add_func ("/app/fit/shots", test_fit_shots);

  ret = g_test_run ();

  app_test_remove_dir (fixture_dir);
  g_free (fixture_dir);
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return ret;
}
