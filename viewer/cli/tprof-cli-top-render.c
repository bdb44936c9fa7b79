/* tprof-cli-top-render.c — `tprof top`: one refresh as text: operations so far, the straggler so far, stopped ranks by host, progress, missing and damaged files. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-top.h"

void
tprof_cli_top_progress_update (TprofCliTopProgress *p,
                               const TprofLive     *live,
                               gint64               now)
{
  gsize n = tprof_live_n_operations (live);
  guint64 best = 0;
  gboolean best_sync = FALSE;

  p->op = -1;
  for (gsize op = 0; op < n; op++)
    {
      TprofArrival a;

      tprof_live_arrival (live, op, &a);
      if ((a.synchronising && !best_sync) || (a.synchronising == best_sync && a.n_occurrences > best))
        {
          p->op = (gssize) op;
          best = a.n_occurrences;
          best_sync = a.synchronising;
        }
    }
  p->rate = NAN;
  if (p->op >= 0 && p->when > 0 && now > p->when)
    {
      guint64 before = (gsize) p->op < p->n_ops ? p->occurrences[p->op] : 0;

      p->rate = (double) (best - before) / ((double) (now - p->when) * 1e-6);
    }
  p->occurrences = g_renew (guint64, p->occurrences, MAX (n, 1));
  for (gsize op = 0; op < n; op++)
    {
      TprofArrival a;

      tprof_live_arrival (live, op, &a);
      p->occurrences[op] = a.n_occurrences;
    }
  p->n_ops = n;
  p->when = now;
}

static int
compare_totals (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const double *totals = user_data;
  double x = totals[*(const gsize *) a], y = totals[*(const gsize *) b];

  return (x < y) - (x > y);
}

static void
append_operations (GString         *out,
                   const TprofLive *live)
{
  const char *headers[] = { _("Operation"), _("Count"), _("Mean"), _("Total") };
  const gboolean left[] = { TRUE, FALSE, FALSE, FALSE };
  gsize n = tprof_live_n_operations (live);
  g_autofree TprofSummary *s = g_new0 (TprofSummary, MAX (n, 1));
  g_autofree double *totals = g_new0 (double, MAX (n, 1));
  g_autofree gsize *order = g_new (gsize, MAX (n, 1));
  TprofCliTable *table = tprof_cli_table_new (4, headers, left);
  char *text;

  for (gsize op = 0; op < n; op++)
    {
      order[op] = op;
      if (tprof_live_summary (live, op, &s[op]))
        totals[op] = s[op].sum;
    }
  g_qsort_with_data (order, (gint) n, sizeof *order, compare_totals, totals);
  for (gsize i = 0; i < n; i++)
    {
      const TprofSummary *row = &s[order[i]];
      char *cells[] = {
        tprof_cli_escape (tprof_live_operation_name (live, order[i])),
        g_strdup_printf ("%zu", row->count),
        tprof_cli_cell_duration (row->mean),
        tprof_cli_cell_duration (row->sum),
      };

      tprof_cli_table_add_row (table, cells);
    }
  text = tprof_cli_table_free_to_string (table);
  if (n == 0)
    g_string_append (out, _("No samples yet.\n"));
  else
    g_string_append (out, text);
  g_free (text);
}

/* The ranks' host names from the headers (NULL where no file). */
static const char **
host_names (const TprofSpillLive *sl)
{
  const char **hosts = g_new0 (const char *, sl->job->world_size);

  for (int r = 0; r < sl->job->world_size; r++)
    if (sl->job->readers[r] != NULL)
      hosts[r] = _tprof_spill_reader_header (sl->job->readers[r])->host;
  return hosts;
}

static const char *
rank_host (const TprofSpillLive *sl,
           int                   r)
{
  return sl->job->readers[r] != NULL ? _tprof_spill_reader_header (sl->job->readers[r])->host : "";
}

