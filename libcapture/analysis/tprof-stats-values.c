/* tprof-stats-values.c — statistics of a plain array of times as numpy computes them: sum, std, min and max. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-stats-lanes-private.h"
#include "tprof-stats-parts-internal.h"

/* numpy's block size: up to it, eight interleaved sums; above it, halves. */
#define PAIRWISE_BLOCK 128

/* What a leaf adds up: the values, or their squared deviations from
 * @mean as numpy's std squares them. */
static inline __attribute__ ((always_inline)) double
leaf_term (double x,
           double mean,
           bool   square)
{
  return square ? (x - mean) * (x - mean) : x;
}

static inline __attribute__ ((always_inline)) Lanes
leaf_terms (const double *x,
            Lanes          mean,
            bool          square)
{
  Lanes v = lanes_load (x);

  return square ? (v - mean) * (v - mean) : v;
}

/* numpy's leaf: eight interleaved sums over a block of at most
 * PAIRWISE_BLOCK values, as four two-lane vectors. Inlined with a constant
 * @square. */
static inline __attribute__ ((always_inline)) double
pairwise_leaf (const double *x,
               size_t        n,
               double        mean,
               bool          square)
{
  Lanes m = { mean, mean };
  Lanes r01, r23, r45, r67;
  double result;
  size_t i;

  if (n < 8)
    {
      result = 0.0;
      for (i = 0; i < n; i++)
        result += leaf_term (x[i], mean, square);
      return result;
    }

  r01 = leaf_terms (x, m, square);
  r23 = leaf_terms (x + 2, m, square);
  r45 = leaf_terms (x + 4, m, square);
  r67 = leaf_terms (x + 6, m, square);
  for (i = 8; i < n - n % 8; i += 8)
    {
      r01 += leaf_terms (x + i, m, square);
      r23 += leaf_terms (x + i + 2, m, square);
      r45 += leaf_terms (x + i + 4, m, square);
      r67 += leaf_terms (x + i + 6, m, square);
    }

  result = ((r01[0] + r01[1]) + (r23[0] + r23[1])) + ((r45[0] + r45[1]) + (r67[0] + r67[1]));
  for (; i < n; i++)
    result += leaf_term (x[i], mean, square);
  return result;
}

static inline double
pairwise_block (const double *x,
                size_t        n)
{
  return pairwise_leaf (x, n, 0.0, false);
}

static inline double
pairwise_block_squares (const double *x,
                        size_t        n,
                        double        mean)
{
  return pairwise_leaf (x, n, mean, true);
}

/* numpy's split point: half, rounded down to a multiple of the 8 lanes
 * (tprof-stats-parallel.c splits chunks at the same points). */
static inline size_t
pairwise_split (size_t n)
{
  size_t half = n / 2;

  return half - half % 8;
}

/* Laneswise sums, as numpy sums within a buffer: rounding error grows
 * with log n rather than n. */
static double
pairwise_sum (const double *x,
              size_t        n)
{
  size_t half;

  if (n <= PAIRWISE_BLOCK)
    return pairwise_block (x, n);

  half = pairwise_split (n);
  return pairwise_sum (x, half) + pairwise_sum (x + half, n - half);
}

static double
pairwise_sum_visit (const double       *x,
                    size_t              offset,
                    size_t              n,
                    TprofValuesVisitor  visit,
                    void               *data)
{
  size_t half;
  double sum;

  if (n <= PAIRWISE_BLOCK)
    {
      sum = pairwise_block (x + offset, n);
      visit (x + offset, offset, n, sum, data);
      return sum;
    }

  half = pairwise_split (n);
  sum = pairwise_sum_visit (x, offset, half, visit, data);
  return sum + pairwise_sum_visit (x, offset + half, n - half, visit, data);
}

static double
pairwise_squares (const double *x,
                  size_t        n,
                  double        mean)
{
  size_t half;

  if (n <= PAIRWISE_BLOCK)
    return pairwise_block_squares (x, n, mean);

  half = pairwise_split (n);
  return pairwise_squares (x, half, mean) + pairwise_squares (x + half, n - half, mean);
}

