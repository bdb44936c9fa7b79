/* tprof-cli-main.c — the `tprof` command line: locale set-up and dispatch to the commands. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);  /* NULL: it draws, tprof-draw runs it */
  const char *summary;
  gboolean    writes_hdf5;  /* HDF5 must then flush at exit */
} Command;

static const Command commands[] = {
  { "summary", tprof_cli_summary, N_("statistics of every operation (table, csv or json)") },
  { "hist", NULL, N_("histogram of one operation as PNG, SVG, PDF or CSV") },
  { "ranks", tprof_cli_ranks, N_("one operation rank by rank, outlier ranks flagged") },
  { "plot", NULL, N_("one operation as a heat map, a trend or a per-rank breakdown (--kind)") },
  { "compare", tprof_cli_compare, N_("two runs compared: what changed, and is it real") },
  { "stragglers", tprof_cli_stragglers, N_("the ranks that kept the others waiting, named from arrival") },
  { "trace", tprof_cli_trace, N_("every sample on the timeline, for Perfetto (Chrome trace JSON)") },
  { "convert", tprof_cli_convert, N_("a copy of any readable profile in the current file format"), TRUE },
  { "hang", tprof_cli_hang, N_("a stopped job's spill files: who never entered the collective the others wait in") },
  { "merge", tprof_cli_merge, N_("one profile from the spill files of a killed, hung or running job"), TRUE },
  { "top", tprof_cli_top, N_("a running job live from its spill files: operations, straggler, progress") },
};

static void
print_help (void)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s\n  tprof %s\n  tprof --version | --help\n\n%s\n",
                          _("Usage:"), _("COMMAND FILE [OPTION…]"), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (out, "  %-9s %s\n", commands[i].name, _(commands[i].summary));
  g_string_append_printf (out, "  %-9s %s\n\n%s\n", "help", _("this text, or a command's help"),
                          _("Reads profiles written by libtprof-capture (HDF5). "
                            "Run \"tprof COMMAND --help\" for the options of a command."));
  tprof_cli_print (out->str);
  g_string_free (out, TRUE);
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (commands[i].name, name))
      return &commands[i];
  return NULL;
}

static int
run_command (const Command *command,
             int            argc,
             char         **argv)
{
  if (command->run == NULL)
    return tprof_cli_draw (command->name, argc, argv);
  return tprof_cli_run (command->name, command->run, argc, argv);
}

/* `tprof help [COMMAND]` */
static int
run_help (int    argc,
          char **argv)
{
  const Command *command;
  char *help_argv[] = { argv[1], (char *) "--help", NULL };

  if (argc < 3)
    {
      print_help ();
      return TPROF_CLI_EXIT_OK;
    }
  command = find_command (argv[2]);
  if (command == NULL)
    return tprof_cli_usage_error (NULL, _("unknown command \"%s\""), argv[2]);
  help_argv[0] = argv[2];
  return run_command (command, 2, help_argv);
}

int
main (int    argc,
      char **argv)
{
  const Command *command;

  command = argc >= 2 ? find_command (argv[1]) : NULL;
  tprof_cli_init (command != NULL && command->writes_hdf5);

  if (argc < 2)
    return tprof_cli_usage_error (NULL, _("missing COMMAND"));
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "-?"))
    {
      print_help ();
      return TPROF_CLI_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--version") || g_str_equal (argv[1], "-V"))
    return tprof_cli_print ("tprof " PACKAGE_VERSION "\n");
  if (g_str_equal (argv[1], "help"))
    return run_help (argc, argv);

  if (command == NULL)
    {
      if (argv[1][0] == '-')
        return tprof_cli_usage_error (NULL, _("unknown option %s"), argv[1]);
      return tprof_cli_usage_error (NULL, _("unknown command \"%s\""), argv[1]);
    }
  return run_command (command, argc - 1, argv + 1);
}
