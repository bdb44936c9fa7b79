/* tprof-cli-ranks.c — `tprof ranks`: one operation rank by rank, with ranks whose total stands out flagged. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef struct
{
  const TprofRankSummary *ranks;
  gsize                   n_ranks;
  double                 *z;
} RankRows;

/* --sort: the ranks in rank order, or by a column, largest first. */
typedef enum
{
  SORT_RANK,
  SORT_SUM,
  SORT_MEAN,
  SORT_MAX,
  SORT_Z,
} SortKey;

typedef struct
{
  TprofRankSummary summary;
  double           z;
} SortedRow;

static double
sort_value (const SortedRow *row,
            SortKey          key)
{
  switch (key)
    {
    case SORT_SUM:
      return row->summary.sum;
    case SORT_MEAN:
      return row->summary.mean;
    case SORT_MAX:
      return row->summary.max;
    case SORT_Z:
      return fabs (row->z);
    case SORT_RANK:
    default:
      return -(double) row->summary.rank;
    }
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SortedRow *x = a, *y = b;
  double vx = sort_value (x, GPOINTER_TO_INT (user_data)), vy = sort_value (y, GPOINTER_TO_INT (user_data));

  if (vx != vy)
    return (vx < vy) - (vx > vy);
  return (x->summary.rank > y->summary.rank) - (x->summary.rank < y->summary.rank);
}

/* Reorders @summaries and @z together by @key, largest first (rank order
 * for SORT_RANK), and keeps the first @top (0: all). */
static gsize
sort_rows (TprofRankSummary *summaries,
           double           *z,
           gsize             n,
           SortKey           key,
           gsize             top)
{
  SortedRow *rows = g_new (SortedRow, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    rows[i] = (SortedRow) { summaries[i], z[i] };
  g_qsort_with_data (rows, (gint) n, sizeof *rows, compare_rows, GINT_TO_POINTER (key));
  if (top > 0 && top < n)
    n = top;
  for (gsize i = 0; i < n; i++)
    {
      summaries[i] = rows[i].summary;
      z[i] = rows[i].z;
    }
  g_free (rows);
  return n;
}

static gboolean
is_outlier (double z)
{
  return fabs (z) > TPROF_OUTLIER_Z;
}

static const char *
outlier_word (double z)
{
  if (!is_outlier (z))
    return "";
  return z > 0 ? _("slow") : _("fast");
}

static char *
render_table (const RankRows *rows)
{
  const char *headers[] = {
    _("Rank"), _("Count"), _("Sum"), _("Mean"), _("Min"), _("Max"), _("Robust z"), _("Outlier"),
  };
  gboolean left[G_N_ELEMENTS (headers)] = { [7] = TRUE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  GString *flagged = g_string_new (NULL);
  guint n_flagged = 0;
  char *text;

  for (gsize i = 0; i < rows->n_ranks; i++)
    {
      const TprofRankSummary *r = &rows->ranks[i];
      char *cells[] = {
        g_strdup_printf ("%d", r->rank),
        g_strdup_printf ("%zu", r->count),
        tprof_cli_cell_duration (r->sum),
        tprof_cli_cell_duration (r->mean),
        tprof_cli_cell_duration (r->min),
        tprof_cli_cell_duration (r->max),
        g_strdup_printf ("%.2f", rows->z[i]),
        g_strdup (outlier_word (rows->z[i])),
      };

      tprof_cli_table_add_row (table, cells);
      if (is_outlier (rows->z[i]))
        {
          g_string_append_printf (flagged, n_flagged > 0 ? ", %d" : "%d", r->rank);
          n_flagged++;
        }
    }
  text = tprof_cli_table_free_to_string (table);
  if (n_flagged > 0)
    {
      char *note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%u outlier rank (|robust z| > %.1f): %s\n",
                                                 "%u outlier ranks (|robust z| > %.1f): %s\n",
                                                 n_flagged),
                                    n_flagged, TPROF_OUTLIER_Z, flagged->str);
      char *joined = g_strconcat (text, "\n", note, NULL);

      g_free (text);
      g_free (note);
      text = joined;
    }
  g_string_free (flagged, TRUE);
  return text;
}

static char *
render_csv (const RankRows *rows)
{
  GString *out = g_string_new ("rank,count,sum,mean,std,min,max,z,outlier\n");

  for (gsize i = 0; i < rows->n_ranks; i++)
    {
      const TprofRankSummary *r = &rows->ranks[i];
      const double values[] = { r->sum, r->mean, r->std, r->min, r->max, rows->z[i] };

      g_string_append_printf (out, "%d,%zu", r->rank, r->count);
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          g_string_append_c (out, ',');
          tprof_cli_csv_append_double (out, values[k]);
        }
      g_string_append (out, is_outlier (rows->z[i]) ? ",true\n" : ",false\n");
    }
  return g_string_free (out, FALSE);
}

