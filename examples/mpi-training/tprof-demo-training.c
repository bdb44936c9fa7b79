/* tprof-demo-training.c — an MPI training-loop simulation profiled with tprof: rank 0 saves and summarises the profile. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "demo-options.h"
#include "demo-summary.h"
#include "demo-train.h"

/* Room for a directory and a file name below it. */
#define DEMO_PATH_SIZE (PATH_MAX + 64)

/* A command the user can type to run @name: @name itself when it is on
 * PATH (installed), else its copy in the build tree this demo runs from
 * (@in_build_tree, relative to the build directory), shortened to a path
 * relative to the working directory where it lies below it. */
static void
demo_command (char *out, size_t size, const char *name, const char *in_build_tree)
{
  const char *path = getenv ("PATH");
  char exe[PATH_MAX], cwd[PATH_MAX], candidate[DEMO_PATH_SIZE];
  ssize_t len;

  for (const char *dir = path; dir != NULL && *dir != '\0';)
    {
      const char *end = strchr (dir, ':');
      int n = end != NULL ? (int) (end - dir) : (int) strlen (dir);

      snprintf (candidate, sizeof candidate, "%.*s/%s", n, dir, name);
      if (n > 0 && access (candidate, X_OK) == 0)
        {
          snprintf (out, size, "%s", name);
          return;
        }
      dir = end != NULL ? end + 1 : NULL;
    }
  /* the build tree: this program is BUILD/examples/mpi-training/ */
  len = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0)
    {
      char *slash;

      exe[len] = '\0';
      for (int up = 0; up < 3 && (slash = strrchr (exe, '/')) != NULL; up++)
        *slash = '\0';
      snprintf (candidate, sizeof candidate, "%s/%s", exe, in_build_tree);
      if (access (candidate, X_OK) == 0)
        {
          size_t n = getcwd (cwd, sizeof cwd) != NULL ? strlen (cwd) : 0;

          if (n > 0 && strncmp (candidate, cwd, n) == 0 && candidate[n] == '/')
            snprintf (out, size, "%s", candidate + n + 1);
          else
            snprintf (out, size, "%s", candidate);
          return;
        }
    }
  snprintf (out, size, "%s", name);
}

/* Rank 0 saves the gathered profile and prints where it went. */
static int
demo_save (const TprofProfiledTime *pt, const DemoOptions *opts)
{
  TprofError error;

  if (tprof_profiled_time_save (pt, opts->output, &error) < 0)
    {
      fprintf (stderr, "tprof-demo-training: %s\n", error.message);
      return 1;
    }
  printf ("tprof-demo-training: %d ranks, %ld iterations, ", tprof_profiled_time_world_size (pt),
          opts->iterations);
  if (opts->straggler >= 0)
    printf ("straggler rank %d (compute x%g)", opts->straggler, opts->straggler_factor);
  else
    printf ("no straggler");
  if (opts->compute == DEMO_COMPUTE_ACCELERATOR)
    printf (", compute on a simulated accelerator");
  printf ("; profile saved to %s\n", opts->output);
  if (opts->quiet)
    return 0;
  if (demo_summary_print (stdout, pt) < 0)
    {
      fprintf (stderr, "tprof-demo-training: out of memory while summarising\n");
      return 1;
    }
  {
    char viewer[DEMO_PATH_SIZE], cli[DEMO_PATH_SIZE];

    demo_command (viewer, sizeof viewer, "tprof-viewer", "viewer/app/tprof-viewer-uninstalled");
    demo_command (cli, sizeof cli, "tprof", "viewer/cli/tprof");
    printf ("Look at it with: %s %s   (or: %s summary %s)\n", viewer, opts->output, cli, opts->output);
  }
  return 0;
}

int
main (int argc, char **argv)
{
  DemoOptions opts;
  DemoOptionsResult parsed;
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error;
  int rank, size, status = 0;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);

  parsed = demo_options_parse (&opts, argc, argv, rank == 0);
  if (parsed == DEMO_OPTIONS_RUN)
    parsed = demo_options_check_world (&opts, size, rank == 0);
  if (parsed != DEMO_OPTIONS_RUN)
    {
      MPI_Finalize ();
      return parsed == DEMO_OPTIONS_HELP ? 0 : 2;
    }

  tm = tprof_time_manager_new ();
  if (tm == NULL)
    {
      fprintf (stderr, "tprof-demo-training: rank %d: out of memory\n", rank);
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
  demo_train_resolve_compute (&opts, MPI_COMM_WORLD);
  tprof_time_manager_enable (tm);
  if (demo_train_run (&opts, MPI_COMM_WORLD, tm) < 0)
    status = 1;
  tprof_time_manager_disable (tm);

  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, 0, &error);
  if (error.code != TPROF_ERROR_NONE)
    {
      if (rank == 0)
        fprintf (stderr, "tprof-demo-training: gathering the profile failed: %s\n", error.message);
      status = 1;
    }
  else if (pt != NULL && demo_save (pt, &opts) != 0)
    status = 1;

  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  MPI_Finalize ();
  return status;
}
