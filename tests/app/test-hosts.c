/* test-hosts.c — tprof-viewer by host under Xvfb: Over Time's rows and Total/Mean's bars gathered by host when ranks outnumber pixels, a host clicked, and the rank list grouped under hosts. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "app-test-gui.h"
#include "app-test-util.h"
#include "tprof-heatmap-view.h"
#include "tprof-host-item.h"
#include "tprof-hosts-view.h"
#include "tprof-rank-chart.h"
#include "tprof-rank-item.h"

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
make_scenario_steps (const char *kind,
                     int         ranks,
                     int         steps)
{
  g_autofree char *name = g_strdup_printf ("%s-%d-%d.h5", kind, ranks, steps);
  char *path = g_build_filename (fixture_dir, name, NULL);
  g_autofree char *ranks_text = g_strdup_printf ("%d", ranks);
  g_autofree char *steps_text = g_strdup_printf ("%d", steps);
  const char *argv[] = { PYTHON3, SCENARIO_SCRIPT, kind, path, "--ranks", ranks_text, "--steps", steps_text, NULL };
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

static char *
make_scenario (const char *kind,
               int         ranks)
{
  return make_scenario_steps (kind, ranks, 40);
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

/* The rank list's rows (a GtkTreeListModel of hosts, their ranks below). */
static GListModel *
list_rows (TprofWindow *window)
{
  GtkListView *list = GTK_LIST_VIEW (_tprof_rank_filter_get_list (window->rank_filter));

  return gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_list_view_get_model (list)));
}

/* The item of row @i (a TprofHostItem or TprofRankItem; owned by the row). */
static GObject *
row_item (TprofWindow *window,
          guint        i)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (list_rows (window), i);
  g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

  return item;
}

/* Whether the rank filter selects exactly the ranks listed by @expected. */
static gboolean
selects (TprofWindow  *window,
         const char   *expected)
{
  g_autoptr(GArray) ranks = NULL;
  g_autofree guint8 *want = g_new0 (guint8, 1024);
  const guint8 *mask = window->mask != NULL ? g_bytes_get_data (window->mask, NULL) : NULL;

  g_assert_true (tprof_rank_expr_parse (expected, 1024, &ranks, NULL));
  for (guint i = 0; i < ranks->len; i++)
    want[g_array_index (ranks, gint32, i)] = 1;
  for (guint r = 0; r < 1024; r++)
    if (!(mask != NULL ? mask[r] : 1) != !want[r])
      return FALSE;
  return _tprof_rank_filter_get_n_selected (window->rank_filter) == ranks->len;
}

/* The first check button at or under @widget whose label starts with @prefix. */
static GtkCheckButton *
find_check (GtkWidget  *widget,
            const char *prefix)
{
  if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)) != NULL
      && g_str_has_prefix (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)), prefix))
    return GTK_CHECK_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkCheckButton *check = find_check (child, prefix);

      if (check != NULL)
        return check;
    }
  return NULL;
}

/* A click released at (@x, @y) of @chart, as the pointer gives it. */
static void
click_chart (gpointer chart,
             double   x,
             double   y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (chart));
  guint clicked = 0;

  for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, c);

      if (GTK_IS_GESTURE_CLICK (controller))
        {
          g_signal_emit_by_name (controller, "released", 1, x, y);
          clicked++;
        }
    }
  g_assert_cmpuint (clicked, ==, 1);
}

/* The bar of @groups whose value is host @name's, or fails. */
static guint
bar_of (const TprofPlotRankGroups *groups,
        const char                *name)
{
  for (guint b = 0; b < groups->n_bars; b++)
    if (g_str_equal (groups->names[b], name))
      return b;
  g_assert_not_reached ();
}

/* How many pixels wide the highlight colour (the slowest bar's, #D55E00)
 * is on the window's pixel row @y between @x0 and @x1 (window pixels),
 * over blue bars (#0072B2), from a picture of the window as it is shown:
 * an antialiased edge pixel counts for the share of it the bar covers. */
static double
highlight_width (TprofWindow *window,
                 int          y,
                 int          x0,
                 int          x1)
{
  g_autofree char *png = g_build_filename (fixture_dir, "bars.png", NULL);
  cairo_surface_t *surface;
  const guint8 *row;
  double width = 0;

  app_test_gui_render_png (window, png);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  row = cairo_image_surface_get_data (surface) + (gsize) y * cairo_image_surface_get_stride (surface);
  for (int x = MAX (x0, 0); x <= x1 && x < cairo_image_surface_get_width (surface); x++)
    {
      guint32 px = ((const guint32 *) row)[x];
      int r = (px >> 16) & 0xff, b = px & 0xff;

      /* between the two colours: its share of orange, from its red */
      if (b <= 0xB2 + 4 && r <= 0xD5 + 4)
        width += CLAMP (r / (double) 0xD5, 0, 1);
    }
  cairo_surface_destroy (surface);
  return width;
}

