/* tprof-cli-output.c — aligned tables in human units, CSV and JSON in seconds at full precision. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

int
tprof_cli_print (const char *text)
{
  gsize length = strlen (text);

  if (fwrite (text, 1, length, stdout) != length || fflush (stdout) != 0)
    return tprof_cli_file_error (_("standard output"), "%s", g_strerror (errno));
  return TPROF_CLI_EXIT_OK;
}

/* ---- text a terminal shows safely ---- */

char *
tprof_cli_escape (const char *text)
{
  return tprof_escape_text (text);
}

glong
tprof_cli_display_width (const char *text)
{
  glong width = 0;
  const char *p = text;

  /* ASCII, most of a table, without decoding */
  while (*p > 0 && *p < 0x7f)
    p++;
  width = p - text;
  for (; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }
  return width;
}

/* ---- tables ---- */

struct _TprofCliTable
{
  guint      n_columns;
  gboolean  *left_aligned;
  GPtrArray *cells;   /* row-major, n_columns per row, the first row the headers */
};

TprofCliTable *
tprof_cli_table_new (guint               n_columns,
                     const char *const  *headers,
                     const gboolean     *left_aligned)
{
  TprofCliTable *table = g_new0 (TprofCliTable, 1);

  table->n_columns = n_columns;
  table->left_aligned = g_memdup2 (left_aligned, n_columns * sizeof (gboolean));
  table->cells = g_ptr_array_new_with_free_func (g_free);
  for (guint c = 0; c < n_columns; c++)
    g_ptr_array_add (table->cells, g_strdup (headers[c]));
  return table;
}

void
tprof_cli_table_add_row (TprofCliTable  *table,
                         char          **cells)
{
  for (guint c = 0; c < table->n_columns; c++)
    g_ptr_array_add (table->cells, cells[c]);
}

/* The columns @text takes on a terminal, and its bytes in *@bytes: one
 * pass over ASCII, most cells. */
static glong
measure (const char *text,
         gsize      *bytes)
{
  const char *p = text;

  while (*p > 0 && *p < 0x7f)
    p++;
  if (*p == '\0')
    {
      *bytes = (gsize) (p - text);
      return p - text;
    }
  *bytes = strlen (text);
  return tprof_cli_display_width (text);
}

char *
tprof_cli_table_free_to_string (TprofCliTable *table)
{
  guint n_rows = table->cells->len / table->n_columns;
  glong *widths = g_new0 (glong, table->n_columns);
  gsize total = 0;
  char *text, *p;

  /* Names come from files: what a terminal would act on is shown escaped,
   * and columns are measured as the terminal draws them ("µs" is two
   * bytes and two columns, "演算" two characters and four columns). */
  for (guint i = 0; i < table->cells->len; i++)
    {
      char **cell = (char **) &g_ptr_array_index (table->cells, i);
      guint c = i % table->n_columns;
      gsize bytes;
      glong width;

      /* most cells show as they are: no copy */
      if (!tprof_text_shows_as_is (*cell))
        {
          char *escaped = tprof_cli_escape (*cell);

          g_free (*cell);
          *cell = escaped;
        }
      width = measure (*cell, &bytes);
      widths[c] = MAX (widths[c], width);
      /* its bytes beyond its columns (a character takes at most as many
       * columns as bytes) */
      total += bytes - (gsize) width;
    }

  /* at most: every column padded to its width, two blanks between
   * columns, a line break */
  for (guint c = 0; c < table->n_columns; c++)
    total += n_rows * ((gsize) widths[c] + 2);
  text = p = g_malloc (total + 1);
  for (guint r = 0; r < n_rows; r++)
    {
      char *line = p;

      for (guint c = 0; c < table->n_columns; c++)
        {
          const char *cell = g_ptr_array_index (table->cells, r * table->n_columns + c);
          gsize bytes;
          gsize pad = (gsize) (widths[c] - measure (cell, &bytes));

          if (c > 0)
            {
              memset (p, ' ', 2);
              p += 2;
            }
          if (!table->left_aligned[c])
            {
              memset (p, ' ', pad);
              p += pad;
            }
          memcpy (p, cell, bytes);
          p += bytes;
          if (table->left_aligned[c] && c + 1 < table->n_columns)
            {
              memset (p, ' ', pad);
              p += pad;
            }
        }
      /* an empty last cell leaves no trailing blanks */
      while (p > line && p[-1] == ' ')
        p--;
      *p++ = '\n';
    }
  *p = '\0';

  g_free (widths);
  g_ptr_array_unref (table->cells);
  g_free (table->left_aligned);
  g_free (table);
  return text;
}

char *
tprof_cli_cell_duration (double secs)
{
  return tprof_format_duration (secs, 3);
}

char *
tprof_cli_cell_ratio (double value)
{
  if (!isfinite (value))
    return g_strdup ("—");
  return tprof_format_fixed (value, 2);
}

/* @value's decimal digits, as %lld writes them, at the end of @buf;
 * where they start. */
static char *
int_digits (gint64 value,
            char   buf[24])
{
  char *p = buf + 24;
  guint64 magnitude = value < 0 ? 0 - (guint64) value : (guint64) value;

  *--p = '\0';
  do
    *--p = (char) ('0' + magnitude % 10);
  while ((magnitude /= 10) != 0);
  if (value < 0)
    *--p = '-';
  return p;
}

char *
tprof_cli_cell_int (gint64 value)
{
  char buf[24];

  return g_strdup (int_digits (value, buf));
}

/* ---- CSV ---- */

void
tprof_cli_csv_append_string (GString    *out,
                             const char *text)
{
  tprof_csv_append_text (out, text);
}

void
tprof_cli_csv_append_double (GString *out,
                             double   value)
{
  if (isfinite (value))
    tprof_append_exact_double (out, value);
}

/* ---- JSON ---- */

void
tprof_cli_json_append_string (GString    *out,
                              const char *text)
{
  char *valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      unsigned char c = (unsigned char) *p;

      /* what would act on a terminal showing the file, as \uXXXX */
      if (c >= 0x80 && tprof_unichar_is_hidden_control (g_utf8_get_char (p)))
        {
          g_string_append_printf (out, "\\u%04x", g_utf8_get_char (p));
          p = g_utf8_next_char (p) - 1;
          continue;
        }

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
          break;
        }
    }
  g_string_append_c (out, '"');
  g_free (valid);
}

void
tprof_cli_json_append_double (GString *out,
                              double   value)
{
  if (isfinite (value))
    tprof_append_exact_double (out, value);
  else
    g_string_append (out, "null");
}

void
tprof_cli_json_append_int (GString *out,
                           gint64   value)
{
  char buf[24];

  g_string_append (out, int_digits (value, buf));
}
