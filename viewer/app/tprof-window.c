/* tprof-window.c — TprofWindow: loading a profile, the empty/loading/profile pages and the rank filter's effects. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tprof-operation.h"
#include "tprof-plot.h"
#include "tprof-window-private.h"

#define PROGRESS_INTERVAL_MS 100

G_DEFINE_FINAL_TYPE (TprofWindow, tprof_window, GTK_TYPE_APPLICATION_WINDOW)

typedef struct
{
  TprofProfile           *profile;
  GBytes                 *mask;
  guint                   generation;
  TprofOperationSamples **samples;  /* per operation, NULL where not in memory */
  WindowComparison       *comparison;  /* NULL: no baseline */
} TableJob;

static void
table_job_free (TableJob *job)
{
  gsize n = _tprof_profile_get_n_operations (job->profile);

  for (gsize i = 0; i < n; i++)
    _tprof_operation_samples_unref (job->samples[i]);
  g_free (job->samples);
  _tprof_window_comparison_free (job->comparison);
  g_object_unref (job->profile);
  g_clear_pointer (&job->mask, g_bytes_unref);
  g_free (job);
}

void
_tprof_window_show_error (TprofWindow *self,
                          const char  *message)
{
  gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
}

void
_tprof_window_hide_error (TprofWindow *self)
{
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
}

const char *
_tprof_window_get_error (TprofWindow *self)
{
  if (!gtk_revealer_get_reveal_child (self->error_revealer))
    return NULL;
  return gtk_label_get_text (self->error_label);
}

const char *
_tprof_window_get_page (TprofWindow *self)
{
  return gtk_stack_get_visible_child_name (self->stack);
}

gboolean
_tprof_window_is_busy (TprofWindow *self)
{
  return self->loading != NULL || self->baseline_loading != NULL || self->extras_loading > 0
         || self->table_pending > 0 || self->read_pending > 0 || _tprof_rank_filter_is_filling (self->rank_filter)
         || (self->follow != NULL && _tprof_follow_is_computing (self->follow))
         || (self->profile != NULL && (_tprof_profile_is_finding_stragglers (self->profile)
                                       || _tprof_profile_is_building_tree (self->profile)));
}

GFile *
_tprof_window_get_file (TprofWindow *self)
{
  g_return_val_if_fail (TPROF_IS_WINDOW (self), NULL);
  return self->file;
}

gboolean
_tprof_window_is_empty (TprofWindow *self)
{
  g_return_val_if_fail (TPROF_IS_WINDOW (self), FALSE);
  return self->profile == NULL && self->loading == NULL;
}

/* Shows page @name. The spinner spins only on its own page: a spinning
 * spinner keeps the frame clock ticking even where nobody sees it, and the
 * window would then redraw at frame rate while idle. So does a pulsing
 * progress bar (while the helper opens the file no fraction is known):
 * leaving the page, it gets a fraction, which stops the pulse. */
static void
tprof_window_show_page (TprofWindow *self,
                        const char  *name)
{
  gboolean loading = g_str_equal (name, "loading");

  gtk_stack_set_visible_child_name (self->stack, name);
  gtk_spinner_set_spinning (self->loading_spinner, loading);
  if (!loading)
    gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
}

/* The samples the file keeps of operation @op on the ranks @shown (NULL:
 * all): its count, unless the file keeps a subset. */
static guint64
stored_samples (TprofProfile       *profile,
                gsize               op,
                const TprofSummary *summary,
                const guint8       *shown)
{
  const TprofOperationStats *stats = _tprof_profile_get_stats (profile, op);
  guint64 stored = 0;

  if (!_tprof_profile_is_sampled (profile, op) || stats == NULL)
    return summary->count;
  for (int r = 0; r < _tprof_profile_get_world_size (profile); r++)
    if (shown == NULL || shown[r])
      stored += (guint64) stats->rank_count[r];
  return stored;
}