/* Window pixel coordinates of chart point (@x, @y). */
static void
to_window (gpointer     chart,
           TprofWindow *window,
           double       x,
           double       y,
           int         *wx,
           int         *wy)
{
  graphene_point_t p = GRAPHENE_POINT_INIT ((float) x, (float) y), q;

  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (chart), GTK_WIDGET (window), &p, &q));
  *wx = (int) floor (q.x);
  *wy = (int) floor (q.y);
}

/* node064's ranks' total and samples, from the profile's cached per-rank
 * totals. */
static void
node064_totals (TprofWindow *window,
                TprofChart  *chart,
                double      *total,
                double      *count)
{
  const TprofOperationStats *stats = _tprof_profile_get_stats (window->profile, (gsize) _tprof_chart_get_op (chart));

  *total = *count = 0;
  for (int r = 512; r <= 519; r++)
    {
      *count += (double) stats->rank_count[r];
      *total += stats->rank_sum[r];
    }
}

/* Total and Mean on 1024 ranks (128 hosts of 8) at 1500 x 900: fewer bars
 * of 3 px fit than ranks, so each bar is a host, 3 px wide at least; the
 * tallest is node064's, with the total (or mean) of its 8 ranks, drawn
 * in the highlight colour 3 px wide at least on screen. */
static void
test_hosts_rank_bars (void)
{
  static const char *const metrics[] = { "total", "mean" };
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1500, 900);
  TprofRankChart *chart = _tprof_charts_panel_get_rank_chart (window->charts);

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-", NULL));
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      const TprofPlotRankGroups *groups;
      TprofPlotArea area;
      double total, count, slot, value;
      guint b;
      int x0, x1, y;

      g_settings_set_string (settings, "rank-metric", metrics[m]);
      settle (window);
      groups = _tprof_rank_chart_get_groups (chart);
      g_assert_nonnull (groups);
      g_assert_true (_tprof_chart_get_area (TPROF_CHART (chart), &area));
      g_test_message ("%s: %u bars in %.0f px", metrics[m], groups->n_bars, area.width);
      g_assert_cmpuint (groups->n_bars, ==, 128);
      slot = area.width / groups->n_bars;
      g_assert_cmpfloat (slot, >=, TPROF_PLOT_RANKS_MIN_BAR);
      g_assert_cmpstr (groups->title, ==, _("Host"));
      g_assert_cmpstr (groups->labels[0], ==, "node000");
      b = bar_of (groups, "node064");
      g_assert_cmpuint (b, ==, 64);
      g_assert_cmpstr (groups->labels[b], ==, "node064");
      g_assert_cmpuint (groups->bars[b].ranks_shown, ==, 8);
      node064_totals (window, TPROF_CHART (chart), &total, &count);
      value = m == 0 ? total : total / count;
      g_assert_cmpfloat (fabs ((m == 0 ? groups->summaries[b].sum : groups->summaries[b].mean) - value), <=,
                         1e-9 * value);
      for (guint i = 0; i < groups->n_bars; i++)
        if (i != b)
          g_assert_cmpfloat (m == 0 ? groups->summaries[i].sum : groups->summaries[i].mean, <, value);
      /* on screen: node064's bar in the highlight colour, 3 px wide at
       * least, near its foot (the picture may lie a few pixels off the
       * window's coordinates: its shadow) */
      to_window (chart, window, area.x + b * slot, area.y + area.height * 0.8, &x0, &y);
      to_window (chart, window, area.x + (b + 1) * slot, area.y + area.height * 0.8, &x1, &y);
      g_assert_cmpfloat (highlight_width (window, y, x0 - 8, x1 + 8), >=, 2.9);
    }
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* The button above the table that shows the straggler or goes back. */
static const char *
straggler_label (TprofWindow *window)
{
  return gtk_button_get_label (window->straggler_button);
}

/* From a filter of ranks 0-767: a click on node064's bar shows its 8
 * ranks; a click on rank 512's bar then shows it alone (filling the plot,
 * and Over Time's one row), a second click goes back to node064's ranks,
 * and the straggler button goes back to 0-767. On Over Time, a click on
 * node064's row of hosts shows its ranks too. */
