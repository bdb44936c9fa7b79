/* tprof-cli-common.c — option parsing, error lines and profile loading shared by the tprof commands. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

/* An error message is one line whatever names it quotes: the names come
 * from files and command lines, and may hold newlines or escapes. */
static char *
escaped_vprintf (const char *format,
                 va_list     args)
{
  char *raw = g_strdup_vprintf (format, args);
  char *escaped = tprof_cli_escape (raw);

  g_free (raw);
  return escaped;
}

int
tprof_cli_usage_error (const char *command,
                       const char *format,
                       ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = escaped_vprintf (format, args);
  va_end (args);
  if (command != NULL)
    /* TRANSLATORS: a usage error, then how to get help on the command */
    fprintf (stderr, _("tprof: %s; see \"tprof %s --help\"\n"), message, command);
  else
    fprintf (stderr, _("tprof: %s; see \"tprof --help\"\n"), message);
  g_free (message);
  return TPROF_CLI_EXIT_USAGE;
}

int
tprof_cli_file_error (const char *file,
                      const char *format,
                      ...)
{
  va_list args;
  char *message, *escaped_file;

  va_start (args, format);
  message = escaped_vprintf (format, args);
  va_end (args);
  escaped_file = tprof_cli_escape (file);
  fprintf (stderr, "tprof: %s: %s\n", escaped_file, message);
  g_free (escaped_file);
  g_free (message);
  return TPROF_CLI_EXIT_FAILED;
}

int
tprof_cli_no_timeline_error (const char *file)
{
  return tprof_cli_file_error (file, "%s", _("has no timeline (no 'starts', when each sample began): save "
                                             "it with this tprof's gather, over MPI or torch.distributed"));
}

GOptionContext *
tprof_cli_context_new (const char         *command,
                       const char         *parameters,
                       const char         *summary,
                       const char         *description,
                       const GOptionEntry *entries)
{
  GOptionContext *context = g_option_context_new (parameters);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  if (description != NULL)
    g_option_context_set_description (context, description);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  return context;
}

gboolean
tprof_cli_parse (GOptionContext     *context,
                 const char         *command,
                 int                *argc,
                 char             ***argv,
                 guint               n_files,
                 const char *const  *names,
                 const char        **files,
                 int                *status)
{
  GError *error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *status = tprof_cli_usage_error (command, "%s", error->message);
      g_error_free (error);
      return FALSE;
    }
  if ((guint) *argc < 1 + n_files)
    {
      *status = tprof_cli_usage_error (command, _("missing %s"), names[*argc - 1]);
      return FALSE;
    }
  if ((guint) *argc > 1 + n_files)
    {
      *status = tprof_cli_usage_error (command, _("unexpected argument \"%s\""), (*argv)[1 + n_files]);
      return FALSE;
    }
  for (guint i = 0; i < n_files; i++)
    files[i] = (*argv)[1 + i];
  return TRUE;
}

gboolean
tprof_cli_parse_format (const char     *command,
                        const char     *text,
                        TprofCliFormat *format,
                        int            *status)
{
  if (text == NULL || g_str_equal (text, "table"))
    *format = TPROF_CLI_FORMAT_TABLE;
  else if (g_str_equal (text, "csv"))
    *format = TPROF_CLI_FORMAT_CSV;
  else if (g_str_equal (text, "json"))
    *format = TPROF_CLI_FORMAT_JSON;
  else
    {
      *status = tprof_cli_usage_error (command, _("invalid --format \"%s\": expected table, csv or json"),
                                       text);
      return FALSE;
    }
  return TRUE;
}

int
tprof_cli_library_error (const char       *file,
                         const TprofError *error)
{
  const char *reason = error->message;

  /* libcapture names the file itself; the line already starts with it */
  if (g_str_has_prefix (reason, file) && g_str_has_prefix (reason + strlen (file), ": "))
    reason += strlen (file) + 2;
  if (*reason == '\0')
    reason = _("could not read the profile");
  return tprof_cli_file_error (file, "%s", reason);
}

int
tprof_cli_write_error (const char   *path,
                       const GError *error)
{
  /* the chart library's message names the file too: once is enough */
  g_autofree char *prefix = g_strdup_printf (_("could not write \"%s\": %s"), path, "");
  const char *reason = g_str_has_prefix (error->message, prefix) ? error->message + strlen (prefix)
                                                                 : error->message;

  return tprof_cli_file_error (path, "%s", reason);
}

TprofProfileFile *
tprof_cli_open (const char *file)
{
  TprofError error = { 0 };
  /* the file may come from anywhere: HDF5 parses it in a helper process,
   * so that damage it cannot survive is an error line, not a crash */
  TprofProfileFile *profile = tprof_profile_file_open_isolated (file, &error);

  if (profile == NULL)
    tprof_cli_library_error (file, &error);
  return profile;
}

TprofGatheredTime *
tprof_cli_read_operation (TprofProfileFile *profile,
                          size_t            op,
                          const GArray     *ranks)
{
  TprofError error = { 0 };
  TprofGatheredTime *gt;

  gt = tprof_profile_file_read_operation (profile, op,
                                          ranks != NULL ? (const int32_t *) ranks->data : NULL,
                                          ranks != NULL ? ranks->len : 0, NULL, NULL, NULL, &error);
  if (gt == NULL)
    tprof_cli_library_error (tprof_profile_file_path (profile), &error);
  return gt;
}

gboolean
tprof_cli_find_operation (const TprofProfileFile *profile,
                          const char             *name,
                          size_t                 *op)
{
  *op = tprof_profile_file_find_operation (profile, name);
  if (*op != (size_t) -1)
    return TRUE;
  tprof_cli_file_error (tprof_profile_file_path (profile), _("no operation named \"%s\""), name);
  return FALSE;
}

gboolean
tprof_cli_parse_ranks (const char       *command,
                       const char       *expr,
                       int               world_size,
                       TprofProfileFile *profile,
                       GArray          **ranks,
                       int              *status)
{
  GError *error = NULL;
  g_autofree const char **hosts = NULL;

  *ranks = NULL;
  if (expr == NULL)
    return TRUE;
  if (profile != NULL && tprof_profile_file_hostname (profile, 0) != NULL)
    {
      hosts = g_new0 (const char *, world_size + 1);
      for (int r = 0; r < world_size; r++)
        hosts[r] = tprof_profile_file_hostname (profile, r);
    }
  if (!tprof_rank_expr_parse_hosts (expr, world_size, hosts, ranks, &error))
    {
      *status = tprof_cli_usage_error (command, _("invalid --ranks: %s"), error->message);
      g_error_free (error);
      return FALSE;
    }
  return TRUE;
}
