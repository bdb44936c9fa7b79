/* test-core-file.c — saving and loading a profile and refusing bad files, without GLib.
 * With --write PATH it only saves the test profile and prints its statistics,
 * for check-core-file.py to compare with h5py and numpy. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tprof/capture.h>

#include "core-check.h"
#include "core-reference.h"

static const char *const hostnames[CORE_WORLD_SIZE] = { "node-a", "node-a", "node-b", "node-b" };

/* "step" (4 ranks, core-reference.h), "io/checkpoint" (rank 1 only) and
 * "recorded" (rank 0, from TPROF_TIMER). */
static TprofProfiledTime *
make_profile (void)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (CORE_WORLD_SIZE);
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *local;
  static double times[CORE_STEP_COUNT];
  static int32_t ranks[CORE_STEP_COUNT];
  double io_times[7];
  int32_t io_ranks[7];
  TprofError error;

  for (size_t i = 0; i < CORE_STEP_COUNT; i++)
    {
      times[i] = core_step_time (i);
      ranks[i] = core_step_rank (i);
    }
  for (size_t i = 0; i < 7; i++)
    {
      io_times[i] = (double) (i + 1) / 8.0;
      io_ranks[i] = 1;
    }
  CHECK_OK (tprof_profiled_time_add (pt, "step", tprof_gathered_time_new (times, ranks, CORE_STEP_COUNT), &error), &error);
  CHECK_OK (tprof_profiled_time_add (pt, "io/checkpoint", tprof_gathered_time_new (io_times, io_ranks, 7), &error), &error);

  for (int i = 0; i < 3; i++)
    TPROF_TIMER (tm, "recorded")
      tprof_time_manager_append_time (tm, "appended", 0.5 * i);
  local = tprof_time_manager_gather_local (tm);
  CHECK (local != NULL);
  {
    const TprofGatheredTime *rec = tprof_profiled_time_get (local, "recorded");
    CHECK (rec != NULL);
    CHECK_OK (tprof_profiled_time_add (pt, "recorded",
                                       tprof_gathered_time_new (tprof_gathered_time_times (rec),
                                                                tprof_gathered_time_ranks (rec),
                                                                tprof_gathered_time_count (rec)),
                                       &error), &error);
  }
  tprof_profiled_time_free (local);
  tprof_time_manager_free (tm);

  CHECK_OK (tprof_profiled_time_set_hostnames (pt, hostnames, &error), &error);
  return pt;
}

static void
check_same_profile (const TprofProfiledTime *expected, const TprofProfiledTime *actual)
{
  CHECK_INT_EQ (tprof_profiled_time_world_size (expected), tprof_profiled_time_world_size (actual));
  CHECK_INT_EQ (tprof_profiled_time_len (expected), tprof_profiled_time_len (actual));
  for (size_t i = 0; i < tprof_profiled_time_len (expected); i++)
    {
      const TprofGatheredTime *e = tprof_profiled_time_nth (expected, i);
      const TprofGatheredTime *a = tprof_profiled_time_nth (actual, i);

      CHECK_STR_EQ (tprof_profiled_time_name (expected, i), tprof_profiled_time_name (actual, i));
      CHECK_INT_EQ (tprof_gathered_time_count (e), tprof_gathered_time_count (a));
      /* a file may group samples by rank: compare each rank's, in order */
      for (int32_t r = 0; r < CORE_WORLD_SIZE; r++)
        {
          TprofGatheredTime *er = tprof_gathered_time_get_rank (e, &r, 1);
          TprofGatheredTime *ar = tprof_gathered_time_get_rank (a, &r, 1);

          CHECK_INT_EQ (tprof_gathered_time_count (er), tprof_gathered_time_count (ar));
          for (size_t j = 0; j < tprof_gathered_time_count (er); j++)
            CHECK_DOUBLE_EQ (tprof_gathered_time_times (er)[j], tprof_gathered_time_times (ar)[j]);
          tprof_gathered_time_free (er);
          tprof_gathered_time_free (ar);
        }
      CHECK_DOUBLE_EQ (tprof_gathered_time_sum (e), tprof_gathered_time_sum (a));
      CHECK_DOUBLE_EQ (tprof_gathered_time_quantile (e, 0.5), tprof_gathered_time_quantile (a, 0.5));
    }
  for (int r = 0; r < CORE_WORLD_SIZE; r++)
    CHECK_STR_EQ (hostnames[r], tprof_profiled_time_hostname (actual, r));
}