static void
test_hosts_click_host (void)
{
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1500, 900);
  TprofRankChart *chart = _tprof_charts_panel_get_rank_chart (window->charts);
  TprofHeatmapView *view = _tprof_charts_panel_get_heatmap (window->charts);
  g_autofree char *show_host = g_strdup_printf (_("Show %s"), "node064");
  const TprofPlotRankGroups *groups;
  const TprofRankSummary *ranks;
  const char *const *labels;
  TprofPlotArea area;
  gsize n_ranks;
  guint b, rows, row = G_MAXUINT, cols;

  g_settings_set_string (settings, "rank-metric", "total");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-767", NULL));
  settle (window);
  groups = _tprof_rank_chart_get_groups (chart);
  g_assert_nonnull (groups);
  g_assert_cmpuint (groups->n_bars, ==, 96);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (chart), &area));
  b = bar_of (groups, "node064");
  click_chart (chart, area.x + (b + 0.5) * area.width / groups->n_bars, area.y + area.height - 2);
  g_assert_true (selects (window, "512-519"));

  /* 8 ranks: a bar each; rank 512's alone fills the plot */
  settle (window);
  g_assert_null (_tprof_rank_chart_get_groups (chart));
  ranks = _tprof_rank_chart_get_rank_summaries (chart, &n_ranks);
  g_assert_cmpuint (n_ranks, ==, 8);
  g_assert_cmpint (ranks[0].rank, ==, 512);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (chart), &area));
  click_chart (chart, area.x + 0.5 * area.width / 8, area.y + area.height - 2);
  g_assert_true (selects (window, "512"));
  g_settings_set_string (settings, "rank-metric", "time");
  settle (window);
  g_assert_nonnull (_tprof_heatmap_view_get_cells (view, &rows, &cols));
  g_assert_cmpuint (rows, ==, 1);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_assert_cmpfloat (area.height, >=, 200.0);
  g_settings_set_string (settings, "rank-metric", "total");
  settle (window);
  /* one bar, as wide as the plot */
  g_assert_null (_tprof_rank_chart_get_groups (chart));
  ranks = _tprof_rank_chart_get_rank_summaries (chart, &n_ranks);
  g_assert_cmpuint (n_ranks, ==, 1);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (chart), &area));
  g_assert_cmpfloat (area.width, >=, 300.0);
  g_assert_cmpint (_tprof_chart_hit (TPROF_CHART (chart), area.x + 1, area.y + area.height - 2), ==, 0);
  g_assert_cmpint (_tprof_chart_hit (TPROF_CHART (chart), area.x + area.width - 1, area.y + area.height - 2), ==, 0);
  click_chart (chart, area.x + area.width / 2, area.y + area.height - 2);
  g_assert_true (selects (window, "512-519"));

  /* the straggler's host is shown alone: the button goes back to 0-767 */
  g_assert_cmpstr (straggler_label (window), ==, _("Back to Previous Ranks"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (window->straggler_button)), "0-767"));
  g_signal_emit_by_name (window->straggler_button, "clicked");
  g_assert_true (selects (window, "0-767"));
  g_assert_cmpstr (straggler_label (window), ==, show_host);

  /* Over Time: node064's row of hosts shows its ranks, the button goes back */
  g_settings_set_string (settings, "rank-metric", "time");
  settle (window);
  labels = _tprof_heatmap_view_get_row_labels (view, &rows);
  g_assert_nonnull (labels);
  for (guint r = 0; r < rows; r++)
    if (g_str_equal (labels[r], "node064"))
      row = r;
  g_assert_cmpuint (row, !=, G_MAXUINT);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_assert_cmpfloat (area.height / rows, >=, 3.0);
  /* rows go bottom up */
  click_chart (view, area.x + area.width / 2, area.y + (rows - 1 - row + 0.5) * area.height / rows);
  g_assert_true (selects (window, "512-519"));
  g_signal_emit_by_name (window->straggler_button, "clicked");
  g_assert_true (selects (window, "0-767"));
  /* the user's own change forgets the way back: every rank then */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "node064", NULL));
  g_assert_cmpstr (straggler_label (window), ==, _("Show All Ranks"));
  g_signal_emit_by_name (window->straggler_button, "clicked");
  g_assert_null (window->mask);
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* 1024 ranks on 128 hosts of 8: the list shows 128 host rows (no rank
 * rows made); unchecking node000's box hides its 8 ranks; checking node064
 * alone (after None) shows exactly ranks 512-519, and Over Time then has
 * their 8 rows. Expanded, node064 lists its 8 ranks; one unchecked leaves
 * the host mixed, 7 ranks shown. */
