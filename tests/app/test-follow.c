/* test-follow.c — tprof-viewer following a running job under Xvfb: a spill folder grown by an independent writer, pause, a damaged journal, the end. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "app-test-gui.h"
#include "app-test-util.h"
#include "tprof-host-item.h"
#include "tprof-operation.h"

/* grow_spill.py's job: WORLD ranks, BATCH occurrences of each operation a step */
#define WORLD 4
#define BATCH 10
#define SPILL_NAME "tprof-00c0ffee12345678-%d.spill"

static TprofApplication *app;

/* Whether @text starts as the translation of @format does, up to its
 * first conversion: the tests run in English and in German. */
static gboolean
starts_as (const char *text,
           const char *format)
{
  const char *translated = _(format);
  const char *cut = strchr (translated, '%');
  gsize n = cut != NULL ? (gsize) (cut - translated) : strlen (translated);

  return text != NULL && strncmp (text, translated, n) == 0;
}

/* English: the tests also check whole sentences. */
static gboolean
english (void)
{
  return g_str_equal (_("Live — updated %s"), "Live — updated %s");
}

typedef struct
{
  char *dir;     /* the spill folder */
  char *state;   /* the writer's state, outside it */
  char *root;
} Job;

/* Runs one step of tests/app/grow_spill.py on @job, with up to two arguments. */
static void
grow_with (Job        *job,
           const char *step,
           const char *arg,
           const char *arg2)
{
  const char *argv[] = { PYTHON3, GROW_SPILL_SCRIPT, job->dir, job->state, step, arg, arg2, NULL };
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error))
    g_error ("could not run %s: %s", GROW_SPILL_SCRIPT, error->message);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s %s failed: %s", GROW_SPILL_SCRIPT, step, err);
}

static void
grow (Job        *job,
      const char *step,
      const char *arg)
{
  grow_with (job, step, arg, NULL);
}

/* numpy's count, std, median, P95 and P99 of what grow_spill.py wrote of
 * @name on the ranks @ranks ("1,2"; NULL: all), in @out. */
static void
numpy_stats (Job        *job,
             const char *name,
             const char *ranks,
             double      out[5])
{
  const char *argv[] = { PYTHON3, GROW_SPILL_SCRIPT, job->dir, job->state, "stats", name, ranks, NULL };
  g_autofree char *text = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) fields = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &text, &err, &status, &error))
    g_error ("could not run %s: %s", GROW_SPILL_SCRIPT, error->message);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s stats failed: %s", GROW_SPILL_SCRIPT, err);
  fields = g_strsplit (g_strstrip (text), " ", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, 5);
  for (int i = 0; i < 5; i++)
    out[i] = g_ascii_strtod (fields[i], NULL);
}

/* A job's folder; its first step not yet written. */
static void
job_make (Job *job)
{
  job->root = app_test_make_dir ();
  job->dir = g_build_filename (job->root, "spill", NULL);
  job->state = g_build_filename (job->root, "writer.json", NULL);
  g_assert_cmpint (g_mkdir (job->dir, 0700), ==, 0);
}

static void
job_start (Job *job)
{
  job_make (job);
  grow (job, "start", NULL);
}

static void
job_clear (Job *job)
{
  app_test_remove_dir (job->root);
  g_free (job->root);
  g_free (job->dir);
  g_free (job->state);
}

static TprofWindow *
follow (Job *job)
{
  TprofWindow *window = app_test_gui_new_window (app);
  g_autoptr(GFile) dir = g_file_new_for_path (job->dir);

  _tprof_window_open (window, dir);
  app_test_gui_wait_idle (window);
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_nonnull (window->follow);
  g_assert_true (g_file_equal (_tprof_window_get_file (window), dir));
  return window;
}

