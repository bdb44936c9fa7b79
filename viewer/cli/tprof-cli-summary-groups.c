/* tprof-cli-summary-groups.c — `tprof summary --by host`: each operation's samples and time summed per host (or rank, or topology group). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

/* One operation's totals per group. */
typedef struct
{
  const char *name;
  int64_t    *count;
  double     *sum;
  size_t     *ranks_with_samples;
  double      op_sum;
} Totals;

typedef struct
{
  const TprofTopology *topo;
  size_t               level;
  size_t               n_groups;
} Grouping;

static char *
group_label (const Grouping *gr,
             size_t          g)
{
  const char *name = tprof_topology_group_name (gr->topo, gr->level, g);

  if (name == NULL)
    return g_strdup_printf ("%zu", g);
  return tprof_cli_escape (name[0] != '\0' ? name : "—");
}

static char *
render_table (const Grouping *gr,
              const Totals   *ops,
              size_t          n_ops)
{
  g_autofree char *level = gr->level == TPROF_TOPOLOGY_HOST ? g_strdup (_("Host"))
                           : gr->level == TPROF_TOPOLOGY_RANK ? g_strdup (_("Rank"))
                           : tprof_cli_escape (tprof_topology_level_name (gr->topo, gr->level));
  const char *headers[] = { _("Operation"), level, _("Ranks"), _("Count"), _("Sum"), _("Mean"), _("Share") };
  gboolean left[G_N_ELEMENTS (headers)] = { TRUE, TRUE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);

  for (size_t op = 0; op < n_ops; op++)
    for (size_t g = 0; g < gr->n_groups; g++)
      {
        const Totals *t = &ops[op];

        if (t->ranks_with_samples[g] == 0)
          continue;
        char *cells[] = {
          tprof_cli_escape (t->name),
          group_label (gr, g),
          g_strdup_printf ("%zu", t->ranks_with_samples[g]),
          g_strdup_printf ("%" PRId64, t->count[g]),
          tprof_cli_cell_duration (t->sum[g]),
          tprof_cli_cell_duration (t->sum[g] / (double) t->count[g]),
          t->op_sum > 0 ? g_strdup_printf ("%.1f%%", 100.0 * t->sum[g] / t->op_sum) : g_strdup ("—"),
        };
        tprof_cli_table_add_row (table, cells);
      }
  return tprof_cli_table_free_to_string (table);
}

static char *
render_csv (const Grouping *gr,
            const Totals   *ops,
            size_t          n_ops)
{
  GString *out = g_string_new ("name,");

  tprof_cli_csv_append_string (out, tprof_topology_level_name (gr->topo, gr->level));
  g_string_append (out, ",rank_count,count,sum,mean\n");
  for (size_t op = 0; op < n_ops; op++)
    for (size_t g = 0; g < gr->n_groups; g++)
      {
        const Totals *t = &ops[op];
        g_autofree char *label = NULL;

        if (t->ranks_with_samples[g] == 0)
          continue;
        label = gr->level == TPROF_TOPOLOGY_RANK ? g_strdup_printf ("%zu", g)
                : g_strdup (tprof_topology_group_name (gr->topo, gr->level, g));
        tprof_cli_csv_append_string (out, t->name);
        g_string_append_c (out, ',');
        tprof_cli_csv_append_string (out, label);
        g_string_append_printf (out, ",%zu,%" PRId64 ",", t->ranks_with_samples[g], t->count[g]);
        tprof_cli_csv_append_double (out, t->sum[g]);
        g_string_append_c (out, ',');
        tprof_cli_csv_append_double (out, t->sum[g] / (double) t->count[g]);
        g_string_append_c (out, '\n');
      }
  return g_string_free (out, FALSE);
}

