/* test-profile.c — TprofProfile: what a loaded profile tells the window, read whole or lazily. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <math.h>
#include <tprof/capture.h>

#include "app-test-util.h"
#include "tprof-profile.h"

static const char * const op_names[] = {
  "forward", "allreduce", "io/checkpoint", "empty", "constant", "zeros", "big",
};

typedef struct
{
  GAsyncResult *result;
} Loaded;

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Loaded *loaded = user_data;

  loaded->result = g_object_ref (result);
}

static gboolean
loaded_done (gpointer data)
{
  return ((Loaded *) data)->result != NULL;
}

static TprofProfile *
load_profile (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TprofProfile *profile = _tprof_profile_new (file);
  g_autoptr(GError) error = NULL;
  Loaded loaded = { NULL };

  _tprof_profile_load_async (profile, NULL, load_done_cb, &loaded);
  app_test_wait (loaded_done, &loaded);
  g_assert_true (_tprof_profile_load_finish (profile, loaded.result, &error));
  g_assert_no_error (error);
  g_object_unref (loaded.result);
  return profile;
}

/* A small profile is read whole while it opens: every operation's samples
 * are at hand, and the table's row is the cache, libcapture's numbers. */
static void
test_profile_metadata (void)
{
  g_autofree char *dir = app_test_make_dir ();
  g_autofree char *path = app_test_make_profile (dir, "basic.h5", APP_TEST_PROFILE_BASIC);
  g_autoptr(TprofProfile) profile = load_profile (path);

  g_assert_cmpfloat (_tprof_profile_get_progress (profile), ==, 1.0);
  g_assert_cmpint (_tprof_profile_get_world_size (profile), ==, APP_TEST_BASIC_WORLD);
  g_assert_cmpuint (_tprof_profile_get_n_operations (profile), ==, APP_TEST_BASIC_N_OPS);
  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    {
      g_autoptr(TprofOperationSamples) samples = _tprof_profile_ref_samples (profile, i);
      const TprofSummary *cached = _tprof_profile_get_summary (profile, i);
      const TprofSummary *indexed;

      g_assert_cmpstr (_tprof_profile_get_name (profile, i), ==, op_names[i]);
      g_assert_nonnull (samples);
      indexed = tprof_operation_index_summary (_tprof_operation_samples_get_index (samples));
      g_assert_cmpuint (cached->count, ==, indexed->count);
      app_test_assert_close (cached->sum, indexed->sum, 1e-12, "sum");
      app_test_assert_close (cached->median, indexed->median, 0.0, "median");
      app_test_assert_close (cached->p99, indexed->p99, 0.0, "p99");
      g_assert_cmpint (cached->slowest_rank, ==, indexed->slowest_rank);
    }
  g_assert_null (_tprof_profile_get_name (profile, APP_TEST_BASIC_N_OPS));
  g_assert_null (_tprof_profile_ref_samples (profile, APP_TEST_BASIC_N_OPS));
  g_assert_null (_tprof_profile_get_summary (profile, APP_TEST_BASIC_N_OPS));
  g_assert_cmpstr (_tprof_profile_get_hostname (profile, 0), ==, "node-a");
  g_assert_cmpstr (_tprof_profile_get_hostname (profile, 7), ==, "node-b");
  g_assert_null (_tprof_profile_get_hostname (profile, 8));
  g_assert_cmpuint (_tprof_profile_get_sample_count (profile, 6), ==, 16000);
  g_assert_cmpuint (_tprof_profile_get_sample_count (profile, 3), ==, 0);
  /* a profile without a timeline names nobody, and is done looking */
  g_assert_null (_tprof_profile_get_stragglers (profile, NULL));
  g_assert_false (_tprof_profile_is_finding_stragglers (profile));

  app_test_remove_dir (dir);
}

/* Every field equal, NaN to NaN (no memcmp: the struct has padding). */
static void
assert_summary_equal (const TprofSummary *a,
                      const TprofSummary *b)
{
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpuint (a->rank_count, ==, b->rank_count);
  app_test_assert_close (a->sum, b->sum, 0.0, "sum");
  app_test_assert_close (a->mean, b->mean, 0.0, "mean");
  app_test_assert_close (a->std, b->std, 0.0, "std");
  app_test_assert_close (a->min, b->min, 0.0, "min");
  app_test_assert_close (a->max, b->max, 0.0, "max");
  app_test_assert_close (a->median, b->median, 0.0, "median");
  app_test_assert_close (a->p95, b->p95, 0.0, "p95");
  app_test_assert_close (a->p99, b->p99, 0.0, "p99");
  app_test_assert_close (a->imbalance, b->imbalance, 0.0, "imbalance");
  app_test_assert_close (a->imbalance_time, b->imbalance_time, 0.0, "imbalance time");
  g_assert_cmpint (a->slowest_rank, ==, b->slowest_rank);
}

typedef struct
{
  GAsyncResult *result;
} Read;

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ((Read *) user_data)->result = g_object_ref (result);
}

static gboolean
read_done (gpointer data)
{
  return ((Read *) data)->result != NULL;
}

