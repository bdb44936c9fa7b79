/* tprof-cli-compare.c — `tprof compare BASE NEW`: what changed between two runs, operation by operation or rank by rank, and whether it is real. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

/* One line of the comparison: an operation, or a rank of one operation. */
typedef struct
{
  char            *name;    /* operation mode */
  int              rank;    /* per-rank mode */
  double           change;  /* new total - base total, seconds */
  TprofComparison  c;
} Row;

typedef struct
{
  const char *base_path;
  const char *new_path;
  const char *op;           /* per-rank mode: the operation */
  gboolean    world_sizes_differ;
  int         base_world;
  int         new_world;
  GArray     *rows;         /* of Row */
} Comparison;

static void
row_clear (gpointer data)
{
  g_free (((Row *) data)->name);
}

/* Compares @base against @new_samples (either may be NULL) into a new row. */
static gboolean
add_row (Comparison              *cmp,
         const char              *name,
         int                      rank,
         const TprofGatheredTime *base,
         const TprofGatheredTime *new_samples)
{
  Row row = { g_strdup (name), rank, 0.0, { 0 } };

  if (!tprof_compare_gathered (base, new_samples, &row.c))
    {
      g_free (row.name);
      return FALSE;
    }
  row.change = (new_samples != NULL ? tprof_gathered_time_sum (new_samples) : 0.0)
               - (base != NULL ? tprof_gathered_time_sum (base) : 0.0);
  g_array_append_val (cmp->rows, row);
  return TRUE;
}

/* Reads operation @name of @profile on @ranks, NULL (with nothing printed)
 * when the profile has no such operation; FALSE when a read failed. */
static gboolean
read_named (TprofProfileFile   *profile,
            const char         *name,
            const GArray       *ranks,
            TprofGatheredTime **gt)
{
  size_t op = tprof_profile_file_find_operation (profile, name);

  *gt = NULL;
  if (op == (size_t) -1)
    return TRUE;
  *gt = tprof_cli_read_operation (profile, op, ranks);
  return *gt != NULL;
}

/* Every operation of either run, one at a time (the base run's order,
 * then those only in the new run). */
static int
compare_operations (Comparison       *cmp,
                    TprofProfileFile *base,
                    TprofProfileFile *new_run,
                    const GArray     *ranks)
{
  size_t n_base = tprof_profile_file_n_operations (base);
  size_t n_new = tprof_profile_file_n_operations (new_run);

  for (size_t i = 0; i < n_base + n_new; i++)
    {
      const char *name = i < n_base ? tprof_profile_file_operation_name (base, i)
                                    : tprof_profile_file_operation_name (new_run, i - n_base);
      TprofGatheredTime *a = NULL, *b = NULL;
      gboolean ok;

      if (i >= n_base && tprof_profile_file_find_operation (base, name) != (size_t) -1)
        continue;  /* compared with the base run's operations */
      ok = read_named (base, name, ranks, &a) && read_named (new_run, name, ranks, &b)
           && add_row (cmp, name, -1, a, b);
      tprof_gathered_time_free (a);
      tprof_gathered_time_free (b);
      if (!ok)
        return tprof_cli_file_error (cmp->new_path, "%s", g_strerror (ENOMEM));
    }
  return TPROF_CLI_EXIT_OK;
}