static void
test_hosts_rank_list (void)
{
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1000, 700);
  TprofHeatmapView *view = _tprof_charts_panel_get_heatmap (window->charts);
  g_autofree char *host_0 = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · rank %s", "%s · ranks %s", 8), "node000", "0-7");
  g_autofree char *host_64 = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · rank %s", "%s · ranks %s", 8), "node064", "512-519");
  g_autofree char *rank_515 = g_strdup_printf (_("Rank %d"), 515);
  g_autoptr(GtkTreeListRow) row = NULL;
  GtkCheckButton *check;
  GObject *item;
  guint rows, cols;

  settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (list_rows (window)), ==, 128);
  item = row_item (window, 0);
  g_assert_true (TPROF_IS_HOST_ITEM (item));
  g_assert_cmpstr (_tprof_check_item_get_label (TPROF_CHECK_ITEM (item)), ==, host_0);
  g_assert_cmpstr (_tprof_check_item_get_label (TPROF_CHECK_ITEM (row_item (window, 64))), ==, host_64);

  /* node000's own check box, as a click does */
  check = find_check (_tprof_rank_filter_get_list (window->rank_filter), "node000");
  g_assert_nonnull (check);
  gtk_check_button_set_active (check, FALSE);
  app_test_gui_wait_idle (window);
  g_assert_true (selects (window, "8-1023"));
  gtk_check_button_set_active (check, TRUE);
  app_test_gui_wait_idle (window);
  g_assert_null (window->mask);
  /* the check on screen follows changes made elsewhere: None, then one
   * rank of node000 (mixed), then all of them through the entry */
  _tprof_rank_filter_select_none (window->rank_filter);
  g_assert_false (gtk_check_button_get_active (check));
  g_assert_false (gtk_check_button_get_inconsistent (check));
  _tprof_rank_filter_focus_rank (window->rank_filter, 3);
  g_assert_true (selects (window, "3"));
  g_assert_false (gtk_check_button_get_active (check));
  g_assert_true (gtk_check_button_get_inconsistent (check));
  if (g_getenv ("TPROF_TEST_SHOTS_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("TPROF_TEST_SHOTS_DIR"), "rank-list-mixed.png", NULL);

      app_test_gui_render_png (window, png);
    }
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-7,100", NULL));
  g_assert_true (gtk_check_button_get_active (check));
  g_assert_false (gtk_check_button_get_inconsistent (check));
  /* a click on the mixed check selects all of node000 */
  _tprof_rank_filter_focus_rank (window->rank_filter, 5);
  gtk_check_button_set_active (check, TRUE);
  g_assert_true (selects (window, "0-7"));
  g_assert_false (gtk_check_button_get_inconsistent (check));
  _tprof_rank_filter_select_all (window->rank_filter);
  app_test_gui_wait_idle (window);

  /* None, then node064 checked: its ranks alone, its 8 rows over time */
  g_settings_set_string (settings, "rank-metric", "time");
  _tprof_rank_filter_select_none (window->rank_filter);
  g_object_set (row_item (window, 64), "active", TRUE, NULL);
  settle (window);
  g_assert_true (selects (window, "512-519"));
  g_assert_nonnull (_tprof_heatmap_view_get_cells (view, &rows, &cols));
  g_assert_cmpuint (rows, ==, 8);
  g_assert_true (_tprof_check_item_get_active (TPROF_CHECK_ITEM (row_item (window, 64))));
  g_assert_false (_tprof_check_item_get_active (TPROF_CHECK_ITEM (row_item (window, 63))));

  /* expanded: its ranks below it; one unchecked leaves it mixed */
  row = g_list_model_get_item (list_rows (window), 64);
  gtk_tree_list_row_set_expanded (row, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (list_rows (window)), ==, 136);
  item = row_item (window, 68);
  g_assert_true (TPROF_IS_RANK_ITEM (item));
  g_assert_cmpint (_tprof_rank_item_get_rank (TPROF_RANK_ITEM (item)), ==, 515);
  g_assert_cmpstr (_tprof_check_item_get_label (TPROF_CHECK_ITEM (item)), ==, rank_515);
  g_assert_true (_tprof_check_item_get_active (TPROF_CHECK_ITEM (item)));
  g_object_set (item, "active", FALSE, NULL);
  app_test_gui_wait_idle (window);
  g_assert_true (selects (window, "512-514,516-519"));
  {
    gboolean mixed, active;

    g_object_get (row_item (window, 64), "inconsistent", &mixed, "active", &active, NULL);
    g_assert_true (mixed);
    g_assert_false (active);
  }
  /* the expression entry reaches the rank rows made */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "515", NULL));
  g_assert_true (_tprof_check_item_get_active (TPROF_CHECK_ITEM (row_item (window, 68))));
  g_assert_false (_tprof_check_item_get_active (TPROF_CHECK_ITEM (row_item (window, 67))));
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* 10^5 ranks on 12 500 hosts: the list holds one row per host, and a
 * host checked alone shows its 8 ranks. */