static void
close_window (TprofWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The statistics of the row @name in *@out; FALSE when there is none. */
static gboolean
row_summary (TprofWindow  *window,
             const char   *name,
             TprofSummary *out)
{
  GListModel *model = _tprof_operation_table_get_model (window->table);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) op = g_list_model_get_item (model, i);

      if (g_str_equal (_tprof_operation_get_name (op), name))
        {
          *out = *_tprof_operation_get_summary (op);
          return TRUE;
        }
    }
  return FALSE;
}

/* The Count cell of the row @name (-1 when there is none). */
static gint64
row_count (TprofWindow *window,
           const char  *name)
{
  TprofSummary summary;

  return row_summary (window, name, &summary) ? (gint64) summary.count : -1;
}

/* The count, std, median, P95 and P99 cells of @name are numpy's over
 * what grow_spill.py wrote on the ranks @ranks (NULL: all). */
static void
assert_ranks_quantiles (TprofWindow *window,
                        Job         *job,
                        const char  *name,
                        const char  *ranks)
{
  TprofSummary summary;
  double expected[5];

  numpy_stats (job, name, ranks, expected);
  g_assert_true (row_summary (window, name, &summary));
  g_assert_cmpuint (summary.count, ==, (guint64) expected[0]);
  g_assert_cmpfloat_with_epsilon (summary.std, expected[1], 1e-12);
  g_assert_cmpfloat_with_epsilon (summary.median, expected[2], 1e-12);
  g_assert_cmpfloat_with_epsilon (summary.p95, expected[3], 1e-12);
  g_assert_cmpfloat_with_epsilon (summary.p99, expected[4], 1e-12);
}

static void
assert_quantiles (TprofWindow *window,
                  Job         *job,
                  const char  *name)
{
  assert_ranks_quantiles (window, job, name, NULL);
}

/* The selected operation's histogram holds as many samples as its row
 * counts, @count. */
static void
assert_charted (TprofWindow *window,
                guint64      count)
{
  gssize selected = _tprof_operation_table_get_selected_index (window->table);
  const TprofHistogram *hist;
  guint64 total = 0;

  g_assert_cmpint (selected, >=, 0);
  g_assert_cmpint (row_count (window, _tprof_profile_get_name (window->profile, (gsize) selected)), ==, count);
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "charts");
  hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
  g_assert_nonnull (hist);
  for (gsize i = 0; i < hist->n_bins; i++)
    total += hist->counts[i];
  g_assert_cmpuint (total, ==, count);
}

typedef struct
{
  TprofWindow *window;
  const char  *name;
  gint64       count;
} CountWait;

static gboolean
count_reached (gpointer data)
{
  CountWait *w = data;

  return row_count (w->window, w->name) == w->count && !_tprof_window_is_busy (w->window);
}

static void
wait_count (TprofWindow *window,
            const char  *name,
            gint64       count)
{
  CountWait w = { window, name, count };

  app_test_wait (count_reached, &w);
}

static void
shoot (TprofWindow *window,
       const char  *name)
{
  const char *dir = g_getenv ("TPROF_TEST_SHOTS_DIR");
  g_autofree char *png = NULL;

  if (dir == NULL)
    return;
  png = g_build_filename (dir, name, NULL);
  app_test_gui_render_png (window, png);
}

static void
count_cb (guint *n)
{
  (*n)++;
}

/* Iterates the main context for about @ms milliseconds. */
static void
spin (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
}

/* The table, the straggler bar and the live state follow the files;
 * polls that find nothing new change nothing. */
