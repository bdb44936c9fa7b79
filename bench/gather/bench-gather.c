/* bench-gather.c — tprof_time_manager_gather against a raw MPI_Gatherv of the same bytes, measured in the same run. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <tprof/capture-mpi.h>

#define DEFAULT_SAMPLES 2500000
#define DEFAULT_REPS    9
#define N_OPS           5

typedef double (*BenchFunc) (void *data);

typedef struct
{
  MPI_Comm  comm;
  int       rank;
  int       size;
  size_t    samples;      /* per rank */
  double   *local;        /* this rank's samples, for the raw gather */
  double   *warm;         /* rank 0: a receive buffer reused from run to run */
  int      *counts;
  int      *displs;
  TprofTimeManager *tm;
} Bench;

static int
bench_compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
bench_median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, bench_compare_doubles);
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Seconds rank 0 spends until it holds everything; every rank starts together. */
static double
bench_time (Bench *b, void (*run) (Bench *b))
{
  double start, elapsed;

  MPI_Barrier (b->comm);
  start = MPI_Wtime ();
  run (b);
  elapsed = MPI_Wtime () - start;
  MPI_Bcast (&elapsed, 1, MPI_DOUBLE, 0, b->comm);
  return elapsed;
}

static void
bench_raw_gatherv (Bench *b, double *recv)
{
  int rc = MPI_Gatherv (b->local, (int) b->samples, MPI_DOUBLE, recv, b->counts, b->displs,
                        MPI_DOUBLE, 0, b->comm);

  if (rc != MPI_SUCCESS)
    MPI_Abort (b->comm, 1);
}

/* What a hand-written gather would do: a fresh buffer for the result. */
static void
bench_run_raw_fresh (Bench *b)
{
  double *recv = NULL;

  if (b->rank == 0)
    {
      recv = malloc ((size_t) b->size * b->samples * sizeof *recv);
      if (recv == NULL)
        MPI_Abort (b->comm, 1);
    }
  bench_raw_gatherv (b, recv);
  free (recv);
}

/* The fastest possible: pages already mapped. */
static void
bench_run_raw_warm (Bench *b)
{
  bench_raw_gatherv (b, b->warm);
}

static void
bench_run_tprof (Bench *b)
{
  TprofError error;
  TprofProfiledTime *pt = tprof_time_manager_gather (b->tm, b->comm, 0, &error);

  if (error.code != TPROF_ERROR_NONE)
    {
      fprintf (stderr, "bench-gather: %s\n", error.message);
      MPI_Abort (b->comm, 1);
    }
  tprof_profiled_time_free (pt);
}

static int
bench_setup (Bench *b, size_t samples)
{
  static const char *const names[N_OPS] = { "forward", "backward", "allreduce", "optimizer", "data/load" };

  memset (b, 0, sizeof *b);
  b->comm = MPI_COMM_WORLD;
  MPI_Comm_rank (b->comm, &b->rank);
  MPI_Comm_size (b->comm, &b->size);
  b->samples = samples;
  b->local = malloc (samples * sizeof *b->local);
  b->counts = malloc ((size_t) b->size * sizeof *b->counts);
  b->displs = malloc ((size_t) b->size * sizeof *b->displs);
  b->tm = tprof_time_manager_new ();
  if (b->rank == 0)
    b->warm = malloc ((size_t) b->size * samples * sizeof *b->warm);
  if (b->local == NULL || b->counts == NULL || b->displs == NULL || b->tm == NULL
      || (b->rank == 0 && b->warm == NULL))
    return -1;
  for (int r = 0; r < b->size; r++)
    {
      b->counts[r] = (int) samples;
      b->displs[r] = r * (int) samples;
    }
  /* the same samples both ways, spread over a few operations */
  for (size_t i = 0; i < samples; i++)
    {
      b->local[i] = 1e-6 * (double) ((i * 2654435761u + (size_t) b->rank) % 100000);
      tprof_time_manager_append_time (b->tm, names[i % N_OPS], b->local[i]);
    }
  memset (b->warm, 0, b->rank == 0 ? (size_t) b->size * samples * sizeof *b->warm : 0);
  return 0;
}

static void
bench_free (Bench *b)
{
  free (b->local);
  free (b->warm);
  free (b->counts);
  free (b->displs);
  tprof_time_manager_free (b->tm);
}

int
main (int argc, char **argv)
{
  size_t samples = DEFAULT_SAMPLES;
  int reps = DEFAULT_REPS;
  double *t_fresh, *t_warm, *t_tprof;
  double fresh, warm, tprof, mbytes;
  Bench b;

  MPI_Init (&argc, &argv);
  if (argc > 1)
    samples = strtoul (argv[1], NULL, 10);
  if (argc > 2)
    reps = atoi (argv[2]);
  if (samples < N_OPS || samples > INT32_MAX / 64 || reps < 1 || reps > 1000)
    {
      fprintf (stderr, "usage: mpiexec -n RANKS bench-gather [SAMPLES-PER-RANK [REPETITIONS]]\n");
      MPI_Finalize ();
      return 2;
    }
  if (bench_setup (&b, samples) < 0)
    {
      fprintf (stderr, "bench-gather: out of memory\n");
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
  t_fresh = calloc ((size_t) reps, sizeof *t_fresh);
  t_warm = calloc ((size_t) reps, sizeof *t_warm);
  t_tprof = calloc ((size_t) reps, sizeof *t_tprof);
  if (t_fresh == NULL || t_warm == NULL || t_tprof == NULL)
    MPI_Abort (MPI_COMM_WORLD, 1);

  /* one untimed round of each, then interleaved repetitions so that the
   * machine's drift hits all three alike */
  bench_time (&b, bench_run_raw_fresh);
  bench_time (&b, bench_run_raw_warm);
  bench_time (&b, bench_run_tprof);
  for (int i = 0; i < reps; i++)
    {
      t_fresh[i] = bench_time (&b, bench_run_raw_fresh);
      t_warm[i] = bench_time (&b, bench_run_raw_warm);
      t_tprof[i] = bench_time (&b, bench_run_tprof);
    }
  fresh = bench_median (t_fresh, reps);
  warm = bench_median (t_warm, reps);
  tprof = bench_median (t_tprof, reps);

  if (b.rank == 0)
    {
      mbytes = (double) b.size * (double) samples * sizeof (double) / 1e6;
      printf ("bench-gather: %d ranks x %zu samples (%d operations), %.1f MB to rank 0, median of %d\n",
              b.size, samples, N_OPS, mbytes, reps);
      printf ("  raw MPI_Gatherv, fresh buffer   %9.2f ms  %7.0f MB/s\n", fresh * 1e3, mbytes / fresh);
      printf ("  raw MPI_Gatherv, reused buffer  %9.2f ms  %7.0f MB/s\n", warm * 1e3, mbytes / warm);
      printf ("  tprof_time_manager_gather       %9.2f ms  %7.0f MB/s\n", tprof * 1e3, mbytes / tprof);
      printf ("  ratio tprof / raw (fresh buffer)   %.2fx   (target <= 2x)\n", tprof / fresh);
      printf ("  ratio tprof / raw (reused buffer)  %.2fx\n", tprof / warm);
    }
  free (t_fresh);
  free (t_warm);
  free (t_tprof);
  bench_free (&b);
  MPI_Finalize ();
  return 0;
}