static void
test_hosts_many_ranks (void)
{
  g_autofree char *path = make_scenario_steps ("slow-node", 100000, 2);
  TprofWindow *window = open_sized (path, 1000, 700);
  g_autofree char *host = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · rank %s", "%s · ranks %s", 8), "node6250", "50000-50007");
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const TprofPlotRankGroups *groups;
  TprofPlotArea area;
  GObject *item;
  guint b;

  settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (list_rows (window)), ==, 12500);
  /* Total: bars of runs of hosts, none thinner than 3 px, one of them
   * showing node6250 (the slow one) as the tallest */
  g_settings_set_string (settings, "rank-metric", "total");
  settle (window);
  groups = _tprof_rank_chart_get_groups (_tprof_charts_panel_get_rank_chart (window->charts));
  g_assert_nonnull (groups);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (_tprof_charts_panel_get_rank_chart (window->charts)), &area));
  g_test_message ("%u bars in %.0f px", groups->n_bars, area.width);
  g_assert_cmpfloat (area.width / groups->n_bars, >=, TPROF_PLOT_RANKS_MIN_BAR);
  g_assert_cmpuint (groups->n_bars, >=, (guint) (area.width / TPROF_PLOT_RANKS_MIN_BAR) - 2);
  g_assert_cmpstr (groups->title, ==, _("Hosts"));
  b = bar_of (groups, "node6250");
  for (guint i = 0; i < groups->n_bars; i++)
    if (i != b)
      g_assert_cmpfloat (groups->summaries[i].sum, <, groups->summaries[b].sum);
  g_settings_reset (settings, "rank-metric");
  item = row_item (window, 6250);
  g_assert_cmpstr (_tprof_check_item_get_label (TPROF_CHECK_ITEM (item)), ==, host);
  _tprof_rank_filter_select_none (window->rank_filter);
  g_object_set (item, "active", TRUE, NULL);
  app_test_gui_wait_idle (window);
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, 8);
  g_assert_true (((const guint8 *) g_bytes_get_data (window->mask, NULL))[50007]);
  g_assert_false (((const guint8 *) g_bytes_get_data (window->mask, NULL))[50008]);
  close_window (window);
}

/* Compared with a run without a slow host, its bars being hosts: each
 * bar carries the baseline's total (or mean) of its host, summed here
 * from numpy's per-rank figures of the baseline file. */