static void
test_follow_grows (void)
{
  Job job = { 0 };
  TprofWindow *window;
  const char *text = NULL;
  guint updates = 0;

  job_start (&job);
  window = follow (&job);
  g_assert_true (starts_as (_tprof_window_get_live_text (window), "Live — updated %s"));
  g_assert_cmpint (row_count (window, "compute"), ==, WORLD * BATCH);
  g_assert_cmpint (row_count (window, "allreduce"), ==, WORLD * BATCH);
  assert_quantiles (window, &job, "compute");
  assert_charted (window, WORLD * BATCH);
  /* rank 2 arrives last at every allreduce (grow_spill.py) */
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  if (english ())
    g_assert_nonnull (strstr (text, "rank 2 (node1) arrived last 10 of 10 times"));

  grow (&job, "grow", NULL);
  wait_count (window, "allreduce", 2 * WORLD * BATCH);
  g_assert_cmpint (row_count (window, "compute"), ==, 2 * WORLD * BATCH);
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  if (english ())
    g_assert_nonnull (strstr (text, "arrived last 20 of 20 times"));
  /* the charts and the quantile columns hold every sample that arrived */
  assert_quantiles (window, &job, "allreduce");
  assert_quantiles (window, &job, "compute");
  assert_charted (window, 2 * WORLD * BATCH);
  shoot (window, "follow-live.png");

  grow (&job, "grow", NULL);
  wait_count (window, "allreduce", 3 * WORLD * BATCH);
  assert_quantiles (window, &job, "allreduce");
  assert_charted (window, 3 * WORLD * BATCH);

  /* nothing new: no "updated", so nothing is redrawn */
  g_signal_connect_swapped (window->follow, "updated", G_CALLBACK (count_cb), &updates);
  for (int i = 0; i < 3; i++)
    g_assert_false (_tprof_follow_poll (window->follow));
  g_assert_cmpuint (updates, ==, 0);
  g_assert_null (_tprof_window_get_error (window));
  close_window (window);
  job_clear (&job);
}

/* Under a rank filter, the quantile columns of every operation (not only
 * the one charted) are numpy's over the filtered ranks, after each
 * refresh too. */
static void
test_follow_filtered (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autoptr(GError) error = NULL;

  job_start (&job);
  window = follow (&job);
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "1,2", &error));
  g_assert_no_error (error);
  app_test_gui_wait_idle (window);
  assert_ranks_quantiles (window, &job, "compute", "1,2");
  assert_ranks_quantiles (window, &job, "allreduce", "1,2");

  grow (&job, "grow", NULL);
  wait_count (window, "allreduce", 2 * 2 * BATCH);
  assert_ranks_quantiles (window, &job, "compute", "1,2");
  assert_ranks_quantiles (window, &job, "allreduce", "1,2");
  shoot (window, "follow-filtered.png");
  close_window (window);
  job_clear (&job);
}

/* The rank list's top rows (hosts, ranks under them). */
static GListModel *
list_rows (TprofWindow *window)
{
  GtkListView *list = GTK_LIST_VIEW (_tprof_rank_filter_get_list (window->rank_filter));

  return gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_list_view_get_model (list)));
}

/* The labels of the rank list's rows, joined by "|". */
static char *
host_rows (TprofWindow *window)
{
  GListModel *rows = list_rows (window);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      g_assert_true (TPROF_IS_HOST_ITEM (item));
      g_string_append_printf (text, "%s%s", i > 0 ? "|" : "", _tprof_check_item_get_label (TPROF_CHECK_ITEM (item)));
    }
  return g_string_free (text, FALSE);
}

/* A rank whose file appears after the first refresh gets its host in the
 * rank list, the filter kept; its samples join the table. */
