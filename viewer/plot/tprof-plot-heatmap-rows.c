/* tprof-plot-heatmap-rows.c — a heat map's rows of ranks gathered into hosts (or runs of them) so that no row is thinner than 3 px, named for the axis. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

/* A group's name on the axis: a host's own name, a rank's number. */
static char *
group_label (const TprofTopology *topo,
             gsize                level,
             gsize                group)
{
  const char *name = tprof_topology_group_name (topo, level, group);

  if (level == TPROF_TOPOLOGY_RANK || name == NULL || name[0] == '\0')
    {
      gsize n;
      const int32_t *ranks = tprof_topology_group_ranks (topo, level, group, &n);

      return g_strdup_printf ("%d", n > 0 ? ranks[0] : 0);
    }
  return tprof_escape_text (name);
}

/* "node000–node093" as "node000–093": the last name from where the
 * number that the two names differ in starts. */
static char *
range_label (const char *first,
             const char *last)
{
  gsize p = 0;

  while (first[p] != '\0' && first[p] == last[p])
    p++;
  while (p > 0 && g_ascii_isdigit (last[p - 1]))
    p--;
  if (p == 0 || !g_ascii_isdigit (last[p]))
    return g_strdup_printf ("%s–%s", first, last);
  return g_strdup_printf ("%s–%s", first, last + p);
}

char *
_tprof_plot_groups_label (const TprofTopology *topo,
                          gsize                level,
                          gsize                first,
                          gsize                last)
{
  g_autofree char *first_label = group_label (topo, level, first);
  g_autofree char *last_label = NULL;

  if (first == last)
    return g_steal_pointer (&first_label);
  last_label = group_label (topo, level, last);
  return range_label (first_label, last_label);
}

static void
fill_labels (TprofPlotHeatmapRows *rows,
             const TprofTopology  *topo)
{
  rows->labels = g_new0 (char *, rows->n_rows + 1);
  for (guint b = 0; b < rows->n_rows; b++)
    rows->labels[b] = _tprof_plot_groups_label (topo, rows->level, rows->first_group[b], rows->last_group[b]);
}

/* Gathers the rows at @level into at most @max_rows; NULL when nothing is
 * shown or memory is exhausted. */
static TprofPlotHeatmapRows *
rows_gather (const double        *cells,
             const gint32        *row_ranks,
             guint                n_rows,
             guint                n_cols,
             const TprofTopology *topo,
             gsize                level,
             guint                max_rows)
{
  int world = tprof_topology_world_size (topo);
  gsize n_groups = tprof_topology_n_groups (topo, level);
  g_autofree bool *selected = g_new0 (bool, MAX (world, 1));
  g_autofree gsize *group_bin = g_new (gsize, MAX (n_groups, 1));
  g_autofree gsize *row_bin = g_new (gsize, MAX (n_rows, 1));
  TprofPlotHeatmapRows *rows = g_new0 (TprofPlotHeatmapRows, 1);

  for (guint i = 0; i < n_rows; i++)
    if (row_ranks[i] >= 0 && row_ranks[i] < world)
      selected[row_ranks[i]] = true;
  rows->level = level;
  rows->n_cols = n_cols;
  rows->first_group = g_new (gsize, MAX (max_rows, 1));
  rows->last_group = g_new (gsize, MAX (max_rows, 1));
  rows->n_rows = (guint) tprof_topology_bin_groups (topo, level, selected, max_rows, group_bin, rows->first_group,
                                                    rows->last_group);
  if (rows->n_rows == 0)
    {
      tprof_plot_heatmap_rows_free (rows);
      return NULL;
    }
  for (guint i = 0; i < n_rows; i++)
    row_bin[i] = row_ranks[i] >= 0 && row_ranks[i] < world
                 ? group_bin[tprof_topology_group_of (topo, level, row_ranks[i])] : G_MAXSIZE;
  rows->cells = g_new (double, (gsize) rows->n_rows * n_cols);
  tprof_heatmap_merge_rows (cells, n_rows, n_cols, row_bin, rows->n_rows, rows->cells);
  fill_labels (rows, topo);
  /* Translators: the heat map's row axis when its rows are hosts */
  rows->title = level == TPROF_TOPOLOGY_RANK ? _("Ranks") : _("Host");
  if (level == TPROF_TOPOLOGY_HOST && rows->first_group[0] != rows->last_group[0])
    /* Translators: the heat map's row axis when each row is several hosts */
    rows->title = _("Hosts");
  else if (level > TPROF_TOPOLOGY_HOST)
    rows->title = tprof_topology_level_name (topo, level);
  return rows;
}

TprofPlotHeatmapRows *
tprof_plot_heatmap_rows_new (const double        *cells,
                             const gint32        *row_ranks,
                             guint                n_rows,
                             guint                n_cols,
                             const TprofTopology *topo,
                             guint                max_rows)
{
  g_return_val_if_fail (topo != NULL, NULL);

  if (n_rows <= max_rows || cells == NULL)
    return NULL;
  return rows_gather (cells, row_ranks, n_rows, n_cols, topo,
                      tprof_topology_has_hosts (topo) ? TPROF_TOPOLOGY_HOST : TPROF_TOPOLOGY_RANK, MAX (max_rows, 1));
}

TprofPlotHeatmapRows *
tprof_plot_heatmap_rows_new_at (const double        *cells,
                                const gint32        *row_ranks,
                                guint                n_rows,
                                guint                n_cols,
                                const TprofTopology *topo,
                                gsize                level,
                                guint                max_rows)
{
  g_return_val_if_fail (topo != NULL, NULL);
  g_return_val_if_fail (level < tprof_topology_n_levels (topo), NULL);

  if (cells == NULL)
    return NULL;
  return rows_gather (cells, row_ranks, n_rows, n_cols, topo, level,
                      (guint) MIN ((gsize) MAX (max_rows, 1), tprof_topology_n_groups (topo, level)));
}

void
tprof_plot_heatmap_rows_free (TprofPlotHeatmapRows *rows)
{
  if (rows == NULL)
    return;
  g_free (rows->cells);
  g_strfreev (rows->labels);
  g_free (rows->first_group);
  g_free (rows->last_group);
  g_free (rows);
}

void
tprof_plot_heatmap_use_rows (TprofPlotHeatmap           *plot,
                             const TprofPlotHeatmapRows *rows)
{
  plot->cells = rows->cells;
  plot->n_rows = rows->n_rows;
  plot->row_ranks = NULL;
  plot->row_labels = (const char *const *) rows->labels;
  plot->row_title = rows->title;
}