static void
test_hosts_baseline_marks (void)
{
  static const char *const metrics[] = { "total", "mean" };
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autofree char *base_path = make_scenario ("none", 1024);
  g_autoptr(GFile) base_file = g_file_new_for_path (base_path);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1500, 900);
  TprofRankChart *chart = _tprof_charts_panel_get_rank_chart (window->charts);
  g_autoptr(GHashTable) ref = NULL;
  double sums[128] = { 0 }, counts[128] = { 0 };
  const char *op;

  _tprof_window_compare_with (window, base_file);
  settle (window);
  g_assert_null (_tprof_window_get_error (window));
  op = _tprof_profile_get_name (window->profile, (gsize) _tprof_chart_get_op (TPROF_CHART (chart)));
  ref = app_test_reference (base_path, "ranks", op, "all", NULL, NULL);
  for (int r = 0; r < 1024; r++)
    {
      g_autofree char *key = g_strdup_printf ("rank_%d", r);
      GArray *v = app_test_reference_get (ref, key);

      counts[r / 8] += g_array_index (v, double, 0);
      sums[r / 8] += g_array_index (v, double, 1);
    }
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      const TprofPlotRankGroups *groups;
      const double *marks;

      g_settings_set_string (settings, "rank-metric", metrics[m]);
      settle (window);
      if (m == 0 && g_getenv ("TPROF_TEST_SHOTS_DIR") != NULL)
        {
          g_autofree char *png = g_build_filename (g_getenv ("TPROF_TEST_SHOTS_DIR"), "baseline-hosts.png", NULL);

          app_test_gui_render_png (window, png);
        }
      groups = _tprof_rank_chart_get_groups (chart);
      marks = _tprof_rank_chart_get_groups_baseline (chart);
      g_assert_nonnull (groups);
      g_assert_cmpuint (groups->n_bars, ==, 128);
      g_assert_nonnull (marks);
      for (guint b = 0; b < groups->n_bars; b++)
        {
          gsize h = groups->bars[b].top_group;
          g_autofree char *what = g_strdup_printf ("%s: baseline of %s", metrics[m], groups->labels[b]);

          app_test_assert_close (marks[b], m == 0 ? sums[h] : sums[h] / counts[h], 1e-9, what);
        }
    }
  /* ranks again (8 of them): no marks of hosts */
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "512-519", NULL));
  settle (window);
  g_assert_null (_tprof_rank_chart_get_groups (chart));
  g_assert_null (_tprof_rank_chart_get_groups_baseline (chart));
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* Per Host on 1024 ranks: 128 hosts, slowest first; node064 (30 % slower)
 * leads with the total and mean of its 8 ranks (summed here from the rank
 * chart's CSV, the per-rank totals) and arrived last at every allreduce;
 * a host unchecked in the list leaves the chart. */
static void
test_hosts_per_host (void)
{
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1000, 700);
  TprofHostsView *view = _tprof_charts_panel_get_hosts (window->charts);
  const TprofPlotHosts *plot;
  double total = 0, count = 0;

  const TprofOperationStats *stats;

  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "0-", NULL));
  g_settings_set_string (settings, "rank-metric", "hosts");
  settle (window);
  plot = _tprof_hosts_view_get_plot (view);
  g_assert_nonnull (plot);
  g_assert_cmpuint (plot->n_hosts, ==, 128);
  g_assert_cmpstr (plot->names[0], ==, "node064");
  for (guint i = 1; i < plot->n_hosts; i++)
    g_assert_cmpfloat (plot->totals[i], <=, plot->totals[i - 1]);
  g_assert_cmpuint (plot->ranks[0], ==, 8);
  /* node064's ranks' cached totals, summed here */
  stats = _tprof_profile_get_stats (window->profile, (gsize) _tprof_chart_get_op (TPROF_CHART (view)));
  for (int r = 512; r <= 519; r++)
    {
      count += (double) stats->rank_count[r];
      total += stats->rank_sum[r];
    }
  g_assert_cmpfloat (fabs (plot->totals[0] - total), <=, 1e-9 * total);
  g_assert_cmpfloat ((double) plot->counts[0], ==, count);
  g_assert_cmpfloat (fabs (plot->means[0] - total / count), <=, 1e-9 * plot->means[0]);
  g_assert_nonnull (plot->late);
  g_assert_cmpint (plot->late[0], ==, 40);
  g_assert_cmpint (plot->late[1], ==, 0);
  {
    g_autofree char *csv = _tprof_chart_to_csv (TPROF_CHART (view), NULL);

    g_assert_true (g_str_has_prefix (csv, "host,ranks,count,total,mean,late\nnode064,8,"));
  }
  /* node064 unchecked: 127 hosts, another first */
  g_object_set (row_item (window, 64), "active", FALSE, NULL);
  settle (window);
  plot = _tprof_hosts_view_get_plot (view);
  g_assert_cmpuint (plot->n_hosts, ==, 127);
  g_assert_cmpstr (plot->names[0], !=, "node064");
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* Breakdown of step on 1024 ranks (128 hosts of 8) at 1000 x 700: fewer
 * bars of 3 px fit than ranks, so the bars are hosts, named on the axis;
 * beside the legend they are runs of hosts, each showing every part of
 * its host of largest total, summed over its 8 ranks (here from the
 * per-rank breakdown the chart also keeps); a click on the bar of
 * node064 shows the ranks of its hosts. */
/* The Breakdown chart's CSV as exported: a row per host (its bars being
 * hosts), checked against numpy on @path by check-breakdown-hosts.py. */
static void
check_breakdown_csv (TprofBreakdownView *view,
                     const char         *path,
                     const char         *op)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = _tprof_chart_to_csv (TPROF_CHART (view), &error);
  g_autofree char *csv_path = g_build_filename (fixture_dir, "breakdown-hosts.csv", NULL);
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "app", "check-breakdown-hosts.py", NULL);
  const char *argv[] = { PYTHON3, script, csv_path, path, op, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (csv, "host,"));
  g_assert_true (g_file_set_contents (csv_path, csv, -1, &error));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("check-breakdown-hosts.py: %s%s", out, err);
  g_test_message ("%s", out);
}

