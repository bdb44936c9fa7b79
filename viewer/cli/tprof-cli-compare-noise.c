/* tprof-cli-compare-noise.c — `tprof compare --calibrate`: how much identical runs differ, operation by operation, and reading that back for --noise. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-compare.h"

#define NOISE_HEADER "name,runs,log_sd,noise_floor"

typedef struct
{
  char           *name;
  TprofRunSpread  spread;
} NoiseRow;

static void
noise_row_clear (gpointer data)
{
  g_free (((NoiseRow *) data)->name);
}

/* The spread of operation @name between @files (NULL where a run has no
 * such operation) into a new row of @rows; FALSE after printing why not. */
static gboolean
measure (GPtrArray    *files,
         const char   *name,
         const GArray *ranks,
         GArray       *rows)
{
  TprofGatheredTime **runs = g_new0 (TprofGatheredTime *, files->len);
  NoiseRow row = { g_strdup (name), { 0 } };
  gboolean ok = TRUE;

  for (guint i = 0; i < files->len && ok; i++)
    {
      TprofProfileFile *profile = g_ptr_array_index (files, i);
      size_t op = tprof_profile_file_find_operation (profile, name);

      ok = op == (size_t) -1 || (runs[i] = tprof_cli_read_operation (profile, op, ranks)) != NULL;
    }
  if (ok && !tprof_compare_calibrate ((const TprofGatheredTime *const *) runs, files->len, &row.spread))
    {
      tprof_cli_file_error (tprof_profile_file_path (g_ptr_array_index (files, 0)), "%s", g_strerror (ENOMEM));
      ok = FALSE;
    }
  for (guint i = 0; i < files->len; i++)
    tprof_gathered_time_free (runs[i]);
  g_free (runs);
  if (ok)
    g_array_append_val (rows, row);
  else
    g_free (row.name);
  return ok;
}