static void
test_roundtrip (const char *path)
{
  TprofProfiledTime *saved = make_profile (), *loaded;
  TprofError error;

  CHECK_OK (tprof_profiled_time_save (saved, path, &error), &error);
  CHECK_NONNULL (loaded = tprof_profiled_time_load (path, &error), &error);
  check_same_profile (saved, loaded);
  CHECK_STR_EQ (TPROF_CLOCK_NAME, tprof_profiled_time_clock (loaded));
  CHECK (strncmp (tprof_profiled_time_producer (loaded), "libtprof-capture ", 17) == 0);
  CHECK (tprof_profiled_time_created (loaded) != NULL);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (saved);
}

/* Each refusal names the file and says what is wrong. */
static void
test_refusals (const char *dir)
{
  char missing[4096], not_h5[4096], unwritable[4096];
  TprofProfiledTime *pt = make_profile ();
  TprofError error;
  FILE *f;

  snprintf (missing, sizeof missing, "%s/no-such-profile.h5", dir);
  CHECK (tprof_profiled_time_load (missing, &error) == NULL);
  CHECK_INT_EQ (TPROF_ERROR_IO, error.code);
  CHECK (strstr (error.message, missing) != NULL);

  snprintf (not_h5, sizeof not_h5, "%s/not-a-profile.h5", dir);
  f = fopen (not_h5, "w");
  CHECK (f != NULL);
  fputs ("this is not HDF5\n", f);
  fclose (f);
  CHECK (tprof_profiled_time_load (not_h5, &error) == NULL);
  CHECK (error.code == TPROF_ERROR_FORMAT || error.code == TPROF_ERROR_IO);
  CHECK (strstr (error.message, not_h5) != NULL);
  unlink (not_h5);

  snprintf (unwritable, sizeof unwritable, "%s/no-such-dir/profile.h5", dir);
  CHECK_INT_EQ (-1, tprof_profiled_time_save (pt, unwritable, &error));
  CHECK_INT_EQ (TPROF_ERROR_IO, error.code);
  CHECK (strstr (error.message, unwritable) != NULL);
  tprof_profiled_time_free (pt);
}

/* --write PATH: one line per operation, "name count sum mean std median p95 p99". */
static int
write_only (const char *path)
{
  TprofProfiledTime *pt = make_profile ();
  TprofError error;

  CHECK_OK (tprof_profiled_time_save (pt, path, &error), &error);
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      TprofSummary s;
      CHECK (tprof_gathered_time_summarize (tprof_profiled_time_nth (pt, i), &s));
      printf ("%s %zu %.17g %.17g %.17g %.17g %.17g %.17g\n", tprof_profiled_time_name (pt, i),
              s.count, s.sum, s.mean, s.std, s.median, s.p95, s.p99);
    }
  tprof_profiled_time_free (pt);
  return 0;
}

int
main (int argc, char **argv)
{
  char dir[] = "/tmp/tprof-core-XXXXXX";
  char path[4096];

  if (argc == 3 && strcmp (argv[1], "--write") == 0)
    return write_only (argv[2]);

  CHECK (mkdtemp (dir) != NULL);
  snprintf (path, sizeof path, "%s/profile.h5", dir);
  test_roundtrip (path);
  test_refusals (dir);
  unlink (path);
  rmdir (dir);
  printf ("test-core-file: OK\n");
  return 0;
}
