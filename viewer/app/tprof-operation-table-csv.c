/* tprof-operation-table-csv.c — TprofOperationTable's rows as CSV: tprof summary's columns, then the viewer's own. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>

#include "tprof-operation-table-private.h"

/* The comparison's fields of @operation: empty where unknown, "untested"
 * for a verdict the samples at hand could not decide. */
static void
csv_append_comparison (GString        *csv,
                       TprofOperation *operation)
{
  gboolean tested = FALSE;
  const TprofComparison *c = _tprof_operation_get_comparison (operation, &tested);
  double values[6] = { NAN, NAN, NAN, NAN, NAN, NAN };

  if (c != NULL)
    {
      values[0] = c->base_median;
      values[1] = c->ratio;
      values[2] = c->ci_low;
      values[3] = c->ci_high;
      values[4] = c->p_value;
      values[5] = c->p_adjusted;
    }
  for (guint v = 0; v < G_N_ELEMENTS (values); v++)
    {
      g_string_append_c (csv, ',');
      if (isfinite (values[v]))
        tprof_append_exact_double (csv, values[v]);
    }
  g_string_append_c (csv, ',');
  if (c != NULL)
    g_string_append (csv, tested || c->verdict == TPROF_VERDICT_ONLY_NEW ? tprof_verdict_name (c->verdict)
                                                                         : "untested");
}

/* The parent's name, NULL at the top or without a tree (owned by the table). */
static const char *
csv_parent_name (TprofOperationTable *self,
                 TprofOperation      *operation)
{
  g_autoptr(TprofOperation) parent = _tprof_operation_table_operation_at (self, (int) _tprof_operation_get_parent (operation));

  return parent != NULL ? _tprof_operation_get_name (parent) : NULL;
}

/* tprof summary --format csv's columns (the one schema of the operations
 * table), then the time lost to imbalance and, comparing, the comparison's
 * fields as tprof compare names them. */
char *
_tprof_operation_table_to_csv (TprofOperationTable *self)
{
  GListModel *model = self->operations;
  guint n = g_list_model_get_n_items (model);
  GString *csv = g_string_new (TPROF_SUMMARY_CSV_HEADER ",imbalance_time");

  if (self->comparing)
    g_string_append (csv, ",base_median,ratio,ci_low,ci_high,p_value,p_adjusted,verdict");
  g_string_append_c (csv, '\n');

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TprofOperation) operation = g_list_model_get_item (model, i);
      const TprofSummary *s = _tprof_operation_get_summary (operation);

      tprof_summary_csv_append_row (csv, _tprof_operation_get_name (operation), s,
                                    self->tree ? csv_parent_name (self, operation) : NULL,
                                    _tprof_operation_get_self (operation), _tprof_operation_is_sampled (operation),
                                    _tprof_operation_get_stored (operation));
      g_string_append_c (csv, ',');
      if (isfinite (s->imbalance_time))
        tprof_append_exact_double (csv, s->imbalance_time);
      if (self->comparing)
        csv_append_comparison (csv, operation);
      g_string_append_c (csv, '\n');
    }

  return g_string_free (csv, FALSE);
}