static char *
render_table (const GArray *rows)
{
  const char *headers[] = { _("Operation"), _("Runs"), _("Run-to-run spread"), _("Noise floor") };
  const gboolean left[] = { TRUE, FALSE, FALSE, FALSE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  g_autofree char *text = NULL;

  for (guint i = 0; i < rows->len; i++)
    {
      const NoiseRow *row = &g_array_index (rows, NoiseRow, i);
      char *cells[] = {
        tprof_cli_escape (row->name),
        g_strdup_printf ("%zu", row->spread.runs),
        isnan (row->spread.log_sd) ? g_strdup ("—") : g_strdup_printf ("%.2f %%", 100.0 * expm1 (row->spread.log_sd)),
        isnan (row->spread.noise_floor) ? g_strdup ("—")
                                        : g_strdup_printf ("%.2f %%", 100.0 * row->spread.noise_floor),
      };

      tprof_cli_table_add_row (table, cells);
    }
  text = tprof_cli_table_free_to_string (table);
  return g_strconcat (text, "\n",
                      /* xgettext:no-c-format */
                      _("Noise floor: the change of the median that two identical runs exceed in 5 % of pairs. "
                        "Save this as CSV (--format csv) and give it to --noise.\n"),
                      NULL);
}

static char *
render_csv (const GArray *rows)
{
  GString *out = g_string_new (NOISE_HEADER "\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const NoiseRow *row = &g_array_index (rows, NoiseRow, i);

      tprof_cli_csv_append_string (out, row->name);
      g_string_append_printf (out, ",%zu,", row->spread.runs);
      tprof_cli_csv_append_double (out, row->spread.log_sd);
      g_string_append_c (out, ',');
      tprof_cli_csv_append_double (out, row->spread.noise_floor);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static char *
render_json (GPtrArray    *paths,
             const GArray *rows)
{
  GString *out = g_string_new ("{\"runs\": [");

  for (guint i = 0; i < paths->len; i++)
    {
      g_string_append (out, i > 0 ? ", " : "");
      tprof_cli_json_append_string (out, g_ptr_array_index (paths, i));
    }
  g_string_append (out, "], \"operations\": [");
  for (guint i = 0; i < rows->len; i++)
    {
      const NoiseRow *row = &g_array_index (rows, NoiseRow, i);

      g_string_append (out, i > 0 ? ", {\"name\": " : "{\"name\": ");
      tprof_cli_json_append_string (out, row->name);
      g_string_append_printf (out, ", \"runs\": %zu, \"log_sd\": ", row->spread.runs);
      tprof_cli_json_append_double (out, row->spread.log_sd);
      g_string_append (out, ", \"noise_floor\": ");
      tprof_cli_json_append_double (out, row->spread.noise_floor);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

/* Opens @paths into @files; FALSE after printing why not. */
static gboolean
open_runs (GPtrArray *paths,
           GPtrArray *files)
{
  for (guint i = 0; i < paths->len; i++)
    {
      TprofProfileFile *profile = tprof_cli_open (g_ptr_array_index (paths, i));
      gboolean empty = TRUE;

      if (profile == NULL)
        return FALSE;
      g_ptr_array_add (files, profile);
      for (size_t op = 0; op < tprof_profile_file_n_operations (profile); op++)
        empty &= tprof_profile_file_sample_count (profile, op) == 0;
      if (empty)
        {
          tprof_cli_file_error (g_ptr_array_index (paths, i), _("holds no samples: there is nothing to compare"));
          return FALSE;
        }
    }
  return TRUE;
}

int
tprof_cli_compare_calibrate (GPtrArray      *paths,
                             const char     *ranks_expr,
                             TprofCliFormat  format)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) tprof_profile_file_close);
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (NoiseRow)), *ranks = NULL;
  int status = TPROF_CLI_EXIT_FAILED, smallest = G_MAXINT;
  g_autofree char *text = NULL;
  TprofProfileFile *first;

  g_array_set_clear_func (rows, noise_row_clear);
  if (!open_runs (paths, files))
    goto out;
  for (guint i = 0; i < files->len; i++)
    smallest = MIN (smallest, tprof_profile_file_world_size (g_ptr_array_index (files, i)));
  if (!tprof_cli_parse_ranks ("compare", ranks_expr, smallest, NULL, &ranks, &status))
    goto out;
  /* the first run's operations; one the others lack is measured on those that have it */
  first = g_ptr_array_index (files, 0);
  for (size_t op = 0; op < tprof_profile_file_n_operations (first); op++)
    if (!measure (files, tprof_profile_file_operation_name (first, op), ranks, rows))
      goto out;
  if (format == TPROF_CLI_FORMAT_CSV)
    text = render_csv (rows);
  else if (format == TPROF_CLI_FORMAT_JSON)
    text = render_json (paths, rows);
  else
    text = render_table (rows);
  status = tprof_cli_print (text);

out:
  if (ranks != NULL)
    g_array_unref (ranks);
  g_array_unref (rows);
  g_ptr_array_unref (files);
  return status;
}

/* ---- reading --noise ---- */

/* The next CSV field of @p (quoted or not) into @field; *@end_of_record
 * when it ends a line. FALSE at a quote left open. */
static gboolean
next_field (const char **p,
            GString     *field,
            gboolean    *end_of_record)
{
  const char *s = *p;

  g_string_truncate (field, 0);
  if (*s == '"')
    {
      for (s++;; s++)
        {
          if (*s == '\0')
            return FALSE;
          if (*s == '"' && s[1] == '"')
            s++;
          else if (*s == '"')
            {
              s++;
              break;
            }
          g_string_append_c (field, *s);
        }
    }
  else
    for (; *s != '\0' && *s != ',' && *s != '\n' && *s != '\r'; s++)
      g_string_append_c (field, *s);
  if (*s == '\r')
    s++;
  *end_of_record = *s != ',';
  if (*s == ',' || *s == '\n')
    s++;
  *p = s;
  return TRUE;
}

/* A number of a field, NaN for an empty one; FALSE when it is neither. */
static gboolean
parse_field (const char *text,
             double     *value)
{
  char *end = NULL;

  if (*text == '\0')
    {
      *value = NAN;
      return TRUE;
    }
  *value = g_ascii_strtod (text, &end);
  return end != text && *end == '\0' && isfinite (*value) && *value >= 0.0;
}

/* One record of four fields into @table; NULL, or why not. */
static const char *
read_record (const char **p,
             GHashTable  *table)
{
  g_autoptr(GString) field = g_string_new (NULL);
  char *name = NULL;
  double values[3];
  gboolean end = FALSE;

  for (guint k = 0; k < 4; k++)
    {
      if (end || !next_field (p, field, &end))
        {
          g_free (name);
          return _("expected 4 fields: name,runs,log_sd,noise_floor");
        }
      if (k == 0)
        name = g_strdup (field->str);
      else if (!parse_field (field->str, &values[k - 1]))
        {
          g_free (name);
          return _("a field is not a number >= 0");
        }
    }
  if (!end || !(values[0] == floor (values[0])))
    {
      g_free (name);
      return !end ? _("expected 4 fields: name,runs,log_sd,noise_floor") : _("runs is not a whole number");
    }
  {
    TprofRunSpread *spread = g_new (TprofRunSpread, 1);

    *spread = (TprofRunSpread) { (size_t) values[0], values[1], values[2] };
    g_hash_table_replace (table, name, spread);
  }
  return NULL;
}

GHashTable *
tprof_cli_compare_read_noise (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *table;
  const char *p;
  gsize length;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      tprof_cli_file_error (path, "%s", error->message);
      return NULL;
    }
  if (!g_str_has_prefix (contents, NOISE_HEADER "\n") && !g_str_has_prefix (contents, NOISE_HEADER "\r\n"))
    {
      tprof_cli_file_error (path, _("is not the CSV of tprof compare --calibrate (its first line is not %s)"),
                            NOISE_HEADER);
      return NULL;
    }
  if (strlen (contents) != length || !g_utf8_validate (contents, -1, NULL))
    {
      tprof_cli_file_error (path, _("is not UTF-8 text"));
      return NULL;
    }
  table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  p = strchr (contents, '\n') + 1;
  for (guint line = 2; *p != '\0'; line++)
    {
      const char *why = read_record (&p, table);

      if (why != NULL)
        {
          tprof_cli_file_error (path, _("record %u: %s"), line - 1, why);
          g_hash_table_unref (table);
          return NULL;
        }
    }
  return table;
}
