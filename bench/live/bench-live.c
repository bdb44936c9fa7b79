/* bench-live.c — one `tprof top` refresh over 10^6 new samples (read, analysed), against reading the same bytes, measured in the same run. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "tprof-spill-live-internal.h"
#include "tprof-spill-record-internal.h"

#define WORLD       16
#define N_OPS       3
#define PER_REFRESH 1000000
#define ROUNDS      7
#define JOB         0x0123456789abcdefULL

static const char *ops[N_OPS] = { "forward", "backward", "allreduce" };

typedef struct
{
  int      fd;
  uint64_t flush;
  uint64_t total;
  double   clock;   /* the rank's time so far */
} Rank;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
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

static void
rank_start (Rank       *rk,
            const char *dir,
            int         r)
{
  char path[512];
  uint8_t head[64 + 64], names[8 + N_OPS * 16], *p;
  size_t n;

  snprintf (path, sizeof path, "%s/tprof-%016llx-%d.spill", dir, (unsigned long long) JOB, r);
  rk->fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  if (rk->fd < 0)
    {
      perror (path);
      exit (1);
    }
  p = head;
  _tprof_spill_put_u32 (p, 1);
  _tprof_spill_put_i32 (p + 4, r);
  _tprof_spill_put_i32 (p + 8, WORLD);
  _tprof_spill_put_i32 (p + 12, 1000 + r);
  _tprof_spill_put_u64 (p + 16, JOB);
  _tprof_spill_put_f64 (p + 24, 1e-3 * r);
  _tprof_spill_put_f64 (p + 32, 1e-6);
  _tprof_spill_put_f64 (p + 40, 2.0);
  _tprof_spill_put_f64 (p + 48, 0.0);
  _tprof_spill_put_f64 (p + 56, 1.8e9);
  p = _tprof_spill_put_str (p + 64, "node");
  n = (size_t) (_tprof_spill_put_str (p, "bench") - head);
  put (rk->fd, TPROF_SPILL_HEADER, head, n, NULL, 0, NULL, 0);
  _tprof_spill_put_u32 (names, 0);
  _tprof_spill_put_u32 (names + 4, N_OPS);
  p = names + 8;
  for (int op = 0; op < N_OPS; op++)
    p = _tprof_spill_put_str (p, ops[op]);
  n = (size_t) (p - names);
  put (rk->fd, TPROF_SPILL_NAMES, names, n, NULL, 0, NULL, 0);
}

/* One flush of @n steps (one sample of each operation per step). */
static void
rank_flush (Rank   *rk,
            int     r,
            size_t  n)
{
  double *starts = malloc (n * sizeof *starts), *times = malloc (n * sizeof *times);
  uint8_t samples[16], commit[24];

  for (int op = 0; op < N_OPS; op++)
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

/* The baseline: read every byte appended since @from (per rank). */
static double
read_bytes (const char *dir,
            off_t       from[WORLD],
            off_t       to[WORLD])
{
  static char buffer[1 << 20];
  double t = now_s ();

  for (int r = 0; r < WORLD; r++)
    {
      char path[512];
      int fd;

      snprintf (path, sizeof path, "%s/tprof-%016llx-%d.spill", dir, (unsigned long long) JOB, r);
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
  return now_s () - t;
}

int
main (void)
{
  char dir[] = "/tmp/bench-live-XXXXXX";
  Rank ranks[WORLD] = { 0 };
  TprofError error = { 0 };
  TprofSpillLive *sl;
  size_t steps = PER_REFRESH / (WORLD * N_OPS);
  double best_refresh = INFINITY, best_read = INFINITY, best_cpu = INFINITY, best_read_cpu = INFINITY;
  char command[600];

  if (mkdtemp (dir) == NULL)
    return 1;
  for (int r = 0; r < WORLD; r++)
    {
      rank_start (&ranks[r], dir, r);
      rank_flush (&ranks[r], r, 1);
    }
  sl = _tprof_spill_live_open (dir, NULL, &error);
  if (sl == NULL)
    {
      fprintf (stderr, "%s\n", error.message);
      return 1;
    }
  for (int round = 0; round < ROUNDS; round++)
    {
      off_t from[WORLD], to[WORLD];
      double t, c, read_time, read_cpu;

      for (int r = 0; r < WORLD; r++)
        {
          from[r] = lseek (ranks[r].fd, 0, SEEK_END);
          rank_flush (&ranks[r], r, steps);
          to[r] = lseek (ranks[r].fd, 0, SEEK_END);
        }
      read_cpu = cpu_s ();
      read_time = read_bytes (dir, from, to);
      read_cpu = cpu_s () - read_cpu;
      c = cpu_s ();
      t = now_s ();
      if (_tprof_spill_live_refresh (sl, &error) < 0)
        {
          fprintf (stderr, "%s\n", error.message);
          return 1;
        }
      t = now_s () - t;
      c = cpu_s () - c;
      best_refresh = fmin (best_refresh, t);
      best_cpu = fmin (best_cpu, c);
      best_read_cpu = fmin (best_read_cpu, read_cpu);
      best_read = fmin (best_read, read_time);
    }
  printf ("refresh with %zu new samples (%d ranks x %d operations), best of %d:\n", steps * WORLD * N_OPS, WORLD,
          N_OPS, ROUNDS);
  printf ("  reading the same bytes (baseline): %8.2f ms\n", best_read * 1e3);
  printf ("  tprof top refresh (read + analysis): %6.2f ms  (target <= 100 ms)\n", best_refresh * 1e3);
  printf ("  ratio refresh / read: %.2f\n", best_refresh / best_read);
  printf ("  CPU time (a busy machine's wall time hides it): read %.2f ms, refresh %.2f ms, ratio %.2f\n",
          best_read_cpu * 1e3, best_cpu * 1e3, best_cpu / best_read_cpu);
  {
    TprofArrival a;

    tprof_live_arrival (sl->live, 2, &a);
    printf ("  (allreduce: %zu complete occurrences, synchronising: %s)\n", a.n_occurrences,
            a.synchronising ? "yes" : "no");
  }
  _tprof_spill_live_free (sl);
  for (int r = 0; r < WORLD; r++)
    close (ranks[r].fd);
  snprintf (command, sizeof command, "rm -rf '%s'", dir);
  return system (command) == 0 ? 0 : 1;
}
