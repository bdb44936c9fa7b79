/* tprof-cli-compare-output.c — `tprof compare`'s renderings: a table to read (verdicts in the user's language), CSV and JSON with the contract's words, JUnit XML for a CI. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-compare.h"

static const char *
first_path (GPtrArray *paths)
{
  return g_ptr_array_index (paths, 0);
}

static const TprofCliCompareRow *
row_at (const TprofCliComparison *cmp,
        guint                     i)
{
  return &g_array_index (cmp->rows, TprofCliCompareRow, i);
}

/* ---- table ---- */

static char *
cell_p (double p)
{
  if (isnan (p))
    return g_strdup ("—");
  if (p < 1e-16)
    return g_strdup ("<1e-16");
  return g_strdup_printf ("%.2g", p);
}

static char *
cell_interval (double low, double high)
{
  if (isnan (low) || isnan (high))
    return g_strdup ("—");
  return g_strdup_printf ("%.3f–%.3f", low, high);
}

static char *
cell_change (double secs)
{
  g_autofree char *magnitude = tprof_cli_cell_duration (fabs (secs));

  return g_strdup_printf ("%s%s", secs > 0 ? "+" : secs < 0 ? "−" : "", magnitude);
}

/* The verdict as the viewer's table says it. */
static char *
cell_verdict (TprofVerdict verdict)
{
  switch (verdict)
    {
    case TPROF_VERDICT_SLOWER:
      /* Translators: a verdict of the comparison with the baseline */
      return g_strdup (_("▲ Slower"));
    case TPROF_VERDICT_FASTER:
      return g_strdup (_("▼ Faster"));
    case TPROF_VERDICT_ONLY_NEW:
      return g_strdup (_("Not in baseline"));
    case TPROF_VERDICT_ONLY_BASE:
      return g_strdup (_("Only in baseline"));
    case TPROF_VERDICT_SAME:
    default:
      return g_strdup (_("Same"));
    }
}

/* What the verdict could and could not see, under the table. */
static char *
notes (const TprofCliComparison *cmp)
{
  GString *out = g_string_new (NULL);
  guint n_base = cmp->base_paths->len, n_new = cmp->new_paths->len;

  if (cmp->world_sizes_differ && cmp->op == NULL)
    g_string_append_printf (out, _("The runs have %d and %d ranks: ranks are not compared one by one.\n"),
                            cmp->base_world, cmp->new_world);
  if (n_base == 1 && n_new == 1 && !cmp->calibrated)
    g_string_append (out, _("One run a side: whole runs are taken to differ by up to twice the spread "
                            "between blocks or ranks of a run, so only large changes count. Compare several "
                            "runs a side (--base, --new) or give the spread of identical runs (--noise).\n"));
  else
    {
      g_autofree char *base_runs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u base run", "%u base runs",
                                                                 n_base), n_base);
      g_autofree char *new_runs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u new run", "%u new runs",
                                                                n_new), n_new);

      if (cmp->calibrated)
        /* Translators: the first %s is "N base runs", the second "N new runs" */
        g_string_append_printf (out, _("%s against %s: the verdict tests the medians of whole runs, with the "
                                       "spread between the calibrated runs.\n"),
                                base_runs, new_runs);
      else
        /* Translators: the first %s is "N base runs", the second "N new runs" */
        g_string_append_printf (out, _("%s against %s: the verdict tests the medians of whole runs.\n"),
                                base_runs, new_runs);
    }
  return g_string_free (out, FALSE);
}

