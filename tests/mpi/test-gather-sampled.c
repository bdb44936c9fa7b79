/* test-gather-sampled.c — a sampled capture gathered over MPI: each rank's recorded counts and exact figures, no extra collective. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include <glib.h>
#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "mpi-call-count.h"
#include "tprof-time-manager-internal.h"

#define LIMIT 500

static int
world_rank (void)
{
  int rank;

  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  return rank;
}

static int
world_size (void)
{
  int size;

  MPI_Comm_size (MPI_COMM_WORLD, &size);
  return size;
}

/* Samples rank @r records of "op": rank 1 stays below the limit. */
static uint64_t
op_recorded (int r)
{
  return r == 1 ? 100 : 10000 * (uint64_t) (r + 1);
}

/* Duration of sample @i of rank @r in units of 2^-20 s: every sum exact. */
static uint64_t
op_units (int r, uint64_t i)
{
  return 1 + (i * 2654435761u + (uint64_t) r * 977) % 1000;
}

typedef struct
{
  uint64_t units, lo, hi;
} Expected;

static Expected
expected_of (int r)
{
  Expected e = { 0, UINT64_MAX, 0 };

  for (uint64_t i = 0; i < op_recorded (r); i++)
    {
      uint64_t k = op_units (r, i);

      e.units += k;
      e.lo = k < e.lo ? k : e.lo;
      e.hi = k > e.hi ? k : e.hi;
    }
  return e;
}

/* "op" on every rank, "plain" (never sampled) on every rank, "rare"
 * (sampled) on rank 0 alone: the names differ between ranks. */
static TprofTimeManager *
record (size_t limit)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  int r = world_rank ();

  _tprof_time_manager_set_sample_seed (tm, 1000 + (uint64_t) r);
  tprof_time_manager_set_sample_limit (tm, limit);
  for (uint64_t i = 0; i < op_recorded (r); i++)
    tprof_time_manager_append_time (tm, "op", (double) op_units (r, i) * 0x1p-20);
  for (int i = 0; i < 10; i++)
    tprof_time_manager_append_time (tm, "plain", 0.25);
  if (r == 0)
    for (int i = 0; i < 2000; i++)
      tprof_time_manager_append_time (tm, "rare", 0.5);
  return tm;
}

static void
check_op (const TprofGatheredTime *gt, int size)
{
  const TprofRankRecorded *rec;
  size_t n = tprof_gathered_time_recorded (gt, &rec);
  uint64_t total = 0, total_units = 0;
  TprofSummary s;

  g_assert_true (tprof_gathered_time_is_sampled (gt));
  g_assert_cmpuint (n, ==, (size_t) size);
  for (int r = 0; r < size; r++)
    {
      Expected e = expected_of (r);
      const int32_t one[] = { r };
      TprofGatheredTime *mine = tprof_gathered_time_get_rank (gt, one, 1);
      uint64_t stored = op_recorded (r) < LIMIT ? op_recorded (r) : LIMIT;

      g_assert_cmpint (rec[r].rank, ==, r);
      g_assert_cmpuint (rec[r].recorded, ==, op_recorded (r));
      g_assert_cmpfloat (rec[r].sum, ==, (double) e.units * 0x1p-20);
      g_assert_cmpfloat (rec[r].min, ==, (double) e.lo * 0x1p-20);
      g_assert_cmpfloat (rec[r].max, ==, (double) e.hi * 0x1p-20);
      g_assert_cmpuint (tprof_gathered_time_count (mine), ==, stored);
      tprof_gathered_time_free (mine);
      total += op_recorded (r);
      total_units += e.units;
    }
  g_assert_true (tprof_gathered_time_summarize (gt, &s));
  g_assert_cmpuint (s.count, ==, total);
  g_assert_cmpfloat (s.sum, ==, (double) total_units * 0x1p-20);
  g_assert_cmpuint (s.rank_count, ==, (size_t) size);
}

