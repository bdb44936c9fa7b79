/* tprof-cli-compare.c — `tprof compare`: what changed between runs, operation by operation or rank by rank, and whether it is more than the runs' noise. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-compare.h"

typedef struct
{
  const char     *ranks_expr;
  TprofCliFormat  format;
  gboolean        junit;
  double          alpha;
  double          min_change;
  gboolean        min_change_given;
  gboolean        fail_on_slower;
  GHashTable     *noise;        /* --noise: operation -> TprofRunSpread, or NULL */
} Options;

/* The opened runs of both sides. */
typedef struct
{
  GPtrArray *base;     /* of TprofProfileFile */
  GPtrArray *new_runs;
} Runs;

static void
row_clear (gpointer data)
{
  g_free (((TprofCliCompareRow *) data)->name);
}

static double
total (TprofGatheredTime *const *runs,
       guint                     n)
{
  double sum = 0.0;

  for (guint i = 0; i < n; i++)
    sum += runs[i] != NULL ? tprof_gathered_time_sum (runs[i]) : 0.0;
  return sum / n;
}

/* Compares the runs @base[0..@n_base) against @new_runs[0..@n_new) (entries
 * may be NULL) into a new row. */
static gboolean
add_row (TprofCliComparison      *cmp,
         const Options           *options,
         const char              *name,
         int                      rank,
         TprofGatheredTime *const *base,
         guint                    n_base,
         TprofGatheredTime *const *new_runs,
         guint                    n_new)
{
  TprofCliCompareRow row = { g_strdup (name), rank, 0.0, { 0 } };
  const TprofRunSpread *spread = options->noise != NULL && name != NULL ? g_hash_table_lookup (options->noise, name)
                                                                         : NULL;

  if (!tprof_compare_runs ((const TprofGatheredTime *const *) base, n_base,
                           (const TprofGatheredTime *const *) new_runs, n_new, spread, &row.c))
    {
      g_free (row.name);
      return FALSE;
    }
  if (options->min_change_given)
    row.c.noise_floor = NAN;  /* the floor is the default of --min-change only */
  row.change = total (new_runs, n_new) - total (base, n_base);
  g_array_append_val (cmp->rows, row);
  return TRUE;
}

/* Reads operation @name of every run of @files on @ranks into @out (NULL
 * where a run has no such operation); FALSE, after printing why, when a
 * read failed. */
static gboolean
read_side (GPtrArray          *files,
           const char         *name,
           const GArray       *ranks,
           TprofGatheredTime **out)
{
  for (guint i = 0; i < files->len; i++)
    {
      TprofProfileFile *profile = g_ptr_array_index (files, i);
      size_t op = tprof_profile_file_find_operation (profile, name);

      out[i] = NULL;
      if (op != (size_t) -1 && (out[i] = tprof_cli_read_operation (profile, op, ranks)) == NULL)
        return FALSE;
    }
  return TRUE;
}

static void
free_side (TprofGatheredTime **runs,
           guint               n)
{
  for (guint i = 0; i < n; i++)
    tprof_gathered_time_free (runs[i]);
  g_free (runs);
}

/* The operations of every run, each once: the first base run's order,
 * then those the others add. */
static GPtrArray *
operation_names (const Runs *runs)
{
  GPtrArray *names = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint side = 0; side < 2; side++)
    {
      GPtrArray *files = side == 0 ? runs->base : runs->new_runs;

      for (guint i = 0; i < files->len; i++)
        for (size_t op = 0; op < tprof_profile_file_n_operations (g_ptr_array_index (files, i)); op++)
          {
            const char *name = tprof_profile_file_operation_name (g_ptr_array_index (files, i), op);

            if (g_hash_table_add (seen, (gpointer) name))
              g_ptr_array_add (names, (gpointer) name);
          }
    }
  return names;
}

