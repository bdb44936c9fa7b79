/* save-parallel-writer.c — records a varied profile on every rank, then saves it twice: gathered to rank 0 and saved, and saved in parallel (check-save-parallel.py compares the files). */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "tprof-save-parallel-private.h"

typedef struct
{
  TprofTimeManager *tm;
  unsigned          seed;
  size_t            n;
} Worker;

/* Durations spread over three decades, with ties (rounded to the
 * microsecond) so that quantiles meet equal values. */
static double
draw (unsigned *seed)
{
  double u = (double) rand_r (seed) / RAND_MAX;

  return (double) (long) (1e6 * 1e-4 * (1.0 + 999.0 * u * u * u)) / 1e6;
}

static void *
worker_run (void *data)
{
  Worker *w = data;

  for (size_t i = 0; i < w->n; i++)
    tprof_time_manager_append_time (w->tm, "worker", draw (&w->seed));
  return NULL;
}

static int
fail (const char *what, const TprofError *error, int rank)
{
  fprintf (stderr, "rank %d: %s: %s\n", rank, what, error->message);
  MPI_Abort (MPI_COMM_WORLD, 1);
  return 1;
}

int
main (int argc, char **argv)
{
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error;
  pthread_t thread;
  Worker worker;
  char gathered[4096], parallel[4096], name[64];
  unsigned seed;
  int rank, size;
  size_t n;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s OUTDIR SAMPLES [SORT-BUDGET [SAMPLE-LIMIT]]\n", argv[0]);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  n = (size_t) strtoull (argv[2], NULL, 10);
  if (argc > 3)
    _tprof_save_parallel_set_sort_budget ((size_t) strtoull (argv[3], NULL, 10));
  snprintf (gathered, sizeof gathered, "%s/gathered.h5", argv[1]);
  snprintf (parallel, sizeof parallel, "%s/parallel.h5", argv[1]);

  seed = 1234u + 77u * (unsigned) rank;
  tm = tprof_time_manager_new ();
  /* a bounded capture: some operations of some ranks sampled */
  if (argc > 4)
    tprof_time_manager_set_sample_limit (tm, (size_t) strtoull (argv[4], NULL, 10));
  /* every rank, in different orders; some ranks only; the last alone */
  for (size_t i = 0; i < n + 13 * (size_t) rank; i++)
    {
      if (rank % 2 == 0)
        tprof_time_manager_append_time (tm, "step", draw (&seed));
      tprof_time_manager_append_time (tm, "forward \xc3\xa9tat", draw (&seed));
      if (rank % 2 == 1)
        tprof_time_manager_append_time (tm, "step", draw (&seed));
      snprintf (name, sizeof name, "only-%s", rank % 2 == 0 ? "even" : "odd");
      tprof_time_manager_append_time (tm, name, draw (&seed));
    }
  if (rank == size - 1)
    tprof_time_manager_append_time (tm, "rare", 0.25);
  /* a second thread of the rank */
  worker = (Worker) { tm, seed + 1, n / 2 + 1 };
  pthread_create (&thread, NULL, worker_run, &worker);
  pthread_join (thread, NULL);
  tprof_time_manager_append_time (tm, "worker", draw (&seed));

  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, 0, &error);
  if (error.code != 0)
    return fail ("gather", &error, rank);
  if (rank == 0 && tprof_profiled_time_save (pt, gathered, &error) < 0)
    return fail ("save", &error, rank);
  tprof_profiled_time_free (pt);
  if (tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, parallel, &error) < 0)
    return fail ("save_parallel", &error, rank);
  tprof_time_manager_free (tm);
  MPI_Finalize ();
  return 0;
}
