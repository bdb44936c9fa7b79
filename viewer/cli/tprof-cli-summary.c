/* tprof-cli-summary.c — `tprof summary`: the statistics of every operation as a table, CSV or JSON. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef enum
{
  COLUMN_NAME,
  COLUMN_COUNT,
  COLUMN_RANK_COUNT,
  COLUMN_SUM,
  COLUMN_MEAN,
  COLUMN_STD,
  COLUMN_MIN,
  COLUMN_MAX,
  COLUMN_MEDIAN,
  COLUMN_P95,
  COLUMN_P99,
  COLUMN_IMBALANCE,
  COLUMN_SLOWEST_RANK,
  COLUMN_PARENT,
  COLUMN_SELF_SUM,
  N_COLUMNS
} Column;

/* Past this many samples in all, the tree (which reads every sample) is
 * left out unless --tree asks for it: the rest of the summary comes from
 * the file's cached statistics at once. */
#define TREE_AUTO_SAMPLES 5000000

/* JSON and CSV keys, in output order; also the names --sort accepts. */
static const char *const column_keys[N_COLUMNS] = {
  "name", "count", "rank_count", "sum", "mean", "std", "min", "max",
  "median", "p95", "p99", "imbalance", "slowest_rank", "parent", "self_sum",
};

typedef struct
{
  const char  *name;
  gsize        index;   /* file order, to keep sorting stable */
  TprofSummary s;
  const char  *parent;  /* the parent operation's name, NULL for none */
  double       self_sum;  /* NaN when the tree was not computed */
  int          depth;   /* in the tree, for the table's indentation */
  gboolean     sampled; /* sampled capture: some rank stores a subset of what
                           it recorded; count, sum, mean, min, max (and the
                           balance) are exact, std and quantiles estimates */
  uint64_t     stored;  /* samples the file stores (== count unless sampled) */
} Row;

/* What a sampled operation's std and quantiles are: estimates from the
 * stored subset (CSV and JSON name them). */
static const char *const estimated_keys[] = { "std", "median", "p95", "p99" };

static double
row_number (const Row *row,
            Column     column)
{
  const TprofSummary *s = &row->s;

  switch (column)
    {
    case COLUMN_COUNT:
      return (double) s->count;
    case COLUMN_RANK_COUNT:
      return (double) s->rank_count;
    case COLUMN_SUM:
      return s->sum;
    case COLUMN_MEAN:
      return s->mean;
    case COLUMN_STD:
      return s->std;
    case COLUMN_MIN:
      return s->min;
    case COLUMN_MAX:
      return s->max;
    case COLUMN_MEDIAN:
      return s->median;
    case COLUMN_P95:
      return s->p95;
    case COLUMN_P99:
      return s->p99;
    case COLUMN_IMBALANCE:
      return s->imbalance;
    case COLUMN_SLOWEST_RANK:
      return s->slowest_rank >= 0 ? s->slowest_rank : NAN;
    case COLUMN_SELF_SUM:
      return row->self_sum;
    case COLUMN_PARENT:
    case COLUMN_NAME:
    case N_COLUMNS:
    default:
      return NAN;
    }
}

static gint
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const Row *ra = a, *rb = b;
  Column column = GPOINTER_TO_INT (user_data);
  int result = 0;

  if (column == COLUMN_NAME)
    result = strcmp (ra->name, rb->name);
  else if (column == COLUMN_PARENT)
    /* operations without a parent last */
    result = ra->parent == NULL || rb->parent == NULL ? (ra->parent == NULL) - (rb->parent == NULL)
                                                      : strcmp (ra->parent, rb->parent);
  else
    {
      double va = row_number (ra, column), vb = row_number (rb, column);

      /* largest first, operations without a value last */
      if (isnan (va) || isnan (vb))
        result = isnan (va) - isnan (vb);
      else
        result = (va < vb) - (va > vb);
    }
  if (result == 0)
    result = (ra->index > rb->index) - (ra->index < rb->index);
  return result;
}