static int
compare_operations (TprofCliComparison *cmp,
                    const Options      *options,
                    const Runs         *runs,
                    const GArray       *ranks)
{
  g_autoptr(GPtrArray) names = operation_names (runs);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      TprofGatheredTime **a = g_new0 (TprofGatheredTime *, runs->base->len);
      TprofGatheredTime **b = g_new0 (TprofGatheredTime *, runs->new_runs->len);
      gboolean read = read_side (runs->base, name, ranks, a) && read_side (runs->new_runs, name, ranks, b);
      gboolean ok = read && add_row (cmp, options, name, -1, a, runs->base->len, b, runs->new_runs->len);

      free_side (a, runs->base->len);
      free_side (b, runs->new_runs->len);
      if (!read)
        return TPROF_CLI_EXIT_FAILED;
      if (!ok)
        return tprof_cli_file_error (g_ptr_array_index (cmp->new_paths, 0), "%s", g_strerror (ENOMEM));
    }
  return TPROF_CLI_EXIT_OK;
}

/* Rank @r of each of @runs[0..@n) into @out; FALSE when memory is exhausted. */
static gboolean
select_rank (TprofGatheredTime *const *runs,
             guint                    n,
             int32_t                  r,
             TprofGatheredTime      **out)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    ok &= (out[i] = tprof_gathered_time_get_rank (runs[i], &r, 1)) != NULL;
  return ok;
}

/* Whether rank @r has samples in any of @runs[0..@n). */
static gboolean
has_samples (TprofGatheredTime *const *runs,
             guint                    n)
{
  for (guint i = 0; i < n; i++)
    if (tprof_gathered_time_count (runs[i]) > 0)
      return TRUE;
  return FALSE;
}

/* Operation @cmp->op rank by rank: every run must have the same world. */
static int
compare_ranks (TprofCliComparison *cmp,
               const Options      *options,
               const Runs         *runs)
{
  guint na = runs->base->len, nb = runs->new_runs->len;
  TprofGatheredTime **a = g_new0 (TprofGatheredTime *, na), **b = g_new0 (TprofGatheredTime *, nb);
  int status = TPROF_CLI_EXIT_OK;
  size_t index;

  for (guint i = 0; i < na + nb && status == TPROF_CLI_EXIT_OK; i++)
    if (!tprof_cli_find_operation (g_ptr_array_index (i < na ? runs->base : runs->new_runs, i < na ? i : i - na),
                                   cmp->op, &index))
      status = TPROF_CLI_EXIT_FAILED;
  if (status == TPROF_CLI_EXIT_OK
      && (!read_side (runs->base, cmp->op, NULL, a) || !read_side (runs->new_runs, cmp->op, NULL, b)))
    status = TPROF_CLI_EXIT_FAILED;
  for (int32_t r = 0; status == TPROF_CLI_EXIT_OK && r < cmp->base_world; r++)
    {
      TprofGatheredTime **ra = g_new0 (TprofGatheredTime *, na), **rb = g_new0 (TprofGatheredTime *, nb);

      if (!select_rank (a, na, r, ra) || !select_rank (b, nb, r, rb)
          || ((has_samples (ra, na) || has_samples (rb, nb)) && !add_row (cmp, options, NULL, r, ra, na, rb, nb)))
        status = tprof_cli_file_error (g_ptr_array_index (cmp->new_paths, 0), "%s", g_strerror (ENOMEM));
      free_side (ra, na);
      free_side (rb, nb);
    }
  free_side (a, na);
  free_side (b, nb);
  return status;
}

/* Holm over every row, then the verdicts. */
static void
decide (TprofCliComparison *cmp,
        double              alpha,
        double              min_change)
{
  g_autofree TprofComparison *all = g_new (TprofComparison, MAX (cmp->rows->len, 1));

  for (guint i = 0; i < cmp->rows->len; i++)
    all[i] = g_array_index (cmp->rows, TprofCliCompareRow, i).c;
  tprof_compare_decide (all, cmp->rows->len, alpha, min_change);
  for (guint i = 0; i < cmp->rows->len; i++)
    g_array_index (cmp->rows, TprofCliCompareRow, i).c = all[i];
}

