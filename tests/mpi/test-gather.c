/* test-gather.c — tprof_time_manager_gather under mpiexec: every rank checks, any failure fails the run. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <mpi.h>

#include <tprof/capture-mpi.h>

#include "mpi-call-count.h"
#include "mpi-test-data.h"
#include "tprof-gather-mpi-private.h"

typedef enum
{
  DST_FIRST,
  DST_LAST,
  DST_ALL,
} DstKind;

typedef struct
{
  MpiTestScenario scenario;
  DstKind         dst;
  size_t          block_elems;  /* 0: the library's default */
} GatherCase;

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

static int
dst_resolve (DstKind kind, int size)
{
  switch (kind)
    {
    case DST_FIRST:
      return 0;
    case DST_LAST:
      return size - 1;
    case DST_ALL:
    default:
      return TPROF_GATHER_ALL;
    }
}

/* Every rank of @comm records @scenario (values seeded by its world rank),
 * gathers to @dst and checks what it gets back. */
static void
run_gather (MPI_Comm comm, MpiTestScenario scenario, int dst)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int world = world_rank ();
  int rank, size;
  int *data_ranks;

  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  data_ranks = g_new (int, size);
  MPI_Allgather (&world, 1, MPI_INT, data_ranks, 1, MPI_INT, comm);

  mpi_test_fill (tm, scenario, rank, size, world);
  error.code = -1;
  pt = tprof_time_manager_gather (tm, comm, dst, &error);
  if (dst == TPROF_GATHER_ALL || dst == rank)
    {
      if (pt == NULL)
        g_error ("rank %d: gather failed: %s", rank, error.message);
      g_assert_cmpint (error.code, ==, 0);
      mpi_test_assert_profile (pt, scenario, size, data_ranks);
      mpi_test_assert_roundtrip (pt);
      tprof_profiled_time_free (pt);
    }
  else
    {
      g_assert_null (pt);
      g_assert_cmpint (error.code, ==, 0);
    }
  tprof_time_manager_free (tm);
  g_free (data_ranks);
}

static void
test_gather_case (gconstpointer data)
{
  const GatherCase *c = data;
  int size = world_size ();

  _tprof_gather_set_block_elems (c->block_elems);
  run_gather (MPI_COMM_WORLD, c->scenario, dst_resolve (c->dst, size));
  _tprof_gather_set_block_elems (0);
}

static void
test_gather_split_comm (void)
{
  MPI_Comm half;
  int world = world_rank ();
  static const MpiTestScenario scenarios[] = { MPI_TEST_IDENTICAL, MPI_TEST_SHUFFLED, MPI_TEST_DISJOINT };

  MPI_Comm_split (MPI_COMM_WORLD, world % 2, world, &half);
  for (size_t i = 0; i < G_N_ELEMENTS (scenarios); i++)
    {
      int size;

      MPI_Comm_size (half, &size);
      run_gather (half, scenarios[i], 0);
      run_gather (half, scenarios[i], size - 1);
      run_gather (half, scenarios[i], TPROF_GATHER_ALL);
    }
  MPI_Comm_free (&half);
}

/* The time manager cannot hold a name without samples, so the records go
 * straight to the collective part. */
static void
test_gather_zero_samples (void)
{
  const char *names[] = { "never", "sometimes", "always" };
  double some[] = { 0.5, 0.25, 0.125 };
  /* "never" has no run, "sometimes" one run that may be empty */
  size_t run_base[] = { 0, 0, 1, 2 };
  TprofGatherRun runs[2];
  TprofGatherLocal local = { 3, names, run_base, runs };
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();

  runs[0] = (TprofGatherRun) { rank % 2 == 1 ? some : NULL, rank % 2 == 1 ? 1 : 0 };
  runs[1] = (TprofGatherRun) { some, 3 };

  pt = _tprof_gather_records (&local, NULL, MPI_COMM_WORLD, TPROF_GATHER_ALL, &error);
  if (pt == NULL)
    g_error ("gather failed: %s", error.message);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 3);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "never");
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_nth (pt, 0)), ==, 0);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_nth (pt, 1)), ==, (size_t) size / 2);
  for (size_t i = 0; i < (size_t) size / 2; i++)
    {
      g_assert_cmpfloat (tprof_gathered_time_times (tprof_profiled_time_nth (pt, 1))[i], ==, 0.5);
      g_assert_cmpint (tprof_gathered_time_ranks (tprof_profiled_time_nth (pt, 1))[i], ==, 2 * (int) i + 1);
    }
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_nth (pt, 2)), ==, 3 * (size_t) size);
  mpi_test_assert_roundtrip (pt);
  tprof_profiled_time_free (pt);
}

