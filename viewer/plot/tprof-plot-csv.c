/* tprof-plot-csv.c — the numbers behind a histogram as CSV, in seconds at full precision. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tprof-plot-private.h"

static void
append_double (GString *out,
               double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* the C locale's decimal point whatever the user's locale: CSV readers expect it */
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.17g", v));
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
      append_double (out, hist->edges[i]);
      g_string_append_c (out, ',');
      append_double (out, hist->edges[i + 1]);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT, hist->counts[i]);
      for (gsize r = 0; r < hist->n_ranks && hist->rank_counts != NULL; r++)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, hist->rank_counts[r * hist->n_bins + i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
