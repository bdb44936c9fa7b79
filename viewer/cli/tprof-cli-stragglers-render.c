/* tprof-cli-stragglers-render.c — `tprof stragglers`'s output: the verdict and the blame per rank, host or higher group, as a table, CSV or JSON. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-blame.h"

static const double *sorting_waits;

static int
compare_wait (const void *a,
              const void *b)
{
  size_t x = *(const size_t *) a, y = *(const size_t *) b;
  double wx = sorting_waits[x], wy = sorting_waits[y];

  return wx != wy ? (wx < wy) - (wx > wy) : (x > y) - (x < y);
}

size_t *
tprof_cli_blame_sort (const double *wait,
                      size_t        n)
{
  size_t *order = g_new (size_t, MAX (n, 1));

  for (size_t i = 0; i < n; i++)
    order[i] = i;
  sorting_waits = wait;
  qsort (order, n, sizeof *order, compare_wait);
  sorting_waits = NULL;
  return order;
}

char *
tprof_cli_blame_ranks_text (const TprofCliBlame *b,
                            size_t               level,
                            size_t               g)
{
  size_t n;
  const int32_t *ranks = tprof_topology_group_ranks (b->topo, level, g, &n);

  return tprof_rank_expr_format (ranks, n);
}

/* A group's name for people: a rank's number, else its name. */
static char *
group_label (const TprofCliBlame *b,
             size_t               level,
             size_t               g)
{
  const char *name = tprof_topology_group_name (b->topo, level, g);

  if (level == TPROF_TOPOLOGY_RANK)
    return g_strdup_printf ("%zu", g);
  return tprof_cli_escape (name[0] != '\0' ? name : "—");
}

/* ---- table ---- */

static char *
render_rows (const TprofCliBlame *b)
{
  const char *rank_headers[] = { _("Rank"), _("Host"), _("Late"), _("Wait caused"), _("Share") };
  const char *group_headers[] = { NULL, _("Ranks"), _("Late"), _("Wait caused"), _("Share") };
  gboolean left[5] = { [1] = TRUE };
  TprofCliTable *table;
  gboolean by_rank = b->level == TPROF_TOPOLOGY_RANK;
  g_autofree char *level_header = NULL;

  if (!by_rank)
    {
      level_header = b->level == TPROF_TOPOLOGY_HOST ? g_strdup (_("Host"))
                     : tprof_cli_escape (tprof_topology_level_name (b->topo, b->level));
      group_headers[0] = level_header;
      left[0] = TRUE;
    }
  table = tprof_cli_table_new (5, by_rank ? rank_headers : group_headers, left);
  for (size_t k = 0; k < MIN (b->top, b->n_groups); k++)
    {
      size_t g = b->order[k];
      const char *host = by_rank ? tprof_profile_file_hostname (b->profile, (int) g) : NULL;
      char *cells[] = {
        group_label (b, b->level, g),
        by_rank ? g_strdup (host != NULL ? host : "—") : tprof_cli_blame_ranks_text (b, b->level, g),
        g_strdup_printf ("%" G_GUINT64_FORMAT, b->late_count[g]),
        tprof_cli_cell_duration (b->wait_caused[g]),
        b->total_wait > 0 ? g_strdup_printf ("%.0f%%", 100.0 * b->wait_caused[g] / b->total_wait) : g_strdup ("—"),
      };

      tprof_cli_table_add_row (table, cells);
    }
  return tprof_cli_table_free_to_string (table);
}

static void
append_group_verdict (GString             *out,
                      const TprofCliBlame *b)
{
  const TprofStragglerVerdict *v = &b->verdict;
  g_autofree char *label = group_label (b, v->level, v->group);
  g_autofree char *ranks = tprof_cli_blame_ranks_text (b, v->level, v->group);
  g_autofree char *level = tprof_cli_escape (tprof_topology_level_name (b->topo, v->level));
  g_autofree char *wait = tprof_cli_cell_duration (v->wait_caused);

  /* TRANSLATORS: "Straggler: host node064 (ranks 512-519), last to arrive 200 of 200 times (by
   * chance: 1.6), keeping the other ranks waiting 45 min in all; within it, rank 517 is latest most
   * often (30 times)." The first %s is a level (host, rack), the second its name. */
  g_string_append_printf (out, _("Straggler: %s %s (ranks %s), last to arrive %" PRIu64 " of %" PRIu64 " times "
                                 "(by chance: %.1f), keeping the other ranks waiting %s in all; within it, "
                                 "rank %d is latest most often (%" PRIu64 " times).\n"),
                          level, label, ranks, v->late_count, v->occurrences, v->expected_late, wait,
                          v->latest_rank, tprof_stragglers_late_count (b->stragglers)[v->latest_rank]);
}

