/* simple.c — a single-process program instrumented with TPROF_SCOPE that saves and prints its profile. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tprof/capture.h>

#define N 96

static double a[N][N], b[N][N], c[N][N];

static void
load_batch (unsigned seed)
{
  TPROF_SCOPE ("data/load");
  srand (seed);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      {
        a[i][j] = rand () / (double) RAND_MAX;
        b[i][j] = rand () / (double) RAND_MAX;
      }
}

static double
multiply (void)
{
  TPROF_SCOPE ("compute/matmul");
  double trace = 0;

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      {
        double sum = 0;

        for (int k = 0; k < N; k++)
          sum += a[i][k] * b[k][j];
        c[i][j] = sum;
      }
  for (int i = 0; i < N; i++)
    trace += c[i][i];
  return trace;
}

static double
normalise (void)
{
  TPROF_SCOPE ("compute/normalise");
  double norm = 0;

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      norm += c[i][j] * c[i][j];
  return sqrt (norm);
}

static void
print_summary (const TprofProfiledTime *pt)
{
  printf ("%-20s %8s %12s %12s\n", "operation", "count", "mean (µs)", "max (µs)");
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, i);

      printf ("%-20s %8zu %12.1f %12.1f\n", tprof_profiled_time_name (pt, i),
              tprof_gathered_time_count (gt),
              tprof_gathered_time_mean (gt) * 1e6,
              tprof_gathered_time_max (gt) * 1e6);
    }
}

int
main (int argc, char *argv[])
{
  const char *path = argc > 1 ? argv[1] : "tprof-simple.h5";
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error;
  double checksum = 0;

  if (argc > 2 || (argc == 2 && (strcmp (argv[1], "--help") == 0 || argv[1][0] == '\0')))
    {
      fprintf (stderr, "usage: %s [OUTPUT.h5]\n", argv[0]);
      return 2;
    }

  tm = tprof_time_manager_new ();
  tprof_time_manager_enable (tm);
  for (unsigned step = 0; step < 50; step++)
    {
      TPROF_SCOPE ("step");
      load_batch (step);
      checksum += multiply ();
      checksum += normalise ();
    }
  tprof_time_manager_disable (tm);

  pt = tprof_time_manager_gather_local (tm);
  if (pt == NULL || tprof_profiled_time_save (pt, path, &error) != 0)
    {
      fprintf (stderr, "simple: %s\n", pt == NULL ? "out of memory" : error.message);
      tprof_profiled_time_free (pt);
      tprof_time_manager_free (tm);
      return 1;
    }
  print_summary (pt);
  printf ("profile written to %s (checksum %.3f)\n", path, checksum);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  return 0;
}
