/* test-profile-file.c — TprofProfileFile: metadata and cached statistics without samples, rank reads, cancel and progress, against h5py and numpy. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "h5-test-util.h"

#define N_VALUES 12  /* count, rank_count, sum, mean, std, min, max, median, p95, p99, imbalance, slowest */

typedef struct
{
  char   file[64];
  char   op[64];
  double values[N_VALUES];
} Expected;

static char *test_dir;
static GArray *expected;  /* of Expected, from write_format2.py */

static char *
path_of (const char *name)
{
  return g_build_filename (test_dir, name, NULL);
}

static void
load_expected (void)
{
  char *path = path_of ("expected.txt"), *text = NULL;
  char **lines;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  expected = g_array_new (FALSE, TRUE, sizeof (Expected));
  lines = g_strsplit (text, "\n", -1);
  for (char **line = lines; *line != NULL && **line != '\0'; line++)
    {
      char **fields = g_strsplit (*line, "\t", -1);
      Expected e = { 0 };

      g_assert_cmpuint (g_strv_length (fields), ==, 2 + N_VALUES);
      g_strlcpy (e.file, fields[0], sizeof e.file);
      g_strlcpy (e.op, fields[1], sizeof e.op);
      for (int i = 0; i < N_VALUES; i++)
        e.values[i] = g_ascii_strtod (fields[2 + i], NULL);
      g_array_append_val (expected, e);
      g_strfreev (fields);
    }
  g_strfreev (lines);
  g_free (text);
  g_free (path);
}

static const Expected *
find_expected (const char *file,
               const char *op)
{
  for (guint i = 0; i < expected->len; i++)
    {
      const Expected *e = &g_array_index (expected, Expected, i);

      if (g_str_equal (e->file, file) && g_str_equal (e->op, op))
        return e;
    }
  g_assert_not_reached ();
}

static void
assert_close (double got,
              double want)
{
  if (isnan (want))
    g_assert_true (isnan (got));
  else
    g_assert_cmpfloat_with_epsilon (got, want, 1e-9 * fmax (fabs (want), 1e-300));
}

/* The statistics of every operation of @name equal numpy's. */
static void
assert_stats_match_numpy (const char *name,
                          bool        cached)
{
  char *path = path_of (name);
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, &error);

  g_assert_cmpstr (error.message, ==, "");
  for (size_t op = 0; op < tprof_profile_file_n_operations (pf); op++)
    {
      const Expected *e = find_expected (name, tprof_profile_file_operation_name (pf, op));
      const TprofOperationStats *stats;
      const TprofSummary *s;

      g_assert_true (tprof_profile_file_has_cached_stats (pf, op) == cached);
      stats = tprof_profile_file_operation_stats (pf, op, &error);
      g_assert_nonnull (stats);
      s = &stats->summary;
      g_assert_cmpuint (s->count, ==, (size_t) e->values[0]);
      g_assert_cmpuint (s->rank_count, ==, (size_t) e->values[1]);
      assert_close (s->sum, e->values[2]);
      assert_close (s->mean, e->values[3]);
      assert_close (s->std, e->values[4]);
      assert_close (s->min, e->values[5]);
      assert_close (s->max, e->values[6]);
      assert_close (s->median, e->values[7]);
      assert_close (s->p95, e->values[8]);
      assert_close (s->p99, e->values[9]);
      assert_close (s->imbalance, e->values[10]);
      g_assert_cmpint (s->slowest_rank, ==, (int) e->values[11]);
      /* rank 1 records nothing in these files */
      g_assert_cmpint (stats->rank_count[1], ==, 0);
      g_assert_true (isnan (stats->rank_min[1]) && isnan (stats->rank_max[1]));
      g_assert_true (tprof_profile_file_has_cached_stats (pf, op) == cached);
      /* kept: the same pointer again */
      g_assert_true (tprof_profile_file_operation_stats (pf, op, NULL) == stats);
    }
  tprof_profile_file_close (pf);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