char *
tprof_cli_compare_table (const TprofCliComparison *cmp)
{
  const char *headers[] = {
    cmp->op != NULL ? _("Rank") : _("Operation"), _("Base n"), _("New n"), _("Base median"),
    _("New median"), _("Total change"), _("Ratio"),
    /* xgettext:no-c-format */
    _("95% interval"), _("p (Holm)"), _("p (verdict)"), _("Verdict"),
  };
  gboolean left[G_N_ELEMENTS (headers)] = { [0] = cmp->op == NULL, [10] = TRUE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  g_autofree char *text = NULL, *note = NULL;

  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const TprofCliCompareRow *row = row_at (cmp, i);
      char *cells[] = {
        row->name != NULL ? tprof_cli_escape (row->name) : g_strdup_printf ("%d", row->rank),
        g_strdup_printf ("%zu", row->c.base_count),
        g_strdup_printf ("%zu", row->c.new_count),
        tprof_cli_cell_duration (row->c.base_median),
        tprof_cli_cell_duration (row->c.new_median),
        cell_change (row->change),
        tprof_cli_cell_ratio (row->c.ratio),
        cell_interval (row->c.ci_low, row->c.ci_high),
        cell_p (row->c.p_adjusted),
        cell_p (row->c.p_verdict),
        cell_verdict (row->c.verdict),
      };

      tprof_cli_table_add_row (table, cells);
    }
  text = tprof_cli_table_free_to_string (table);
  note = notes (cmp);
  return g_strconcat (text, "\n", note, NULL);
}

/* ---- CSV and JSON ---- */

static void
row_values (const TprofCliCompareRow *row,
            double                    values[7])
{
  const double v[] = { row->c.base_median, row->c.new_median, row->c.ratio, row->c.ci_low,
                       row->c.ci_high, row->c.p_value, row->c.p_adjusted };

  memcpy (values, v, sizeof v);
}

char *
tprof_cli_compare_csv (const TprofCliComparison *cmp)
{
  GString *out = g_string_new (cmp->op != NULL ? "rank" : "name");

  g_string_append (out, ",base_count,new_count,base_median,new_median,ratio,ci_low,ci_high,"
                        "p_value,p_adjusted,verdict,p_verdict,verdict_test\n");
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const TprofCliCompareRow *row = row_at (cmp, i);
      double values[7];

      row_values (row, values);
      if (row->name != NULL)
        tprof_cli_csv_append_string (out, row->name);
      else
        g_string_append_printf (out, "%d", row->rank);
      g_string_append_printf (out, ",%zu,%zu", row->c.base_count, row->c.new_count);
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          g_string_append_c (out, ',');
          tprof_cli_csv_append_double (out, values[k]);
        }
      g_string_append_printf (out, ",%s,", tprof_verdict_name (row->c.verdict));
      tprof_cli_csv_append_double (out, row->c.p_verdict);
      g_string_append_printf (out, ",%s\n", tprof_verdict_test_name (row->c.verdict_test));
    }
  return g_string_free (out, FALSE);
}

static void
append_paths (GString   *out,
              GPtrArray *paths)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < paths->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      tprof_cli_json_append_string (out, g_ptr_array_index (paths, i));
    }
  g_string_append_c (out, ']');
}

char *
tprof_cli_compare_json (const TprofCliComparison *cmp)
{
  static const char *const keys[] = {
    "base_median", "new_median", "ratio", "ci_low", "ci_high", "p_value", "p_adjusted",
  };
  GString *out = g_string_new ("{\"base\": ");

  tprof_cli_json_append_string (out, first_path (cmp->base_paths));
  g_string_append (out, ", \"new\": ");
  tprof_cli_json_append_string (out, first_path (cmp->new_paths));
  g_string_append (out, ", \"base_runs\": ");
  append_paths (out, cmp->base_paths);
  g_string_append (out, ", \"new_runs\": ");
  append_paths (out, cmp->new_paths);
  if (cmp->op != NULL)
    {
      g_string_append (out, ", \"operation\": ");
      tprof_cli_json_append_string (out, cmp->op);
    }
  g_string_append (out, cmp->op != NULL ? ", \"ranks\": [" : ", \"operations\": [");
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const TprofCliCompareRow *row = row_at (cmp, i);
      double values[7];

      row_values (row, values);
      g_string_append (out, i > 0 ? ", {" : "{");
      if (row->name != NULL)
        {
          g_string_append (out, "\"name\": ");
          tprof_cli_json_append_string (out, row->name);
        }
      else
        g_string_append_printf (out, "\"rank\": %d", row->rank);
      g_string_append_printf (out, ", \"base_count\": %zu, \"new_count\": %zu", row->c.base_count,
                              row->c.new_count);
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          g_string_append_printf (out, ", \"%s\": ", keys[k]);
          tprof_cli_json_append_double (out, values[k]);
        }
      g_string_append_printf (out, ", \"verdict\": \"%s\", \"p_verdict\": ", tprof_verdict_name (row->c.verdict));
      tprof_cli_json_append_double (out, row->c.p_verdict);
      g_string_append_printf (out, ", \"verdict_test\": \"%s\", \"noise_floor\": ",
                              tprof_verdict_test_name (row->c.verdict_test));
      tprof_cli_json_append_double (out, row->c.noise_floor);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

