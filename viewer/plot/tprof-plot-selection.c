/* tprof-plot-selection.c — the one-line description of a selection used as chart subtitle. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

static char *
describe_ranks (const gint32 *ranks,
                gsize         n_ranks,
                int           world_size)
{
  char *expr, *result;

  if (ranks == NULL)
    {
      if (world_size == 1)
        return g_strdup (_("Rank 0"));
      /* TRANSLATORS: %d is the number of ranks of the run, at least 2 */
      return g_strdup_printf (_("All %d Ranks"), world_size);
    }
  if (n_ranks == 1)
    return g_strdup_printf (_("Rank %d"), ranks[0]);
  expr = tprof_rank_expr_format (ranks, n_ranks);
  /* TRANSLATORS: %s is a list of ranks such as 0-3,8 */
  result = g_strdup_printf (_("Ranks %s"), expr);
  g_free (expr);
  return result;
}

char *
tprof_plot_format_selection (const TprofSummary *summary,
                             const gint32       *ranks,
                             gsize               n_ranks,
                             int                 world_size)
{
  char *who = describe_ranks (ranks, n_ranks, world_size);
  char *mean, *std, *result;

  if (summary == NULL)
    return who;
  mean = tprof_format_duration (summary->mean, 3);
  std = tprof_format_duration (summary->std, 3);
  /* TRANSLATORS: the selection, then its sample count, mean and standard deviation */
  result = g_strdup_printf (_("%s, n=%zu, mean=%s, std=%s"), who, summary->count, mean, std);
  g_free (who);
  g_free (mean);
  g_free (std);
  return result;
}