static char *
render_json (const char     *file,
             int             world_size,
             const char     *op,
             const RankRows *rows)
{
  static const char *const keys[] = { "sum", "mean", "std", "min", "max", "z" };
  GString *out = g_string_new ("{\"file\": ");

  tprof_cli_json_append_string (out, file);
  g_string_append_printf (out, ", \"world_size\": %d, \"operation\": ", world_size);
  tprof_cli_json_append_string (out, op);
  g_string_append (out, ", \"ranks\": [");
  for (gsize i = 0; i < rows->n_ranks; i++)
    {
      const TprofRankSummary *r = &rows->ranks[i];
      const double values[] = { r->sum, r->mean, r->std, r->min, r->max, rows->z[i] };

      g_string_append_printf (out, "%s{\"rank\": %d, \"count\": %zu", i > 0 ? ", " : "",
                              r->rank, r->count);
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          g_string_append_printf (out, ", \"%s\": ", keys[k]);
          tprof_cli_json_append_double (out, values[k]);
        }
      g_string_append_printf (out, ", \"outlier\": %s}", is_outlier (rows->z[i]) ? "true" : "false");
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

static int
run (const char     *file,
     const char     *op,
     TprofCliFormat  format,
     SortKey         sort,
     gsize           top)
{
  TprofProfileFile *profile;
  TprofGatheredTime *gt = NULL;
  TprofRankSummary *summaries = NULL;
  RankRows rows = { 0 };
  double *totals;
  char *text;
  size_t n, index;
  int status;

  profile = tprof_cli_open (file);
  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  if (!tprof_cli_find_operation (profile, op, &index)
      || (gt = tprof_cli_read_operation (profile, index, NULL)) == NULL)
    {
      tprof_profile_file_close (profile);
      return TPROF_CLI_EXIT_FAILED;
    }
  n = tprof_gathered_time_rank_summaries (gt, &summaries);
  tprof_gathered_time_free (gt);
  if (n == (size_t) -1)
    {
      tprof_profile_file_close (profile);
      return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
    }

  totals = g_new (double, MAX (n, 1));
  rows.ranks = summaries;
  rows.n_ranks = n;
  rows.z = g_new0 (double, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    totals[i] = summaries[i].sum;
  if (!tprof_robust_z (totals, n, rows.z))
    {
      g_free (totals);
      g_free (rows.z);
      free (summaries);
      tprof_profile_file_close (profile);
      return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
    }
  rows.n_ranks = sort_rows (summaries, rows.z, n, sort, top);

  switch (format)
    {
    case TPROF_CLI_FORMAT_CSV:
      text = render_csv (&rows);
      break;
    case TPROF_CLI_FORMAT_JSON:
      text = render_json (file, tprof_profile_file_world_size (profile), op, &rows);
      break;
    case TPROF_CLI_FORMAT_TABLE:
    default:
      text = render_table (&rows);
      break;
    }
  status = tprof_cli_print (text);

  g_free (text);
  g_free (totals);
  g_free (rows.z);
  free (summaries);
  tprof_profile_file_close (profile);
  return status;
}

int
tprof_cli_ranks (int    argc,
                 char **argv)
{
  char *op = NULL, *format_text = NULL, *sort_text = NULL;
  int top = 0;
  SortKey sort = SORT_RANK;
  const GOptionEntry entries[] = {
    { "op", 0, 0, G_OPTION_ARG_STRING, &op, N_("The operation to show (required)"), N_("NAME") },
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort_text,
      N_("Order: rank (default), sum, mean, max or z (|robust z|), largest first"), N_("KEY") },
    { "top", 'n', 0, G_OPTION_ARG_INT, &top, N_("Only the first N ranks of that order"), N_("N") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default), csv or json"), N_("FORMAT") },
    { NULL }
  };
  GOptionContext *context;
  TprofCliFormat format;
  const char *file = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("ranks", _("FILE"),
                                   _("Prints, for each rank with samples of one operation, its sample "
                                     "count, total, mean, min and max time, and flags the ranks whose "
                                     "total stands out."),
                                   _("Outliers: the robust z-score of each rank's total is\n"
                                     "  z = 0.6745 * (total - median) / MAD\n"
                                     "where median and MAD (median absolute deviation) are over the "
                                     "ranks' totals; a rank is flagged when |z| > 3.5 (\"slow\" above "
                                     "the median, \"fast\" below). When more than half the ranks have "
                                     "exactly the median total the MAD is 0, and the mean absolute "
                                     "deviation is used instead: z = (total - median) / (1.253314 * "
                                     "mean absolute deviation). When all totals are equal no rank is "
                                     "flagged."),
                                   entries);
  if (!tprof_cli_parse (context, "ranks", &argc, &argv, 1, (const char *[]) { "FILE" }, &file, &status))
    goto out;
  if (op == NULL)
    {
      status = tprof_cli_usage_error ("ranks", _("missing --op NAME"));
      goto out;
    }
  if (!tprof_cli_parse_format ("ranks", format_text, &format, &status))
    goto out;
  if (sort_text != NULL)
    {
      static const char *const keys[] = { "rank", "sum", "mean", "max", "z" };
      gboolean known = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (keys) && !known; k++)
        if (g_str_equal (sort_text, keys[k]))
          {
            sort = (SortKey) k;
            known = TRUE;
          }
      if (!known)
        {
          status = tprof_cli_usage_error ("ranks", _("unknown --sort key \"%s\": use rank, sum, mean, max or z"),
                                          sort_text);
          goto out;
        }
    }
  if (top < 0)
    {
      status = tprof_cli_usage_error ("ranks", _("--top %d: the number of ranks must be 1 or more"), top);
      goto out;
    }
  status = run (file, op, format, sort, (gsize) top);

out:
  g_option_context_free (context);
  g_free (op);
  g_free (format_text);
  g_free (sort_text);
  return status;
}