/* Operation @cmp->op rank by rank: both runs must have the same world. */
static int
compare_ranks (Comparison       *cmp,
               TprofProfileFile *base,
               TprofProfileFile *new_run)
{
  TprofGatheredTime *a = NULL, *b = NULL;
  size_t index;
  int status = TPROF_CLI_EXIT_OK;

  if (cmp->world_sizes_differ)
    return tprof_cli_file_error (cmp->new_path,
                                 _("has %d ranks and %s has %d: ranks can be compared one by one "
                                   "only in runs of the same size"),
                                 cmp->new_world, cmp->base_path, cmp->base_world);
  if (!tprof_cli_find_operation (base, cmp->op, &index) || !tprof_cli_find_operation (new_run, cmp->op, &index)
      || !read_named (base, cmp->op, NULL, &a) || !read_named (new_run, cmp->op, NULL, &b))
    status = TPROF_CLI_EXIT_FAILED;
  for (int32_t r = 0; status == TPROF_CLI_EXIT_OK && r < cmp->base_world; r++)
    {
      TprofGatheredTime *ra = tprof_gathered_time_get_rank (a, &r, 1);
      TprofGatheredTime *rb = tprof_gathered_time_get_rank (b, &r, 1);

      if (ra == NULL || rb == NULL
          || ((tprof_gathered_time_count (ra) > 0 || tprof_gathered_time_count (rb) > 0)
              && !add_row (cmp, NULL, r, ra, rb)))
        status = tprof_cli_file_error (cmp->new_path, "%s", g_strerror (ENOMEM));
      tprof_gathered_time_free (ra);
      tprof_gathered_time_free (rb);
    }
  tprof_gathered_time_free (a);
  tprof_gathered_time_free (b);
  return status;
}

/* Holm over every row, then the verdicts. */
static void
decide (Comparison *cmp,
        double      alpha,
        double      min_change)
{
  g_autofree TprofComparison *all = g_new (TprofComparison, MAX (cmp->rows->len, 1));

  for (guint i = 0; i < cmp->rows->len; i++)
    all[i] = g_array_index (cmp->rows, Row, i).c;
  tprof_compare_decide (all, cmp->rows->len, alpha, min_change);
  for (guint i = 0; i < cmp->rows->len; i++)
    g_array_index (cmp->rows, Row, i).c = all[i];
}

/* Largest change of total time first. */
static gint
compare_change (gconstpointer a,
                gconstpointer b)
{
  double x = fabs (((const Row *) a)->change), y = fabs (((const Row *) b)->change);

  return (x < y) - (x > y);
}

/* ---- output ---- */

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

static char *
render_table (const Comparison *cmp)
{
  const char *headers[] = {
    cmp->op != NULL ? _("Rank") : _("Operation"), _("Base n"), _("New n"), _("Base median"),
    _("New median"), _("Total change"), _("Ratio"),
    /* xgettext:no-c-format */
    _("95% interval"), _("p (Holm)"), _("Verdict"),
  };
  gboolean left[G_N_ELEMENTS (headers)] = { [0] = cmp->op == NULL, [9] = TRUE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  char *text;

  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const Row *row = &g_array_index (cmp->rows, Row, i);
      char *cells[] = {
        row->name != NULL ? g_strdup (row->name) : g_strdup_printf ("%d", row->rank),
        g_strdup_printf ("%zu", row->c.base_count),
        g_strdup_printf ("%zu", row->c.new_count),
        tprof_cli_cell_duration (row->c.base_median),
        tprof_cli_cell_duration (row->c.new_median),
        cell_change (row->change),
        tprof_cli_cell_ratio (row->c.ratio),
        cell_interval (row->c.ci_low, row->c.ci_high),
        cell_p (row->c.p_adjusted),
        g_strdup (tprof_verdict_name (row->c.verdict)),
      };

      tprof_cli_table_add_row (table, cells);
    }
  text = tprof_cli_table_free_to_string (table);
  if (cmp->world_sizes_differ)
    {
      char *note = g_strdup_printf (_("The runs have %d and %d ranks: ranks are not compared one by one.\n"),
                                    cmp->base_world, cmp->new_world);
      char *joined = g_strconcat (text, "\n", note, NULL);

      g_free (text);
      g_free (note);
      text = joined;
    }
  return text;
}

