/* test-h5-sampled.c — a sampled capture saved (segments/recorded, exact figures) and read back; bad recorded counts refused. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "h5-test-util.h"

#define N_RECORDED 50000
#define LIMIT      1000

/* Records N_RECORDED samples of "op" (durations multiples of 2^-20, so
 * that every sum is exact) under a limit, and 10 of "small"; saves them. */
static void
save_sampled (const char *path, double *sum, double *min, double *max)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error = { 0 };
  uint64_t units = 0, lo = UINT64_MAX, hi = 0;

  tprof_time_manager_set_sample_limit (tm, LIMIT);
  for (uint64_t i = 0; i < N_RECORDED; i++)
    {
      uint64_t k = 3 + (i * 40503u) % 1000;

      units += k;
      lo = k < lo ? k : lo;
      hi = k > hi ? k : hi;
      tprof_time_manager_append_time (tm, "op", (double) k * 0x1p-20);
    }
  for (int i = 0; i < 10; i++)
    tprof_time_manager_append_time (tm, "small", 0.5);
  *sum = (double) units * 0x1p-20;
  *min = (double) lo * 0x1p-20;
  *max = (double) hi * 0x1p-20;

  pt = tprof_time_manager_gather_local (tm);
  g_assert_nonnull (pt);
  g_assert_true (tprof_gathered_time_is_sampled (tprof_profiled_time_get (pt, "op")));
  g_assert_false (tprof_gathered_time_is_sampled (tprof_profiled_time_get (pt, "small")));
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
}

static void
assert_summary (const TprofSummary *s, double sum, double min, double max)
{
  g_assert_cmpuint (s->count, ==, N_RECORDED);
  g_assert_cmpfloat (s->sum, ==, sum);
  g_assert_cmpfloat (s->mean, ==, sum / N_RECORDED);
  g_assert_cmpfloat (s->min, ==, min);
  g_assert_cmpfloat (s->max, ==, max);
  g_assert_cmpuint (s->rank_count, ==, 1);
}

static void
test_round_trip (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "sampled.h5", NULL);
  char recorded[32], stored[32], hex_sum[64], hex_min[64], hex_max[64];
  double sum, min, max;
  TprofError error = { 0 };
  TprofProfiledTime *loaded;
  TprofProfileFile *pf;
  TprofSummary s;

  save_sampled (path, &sum, &min, &max);
  snprintf (recorded, sizeof recorded, "%d", N_RECORDED);
  snprintf (stored, sizeof stored, "%d", LIMIT);
  snprintf (hex_sum, sizeof hex_sum, "%a", sum);
  snprintf (hex_min, sizeof hex_min, "%a", min);
  snprintf (hex_max, sizeof hex_max, "%a", max);
  h5_test_run_python ("check_sampled.py", path, "op", recorded, stored, hex_sum, hex_min, hex_max, NULL);
  h5_test_run_python ("check_sampled.py", path, "small", "absent", NULL);

  /* a full load checks the cache against the stored subset, and keeps
   * what each rank recorded */
  loaded = tprof_profiled_time_load (path, &error);
  g_assert_cmpint (error.code, ==, 0);
  g_assert_nonnull (loaded);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (loaded, "op")), ==, LIMIT);
  g_assert_true (tprof_gathered_time_is_sampled (tprof_profiled_time_get (loaded, "op")));
  g_assert_true (tprof_gathered_time_summarize (tprof_profiled_time_get (loaded, "op"), &s));
  assert_summary (&s, sum, min, max);
  tprof_profiled_time_free (loaded);

  /* the cached statistics, in process and isolated */
  for (int isolated = 0; isolated < 2; isolated++)
    {
      const TprofOperationStats *stats;

      pf = isolated ? tprof_profile_file_open_isolated (path, &error) : tprof_profile_file_open (path, &error);
      g_assert_nonnull (pf);
      stats = tprof_profile_file_operation_stats (pf, 0, &error);
      g_assert_nonnull (stats);
      assert_summary (&stats->summary, sum, min, max);
      g_assert_nonnull (stats->rank_recorded);
      g_assert_cmpint (stats->rank_recorded[0], ==, N_RECORDED);
      g_assert_cmpint (stats->rank_count[0], ==, LIMIT);
      stats = tprof_profile_file_operation_stats (pf, 1, &error);
      g_assert_null (stats->rank_recorded);
      tprof_profile_file_close (pf);
    }
}

/* segments/recorded that breaks the format: refused, naming the file and
 * the column. */
static void
test_refuse (void)
{
  static const char *const kinds[] = { "fewer", "length", "float", "negative" };
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "sampled.h5", NULL);
  double sum, min, max;

  save_sampled (path, &sum, &min, &max);
  for (size_t k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *bad = g_strdup_printf ("%s/bad-%s.h5", dir, kinds[k]);
      TprofError error = { 0 };
      TprofProfiledTime *pt;
      TprofProfileFile *pf;

      h5_test_run_python ("check_sampled.py", "damage", path, bad, kinds[k], NULL);
      pt = tprof_profiled_time_load (bad, &error);
      g_assert_null (pt);
      g_test_message ("%s: %s", kinds[k], error.message);
      g_assert_cmpint (error.code, !=, 0);
      g_assert_nonnull (strstr (error.message, bad));
      g_assert_nonnull (strstr (error.message, "segments/recorded"));
      pf = tprof_profile_file_open_isolated (bad, &error);
      g_assert_null (pf);
      g_assert_nonnull (strstr (error.message, "segments/recorded"));
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/sampled/round-trip", test_round_trip);
  g_test_add_func ("/h5/sampled/refuse", test_refuse);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
