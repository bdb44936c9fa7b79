/* test-hosts.c — tprof-viewer by host under Xvfb: Over Time's rows gathered by host when ranks outnumber pixels, and the rank list grouped under hosts. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "app-test-gui.h"
#include "app-test-util.h"
#include "tprof-heatmap-view.h"

static TprofApplication *app;
static char *fixture_dir;

static void
close_window (TprofWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Two frames painted, so that a chart has drawn at its size. */
static void
settle (TprofWindow *window)
{
  g_autofree char *png = g_build_filename (fixture_dir, "settle.png", NULL);

  app_test_gui_wait_idle (window);
  app_test_gui_render_png (window, png);
  app_test_gui_render_png (window, png);
}

/* tools/make-scenario.py's @kind on @ranks ranks (hosts of 8). */
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

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, &error))
    g_error ("could not run %s: %s", SCENARIO_SCRIPT, error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

static TprofWindow *
open_sized (const char *path,
            int         width,
            int         height)
{
  TprofWindow *window = _tprof_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  app_test_gui_open (window, path);
  return window;
}

/* The median of a row's finite cells. */
static double
row_median (const double *cells,
            guint         n_cols)
{
  g_autofree double *v = g_new (double, n_cols);
  guint n = 0;

  for (guint j = 0; j < n_cols; j++)
    if (isfinite (cells[j]))
      v[n++] = cells[j];
  g_assert_cmpuint (n, >, 0);
  for (guint i = 1; i < n; i++)
    for (guint k = i; k > 0 && v[k - 1] > v[k]; k--)
      {
        double t = v[k];

        v[k] = v[k - 1];
        v[k - 1] = t;
      }
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Whether the row named @label covers host node@number ("node064",
 * "node064–065", "node063–064"). */
static gboolean
label_covers (const char *label,
              int         number)
{
  const char *dash = strstr (label, "–");
  int lo, hi;

  g_assert_true (g_str_has_prefix (label, "node"));
  lo = atoi (label + 4);
  hi = dash != NULL ? atoi (dash + strlen ("–")) : lo;
  return lo <= number && number <= hi;
}

/* Over Time on 1024 ranks (128 hosts of 8) at 1000 x 700: fewer rows of
 * 3 px fit than ranks, so the rows are hosts, each 3 px high at least,
 * named on the axis from node000 up, and node064's row (its ranks 30 %
 * slower) is the slowest band. Filtered to node064's 8 ranks, the rows
 * are ranks again and fill the plot; one rank alone fills it too. */
static void
test_hosts_heatmap_rows (void)
{
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1000, 700);
  TprofHeatmapView *view = _tprof_charts_panel_get_heatmap (window->charts);
  TprofPlotArea area;
  const char *const *labels;
  guint rows, cols, n_cells, band = G_MAXUINT;
  const double *cells;
  double slowest = -INFINITY;

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-", NULL));
  g_settings_set_string (settings, "rank-metric", "time");
  settle (window);
  labels = _tprof_heatmap_view_get_row_labels (view, &rows);
  g_assert_nonnull (labels);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_test_message ("%u rows of hosts in %.0f px", rows, area.height);
  g_assert_cmpuint (rows, <=, 128);
  g_assert_cmpuint (rows, >=, 20);
  g_assert_cmpfloat (area.height / rows, >=, 3.0);
  g_assert_true (label_covers (labels[0], 0));
  g_assert_true (label_covers (labels[rows - 1], 127));
  /* the slowest band is node064's */
  g_assert_nonnull (_tprof_heatmap_view_get_cells (view, &n_cells, &cols));
  g_assert_cmpuint (n_cells, ==, 1024);
  {
    g_autofree char *csv = _tprof_chart_to_csv (TPROF_CHART (view), NULL);
    g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
    g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

    g_assert_true (g_str_has_prefix (csv, "host,first,last,duration\n"));
    /* a row's cells: the CSV's lines of that host label */
    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto(GStrv) fields = g_strsplit (lines[i], ",", -1);
        double *sum = g_hash_table_lookup (sums, fields[0]);

        if (sum == NULL)
          {
            sum = g_new0 (double, 2);
            g_hash_table_insert (sums, g_strdup (fields[0]), sum);
          }
        sum[0] += g_ascii_strtod (fields[3], NULL);
        sum[1] += 1;
      }
    g_assert_cmpuint (g_hash_table_size (sums), ==, rows);
    for (guint r = 0; r < rows; r++)
      {
        double *sum = g_hash_table_lookup (sums, labels[r]);

        g_assert_nonnull (sum);
        if (sum[0] / sum[1] > slowest)
          {
            slowest = sum[0] / sum[1];
            band = r;
          }
      }
  }
  g_assert_true (label_covers (labels[band], 64));

  /* node064 alone: its 8 ranks are the rows */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "node064", NULL));
  settle (window);
  g_assert_null (_tprof_heatmap_view_get_row_labels (view, &rows));
  cells = _tprof_heatmap_view_get_cells (view, &rows, &cols);
  g_assert_nonnull (cells);
  g_assert_cmpuint (rows, ==, 8);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_assert_cmpfloat (area.height / rows, >=, 10.0);
  g_assert_cmpfloat (row_median (cells, cols), >, 0);

  /* one rank fills the plot */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "512", NULL));
  settle (window);
  g_assert_nonnull (_tprof_heatmap_view_get_cells (view, &rows, &cols));
  g_assert_cmpuint (rows, ==, 1);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_assert_cmpfloat (area.height, >=, 100.0);
  g_settings_reset (settings, "rank-metric");
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

  g_test_add_func ("/app/hosts/heatmap-rows", test_hosts_heatmap_rows);

  ret = g_test_run ();

  app_test_remove_dir (fixture_dir);
  g_free (fixture_dir);
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return ret;
}
