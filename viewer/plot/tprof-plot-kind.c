/* tprof-plot-kind.c — the names of the charts over an operation's timeline, one table for tprof plot --kind and the viewer. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot.h"

static const char *const kind_names[TPROF_PLOT_N_KINDS] = {
  [TPROF_PLOT_KIND_HEATMAP] = "heatmap",
  [TPROF_PLOT_KIND_TREND] = "trend",
  [TPROF_PLOT_KIND_BREAKDOWN] = "breakdown",
};

const char *
tprof_plot_kind_name (TprofPlotKind kind)
{
  g_return_val_if_fail (kind < TPROF_PLOT_N_KINDS, NULL);
  return kind_names[kind];
}

gboolean
tprof_plot_kind_from_name (const char    *name,
                           TprofPlotKind *kind)
{
  for (guint k = 0; k < TPROF_PLOT_N_KINDS && name != NULL; k++)
    if (g_str_equal (name, kind_names[k]))
      {
        *kind = (TprofPlotKind) k;
        return TRUE;
      }
  return FALSE;
}