/* "confidence 99.98 % (p = 0.0002)" */
static char *
confidence (double p)
{
  if (p < 1e-4)
    return g_strdup_printf (_("confidence > 99.99 %% (p = %.2g)"), p);
  return g_strdup_printf (_("confidence %.4g %% (p = %.2g)"), 100.0 * (1.0 - p), p);
}

static void
append_verdict (GString                     *out,
                const TprofStragglers       *s,
                const TprofTopology         *topo,
                const TprofStragglerVerdict *v)
{
  const double *wait = tprof_stragglers_wait_caused (s);
  const uint64_t *late = tprof_stragglers_late_count (s);
  int worst = 0;

  for (int r = 1; r < tprof_stragglers_world_size (s); r++)
    worst = wait[r] > wait[worst] ? r : worst;
  if (v->kind == TPROF_STRAGGLER_VERDICT_GROUP)
    {
      g_autofree char *name = tprof_cli_escape (tprof_topology_group_name (topo, v->level, v->group));
      g_autofree char *level = tprof_cli_escape (tprof_topology_level_name (topo, v->level));
      g_autofree char *conf = confidence (v->p_value);

      /* TRANSLATORS: "Straggler so far: host node3, last to arrive 40 of 50 times (by chance: 12.5),
       * confidence 99.99 % (p = 1e-06)." */
      g_string_append_printf (out, _("Straggler so far: %s %s, last to arrive %" PRIu64 " of %" PRIu64
                                     " times (by chance: %.1f), %s.\n"),
                              level, name, v->late_count, v->occurrences, v->expected_late, conf);
    }
  else if (v->kind == TPROF_STRAGGLER_VERDICT_RANK)
    {
      g_autofree char *conf = confidence (v->rank_p_value);

      g_string_append_printf (out, _("Straggler so far: rank %d, last to arrive %" PRIu64 " of %" PRIu64
                                     " times (by chance: %.1f), %s.\n"),
                              v->rank, late[v->rank], v->occurrences, tprof_stragglers_expected_late (s), conf);
    }
  else if (v->occurrences == 0)
    g_string_append (out, _("Straggler so far: none yet (no synchronising operation has complete occurrences).\n"));
  else
    g_string_append_printf (out, _("Straggler so far: none clear yet. Rank %d caused the most wait, last to "
                                   "arrive %" PRIu64 " of %" PRIu64 " times (by chance: %.1f).\n"),
                            worst, late[worst], v->occurrences, tprof_stragglers_expected_late (s));
}

gboolean
tprof_cli_top_verdict (const TprofSpillLive  *sl,
                       TprofTopology        **topo,
                       TprofStragglers      **s,
                       TprofStragglerVerdict *v)
{
  g_autofree const char **hosts = host_names (sl);

  *topo = tprof_topology_new (sl->job->world_size, hosts, NULL);
  *s = tprof_live_stragglers (sl->live);
  return *topo != NULL && *s != NULL && tprof_stragglers_decide (*s, *topo, tprof_topology_default_level (*topo), v);
}

static void
append_straggler (GString              *out,
                  const TprofSpillLive *sl)
{
  TprofTopology *topo;
  TprofStragglers *s;
  TprofStragglerVerdict v;

  if (tprof_cli_top_verdict (sl, &topo, &s, &v))
    append_verdict (out, s, topo, &v);
  tprof_stragglers_free (s);
  tprof_topology_free (topo);
}

static void
append_progress (GString                   *out,
                 const TprofLive           *live,
                 const TprofCliTopProgress *p)
{
  g_autofree char *name = p->op >= 0 ? tprof_cli_escape (tprof_live_operation_name (live, (gsize) p->op)) : NULL;

  if (p->op < 0 || isnan (p->rate))
    g_string_append (out, _("Progress: measured from the next refresh.\n"));
  else
    /* TRANSLATORS: "Progress: 12.5 allreduce per second (complete occurrences, since the last refresh)." */
    g_string_append_printf (out, _("Progress: %.3g %s per second (complete occurrences, since the last "
                                   "refresh).\n"), p->rate, name);
}

