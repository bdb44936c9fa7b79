/* bench-h5-util.h — what the save/load benchmarks share: random sample columns, their baselines (write()+fsync, plain H5Dread), timing and medians. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/capture.h>

#define BENCH_RUNS 5

/* The samples of a profile as plain columns, in the order a profile's
 * operations hold them: @n_ops operations of @n / @n_ops samples each,
 * each operation's samples grouped by ascending rank. @starts and
 * @threads are NULL for a profile without a timeline. */
typedef struct
{
  size_t   n;
  size_t   n_ops;
  int      world_size;
  double  *times;
  int32_t *ranks;
  double  *starts;
  int32_t *threads;
} BenchColumns;

/* @n_ops operations of @per_op samples on @world_size ranks: durations
 * drawn at random (exponential, mean 1 ms, never sorted), the same for a
 * given @seed; with @timeline, starts one after another on each rank and
 * thread 0. */
BenchColumns *bench_columns_new (size_t n_ops, size_t per_op, int world_size, bool timeline, unsigned seed);
void          bench_columns_free (BenchColumns *columns);
/* Bytes of the sample arrays (times, ranks and, with a timeline, starts
 * and threads). */
size_t        bench_columns_bytes (const BenchColumns *columns);

/* A new profile object holding @columns (operations "op-00000", ...). */
TprofProfiledTime *bench_profile_new (const BenchColumns *columns);

/* Seconds on the monotonic clock. */
double bench_now (void);
/* Seconds of processor time (user and system) this process has used:
 * on a crowded machine steadier than wall time, which counts the waits
 * for a processor. */
double bench_cpu (void);
/* Page faults of this process so far (each costs tens of microseconds on
 * some virtual machines, which instruction counts do not show). */
double bench_page_faults (void);
/* sync(), so that one run's dirty pages are not written during the next. */
void   bench_sync (void);
/* The median of @v[0..@n) (reorders @v). */
double bench_median (double *v, int n);

/* The baselines: the sample bytes through write() and one fsync(); the
 * columns written to @path as a plain HDF5 file (contiguous datasets
 * times, ranks[, starts, threads]), and read back whole with H5Dread.
 * Each returns its seconds. */
double bench_write_fsync (const BenchColumns *columns, const char *path);
void   bench_write_plain_h5 (const BenchColumns *columns, const char *path);
double bench_read_plain_h5 (const char *path);
/* The baseline of a load: every member of the profile at @path that a
 * load reads (each dataset of /operations, /segments and /samples: the
 * names as variable-length UTF-8 strings, the numbers as native int32,
 * int64 or double), read whole with H5Dread from the file tprof wrote,
 * nothing checked; H5Fopen and H5Fclose included, freeing what was read
 * not. Returns its seconds. */
double bench_read_plain_profile (const char *path);

/* Runs @argv as a whole process, its output thrown away, and returns its
 * wall seconds; aborts when it cannot start or does not exit with 0. */
double bench_run_process (const char *const *argv);
