/* test-profile-file-direct.c — the isolated reader's client reading samples itself (pread at the offsets its helper found): exactly the in-process samples and errors, whatever the layout. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"

static char *test_dir;

static char *
path_of (const char *name)
{
  return g_build_filename (test_dir, name, NULL);
}

/* Opens isolated; with @direct_only, a read the client cannot do itself
 * fails, so that a test knows which path ran. */
static TprofProfileFile *
open_isolated (const char *path,
               gboolean    direct_only,
               TprofError *error)
{
  TprofProfileFile *pf;

  if (direct_only)
    g_setenv ("TPROF_READER_DIRECT", "only", TRUE);
  pf = tprof_profile_file_open_isolated (path, error);
  g_unsetenv ("TPROF_READER_DIRECT");
  return pf;
}

static void
assert_same_values (const char *what,
                    const void *a,
                    const void *b,
                    size_t      n,
                    size_t      size)
{
  g_assert_true ((a == NULL) == (b == NULL));
  for (size_t i = 0; a != NULL && i < n; i++)
    if (memcmp ((const char *) a + i * size, (const char *) b + i * size, size) != 0)
      g_error ("%s[%zu] differs", what, i);
}

/* Element by element, the timeline included. */
static void
assert_same_samples (const TprofGatheredTime *a,
                     const TprofGatheredTime *b)
{
  size_t n = tprof_gathered_time_count (a);

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpuint (tprof_gathered_time_count (b), ==, n);
  if (n == 0)
    return;
  assert_same_values ("times", tprof_gathered_time_times (a), tprof_gathered_time_times (b), n, sizeof (double));
  assert_same_values ("ranks", tprof_gathered_time_ranks (a), tprof_gathered_time_ranks (b), n, sizeof (int32_t));
  assert_same_values ("starts", tprof_gathered_time_starts (a), tprof_gathered_time_starts (b), n,
                      sizeof (double));
  assert_same_values ("threads", tprof_gathered_time_threads (a), tprof_gathered_time_threads (b), n,
                      sizeof (int32_t));
}

static void
assert_same_stats (const TprofOperationStats *a,
                   const TprofOperationStats *b,
                   int                        world_size)
{
  size_t w = (size_t) world_size;

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  /* field by field: the struct's trailing padding is not data */
  g_assert_cmpuint (a->summary.count, ==, b->summary.count);
  g_assert_cmpuint (a->summary.rank_count, ==, b->summary.rank_count);
  assert_same_values ("summary", &a->summary.sum, &b->summary.sum, 10, sizeof (double));
  g_assert_cmpint (a->summary.slowest_rank, ==, b->summary.slowest_rank);
  assert_same_values ("rank_count", a->rank_count, b->rank_count, w, sizeof (int64_t));
  assert_same_values ("rank_sum", a->rank_sum, b->rank_sum, w, sizeof (double));
  assert_same_values ("rank_min", a->rank_min, b->rank_min, w, sizeof (double));
  assert_same_values ("rank_max", a->rank_max, b->rank_max, w, sizeof (double));
  assert_same_values ("rank_recorded", a->rank_recorded, b->rank_recorded, w, sizeof (int64_t));
}

/* Operation @op's statistics isolated as in process: where the file has
 * none cached and the client reads the samples itself (@direct), it
 * summarizes them too (so TPROF_READER_DIRECT=only, @apart, allows it);
 * else the helper does (refused under =only), as it does for @apart_any. */
static void
assert_summarizes_as_in_process (TprofProfileFile *here,
                                 TprofProfileFile *apart,
                                 TprofProfileFile *apart_any,
                                 size_t            op,
                                 gboolean          direct)
{
  int world_size = tprof_profile_file_world_size (here);
  TprofError error = { 0 };
  const TprofOperationStats *a = tprof_profile_file_operation_stats (here, op, &error);
  const TprofOperationStats *b;

  g_assert_cmpstr (error.message, ==, "");
  b = tprof_profile_file_operation_stats (apart, op, &error);
  if (!direct && !tprof_profile_file_has_cached_stats (here, op) && tprof_profile_file_sample_count (here, op) > 0)
    {
      g_assert_null (b);
      g_assert_nonnull (strstr (error.message, "the helper would summarize it"));
      tprof_error_clear (&error);
    }
  else
    {
      g_assert_cmpstr (error.message, ==, "");
      assert_same_stats (a, b, world_size);
    }
  assert_same_stats (a, tprof_profile_file_operation_stats (apart_any, op, &error), world_size);
  g_assert_cmpstr (error.message, ==, "");
}

/* Every operation of @name, whole and on some ranks, read isolated (the
 * client's own reads where @direct, else the helper's) and in process. */