static gboolean
parse_sort_column (const char *text,
                   Column     *column)
{
  if (g_str_equal (text, "ranks"))
    {
      *column = COLUMN_RANK_COUNT;
      return TRUE;
    }
  for (int c = 0; c < N_COLUMNS; c++)
    if (g_str_equal (text, column_keys[c]))
      {
        *column = (Column) c;
        return TRUE;
      }
  return FALSE;
}

/* @row's name, indented two blanks a level, " *" after it when sampled. */
static char *
name_cell (const Row *row)
{
  gsize indent = 2 * (gsize) row->depth, length = strlen (row->name);
  const char *mark = row->sampled ? " *" : "";
  gsize mark_length = strlen (mark);
  char *cell = g_malloc (indent + length + mark_length + 1);

  memset (cell, ' ', indent);
  memcpy (cell + indent, row->name, length);
  memcpy (cell + indent + length, mark, mark_length + 1);
  return cell;
}

/* The table; with @tree, indented by depth and with a Self column. */
static char *
render_table (const Row *rows,
              gsize      n_rows,
              gboolean   tree)
{
  const char *headers[] = {
    _("Operation"), _("Count"), _("Ranks"), _("Sum"), _("Self"), _("Mean"), _("Std"), _("Min"), _("Max"),
    _("Median"), _("P95"), _("P99"), _("Imbalance"), _("Slowest"),
  };
  gboolean left[G_N_ELEMENTS (headers)] = { TRUE };
  TprofCliTable *table;
  GPtrArray *shown = g_ptr_array_new ();
  gboolean any_sampled = FALSE;
  char *text, *note;

  for (gsize h = 0; h < G_N_ELEMENTS (headers); h++)
    if (tree || h != 4)
      g_ptr_array_add (shown, (gpointer) headers[h]);
  table = tprof_cli_table_new (shown->len, (const char **) shown->pdata, left);
  g_ptr_array_unref (shown);
  for (gsize i = 0; i < n_rows; i++)
    {
      const TprofSummary *s = &rows[i].s;
      char *cells[G_N_ELEMENTS (headers)] = {
        name_cell (&rows[i]),
        tprof_cli_cell_int ((gint64) s->count),
        tprof_cli_cell_int ((gint64) s->rank_count),
        tprof_cli_cell_duration (s->sum),
        tree ? tprof_cli_cell_duration (rows[i].self_sum) : NULL,
        tprof_cli_cell_duration (s->mean),
        tprof_cli_cell_duration (s->std),
        tprof_cli_cell_duration (s->min),
        tprof_cli_cell_duration (s->max),
        tprof_cli_cell_duration (s->median),
        tprof_cli_cell_duration (s->p95),
        tprof_cli_cell_duration (s->p99),
        tprof_cli_cell_ratio (s->imbalance),
        s->slowest_stands_out ? tprof_cli_cell_int (s->slowest_rank) : g_strdup ("—"),
      };

      if (!tree)
        memmove (&cells[4], &cells[5], (G_N_ELEMENTS (cells) - 5) * sizeof cells[0]);
      tprof_cli_table_add_row (table, cells);
      any_sampled |= rows[i].sampled;
    }
  text = tprof_cli_table_free_to_string (table);
  if (!any_sampled)
    return text;
  note = g_strconcat (text, _("* sampled: the file stores a random subset of the samples. Count, Sum, Mean, "
                              "Min, Max and Imbalance are exact, over every recorded sample; Std, Median, "
                              "P95 and P99 are estimates from the stored subset."), "\n", NULL);
  g_free (text);
  return note;
}

/* Past this many bytes, CSV and JSON go to standard output as they are
 * made: a summary of 10^4 operations is 4 MB of JSON, which one string
 * would grow by copies into freshly faulted pages. */
#define STREAM_BYTES (64 * 1024)