static void
append_verdict (GString             *out,
                const TprofCliBlame *b)
{
  const TprofStragglerVerdict *v = &b->verdict;
  const double *wait = tprof_stragglers_wait_caused (b->stragglers);
  const uint64_t *late = tprof_stragglers_late_count (b->stragglers);
  int worst = 0;

  for (int r = 1; r < tprof_stragglers_world_size (b->stragglers); r++)
    worst = wait[r] > wait[worst] ? r : worst;
  if (v->kind == TPROF_STRAGGLER_VERDICT_GROUP)
    append_group_verdict (out, b);
  else if (v->kind == TPROF_STRAGGLER_VERDICT_RANK)
    {
      g_autofree char *text = tprof_cli_cell_duration (wait[v->rank]);

      g_string_append_printf (out, _("Straggler: rank %d, last to arrive %" PRIu64 " of %"
                                     PRIu64 " times (by chance: %.1f), keeping the other ranks "
                                     "waiting %s in all.\n"),
                              v->rank, late[v->rank], v->occurrences, b->expected_late, text);
    }
  else if (wait[worst] > 0)
    g_string_append_printf (out, _("No clear straggler: the last rank to arrive varies. Rank %d caused "
                                   "the most wait but came last %" PRIu64 " of %"
                                   PRIu64 " times, no more often than chance allows (%.1f).\n"),
                            worst, late[worst], v->occurrences, b->expected_late);
  else
    g_string_append (out, _("No clear straggler: the ranks arrived together.\n"));
}

char *
tprof_cli_blame_table (const TprofCliBlame *b)
{
  GString *out = g_string_new (NULL);
  g_autofree char *ops = NULL;
  g_autofree char *rows = NULL;

  if (b->synchronising->len == 0)
    {
      g_string_append (out, _("No operation synchronises the ranks (they leave none of them together "
                              "after arriving apart): no straggler can be named from arrival.\n"));
      return g_string_free (out, FALSE);
    }
  g_ptr_array_add (b->synchronising, NULL);
  ops = g_strjoinv (", ", (char **) b->synchronising->pdata);
  g_ptr_array_remove_index (b->synchronising, b->synchronising->len - 1);
  g_string_append_printf (out, _("Synchronising operations: %s\n"), ops);
  append_verdict (out, b);
  rows = render_rows (b);
  g_string_append_c (out, '\n');
  g_string_append (out, rows);
  if (b->top < b->n_groups)
    g_string_append_printf (out, _("(%zu of %zu rows; --top N shows more)\n"), b->top, b->n_groups);
  return g_string_free (out, FALSE);
}

/* ---- CSV ---- */

/* The verdict's kind on the row at the blame's level holding what it
 * names, else "". */
static const char *
row_verdict (const TprofCliBlame *b,
             size_t               g)
{
  const TprofStragglerVerdict *v = &b->verdict;

  if (v->kind == TPROF_STRAGGLER_VERDICT_GROUP)
    {
      size_t n;
      const int32_t *ranks = tprof_topology_group_ranks (b->topo, v->level, v->group, &n);

      return tprof_topology_group_of (b->topo, b->level, ranks[0]) == g ? "host" : "";
    }
  if (v->kind == TPROF_STRAGGLER_VERDICT_RANK)
    return tprof_topology_group_of (b->topo, b->level, v->rank) == g ? "rank" : "";
  return "";
}

char *
tprof_cli_blame_csv (const TprofCliBlame *b)
{
  gboolean by_rank = b->level == TPROF_TOPOLOGY_RANK;
  GString *out = g_string_new (NULL);

  if (by_rank)
    g_string_append (out, "rank,hostname,late_count,wait_caused,verdict\n");
  else
    {
      tprof_cli_csv_append_string (out, tprof_topology_level_name (b->topo, b->level));
      g_string_append (out, ",ranks,late_count,wait_caused,verdict\n");
    }
  for (size_t k = 0; k < tprof_cli_blame_machine_rows (b); k++)
    {
      size_t g = b->order[k];
      const char *name = by_rank ? tprof_profile_file_hostname (b->profile, (int) g)
                                 : tprof_topology_group_name (b->topo, b->level, g);
      g_autofree char *ranks = by_rank ? NULL : tprof_cli_blame_ranks_text (b, b->level, g);

      if (by_rank)
        g_string_append_printf (out, "%zu,", g);
      if (name != NULL)
        tprof_cli_csv_append_string (out, name);
      if (!by_rank)
        {
          g_string_append_c (out, ',');
          tprof_cli_csv_append_string (out, ranks);
        }
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",", b->late_count[g]);
      tprof_cli_csv_append_double (out, b->wait_caused[g]);
      g_string_append_printf (out, ",%s\n", row_verdict (b, g));
    }
  return g_string_free (out, FALSE);
}

/* ---- JSON ---- */

static void
append_json_ranks (GString             *out,
                   const TprofCliBlame *b,
                   size_t               level,
                   size_t               g)
{
  size_t n;
  const int32_t *ranks = tprof_topology_group_ranks (b->topo, level, g, &n);

  g_string_append_c (out, '[');
  for (size_t i = 0; i < n; i++)
    g_string_append_printf (out, i > 0 ? ", %d" : "%d", (int) ranks[i]);
  g_string_append_c (out, ']');
}