static void
test_follow_late_host (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *lone = NULL;

  job_make (&job);
  grow_with (&job, "start-without", "3", NULL);
  window = follow (&job);
  /* its host is not known: said so, in words */
  g_assert_cmpstr (_tprof_profile_get_hostname (window->profile, 3), ==, _("no spill file"));
  before = host_rows (window);
  g_assert_nonnull (strstr (before, _("no spill file")));
  g_assert_null (strstr (before, "?"));
  /* one rank under it, said in the singular */
  lone = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · rank %s", "%s · ranks %s", 1), _("no spill file"), "3");
  g_assert_nonnull (strstr (before, lone));
  shoot (window, "follow-no-file-host.png");
  g_assert_true (_tprof_rank_filter_apply_expression (window->rank_filter, "1-3", &error));
  g_assert_no_error (error);
  app_test_gui_wait_idle (window);

  grow (&job, "appear", "3");
  wait_count (window, "compute", 3 * BATCH);
  g_assert_cmpstr (_tprof_profile_get_hostname (window->profile, 3), ==, "node1");
  after = host_rows (window);
  g_assert_null (strstr (after, _("no spill file")));
  g_assert_nonnull (strstr (after, "node1"));
  g_assert_cmpuint (g_list_model_get_n_items (list_rows (window)), ==, 2);
  /* the filter stayed: ranks 1-3 */
  g_assert_cmpuint (_tprof_rank_filter_get_n_selected (window->rank_filter), ==, 3);
  assert_ranks_quantiles (window, &job, "compute", "1,2,3");
  shoot (window, "follow-late-host.png");
  close_window (window);
  job_clear (&job);
}

static gboolean
rank_3_not_reporting (gpointer data)
{
  TprofWindow *window = data;
  guint n = 0;
  g_autofree char *absent = _tprof_follow_dup_not_reporting (window->follow, &n);

  return g_strcmp0 (absent, "3") == 0 && n == 1 && !_tprof_window_is_busy (window);
}

/* A rank whose spill file has not appeared 3 spill intervals after the
 * job started is named "not reporting" and holds no occurrence back: the
 * others' occurrences complete and blame rank 2. Once its file appears it
 * takes part again from the next occurrence on. */
static void
test_follow_not_reporting (void)
{
  Job job = { 0 };
  TprofWindow *window;
  const char *text = NULL;
  g_autofree char *expected = NULL;

  job_make (&job);
  /* a flush every 0.2 s promised */
  grow_with (&job, "start-without", "3", "0.2");
  window = follow (&job);
  _tprof_follow_set_interval (window->follow, 100);
  app_test_wait (rank_3_not_reporting, window);
  /* one rank: the singular */
  expected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s — rank %s not reporting (no spill file)",
                                           "%s — ranks %s not reporting (no spill file)", 1), "", "3");
  g_assert_nonnull (strstr (_tprof_window_get_live_text (window), expected));
  if (english ())
    g_assert_true (g_str_has_suffix (_tprof_window_get_live_text (window), " — rank 3 not reporting (no spill file)"));
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  if (english ())
    g_assert_nonnull (strstr (text, "arrived last 10 of 10 times"));
  shoot (window, "follow-not-reporting.png");

  /* its file appears with every step so far; the job goes on */
  grow (&job, "appear", "3");
  grow (&job, "grow", NULL);
  wait_count (window, "allreduce", 2 * WORLD * BATCH);
  g_assert_null (_tprof_follow_dup_not_reporting (window->follow, NULL));
  g_assert_null (strstr (_tprof_window_get_live_text (window), expected));
  /* its first 10 samples fall in occurrences complete without it; the next 10 are all four ranks' */
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  if (english ())
    g_assert_nonnull (strstr (text, "arrived last 20 of 20 times"));
  assert_quantiles (window, &job, "allreduce");
  close_window (window);
  job_clear (&job);
}

static gboolean
one_window (gpointer data)
{
  return g_list_length (gtk_application_get_windows (data)) == 1;
}

/* Open of a folder that cannot be followed, from a window showing a job:
 * the window made for it goes, the reason is told in the opener. */
static void
test_follow_error_goes_to_opener (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autofree char *empty = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *prefix = NULL;
  const char *error;

  job_start (&job);
  window = follow (&job);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  empty = g_build_filename (job.root, "empty", NULL);
  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  file = g_file_new_for_path (empty);
  _tprof_window_open_files (window, &file, 1);
  app_test_wait (one_window, app);
  g_assert_true (gtk_application_get_windows (GTK_APPLICATION (app))->data == window);
  error = _tprof_window_get_error (window);
  prefix = g_strdup_printf (_("Could not follow %s: %s"), "empty", "");
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error, prefix));
  /* the job is still followed there */
  g_assert_nonnull (window->follow);
  g_assert_cmpint (row_count (window, "compute"), ==, WORLD * BATCH);
  shoot (window, "follow-error-opener.png");
  close_window (window);
  job_clear (&job);
}

