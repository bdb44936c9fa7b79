/* tprof-demo-training.c — an MPI training-loop simulation profiled with tprof: rank 0 saves and summarises the profile. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "demo-options.h"
#include "demo-summary.h"
#include "demo-train.h"

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
  printf ("Look at it with: tprof-viewer %s   (or: tprof summary %s)\n", opts->output, opts->output);
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