/* "host": the group the verdict names, or null. */
static void
append_json_host (GString             *out,
                  const TprofCliBlame *b)
{
  const TprofStragglerVerdict *v = &b->verdict;

  if (v->kind != TPROF_STRAGGLER_VERDICT_GROUP)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append (out, "{\"host\": ");
  tprof_cli_json_append_string (out, tprof_topology_group_name (b->topo, v->level, v->group));
  g_string_append (out, ", \"level\": ");
  tprof_cli_json_append_string (out, tprof_topology_level_name (b->topo, v->level));
  g_string_append (out, ", \"ranks\": ");
  append_json_ranks (out, b, v->level, v->group);
  g_string_append_printf (out, ", \"late_count\": %" G_GUINT64_FORMAT ", \"occurrences\": %" G_GUINT64_FORMAT
                          ", \"wait_caused\": ", v->late_count, v->occurrences);
  tprof_cli_json_append_double (out, v->wait_caused);
  g_string_append (out, ", \"expected_late\": ");
  tprof_cli_json_append_double (out, v->expected_late);
  g_string_append (out, ", \"p_value\": ");
  tprof_cli_json_append_double (out, v->p_value);
  g_string_append_printf (out, ", \"latest_rank\": %d}", v->latest_rank);
}

static void
append_json_rank_rows (GString             *out,
                       const TprofCliBlame *b)
{
  const double *wait = tprof_stragglers_wait_caused (b->stragglers);
  const uint64_t *late = tprof_stragglers_late_count (b->stragglers);
  size_t world = (size_t) tprof_stragglers_world_size (b->stragglers);
  g_autofree size_t *order = tprof_cli_blame_sort (wait, world);

  g_string_append (out, "[");
  for (size_t k = 0; k < (b->top_given ? MIN (b->top, world) : world); k++)
    {
      int r = (int) order[k];
      const char *host = tprof_profile_file_hostname (b->profile, r);

      g_string_append_printf (out, "%s{\"rank\": %d, \"hostname\": ", k > 0 ? ", " : "", r);
      if (host != NULL)
        tprof_cli_json_append_string (out, host);
      else
        g_string_append (out, "null");
      g_string_append_printf (out, ", \"late_count\": %" G_GUINT64_FORMAT ", \"wait_caused\": ", late[r]);
      tprof_cli_json_append_double (out, wait[r]);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]");
}

/* "groups": the rows at a level above rank. */
static void
append_json_groups (GString             *out,
                    const TprofCliBlame *b)
{
  g_string_append (out, "[");
  for (size_t k = 0; k < tprof_cli_blame_machine_rows (b); k++)
    {
      size_t g = b->order[k];

      g_string_append (out, k > 0 ? ", {\"name\": " : "{\"name\": ");
      tprof_cli_json_append_string (out, tprof_topology_group_name (b->topo, b->level, g));
      g_string_append (out, ", \"ranks\": ");
      append_json_ranks (out, b, b->level, g);
      g_string_append_printf (out, ", \"late_count\": %" G_GUINT64_FORMAT ", \"wait_caused\": ", b->late_count[g]);
      tprof_cli_json_append_double (out, b->wait_caused[g]);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]");
}

char *
tprof_cli_blame_json (const TprofCliBlame *b)
{
  static const char *const verdicts[] = { "none", "rank", "host" };
  const TprofStragglerVerdict *v = &b->verdict;
  GString *out = g_string_new ("{\"file\": ");

  tprof_cli_json_append_string (out, b->file);
  g_string_append_printf (out, ", \"world_size\": %d, \"synchronising\": [",
                          tprof_stragglers_world_size (b->stragglers));
  for (guint i = 0; i < b->synchronising->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      tprof_cli_json_append_string (out, g_ptr_array_index (b->synchronising, i));
    }
  g_string_append_printf (out, "], \"verdict\": \"%s\", \"level\": ", verdicts[v->kind]);
  tprof_cli_json_append_string (out, tprof_topology_level_name (b->topo, b->level));
  g_string_append (out, ", \"straggler\": ");
  if (v->rank >= 0)
    g_string_append_printf (out, "%d", v->rank);
  else
    g_string_append (out, "null");
  g_string_append (out, ", \"host\": ");
  append_json_host (out, b);
  g_string_append_printf (out, ", \"occurrences\": %" G_GUINT64_FORMAT ", \"p_value\": ", v->occurrences);
  tprof_cli_json_append_double (out, v->rank_p_value);
  g_string_append (out, ", \"ranks\": ");
  append_json_rank_rows (out, b);
  if (b->level > TPROF_TOPOLOGY_RANK)
    {
      g_string_append (out, ", \"groups\": ");
      append_json_groups (out, b);
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}
