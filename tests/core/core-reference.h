/* core-reference.h — the plain-C tests' known data and their statistics, computed here independently of libtprof-capture. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The "step" operation of the test profile: CORE_STEP_COUNT samples spread
 * over 4 ranks, rank 3 twice as slow. Every value is a multiple of 1/64, so
 * any summation order gives the same, exact sum. check-core-file.py
 * generates the same numbers. */
#define CORE_WORLD_SIZE 4
#define CORE_STEP_COUNT 1000

static inline int32_t
core_step_rank (size_t i)
{
  return (int32_t) (i % CORE_WORLD_SIZE);
}

static inline double
core_step_time (size_t i)
{
  double t = (double) ((i * 37) % 101 + 1) / 64.0;

  return core_step_rank (i) == 3 ? 2.0 * t : t;
}

static int
core_compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Sorted copy of @values; the caller frees it. */
static inline double *
core_sorted_copy (const double *values, size_t n)
{
  double *sorted = malloc (n * sizeof *sorted);

  if (sorted == NULL)
    abort ();
  memcpy (sorted, values, n * sizeof *sorted);
  qsort (sorted, n, sizeof *sorted, core_compare_doubles);
  return sorted;
}

/* numpy's default ('linear') quantile of @sorted. */
static inline double
core_quantile (const double *sorted, size_t n, double q)
{
  double h = (double) (n - 1) * q;
  size_t lo = (size_t) floor (h);

  if (lo + 1 >= n)
    return sorted[n - 1];
  return sorted[lo] + (h - (double) lo) * (sorted[lo + 1] - sorted[lo]);
}

static inline double
core_sum (const double *values, size_t n)
{
  double sum = 0.0;

  for (size_t i = 0; i < n; i++)
    sum += values[i];
  return sum;
}

/* Sample standard deviation (divisor n - 1), two passes. */
static inline double
core_std (const double *values, size_t n)
{
  double mean = core_sum (values, n) / (double) n, squares = 0.0;

  for (size_t i = 0; i < n; i++)
    squares += (values[i] - mean) * (values[i] - mean);
  return sqrt (squares / (double) (n - 1));
}
