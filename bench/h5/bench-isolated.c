/* bench-isolated.c — reading a whole profile (tprof_profile_file_read_all) through the isolated reader (a helper process parses the metadata; the caller preads the samples itself) against reading it in process, in the same run. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <tprof/capture.h>

#define N_RANKS 64
#define N_OPS 4
#define N_RUNS 5
/* longer than a helper's start on a busy machine */
#define SETTLE_US 500000

/* 10^7 by default; TPROF_BENCH_SAMPLES sets another size (the target is
 * stated at 10^8) */
static size_t n_samples = 10000000;

typedef TprofProfileFile *(*OpenFunc) (const char *path, TprofError *error);

static void
write_profile (const char *path)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (N_RANKS);
  GRand *rand = g_rand_new_with_seed (7);
  TprofError error = { 0 };

  for (int op = 0; op < N_OPS; op++)
    {
      size_t n = n_samples / N_OPS;
      double *times = g_new (double, n);
      int32_t *ranks = g_new (int32_t, n);
      char name[16];

      for (size_t i = 0; i < n; i++)
        {
          times[i] = 1e-3 * (1.0 + g_rand_double (rand));
          ranks[i] = (int32_t) (i * N_RANKS / n);
        }
      g_snprintf (name, sizeof name, "op%d", op);
      g_assert_cmpint (tprof_profiled_time_add (pt, name, tprof_gathered_time_new_take (times, ranks, n), &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  g_rand_free (rand);
}

/* tprof_profile_file_read_all()'s callback: counts and lets go. */
static bool
count_samples (size_t             op,
               TprofGatheredTime *gt,
               void              *user_data,
               TprofError        *error)
{
  *(size_t *) user_data += tprof_gathered_time_count (gt);
  tprof_gathered_time_free (gt);
  return true;
}

/* Opens @path and reads every operation whole (or @n_ranks ranks of each)
 * as a whole-profile reader does, through tprof_profile_file_read_all();
 * milliseconds. */
static double
time_read (OpenFunc open, const char *path, const int32_t *ranks, size_t n_ranks)
{
  gint64 start = g_get_monotonic_time ();
  TprofError error = { 0 };
  TprofProfileFile *pf = open (path, &error);
  size_t total = 0;

  g_assert_nonnull (pf);
  if (tprof_profile_file_read_all (pf, ranks, n_ranks, count_samples, &total, &error) != 0)
    g_error ("%s", error.message);
  tprof_profile_file_close (pf);
  g_assert_cmpuint (total, >, 0);
  return (g_get_monotonic_time () - start) / 1e3;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
compare (const char *what, const char *path, const int32_t *ranks, size_t n_ranks, const char *target)
{
  double here[N_RUNS], apart[N_RUNS];

  /* alternate, so that the page cache and the machine's load are shared;
   * sync() first, so that no write-back of the file runs during a read;
   * a pause after each, so that neither is timed while the helper that
   * a close starts ahead of the next open (TPROF_READER_SPARE=0: none,
   * the helper's start is timed in each open) is starting */
  for (int i = 0; i < N_RUNS; i++)
    {
      sync ();
      here[i] = time_read (tprof_profile_file_open, path, ranks, n_ranks);
      g_usleep (SETTLE_US);
      sync ();
      apart[i] = time_read (tprof_profile_file_open_isolated, path, ranks, n_ranks);
      g_usleep (SETTLE_US);
    }
  qsort (here, N_RUNS, sizeof (double), compare_doubles);
  qsort (apart, N_RUNS, sizeof (double), compare_doubles);
  printf ("  %-34s in process %7.1f ms, isolated %7.1f ms (medians of %d) = %.2fx%s\n",
          what, here[N_RUNS / 2], apart[N_RUNS / 2], N_RUNS, apart[N_RUNS / 2] / here[N_RUNS / 2], target);
}

int
main (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tprof-bench-isolated-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.h5", NULL);
  const int32_t four[] = { 0, 21, 42, 63 };
  const char *size = g_getenv ("TPROF_BENCH_SAMPLES");

  if (size != NULL)
    n_samples = MAX (g_ascii_strtoull (size, NULL, 10), (guint64) N_OPS);
  write_profile (path);
  /* as the viewer does: a helper kept started ahead of each open */
  tprof_profile_file_keep_helper_ready ();
  printf ("bench-isolated: %zu samples (random durations), %d ranks, %d operations\n", n_samples, N_RANKS, N_OPS);
  compare ("every sample of every operation:", path, NULL, 0, " (target <= 1.3x)");
  compare ("4 ranks of every operation:", path, four, G_N_ELEMENTS (four), "");
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
