/* tprof-cli-convert.c — `tprof convert`: a copy of any readable profile, written in the format this library writes. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tprof-cli.h"

/* Whether @in and @out name the same file: the same string, or, where
 * @out exists, the same inode (a symbolic or hard link to @in), which
 * the save would replace. */
static gboolean
same_file (const char *in,
           const char *out)
{
  GStatBuf in_stat, out_stat;

  if (g_str_equal (in, out))
    return TRUE;
  return g_stat (in, &in_stat) == 0 && g_stat (out, &out_stat) == 0
         && in_stat.st_dev == out_stat.st_dev && in_stat.st_ino == out_stat.st_ino;
}

static int
run (const char *in,
     const char *out)
{
  TprofError error = { 0 };
  /* every operation with its samples' ranks, starts, threads and what
   * sampled capture recorded, the host names, the timeline, a merged
   * profile's data_until and the root attributes created, producer and
   * clock, which the save keeps; read
   * through the isolated reader (the file may come from anywhere) */
  TprofProfiledTime *pt = tprof_profiled_time_load_isolated (in, &error);
  int status = TPROF_CLI_EXIT_OK;

  if (pt == NULL)
    return tprof_cli_library_error (in, &error);
  if (tprof_profiled_time_save (pt, out, &error) != 0)
    status = tprof_cli_library_error (out, &error);
  tprof_profiled_time_free (pt);
  return status;
}

int
tprof_cli_convert (int    argc,
                   char **argv)
{
  const GOptionEntry entries[] = {
    { NULL }
  };
  GOptionContext *context;
  const char *files[2] = { NULL, NULL };
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("convert", _("IN OUT"),
                                   _("Writes a copy of the profile IN, of any version this program reads, "
                                     "to OUT in the format this version of tprof writes."),
                                   _("Every operation keeps its samples, ranks, starts and threads, what "
                                     "each rank recorded under a sample limit, the host names, the "
                                     "timeline's clock offsets and origin, until when each rank has data "
                                     "(a profile merged from spill files), and the root attributes created, "
                                     "producer and clock of IN. OUT is written through "
                                     "a temporary file and replaced only when complete; it may not be IN "
                                     "itself (or a link to it). The whole profile is held in memory."),
                                   entries);
  if (tprof_cli_parse (context, "convert", &argc, &argv, 2, (const char *[]) { "IN", "OUT" }, files, &status))
    {
      if (same_file (files[0], files[1]))
        status = tprof_cli_usage_error ("convert", _("OUT \"%s\" is the input file itself"), files[1]);
      else
        status = run (files[0], files[1]);
    }
  g_option_context_free (context);
  return status;
}