static char *
render_csv (const Comparison *cmp)
{
  GString *out = g_string_new (cmp->op != NULL ? "rank" : "name");

  g_string_append (out, ",base_count,new_count,base_median,new_median,ratio,ci_low,ci_high,"
                        "p_value,p_adjusted,verdict\n");
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const Row *row = &g_array_index (cmp->rows, Row, i);
      const double values[] = { row->c.base_median, row->c.new_median, row->c.ratio, row->c.ci_low,
                                row->c.ci_high, row->c.p_value, row->c.p_adjusted };

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
      g_string_append_printf (out, ",%s\n", tprof_verdict_name (row->c.verdict));
    }
  return g_string_free (out, FALSE);
}

static char *
render_json (const Comparison *cmp)
{
  static const char *const keys[] = {
    "base_median", "new_median", "ratio", "ci_low", "ci_high", "p_value", "p_adjusted",
  };
  GString *out = g_string_new ("{\"base\": ");

  tprof_cli_json_append_string (out, cmp->base_path);
  g_string_append (out, ", \"new\": ");
  tprof_cli_json_append_string (out, cmp->new_path);
  if (cmp->op != NULL)
    {
      g_string_append (out, ", \"operation\": ");
      tprof_cli_json_append_string (out, cmp->op);
    }
  g_string_append (out, cmp->op != NULL ? ", \"ranks\": [" : ", \"operations\": [");
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const Row *row = &g_array_index (cmp->rows, Row, i);
      const double values[] = { row->c.base_median, row->c.new_median, row->c.ratio, row->c.ci_low,
                                row->c.ci_high, row->c.p_value, row->c.p_adjusted };

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
      g_string_append_printf (out, ", \"verdict\": \"%s\"}", tprof_verdict_name (row->c.verdict));
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

typedef struct
{
  const char     *ranks_expr;
  TprofCliFormat  format;
  double          alpha;
  double          min_change;
  gboolean        fail_on_slower;
} Options;

static int
run (Comparison    *cmp,
     const Options *options)
{
  TprofProfileFile *base = tprof_cli_open (cmp->base_path);
  TprofProfileFile *new_run = base != NULL ? tprof_cli_open (cmp->new_path) : NULL;
  GArray *ranks = NULL;
  int status = TPROF_CLI_EXIT_FAILED;
  gboolean slower = FALSE;
  char *text = NULL;

  if (new_run == NULL)
    goto out;
  cmp->base_world = tprof_profile_file_world_size (base);
  cmp->new_world = tprof_profile_file_world_size (new_run);
  cmp->world_sizes_differ = cmp->base_world != cmp->new_world;
  /* --ranks must name ranks both runs have */
  if (!tprof_cli_parse_ranks ("compare", options->ranks_expr, MIN (cmp->base_world, cmp->new_world), NULL,
                              &ranks, &status))
    goto out;
  status = cmp->op != NULL ? compare_ranks (cmp, base, new_run) : compare_operations (cmp, base, new_run, ranks);
  if (status != TPROF_CLI_EXIT_OK)
    goto out;
  decide (cmp, options->alpha, options->min_change);
  if (cmp->op == NULL)
    g_array_sort (cmp->rows, compare_change);

  if (options->format == TPROF_CLI_FORMAT_CSV)
    text = render_csv (cmp);
  else if (options->format == TPROF_CLI_FORMAT_JSON)
    text = render_json (cmp);
  else
    text = render_table (cmp);
  status = tprof_cli_print (text);
  for (guint i = 0; i < cmp->rows->len; i++)
    slower |= g_array_index (cmp->rows, Row, i).c.verdict == TPROF_VERDICT_SLOWER;
  if (status == TPROF_CLI_EXIT_OK && options->fail_on_slower && slower)
    status = TPROF_CLI_EXIT_SLOWER;

out:
  g_free (text);
  if (ranks != NULL)
    g_array_unref (ranks);
  tprof_profile_file_close (base);
  tprof_profile_file_close (new_run);
  return status;
}

/* A number in [@low, @high) from option @option, or a usage error. */
static gboolean
parse_number (const char *option,
              const char *text,
              double      low,
              double      high,
              double     *value,
              int        *status)
{
  char *end = NULL;

  if (text == NULL)
    return TRUE;
  *value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(*value >= low && *value < high))
    {
      *status = tprof_cli_usage_error ("compare", _("invalid %s \"%s\": expected a number in [%g, %g)"),
                                       option, text, low, high);
      return FALSE;
    }
  return TRUE;
}