/* Largest change of total time first. */
static gint
compare_change (gconstpointer a,
                gconstpointer b)
{
  double x = fabs (((const TprofCliCompareRow *) a)->change), y = fabs (((const TprofCliCompareRow *) b)->change);

  return (x < y) - (x > y);
}

/* ---- the runs ---- */

/* Whether @profile holds a sample at all; prints why not. */
static gboolean
check_not_empty (TprofProfileFile *profile)
{
  for (size_t op = 0; op < tprof_profile_file_n_operations (profile); op++)
    if (tprof_profile_file_sample_count (profile, op) > 0)
      return TRUE;
  tprof_cli_file_error (tprof_profile_file_path (profile), _("holds no samples: there is nothing to compare"));
  return FALSE;
}

/* The runs of one side must be of one program: the same operations. */
static gboolean
check_same_operations (GPtrArray *files)
{
  TprofProfileFile *first = g_ptr_array_index (files, 0);

  for (guint i = 1; i < files->len; i++)
    for (guint pass = 0; pass < 2; pass++)
      {
        TprofProfileFile *from = pass == 0 ? first : g_ptr_array_index (files, i);
        TprofProfileFile *to = pass == 0 ? g_ptr_array_index (files, i) : first;

        for (size_t op = 0; op < tprof_profile_file_n_operations (from); op++)
          if (tprof_profile_file_find_operation (to, tprof_profile_file_operation_name (from, op)) == (size_t) -1)
            {
              g_autofree char *name = tprof_cli_escape (tprof_profile_file_operation_name (from, op));

              tprof_cli_file_error (tprof_profile_file_path (to),
                                    _("has no operation \"%s\", which %s has: the runs of one side must "
                                      "be runs of the same program"),
                                    name, tprof_profile_file_path (from));
              return FALSE;
            }
      }
  return TRUE;
}

/* Opens every run of @paths into @files, or prints why not. */
static gboolean
open_side (GPtrArray *paths,
           GPtrArray *files)
{
  for (guint i = 0; i < paths->len; i++)
    {
      TprofProfileFile *profile = tprof_cli_open (g_ptr_array_index (paths, i));

      if (profile == NULL)
        return FALSE;
      g_ptr_array_add (files, profile);
      if (!check_not_empty (profile))
        return FALSE;
    }
  return paths->len < 2 || check_same_operations (files);
}

/* The smallest world of @files; the first of them whose world is not
 * @world into *@differs, unless one is there already. */
static int
smallest_world (GPtrArray         *files,
                int                world,
                TprofProfileFile **differs)
{
  int smallest = world;

  for (guint i = 0; i < files->len; i++)
    {
      TprofProfileFile *profile = g_ptr_array_index (files, i);
      int w = tprof_profile_file_world_size (profile);

      if (w != world && *differs == NULL)
        *differs = profile;
      smallest = MIN (smallest, w);
    }
  return smallest;
}

static char *
render (const TprofCliComparison *cmp,
        const Options            *options)
{
  if (options->junit)
    return tprof_cli_compare_junit (cmp);
  if (options->format == TPROF_CLI_FORMAT_CSV)
    return tprof_cli_compare_csv (cmp);
  if (options->format == TPROF_CLI_FORMAT_JSON)
    return tprof_cli_compare_json (cmp);
  return tprof_cli_compare_table (cmp);
}

