/* tprof-plot-csv.c — the numbers behind a histogram as CSV, in seconds at full precision. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

void
tprof_append_exact_double (GString *out,
                           double   value)
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* 17 significant digits always read back exactly; fewer often do */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, sizeof buf, formats[i], value);
      if (i + 1 == G_N_ELEMENTS (formats) || g_ascii_strtod (buf, NULL) == value)
        break;
    }
  g_string_append (out, buf);
}

char *
tprof_plot_histogram_to_csv (const TprofHistogram *hist)
{
  GString *out;

  g_return_val_if_fail (hist != NULL, NULL);

  out = g_string_new ("left,right,count");
  for (gsize r = 0; r < hist->n_ranks && hist->rank_counts != NULL; r++)
    g_string_append_printf (out, ",rank_%d", hist->ranks[r]);
  g_string_append_c (out, '\n');

  for (gsize i = 0; i < hist->n_bins; i++)
    {
      tprof_append_exact_double (out, hist->edges[i]);
      g_string_append_c (out, ',');
      tprof_append_exact_double (out, hist->edges[i + 1]);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT, hist->counts[i]);
      for (gsize r = 0; r < hist->n_ranks && hist->rank_counts != NULL; r++)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, hist->rank_counts[r * hist->n_bins + i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