static void
assert_failed_everywhere (TprofProfiledTime *pt, const TprofError *error, int code, const char *fragment)
{
  g_assert_null (pt);
  g_assert_cmpint (error->code, ==, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("error message '%s' does not mention '%s'", error->message, fragment);
}

/* Runs that lie apart in memory, some empty: the gather must send each one
 * from where it is, in order, also when split into tiny blocks. */
static void
check_scattered_runs (size_t block_elems)
{
  const char *names[] = { "scattered" };
  size_t run_base[] = { 0, 4 };
  TprofGatherRun runs[4];
  TprofGatherLocal local = { 1, names, run_base, runs };
  g_autofree double *storage = NULL;
  TprofProfiledTime *pt;
  const TprofGatheredTime *gt;
  TprofError error;
  size_t n, lens[4], expected_total = 0, at = 0;
  int rank = world_rank ();
  int size = world_size ();

  n = 7 + 3 * (size_t) rank;
  lens[0] = 1;
  lens[1] = 0;
  lens[2] = 3;
  lens[3] = n - 4;
  /* each run followed by a gap of poison that must never be sent */
  storage = g_new (double, 2 * n + 8);
  for (size_t i = 0; i < 2 * n + 8; i++)
    storage[i] = -1.0;
  for (size_t k = 0, v = 0; k < 4; k++)
    {
      runs[k] = (TprofGatherRun) { lens[k] > 0 ? storage + at : NULL, lens[k] };
      for (size_t i = 0; i < lens[k]; i++)
        storage[at + i] = 1000.0 * rank + (double) v++;
      at += lens[k] + 2;
    }

  _tprof_gather_set_block_elems (block_elems);
  pt = _tprof_gather_records (&local, NULL, MPI_COMM_WORLD, TPROF_GATHER_ALL, &error);
  _tprof_gather_set_block_elems (0);
  if (pt == NULL)
    g_error ("gather failed: %s", error.message);
  gt = tprof_profiled_time_get (pt, "scattered");
  for (int r = 0; r < size; r++)
    expected_total += 7 + 3 * (size_t) r;
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, expected_total);
  at = 0;
  for (int r = 0; r < size; r++)
    for (size_t v = 0; v < 7 + 3 * (size_t) r; v++, at++)
      {
        g_assert_cmpfloat (tprof_gathered_time_times (gt)[at], ==, 1000.0 * r + (double) v);
        g_assert_cmpint (tprof_gathered_time_ranks (gt)[at], ==, r);
      }
  tprof_profiled_time_free (pt);
}

static void
test_gather_scattered_runs (void)
{
  check_scattered_runs (0);
  check_scattered_runs (2);
}

/* Operation @i of @local has a run claiming samples it does not point to. */
static void
test_gather_run_without_data (void)
{
  const char *names[] = { "fine", "broken" };
  double one = 1.0;
  size_t run_base[] = { 0, 1, 2 };
  TprofGatherRun runs[2] = { { &one, 1 }, { &one, 1 } };
  TprofGatherLocal local = { 2, names, run_base, runs };
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();

  if (rank == size - 1)
    runs[1] = (TprofGatherRun) { NULL, 2 };
  pt = _tprof_gather_records (&local, NULL, MPI_COMM_WORLD, 0, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "operation 'broken' has 2 samples but no data");
}

#define N_THREADS 3