static int
run (TprofCliComparison *cmp,
     const Options      *options)
{
  Runs runs = { g_ptr_array_new_with_free_func ((GDestroyNotify) tprof_profile_file_close),
                g_ptr_array_new_with_free_func ((GDestroyNotify) tprof_profile_file_close) };
  GArray *ranks = NULL;
  int status = TPROF_CLI_EXIT_FAILED, smallest;
  TprofProfileFile *differs = NULL;
  gboolean slower = FALSE;
  char *text = NULL;

  if (!open_side (cmp->base_paths, runs.base) || !open_side (cmp->new_paths, runs.new_runs))
    goto out;
  cmp->base_world = tprof_profile_file_world_size (g_ptr_array_index (runs.base, 0));
  cmp->new_world = tprof_profile_file_world_size (g_ptr_array_index (runs.new_runs, 0));
  smallest = smallest_world (runs.new_runs, cmp->base_world, &differs);
  smallest = MIN (smallest, smallest_world (runs.base, cmp->base_world, &differs));
  cmp->world_sizes_differ = differs != NULL;
  /* --ranks must name ranks every run has */
  if (!tprof_cli_parse_ranks ("compare", options->ranks_expr, smallest, NULL, &ranks, &status))
    goto out;
  if (cmp->op != NULL && differs != NULL)
    {
      status = tprof_cli_file_error (tprof_profile_file_path (differs),
                                     _("has %d ranks and %s has %d: ranks can be compared one by one "
                                       "only in runs of the same size"),
                                     tprof_profile_file_world_size (differs),
                                     (const char *) g_ptr_array_index (cmp->base_paths, 0), cmp->base_world);
      goto out;
    }
  status = cmp->op != NULL ? compare_ranks (cmp, options, &runs) : compare_operations (cmp, options, &runs, ranks);
  if (status != TPROF_CLI_EXIT_OK)
    goto out;
  decide (cmp, options->alpha, options->min_change);
  if (cmp->op == NULL)
    g_array_sort (cmp->rows, compare_change);

  text = render (cmp, options);
  status = tprof_cli_print (text);
  for (guint i = 0; i < cmp->rows->len; i++)
    slower |= g_array_index (cmp->rows, TprofCliCompareRow, i).c.verdict == TPROF_VERDICT_SLOWER;
  if (status == TPROF_CLI_EXIT_OK && options->fail_on_slower && slower)
    status = TPROF_CLI_EXIT_SLOWER;

out:
  g_free (text);
  if (ranks != NULL)
    g_array_unref (ranks);
  g_ptr_array_unref (runs.base);
  g_ptr_array_unref (runs.new_runs);
  return status;
}

/* ---- options ---- */

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

static GPtrArray *
path_array (char **paths,
            int    from,
            int    to)
{
  GPtrArray *array = g_ptr_array_new ();

  for (int i = from; paths != NULL && i < to && paths[i] != NULL; i++)
    g_ptr_array_add (array, paths[i]);
  return array;
}

/* The runs of both sides from BASE NEW or from --base and --new, into @cmp;
 * FALSE after a usage error. */
static gboolean
parse_runs (TprofCliComparison *cmp,
            int                 argc,
            char              **argv,
            char              **base,
            char              **new_runs,
            int                *status)
{
  guint n_base = base != NULL ? g_strv_length (base) : 0, n_new = new_runs != NULL ? g_strv_length (new_runs) : 0;

  if (n_base == 0 && n_new == 0)
    {
      if (argc < 3)
        *status = tprof_cli_usage_error ("compare", _("missing %s"), argc < 2 ? "BASE" : "NEW");
      else if (argc > 3)
        *status = tprof_cli_usage_error ("compare", _("unexpected argument \"%s\""), argv[3]);
      else
        {
          cmp->base_paths = path_array (argv, 1, 2);
          cmp->new_paths = path_array (argv, 2, 3);
          return TRUE;
        }
      return FALSE;
    }
  if (argc > 1)
    *status = tprof_cli_usage_error ("compare", _("unexpected argument \"%s\": name the runs either as BASE NEW "
                                                  "or with --base and --new"), argv[1]);
  else if (n_base == 0 || n_new == 0)
    *status = tprof_cli_usage_error ("compare", _("missing %s: several runs a side need both --base and --new"),
                                     n_base == 0 ? "--base" : "--new");
  else if (n_base == 1 && n_new == 1)
    *status = tprof_cli_usage_error ("compare", _("--base and --new name one run each: give two runs or more "
                                                  "on a side, or compare two runs as BASE NEW"));
  else
    {
      cmp->base_paths = path_array (base, 0, (int) n_base);
      cmp->new_paths = path_array (new_runs, 0, (int) n_new);
      return TRUE;
    }
  return FALSE;
}