/* The table's rows: @summaries, or (NULL) the cached statistics; with
 * the operation tree, each one's parent and self time on the ranks of
 * @mask (NULL: all). */
static GPtrArray *
operations_new (TprofProfile       *profile,
                const TprofSummary *summaries,
                GBytes             *mask)
{
  gsize n = _tprof_profile_get_n_operations (profile);
  GPtrArray *operations = g_ptr_array_new_full (n, g_object_unref);
  gboolean tree = _tprof_profile_has_tree (profile);
  const guint8 *shown = mask != NULL ? g_bytes_get_data (mask, NULL) : NULL;

  for (gsize i = 0; i < n; i++)
    {
      const TprofSummary *summary = summaries != NULL ? &summaries[i] : _tprof_profile_get_summary (profile, i);
      TprofOperation *operation = _tprof_operation_new (_tprof_profile_get_name (profile, i), i, summary);

      _tprof_operation_set_sampled (operation, _tprof_profile_is_sampled (profile, i),
                                    stored_samples (profile, i, summary, shown));
      if (tree)
        _tprof_operation_set_tree (operation, TRUE, _tprof_profile_get_parent (profile, i),
                                   _tprof_profile_get_self_time (profile, i, shown));
      g_ptr_array_add (operations, operation);
    }
  return operations;
}

static void
table_job_worker (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  TableJob *job = task_data;
  gsize n = _tprof_profile_get_n_operations (job->profile);
  TprofSummary *summaries = g_new (TprofSummary, MAX (n, 1));
  const guint8 *mask = job->mask != NULL ? g_bytes_get_data (job->mask, NULL) : NULL;

  for (gsize i = 0; i < n; i++)
    {
      /* a newer filter made this work useless */
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_free (summaries);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
          return;
        }
      _tprof_profile_summarize (job->profile, i, job->samples[i], mask, &summaries[i]);
    }
  if (job->comparison != NULL)
    _tprof_window_comparison_run (job->comparison, job->profile, job->samples, mask);
  g_task_return_pointer (task, summaries, g_free);
}

static void
table_job_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TprofWindow *self = TPROF_WINDOW (object);
  TableJob *job = g_task_get_task_data (G_TASK (result));
  g_autofree TprofSummary *summaries = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autoptr(GPtrArray) operations = NULL;

  self->table_pending--;
  if (summaries == NULL || job->generation != self->table_generation || job->profile != self->profile)
    return;

  operations = operations_new (self->profile, summaries, job->mask);
  _tprof_window_comparison_apply (job->comparison, operations);
  _tprof_operation_table_set_operations (self->table, operations);
  _tprof_window_open_on_straggler (self);
}

/* Statistics under a rank filter need quantiles of every operation: a worker
 * computes them while the charts, which are cheap, follow at once. An
 * operation whose samples are not in memory gets what its cached per-rank
 * totals give. */
void
_tprof_window_update_table (TprofWindow *self)
{
  gsize n;
  g_autoptr(GTask) task = NULL;
  TableJob *job;

  self->table_generation++;
  g_cancellable_cancel (self->table_cancellable);
  g_clear_object (&self->table_cancellable);
  if (self->profile == NULL)
    return;

  /* all ranks and nothing to compare: the cached statistics at once */
  if (self->mask == NULL && self->baseline == NULL)
    {
      g_autoptr(GPtrArray) operations = operations_new (self->profile, NULL, NULL);

      _tprof_operation_table_set_operations (self->table, operations);
      _tprof_window_open_on_straggler (self);
      return;
    }

  job = g_new0 (TableJob, 1);
  job->profile = g_object_ref (self->profile);
  job->mask = self->mask != NULL ? g_bytes_ref (self->mask) : NULL;
  job->comparison = _tprof_window_comparison_new (self);
  job->generation = self->table_generation;
  n = _tprof_profile_get_n_operations (self->profile);
  job->samples = g_new0 (TprofOperationSamples *, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    job->samples[i] = _tprof_profile_ref_samples (self->profile, i);

  self->table_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->table_cancellable, table_job_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) table_job_free);
  self->table_pending++;
  g_task_run_in_thread (task, table_job_worker);
}