typedef struct
{
  TprofTimeManager *tm;
  int               rank;
  int               thread;
} ThreadJob;

static double
thread_value (int rank, int thread, size_t k)
{
  return (double) rank + 0.125 * thread + 1e-6 * (double) k;
}

/* Enough samples to fill several of a thread's chunks (the first holds 512). */
static size_t
thread_count (int rank, int thread)
{
  return 600 + 500 * (size_t) thread + (size_t) rank;
}

static gpointer
thread_record (gpointer data)
{
  const ThreadJob *job = data;

  for (size_t k = 0; k < thread_count (job->rank, job->thread); k++)
    {
      tprof_time_manager_append_time (job->tm, "shared", thread_value (job->rank, job->thread, k));
      if (job->thread == 1 && k < 5)
        tprof_time_manager_append_time (job->tm, "middle", (double) k);
    }
  return NULL;
}

/* Samples recorded by several threads, each in several chunks, read in
 * place: each rank's threads in the order they first recorded. */
static void
check_threads (size_t block_elems)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  ThreadJob jobs[N_THREADS];
  TprofProfiledTime *pt;
  const TprofGatheredTime *shared, *middle;
  TprofError error;
  size_t at = 0;
  int rank = world_rank ();
  int size = world_size ();

  for (int t = 0; t < N_THREADS; t++)
    {
      jobs[t] = (ThreadJob) { tm, rank, t };
      /* one after the other, so that the threads' order is known */
      g_thread_join (g_thread_new ("recorder", thread_record, &jobs[t]));
    }
  _tprof_gather_set_block_elems (block_elems);
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, TPROF_GATHER_ALL, &error);
  _tprof_gather_set_block_elems (0);
  if (pt == NULL)
    g_error ("gather failed: %s", error.message);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 2);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "shared");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 1), ==, "middle");
  shared = tprof_profiled_time_nth (pt, 0);
  for (int r = 0; r < size; r++)
    for (int t = 0; t < N_THREADS; t++)
      for (size_t k = 0; k < thread_count (r, t); k++, at++)
        {
          g_assert_cmpuint (at, <, tprof_gathered_time_count (shared));
          g_assert_cmpfloat (tprof_gathered_time_times (shared)[at], ==, thread_value (r, t, k));
          g_assert_cmpint (tprof_gathered_time_ranks (shared)[at], ==, r);
        }
  g_assert_cmpuint (at, ==, tprof_gathered_time_count (shared));
  middle = tprof_profiled_time_nth (pt, 1);
  g_assert_cmpuint (tprof_gathered_time_count (middle), ==, 5 * (size_t) size);
  for (size_t i = 0; i < 5 * (size_t) size; i++)
    {
      g_assert_cmpfloat (tprof_gathered_time_times (middle)[i], ==, (double) (i % 5));
      g_assert_cmpint (tprof_gathered_time_ranks (middle)[i], ==, (int) (i / 5));
    }
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
}

static void
test_gather_threads (void)
{
  check_threads (0);
  check_threads (100);
}

static unsigned
count_collectives (MpiTestScenario scenario)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();
  unsigned n;

  unsigned rounds = 0;

  /* the clock alignment's ping-pong: each rank talks to its parent and
   * children in a binary tree, 2 x 12 messages and one offset each */
  while ((1 << rounds) < size)
    rounds++;
  mpi_test_fill (tm, scenario, rank, size, rank);
  mpi_call_count_reset ();
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, 0, &error);
  n = mpi_call_count_collectives ();
  g_assert_cmpuint (mpi_call_count_point_to_point (), <=, 25 * (1 + rounds));
  g_assert_true ((pt != NULL) == (rank == 0));
  g_assert_cmpint (error.code, ==, 0);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  return n;
}

static void
test_gather_fixed_collectives (void)
{
  unsigned few = count_collectives (MPI_TEST_IDENTICAL);
  unsigned many = count_collectives (MPI_TEST_MANY_OPS);
  unsigned none = count_collectives (MPI_TEST_BIG_ON_LAST);

  g_assert_cmpuint (few, >, 0);
  g_assert_cmpuint (few, ==, many);
  g_assert_cmpuint (few, ==, none);
  /* 8 for the samples, 5 more for their timeline */
  g_assert_cmpuint (few, <=, 13);
}