/* --format: table, csv, json, or junit (comparisons only). */
static gboolean
parse_format (const char *text,
              gboolean    calibrating,
              Options    *options,
              int        *status)
{
  if (text != NULL && g_str_equal (text, "junit"))
    {
      if (calibrating)
        {
          *status = tprof_cli_usage_error ("compare", _("--format junit is for comparisons, not --calibrate"));
          return FALSE;
        }
      options->junit = TRUE;
      return TRUE;
    }
  if (text != NULL && !g_str_equal (text, "table") && !g_str_equal (text, "csv") && !g_str_equal (text, "json"))
    {
      *status = tprof_cli_usage_error ("compare", _("invalid format \"%s\": expected table, csv, json or junit"),
                                       text);
      return FALSE;
    }
  return tprof_cli_parse_format ("compare", text, &options->format, status);
}

/* Usage errors of options that do not go together. */
static gboolean
check_combinations (const char *op,
                    const char *ranks_expr,
                    const char *noise,
                    gboolean    calibrate,
                    char      **base,
                    char      **new_runs,
                    int        *status)
{
  const char *message = NULL;

  if (op != NULL && ranks_expr != NULL)
    message = _("--op compares every rank: leave out --ranks");
  else if (op != NULL && noise != NULL)
    message = _("--noise holds the spread of whole operations: leave it out with --op");
  else if (calibrate && (op != NULL || noise != NULL || base != NULL || new_runs != NULL))
    message = _("--calibrate takes runs of one program only: leave out --op, --noise, --base and --new");
  if (message == NULL)
    return TRUE;
  *status = tprof_cli_usage_error ("compare", "%s", message);
  return FALSE;
}