/* ---- JUnit ---- */

/* @text for an XML attribute or element: the five special characters as
 * entities, a character XML 1.0 cannot hold as U+FFFD. */
static void
append_xml (GString    *out,
            const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '&')
        g_string_append (out, "&amp;");
      else if (c == '<')
        g_string_append (out, "&lt;");
      else if (c == '>')
        g_string_append (out, "&gt;");
      else if (c == '"')
        g_string_append (out, "&quot;");
      else if (c == '\'')
        g_string_append (out, "&apos;");
      else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0xfffe && c <= 0xffff))
        g_string_append_unichar (out, 0xfffd);
      else
        g_string_append_unichar (out, c);
    }
}

/* The figures of a row, in one line of the contract's words. */
static char *
figures (const TprofCliCompareRow *row)
{
  const TprofComparison *c = &row->c;

  return g_strdup_printf ("%s: median %.6g s -> %.6g s (%zu and %zu samples), ratio %.4f, 95%% interval "
                          "%.4f-%.4f, p_verdict %.3g (%s test), p_adjusted %.3g",
                          tprof_verdict_name (c->verdict), c->base_median, c->new_median, c->base_count,
                          c->new_count, c->ratio, c->ci_low, c->ci_high, c->p_verdict,
                          tprof_verdict_test_name (c->verdict_test), c->p_adjusted);
}

char *
tprof_cli_compare_junit (const TprofCliComparison *cmp)
{
  GString *out = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  guint failures = 0, skipped = 0, n = cmp->rows->len;

  for (guint i = 0; i < n; i++)
    {
      TprofVerdict v = row_at (cmp, i)->c.verdict;

      failures += v == TPROF_VERDICT_SLOWER;
      skipped += v == TPROF_VERDICT_ONLY_BASE || v == TPROF_VERDICT_ONLY_NEW;
    }
  g_string_append_printf (out, "<testsuites name=\"tprof compare\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
                               "skipped=\"%u\">\n", n, failures, skipped);
  g_string_append_printf (out, "  <testsuite name=\"tprof compare\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
                               "skipped=\"%u\">\n", n, failures, skipped);
  for (guint i = 0; i < n; i++)
    {
      const TprofCliCompareRow *row = row_at (cmp, i);
      g_autofree char *line = figures (row);
      g_autofree char *rank = row->name == NULL ? g_strdup_printf ("rank %d", row->rank) : NULL;

      g_string_append (out, "    <testcase classname=\"");
      append_xml (out, cmp->op != NULL ? cmp->op : "tprof.compare");
      g_string_append (out, "\" name=\"");
      append_xml (out, row->name != NULL ? row->name : rank);
      g_string_append (out, "\">\n");
      if (row->c.verdict == TPROF_VERDICT_SLOWER)
        g_string_append (out, "      <failure type=\"slower\" message=\"");
      else if (row->c.verdict == TPROF_VERDICT_ONLY_BASE || row->c.verdict == TPROF_VERDICT_ONLY_NEW)
        g_string_append (out, "      <skipped message=\"");
      else
        g_string_append (out, "      <system-out>");
      append_xml (out, line);
      if (row->c.verdict == TPROF_VERDICT_SLOWER || row->c.verdict == TPROF_VERDICT_ONLY_BASE
          || row->c.verdict == TPROF_VERDICT_ONLY_NEW)
        g_string_append (out, "\"/>\n");
      else
        g_string_append (out, "</system-out>\n");
      g_string_append (out, "    </testcase>\n");
    }
  g_string_append (out, "  </testsuite>\n</testsuites>\n");
  return g_string_free (out, FALSE);
}