static void
test_gather_bad_destination (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int size = world_size ();

  tprof_time_manager_append_time (tm, "x", 1.0);
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, size, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "destination rank");
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, -2, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "destination rank");
  pt = tprof_time_manager_gather (tm, MPI_COMM_NULL, 0, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "MPI_COMM_NULL");
  tprof_time_manager_free (tm);
}

/* Ranks that disagree on the destination, or one rank passing one that
 * is no rank: every rank fails with the same message, none hangs. */
static void
test_gather_mismatched_destination (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();

  if (size < 2)
    {
      g_test_skip ("needs 2 ranks to disagree");
      tprof_time_manager_free (tm);
      return;
    }
  tprof_time_manager_append_time (tm, "x", 1.0);

  /* each rank names itself */
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, rank, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "different destinations");
  g_assert_nonnull (strstr (error.message, "(from 0 to "));

  /* rank 0 asks for everything, the others for rank 0 */
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, rank == 0 ? TPROF_GATHER_ALL : 0, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "different destinations");
  g_assert_nonnull (strstr (error.message, "from TPROF_GATHER_ALL to 0"));

  /* one rank passes a rank the communicator does not have */
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, rank == size - 1 ? size + 5 : 0, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "different destinations");

  /* and the next gather works */
  run_gather (MPI_COMM_WORLD, MPI_TEST_SHUFFLED, 0);
  tprof_time_manager_free (tm);
}

/* The timeline: each rank's clock runs 1.5 s per rank ahead (injected:
 * ranks of one host share one clock); the estimated offsets recover the
 * skew within their stated bounds, and the ends of a barrier, which every
 * rank leaves at about the same moment, line up on the timeline. */
static void
test_gather_timeline (void)
{
  enum { N_BARRIERS = 5 };
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();
  const TprofGatheredTime *barrier;
  const double *offsets, *errors, *starts;
  double first = INFINITY;

  _tprof_gather_set_test_clock_skew (1.5 * rank);
  tprof_time_manager_enable (tm);
  for (int k = 0; k < N_BARRIERS; k++)
    {
      TPROF_SCOPE ("barrier");
      MPI_Barrier (MPI_COMM_WORLD);
    }
  tprof_time_manager_disable (tm);
  /* the recorded starts are read at the clock of the recording, so the
   * skew applies to them as it does to the alignment's clock reads */
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, TPROF_GATHER_ALL, &error);
  _tprof_gather_set_test_clock_skew (0.0);
  g_assert_nonnull (pt);

  offsets = tprof_profiled_time_clock_offsets (pt);
  errors = tprof_profiled_time_clock_offset_errors (pt);
  g_assert_nonnull (offsets);
  g_assert_nonnull (errors);
  g_assert_nonnull (tprof_profiled_time_timeline_origin (pt));
  g_assert_cmpfloat (offsets[0], ==, 0.0);
  g_assert_cmpfloat (errors[0], ==, 0.0);
  for (int r = 0; r < size; r++)
    {
      g_test_message ("rank %d: offset %.9f s (true %.1f), error bound %.3g s", r, offsets[r], -1.5 * r, errors[r]);
      g_assert_cmpfloat (fabs (offsets[r] - (-1.5 * r)), <=, errors[r] + 1e-9);
      g_assert_cmpfloat (errors[r], <, 0.1);
    }

  barrier = tprof_profiled_time_get (pt, "barrier");
  starts = tprof_gathered_time_starts (barrier);
  g_assert_nonnull (starts);
  g_assert_nonnull (tprof_gathered_time_threads (barrier));
  g_assert_cmpuint (tprof_gathered_time_count (barrier), ==, (size_t) N_BARRIERS * size);
  for (size_t i = 0; i < tprof_gathered_time_count (barrier); i++)
    first = fmin (first, starts[i]);
  g_assert_cmpfloat (first, ==, 0.0);
  /* samples are grouped by rank: occurrence k of rank r at r * N + k */
  for (int k = 0; k < N_BARRIERS; k++)
    {
      double lo = INFINITY, hi = -INFINITY;

      for (int r = 0; r < size; r++)
        {
          size_t i = (size_t) r * N_BARRIERS + (size_t) k;
          double end = starts[i] + tprof_gathered_time_times (barrier)[i];

          g_assert_cmpint (tprof_gathered_time_ranks (barrier)[i], ==, r);
          lo = fmin (lo, end);
          hi = fmax (hi, end);
        }
      /* unaligned, the ends would lie 1.5 s a rank apart */
      g_assert_cmpfloat (hi - lo, <, 0.5);
    }
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
}

