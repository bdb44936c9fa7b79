/* test-h5-refuse.c — every broken file of formats 1 and 2 (docs/file-format.md) is refused with a message naming the problem, silently. */
/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <sys/stat.h>

#include <hdf5.h>

#include "h5-test-util.h"

typedef struct
{
  const char *file;
  int         code;
  const char *expected[3];   /* substrings of the message */
} RefusalCase;

static const RefusalCase refusal_cases[] = {
  { "missing.h5", TPROF_ERROR_IO, { "No such file or directory" } },
  { "not-hdf5.h5", TPROF_ERROR_FORMAT, { "not an HDF5 file" } },
  { "empty.h5", TPROF_ERROR_FORMAT, { "the file is empty" } },
  { "truncated.h5", TPROF_ERROR_FORMAT, { "cannot open as HDF5" } },
  { "no-format.h5", TPROF_ERROR_FORMAT, { "not a tprof profile", "'format' is missing" } },
  { "wrong-format.h5", TPROF_ERROR_FORMAT, { "not a tprof profile", "'format' is 'caliper-profile'" } },
  { "format-not-string.h5", TPROF_ERROR_FORMAT, { "attribute 'format' is not a string" } },
  { "no-format-version.h5", TPROF_ERROR_FORMAT, { "attribute 'format_version' is missing" } },
  { "format-version-4.h5", TPROF_ERROR_VERSION, { "newer than this reader", "format_version 4", "understands up to 3" } },
  { "no-world-size.h5", TPROF_ERROR_FORMAT, { "attribute 'world_size' is missing" } },
  { "world-size-0.h5", TPROF_ERROR_FORMAT, { "attribute 'world_size' is 0" } },
  { "world-size-float.h5", TPROF_ERROR_FORMAT, { "attribute 'world_size' is not an integer" } },
  { "no-timings.h5", TPROF_ERROR_FORMAT, { "group /timings is missing" } },
  { "times-2d.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "'times' has 2 dimensions, expected 1" } },
  { "times-string.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "'times' holds string values" } },
  { "ranks-3-bytes.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "'ranks' stores 3-byte values" } },
  { "short-storage.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "'times' stores 24 bytes, fewer than its 4 values need" } },
  { "ranks-float.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "'ranks' holds floating point values, expected integer" } },
  { "no-ranks.h5", TPROF_ERROR_FORMAT, { "operation 'backward' has no dataset 'ranks'" } },
  { "length-mismatch.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "length mismatch", "'times' has 4 samples, 'ranks' has 3" } },
  { "nan-time.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "times[2] is NaN" } },
  { "inf-time.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "times[3] is infinite" } },
  { "negative-time.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "times[1] is negative (-0.25)" } },
  { "rank-out-of-range.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "ranks[3] is 4, outside [0, 4)" } },
  { "negative-rank.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "ranks[1] is -1" } },
  { "duplicate-name.h5", TPROF_ERROR_FORMAT, { "duplicate operation name 'forward'", "/timings/backward" } },
  { "empty-name.h5", TPROF_ERROR_FORMAT, { "/timings/backward: attribute 'name' is empty" } },
  { "bad-utf8-name.h5", TPROF_ERROR_FORMAT, { "/timings/backward: attribute 'name' is not valid UTF-8" } },
  { "soft-link.h5", TPROF_ERROR_FORMAT, { "/timings/alias is a soft or external link" } },
  { "not-a-group.h5", TPROF_ERROR_FORMAT, { "/timings/stray is not a group" } },
  { "hostname-length.h5", TPROF_ERROR_FORMAT, { "/ranks/hostname must be a 1-D dataset of world_size (4) strings" } },
  /* format 2: the cached statistics, checked at open and against the samples read */
  { "cache-rank-sum-length.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "dataset 'rank_sum' has 3 values, expected 4" } },
  { "cache-rank-count-float.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "dataset 'rank_count' holds floating point values, expected integer" } },
  { "cache-negative-count.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "rank_count[1] is -1, expected >= 0" } },
  { "cache-count-mismatch.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "attribute 'count' is 5, but the operation stores 4 samples" } },
  { "cache-rank-count-short.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "rank_count adds up to 3, but the operation stores 4 samples" } },
  { "cache-nan-min.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "rank_min[2] is nan, but rank 2 has 1 samples" } },
  { "cache-min-above-max.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "rank_min[2] (2) is larger than rank_max[2] (0.125)" } },
  { "cache-p95-string.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "attribute 'p95' is not a floating point number" } },
  { "cache-median-above-p95.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "attribute 'median' (0.99) is larger than 'p95' (0.925)" } },
  { "cache-sum-vs-samples.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "do not match the samples", "rank 2: rank_sum is 0.125001, the samples add up to 0.125" } },
  { "cache-p99-vs-samples.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "do not match the samples", "attribute 'p99' is 0.94999999999999996, the samples give 0.98499999999999988" } },
  { "starts-length.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "length mismatch: 'times' has 4 samples, 'starts' has 3" } },
  { "starts-nan.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "starts[2] is not finite" } },
  { "threads-negative.h5", TPROF_ERROR_FORMAT, { "operation 'backward'", "threads[1] is negative" } },
  { "clock-offset-length.h5", TPROF_ERROR_FORMAT, { "/ranks", "'clock_offset' has 3 values, expected 4" } },
  { "clock-offset-error-negative.h5", TPROF_ERROR_FORMAT, { "/ranks/clock_offset_error[2] is -1e-06, expected a finite value >= 0" } },
};

static char *
bad_file_path (const char *file)
{
  return g_build_filename (g_getenv ("TPROF_H5_BAD_DIR"), file, NULL);
}

/* In a child: loads and reports the outcome on stdout, so that the parent
 * sees anything HDF5 might print on stderr. */
static void
load_in_child (const char *path)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);

  g_assert_null (pt);
  h5_test_assert_no_open_objects ();
  g_print ("code=%d\nmessage=%s\n", error.code, error.message);
  /* NULL error: still refused, still silent */
  g_assert_null (tprof_profiled_time_load (path, NULL));
}

static void
test_refusal (gconstpointer data)
{
  const RefusalCase *c = data;
  char *path = bad_file_path (c->file);
  char *pattern;

  if (g_test_subprocess ())
    {
      load_in_child (path);
      g_free (path);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("");

  pattern = g_strdup_printf ("*code=%d\nmessage=%s: *", c->code, path);
  g_test_trap_assert_stdout (pattern);
  g_free (pattern);
  for (size_t i = 0; i < G_N_ELEMENTS (c->expected) && c->expected[i] != NULL; i++)
    {
      pattern = g_strdup_printf ("*%s*", c->expected[i]);
      g_test_trap_assert_stdout (pattern);
      g_free (pattern);
    }
  g_free (path);
}

static void
test_valid_baseline (void)
{
  /* the file every broken one is made from loads: the refusals come from
   * the one thing each breaks */
  char *path = bad_file_path ("valid.h5");
  TprofProfiledTime *pt = tprof_profiled_time_load (path, NULL);

  g_assert_nonnull (pt);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 2);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "forward");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 1), ==, "backward");
  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, 4);
  tprof_profiled_time_free (pt);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

static void
test_valid2_baseline (void)
{
  /* the same with its format-2 cache: the cache refusals come from the one
   * member each breaks */
  char *path = bad_file_path ("valid2.h5");
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (pt);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 2);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (pt, "backward")), ==, 4);
  tprof_profiled_time_free (pt);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

static void
test_missing_name_attribute (void)
{
  char *path = bad_file_path ("no-name-attribute.h5");
  TprofError error = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_load (path, &error);

  g_assert_cmpstr (error.message, ==, "");
  g_assert_nonnull (pt);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 2);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "forward");
  /* the link name un-escaped */
  g_assert_cmpstr (tprof_profiled_time_name (pt, 1), ==, "io/check%");
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (pt, "io/check%")), ==, 4);
  tprof_profiled_time_free (pt);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

/* A FIFO is refused at once: opening it must not wait for a writer. */
static void
test_fifo (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "pipe.h5", NULL);
  TprofError error = { 0 };

  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  g_assert_null (tprof_profiled_time_load (path, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_IO);
  g_assert_nonnull (strstr (error.message, "is a FIFO, not a profile"));
  g_assert_null (tprof_profile_file_open (path, &error));
  g_free (path);
  g_free (dir);
}

static void
test_bad_arguments (void)
{
  TprofError error = { 0 };

  g_assert_null (tprof_profiled_time_load (NULL, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_null (tprof_profiled_time_load ("", &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_null (tprof_profiled_time_load (g_getenv ("TPROF_H5_BAD_DIR"), &error));
  g_assert_nonnull (strstr (error.message, "is a directory"));
  /* a device would never end (and a pipe could block): refused up front */
  g_assert_null (tprof_profiled_time_load ("/dev/zero", &error));
  g_assert_cmpstr (error.message, ==, "/dev/zero: is not a regular file");
}

/* A copy of valid.h5 with @len bytes at @at replaced, for a child to load. */
typedef struct
{
  const char *name;
  const char *source;     /* a file of TPROF_H5_BAD_DIR */
  gboolean    last;       /* patch the last match, not the first */
  const char *find;       /* bytes to look for in @source ... */
  size_t      find_len;
  size_t      skip;       /* ... then patch this far after them */
  const char *patch;
  size_t      patch_len;
  const char *expected[2];
} Damage;

static const Damage damages[] = {
  /* global heap collection (variable-length strings): HDF5 1.10 itself would
   * overrun or loop forever on these */
  { "heap-size", "valid.h5", FALSE, "GCOL\1\0\0\0", 8, 8, "\xff\xff\xff\x7f\0\0\0\0", 8,
    { "damaged HDF5 global heap", "runs past the end of the file" } },
  { "heap-object-size", "valid.h5", FALSE, "GCOL\1\0\0\0", 8, 16 + 8, "\xff\xff\xff\xff\0\0\0\0", 8,
    { "damaged HDF5 global heap", "larger than the collection" } },
  { "heap-free-space-0", "valid.h5", FALSE, "GCOL\1\0\0\0", 8, 16, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16,
    { "damaged HDF5 global heap", "objects overrun it" } },
  /* in a large file, where the scan for heaps skips the sample data, the
   * last heap, after the samples */
  { "heap-after-samples", "large.h5", TRUE, "GCOL\1\0\0\0", 8, 16, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16,
    { "damaged HDF5 global heap", "objects overrun it" } },
  { "heap-after-samples-userblock", "large-userblock.h5", TRUE, "GCOL\1\0\0\0", 8, 16,
    "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16, { "damaged HDF5 global heap", "objects overrun it" } },
  /* sample data: 0.125 becomes -0.125, then NaN; rank 3 becomes 7 */
  { "negative-sample", "valid.h5", FALSE, "\0\0\0\0\0\0\xc0\x3f", 8, 7, "\xbf", 1,
    { "times[2] is negative (-0.125)" } },
  { "nan-sample", "valid.h5", FALSE, "\0\0\0\0\0\0\xc0\x3f", 8, 6, "\xf8\x7f", 2,
    { "times[2] is NaN" } },
  { "rank-sample", "valid.h5", FALSE, "\0\0\0\0\1\0\0\0\2\0\0\0\3\0\0\0", 16, 12, "\7", 1,
    { "ranks[3] is 7, outside [0, 4)" } },
};

/* A profile of our own, large enough for the loader to skip its samples
 * when it looks for damaged heaps; its long host names overflow the first
 * heap collection into one written after the samples. */
static void
make_large_profile (const char *dir)
{
  char *hosts[4];
  const size_t n = 400000;
  double *times = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n);
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  char *path = g_build_filename (dir, "large.h5", NULL);

  for (size_t i = 0; i < n; i++)
    {
      times[i] = i * 1e-6;
      ranks[i] = (int32_t) (i * 4 / n);
    }
  g_assert_cmpint (tprof_profiled_time_add (pt, "big", tprof_gathered_time_new (times, ranks, n), NULL), ==, 0);
  for (int r = 0; r < 4; r++)
    hosts[r] = g_strnfill (3000, (char) ('a' + r));
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, (const char *const *) hosts, NULL), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, NULL), ==, 0);
  for (int r = 0; r < 4; r++)
    g_free (hosts[r]);
  tprof_profiled_time_free (pt);
  g_free (times);
  g_free (ranks);
  g_free (path);
}

static void
test_damaged_bytes (gconstpointer data)
{
  const Damage *d = data;
  char *valid = bad_file_path (d->source);
  char *path = g_strdup_printf ("%s/damaged-%s.h5", g_getenv ("TPROF_H5_BAD_DIR"), d->name);

  if (g_test_subprocess ())
    {
      load_in_child (path);
    }
  else
    {
      GBytes *bytes = h5_test_read_bytes (valid);
      gsize len;
      const guint8 *orig = g_bytes_get_data (bytes, &len);
      const guint8 *hit = memmem (orig, len, d->find, d->find_len);
      guint8 *copy = g_memdup2 (orig, len);
      char *pattern;

      g_assert_nonnull (hit);
      for (const guint8 *next = hit; d->last && next != NULL;)
        {
          hit = next;
          next = memmem (hit + 1, len - (gsize) (hit + 1 - orig), d->find, d->find_len);
        }
      g_assert_cmpuint ((gsize) (hit - orig) + d->skip + d->patch_len, <=, len);
      memcpy (copy + (hit - orig) + d->skip, d->patch, d->patch_len);
      g_assert_true (g_file_set_contents (path, (const char *) copy, (gssize) len, NULL));

      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stderr ("");
      pattern = g_strdup_printf ("*message=%s: *", path);
      g_test_trap_assert_stdout (pattern);
      g_free (pattern);
      for (size_t i = 0; i < G_N_ELEMENTS (d->expected) && d->expected[i] != NULL; i++)
        {
          pattern = g_strdup_printf ("*%s*", d->expected[i]);
          g_test_trap_assert_stdout (pattern);
          g_free (pattern);
        }
      g_free (copy);
      g_bytes_unref (bytes);
    }
  g_free (path);
  g_free (valid);
}

int
main (int argc, char **argv)
{
  char *dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* children of g_test_trap_subprocess() reuse the parent's files */
  if (!g_test_subprocess ())
    {
      dir = h5_test_make_dir ();
      h5_test_run_python ("make_bad.py", dir, NULL);
      make_large_profile (dir);
      g_setenv ("TPROF_H5_BAD_DIR", dir, TRUE);
    }

  for (size_t i = 0; i < G_N_ELEMENTS (refusal_cases); i++)
    {
      char *test_path = g_strdup_printf ("/h5/refuse/%.*s",
                                         (int) (strlen (refusal_cases[i].file) - 3),
                                         refusal_cases[i].file);

      g_test_add_data_func (test_path, &refusal_cases[i], test_refusal);
      g_free (test_path);
    }
  g_test_add_func ("/h5/refuse/valid-baseline", test_valid_baseline);
  g_test_add_func ("/h5/refuse/valid2-baseline", test_valid2_baseline);
  g_test_add_func ("/h5/load/missing-name-attribute", test_missing_name_attribute);
  g_test_add_func ("/h5/load/bad-arguments", test_bad_arguments);
  g_test_add_func ("/h5/load/fifo", test_fifo);
  for (size_t i = 0; i < G_N_ELEMENTS (damages); i++)
    {
      char *test_path = g_strdup_printf ("/h5/load/damaged/%s", damages[i].name);

      g_test_add_data_func (test_path, &damages[i], test_damaged_bytes);
      g_free (test_path);
    }
  status = g_test_run ();
  if (!g_test_subprocess ())
    h5_test_cleanup ();
  g_free (dir);
  return status;
}
