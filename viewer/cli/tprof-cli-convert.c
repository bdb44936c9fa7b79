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

static double *
copy_doubles (const double *values,
              int           n)
{
  double *copy;

  if (values == NULL || (copy = malloc ((size_t) n * sizeof *copy)) == NULL)
    return NULL;
  memcpy (copy, values, (size_t) n * sizeof *copy);
  return copy;
}

/* Copies what @profile says of its ranks and timeline into @pt. */
static gboolean
copy_metadata (TprofProfileFile  *profile,
               TprofProfiledTime *pt,
               TprofError        *error)
{
  int world_size = tprof_profile_file_world_size (profile);
  const char *origin = tprof_profile_file_timeline_origin (profile);

  if (tprof_profile_file_hostname (profile, 0) != NULL)
    {
      g_autofree const char **hosts = g_new0 (const char *, world_size + 1);

      for (int r = 0; r < world_size; r++)
        hosts[r] = tprof_profile_file_hostname (profile, r);
      if (tprof_profiled_time_set_hostnames (pt, hosts, error) != 0)
        return FALSE;
    }
  tprof_profiled_time_set_timeline_take (pt, copy_doubles (tprof_profile_file_clock_offsets (profile), world_size),
                                         copy_doubles (tprof_profile_file_clock_offset_errors (profile), world_size),
                                         origin != NULL ? strdup (origin) : NULL);
  return TRUE;
}

/* Every operation of @profile, with its samples' ranks, starts, threads
 * and what sampled capture recorded, in file order; NULL after printing
 * why. */
static TprofProfiledTime *
read_all (TprofProfileFile *profile)
{
  const char *in = tprof_profile_file_path (profile);
  TprofProfiledTime *pt = tprof_profiled_time_new (tprof_profile_file_world_size (profile));
  TprofError error = { 0 };

  if (pt == NULL)
    {
      tprof_cli_file_error (in, _("out of memory"));
      return NULL;
    }
  for (size_t op = 0; op < tprof_profile_file_n_operations (profile); op++)
    {
      TprofGatheredTime *gt = tprof_cli_read_operation (profile, op, NULL);

      if (gt == NULL)
        goto failed;
      if (tprof_profiled_time_add (pt, tprof_profile_file_operation_name (profile, op), gt, &error) != 0)
        {
          tprof_cli_library_error (in, &error);
          goto failed;
        }
    }
  if (copy_metadata (profile, pt, &error))
    return pt;
  tprof_cli_library_error (in, &error);
failed:
  tprof_profiled_time_free (pt);
  return NULL;
}

static int
run (const char *in,
     const char *out)
{
  TprofProfileFile *profile = tprof_cli_open (in);
  TprofProfiledTime *pt;
  TprofError error = { 0 };
  int status = TPROF_CLI_EXIT_OK;

  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  pt = read_all (profile);
  tprof_profile_file_close (profile);
  if (pt == NULL)
    return TPROF_CLI_EXIT_FAILED;
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
                                     "each rank recorded under a sample limit, the host names and the "
                                     "timeline's clock offsets and origin. The root attributes created, "
                                     "producer and clock are those of the new file. OUT is written through "
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
