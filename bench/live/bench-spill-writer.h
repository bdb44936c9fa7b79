/* bench-spill-writer.h — a job's spill journals written fast for the follow benchmarks: a header, names, and flushes of synthetic steps per rank. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BENCH_WORLD 16
#define BENCH_N_OPS 3
#define BENCH_JOB   0x0123456789abcdefULL

/* One rank's file as it is written. */
typedef struct
{
  int      fd;
  uint64_t flush;
  uint64_t total;
  double   clock;   /* the rank's time so far */
} BenchRank;

/* Seconds of CLOCK_MONOTONIC. */
double bench_now_s (void);
/* Creates rank @r's file in @dir: its header and the operations' names. */
void   bench_rank_start (BenchRank  *rk,
                         const char *dir,
                         int         r);
/* One flush of @n steps (one sample of each operation per step): the
 * ranks arrive apart at allreduce, rank 1 last, and leave together. */
void   bench_rank_flush (BenchRank *rk,
                         int        r,
                         size_t     n);
/* The baseline: reads every byte appended to each rank's file between
 * @from and @to; returns the seconds it took. */
double bench_read_bytes (const char *dir,
                         off_t       from[BENCH_WORLD],
                         off_t       to[BENCH_WORLD]);