static void
assert_reads_as_in_process (const char *name,
                            gboolean    direct)
{
  g_autofree char *path = path_of (name);
  const int32_t some[] = { 5, 0, 3, 99, 0 };
  TprofError error = { 0 };
  TprofProfileFile *here = tprof_profile_file_open (path, &error);
  TprofProfileFile *apart = open_isolated (path, TRUE, &error);
  TprofProfileFile *apart_any = open_isolated (path, FALSE, &error);

  g_assert_cmpstr (error.message, ==, "");
  g_assert_cmpuint (tprof_profile_file_n_operations (here), >, 0);
  for (size_t op = 0; op < tprof_profile_file_n_operations (here); op++)
    assert_summarizes_as_in_process (here, apart, apart_any, op, direct);
  for (size_t op = 0; op < tprof_profile_file_n_operations (here); op++)
    for (int subset = 0; subset < 2; subset++)
      {
        const int32_t *ranks = subset ? some : NULL;
        size_t n_ranks = subset ? G_N_ELEMENTS (some) : 0;
        TprofGatheredTime *a = tprof_profile_file_read_operation (here, op, ranks, n_ranks, NULL, NULL, NULL, &error);
        TprofGatheredTime *b, *c;

        g_assert_cmpstr (error.message, ==, "");
        b = tprof_profile_file_read_operation (apart, op, ranks, n_ranks, NULL, NULL, NULL, &error);
        /* an empty operation has nothing to read, whatever its layout */
        if (!direct && tprof_profile_file_sample_count (here, op) > 0)
          {
            /* the helper would read it: refused under TPROF_READER_DIRECT=only */
            g_assert_null (b);
            g_assert_nonnull (strstr (error.message, "the helper would read it"));
            tprof_error_clear (&error);
          }
        else
          {
            g_assert_cmpstr (error.message, ==, "");
            assert_same_samples (a, b);
          }
        c = tprof_profile_file_read_operation (apart_any, op, ranks, n_ranks, NULL, NULL, NULL, &error);
        g_assert_cmpstr (error.message, ==, "");
        assert_same_samples (a, c);
        tprof_gathered_time_free (a);
        tprof_gathered_time_free (b);
        tprof_gathered_time_free (c);
      }
  tprof_profile_file_close (here);
  tprof_profile_file_close (apart);
  tprof_profile_file_close (apart_any);
}

/* A profile written by tprof (contiguous, little-endian, with a
 * timeline and a cache), in @dir. */