static void
test_open_metadata (void)
{
  static const char *const names[] = { "op0", "io/step%1", "op2", "op3" };
  static const uint64_t counts[] = { 5000, 300000, 1, 0 };
  char *path = path_of ("v2.h5");
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, &error);

  g_assert_nonnull (pf);
  g_assert_cmpstr (tprof_profile_file_path (pf), ==, path);
  g_assert_cmpint (tprof_profile_file_format_version (pf), ==, 2);
  g_assert_cmpint (tprof_profile_file_world_size (pf), ==, 6);
  g_assert_cmpuint (tprof_profile_file_n_operations (pf), ==, 4);
  for (size_t op = 0; op < 4; op++)
    {
      g_assert_cmpstr (tprof_profile_file_operation_name (pf, op), ==, names[op]);
      g_assert_cmpuint (tprof_profile_file_find_operation (pf, names[op]), ==, op);
      g_assert_cmpuint (tprof_profile_file_sample_count (pf, op), ==, counts[op]);
      g_assert_true (tprof_profile_file_has_cached_stats (pf, op));
    }
  g_assert_null (tprof_profile_file_operation_name (pf, 4));
  g_assert_cmpuint (tprof_profile_file_find_operation (pf, "absent"), ==, (size_t) -1);
  g_assert_cmpstr (tprof_profile_file_hostname (pf, 3), ==, "node1");
  g_assert_null (tprof_profile_file_hostname (pf, 6));
  g_assert_null (tprof_profile_file_producer (pf));
  tprof_profile_file_close (pf);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

static void
test_stats_from_cache (void)
{
  assert_stats_match_numpy ("v2.h5", true);
  assert_stats_match_numpy ("v2-interleaved.h5", true);
}

static void
test_stats_without_cache (void)
{
  assert_stats_match_numpy ("v1.h5", false);
}

/* In v2-damaged.h5 every byte of one operation's `times` is NaN: opening
 * and the statistics succeed only because no sample is read. */
static void
test_open_reads_no_samples (void)
{
  char *path = path_of ("v2-damaged.h5");
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, &error);
  size_t damaged;
  TprofGatheredTime *gt;
  char *message;

  g_assert_cmpstr (error.message, ==, "");
  damaged = tprof_profile_file_find_operation (pf, "io/step%1");
  for (size_t op = 0; op < tprof_profile_file_n_operations (pf); op++)
    g_assert_nonnull (tprof_profile_file_operation_stats (pf, op, &error));
  g_assert_cmpuint (tprof_profile_file_operation_stats (pf, damaged, NULL)->summary.count, ==, 300000);

  gt = tprof_profile_file_read_operation (pf, damaged, NULL, 0, NULL, NULL, NULL, &error);
  g_assert_null (gt);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  message = g_strdup_printf ("%s: operation 'io/step%%1': times[0] is NaN", path);
  g_assert_true (g_str_has_prefix (error.message, message));
  g_free (message);
  gt = tprof_profile_file_read_operation (pf, 0, NULL, 0, NULL, NULL, NULL, &error);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, 5000);
  tprof_gathered_time_free (gt);
  tprof_profile_file_close (pf);

  /* the full load reads everything, and refuses */
  g_assert_null (tprof_profiled_time_load (path, &error));
  g_assert_nonnull (strstr (error.message, "times[0] is NaN"));
  h5_test_assert_no_open_objects ();
  g_free (path);
}

/* Ranks 5, 3, 0 (repeated, unordered, with ranks outside the world) give
 * what h5py and numpy select. */
