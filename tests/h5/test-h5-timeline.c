/* test-h5-timeline.c — a recorded profile's timeline (docs/file-format.md) as saved: starts, threads, clock offsets and origin, checked with h5py. */
/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <time.h>

#include "h5-test-util.h"

#define N_STEPS 20

static void
spin_us (int us)
{
  struct timespec end, now;

  clock_gettime (CLOCK_MONOTONIC, &end);
  end.tv_nsec += us * 1000L;
  end.tv_sec += end.tv_nsec / 1000000000L;
  end.tv_nsec %= 1000000000L;
  do
    clock_gettime (CLOCK_MONOTONIC, &now);
  while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
}

/* step > forward, backward; on a second thread, io/load on its own. */
static gpointer
loader (gpointer data)
{
  TprofTimeManager *tm = data;

  tprof_time_manager_enable (tm);
  for (int i = 0; i < N_STEPS; i++)
    {
      TPROF_SCOPE ("io/load");
      spin_us (50);
    }
  tprof_time_manager_disable (tm);
  return NULL;
}

static void
assert_same_timeline (const TprofGatheredTime *a,
                      const TprofGatheredTime *b)
{
  size_t n = tprof_gathered_time_count (a);

  g_assert_cmpuint (tprof_gathered_time_count (b), ==, n);
  g_assert_nonnull (tprof_gathered_time_starts (b));
  g_assert_nonnull (tprof_gathered_time_threads (b));
  g_assert_cmpmem (tprof_gathered_time_starts (a), n * sizeof (double), tprof_gathered_time_starts (b),
                   n * sizeof (double));
  g_assert_cmpmem (tprof_gathered_time_threads (a), n * sizeof (int32_t), tprof_gathered_time_threads (b),
                   n * sizeof (int32_t));
}

/* What was saved reads back the same, in process and isolated: every
 * start and thread, the offsets and the origin. */
static void
assert_read_back (const TprofProfiledTime *pt,
                  const char              *path)
{
  TprofError error = { 0 };
  TprofProfiledTime *loaded = tprof_profiled_time_load (path, &error);
  TprofProfileFile *apart = tprof_profile_file_open_isolated (path, &error);
  const int32_t rank0[] = { 0 };

  g_assert_nonnull (loaded);
  g_assert_nonnull (apart);
  g_assert_cmpstr (tprof_profiled_time_timeline_origin (loaded), ==, tprof_profiled_time_timeline_origin (pt));
  g_assert_cmpstr (tprof_profile_file_timeline_origin (apart), ==, tprof_profiled_time_timeline_origin (pt));
  g_assert_cmpfloat (tprof_profiled_time_clock_offsets (loaded)[0], ==, 0.0);
  g_assert_cmpfloat (tprof_profile_file_clock_offset_errors (apart)[0], ==, 0.0);
  for (size_t op = 0; op < tprof_profiled_time_len (pt); op++)
    {
      const TprofGatheredTime *recorded = tprof_profiled_time_nth (pt, op);
      TprofGatheredTime *isolated = tprof_profile_file_read_operation (apart, op, rank0, 1, NULL, NULL, NULL, &error);

      assert_same_timeline (recorded, tprof_profiled_time_get (loaded, tprof_profiled_time_name (pt, op)));
      g_assert_nonnull (isolated);
      assert_same_timeline (recorded, isolated);
      tprof_gathered_time_free (isolated);
    }
  tprof_profile_file_close (apart);
  tprof_profiled_time_free (loaded);
}

static void
test_recorded_timeline (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "timeline.h5", NULL);
  g_autofree char *before = NULL, *after = NULL;
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error = { 0 };
  GThread *thread;
  time_t t0 = time (NULL);

  tprof_time_manager_enable (tm);
  for (int i = 0; i < N_STEPS; i++)
    {
      TPROF_SCOPE ("step");
      {
        TPROF_SCOPE ("forward");
        spin_us (100);
      }
      {
        TPROF_SCOPE ("backward");
        spin_us (200);
      }
    }
  tprof_time_manager_disable (tm);
  thread = g_thread_new ("loader", loader, tm);
  g_thread_join (thread);
  /* a time handed in began that long before it was handed in */
  tprof_time_manager_append_time (tm, "handed-in", 0.25);

  pt = tprof_time_manager_gather_local (tm);
  g_assert_nonnull (pt);
  g_assert_nonnull (tprof_profiled_time_timeline_origin (pt));
  g_assert_cmpfloat (tprof_profiled_time_clock_offsets (pt)[0], ==, 0.0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  assert_read_back (pt, path);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);

  before = g_strdup_printf ("%ld", (long) t0 - 1);
  after = g_strdup_printf ("%ld", (long) time (NULL) + 1);
  h5_test_run_python ("check_timeline.py", path, before, after, NULL);
}

/* A profile built from arrays whose ranks interleave is stored grouped by
 * rank: each start and thread moves with its sample. */
static void
test_interleaved_timeline (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "interleaved.h5", NULL);
  const double times[] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6 };
  const int32_t ranks[] = { 1, 0, 1, 0, 2, 0 };
  const double starts[] = { 10, 20, 30, 40, 50, 60 };
  const int32_t threads[] = { 0, 1, 2, 3, 4, 5 };
  TprofProfiledTime *pt = tprof_profiled_time_new (3);
  TprofGatheredTime *gt = h5_test_gathered (times, ranks, 6);
  TprofError error = { 0 };

  tprof_gathered_time_set_timeline_take (gt, g_memdup2 (starts, sizeof starts), g_memdup2 (threads, sizeof threads));
  g_assert_cmpint (tprof_profiled_time_add (pt, "op", gt, &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  h5_test_run_python ("check_timeline.py", path, "interleaved", NULL);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/timeline/recorded", test_recorded_timeline);
  g_test_add_func ("/h5/timeline/interleaved", test_interleaved_timeline);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