int
tprof_cli_compare (int    argc,
                   char **argv)
{
  char *ranks_expr = NULL, *format_text = NULL, *alpha_text = NULL, *change_text = NULL, *op = NULL;
  char *noise_path = NULL;
  char **base = NULL, **new_runs = NULL;
  gboolean fail_on_slower = FALSE, calibrate = FALSE;
  const GOptionEntry entries[] = {
    { "base", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &base, N_("A run of the base side (repeat: several runs)"),
      N_("FILE") },
    { "new", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &new_runs, N_("A run of the new side (repeat: several runs)"),
      N_("FILE") },
    { "calibrate", 0, 0, G_OPTION_ARG_NONE, &calibrate,
      N_("Measure how much the given runs of one program differ, operation by operation"), NULL },
    { "noise", 0, 0, G_OPTION_ARG_FILENAME, &noise_path,
      N_("The CSV of --calibrate: the run-to-run spread the verdict allows for"), N_("FILE") },
    { "op", 0, 0, G_OPTION_ARG_STRING, &op, N_("Compare this operation rank by rank"), N_("NAME") },
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &ranks_expr,
      N_("Only these ranks of every run, e.g. 0-3,8"), N_("EXPR") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default), csv, json or junit"), N_("FORMAT") },
    { "alpha", 0, 0, G_OPTION_ARG_STRING, &alpha_text,
      N_("Significance level of the adjusted p-values (default 0.05)"), N_("A") },
    { "min-change", 0, 0, G_OPTION_ARG_STRING, &change_text,
      N_("Smallest change of the median that counts, in percent (default 2, or the noise floor of --noise)"),
      N_("PCT") },
    { "fail-on-slower", 0, 0, G_OPTION_ARG_NONE, &fail_on_slower,
      N_("Exit with status 3 when an operation got slower"), NULL },
    { NULL }
  };
  Options options = { NULL, TPROF_CLI_FORMAT_TABLE, FALSE, TPROF_COMPARE_ALPHA, TPROF_COMPARE_MIN_CHANGE * 100.0,
                      FALSE, FALSE, NULL };
  TprofCliComparison cmp = { 0 };
  GOptionContext *context;
  GError *error = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("compare", _("BASE NEW | --base FILE... --new FILE... | --calibrate RUN..."),
                                   /* xgettext:no-c-format */
                                   _("Compares runs operation by operation (or, with --op, one operation "
                                     "rank by rank): the median time of each side, their ratio NEW/BASE "
                                     "with a 95% interval, and whether the difference is more than the "
                                     "runs' noise, sorted by how much the total time changed."),
                                   _("Verdicts: \"slower\" when the Holm-adjusted p-value of the verdict's "
                                     "test is below --alpha and the ratio of medians is above 1 + "
                                     "--min-change; \"faster\" when it is below 1 / (1 + --min-change); "
                                     "\"same\" otherwise; \"only-base\" and \"only-new\" for operations of "
                                     "one side. The verdict's test takes each run's median as one "
                                     "observation when a side has several runs (or --noise gives the "
                                     "spread between runs); with one run a side, the mean of the logs "
                                     "of medians of blocks of consecutive occurrences, whole runs taken "
                                     "to differ by up to twice the spread between blocks or ranks of a "
                                     "run. p (Holm) is the per-sample "
                                     "Mann-Whitney U test, which calls a run's own noise significant. "
                                     "Exit status 3 with --fail-on-slower when any verdict is \"slower\"."),
                                   entries);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = tprof_cli_usage_error ("compare", "%s", error->message);
      g_error_free (error);
      goto out;
    }
  if (!check_combinations (op, ranks_expr, noise_path, calibrate, base, new_runs, &status)
      || !parse_format (format_text, calibrate, &options, &status)
      || !parse_number ("--alpha", alpha_text, 1e-300, 1.0, &options.alpha, &status)
      || !parse_number ("--min-change", change_text, 0.0, 1e6, &options.min_change, &status))
    goto out;
  if (calibrate)
    {
      GPtrArray *paths = path_array (argv, 1, argc);

      if (paths->len < 2)
        status = tprof_cli_usage_error ("compare", _("--calibrate needs two runs or more (five or more "
                                                     "measure the spread well)"));
      else
        status = tprof_cli_compare_calibrate (paths, ranks_expr, options.format);
      g_ptr_array_unref (paths);
      goto out;
    }
  if (!parse_runs (&cmp, argc, argv, base, new_runs, &status))
    goto out;
  if (noise_path != NULL && (options.noise = tprof_cli_compare_read_noise (noise_path)) == NULL)
    {
      status = TPROF_CLI_EXIT_FAILED;
      goto out;
    }
  options.ranks_expr = ranks_expr;
  options.fail_on_slower = fail_on_slower;
  options.min_change_given = change_text != NULL;
  options.min_change /= 100.0;
  cmp.op = op;
  cmp.calibrated = options.noise != NULL;
  cmp.rows = g_array_new (FALSE, TRUE, sizeof (TprofCliCompareRow));
  g_array_set_clear_func (cmp.rows, row_clear);
  status = run (&cmp, &options);
  g_array_unref (cmp.rows);

out:
  g_option_context_free (context);
  if (cmp.base_paths != NULL)
    g_ptr_array_unref (cmp.base_paths);
  if (cmp.new_paths != NULL)
    g_ptr_array_unref (cmp.new_paths);
  if (options.noise != NULL)
    g_hash_table_unref (options.noise);
  g_strfreev (base);
  g_strfreev (new_runs);
  g_free (noise_path);
  g_free (ranks_expr);
  g_free (format_text);
  g_free (alpha_text);
  g_free (change_text);
  g_free (op);
  return status;
}