double
_tprof_values_sum_buffers (const double       *x,
                           size_t              n,
                           double             *buffer_sums,
                           TprofValuesVisitor  visit,
                           void               *data)
{
  double total = 0.0;

  /* a few values, nothing asked but the sum: numpy's one leaf at once */
  if (n <= PAIRWISE_BLOCK && buffer_sums == NULL && visit == NULL)
    return total + pairwise_block (x, n);
  for (size_t start = 0, b = 0; start < n; start += TPROF_NUMPY_BUFFER, b++)
    {
      size_t length = n - start < TPROF_NUMPY_BUFFER ? n - start : TPROF_NUMPY_BUFFER;
      double sum = visit != NULL ? pairwise_sum_visit (x, start, length, visit, data)
                                 : pairwise_sum (x + start, length);

      if (buffer_sums != NULL)
        buffer_sums[b] = sum;
      total += sum;
    }
  return total;
}

/* The same over the squared deviations from @mean. */
static double
squares_sum_buffers (const double *x,
                     size_t        n,
                     double        mean,
                     double       *buffer_sums)
{
  double total = 0.0;

  if (n <= PAIRWISE_BLOCK && buffer_sums == NULL)
    return total + pairwise_block_squares (x, n, mean);
  for (size_t start = 0, b = 0; start < n; start += TPROF_NUMPY_BUFFER, b++)
    {
      size_t length = n - start < TPROF_NUMPY_BUFFER ? n - start : TPROF_NUMPY_BUFFER;
      double sum = pairwise_squares (x + start, length, mean);

      if (buffer_sums != NULL)
        buffer_sums[b] = sum;
      total += sum;
    }
  return total;
}

/* Returns false when some value is NaN. */
static bool
min_max_serial (const double *x,
                size_t        n,
                double       *min,
                double       *max)
{
  Lanes lo = { x[0], x[0] }, hi = { x[0], x[0] };
  LaneMask nan_seen = { 0, 0 };
  size_t i;

  /* Two vectors of two lanes: one running min/max would be bound by the
   * latency of each comparison. */
  for (i = 0; i + 4 <= n; i += 4)
    {
      Lanes a = lanes_load (x + i), b = lanes_load (x + i + 2);

      nan_seen = lanes_mark_nan (nan_seen, a, b);
      lo = lanes_min (lanes_min (lo, a), b);
      hi = lanes_max (lanes_max (hi, a), b);
    }

  *min = fmin (lo[0], lo[1]);
  *max = fmax (hi[0], hi[1]);
  for (; i < n; i++)
    {
      nan_seen[0] |= isnan (x[i]);
      *min = x[i] < *min ? x[i] : *min;
      *max = x[i] > *max ? x[i] : *max;
    }
  return !lanes_any (nan_seen);
}

/* One chunk of a parallel pass over @x: what it reads and what it finds. */
typedef struct
{
  const double *x;
  size_t        n;
  double        mean;
  double       *buffer_sums;
  double        total;
  double        min;
  double        max;
  bool          no_nan;
} ValuesTask;

/* Splits @x[0..@n) into the tasks of @pass; returns how many. */
static size_t
values_tasks_init (ValuesTask            tasks[TPROF_STATS_MAX_CHUNKS],
                   const TprofStatsPass *pass,
                   const double         *x,
                   double                mean)
{
  for (size_t c = 0; c < pass->n_chunks; c++)
    tasks[c] = (ValuesTask) {
      .x = x + pass->bounds[c],
      .n = pass->bounds[c + 1] - pass->bounds[c],
      .mean = mean,
      .buffer_sums = _tprof_stats_pass_sums (pass, c),
    };
  return pass->n_chunks;
}

static void
values_task_sum (void *data)
{
  ValuesTask *task = data;

  task->total = _tprof_values_sum_buffers (task->x, task->n, task->buffer_sums, NULL, NULL);
}