static void
assert_rank_reads (const char *name)
{
  static const int32_t ranks[] = { 5, 3, 0, 3, 99, -1 };
  char *path = path_of (name);
  TprofProfileFile *pf = tprof_profile_file_open (path, NULL);

  g_assert_nonnull (pf);
  for (size_t op = 0; op < tprof_profile_file_n_operations (pf); op++)
    {
      char *base = g_strdup_printf ("%s/sel-%s-%zu", test_dir, name, op);
      char *times_path = g_strconcat (base, ".f64", NULL), *ranks_path = g_strconcat (base, ".i32", NULL);
      char *want_times = NULL, *want_ranks = NULL;
      gsize times_len = 0, ranks_len = 0;
      TprofError error = { 0 };
      TprofGatheredTime *gt = tprof_profile_file_read_operation (pf, op, ranks, G_N_ELEMENTS (ranks),
                                                                 NULL, NULL, NULL, &error);

      g_assert_cmpstr (error.message, ==, "");
      g_assert_true (g_file_get_contents (times_path, &want_times, &times_len, NULL));
      g_assert_true (g_file_get_contents (ranks_path, &want_ranks, &ranks_len, NULL));
      g_assert_cmpuint (tprof_gathered_time_count (gt), ==, times_len / sizeof (double));
      if (times_len > 0)
        {
          g_assert_cmpmem (tprof_gathered_time_times (gt), times_len, want_times, times_len);
          g_assert_cmpmem (tprof_gathered_time_ranks (gt), ranks_len, want_ranks, ranks_len);
        }
      tprof_gathered_time_free (gt);
      g_free (want_times);
      g_free (want_ranks);
      g_free (times_path);
      g_free (ranks_path);
      g_free (base);
    }
  tprof_profile_file_close (pf);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

static void
test_read_ranks (void)
{
  assert_rank_reads ("v2.h5");
  assert_rank_reads ("v2-interleaved.h5");
  assert_rank_reads ("v1.h5");
}

typedef struct
{
  GArray       *fractions;
  volatile int *cancel;    /* set at the first call when not NULL */
} ProgressLog;

static void
log_progress (double fraction,
              void  *user_data)
{
  ProgressLog *log = user_data;

  g_array_append_val (log->fractions, fraction);
  if (log->cancel != NULL)
    *log->cancel = 1;
}

static void
test_progress_and_cancel (void)
{
  char *path = path_of ("v2.h5");
  TprofProfileFile *pf = tprof_profile_file_open (path, NULL);
  size_t op = tprof_profile_file_find_operation (pf, "io/step%1");
  volatile int cancel = 1;
  ProgressLog log = { g_array_new (FALSE, FALSE, sizeof (double)), NULL };
  TprofError error = { 0 };
  TprofGatheredTime *gt;

  gt = tprof_profile_file_read_operation (pf, op, NULL, 0, log_progress, &log, &cancel, &error);
  g_assert_null (gt);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_CANCELLED);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, "operation 'io/step%1'"));

  /* cancelled from the progress callback, between blocks */
  cancel = 0;
  log.cancel = &cancel;
  g_assert_null (tprof_profile_file_read_operation (pf, op, NULL, 0, log_progress, &log, &cancel, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_CANCELLED);

  cancel = 0;
  log.cancel = NULL;
  g_array_set_size (log.fractions, 0);
  gt = tprof_profile_file_read_operation (pf, op, NULL, 0, log_progress, &log, &cancel, &error);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, 300000);
  g_assert_cmpuint (log.fractions->len, >=, 2);
  for (guint i = 1; i < log.fractions->len; i++)
    g_assert_cmpfloat (g_array_index (log.fractions, double, i), >=, g_array_index (log.fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (log.fractions, double, log.fractions->len - 1), ==, 1.0);
  tprof_gathered_time_free (gt);
  g_array_unref (log.fractions);
  tprof_profile_file_close (pf);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

/* Broken caches from make_bad.py: open refuses what it can see; what only
 * the samples contradict is refused by the reads that see it. */
static void
test_bad_cache (void)
{
  char *path = path_of ("cache-nan-min.h5");
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, &error);
  const int32_t rank0 = 0, rank2 = 2;
  size_t op;

  g_assert_null (pf);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, "operation 'backward': bad cached statistics: rank_min[2] is nan"));
  g_free (path);

  path = path_of ("cache-sum-vs-samples.h5");
  pf = tprof_profile_file_open (path, &error);
  g_assert_nonnull (pf);
  op = tprof_profile_file_find_operation (pf, "backward");
  g_assert_nonnull (tprof_profile_file_operation_stats (pf, op, &error));
  g_assert_null (tprof_profile_file_read_operation (pf, op, NULL, 0, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error.message, "operation 'backward': the cached statistics do not match"));
  g_assert_null (tprof_profile_file_read_operation (pf, op, &rank2, 1, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error.message, "rank 2: rank_sum is"));
  /* rank 0 alone agrees with its cache */
  tprof_gathered_time_free (tprof_profile_file_read_operation (pf, op, &rank0, 1, NULL, NULL, NULL, &error));
  g_assert_cmpstr (error.message, ==, "");
  tprof_profile_file_close (pf);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

static void
test_bad_arguments (void)
{
  char *path = path_of ("v2.h5");
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, NULL);

  g_assert_null (tprof_profile_file_open ("", &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_null (tprof_profile_file_operation_stats (pf, 99, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_null (tprof_profile_file_read_operation (pf, 99, NULL, 0, NULL, NULL, NULL, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_cmpuint (tprof_profile_file_sample_count (pf, 99), ==, 0);
  tprof_profile_file_close (pf);
  tprof_profile_file_close (NULL);
  g_free (path);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  h5_test_run_python ("write_format2.py", test_dir, NULL);
  h5_test_run_python ("make_bad.py", test_dir, NULL);
  load_expected ();

  g_test_add_func ("/h5/profile-file/open-metadata", test_open_metadata);
  g_test_add_func ("/h5/profile-file/stats-from-cache", test_stats_from_cache);
  g_test_add_func ("/h5/profile-file/stats-without-cache", test_stats_without_cache);
  g_test_add_func ("/h5/profile-file/open-reads-no-samples", test_open_reads_no_samples);
  g_test_add_func ("/h5/profile-file/read-ranks", test_read_ranks);
  g_test_add_func ("/h5/profile-file/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/h5/profile-file/bad-cache", test_bad_cache);
  g_test_add_func ("/h5/profile-file/bad-arguments", test_bad_arguments);
  status = g_test_run ();
  h5_test_cleanup ();
  g_array_unref (expected);
  g_free (test_dir);
  return status;
}
