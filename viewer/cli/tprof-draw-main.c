/* tprof-draw-main.c — tprof-draw, the helper that runs `tprof hist` and `tprof plot`: the commands that draw with cairo and pango. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
} DrawCommand;

static const DrawCommand commands[] = {
  { "hist", tprof_cli_hist },
  { "plot", tprof_cli_plot },
};

/* `tprof-draw COMMAND [ARGUMENT…]`, as tprof_cli_draw() runs it. */
int
main (int    argc,
      char **argv)
{
  tprof_cli_init (FALSE);
  for (guint i = 0; argc >= 2 && i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      return tprof_cli_run (commands[i].name, commands[i].run, argc - 1, argv + 1);
  return tprof_cli_usage_error (NULL, _("unknown command \"%s\""), argc >= 2 ? argv[1] : "");
}