static void tprof_window_update_straggler_button (TprofWindow *self);

static void
rank_filter_changed_cb (TprofWindow     *self,
                        TprofRankFilter *filter)
{
  g_clear_pointer (&self->mask, g_bytes_unref);
  self->mask = _tprof_rank_filter_dup_mask (filter);
  tprof_window_update_straggler_button (self);

  _tprof_window_update_charts (self);
  _tprof_window_update_table (self);
}

static void
selected_operation_cb (TprofWindow *self)
{
  _tprof_window_note_selection (self);
  _tprof_window_update_charts (self);
}

static void
rank_clicked_cb (TprofWindow      *self,
                 int               rank,
                 TprofChartsPanel *charts)
{
  /* a click filters to the rank; a second click goes back */
  _tprof_rank_filter_focus_rank (self->rank_filter, rank);
}

static void
ranks_clicked_cb (TprofWindow      *self,
                  const gint32     *ranks,
                  guint             n_ranks,
                  TprofChartsPanel *charts)
{
  /* a host's bar or row: its ranks, as the straggler's "Show node064" */
  _tprof_rank_filter_focus_ranks (self->rank_filter, ranks, n_ranks);
}

static void
tprof_window_stop_progress (TprofWindow *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
}

static void tprof_window_show_straggler (TprofWindow  *self,
                                         TprofProfile *profile);

/* One timer for every progress shown: the file loading, the selected
 * operation's samples, the straggler search; it stops when all are done,
 * so that an idle window does not wake up. */