static void
test_hosts_breakdown (void)
{
  g_autofree char *path = make_scenario ("slow-node", 1024);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  TprofWindow *window = open_sized (path, 1000, 700);
  TprofBreakdownView *view = _tprof_charts_panel_get_breakdown (window->charts);
  const TprofPlotBreakdownGroups *groups;
  const TprofPlotBreakdown *plot;
  TprofPlotArea area;
  guint slow = G_MAXUINT;

  /* step: forward, backward and allreduce run inside it */
  for (gsize i = 0; i < _tprof_profile_get_n_operations (window->profile); i++)
    if (g_str_equal (_tprof_profile_get_name (window->profile, i), "step"))
      _tprof_operation_table_select_index (window->table, (int) i);
  g_settings_set_string (settings, "rank-metric", "breakdown");
  settle (window);
  if (g_getenv ("TPROF_TEST_SHOTS_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("TPROF_TEST_SHOTS_DIR"), "breakdown-hosts.png", NULL);

      app_test_gui_render_png (window, png);
    }
  plot = _tprof_breakdown_view_get_plot (view);
  groups = _tprof_breakdown_view_get_groups (view);
  g_assert_nonnull (plot);
  g_assert_nonnull (groups);
  g_assert_cmpuint (plot->n_ranks, ==, 1024);
  g_assert_true (_tprof_chart_get_area (TPROF_CHART (view), &area));
  g_test_message ("%u bars of hosts in %.0f px, %u parts", groups->n_bars, area.width, plot->n_parts);
  g_assert_cmpfloat (area.width / groups->n_bars, >=, TPROF_PLOT_RANKS_MIN_BAR);
  g_assert_cmpuint (groups->n_bars, <, 128);
  g_assert_cmpuint (groups->bars[groups->n_bars - 1].last_group, ==, 127);
  for (guint j = 0; j < groups->n_bars; j++)
    {
      const TprofGroupBar *bar = &groups->bars[j];
      g_autofree char *first = g_strdup_printf ("node%03zu", bar->first_group);
      guint top = G_MAXUINT;
      double top_total = -1;

      g_assert_true (g_str_has_prefix (groups->labels[j], first));
      /* the host of the run with the largest total, its parts summed */
      for (gsize h = bar->first_group; h <= bar->last_group; h++)
        {
          double total = 0;

          for (guint k = 0; k < plot->n_ranks; k++)
            for (guint p = 0; p < plot->n_parts; p++)
              if (plot->ranks[k] / 8 == (gint32) h && isfinite (plot->values[p * plot->n_ranks + k]))
                total += plot->values[p * plot->n_ranks + k];
          if (total > top_total)
            {
              top_total = total;
              top = (guint) h;
            }
        }
      g_assert_cmpuint (bar->top_group, ==, top);
      for (guint p = 0; p < plot->n_parts; p++)
        {
          double want = 0;

          for (guint k = 0; k < plot->n_ranks; k++)
            if (plot->ranks[k] / 8 == (gint32) top)
              want += plot->values[p * plot->n_ranks + k];
          g_assert_cmpfloat (fabs (groups->matrix->values[p * groups->n_bars + j] - want), <=, 1e-9 * fabs (want));
        }
      if (bar->first_group <= 64 && 64 <= bar->last_group)
        slow = j;
    }
  check_breakdown_csv (view, path, "step");
  {
    /* the click recomputes the chart: its bars are gone after it */
    g_autofree char *shown = g_strdup_printf ("%zu-%zu", groups->bars[slow].first_group * 8,
                                              groups->bars[slow].last_group * 8 + 7);

    click_chart (view, area.x + (slow + 0.5) * area.width / groups->n_bars, area.y + area.height - 2);
    g_assert_true (selects (window, shown));
  }
  /* 8 ranks: a bar each again */
  settle (window);
  g_assert_null (_tprof_breakdown_view_get_groups (view));
  g_settings_reset (settings, "rank-metric");
  close_window (window);
}

/* What a large profile's background pass found, as its signals told. */
typedef struct
{
  GAsyncResult *loaded;
  gboolean      verdict;          /* stragglers-found emitted */
  gboolean      tree_at_verdict;  /* the tree was there then */
  gboolean      building_at_verdict;
  gboolean      host_at_verdict;  /* a host was named then */
  gboolean      tree;             /* tree-found emitted */
} Found;

static void
found_loaded_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      data)
{
  ((Found *) data)->loaded = g_object_ref (result);
}

static void
found_verdict_cb (TprofProfile *profile,
                  Found        *found)
{
  TprofStragglerVerdict verdict = { 0 };
  const TprofTopology *topology = NULL;

  found->verdict = TRUE;
  found->tree_at_verdict = _tprof_profile_has_tree (profile);
  found->building_at_verdict = _tprof_profile_is_building_tree (profile);
  found->host_at_verdict = _tprof_profile_decide_straggler (profile, &verdict, &topology)
                           && verdict.kind == TPROF_STRAGGLER_VERDICT_GROUP;
}

