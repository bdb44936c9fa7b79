/* bench-filter-hosts.c — tprof-viewer on 10^5 ranks under Xvfb: time to the table and to the host verdict, and a rank filter change, against 1024 ranks in the same run. */
/* SPDX-License-Identifier: MIT */

/* The profiles: tools/make-scenario.py slow-node on 1024 ranks (the
 * baseline) and on 10^5 ranks (TPROF_BENCH_RANKS sets another), hosts of
 * 8, 20 steps. Measured in the window itself, as the user sees it:
 *   table      from opening until the first frame painted with the
 *              table's rows;
 *   verdict    from opening until the straggler bar names the host;
 *   tree       from opening until the operation tree is built (after
 *              the verdict, in the background; no budget);
 *   filter     a rank-filter change, to the slow host's 8 ranks (as a
 *              click on its bar does) and back to every rank: until the
 *              charts are recomputed and drawn (the table's rows follow
 *              in a worker thread, reported apart); and the main
 *              thread's CPU time for it (getrusage), which the other
 *              load of a shared machine disturbs less.
 * Each against the same on 1024 ranks, and against the budgets the
 * viewer promises: 2 s to the table, 10 s to the verdict, 50 ms a filter
 * change.
 * TPROF_BENCH_REPEATS sets how many changes each way (5; more for a
 * profiler), TPROF_BENCH_PHASES prints the synchronous part of each. */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/resource.h>

#include "app-test-gui.h"
#include "app-test-util.h"

/* TPROF_BENCH_REPEATS: more changes, for a profiler */
static int repeats = 5;

static TprofApplication *app;

typedef struct
{
  double table;        /* s from opening */
  double verdict;      /* s from opening; < 0: never named */
  double tree;         /* s from opening until the operation tree is built */
  double to_host;      /* median s: focus on a host, until drawn */
  double back;         /* median s: back to every rank, until drawn */
  double table_after;  /* median s: a filter change until the table's rows follow */
  double cpu_to_host;  /* median s of the main thread's CPU, until drawn: less */
  double cpu_back;     /* sensitive to the other load of the machine than the times */
} Figures;

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* The CPU time the calling thread has used, s. */
static double
thread_cpu_s (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_THREAD, &usage) != 0)
    return 0;
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static char *
make_scenario (const char *dir,
               int         ranks)
{
  g_autofree char *name = g_strdup_printf ("slow-node-%d.h5", ranks);
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *ranks_text = g_strdup_printf ("%d", ranks);
  const char *argv[] = { PYTHON3, SCENARIO_SCRIPT, "slow-node", path, "--ranks", ranks_text, "--steps", "20", NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                     &error) || !g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s", SCENARIO_SCRIPT, error->message);
  return path;
}

static gboolean
table_shown (gpointer data)
{
  TprofWindow *window = data;

  return window->loading == NULL && window->profile != NULL && window->table_pending == 0;
}

/* The first frame painted with the table's rows: its time. */
typedef struct
{
  TprofWindow *window;
  double       at;
} TablePaint;

static void
table_paint_cb (GdkFrameClock *clock,
                TablePaint    *paint)
{
  if (paint->at == 0 && table_shown (paint->window))
    paint->at = now_s ();
}

static gboolean
table_painted (gpointer data)
{
  return ((TablePaint *) data)->at > 0;
}

static gboolean
verdict_done (gpointer data)
{
  TprofWindow *window = data;

  return window->profile != NULL && !_tprof_profile_is_finding_stragglers (window->profile)
         && window->loading == NULL;
}

static gboolean
tree_done (gpointer data)
{
  TprofWindow *window = data;

  return window->profile != NULL && !_tprof_profile_is_building_tree (window->profile);
}

static gboolean
table_done (gpointer data)
{
  return ((TprofWindow *) data)->table_pending == 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v)
{
  qsort (v, repeats, sizeof *v, compare_doubles);
  return v[repeats / 2];
}

/* One filter change by @change, timed until drawn; @table gets the time
 * until the table's rows follow, @cpu the main thread's CPU until drawn. */
static double
time_change (TprofWindow *window,
             void       (*change) (TprofWindow *window, gpointer data),
             gpointer     data,
             double      *table,
             double      *cpu)
{
  double t0 = now_s (), cpu0 = thread_cpu_s (), drawn;

  change (window, data);
  if (g_getenv ("TPROF_BENCH_PHASES") != NULL)
    g_printerr ("  change, synchronous part: %.1f ms\n", (now_s () - t0) * 1e3);
  app_test_gui_wait_frame (window);
  drawn = now_s () - t0;
  *cpu = thread_cpu_s () - cpu0;
  app_test_wait (table_done, window);
  *table = now_s () - t0;
  return drawn;
}

static void
focus_host (TprofWindow *window,
            gpointer     data)
{
  const gint32 *first = data;
  gint32 ranks[8];

  for (int i = 0; i < 8; i++)
    ranks[i] = *first + i;
  _tprof_rank_filter_focus_ranks (window->rank_filter, ranks, 8);
}

