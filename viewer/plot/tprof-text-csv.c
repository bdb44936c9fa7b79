/* tprof-text-csv.c — CSV fields: a name escaped and quoted, a row of the operations table (tprof summary's and the viewer's). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tprof-text-private.h"

void
tprof_csv_append_text (GString    *out,
                       const char *text)
{
  /* escaped as a table shows it: a CSV file is read on terminals too,
   * and one record stays one line */
  g_autofree char *escaped = tprof_escape_text (text);

  if (strpbrk (escaped, ",\"") == NULL)
    {
      g_string_append (out, escaped);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = escaped; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* A number, or an empty field where it is unknown. */
static void
csv_append_number (GString *out,
                   double   value)
{
  g_string_append_c (out, ',');
  if (isfinite (value))
    tprof_append_exact_double (out, value);
}

void
tprof_summary_csv_append_row (GString            *out,
                              const char         *name,
                              const TprofSummary *s,
                              const char         *parent,
                              double              self_sum,
                              gboolean            sampled,
                              guint64             stored)
{
  const double times[] = { s->sum, s->mean, s->std, s->min, s->max, s->median, s->p95, s->p99, s->imbalance };

  g_return_if_fail (out != NULL && name != NULL && s != NULL);
  tprof_csv_append_text (out, name);
  g_string_append_printf (out, ",%zu,%zu", s->count, s->rank_count);
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    csv_append_number (out, times[i]);
  g_string_append_c (out, ',');
  if (s->slowest_rank >= 0)
    g_string_append_printf (out, "%d", s->slowest_rank);
  g_string_append_c (out, ',');
  if (parent != NULL)
    tprof_csv_append_text (out, parent);
  csv_append_number (out, self_sum);
  g_string_append_printf (out, ",%s,%" G_GUINT64_FORMAT, sampled ? "true" : "false", stored);
}