/* One rank passes no manager: every rank must fail, none may hang. */
static void
test_gather_null_manager_on_one_rank (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();

  tprof_time_manager_append_time (tm, "x", 1.0);
  pt = tprof_time_manager_gather (rank == size - 1 ? NULL : tm, MPI_COMM_WORLD, 0, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, "time manager is NULL");
  if (rank != size - 1)
    {
      g_autofree char *who = g_strdup_printf ("rank %d", size - 1);

      assert_failed_everywhere (pt, &error, TPROF_ERROR_INVALID, who);
    }
  tprof_time_manager_free (tm);
}

/* A rank that runs out of memory while reading its records. */
static void
test_gather_local_failure (void)
{
  TprofGatherLocal local = { 0, NULL, NULL, NULL };
  TprofError failure;
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();

  tprof_error_clear (&failure);
  if (rank == size / 2)
    tprof_error_set (&failure, TPROF_ERROR_NO_MEMORY, "simulated shortage of memory");
  pt = _tprof_gather_records (&local, &failure, MPI_COMM_WORLD, TPROF_GATHER_ALL, &error);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_NO_MEMORY, "simulated shortage of memory");
}

/* A rank that runs out of memory at @stage: every rank fails with it. */
static void
check_failure_at (TprofGatherStage stage, int failing_rank, int dst, const char *what)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error;
  int rank = world_rank ();
  int size = world_size ();

  mpi_test_fill (tm, MPI_TEST_IDENTICAL, rank, size, rank);
  if (rank == failing_rank)
    _tprof_gather_inject_failure (stage);
  pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, dst, &error);
  _tprof_gather_inject_failure (TPROF_GATHER_STAGE_NONE);
  assert_failed_everywhere (pt, &error, TPROF_ERROR_NO_MEMORY, what);
  if (rank != failing_rank)
    {
      g_autofree char *who = g_strdup_printf ("rank %d failed: ", failing_rank);

      assert_failed_everywhere (pt, &error, TPROF_ERROR_NO_MEMORY, who);
    }
  tprof_time_manager_free (tm);
}

static void
test_gather_out_of_memory (void)
{
  int size = world_size ();

  check_failure_at (TPROF_GATHER_STAGE_READ, size - 1, 0, "out of memory while finding this rank's samples");
  check_failure_at (TPROF_GATHER_STAGE_PACK, size - 1, 0, "out of memory while packing");
  check_failure_at (TPROF_GATHER_STAGE_NAMES, 0, 0, "out of memory while receiving the operation names");
  check_failure_at (TPROF_GATHER_STAGE_SAMPLES, size - 1, size - 1, "out of memory while receiving the samples");
  check_failure_at (TPROF_GATHER_STAGE_SAMPLES, size / 2, TPROF_GATHER_ALL, "out of memory while receiving the samples");
  /* and the next gather works again */
  run_gather (MPI_COMM_WORLD, MPI_TEST_SHUFFLED, 0);
}