/* Past TPROF_VIEWER_FOLLOW_MAX_SAMPLES the charts hold the samples kept
 * (in the order read: rank 0's compute and allreduce, rank 1's, then 10
 * of rank 2's compute), the counts every sample, and the header bar says so. */
static void
test_follow_capped (void)
{
  Job job = { 0 };
  TprofWindow *window;

  g_setenv ("TPROF_VIEWER_FOLLOW_MAX_SAMPLES", "50", TRUE);
  job_start (&job);
  window = follow (&job);
  g_unsetenv ("TPROF_VIEWER_FOLLOW_MAX_SAMPLES");
  g_assert_cmpint (row_count (window, "compute"), ==, WORLD * BATCH);
  g_assert_cmpstr (_tprof_profile_get_name (window->profile,
                                            (gsize) _tprof_operation_table_get_selected_index (window->table)),
                   ==, "compute");
  g_assert_cmpstr (_tprof_charts_panel_get_page (window->charts), ==, "charts");
  {
    const TprofHistogram *hist = _tprof_histogram_view_get_histogram (_tprof_charts_panel_get_histogram (window->charts));
    guint64 total = 0;

    for (gsize i = 0; i < hist->n_bins; i++)
      total += hist->counts[i];
    g_assert_cmpuint (total, ==, 3 * BATCH);
  }
  /* the header bar's note appears at the next update */
  grow (&job, "grow", NULL);
  wait_count (window, "compute", 2 * WORLD * BATCH);
  if (english ())
    g_assert_nonnull (strstr (_tprof_window_get_live_text (window), "charts hold the first samples only"));
  close_window (window);
  job_clear (&job);
}

/* Pause stops reading the files; resuming shows what came meanwhile. */
static void
test_follow_pause (void)
{
  Job job = { 0 };
  TprofWindow *window;
  guint64 reads;

  job_start (&job);
  window = follow (&job);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "follow.pause", NULL));
  g_assert_true (_tprof_follow_get_paused (window->follow));
  g_assert_true (starts_as (_tprof_window_get_live_text (window), "Paused — updated %s"));
  reads = _tprof_follow_get_n_reads (window->follow);
  grow (&job, "grow", NULL);
  /* ten intervals of the tests' 50 ms */
  spin (500);
  g_assert_cmpuint (_tprof_follow_get_n_reads (window->follow), ==, reads);
  g_assert_cmpint (row_count (window, "compute"), ==, WORLD * BATCH);
  shoot (window, "follow-paused.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "follow.pause", NULL));
  g_assert_false (_tprof_follow_get_paused (window->follow));
  g_assert_true (starts_as (_tprof_window_get_live_text (window), "Live — updated %s"));
  /* resuming reads at once */
  g_assert_cmpint (row_count (window, "compute"), ==, 2 * WORLD * BATCH);
  close_window (window);
  job_clear (&job);
}

static gboolean
error_shown (gpointer data)
{
  return _tprof_window_get_error (data) != NULL;
}

/* A rank's damaged tail: a banner names the rank and its file; what came
 * before, and the other ranks, stay shown and go on, the occurrences
 * after the damage completing without it (the straggler does not freeze
 * at the first batch). */