static void
found_tree_cb (TprofProfile *profile,
               Found        *found)
{
  found->tree = TRUE;
}

static gboolean
found_loaded (gpointer data)
{
  return ((Found *) data)->loaded != NULL;
}

static gboolean
found_all (gpointer data)
{
  Found *found = data;

  return found->verdict && found->tree;
}

/* A profile opened on its cache (TPROF_VIEWER_EAGER_SAMPLES=0, as every
 * large one) reads each operation once in the background for the blame
 * from arrival and for the tree: the host verdict is told as soon as the
 * reading is done, before the tree (at 10^5 ranks many times longer to
 * build) is there, and the tree follows. */
static void
test_hosts_verdict_before_tree (void)
{
  g_autofree char *path = make_scenario ("slow-node", 64);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TprofProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  Found found = { 0 };

  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  profile = _tprof_profile_new (file);
  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");
  g_signal_connect (profile, "stragglers-found", G_CALLBACK (found_verdict_cb), &found);
  g_signal_connect (profile, "tree-found", G_CALLBACK (found_tree_cb), &found);
  _tprof_profile_load_async (profile, NULL, found_loaded_cb, &found);
  app_test_wait (found_loaded, &found);
  /* the background pass starts here */
  g_assert_true (_tprof_profile_load_finish (profile, found.loaded, &error));
  g_assert_no_error (error);
  g_object_unref (found.loaded);
  app_test_wait (found_all, &found);
  g_assert_true (found.host_at_verdict);
  g_assert_false (found.tree_at_verdict);
  g_assert_true (found.building_at_verdict);
  g_assert_true (_tprof_profile_has_tree (profile));
  g_assert_false (_tprof_profile_is_building_tree (profile));
  _tprof_profile_close (profile);
}

/* TPROF_TEST_SHOTS_DIR=DIR shoots the host views into DIR (PROFILE is
 * TPROF_TEST_SHOTS_PROFILE, or the 1024-rank slow-node): Over Time and
 * the list with node000 expanded and node001 unchecked, at 1000 x 700 and
 * 1200 x 800; skipped otherwise. */
static void
test_hosts_shots (void)
{
  static const int sizes[][2] = { { 1000, 700 }, { 1200, 800 } };
  static const char *const modes[] = { "time", "total", "mean", "hosts" };
  const char *dir = g_getenv ("TPROF_TEST_SHOTS_DIR");
  const char *given = g_getenv ("TPROF_TEST_SHOTS_PROFILE");
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  if (dir == NULL)
    {
      g_test_skip ("TPROF_TEST_SHOTS_DIR not set");
      return;
    }
  path = given != NULL ? g_strdup (given) : make_scenario ("slow-node", 1024);
  base = g_path_get_basename (path);
  *strrchr (base, '.') = '\0';
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      TprofWindow *window = open_sized (path, sizes[s][0], sizes[s][1]);
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (list_rows (window), 0);

      gtk_tree_list_row_set_expanded (row, TRUE);
      g_object_set (row_item (window, 1), "active", FALSE, NULL);
      g_object_set (row_item (window, 9), "active", FALSE, NULL);
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          g_autofree char *name = g_strdup_printf ("%s-%s-%d-%s.png", base, g_getenv ("LANGUAGE") != NULL
                                                   && g_getenv ("LANGUAGE")[0] != '\0' ? g_getenv ("LANGUAGE") : "en",
                                                   sizes[s][0], modes[m]);
          g_autofree char *png = g_build_filename (dir, name, NULL);

          g_settings_set_string (settings, "rank-metric", modes[m]);
          settle (window);
          app_test_gui_render_png (window, png);
          g_test_message ("%s", png);
        }
      g_settings_reset (settings, "rank-metric");
      close_window (window);
    }
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
  g_test_add_func ("/app/hosts/rank-list", test_hosts_rank_list);
  g_test_add_func ("/app/hosts/rank-bars", test_hosts_rank_bars);
  g_test_add_func ("/app/hosts/click-host", test_hosts_click_host);
  g_test_add_func ("/app/hosts/baseline-marks", test_hosts_baseline_marks);
  g_test_add_func ("/app/hosts/many-ranks", test_hosts_many_ranks);
  g_test_add_func ("/app/hosts/per-host", test_hosts_per_host);
  g_test_add_func ("/app/hosts/verdict-before-tree", test_hosts_verdict_before_tree);
  g_test_add_func ("/app/hosts/breakdown", test_hosts_breakdown);
  g_test_add_func ("/app/hosts/shots", test_hosts_shots);

  ret = g_test_run ();

  app_test_remove_dir (fixture_dir);
  g_free (fixture_dir);
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return ret;
}