static void
values_task_squares (void *data)
{
  ValuesTask *task = data;

  task->total = squares_sum_buffers (task->x, task->n, task->mean, task->buffer_sums);
}

static void
values_task_min_max (void *data)
{
  ValuesTask *task = data;

  task->no_nan = min_max_serial (task->x, task->n, &task->min, &task->max);
}

/* Runs @func over @x[0..@n) in chunks and returns the total in numpy's order. */
static double
values_pass_total (const double       *x,
                   size_t              n,
                   double              mean,
                   TprofStatsTaskFunc  func)
{
  ValuesTask tasks[TPROF_STATS_MAX_CHUNKS];
  double totals[TPROF_STATS_MAX_CHUNKS];
  TprofStatsPass pass;
  size_t n_chunks;
  double total;

  _tprof_stats_pass_init (&pass, n);
  n_chunks = values_tasks_init (tasks, &pass, x, mean);
  _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, func);
  for (size_t c = 0; c < n_chunks; c++)
    totals[c] = tasks[c].total;
  total = _tprof_stats_pass_total (&pass, totals);
  _tprof_stats_pass_clear (&pass);
  return total;
}

double
_tprof_values_sum (const double *x,
                   size_t        n)
{
  /* one buffer is one chunk: what the pass would do, without setting it
   * up (the checks of a profile's cache sum a few values per operation) */
  if (n <= TPROF_NUMPY_BUFFER)
    return _tprof_values_sum_buffers (x, n, NULL, NULL, NULL);
  return values_pass_total (x, n, 0.0, values_task_sum);
}

double
_tprof_values_squared_deviations (const double *x,
                                  size_t        n,
                                  double        mean)
{
  return values_pass_total (x, n, mean, values_task_squares);
}

double
_tprof_values_squared_deviations_serial (const double *x,
                                         size_t        n,
                                         double        mean)
{
  return squares_sum_buffers (x, n, mean, NULL);
}

double
_tprof_values_std (const double *x,
                   size_t        n,
                   double        mean)
{
  if (n < 2)
    return NAN;

  return _tprof_std_of_squared_deviations (_tprof_values_squared_deviations (x, n, mean), n);
}

bool
_tprof_values_min_max (const double *x,
                       size_t        n,
                       double       *min,
                       double       *max)
{
  ValuesTask tasks[TPROF_STATS_MAX_CHUNKS];
  TprofStatsPass pass = { 0 };
  size_t n_chunks;
  bool no_nan = true;

  *min = NAN;
  *max = NAN;
  if (n == 0)
    return true;

  /* no buffer sums: the chunks alone */
  pass.n_chunks = _tprof_stats_split (n, pass.bounds);
  n_chunks = values_tasks_init (tasks, &pass, x, 0.0);
  _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, values_task_min_max);

  *min = tasks[0].min;
  *max = tasks[0].max;
  for (size_t c = 0; c < n_chunks; c++)
    {
      *min = fmin (*min, tasks[c].min);
      *max = fmax (*max, tasks[c].max);
      no_nan = no_nan && tasks[c].no_nan;
    }

  /* A NaN never wins a comparison; an infinity shows in the extremes. */
  return no_nan && isfinite (*min) && isfinite (*max);
}

void
_tprof_values_summarize (const double     *x,
                         size_t            n,
                         TprofRankSummary *out)
{
  _tprof_values_summarize_m2 (x, n, out, NULL);
}

void
_tprof_values_summarize_m2 (const double     *x,
                            size_t            n,
                            TprofRankSummary *out,
                            double           *m2)
{
  double squares;

  out->count = n;
  out->sum = n > 0 ? _tprof_values_sum (x, n) : 0.0;
  out->mean = n > 0 ? out->sum / (double) n : NAN;
  squares = n > 0 ? _tprof_values_squared_deviations (x, n, out->mean) : 0.0;
  out->std = n > 1 ? sqrt (squares / (double) (n - 1)) : NAN;
  if (m2 != NULL)
    *m2 = squares;
  _tprof_values_min_max (x, n, &out->min, &out->max);
}