/* The gather works on a duplicate: the caller's error handler stays. */
static void
test_gather_keeps_user_comm (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  MPI_Errhandler before, after;
  TprofProfiledTime *pt;
  TprofError error;
  MPI_Comm comm;

  MPI_Comm_dup (MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler (comm, MPI_ERRORS_ARE_FATAL);
  tprof_time_manager_append_time (tm, "x", 1.0);
  MPI_Comm_get_errhandler (comm, &before);
  pt = tprof_time_manager_gather (tm, comm, TPROF_GATHER_ALL, &error);
  g_assert_nonnull (pt);
  MPI_Comm_get_errhandler (comm, &after);
  g_assert_true (before == after);
  g_assert_true (after == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free (&before);
  MPI_Errhandler_free (&after);
  MPI_Comm_free (&comm);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
}

#define N_SCENARIOS 6
#define N_DSTS      3

static void
add_gather_cases (void)
{
  static const struct { const char *name; MpiTestScenario scenario; } scenarios[N_SCENARIOS] = {
    { "identical", MPI_TEST_IDENTICAL },
    { "disjoint", MPI_TEST_DISJOINT },
    { "shuffled", MPI_TEST_SHUFFLED },
    { "one-rank-empty", MPI_TEST_ONE_RANK_EMPTY },
    { "big-on-last", MPI_TEST_BIG_ON_LAST },
    { "many-ops", MPI_TEST_MANY_OPS },
  };
  static const struct { const char *name; DstKind dst; } dsts[N_DSTS] = {
    { "to-first", DST_FIRST },
    { "to-last", DST_LAST },
    { "to-all", DST_ALL },
  };
  static GatherCase cases[N_SCENARIOS * N_DSTS];
  static GatherCase split_cases[N_SCENARIOS];

  for (size_t s = 0; s < N_SCENARIOS; s++)
    for (size_t d = 0; d < N_DSTS; d++)
      {
        GatherCase *c = &cases[s * N_DSTS + d];
        g_autofree char *path = g_strdup_printf ("/mpi/gather/%s/%s", scenarios[s].name, dsts[d].name);

        c->scenario = scenarios[s].scenario;
        c->dst = dsts[d].dst;
        g_test_add_data_func (path, c, test_gather_case);
      }

  /* tiny blocks: every region is described as a run of blocks and a rest,
   * the path that keeps counts beyond INT_MAX elements intact */
  for (size_t s = 0; s < N_SCENARIOS; s++)
    {
      GatherCase *c = &split_cases[s];
      g_autofree char *path = g_strdup_printf ("/mpi/gather/split-blocks/%s", scenarios[s].name);

      c->scenario = scenarios[s].scenario;
      c->dst = s % 2 == 0 ? DST_ALL : DST_LAST;
      c->block_elems = scenarios[s].scenario == MPI_TEST_BIG_ON_LAST ? 4099 : 3;
      g_test_add_data_func (path, c, test_gather_case);
    }
}

int
main (int argc, char **argv)
{
  int rc;

  MPI_Init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  add_gather_cases ();
  g_test_add_func ("/mpi/gather/split-comm", test_gather_split_comm);
  g_test_add_func ("/mpi/gather/zero-samples", test_gather_zero_samples);
  g_test_add_func ("/mpi/gather/scattered-runs", test_gather_scattered_runs);
  g_test_add_func ("/mpi/gather/run-without-data", test_gather_run_without_data);
  g_test_add_func ("/mpi/gather/threads", test_gather_threads);
  g_test_add_func ("/mpi/gather/fixed-collectives", test_gather_fixed_collectives);
  g_test_add_func ("/mpi/gather/bad-destination", test_gather_bad_destination);
  g_test_add_func ("/mpi/gather/timeline", test_gather_timeline);
  g_test_add_func ("/mpi/gather/mismatched-destination", test_gather_mismatched_destination);
  g_test_add_func ("/mpi/gather/null-manager-on-one-rank", test_gather_null_manager_on_one_rank);
  g_test_add_func ("/mpi/gather/local-failure", test_gather_local_failure);
  g_test_add_func ("/mpi/gather/out-of-memory", test_gather_out_of_memory);
  g_test_add_func ("/mpi/gather/keeps-user-comm", test_gather_keeps_user_comm);

  rc = g_test_run ();
  MPI_Finalize ();
  return rc;
}
