/* bench-spill-writer.c — a job's spill journals written fast for the follow benchmarks, with libcapture's record writer. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "bench-spill-writer.h"
#include "tprof-spill-record-internal.h"

static const char *ops[BENCH_N_OPS] = { "forward", "backward", "allreduce" };

double
bench_now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}


static void
put (int         fd,
     uint16_t    type,
     const void *a,
     size_t      na,
     const void *b,
     size_t      nb,
     const void *c,
     size_t      nc)
{
  struct iovec parts[3] = { { (void *) a, na }, { (void *) b, nb }, { (void *) c, nc } };

  if (_tprof_spill_record_write (fd, type, parts, 3) != 0)
    {
      perror ("write");
      exit (1);
    }
}

void
bench_rank_start (BenchRank  *rk,
                  const char *dir,
                  int         r)
{
  char path[512];
  uint8_t head[64 + 64], names[8 + BENCH_N_OPS * 16], *p;
  size_t n;

  snprintf (path, sizeof path, "%s/tprof-%016llx-%d.spill", dir, (unsigned long long) BENCH_JOB, r);
  rk->fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  if (rk->fd < 0)
    {
      perror (path);
      exit (1);
    }
  p = head;
  _tprof_spill_put_u32 (p, 1);
  _tprof_spill_put_i32 (p + 4, r);
  _tprof_spill_put_i32 (p + 8, BENCH_WORLD);
  _tprof_spill_put_i32 (p + 12, 1000 + r);
  _tprof_spill_put_u64 (p + 16, BENCH_JOB);
  _tprof_spill_put_f64 (p + 24, 1e-3 * r);
  _tprof_spill_put_f64 (p + 32, 1e-6);
  _tprof_spill_put_f64 (p + 40, 2.0);
  _tprof_spill_put_f64 (p + 48, 0.0);
  _tprof_spill_put_f64 (p + 56, 1.8e9);
  p = _tprof_spill_put_str (p + 64, "node");
  n = (size_t) (_tprof_spill_put_str (p, "bench") - head);
  put (rk->fd, TPROF_SPILL_HEADER, head, n, NULL, 0, NULL, 0);
  _tprof_spill_put_u32 (names, 0);
  _tprof_spill_put_u32 (names + 4, BENCH_N_OPS);
  p = names + 8;
  for (int op = 0; op < BENCH_N_OPS; op++)
    p = _tprof_spill_put_str (p, ops[op]);
  n = (size_t) (p - names);
  put (rk->fd, TPROF_SPILL_NAMES, names, n, NULL, 0, NULL, 0);
}

void
bench_rank_flush (BenchRank *rk,
                  int        r,
                  size_t     n)
{
  double *starts = malloc (n * sizeof *starts), *times = malloc (n * sizeof *times);
  uint8_t samples[16], commit[24];

  for (int op = 0; op < BENCH_N_OPS; op++)
    {
      for (size_t i = 0; i < n; i++)
        {
          double base = rk->clock + (double) i * 1e-3 + op * 3e-4 - 1e-3 * r;  /* the rank's clock: rank 0's minus its offset */

          /* allreduce (op 2): the ranks arrive apart, rank 1 last, and leave together */
          starts[i] = base + 1e-6 * (double) ((i * 7 + (size_t) r) % 13) + (r == 1 ? 2e-5 : 0.0);
          times[i] = op == 2 ? base + 2e-4 - starts[i] : 2e-4 + 1e-6 * (double) ((i * 5 + (size_t) r) % 11);
        }
      _tprof_spill_put_u32 (samples, (uint32_t) op);
      _tprof_spill_put_i32 (samples + 4, 0);
      _tprof_spill_put_u32 (samples + 8, (uint32_t) n);
      _tprof_spill_put_u32 (samples + 12, TPROF_SPILL_SECONDS);
      put (rk->fd, TPROF_SPILL_SAMPLES, samples, 16, starts, n * 8, times, n * 8);
      rk->total += n;
    }
  rk->clock += (double) n * 1e-3;
  _tprof_spill_put_u64 (commit, ++rk->flush);
  _tprof_spill_put_f64 (commit + 8, rk->clock);
  _tprof_spill_put_u64 (commit + 16, rk->total);
  put (rk->fd, TPROF_SPILL_COMMIT, commit, 24, NULL, 0, NULL, 0);
  free (starts);
  free (times);
}

double
bench_read_bytes (const char *dir,
                  off_t       from[BENCH_WORLD],
                  off_t       to[BENCH_WORLD])
{
  static char buffer[1 << 20];
  double t = bench_now_s ();

  for (int r = 0; r < BENCH_WORLD; r++)
    {
      char path[512];
      int fd;

      snprintf (path, sizeof path, "%s/tprof-%016llx-%d.spill", dir, (unsigned long long) BENCH_JOB, r);
      fd = open (path, O_RDONLY);
      for (off_t at = from[r]; at < to[r];)
        {
          ssize_t got = pread (fd, buffer, sizeof buffer, at);

          if (got <= 0)
            break;
          at += got;
        }
      close (fd);
    }
  return bench_now_s () - t;
}