static void
append_json_group (GString        *out,
                   const Grouping *gr,
                   const Totals   *t,
                   size_t          g)
{
  size_t n;
  const int32_t *ranks = tprof_topology_group_ranks (gr->topo, gr->level, g, &n);

  if (gr->level == TPROF_TOPOLOGY_RANK)
    g_string_append_printf (out, "{\"name\": \"%zu\"", g);
  else
    {
      g_string_append (out, "{\"name\": ");
      tprof_cli_json_append_string (out, tprof_topology_group_name (gr->topo, gr->level, g));
    }
  g_string_append (out, ", \"ranks\": [");
  for (size_t i = 0; i < n; i++)
    g_string_append_printf (out, i > 0 ? ", %d" : "%d", (int) ranks[i]);
  g_string_append_printf (out, "], \"rank_count\": %zu, \"count\": %" PRId64 ", \"sum\": ",
                          t->ranks_with_samples[g], t->count[g]);
  tprof_cli_json_append_double (out, t->sum[g]);
  g_string_append (out, ", \"mean\": ");
  tprof_cli_json_append_double (out, t->sum[g] / (double) t->count[g]);
  g_string_append_c (out, '}');
}

static char *
render_json (const char     *file,
             const Grouping *gr,
             const Totals   *ops,
             size_t          n_ops)
{
  GString *out = g_string_new ("{\"file\": ");

  tprof_cli_json_append_string (out, file);
  g_string_append_printf (out, ", \"world_size\": %d, \"level\": ", tprof_topology_world_size (gr->topo));
  tprof_cli_json_append_string (out, tprof_topology_level_name (gr->topo, gr->level));
  g_string_append (out, ", \"operations\": [");
  for (size_t op = 0; op < n_ops; op++)
    {
      gboolean first = TRUE;

      g_string_append (out, op > 0 ? ", {\"name\": " : "{\"name\": ");
      tprof_cli_json_append_string (out, ops[op].name);
      g_string_append (out, ", \"groups\": [");
      for (size_t g = 0; g < gr->n_groups; g++)
        if (ops[op].ranks_with_samples[g] > 0)
          {
            g_string_append (out, first ? "" : ", ");
            append_json_group (out, gr, &ops[op], g);
            first = FALSE;
          }
      g_string_append (out, "]}");
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

/* @op's totals per group from its per-rank totals (cached, or computed
 * once by reading it). */
static gboolean
sum_operation (TprofProfileFile *profile,
               const char       *file,
               const Grouping   *gr,
               const bool       *selected,
               size_t            op,
               Totals           *t)
{
  TprofError error = { 0 };
  const TprofOperationStats *stats = tprof_profile_file_operation_stats (profile, op, &error);

  if (stats == NULL)
    {
      tprof_cli_library_error (file, &error);
      return FALSE;
    }
  t->name = tprof_profile_file_operation_name (profile, op);
  t->count = g_new (int64_t, gr->n_groups);
  t->sum = g_new (double, gr->n_groups);
  t->ranks_with_samples = g_new (size_t, gr->n_groups);
  tprof_topology_group_totals (gr->topo, gr->level, stats->rank_count, stats->rank_sum, selected, t->count, t->sum,
                               t->ranks_with_samples);
  for (size_t g = 0; g < gr->n_groups; g++)
    t->op_sum += t->sum[g];
  return TRUE;
}

int
tprof_cli_summary_groups (TprofProfileFile    *profile,
                          const char          *file,
                          const TprofTopology *topo,
                          size_t               level,
                          const GArray        *ranks,
                          TprofCliFormat       format)
{
  Grouping gr = { topo, level, tprof_topology_n_groups (topo, level) };
  size_t n_ops = tprof_profile_file_n_operations (profile), done = 0;
  Totals *ops = g_new0 (Totals, MAX (n_ops, 1));
  g_autofree bool *selected = NULL;
  char *text = NULL;
  int status = TPROF_CLI_EXIT_FAILED;

  if (ranks != NULL)
    {
      selected = g_new0 (bool, tprof_topology_world_size (topo));
      for (guint i = 0; i < ranks->len; i++)
        selected[g_array_index (ranks, gint32, i)] = true;
    }
  while (done < n_ops && sum_operation (profile, file, &gr, selected, done, &ops[done]))
    done++;
  if (done == n_ops)
    {
      text = format == TPROF_CLI_FORMAT_JSON ? render_json (file, &gr, ops, n_ops)
             : format == TPROF_CLI_FORMAT_CSV ? render_csv (&gr, ops, n_ops)
             : render_table (&gr, ops, n_ops);
      status = tprof_cli_print (text);
    }
  for (size_t op = 0; op < n_ops; op++)
    {
      g_free (ops[op].count);
      g_free (ops[op].sum);
      g_free (ops[op].ranks_with_samples);
    }
  g_free (ops);
  g_free (text);
  return status;
}