static char *
write_tprof_profile (const char *name,
                     size_t      n)
{
  char *path = path_of (name);
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  GRand *rand = g_rand_new_with_seed (42);
  TprofError error = { 0 };

  for (int k = 0; k < 3; k++)
    {
      size_t m = k == 2 ? 0 : n / (size_t) (k + 1);
      double *times = g_new (double, m + 1), *starts = g_new (double, m + 1);
      int32_t *ranks = g_new (int32_t, m + 1), *threads = g_new (int32_t, m + 1);
      TprofGatheredTime *gt;
      char op[16];

      for (size_t i = 0; i < m; i++)
        {
          times[i] = g_rand_double_range (rand, 1e-6, 1e-2);
          ranks[i] = (int32_t) (i * 4 / m);
          starts[i] = (double) i * 1e-3;
          threads[i] = g_rand_int_range (rand, 0, 3);
        }
      gt = tprof_gathered_time_new_take (times, ranks, m);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      g_snprintf (op, sizeof op, "op%d", k);
      g_assert_cmpint (tprof_profiled_time_add (pt, op, gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  g_rand_free (rand);
  return path;
}

static void
test_tprof_contiguous (void)
{
  g_autofree char *path = write_tprof_profile ("tprof.h5", 300000);

  assert_reads_as_in_process ("tprof.h5", TRUE);
  /* and h5py's contiguous files of tests/h5/write_format2.py */
  assert_reads_as_in_process ("v2.h5", TRUE);
  assert_reads_as_in_process ("v2-interleaved.h5", TRUE);
  assert_reads_as_in_process ("v1.h5", TRUE);
}

static void
test_other_types (void)
{
  /* converted by the client: byte order, float32, narrow and wide integers */
  assert_reads_as_in_process ("layout-big-endian.h5", TRUE);
  assert_reads_as_in_process ("layout-big-endian-f4.h5", TRUE);
  assert_reads_as_in_process ("layout-narrow.h5", TRUE);
  /* its cache has rank_recorded: checked as sampled, so it must travel */
  assert_reads_as_in_process ("layout-sampled.h5", TRUE);
}

static void
test_other_layouts (void)
{
  /* the helper reads these with HDF5, the client copies */
  assert_reads_as_in_process ("layout-chunked.h5", FALSE);
  assert_reads_as_in_process ("layout-compact.h5", FALSE);
}

/* Stored NaN, negative, out-of-range or too wide values: refused with the
 * in-process reader's message, by the client's own read. */
static void
test_bad_values (void)
{
  static const char *const files[][2] = {
    { "bad-value-nan.h5", "times[4321] is NaN" },
    { "bad-value-negative.h5", "times[8000] is negative (-0.5)" },
    { "bad-value-nan-big-endian.h5", "times[17] is NaN" },
    { "bad-value-rank-wide.h5", "ranks[5000] is 5000000000, outside [0, 6)" },
    { "bad-value-rank-unsigned.h5", "ranks[6000] is 18446744073709551615, outside [0, 6)" },
    { "bad-value-start-infinite.h5", "starts[700] is not finite" },
    { "bad-value-thread-negative.h5", "threads[800] is negative" },
    { "bad-value-sampled.h5", "rank 0 has samples in" },
  };
  guint n_summarized = 0;

  for (size_t i = 0; i < G_N_ELEMENTS (files); i++)
    for (int subset = 0; subset < 2; subset++)
      {
        g_autofree char *path = path_of (files[i][0]);
        const int32_t some[] = { 0, 2, 3, 4, 5 };
        TprofError here_error = { 0 }, apart_error = { 0 };
        TprofProfileFile *here = tprof_profile_file_open (path, &here_error);
        TprofProfileFile *apart = open_isolated (path, TRUE, &apart_error);

        g_assert_nonnull (here);
        g_assert_nonnull (apart);
        g_assert_null (tprof_profile_file_read_operation (here, 0, subset ? some : NULL, subset ? 5 : 0, NULL,
                                                          NULL, NULL, &here_error));
        g_assert_null (tprof_profile_file_read_operation (apart, 0, subset ? some : NULL, subset ? 5 : 0, NULL,
                                                          NULL, NULL, &apart_error));
        g_assert_cmpint (apart_error.code, ==, TPROF_ERROR_FORMAT);
        g_assert_cmpstr (apart_error.message, ==, here_error.message);
        g_assert_true (g_str_has_prefix (apart_error.message, path));
        g_assert_nonnull (strstr (apart_error.message, "operation 'op0'"));
        g_assert_nonnull (strstr (apart_error.message, files[i][1]));
        /* summarized by the client's own read: the same refusal */
        if (!subset && !tprof_profile_file_has_cached_stats (here, 0))
          {
            g_assert_null (tprof_profile_file_operation_stats (here, 0, &here_error));
            g_assert_null (tprof_profile_file_operation_stats (apart, 0, &apart_error));
            g_assert_cmpstr (apart_error.message, ==, here_error.message);
            g_assert_nonnull (strstr (apart_error.message, files[i][1]));
            n_summarized++;
          }
        tprof_profile_file_close (here);
        tprof_profile_file_close (apart);
      }
  g_assert_cmpuint (n_summarized, >, 0);
}

/* A file cut short after it was opened: the samples run past its end. A
 * clear error naming the file and operation, as in process; no crash. */
static void
test_truncated (void)
{
  g_autofree char *path = write_tprof_profile ("truncated.h5", 200000);
  TprofError here_error = { 0 }, apart_error = { 0 };
  TprofProfileFile *here = tprof_profile_file_open (path, &here_error);
  TprofProfileFile *apart = open_isolated (path, TRUE, &apart_error);
  GStatBuf st;

  g_assert_nonnull (here);
  g_assert_nonnull (apart);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (truncate (path, st.st_size / 3), ==, 0);
  for (size_t op = 0; op < 2; op++)
    {
      g_assert_null (tprof_profile_file_read_operation (here, op, NULL, 0, NULL, NULL, NULL, &here_error));
      g_assert_null (tprof_profile_file_read_operation (apart, op, NULL, 0, NULL, NULL, NULL, &apart_error));
      g_assert_cmpstr (apart_error.message, ==, here_error.message);
      g_assert_true (g_str_has_prefix (apart_error.message, path));
      g_assert_nonnull (strstr (apart_error.message, "runs past the end of the file"));
    }
  g_assert_nonnull (strstr (apart_error.message, "operation 'op1'"));
  tprof_profile_file_close (here);
  tprof_profile_file_close (apart);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  h5_test_run_python ("write_format2.py", test_dir, NULL);
  h5_test_run_python ("write_layouts.py", test_dir, NULL);
  g_test_add_func ("/h5/isolated/direct/tprof-contiguous", test_tprof_contiguous);
  g_test_add_func ("/h5/isolated/direct/other-types", test_other_types);
  g_test_add_func ("/h5/isolated/direct/other-layouts", test_other_layouts);
  g_test_add_func ("/h5/isolated/direct/bad-values", test_bad_values);
  g_test_add_func ("/h5/isolated/direct/truncated", test_truncated);
  status = g_test_run ();
  h5_test_cleanup ();
  g_free (test_dir);
  return status;
}