int
tprof_cli_compare (int    argc,
                   char **argv)
{
  char *ranks_expr = NULL, *format_text = NULL, *alpha_text = NULL, *change_text = NULL, *op = NULL;
  gboolean fail_on_slower = FALSE;
  const GOptionEntry entries[] = {
    { "op", 0, 0, G_OPTION_ARG_STRING, &op, N_("Compare this operation rank by rank"), N_("NAME") },
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &ranks_expr,
      N_("Only these ranks of both runs, e.g. 0-3,8"), N_("EXPR") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default), csv or json"), N_("FORMAT") },
    { "alpha", 0, 0, G_OPTION_ARG_STRING, &alpha_text,
      N_("Significance level of the adjusted p-values (default 0.05)"), N_("A") },
    { "min-change", 0, 0, G_OPTION_ARG_STRING, &change_text,
      N_("Smallest change of the median that counts, in percent (default 2)"), N_("PCT") },
    { "fail-on-slower", 0, 0, G_OPTION_ARG_NONE, &fail_on_slower,
      N_("Exit with status 3 when an operation got slower"), NULL },
    { NULL }
  };
  const char *files[2] = { NULL, NULL };
  Options options = { NULL, TPROF_CLI_FORMAT_TABLE, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE * 100.0, FALSE };
  Comparison cmp = { 0 };
  GOptionContext *context;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("compare", _("BASE NEW"),
                                   /* xgettext:no-c-format */
                                   _("Compares two runs operation by operation (or, with --op, one "
                                     "operation rank by rank): the median time of each run, their "
                                     "ratio NEW/BASE with a 95% interval, and whether the difference "
                                     "is real, sorted by how much the total time changed."),
                                   _("Verdicts: \"slower\" when the Holm-adjusted p-value of a two-sided "
                                     "Mann-Whitney U test is below --alpha and the ratio of medians is "
                                     "above 1 + --min-change; \"faster\" when it is below 1 / (1 + "
                                     "--min-change); \"same\" otherwise; \"only-base\" and \"only-new\" "
                                     "for operations of one run. The interval of the ratio is Bonett and "
                                     "Price's for a ratio of medians. Exit status 3 with "
                                     "--fail-on-slower when any verdict is \"slower\"."),
                                   entries);
  if (!tprof_cli_parse (context, "compare", &argc, &argv, 2, (const char *[]) { "BASE", "NEW" }, files,
                        &status)
      || !tprof_cli_parse_format ("compare", format_text, &options.format, &status)
      || !parse_number ("--alpha", alpha_text, 1e-300, 1.0, &options.alpha, &status)
      || !parse_number ("--min-change", change_text, 0.0, 1e6, &options.min_change, &status))
    goto out;
  options.ranks_expr = ranks_expr;
  options.fail_on_slower = fail_on_slower;
  options.min_change /= 100.0;
  if (op != NULL && ranks_expr != NULL)
    {
      status = tprof_cli_usage_error ("compare", _("--op compares every rank: leave out --ranks"));
      goto out;
    }
  cmp.base_path = files[0];
  cmp.new_path = files[1];
  cmp.op = op;
  cmp.rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (cmp.rows, row_clear);
  status = run (&cmp, &options);
  g_array_unref (cmp.rows);

out:
  g_option_context_free (context);
  g_free (ranks_expr);
  g_free (format_text);
  g_free (alpha_text);
  g_free (change_text);
  g_free (op);
  return status;
}