static gboolean
progress_tick_cb (gpointer user_data)
{
  TprofWindow *self = user_data;
  gboolean active = FALSE;

  if (self->loading != NULL)
    {
      if (_tprof_profile_get_is_reading (self->loading))
        gtk_progress_bar_pulse (self->progress_bar);
      else
        gtk_progress_bar_set_fraction (self->progress_bar, _tprof_profile_get_progress (self->loading));
      active = TRUE;
    }
  if (_tprof_window_tick_reading (self))
    active = TRUE;
  if (self->profile != NULL && _tprof_profile_is_finding_stragglers (self->profile))
    {
      tprof_window_show_straggler (self, self->profile);
      active = TRUE;
    }
  if (!active)
    {
      self->progress_source = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

void
_tprof_window_start_progress (TprofWindow *self)
{
  if (self->progress_source == 0)
    self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_tick_cb, self);
}

/* The host named instead of one rank: its name and ranks, kept for the
 * button; cleared when the verdict is a rank or nothing. */
static void
tprof_window_set_straggler_host (TprofWindow                 *self,
                                 const TprofTopology         *topo,
                                 const TprofStragglerVerdict *verdict)
{
  const int32_t *ranks;

  g_clear_pointer (&self->straggler_host, g_free);
  g_clear_pointer (&self->straggler_host_ranks, g_free);
  self->straggler_host_n_ranks = 0;
  if (verdict != NULL && verdict->kind == TPROF_STRAGGLER_VERDICT_GROUP)
    {
      ranks = tprof_topology_group_ranks (topo, verdict->level, verdict->group, &self->straggler_host_n_ranks);
      self->straggler_host_ranks = g_memdup2 (ranks, self->straggler_host_n_ranks * sizeof *ranks);
      self->straggler_host = tprof_escape_text (tprof_topology_group_name (topo, verdict->level, verdict->group));
    }
  /* the per-rank chart marks the host the bar names (the window being
   * disposed has no charts) */
  if (self->charts != NULL)
    _tprof_rank_chart_set_straggler_group (_tprof_charts_panel_get_rank_chart (self->charts), self->straggler_host,
                                           self->straggler_host_ranks, self->straggler_host_n_ranks);
}

/* "Straggler: host node064 (ranks 512-519), …": a host whose ranks were
 * late together. */
static char *
host_straggler_text (TprofWindow                 *self,
                     const TprofStragglerVerdict *verdict)
{
  g_autofree char *ranks = tprof_rank_expr_format (self->straggler_host_ranks, self->straggler_host_n_ranks);
  g_autofree char *wait = tprof_format_duration (verdict->wait_caused, 3);

  /* Translators: the first %s is a host's name, the second its ranks
   * (512-519), the last a duration (37 min) */
  return g_strdup_printf (_("Straggler: host %s (ranks %s), last to arrive %" PRIu64 " of %" PRIu64
                            " times, keeping the other ranks waiting %s in all."),
                          self->straggler_host, ranks, verdict->late_count, verdict->occurrences, wait);
}

/* "Straggler: rank 2 (host) arrived last …", and the rank durations alone
 * would blame when it differs. */
static char *
rank_straggler_text (TprofProfile          *profile,
                     const TprofStragglers *blame,
                     gssize                 first,
                     int                    rank)
{
  const TprofSummary *s = _tprof_profile_get_summary (profile, (gsize) first);
  const char *raw_host = _tprof_profile_get_hostname (profile, rank);
  g_autofree char *host = raw_host != NULL ? tprof_escape_text (raw_host) : NULL;
  g_autofree char *op = tprof_escape_text (_tprof_profile_get_name (profile, (gsize) first));
  g_autofree char *who = host != NULL ? g_strdup_printf (_("rank %d (%s)"), rank, host)
                                      : g_strdup_printf (_("rank %d"), rank);
  g_autofree char *wait = tprof_format_duration (tprof_stragglers_wait_caused (blame)[rank], 3);
  g_autofree char *text = g_strdup_printf (_("Straggler: %s arrived last %" PRIu64 " of %" PRIu64
                                             " times where the ranks wait for each other (%s), keeping the "
                                             "others waiting %s in all."),
                                           who, tprof_stragglers_late_count (blame)[rank],
                                           tprof_stragglers_occurrences (blame), op, wait);

  if (s != NULL && s->slowest_stands_out && s->slowest_rank != rank)
    return g_strdup_printf (_("%s Durations alone point at rank %d: at a collective "
                              "the late rank waits least."), text, s->slowest_rank);
  return g_steal_pointer (&text);
}

/* The bar above the table names the straggler from arrival (who kept
 * the others waiting at the operations that synchronise them) as the
 * engine decides it: a host whose ranks were late together, or one rank
 * beside the rank durations alone would blame; its button shows that host
 * or rank alone. Without a timeline it stays hidden. */
static void
tprof_window_show_straggler (TprofWindow  *self,
                             TprofProfile *profile)
{
  gssize first = -1;
  const TprofStragglers *blame = _tprof_profile_get_stragglers (profile, &first);
  const TprofTopology *topo = NULL;
  TprofStragglerVerdict verdict = { .kind = TPROF_STRAGGLER_VERDICT_NONE, .rank = -1 };
  g_autofree char *text = NULL;
  int rank = -1;

  if (_tprof_profile_is_finding_stragglers (profile))
    {
      int percent = (int) (100.0 * _tprof_profile_get_straggler_progress (profile));

      self->straggler = -1;
      tprof_window_set_straggler_host (self, NULL, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->straggler_button), FALSE);
      /* Translators: %d %% is a percentage, e.g. 45 % */
      text = g_strdup_printf (_("Finding the straggler from arrival: reading every operation once (%d %%)…"), percent);
      gtk_label_set_text (self->straggler_label, text);
      gtk_widget_set_visible (self->straggler_bar, TRUE);
      return;
    }
  if (blame != NULL && first >= 0 && _tprof_profile_decide_straggler (profile, &verdict, &topo))
    rank = verdict.kind == TPROF_STRAGGLER_VERDICT_GROUP ? verdict.latest_rank
           : verdict.kind == TPROF_STRAGGLER_VERDICT_RANK ? verdict.rank : -1;
  self->straggler = rank;
  tprof_window_set_straggler_host (self, topo, rank >= 0 ? &verdict : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->straggler_button), rank >= 0);
  if (blame == NULL)
    {
      gtk_widget_set_visible (self->straggler_bar, FALSE);
      gtk_label_set_text (self->straggler_label, "");
      return;
    }
  if (first < 0)
    text = g_strdup (_("No straggler can be named: no operation synchronises the ranks (they leave none "
                       "together after arriving apart)."));
  else if (rank < 0)
    text = g_strdup (_("No clear straggler: the last rank to arrive at the operations that synchronise the "
                       "ranks varies."));
  else if (self->straggler_host != NULL)
    text = host_straggler_text (self, &verdict);
  else
    text = rank_straggler_text (profile, blame, first, rank);
  if (rank >= 0)
    tprof_window_update_straggler_button (self);
  gtk_label_set_text (self->straggler_label, text);
  gtk_widget_set_visible (self->straggler_bar, TRUE);
  _tprof_window_open_on_straggler (self);
}