static TprofOperationSamples *
read_samples (TprofProfile *profile,
              gsize         op,
              GCancellable *cancellable,
              GError      **error)
{
  Read read = { NULL };
  TprofOperationSamples *samples;

  _tprof_profile_read_samples_async (profile, op, cancellable, read_done_cb, &read);
  app_test_wait (read_done, &read);
  samples = _tprof_profile_read_samples_finish (profile, read.result, error);
  g_object_unref (read.result);
  return samples;
}

/* A large profile (here: every profile, TPROF_VIEWER_EAGER_SAMPLES=0)
 * opens on its cache alone; an operation's samples are read on request,
 * cancellably; under a rank filter an unread operation gets what the
 * per-rank totals give and nothing else. */
static void
test_profile_lazy (void)
{
  g_autofree char *dir = app_test_make_dir ();
  g_autofree char *path = app_test_make_profile (dir, "basic.h5", APP_TEST_PROFILE_BASIC);
  g_autoptr(TprofProfile) eager = load_profile (path);
  g_autoptr(TprofProfile) lazy = NULL;
  g_autoptr(TprofOperationSamples) samples = NULL;
  g_autoptr(TprofOperationSamples) again = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TprofOperationSamples) whole = _tprof_profile_ref_samples (eager, 0);
  guint8 mask[APP_TEST_BASIC_WORLD] = { 0, 1, 1, 0, 0, 1, 0, 0 };
  TprofSummary unread, indexed, expected;

  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  lazy = load_profile (path);
  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");

  for (gsize i = 0; i < APP_TEST_BASIC_N_OPS; i++)
    {
      g_assert_null (_tprof_profile_ref_samples (lazy, i));
      assert_summary_equal (_tprof_profile_get_summary (lazy, i), _tprof_profile_get_summary (eager, i));
    }

  /* forward under ranks 1, 2 and 5: totals are exact, quantiles unknown */
  g_assert_true (tprof_operation_index_summarize (_tprof_operation_samples_get_index (whole), mask, &expected));
  _tprof_profile_summarize (lazy, 0, NULL, mask, &unread);
  g_assert_cmpuint (unread.count, ==, expected.count);
  app_test_assert_close (unread.sum, expected.sum, 1e-12, "sum");
  app_test_assert_close (unread.max, expected.max, 0.0, "max");
  app_test_assert_close (unread.imbalance_time, expected.imbalance_time, 1e-9, "imbalance time");
  g_assert_cmpint (unread.slowest_rank, ==, 5);
  g_assert_true (isnan (unread.median) && isnan (unread.p99) && isnan (unread.std));

  /* a cancelled read fails as such, and the next read works */
  g_cancellable_cancel (cancelled);
  g_assert_null (read_samples (lazy, 0, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (_tprof_profile_ref_samples (lazy, 0));

  samples = read_samples (lazy, 0, NULL, NULL);
  g_assert_nonnull (samples);
  g_assert_cmpfloat (_tprof_profile_get_read_progress (lazy), ==, 1.0);
  again = _tprof_profile_ref_samples (lazy, 0);
  g_assert_true (again == samples);
  _tprof_profile_summarize (lazy, 0, samples, mask, &indexed);
  assert_summary_equal (&indexed, &expected);
  g_assert_cmpuint (tprof_operation_index_count (_tprof_operation_samples_get_index (samples)), ==,
                    _tprof_profile_get_sample_count (lazy, 0));

  _tprof_profile_close (lazy);
  app_test_remove_dir (dir);
}

/* A sampled operation not read yet, under a rank filter: count, sum and
 * mean of what the ranks shown recorded (not of the stored subset), no
 * std or quantiles. */
static void
test_profile_sampled_unread (void)
{
  g_autofree char *dir = app_test_make_dir ();
  g_autofree char *path = app_test_make_profile (dir, "sampled.h5", APP_TEST_PROFILE_SAMPLED);
  g_autoptr(TprofProfile) lazy = NULL;
  guint8 mask[3] = { 1, 1, 0 };
  TprofSummary unread;

  g_setenv ("TPROF_VIEWER_EAGER_SAMPLES", "0", TRUE);
  lazy = load_profile (path);
  g_unsetenv ("TPROF_VIEWER_EAGER_SAMPLES");
  g_assert_true (g_str_equal (_tprof_profile_get_name (lazy, 0), "step"));
  g_assert_true (_tprof_profile_is_sampled (lazy, 0));
  g_assert_false (_tprof_profile_is_sampled (lazy, 1));
  _tprof_profile_summarize (lazy, 0, NULL, mask, &unread);
  g_assert_cmpuint (unread.count, ==, 1400);
  app_test_assert_close (unread.sum, 37.0, 1e-12, "sum");
  app_test_assert_close (unread.mean, 37.0 / 1400, 1e-12, "mean");
  app_test_assert_close (unread.min, 0.0005, 0.0, "min");
  app_test_assert_close (unread.max, 0.3, 0.0, "max");
  g_assert_cmpint (unread.slowest_rank, ==, 0);
  g_assert_true (isnan (unread.median) && isnan (unread.std));
  _tprof_profile_close (lazy);
  app_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/profile/metadata", test_profile_metadata);
  g_test_add_func ("/app/profile/lazy", test_profile_lazy);
  g_test_add_func ("/app/profile/sampled-unread", test_profile_sampled_unread);

  return g_test_run ();
}