static void
go_back (TprofWindow *window,
         gpointer     data)
{
  _tprof_rank_filter_go_back (window->rank_filter);
}

static Figures
measure (const char *path,
         int         world)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TprofWindow *window = _tprof_window_new (app);
  /* the slow host: the middle one, as make-scenario.py puts it */
  gint32 first = (world / 8) / 2 * 8;
  g_autofree double *to_host = g_new (double, repeats), *back = g_new (double, repeats);
  g_autofree double *table = g_new (double, repeats * 2);
  g_autofree double *cpu_to_host = g_new (double, repeats), *cpu_back = g_new (double, repeats);
  double t0;
  Figures f = { 0 };
  TablePaint paint = { window, 0 };
  gulong handler;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  app_test_gui_wait_frame (window);
  handler = g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                              G_CALLBACK (table_paint_cb), &paint);
  t0 = now_s ();
  _tprof_window_open (window, file);
  app_test_wait (table_painted, &paint);
  g_signal_handler_disconnect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), handler);
  f.table = paint.at - t0;
  app_test_wait (verdict_done, window);
  f.verdict = _tprof_window_get_straggler (window, NULL) >= 0 ? now_s () - t0 : -1;
  /* the tree is built after the verdict, in the background: the filter
   * changes are timed once it is there, not against it for the CPU */
  app_test_wait (tree_done, window);
  f.tree = now_s () - t0;
  app_test_gui_wait_idle (window);
  app_test_gui_wait_frame (window);

  for (int i = 0; i < repeats; i++)
    {
      to_host[i] = time_change (window, focus_host, &first, &table[2 * i], &cpu_to_host[i]);
      back[i] = time_change (window, go_back, NULL, &table[2 * i + 1], &cpu_back[i]);
    }
  f.to_host = median (to_host);
  f.back = median (back);
  f.cpu_to_host = median (cpu_to_host);
  f.cpu_back = median (cpu_back);
  qsort (table, repeats * 2, sizeof *table, compare_doubles);
  f.table_after = table[repeats];
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return f;
}

int
main (int   argc,
      char *argv[])
{
  const char *env_ranks = g_getenv ("TPROF_BENCH_RANKS");
  int world = env_ranks != NULL ? atoi (env_ranks) : 100000;

  if (g_getenv ("TPROF_BENCH_REPEATS") != NULL)
    repeats = MAX (1, atoi (g_getenv ("TPROF_BENCH_REPEATS")));
  g_autofree char *dir = app_test_make_dir ();
  g_autofree char *small_path = make_scenario (dir, 1024);
  g_autofree char *large_path = make_scenario (dir, world);
  Figures base, large;

  gtk_init ();
  app = app_test_gui_start ();
  base = measure (small_path, 1024);
  large = measure (large_path, world);

  printf ("tprof-viewer, slow-node, 20 steps: %d ranks against 1024 ranks (baseline, same run), window 1200x800\n",
          world);
  printf ("  open to the table:        %8.0f ms  (1024 ranks: %6.0f ms, %.1fx)  = %.2fx the 2 s budget\n",
          large.table * 1e3, base.table * 1e3, large.table / base.table, large.table / 2.0);
  if (large.verdict >= 0)
    printf ("  open to the host verdict: %8.0f ms  (1024 ranks: %6.0f ms, %.1fx)  = %.2fx the 10 s budget\n",
            large.verdict * 1e3, base.verdict * 1e3, large.verdict / base.verdict, large.verdict / 10.0);
  else
    printf ("  open to the host verdict: none named\n");
  printf ("  open to the operation tree: %6.0f ms  (1024 ranks: %6.0f ms, %.1fx)  (background, no budget)\n",
          large.tree * 1e3, base.tree * 1e3, large.tree / base.tree);
  printf ("  filter to a host, drawn:  %8.1f ms  (1024 ranks: %6.1f ms, %.1fx)  = %.2fx the 50 ms budget\n",
          large.to_host * 1e3, base.to_host * 1e3, large.to_host / base.to_host, large.to_host / 0.05);
  printf ("  back to all ranks, drawn: %8.1f ms  (1024 ranks: %6.1f ms, %.1fx)  = %.2fx the 50 ms budget\n",
          large.back * 1e3, base.back * 1e3, large.back / base.back, large.back / 0.05);
  printf ("  main thread CPU, to a host: %6.1f ms  (1024 ranks: %6.1f ms, %.1fx)\n", large.cpu_to_host * 1e3,
          base.cpu_to_host * 1e3, large.cpu_to_host / base.cpu_to_host);
  printf ("  main thread CPU, back:      %6.1f ms  (1024 ranks: %6.1f ms, %.1fx)\n", large.cpu_back * 1e3,
          base.cpu_back * 1e3, large.cpu_back / base.cpu_back);
  printf ("  filter change until the table's rows follow (worker thread): %.1f ms (1024 ranks: %.1f ms)\n",
          large.table_after * 1e3, base.table_after * 1e3);
  printf ("  (medians of %d changes each way)\n", repeats);

  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  app_test_remove_dir (dir);
  return 0;
}
