/* tprof-rank-expr.c — rank expressions such as "0-3,8,12-15": parsing with precise errors, and formatting. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-text-private.h"

G_DEFINE_QUARK (tprof-rank-expr-error-quark, tprof_rank_expr_error)

/* Parses a whole item part as a non-negative decimal integer, spaces
 * around it aside, and stores in *@written the digits as the user wrote
 * them (malloc'd), for messages. Anything else (a sign, spaces inside,
 * letters) is refused; huge values saturate so that they are reported as
 * out of range rather than as garbage. */
static gboolean
parse_rank (const char  *text,
            gsize        length,
            gint64      *rank,
            char       **written)
{
  gint64 v = 0;

  /* "0 - 3" reads as "0-3" */
  while (length > 0 && g_ascii_isspace (text[0]))
    text++, length--;
  while (length > 0 && g_ascii_isspace (text[length - 1]))
    length--;
  if (length == 0)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isdigit (text[i]))
        return FALSE;
      v = MIN (v * 10 + (text[i] - '0'), (gint64) G_MAXINT32 + 1);
    }
  *rank = v;
  *written = g_strndup (text, length);
  return TRUE;
}

static gboolean
is_blank (const char *text)
{
  while (g_ascii_isspace (*text))
    text++;
  return *text == '\0';
}

/* Refuses @rank past the world, quoting it as @written. */
static gboolean
check_in_range (gint64      rank,
                const char *written,
                int         world_size,
                GError    **error)
{
  if (rank < world_size)
    return TRUE;
  if (world_size == 1)
    g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_RANGE,
                 _("rank %s is out of range: the profile has 1 rank (0)"), written);
  else
    g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_RANGE,
                 _("rank %s is out of range: the profile has %d ranks (0-%d)"),
                 written, world_size, world_size - 1);
  return FALSE;
}

/* The ranks on host @item, when @item names one of @hostnames (and is not
 * itself made of digits and dashes, which are ranks). */
static gboolean
parse_host (const char        *item,
            int                world_size,
            const char *const *hostnames,
            GArray            *ranks)
{
  gboolean found = FALSE;

  if (hostnames == NULL || strspn (item, "0123456789- ") == strlen (item))
    return FALSE;
  for (int r = 0; r < world_size; r++)
    if (hostnames[r] != NULL && g_str_equal (hostnames[r], item))
      {
        gint32 rank = r;

        g_array_append_val (ranks, rank);
        found = TRUE;
      }
  return found;
}

static gboolean
parse_item (const char  *item,
            int          world_size,
            GArray      *ranks,
            GError     **error)
{
  const char *dash = strchr (item, '-');
  g_autofree char *first_text = NULL;
  g_autofree char *last_text = NULL;
  gint64 first, last;

  if (dash == NULL || dash == item)
    {
      if (!parse_rank (item, strlen (item), &first, &first_text))
        {
          g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_SYNTAX,
                       _("invalid rank \"%s\": ranks are whole numbers from 0, e.g. 0-3,8"), item);
          return FALSE;
        }
      last = first;
      last_text = g_strdup (first_text);
    }
  else if (is_blank (dash + 1) && world_size > 0
           && parse_rank (item, (gsize) (dash - item), &first, &first_text))
    {
      /* "512-": from 512 to the last rank */
      last = world_size - 1;
      last_text = g_strdup_printf ("%d", world_size - 1);
      if (first > last)
        return check_in_range (first, first_text, world_size, error);
    }
  else if (!parse_rank (item, (gsize) (dash - item), &first, &first_text)
           || !parse_rank (dash + 1, strlen (dash + 1), &last, &last_text))
    {
      g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_SYNTAX,
                   _("invalid rank range \"%s\": expected FIRST-LAST or FIRST- (to the last rank), e.g. 0-3"), item);
      return FALSE;
    }
  else if (first > last)
    {
      g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_SYNTAX,
                   _("invalid rank range \"%s\": start is greater than end"), item);
      return FALSE;
    }

  if (!check_in_range (first, first_text, world_size, error)
      || !check_in_range (last, last_text, world_size, error))
    return FALSE;
  for (gint64 r = first; r <= last; r++)
    {
      gint32 rank = (gint32) r;

      g_array_append_val (ranks, rank);
    }
  return TRUE;
}

static gint
compare_ranks (gconstpointer a,
               gconstpointer b)
{
  gint32 ra = *(const gint32 *) a;
  gint32 rb = *(const gint32 *) b;

  return (ra > rb) - (ra < rb);
}

static void
sort_unique (GArray *ranks)
{
  guint kept = 0;

  g_array_sort (ranks, compare_ranks);
  for (guint i = 0; i < ranks->len; i++)
    if (kept == 0 || g_array_index (ranks, gint32, i) != g_array_index (ranks, gint32, kept - 1))
      g_array_index (ranks, gint32, kept++) = g_array_index (ranks, gint32, i);
  g_array_set_size (ranks, kept);
}

gboolean
tprof_rank_expr_parse (const char  *expr,
                       int          world_size,
                       GArray     **ranks_out,
                       GError     **error)
{
  return tprof_rank_expr_parse_hosts (expr, world_size, NULL, ranks_out, error);
}

gboolean
tprof_rank_expr_parse_hosts (const char        *expr,
                             int                world_size,
                             const char *const *hostnames,
                             GArray           **ranks_out,
                             GError           **error)
{
  GArray *ranks;
  char **items;
  gboolean ok = TRUE;

  g_return_val_if_fail (expr != NULL, FALSE);
  g_return_val_if_fail (ranks_out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *ranks_out = NULL;
  if (world_size < 1)
    {
      g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_RANGE,
                   _("the profile has no ranks"));
      return FALSE;
    }

  ranks = g_array_new (FALSE, FALSE, sizeof (gint32));
  /* g_strsplit() gives no item at all for "" */
  items = *expr != '\0' ? g_strsplit (expr, ",", -1) : g_strsplit (" ", ",", -1);
  for (guint i = 0; ok && items[i] != NULL; i++)
    {
      char *item = g_strstrip (items[i]);

      if (*item == '\0')
        {
          if (items[1] == NULL)
            g_set_error_literal (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_SYNTAX,
                                 _("empty rank expression: expected ranks such as 0-3,8"));
          else
            g_set_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_SYNTAX,
                         _("empty item in rank expression \"%s\""), expr);
          ok = FALSE;
        }
      else if (!parse_host (item, world_size, hostnames, ranks))
        ok = parse_item (item, world_size, ranks, error);
    }
  g_strfreev (items);

  if (!ok)
    {
      g_array_unref (ranks);
      return FALSE;
    }
  sort_unique (ranks);
  *ranks_out = ranks;
  return TRUE;
}

char *
tprof_rank_expr_format (const gint32 *ranks,
                        gsize         n_ranks)
{
  GString *out = g_string_new (NULL);
  gsize i = 0;

  while (i < n_ranks)
    {
      gsize j = i;

      while (j + 1 < n_ranks && ranks[j + 1] == ranks[j] + 1)
        j++;
      if (out->len > 0)
        g_string_append_c (out, ',');
      /* "3,4" is as short as "3-4" and reads more plainly */
      if (j - i >= 2)
        g_string_append_printf (out, "%d-%d", ranks[i], ranks[j]);
      else if (j == i + 1)
        g_string_append_printf (out, "%d,%d", ranks[i], ranks[j]);
      else
        g_string_append_printf (out, "%d", ranks[i]);
      i = j + 1;
    }
  return g_string_free (out, FALSE);
}
