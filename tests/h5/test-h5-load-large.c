/* test-h5-load-large.c — large profiles, read with pread() or through HDF5, split over threads: exact values, every refusal still precise. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "h5-test-util.h"

#define N_SAMPLES (1 << 20)   /* as in write_large.py */

static char *large_dir;

static char *
large_path (const char *case_name,
            const char *suffix)
{
  char *file = g_strconcat (case_name, suffix, NULL);
  char *path = g_build_filename (large_dir, file, NULL);

  g_free (file);
  return path;
}

/* numpy's conversion of the stored values, raw, as write_large.py saved it. */
static GBytes *
expected_array (const char *case_name,
                const char *suffix,
                gsize       elem_size)
{
  char *path = large_path (case_name, suffix);
  GBytes *bytes = h5_test_read_bytes (path);

  g_assert_cmpuint (g_bytes_get_size (bytes), ==, (gsize) N_SAMPLES * elem_size);
  g_free (path);
  return bytes;
}

static void
test_valid (gconstpointer data)
{
  const char *case_name = data;
  char *path = large_path (case_name, ".h5");
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);
  const TprofGatheredTime *step, *small;
  GBytes *times = expected_array (case_name, ".times.f64", sizeof (double));
  GBytes *ranks = expected_array (case_name, ".ranks.i32", sizeof (int32_t));

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (pt);
  h5_test_assert_no_open_objects ();
  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, 64);

  step = tprof_profiled_time_get (pt, "step");
  g_assert_nonnull (step);
  g_assert_cmpuint (tprof_gathered_time_count (step), ==, N_SAMPLES);
  /* bit for bit, -0.0 included */
  g_assert_cmpmem (tprof_gathered_time_times (step), N_SAMPLES * sizeof (double),
                   g_bytes_get_data (times, NULL), g_bytes_get_size (times));
  g_assert_cmpmem (tprof_gathered_time_ranks (step), N_SAMPLES * sizeof (int32_t),
                   g_bytes_get_data (ranks, NULL), g_bytes_get_size (ranks));
  g_assert_true (signbit (tprof_gathered_time_times (step)[7]));

  /* a small operation beside it still reads through HDF5 */
  small = tprof_profiled_time_get (pt, "small");
  g_assert_nonnull (small);
  g_assert_cmpuint (tprof_gathered_time_count (small), ==, 2);
  g_assert_cmpfloat (tprof_gathered_time_times (small)[0], ==, 0.5);
  g_assert_cmpint (tprof_gathered_time_ranks (small)[1], ==, 0);

  tprof_profiled_time_free (pt);
  g_bytes_unref (times);
  g_bytes_unref (ranks);
  g_free (path);
}

typedef struct
{
  const char *file;
  const char *expected;
} LargeRefusal;

static const LargeRefusal large_refusals[] = {
  { "nan-last", "operation 'step': times[1048575] is NaN" },
  { "rank-last", "operation 'step': ranks[1048575] is 64, outside [0, 64)" },
  /* the first bad sample, though another thread meets a later one too */
  { "two-halves", "operation 'step': ranks[524286] is -7, outside [0, 64)" },
  { "second-half", "operation 'step': times[524293] is infinite (inf)" },
  { "float32-inf-last", "operation 'step': times[1048575] is infinite" },
  { "odd-length-last", "operation 'step': times[1047574] is negative (-2)" },
  /* as stored, not as HDF5 clamps it into an int32 */
  { "int64-rank-last", "operation 'step': ranks[1048575] is 1099511627776, outside [0, 64)" },
  { "uint64-rank-last", "operation 'step': ranks[1048575] is 18446744073709551614, outside [0, 64)" },
};

static void
test_refused (gconstpointer data)
{
  const LargeRefusal *refusal = data;
  char *path = large_path (refusal->file, ".h5");
  TprofError error = { 0 };

  g_assert_null (tprof_profiled_time_load (path, &error));
  h5_test_assert_no_open_objects ();
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error.message, path));
  if (strstr (error.message, refusal->expected) == NULL)
    g_error ("expected '%s' in: %s", refusal->expected, error.message);
  g_free (path);
}

int
main (int argc, char **argv)
{
  static const char *const valid_cases[] = {
    "native", "userblock", "float32-int64", "chunked", "big-endian",
  };
  int status;

  g_test_init (&argc, &argv, NULL);
  large_dir = h5_test_make_dir ();
  h5_test_run_python ("write_large.py", large_dir, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (valid_cases); i++)
    {
      char *test_path = g_strdup_printf ("/h5/load-large/valid/%s", valid_cases[i]);

      g_test_add_data_func (test_path, valid_cases[i], test_valid);
      g_free (test_path);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (large_refusals); i++)
    {
      char *test_path = g_strdup_printf ("/h5/load-large/refuse/%s", large_refusals[i].file);

      g_test_add_data_func (test_path, &large_refusals[i], test_refused);
      g_free (test_path);
    }

  status = g_test_run ();
  h5_test_cleanup ();
  g_free (large_dir);
  return status;
}