/* "Stopped reporting (no flush for 3 intervals): node1: ranks 2, 3; node2: rank 5." */
static void
append_stopped (GString              *out,
                const TprofSpillLive *sl,
                double                now)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_autofree gboolean *shown = g_new0 (gboolean, sl->job->world_size);

  for (int r = 0; r < sl->job->world_size; r++)
    {
      g_autofree char *host = NULL;
      g_autoptr (GString) ranks = g_string_new (NULL);
      guint n = 0;

      if (shown[r] || !_tprof_spill_live_stopped (sl, r, now))
        continue;
      for (int q = r; q < sl->job->world_size; q++)
        if (!shown[q] && g_strcmp0 (rank_host (sl, q), rank_host (sl, r)) == 0 && _tprof_spill_live_stopped (sl, q, now))
          {
            shown[q] = TRUE;
            g_string_append_printf (ranks, n++ > 0 ? ", %d" : "%d", q);
          }
      host = tprof_cli_escape (*rank_host (sl, r) != '\0' ? rank_host (sl, r) : _("unknown host"));
      g_string_append_printf (line, "%s%s: ", line->len > 0 ? "; " : "", host);
      g_string_append_printf (line, g_dngettext (GETTEXT_PACKAGE, "rank %s", "ranks %s", n), ranks->str);
    }
  if (line->len > 0)
    g_string_append_printf (out, _("Stopped reporting (no flush for %d intervals): %s.\n"),
                            TPROF_SPILL_LIVE_STOPPED_INTERVALS, line->str);
}

static void
append_files (GString              *out,
              const TprofSpillLive *sl)
{
  for (int r = 0; r < sl->job->world_size; r++)
    {
      const TprofSpillLiveRank *rank = &sl->ranks[r];

      if (!rank->has_file)
        g_string_append_printf (out, _("Missing: rank %d has no spill file.\n"), r);
      if (rank->not_reporting)
        /* TRANSLATORS: a rank whose spill file has not appeared three spill intervals after the job started */
        g_string_append_printf (out, _("Not reporting: rank %d holds no occurrence back until its file appears.\n"),
                                r);
      else if (rank->damaged)
        {
          g_autofree char *path = tprof_cli_escape (_tprof_spill_reader_path (sl->job->readers[r]));
          g_autofree char *problem = tprof_cli_escape (rank->problem);

          g_string_append_printf (out, _("Damaged: rank %d, %s: from byte %" PRIu64 ": %s; what is before "
                                         "it is used.\n"), r, path, rank->damaged_offset, problem);
        }
    }
  for (size_t i = 0; i < sl->job->n_refused; i++)
    {
      g_autofree char *path = tprof_cli_escape (sl->job->refused[i].path);
      g_autofree char *problem = tprof_cli_escape (sl->job->refused[i].problem);

      g_string_append_printf (out, _("Not used: %s: %s.\n"), path, problem);
    }
}

char *
tprof_cli_top_render (const TprofSpillLive      *sl,
                      const TprofCliTopProgress *progress,
                      double                     now)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GDateTime) time = g_date_time_new_from_unix_local ((gint64) now);
  g_autofree char *stamp = g_date_time_format (time, "%F %T");
  g_autofree char *label = sl->job->readers[0] != NULL
                           ? tprof_cli_escape (_tprof_spill_reader_header (sl->job->readers[0])->label) : NULL;

  /* TRANSLATORS: "tprof top — 2026-12-05 06:50:01 — job 0123456789abcdef, 4 ranks" */
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "tprof top — %s — job %s, %d rank",
                                            "tprof top — %s — job %s, %d ranks", (gulong) sl->job->world_size),
                          stamp, sl->job->token, sl->job->world_size);
  if (label != NULL && *label != '\0')
    g_string_append_printf (out, " — %s", label);
  g_string_append_c (out, '\n');
  append_operations (out, sl->live);
  append_straggler (out, sl);
  append_progress (out, sl->live, progress);
  append_stopped (out, sl, now);
  append_files (out, sl);
  return g_string_free (out, FALSE);
}