/* Whether the rank filter shows the straggler (its host's ranks, or its
 * rank) alone. */
static gboolean
showing_straggler_alone (TprofWindow *self)
{
  const guint8 *mask = self->mask != NULL ? g_bytes_get_data (self->mask, NULL) : NULL;

  if (self->straggler < 0 || mask == NULL)
    return FALSE;
  if (self->straggler_host == NULL)
    return mask[self->straggler] && _tprof_rank_filter_get_n_selected (self->rank_filter) == 1;
  for (gsize i = 0; i < self->straggler_host_n_ranks; i++)
    if (!mask[self->straggler_host_ranks[i]])
      return FALSE;
  return _tprof_rank_filter_get_n_selected (self->rank_filter) == self->straggler_host_n_ranks;
}

/* "Show Rank N" or "Show node064", or the way back once it is shown
 * alone: to every rank, or to the ranks shown before when they were fewer. */
static void
tprof_window_update_straggler_button (TprofWindow *self)
{
  g_autofree char *label = NULL;
  g_autofree char *previous = NULL;
  g_autofree char *tooltip = NULL;

  if (self->straggler < 0)
    return;
  if (showing_straggler_alone (self) && (previous = _tprof_rank_filter_dup_previous (self->rank_filter)) != NULL)
    {
      label = g_strdup (_("Back to Previous Ranks"));
      /* Translators: the tooltip of "Back to Previous Ranks"; %s lists them ("0-511") */
      tooltip = g_strdup_printf (_("Shows again the ranks shown before: %s"), previous);
    }
  else if (showing_straggler_alone (self))
    label = g_strdup (_("Show All Ranks"));
  else if (self->straggler_host != NULL)
    /* Translators: %s is a host's name: the button shows its ranks alone */
    label = g_strdup_printf (_("Show %s"), self->straggler_host);
  else
    label = g_strdup_printf (_("Show Rank %d"), self->straggler);
  gtk_button_set_label (self->straggler_button, label);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->straggler_button), tooltip);
}

static void
straggler_button_cb (TprofWindow *self,
                     GtkButton   *button)
{
  if (self->straggler < 0)
    return;
  /* the straggler alone, or the ranks shown before when it is shown alone */
  if (self->straggler_host == NULL)
    _tprof_rank_filter_focus_rank (self->rank_filter, self->straggler);
  else if (showing_straggler_alone (self))
    _tprof_rank_filter_go_back (self->rank_filter);
  else
    _tprof_rank_filter_focus_ranks (self->rank_filter, self->straggler_host_ranks,
                                    self->straggler_host_n_ranks);
}

int
_tprof_window_get_straggler (TprofWindow  *self,
                             const char  **text)
{
  g_return_val_if_fail (TPROF_IS_WINDOW (self), -1);
  if (text != NULL)
    *text = gtk_widget_get_visible (self->straggler_bar) ? gtk_label_get_text (self->straggler_label) : "";
  return self->straggler;
}