static void
check_profile (const TprofProfiledTime *pt, int size)
{
  const TprofGatheredTime *rare = tprof_profiled_time_get (pt, "rare");
  const TprofRankRecorded *rec;

  check_op (tprof_profiled_time_get (pt, "op"), size);
  g_assert_false (tprof_gathered_time_is_sampled (tprof_profiled_time_get (pt, "plain")));
  g_assert_cmpuint (tprof_gathered_time_recorded (tprof_profiled_time_get (pt, "plain"), &rec), ==, 0);
  g_assert_true (tprof_gathered_time_is_sampled (rare));
  g_assert_cmpuint (tprof_gathered_time_recorded (rare, &rec), ==, 1);
  g_assert_cmpuint (rec[0].recorded, ==, 2000);
  g_assert_cmpfloat (rec[0].sum, ==, 1000.0);
  g_assert_cmpuint (tprof_gathered_time_count (rare), ==, LIMIT);
}

static unsigned
gather_counting (size_t limit, int dst, TprofProfiledTime **pt)
{
  TprofTimeManager *tm = record (limit);
  TprofError error = { 0 };
  unsigned n;

  mpi_call_count_reset ();
  *pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, dst, &error);
  n = mpi_call_count_collectives ();
  g_assert_cmpint (error.code, ==, 0);
  tprof_time_manager_free (tm);
  return n;
}

/* Gathered to rank 0 and to all: the figures arrive exact, and the
 * gather makes as many collectives as without a limit. */
static void
test_gather_sampled (void)
{
  int rank = world_rank (), size = world_size ();
  TprofProfiledTime *pt = NULL;
  unsigned plain, sampled;

  plain = gather_counting (0, 0, &pt);
  if (pt != NULL)
    g_assert_false (tprof_gathered_time_is_sampled (tprof_profiled_time_get (pt, "op")));
  tprof_profiled_time_free (pt);
  sampled = gather_counting (LIMIT, 0, &pt);
  g_test_message ("collectives: %u unbounded, %u sampled", plain, sampled);
  g_assert_cmpuint (sampled, ==, plain);
  g_assert_true ((pt != NULL) == (rank == 0));
  if (pt != NULL)
    check_profile (pt, size);
  tprof_profiled_time_free (pt);

  gather_counting (LIMIT, TPROF_GATHER_ALL, &pt);
  g_assert_nonnull (pt);
  check_profile (pt, size);
  tprof_profiled_time_free (pt);
}

/* Saved by rank 0 and read back: rank_recorded per rank, exact figures. */
static void
test_save_sampled (void)
{
  int rank = world_rank (), size = world_size ();
  TprofProfiledTime *pt = NULL;
  char path[] = "/tmp/tprof-gather-sampled-XXXXXX";
  TprofError error = { 0 };

  gather_counting (LIMIT, 0, &pt);
  if (rank == 0)
    {
      TprofProfileFile *pf;
      const TprofOperationStats *stats;
      TprofProfiledTime *loaded;
      int fd = mkstemp (path);

      g_assert_cmpint (fd, >=, 0);
      close (fd);
      g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
      pf = tprof_profile_file_open (path, &error);
      g_assert_nonnull (pf);
      stats = tprof_profile_file_operation_stats (pf, 0, &error);
      g_assert_nonnull (stats);
      g_assert_nonnull (stats->rank_recorded);
      for (int r = 0; r < size; r++)
        {
          Expected e = expected_of (r);

          g_assert_cmpint (stats->rank_recorded[r], ==, (int64_t) op_recorded (r));
          g_assert_cmpint (stats->rank_count[r], ==, (int64_t) (op_recorded (r) < LIMIT ? op_recorded (r) : LIMIT));
          g_assert_cmpfloat (stats->rank_sum[r], ==, (double) e.units * 0x1p-20);
        }
      tprof_profile_file_close (pf);
      loaded = tprof_profiled_time_load (path, &error);
      g_assert_nonnull (loaded);
      check_profile (loaded, size);
      tprof_profiled_time_free (loaded);
      unlink (path);
    }
  tprof_profiled_time_free (pt);
}

int
main (int argc, char **argv)
{
  int rc;

  MPI_Init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mpi/gather/sampled", test_gather_sampled);
  g_test_add_func ("/mpi/gather/sampled-save", test_save_sampled);
  rc = g_test_run ();
  MPI_Finalize ();
  return rc;
}