static void
test_follow_damaged (void)
{
  Job job = { 0 };
  TprofWindow *window;
  const char *error, *text = NULL;
  g_autofree char *file = g_strdup_printf (SPILL_NAME, 1);

  job_start (&job);
  window = follow (&job);
  grow (&job, "damage", "1");
  grow (&job, "grow", NULL);
  app_test_wait (error_shown, window);
  error = _tprof_window_get_error (window);
  g_assert_true (starts_as (error, "Rank %d: %s is damaged at byte %s (%s); what came before is shown, "
                                    "nothing after."));
  g_assert_nonnull (strstr (error, "1: "));
  g_assert_nonnull (strstr (error, file));
  /* rank 1's first batch, and the others' two */
  wait_count (window, "compute", WORLD * BATCH + (WORLD - 1) * BATCH);
  g_assert_cmpint (row_count (window, "allreduce"), ==, WORLD * BATCH + (WORLD - 1) * BATCH);
  /* rank 2 still arrives last at every allreduce, rank 1's included or not */
  g_assert_cmpint (_tprof_window_get_straggler (window, &text), ==, 2);
  if (english ())
    g_assert_nonnull (strstr (text, "arrived last 20 of 20 times"));
  g_assert_cmpstr (_tprof_window_get_page (window), ==, "profile");
  g_assert_true (starts_as (_tprof_window_get_live_text (window), "Live — updated %s"));
  shoot (window, "follow-damaged.png");
  close_window (window);
  job_clear (&job);
}

static gboolean
banner_shown (gpointer data)
{
  return _tprof_window_get_follow_banner (data, NULL) != NULL;
}

static gboolean
profile_shown (gpointer data)
{
  TprofWindow *window = data;

  return window->follow == NULL && !_tprof_window_is_busy (window);
}

/* The job ends: the banner offers the profile it wrote, which opens. */
static void
test_follow_end (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autofree char *profile = NULL;
  g_autoptr(GFile) profile_file = NULL;
  gboolean offers = FALSE;

  job_start (&job);
  profile = app_test_make_profile (job.root, "run.h5", APP_TEST_PROFILE_BASIC);
  window = follow (&job);
  grow (&job, "end", profile);
  app_test_wait (banner_shown, window);
  g_assert_true (starts_as (_tprof_window_get_follow_banner (window, &offers),
                            "The job ended and wrote its profile %s."));
  g_assert_true (offers);
  g_assert_true (starts_as (_tprof_window_get_live_text (window), "Ended — last updated %s"));
  g_assert_true (_tprof_follow_has_ended (window->follow));
  shoot (window, "follow-ended.png");

  g_signal_emit_by_name (gtk_widget_get_template_child (GTK_WIDGET (window), TPROF_TYPE_WINDOW, "follow_button"),
                         "clicked");
  app_test_wait (profile_shown, window);
  profile_file = g_file_new_for_path (profile);
  g_assert_true (g_file_equal (_tprof_window_get_file (window), profile_file));
  g_assert_cmpstr (_tprof_window_get_live_text (window), ==, "");
  g_assert_null (_tprof_window_get_follow_banner (window, NULL));
  g_assert_cmpint (row_count (window, "forward"), >, 0);
  close_window (window);
  job_clear (&job);
}

/* Rank 3's file never appears and the others end: the job has ended all
 * the same, the banner naming rank 3 as never reporting. */
static void
test_follow_end_without_a_file (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autofree char *profile = NULL;
  g_autofree char *expected = NULL;
  const char *banner;

  job_make (&job);
  grow_with (&job, "start-without", "3", NULL);
  profile = app_test_make_profile (job.root, "run.h5", APP_TEST_PROFILE_BASIC);
  window = follow (&job);
  g_assert_false (_tprof_follow_has_ended (window->follow));
  grow (&job, "end", profile);
  app_test_wait (banner_shown, window);
  g_assert_true (_tprof_follow_has_ended (window->follow));
  banner = _tprof_window_get_follow_banner (window, NULL);
  g_assert_true (starts_as (banner, "The job ended and wrote its profile %s."));
  expected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s Rank %s never reported: it has no spill file.",
                                           "%s Ranks %s never reported: they have no spill file.", 1), "", "3");
  g_assert_true (g_str_has_suffix (banner, expected));
  if (english ())
    g_assert_true (g_str_has_suffix (banner, ". Rank 3 never reported: it has no spill file."));
  g_assert_true (starts_as (_tprof_window_get_live_text (window), "Ended — last updated %s"));
  shoot (window, "follow-ended-without-a-file.png");
  close_window (window);
  job_clear (&job);
}

