/* bench-compare.c — comparing 10^7 against 10^7 samples of one operation, against sorting the 2·10^7 values once, in the same run. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tprof/capture.h>

#define N 10000000
#define N_RUNS 3

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* The baseline: an LSD radix sort of the values' bits, 16 bits a pass
 * (non-negative doubles order like their bits), written here so that the
 * ratio does not depend on the engine's own sort. */
static void
radix_sort (double *values, size_t n, double *scratch)
{
  uint64_t *keys = (uint64_t *) values, *tmp = (uint64_t *) scratch;
  static size_t counts[1 << 16];

  for (int shift = 0; shift < 64; shift += 16)
    {
      size_t sum = 0;

      memset (counts, 0, sizeof counts);
      for (size_t i = 0; i < n; i++)
        counts[(keys[i] >> shift) & 0xffff]++;
      for (size_t b = 0; b < (1 << 16); b++)
        {
          size_t c = counts[b];

          counts[b] = sum;
          sum += c;
        }
      for (size_t i = 0; i < n; i++)
        tmp[counts[(keys[i] >> shift) & 0xffff]++] = keys[i];
      memcpy (keys, tmp, n * sizeof *keys);
    }
}

static double
median3 (double *x)
{
  double a = x[0], b = x[1], c = x[2];

  return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

int
main (void)
{
  double *base = malloc (N * sizeof *base), *new_samples = malloc (N * sizeof *new_samples);
  double sort_s[N_RUNS], compare_s[N_RUNS];
  unsigned seed = 12345;
  TprofComparison c;

  if (base == NULL || new_samples == NULL)
    return 1;
  for (size_t i = 0; i < N; i++)
    {
      seed = seed * 1103515245u + 12345u;
      base[i] = 1e-3 * (1.0 + (seed >> 8) / 16777216.0);
      seed = seed * 1103515245u + 12345u;
      new_samples[i] = 1.05e-3 * (1.0 + (seed >> 8) / 16777216.0);
    }
  for (int run = 0; run < N_RUNS; run++)
    {
      double t0 = now_s ();
      /* a sorted copy of all the values, as numpy.sort makes it */
      double *all = malloc (2 * (size_t) N * sizeof *all), *scratch = malloc (2 * (size_t) N * sizeof *scratch);

      if (all == NULL || scratch == NULL)
        return 1;
      memcpy (all, base, N * sizeof *all);
      memcpy (all + N, new_samples, N * sizeof *all);
      radix_sort (all, 2 * (size_t) N, scratch);
      free (all);
      free (scratch);
      sort_s[run] = now_s () - t0;

      t0 = now_s ();
      if (!tprof_compare_samples (base, N, new_samples, N, &c))
        return 1;
      compare_s[run] = now_s () - t0;
    }
  printf ("bench-compare: %d against %d samples (verdict %s, ratio %.3f)\n", N, N,
          tprof_verdict_name (c.verdict), c.ratio);
  printf ("  a sorted copy of the %d values: %.3f s; compare: %.3f s (medians of %d) = %.2fx the sort (target <= 3x)\n",
          2 * N, median3 (sort_s), median3 (compare_s), N_RUNS, median3 (compare_s) / median3 (sort_s));
  free (base);
  free (new_samples);
  return 0;
}