void
_tprof_window_show_title (TprofWindow *self)
{
  g_autofree char *basename = g_file_get_basename (_tprof_profile_get_file (self->profile));
  g_autoptr(GFile) parent = g_file_get_parent (_tprof_profile_get_file (self->profile));
  g_autofree char *folder = parent != NULL ? g_file_get_path (parent) : NULL;
  g_autofree char *shown = NULL;
  const char *home = g_get_home_dir ();

  gtk_label_set_text (self->title_label, basename);
  if (self->baseline != NULL)
    {
      guint n;
      g_autofree char *base = _tprof_window_baseline_names (self, &n);
      /* Translators: the window title while comparing; the first %s is the
       * profile's file, the second the baselines' (comma-separated) */
      g_autofree char *title = g_strdup_printf (_("%s compared with %s"), basename, base);

      gtk_window_set_title (GTK_WINDOW (self), title);
      /* Translators: %s is the baseline's file name, or several comma-separated */
      shown = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Baseline: %s", "Baselines: %s", n), base);
    }
  else
    {
      gtk_window_set_title (GTK_WINDOW (self), basename);
      /* "~/runs/a" rather than "/home/me/runs/a" */
      if (folder != NULL && home != NULL && g_str_has_prefix (folder, home)
          && (folder[strlen (home)] == '/' || folder[strlen (home)] == '\0') && strcmp (home, "/") != 0)
        shown = g_strconcat ("~", folder + strlen (home), NULL);
      else
        shown = g_strdup (folder);
    }
  gtk_label_set_text (self->subtitle_label, shown != NULL ? shown : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), shown != NULL);
}

static void
stragglers_found_cb (TprofWindow  *self,
                     TprofProfile *profile)
{
  tprof_window_show_straggler (self, profile);
}

/* The background pass built the tree (or found there is none): the table
 * becomes the operation tree, and the breakdown follows. */
static void
tree_found_cb (TprofWindow  *self,
               TprofProfile *profile)
{
  if (_tprof_profile_has_tree (profile))
    _tprof_window_update_table (self);
  _tprof_charts_panel_tree_changed (self->charts);
}

/* Stops what the shown profile does in the background and drops it. */
static void
tprof_window_put_away_profile (TprofWindow *self)
{
  _tprof_window_cancel_reading (self);
  if (self->profile == NULL)
    return;
  g_clear_signal_handler (&self->stragglers_handler, self->profile);
  g_clear_signal_handler (&self->tree_handler, self->profile);
  _tprof_profile_close (self->profile);
  g_clear_object (&self->profile);
}

static void
tprof_window_show_profile (TprofWindow  *self,
                           TprofProfile *profile)
{
  g_autofree char *uri = g_file_get_uri (_tprof_profile_get_file (profile));

  tprof_window_put_away_profile (self);
  self->profile = g_object_ref (profile);
  self->stragglers_handler = g_signal_connect_object (profile, "stragglers-found",
                                                      G_CALLBACK (stragglers_found_cb), self, G_CONNECT_SWAPPED);
  self->tree_handler = g_signal_connect_object (profile, "tree-found", G_CALLBACK (tree_found_cb), self,
                                                G_CONNECT_SWAPPED);
  g_clear_pointer (&self->mask, g_bytes_unref);
  /* a baseline stays: the new profile is compared with it */
  g_clear_pointer (&self->baseline_ops, g_free);

  _tprof_window_show_title (self);
  tprof_window_show_page (self, "profile");

  _tprof_window_reset_first_view (self);
  /* empty the table first so the old selection is not carried over */
  {
    g_autoptr(GPtrArray) none = g_ptr_array_new ();

    _tprof_operation_table_set_operations (self->table, none);
  }
  /* opens on the operation where the ranks lose most time waiting */
  _tprof_operation_table_sort_by (self->table, "imbalance-time", GTK_SORT_DESCENDING);
  if (self->baseline != NULL)
    _tprof_window_comparison_changed (self);
  _tprof_rank_filter_set_profile (self->rank_filter, profile);
  tprof_window_show_straggler (self, profile);

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  _tprof_window_update_actions (self);
}