/* A job that ends without a profile: the banner says so and offers nothing. */
static void
test_follow_end_without_profile (void)
{
  Job job = { 0 };
  TprofWindow *window;
  gboolean offers = TRUE;

  job_start (&job);
  window = follow (&job);
  grow (&job, "end", "");
  app_test_wait (banner_shown, window);
  g_assert_true (starts_as (_tprof_window_get_follow_banner (window, &offers),
                            "The spill ended: the job wrote no profile. What it spilled is shown."));
  g_assert_false (offers);
  g_assert_cmpint (row_count (window, "compute"), ==, WORLD * BATCH);
  close_window (window);
  job_clear (&job);
}

/* A folder without spill files is refused with its name; nothing is followed. */
static void
test_follow_empty_folder (void)
{
  g_autofree char *dir = app_test_make_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autofree char *name = g_path_get_basename (dir);
  TprofWindow *window = app_test_gui_new_window (app);
  const char *error;

  _tprof_window_open (window, file);
  error = _tprof_window_get_error (window);
  g_assert_nonnull (error);
  g_assert_true (starts_as (error, "Could not follow %s: %s"));
  g_assert_nonnull (strstr (error, name));
  g_assert_null (window->follow);
  g_assert_true (_tprof_window_is_empty (window));
  g_assert_null (_tprof_window_get_file (window));
  close_window (window);
  app_test_remove_dir (dir);
}

static gboolean
ranks_stopped (gpointer data)
{
  return strstr (_tprof_window_get_live_text (data), "0-3") != NULL;
}

/* Ranks that wrote no flush for 3 of their spill intervals are named in
 * the live state. */
static void
test_follow_stopped (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autofree char *stopped = NULL;
  g_autofree char *live = NULL;
  g_autofree char *expected = NULL;
  guint n = 0;

  job.root = app_test_make_dir ();
  job.dir = g_build_filename (job.root, "spill", NULL);
  job.state = g_build_filename (job.root, "writer.json", NULL);
  g_assert_cmpint (g_mkdir (job.dir, 0700), ==, 0);
  /* a flush every 0.1 s promised, none kept */
  grow (&job, "start", "0.1");
  window = follow (&job);
  app_test_wait (ranks_stopped, window);
  stopped = _tprof_follow_dup_stopped (window->follow, &n);
  g_assert_cmpstr (stopped, ==, "0-3");
  g_assert_cmpuint (n, ==, 4);
  live = g_strdup_printf (_("Live — updated %s"), "");
  g_assert_true (g_str_has_prefix (_tprof_window_get_live_text (window), live));
  expected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s — rank %s stopped reporting",
                                           "%s — ranks %s stopped reporting", 4), "", "0-3");
  g_assert_true (g_str_has_suffix (_tprof_window_get_live_text (window), expected));
  close_window (window);
  job_clear (&job);
}

/* Comparing while following: operations that appear later are matched
 * with the baseline too. */
