/* bench-save-parallel.c — tprof_time_manager_save_parallel against gather + save of the same records: time in the same run, and every rank's peak memory in runs of their own. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "bench-rss.h"

#define N_OPS 10
#define REPS  5

typedef struct
{
  int               rank;
  int               size;
  const char       *dir;
  TprofTimeManager *tm;
} Bench;

static void
bench_fail (const Bench *b, const char *what, const TprofError *error)
{
  fprintf (stderr, "rank %d: %s: %s\n", b->rank, what, error->message);
  MPI_Abort (MPI_COMM_WORLD, 1);
}

static void
bench_gather_save (Bench *b)
{
  char path[4096];
  TprofError error;
  TprofProfiledTime *pt = tprof_time_manager_gather (b->tm, MPI_COMM_WORLD, 0, &error);

  if (error.code != 0)
    bench_fail (b, "gather", &error);
  snprintf (path, sizeof path, "%s/gathered.h5", b->dir);
  if (b->rank == 0 && tprof_profiled_time_save (pt, path, &error) < 0)
    bench_fail (b, "save", &error);
  tprof_profiled_time_free (pt);
}

static void
bench_parallel (Bench *b)
{
  char path[4096];
  TprofError error;

  snprintf (path, sizeof path, "%s/parallel.h5", b->dir);
  if (tprof_time_manager_save_parallel (b->tm, MPI_COMM_WORLD, path, &error) < 0)
    bench_fail (b, "save_parallel", &error);
}

/* Seconds until every rank is done (the save is done when the last is). */
static double
bench_time (Bench *b, void (*run) (Bench *b))
{
  double start, mine, all;

  MPI_Barrier (MPI_COMM_WORLD);
  start = MPI_Wtime ();
  run (b);
  mine = MPI_Wtime () - start;
  MPI_Allreduce (&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

static int
bench_compare (const void *x, const void *y)
{
  double a = *(const double *) x, c = *(const double *) y;

  return (a > c) - (a < c);
}

/* Every rank's peak RSS after @run, in MB, printed by rank 0. */
static void
bench_peaks (Bench *b, const char *label, void (*run) (Bench *b), double own_mb)
{
  double before = (double) bench_status_bytes ("VmHWM") / 1e6, peak, *all = NULL;

  run (b);
  peak = (double) bench_status_bytes ("VmHWM") / 1e6;
  if (b->rank == 0)
    all = malloc ((size_t) b->size * sizeof *all);
  MPI_Gather (&peak, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (b->rank == 0)
    {
      printf ("%s: peak RSS per rank (MB):", label);
      for (int r = 0; r < b->size; r++)
        printf (" %.0f", all[r]);
      printf ("\n%s: rank 0 peak %.0f MB (%.0f before saving) for %.0f MB of its own samples; "
              "target <= 1.3 x %.0f + 50 = %.0f MB: %s\n", label, all[0], before, own_mb, own_mb,
              1.3 * own_mb + 50, all[0] <= 1.3 * own_mb + 50 ? "met" : "NOT met");
    }
  free (all);
}

int
main (int argc, char **argv)
{
  Bench b = { 0 };
  const char *mode = argc > 2 ? argv[2] : "time";
  size_t samples = argc > 3 ? (size_t) strtoull (argv[3], NULL, 10) : 2500000;
  /* what the time manager holds of a sample: its duration and its start */
  double own_mb = (double) samples * 2 * sizeof (double) / 1e6;
  unsigned seed;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &b.rank);
  MPI_Comm_size (MPI_COMM_WORLD, &b.size);
  if (argc < 2)
    {
      if (b.rank == 0)
        fprintf (stderr, "usage: %s DIR [time|rss-gather|rss-parallel] [SAMPLES-PER-RANK]\n", argv[0]);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  b.dir = argv[1];
  seed = 7u + (unsigned) b.rank;
  b.tm = tprof_time_manager_new ();
  for (size_t i = 0; i < samples; i++)
    {
      char name[16];

      snprintf (name, sizeof name, "op%02zu", i % N_OPS);
      tprof_time_manager_append_time (b.tm, name, 1e-4 * (1.0 + (double) rand_r (&seed) / RAND_MAX));
    }

  if (strcmp (mode, "time") == 0)
    {
      double gather[REPS], parallel[REPS];

      /* alternated, so that both meet the same noise */
      for (int i = 0; i < REPS; i++)
        {
          gather[i] = bench_time (&b, bench_gather_save);
          parallel[i] = bench_time (&b, bench_parallel);
        }
      qsort (gather, REPS, sizeof (double), bench_compare);
      qsort (parallel, REPS, sizeof (double), bench_compare);
      if (b.rank == 0)
        {
          printf ("%d ranks x %zu samples, %d operations, %d runs each\n", b.size, samples, N_OPS, REPS);
          printf ("gather + save:  min %.3f  median %.3f  max %.3f s\n", gather[0], gather[REPS / 2],
                  gather[REPS - 1]);
          printf ("save_parallel:  min %.3f  median %.3f  max %.3f s\n", parallel[0], parallel[REPS / 2],
                  parallel[REPS - 1]);
          printf ("ratio parallel / gather + save (medians): %.2f (target <= 1)\n",
                  parallel[REPS / 2] / gather[REPS / 2]);
        }
    }
  else if (strcmp (mode, "rss-gather") == 0)
    bench_peaks (&b, "gather + save", bench_gather_save, own_mb);
  else
    bench_peaks (&b, "save_parallel", bench_parallel, own_mb);
  tprof_time_manager_free (b.tm);
  MPI_Finalize ();
  return 0;
}