/* Writes @out to standard output and empties it once it holds
 * STREAM_BYTES; a failed write shows in the final tprof_cli_print(),
 * whose flush fails as well. */
static void
stream_out (GString *out)
{
  if (out->len < STREAM_BYTES)
    return;
  (void) !fwrite (out->str, 1, out->len, stdout);
  g_string_truncate (out, 0);
}

/* The rest of the CSV once the rows before are written (stream_out()). */
static char *
render_csv (const Row *rows,
            gsize      n_rows)
{
  /* the viewer's Export Table writes the same columns */
  GString *out = g_string_sized_new (2 * STREAM_BYTES);

  g_string_append (out, TPROF_SUMMARY_CSV_HEADER "\n");
  for (gsize i = 0; i < n_rows; i++)
    {
      stream_out (out);
      tprof_summary_csv_append_row (out, rows[i].name, &rows[i].s, rows[i].parent, rows[i].self_sum,
                                    rows[i].sampled, rows[i].stored);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* The rest of the JSON once the operations before are written
 * (stream_out()). */
static char *
render_json (const char *file,
             int         world_size,
             const Row  *rows,
             gsize       n_rows)
{
  GString *out = g_string_sized_new (2 * STREAM_BYTES);
  /* ", \"key\": " of each figure, made once: one append each, not three */
  char *prefixes[N_COLUMNS] = { NULL };
  gsize prefix_lengths[N_COLUMNS] = { 0 };

  for (int c = COLUMN_SUM; c <= COLUMN_IMBALANCE; c++)
    {
      prefixes[c] = g_strconcat (", \"", column_keys[c], "\": ", NULL);
      prefix_lengths[c] = strlen (prefixes[c]);
    }
  g_string_append (out, "{\"file\": ");
  tprof_cli_json_append_string (out, file);
  g_string_append_printf (out, ", \"world_size\": %d, \"operations\": [", world_size);
  for (gsize i = 0; i < n_rows; i++)
    {
      stream_out (out);
      g_string_append (out, i > 0 ? ", {\"name\": " : "{\"name\": ");
      tprof_cli_json_append_string (out, rows[i].name);
      g_string_append (out, ", \"count\": ");
      tprof_cli_json_append_int (out, (gint64) rows[i].s.count);
      g_string_append (out, ", \"rank_count\": ");
      tprof_cli_json_append_int (out, (gint64) rows[i].s.rank_count);
      for (int c = COLUMN_SUM; c <= COLUMN_IMBALANCE; c++)
        {
          g_string_append_len (out, prefixes[c], (gssize) prefix_lengths[c]);
          tprof_cli_json_append_double (out, row_number (&rows[i], (Column) c));
        }
      g_string_append (out, ", \"slowest_rank\": ");
      if (rows[i].s.slowest_rank >= 0)
        tprof_cli_json_append_int (out, rows[i].s.slowest_rank);
      else
        g_string_append (out, "null");
      g_string_append (out, ", \"parent\": ");
      if (rows[i].parent != NULL)
        tprof_cli_json_append_string (out, rows[i].parent);
      else
        g_string_append (out, "null");
      g_string_append (out, ", \"self_sum\": ");
      tprof_cli_json_append_double (out, rows[i].self_sum);
      g_string_append (out, rows[i].sampled ? ", \"sampled\": true, \"stored\": " : ", \"sampled\": false, \"stored\": ");
      tprof_cli_json_append_int (out, (gint64) rows[i].stored);
      g_string_append (out, ", \"estimates\": [");
      for (gsize k = 0; rows[i].sampled && k < G_N_ELEMENTS (estimated_keys); k++)
        {
          g_string_append (out, k > 0 ? ", \"" : "\"");
          g_string_append (out, estimated_keys[k]);
          g_string_append_c (out, '"');
        }
      g_string_append (out, "]}");
    }
  g_string_append (out, "]}\n");
  for (int c = COLUMN_SUM; c <= COLUMN_IMBALANCE; c++)
    g_free (prefixes[c]);
  return g_string_free (out, FALSE);
}

/* Summarizes operation @op of @profile into @row: from the file's cached
 * statistics when it has them and no @ranks restrict it (no sample is
 * read), otherwise from the operation's samples on @ranks, read alone so
 * that one operation at a time is in memory. */
static gboolean
summarize_one (TprofProfileFile *profile,
               const GArray     *ranks,
               gsize             op,
               Row              *row)
{
  TprofGatheredTime *gt;
  gboolean ok;

  row->name = tprof_profile_file_operation_name (profile, op);
  row->index = op;
  row->parent = NULL;
  row->self_sum = NAN;
  row->depth = 0;
  if (ranks == NULL)
    {
      TprofError error = { 0 };
      const TprofOperationStats *stats = tprof_profile_file_operation_stats (profile, op, &error);

      if (stats == NULL)
        {
          tprof_cli_library_error (tprof_profile_file_path (profile), &error);
          return FALSE;
        }
      row->s = stats->summary;
      row->sampled = stats->rank_recorded != NULL;
      row->stored = tprof_profile_file_sample_count (profile, op);
      return TRUE;
    }
  gt = tprof_cli_read_operation (profile, op, ranks);
  if (gt == NULL)
    return FALSE;
  row->sampled = tprof_gathered_time_is_sampled (gt);
  row->stored = tprof_gathered_time_count (gt);
  ok = tprof_gathered_time_summarize (gt, &row->s);
  tprof_gathered_time_free (gt);
  if (!ok)
    tprof_cli_file_error (tprof_profile_file_path (profile), "%s", g_strerror (ENOMEM));
  return ok;
}

/* One row per operation of @profile, restricted to @ranks when not NULL;
 * NULL after printing why when an operation cannot be read. */
static Row *
summarize_operations (TprofProfileFile *profile,
                      const GArray     *ranks,
                      gsize            *n_rows)
{
  gsize n = tprof_profile_file_n_operations (profile);
  Row *rows = g_new0 (Row, MAX (n, 1));

  for (gsize op = 0; op < n; op++)
    if (!summarize_one (profile, ranks, op, &rows[op]))
      {
        g_free (rows);
        return NULL;
      }
  *n_rows = n;
  return rows;
}

/* Parents and self times from @tree into @rows (in file order). */
static void
apply_tree (TprofProfileFile   *profile,
            Row                *rows,
            gsize               n_rows,
            const TprofCliTree *tree)
{
  for (gsize op = 0; op < n_rows; op++)
    {
      rows[op].self_sum = tree->self_sums[op];
      rows[op].parent = tree->parents[op] >= 0
                          ? tprof_profile_file_operation_name (profile, (gsize) tree->parents[op]) : NULL;
    }
}

/* Each operation's children, in file order: those of @op are
 * children[first[op + 1] .. first[op + 2]), the top level's (parent -1)
 * children[first[0] .. first[1]). One pass to count, one to place. */
static gsize *
tree_children (const TprofCliTree *tree,
               gsize               n_rows,
               gsize             **first_out)
{
  gsize *first = g_new0 (gsize, n_rows + 2);
  gsize *children = g_new (gsize, MAX (n_rows, 1));
  gsize *next = g_new (gsize, n_rows + 1);

  for (gsize op = 0; op < n_rows; op++)
    first[tree->parents[op] + 2]++;
  for (gsize k = 1; k < n_rows + 2; k++)
    first[k] += first[k - 1];
  memcpy (next, first, (n_rows + 1) * sizeof *next);
  for (gsize op = 0; op < n_rows; op++)
    children[next[tree->parents[op] + 1]++] = op;
  g_free (next);
  *first_out = first;
  return children;
}

/* @rows (in file order) reordered as the tree: each operation followed by
 * its children, depth first, siblings in file order; linear in the
 * operations (an explicit stack: a chain of 10^4 operations is deep). */
static Row *
order_as_tree (const Row          *rows,
               gsize               n_rows,
               const TprofCliTree *tree)
{
  Row *out = g_new (Row, MAX (n_rows, 1));
  gboolean *seen = g_new0 (gboolean, MAX (n_rows, 1));
  gsize *first = NULL, *children = tree_children (tree, n_rows, &first);
  /* the next child to visit of each open level: an index into children */
  gsize *stack = g_new (gsize, n_rows + 1), *end = g_new (gsize, n_rows + 1);
  gsize n_out = 0;
  int depth = 0;

  stack[0] = first[0];
  end[0] = first[1];
  while (depth >= 0)
    {
      gsize op;

      if (stack[depth] == end[depth])
        {
          depth--;
          continue;
        }
      op = children[stack[depth]++];
      seen[op] = TRUE;
      out[n_out] = rows[op];
      out[n_out++].depth = depth;
      depth++;
      stack[depth] = first[op + 1];
      end[depth] = first[op + 2];
    }
  /* the engine breaks cycles, so every operation is reached; if one were
   * not, it is shown at the top level rather than lost */
  for (gsize op = 0; op < n_rows; op++)
    if (!seen[op])
      out[n_out++] = rows[op];
  g_free (stack);
  g_free (end);
  g_free (children);
  g_free (first);
  g_free (seen);
  return out;
}

static uint64_t
total_samples (TprofProfileFile *profile)
{
  uint64_t total = 0;

  for (gsize op = 0; op < tprof_profile_file_n_operations (profile); op++)
    total += tprof_profile_file_sample_count (profile, op);
  return total;
}

int
tprof_cli_summary (int    argc,
                   char **argv)
{
  char *ranks_expr = NULL, *format_text = NULL, *sort_text = NULL;
  gboolean want_tree = FALSE, no_tree = FALSE;
  char *by = NULL, *topology_path = NULL;
  TprofTopology *topo = NULL;
  size_t level = 0;
  TprofCliTree tree = { FALSE, NULL, NULL };
  gboolean tree_skipped = FALSE;
  const GOptionEntry entries[] = {
    { "tree", 't', 0, G_OPTION_ARG_NONE, &want_tree,
      N_("Always compute each operation's parent and self time (reads every sample)"), NULL },
    { "no-tree", 0, 0, G_OPTION_ARG_NONE, &no_tree,
      N_("Never compute them: only the cached statistics are read"), NULL },
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &ranks_expr,
      N_("Only these ranks, e.g. 0-3,8,12-15"), N_("EXPR") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default), csv or json"), N_("FORMAT") },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("Each operation's count, sum and mean per host (or rank, or a level of the topology)"),
      N_("LEVEL") },
    { "topology", 0, 0, G_OPTION_ARG_FILENAME, &topology_path,
      N_("A topology file placing hosts or ranks in higher levels (switch, rack)"), N_("FILE") },
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort_text,
      N_("Sort by a column: name, count, ranks, sum, mean, std, min, max, median, p95, p99, "
         "imbalance, slowest_rank, parent or self_sum (numbers largest first)"), N_("COLUMN") },
    { NULL }
  };
  GOptionContext *context;
  TprofProfileFile *profile = NULL;
  GArray *ranks = NULL;
  TprofCliFormat format;
  Column sort_column = COLUMN_NAME;
  const char *file = NULL;
  Row *rows = NULL;
  gsize n_rows = 0;
  char *text = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("summary", _("FILE"),
                                   _("Prints the statistics of every operation of a profile: sample "
                                     "count, ranks with samples, sum, mean, standard deviation (N-1), "
                                     "min, max, median, 95th and 99th percentiles, imbalance (largest "
                                     "rank total / mean rank total) and the slowest rank. With a "
                                     "timeline, also each operation's parent (the operation that "
                                     "encloses most of its samples) and self time (its time minus that "
                                     "of the operations inside it); the table then shows the operations "
                                     "as a tree."),
                                   _("Table times are in human units; CSV and JSON times are in "
                                     "seconds at full precision, with missing values empty (CSV) or "
                                     "null (JSON). The tree reads every sample: past 5 000 000 samples "
                                     "it is left out unless --tree is given."),
                                   entries);
  if (!tprof_cli_parse (context, "summary", &argc, &argv, 1, (const char *[]) { "FILE" }, &file, &status))
    goto out;
  if (!tprof_cli_parse_format ("summary", format_text, &format, &status))
    goto out;
  if (sort_text != NULL && !parse_sort_column (sort_text, &sort_column))
    {
      status = tprof_cli_usage_error ("summary", _("unknown --sort column \"%s\""), sort_text);
      goto out;
    }
  if ((by != NULL || topology_path != NULL) && (sort_text != NULL || want_tree))
    {
      status = tprof_cli_usage_error ("summary", _("--sort and --tree do not apply to the totals per group "
                                                   "of --by"));
      goto out;
    }
  if (want_tree && no_tree)
    {
      status = tprof_cli_usage_error ("summary", _("--tree and --no-tree cannot be given together"));
      goto out;
    }

  profile = tprof_cli_open (file);
  if (profile == NULL)
    {
      status = TPROF_CLI_EXIT_FAILED;
      goto out;
    }
  if (!tprof_cli_parse_ranks ("summary", ranks_expr, tprof_profile_file_world_size (profile), profile,
                              &ranks, &status))
    goto out;
  if (by != NULL || topology_path != NULL)
    {
      topo = tprof_cli_topology_load (profile, file, topology_path, &status);
      if (topo != NULL && tprof_cli_topology_level ("summary", file, topo, by, &level, &status))
        status = tprof_cli_summary_groups (profile, file, topo, level, ranks, format);
      goto out;
    }

  rows = summarize_operations (profile, ranks, &n_rows);
  if (rows == NULL)
    {
      status = TPROF_CLI_EXIT_FAILED;
      goto out;
    }
  if (!no_tree && tprof_profile_file_format_version (profile) >= 2)
    {
      if (!want_tree && total_samples (profile) > TREE_AUTO_SAMPLES)
        tree_skipped = TRUE;
      else if (!tprof_cli_summary_tree (profile, ranks, &tree))
        {
          status = TPROF_CLI_EXIT_FAILED;
          goto out;
        }
    }
  if (tree.computed)
    {
      apply_tree (profile, rows, n_rows, &tree);
      if (sort_text == NULL)
        {
          Row *ordered = order_as_tree (rows, n_rows, &tree);

          g_free (rows);
          rows = ordered;
        }
    }
  if (sort_text != NULL)
    g_qsort_with_data (rows, (gint) n_rows, sizeof *rows, compare_rows, GINT_TO_POINTER (sort_column));

  switch (format)
    {
    case TPROF_CLI_FORMAT_CSV:
      text = render_csv (rows, n_rows);
      break;
    case TPROF_CLI_FORMAT_JSON:
      text = render_json (file, tprof_profile_file_world_size (profile), rows, n_rows);
      break;
    case TPROF_CLI_FORMAT_TABLE:
    default:
      {
        char *table = render_table (rows, n_rows, tree.computed);

        text = tree_skipped ? g_strdup_printf (_("%s\nParent and self time left out: %" PRIu64
                                                 " samples. Add --tree to compute them (reads every "
                                                 "sample).\n"), table, total_samples (profile))
                            : g_strdup (table);
        g_free (table);
      }
      break;
    }
  status = tprof_cli_print (text);

out:
  tprof_topology_free (topo);
  g_free (by);
  g_free (topology_path);
  tprof_cli_tree_clear (&tree);
  g_free (text);
  g_free (rows);
  if (ranks != NULL)
    g_array_unref (ranks);
  tprof_profile_file_close (profile);
  g_option_context_free (context);
  g_free (ranks_expr);
  g_free (format_text);
  g_free (sort_text);
  return status;
}