static void
test_follow_compare (void)
{
  Job job = { 0 };
  TprofWindow *window;
  g_autofree char *baseline = NULL;
  g_autoptr(GFile) baseline_file = NULL;
  GListModel *model;

  job_start (&job);
  baseline = app_test_make_profile (job.root, "base.h5", APP_TEST_PROFILE_BASIC);
  baseline_file = g_file_new_for_path (baseline);
  window = follow (&job);
  _tprof_window_compare_with (window, baseline_file);
  app_test_gui_wait_idle (window);
  g_assert_nonnull (_tprof_window_get_baseline (window));
  grow (&job, "newop", NULL);
  wait_count (window, "io", WORLD * BATCH);
  _tprof_operation_table_select_index (window->table, 2);
  app_test_gui_wait_idle (window);
  g_assert_nonnull (_tprof_window_get_baseline (window));
  g_assert_cmpint (_tprof_operation_table_get_selected_index (window->table), ==, 2);
  /* allreduce is in both runs; io and compute only in the job */
  model = _tprof_operation_table_get_model (window->table);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TprofOperation) op = g_list_model_get_item (model, i);
      gboolean both = g_str_equal (_tprof_operation_get_name (op), "allreduce");

      const TprofComparison *comparison = _tprof_operation_get_comparison (op, NULL);

      g_assert_nonnull (comparison);
      g_assert_cmpint (comparison->verdict == TPROF_VERDICT_ONLY_NEW, ==, !both);
    }
  close_window (window);
  job_clear (&job);
}

typedef struct
{
  GApplication *app;
  TprofWindow  *window;
  gboolean      following;
} RunCheck;

static void
window_added_cb (GtkApplication *application,
                 GtkWindow      *window,
                 RunCheck       *check)
{
  check->window = TPROF_WINDOW (window);
}

static gboolean
check_and_quit (gpointer data)
{
  RunCheck *check = data;

  check->following = check->window != NULL && check->window->follow != NULL;
  g_application_quit (check->app);
  return G_SOURCE_REMOVE;
}

/* tprof-viewer --follow DIR follows DIR; a DIR that is no folder exits 2. */
static void
test_follow_option (void)
{
  Job job = { 0 };
  g_autofree char *missing = NULL;
  TprofApplication *second;
  RunCheck check = { 0 };

  job_start (&job);
  missing = g_build_filename (job.root, "missing", NULL);
  second = _tprof_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_cmpint (g_application_run (G_APPLICATION (second), 3,
                                      (char *[]) { "tprof-viewer", "--follow", missing, NULL }), ==, 2);
  g_object_unref (second);

  second = _tprof_application_new (G_APPLICATION_NON_UNIQUE);
  check.app = G_APPLICATION (second);
  g_signal_connect (second, "window-added", G_CALLBACK (window_added_cb), &check);
  g_timeout_add (500, check_and_quit, &check);
  g_assert_cmpint (g_application_run (G_APPLICATION (second), 3,
                                      (char *[]) { "tprof-viewer", "--follow", job.dir, NULL }), ==, 0);
  g_assert_true (check.following);
  g_object_unref (second);
  job_clear (&job);
}

int
main (int    argc,
      char **argv)
{
  /* fast polls, so the tests wait little */
  g_setenv ("TPROF_VIEWER_FOLLOW_INTERVAL_MS", "50", TRUE);
  app_test_gui_bind_locale ();
  gtk_test_init (&argc, &argv, NULL);
  app = app_test_gui_start ();

  g_test_add_func ("/follow/grows", test_follow_grows);
  g_test_add_func ("/follow/capped", test_follow_capped);
  g_test_add_func ("/follow/filtered", test_follow_filtered);
  g_test_add_func ("/follow/late-host", test_follow_late_host);
  g_test_add_func ("/follow/not-reporting", test_follow_not_reporting);
  g_test_add_func ("/follow/error-goes-to-opener", test_follow_error_goes_to_opener);
  g_test_add_func ("/follow/pause", test_follow_pause);
  g_test_add_func ("/follow/damaged", test_follow_damaged);
  g_test_add_func ("/follow/end", test_follow_end);
  g_test_add_func ("/follow/end-without-profile", test_follow_end_without_profile);
  g_test_add_func ("/follow/end-without-a-file", test_follow_end_without_a_file);
  g_test_add_func ("/follow/empty-folder", test_follow_empty_folder);
  g_test_add_func ("/follow/option", test_follow_option);
  g_test_add_func ("/follow/compare", test_follow_compare);
  g_test_add_func ("/follow/stopped", test_follow_stopped);
  return g_test_run ();
}