void
_tprof_window_show_live_profile (TprofWindow  *self,
                                 TprofProfile *profile,
                                 gboolean      first)
{
  if (first)
    {
      tprof_window_show_profile (self, profile);
      return;
    }
  tprof_window_put_away_profile (self);
  self->profile = g_object_ref (profile);
  /* operations may have appeared: matched with a baseline again */
  if (self->baseline != NULL)
    _tprof_window_comparison_changed (self);
  else
    _tprof_window_update_table (self);
  tprof_window_show_straggler (self, profile);
  if (self->baseline == NULL)
    _tprof_window_update_charts (self);
}

/* A window made by another's Open for a file it could not open goes away
 * again, leaving the reason in that window (rather than an empty one). */
gboolean
_tprof_window_hand_back_error (TprofWindow *self,
                               const char  *message)
{
  g_autoptr(TprofWindow) opener = g_weak_ref_get (&self->opener);

  if (opener == NULL || self->profile != NULL)
    return FALSE;
  _tprof_window_show_error (opener, message);
  gtk_window_present (GTK_WINDOW (opener));
  gtk_window_destroy (GTK_WINDOW (self));
  return TRUE;
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TprofWindow) self = user_data;
  TprofProfile *profile = TPROF_PROFILE (object);
  g_autoptr(GError) error = NULL;

  if (!_tprof_profile_load_finish (profile, result, &error))
    {
      g_autofree char *name = NULL;
      g_autofree char *message = NULL;

      if (profile != self->loading || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      name = g_file_get_basename (_tprof_profile_get_file (profile));
      /* Translators: the first %s is a file name, the second says what is wrong with it */
      message = g_strdup_printf (_("Could not open %s: %s"), name, error->message);
      if (_tprof_window_hand_back_error (self, message))
        return;
      _tprof_window_show_error (self, message);

      g_clear_object (&self->loading);
      g_clear_object (&self->file);
      if (self->profile != NULL)
        self->file = g_object_ref (_tprof_profile_get_file (self->profile));
      tprof_window_show_page (self, self->profile != NULL ? "profile" : "empty");
      _tprof_window_update_actions (self);
      return;
    }

  if (profile != self->loading)
    return;

  g_clear_object (&self->loading);
  _tprof_window_hide_error (self);
  _tprof_window_stop_following (self);
  tprof_window_show_profile (self, profile);
  /* the straggler search, where it goes on in the background */
  _tprof_window_start_progress (self);
}

void
_tprof_window_open (TprofWindow *self,
                    GFile       *file)
{
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (TPROF_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_set_object (&self->file, file);
  g_clear_object (&self->loading);
  /* a folder: a running job's spill files */
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
    {
      _tprof_window_follow (self, file);
      return;
    }
  self->loading = _tprof_profile_new (file);

  name = g_file_get_basename (file);
  /* Translators: %s is a file name */
  text = g_strdup_printf (_("Loading %s…"), name);
  gtk_label_set_text (self->loading_label, text);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  tprof_window_show_page (self, "loading");
  _tprof_window_hide_error (self);

  _tprof_window_start_progress (self);

  _tprof_profile_load_async (self->loading, self->cancellable, load_done_cb, g_object_ref (self));
  _tprof_window_update_actions (self);
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         TprofWindow   *self)
{
  GdkFileList *list = g_value_get_boxed (value);
  g_autoptr(GSList) files = list != NULL ? gdk_file_list_get_files (list) : NULL;
  g_autoptr(GPtrArray) rest = g_ptr_array_new ();
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  GSList *l = files;

  if (files == NULL)
    return FALSE;

  /* the first file lands here when this window is free; the others get their own */
  if (_tprof_window_is_empty (self))
    {
      _tprof_window_open (self, l->data);
      l = l->next;
    }
  for (; l != NULL; l = l->next)
    g_ptr_array_add (rest, l->data);
  if (rest->len > 0 && app != NULL)
    g_application_open (app, (GFile **) rest->pdata, rest->len, "");
  return TRUE;
}

static void
tprof_window_bind_settings (TprofWindow *self)
{
  static const char * const actions[] = { "separate-ranks", "log-x", "log-y", "rank-metric", "heatmap-deviation",
                                          "trend-time-axis" };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      g_autoptr(GAction) action = g_settings_create_action (self->settings, actions[i]);

      g_action_map_add_action (G_ACTION_MAP (group), action);
    }
  /* the menu and the charts panel's toggle buttons share these */
  gtk_widget_insert_action_group (GTK_WIDGET (self), "settings", G_ACTION_GROUP (group));

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static gboolean
tprof_window_close_request (GtkWindow *window)
{
  TprofWindow *self = TPROF_WINDOW (window);
  int width;
  int height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }

  g_cancellable_cancel (self->cancellable);

  return GTK_WINDOW_CLASS (tprof_window_parent_class)->close_request (window);
}

static void
tprof_window_dispose (GObject *object)
{
  TprofWindow *self = (TprofWindow *)object;

  tprof_window_stop_progress (self);
  _tprof_window_stop_following (self);
  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TPROF_TYPE_WINDOW);

  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->table_cancellable);
  g_clear_object (&self->table_cancellable);
  g_clear_object (&self->loading);
  tprof_window_put_away_profile (self);
  g_cancellable_cancel (self->baseline_cancellable);
  g_clear_object (&self->baseline_cancellable);
  g_clear_object (&self->baseline_loading);
  _tprof_window_cancel_baseline_reading (self);
  if (self->baseline != NULL)
    _tprof_profile_close (self->baseline);
  g_clear_object (&self->baseline);
  g_clear_pointer (&self->baseline_ops, g_free);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->mask, g_bytes_unref);
  tprof_window_set_straggler_host (self, NULL, NULL);
  g_weak_ref_set (&self->opener, NULL);

  G_OBJECT_CLASS (tprof_window_parent_class)->dispose (object);
}

static void
tprof_window_class_init (TprofWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tprof_window_dispose;
  window_class->close_request = tprof_window_close_request;

  g_type_ensure (TPROF_TYPE_CHARTS_PANEL);
  g_type_ensure (TPROF_TYPE_OPERATION_TABLE);
  g_type_ensure (TPROF_TYPE_RANK_FILTER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tprof/Viewer/tprof-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, empty_title);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, table);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, charts);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, rank_filter);
  gtk_widget_class_bind_template_callback (widget_class, rank_filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, selected_operation_cb);
  gtk_widget_class_bind_template_callback (widget_class, rank_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, ranks_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, straggler_button_cb);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, straggler_bar);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, straggler_label);
  gtk_widget_class_bind_template_child (widget_class, TprofWindow, straggler_button);

  _tprof_window_class_add_actions (widget_class);
  _tprof_window_follow_class_init (widget_class);
}

static void
tprof_window_init (TprofWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->straggler = -1;
  self->straggler_op_rank = -1;
  self->reading_op = -1;
  self->baseline_reading_op = -1;
  _tprof_window_connect_reading (self);
  /* the rank list and the table are one tab stop each */
  _tprof_rank_filter_set_next_focus (self->rank_filter, GTK_WIDGET (self->table));
  _tprof_operation_table_set_next_focus (self->table, GTK_WIDGET (self->charts));

  self->settings = g_settings_new (APP_ID);
  tprof_window_bind_settings (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  _tprof_window_follow_init (self);
  _tprof_window_update_actions (self);
}

TprofWindow *
_tprof_window_new (TprofApplication *application)
{
  return g_object_new (TPROF_TYPE_WINDOW, "application", application, NULL);
}
