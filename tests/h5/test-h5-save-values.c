/* test-h5-save-values.c — what a file cannot hold (non-finite or negative times, names that are not UTF-8) is refused where it enters and again at save. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"
#include "tprof-analysis-internal.h"

/* Exported for libtprof-capture-mpi, outside the installed headers: adds
 * without the checks of tprof_profiled_time_add(). */
extern bool _tprof_profiled_time_append (TprofProfiledTime *pt, const char *name, TprofGatheredTime *gt);

static void
assert_add_refused (double      bad,
                    const char *reason)
{
  double times[] = { 0.5, 0.25, bad, 0.125 };
  int32_t ranks[] = { 0, 1, 1, 0 };
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_add (pt, "step", h5_test_gathered (times, ranks, 4), &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_nonnull (strstr (error.message, "operation 'step': sample 2 is"));
  g_assert_nonnull (strstr (error.message, reason));
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 0);
  tprof_profiled_time_free (pt);
}

static void
test_add_refuses_bad_times (void)
{
  assert_add_refused (NAN, "not a finite time >= 0");
  assert_add_refused (INFINITY, "not a finite time >= 0");
  assert_add_refused (-1e-9, "not a finite time >= 0");
}

static void
test_add_refuses_bad_names (void)
{
  double times[] = { 0.5 };
  int32_t ranks[] = { 0 };
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_add (pt, "bad\xff", h5_test_gathered (times, ranks, 1), &error), ==, -1);
  g_assert_nonnull (strstr (error.message, "valid UTF-8"));
  g_assert_cmpint (tprof_profiled_time_add (pt, "good é", h5_test_gathered (times, ranks, 1), &error), ==, 0);
  tprof_profiled_time_free (pt);
}

static void
collect_message (const char *message,
                 void       *user_data)
{
  g_ptr_array_add (user_data, g_strdup (message));
}

/* append_time refuses what a file cannot hold, says so, and what it kept
 * saves and loads. */
static void
test_append_time_refuses (void)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt, *loaded;

  tprof_set_misuse_handler (collect_message, messages);
  tprof_time_manager_append_time (tm, "io", 0.5);
  tprof_time_manager_append_time (tm, "io", NAN);
  tprof_time_manager_append_time (tm, "io", -2.0);
  tprof_time_manager_append_time (tm, "io", INFINITY);
  tprof_set_misuse_handler (NULL, NULL);
  g_assert_cmpuint (messages->len, ==, 3);
  g_assert_nonnull (strstr (g_ptr_array_index (messages, 0), "'io' is not a finite time >= 0"));

  pt = tprof_time_manager_gather_local (tm);
  loaded = h5_test_round_trip (pt, path);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (loaded, "io")), ==, 1);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  g_free (path);
  g_free (dir);
}

/* A name that is not UTF-8 is refused where it enters, by a report that
 * shows it escaped (not raw, to a terminal), whatever records it; the
 * other operations save and load. */
static void
test_append_time_refuses_bad_names (void)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt, *loaded;
  TprofError error = { 0 };

  tprof_set_misuse_handler (collect_message, messages);
  tprof_time_manager_append_time (tm, "io", 0.5);
  tprof_time_manager_append_time (tm, "op\x1b]0;pwned\x07\xff", 0.25);
  tprof_time_manager_enable (tm);
  {
    TPROF_SCOPE ("sc\xc3ope");
  }
  tprof_time_manager_disable (tm);
  tprof_set_misuse_handler (NULL, NULL);
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (messages, 0), ==,
                   "the operation name \"op\\x1B]0;pwned\\x07\\xFF\" is not valid UTF-8; not recorded");
  g_assert_cmpstr (g_ptr_array_index (messages, 1), ==,
                   "the operation name \"sc\\xC3ope\" is not valid UTF-8; not recorded");

  pt = tprof_time_manager_gather_local (tm);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  g_assert_cmpstr (error.message, ==, "");
  loaded = tprof_profiled_time_load (path, &error);
  g_assert_nonnull (loaded);
  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, 1);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (loaded, "io")), ==, 1);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  g_free (path);
  g_free (dir);
}

/* Host names are stored as UTF-8 too: refused where they are set, with
 * the rank and the name, escaped. */
static void
test_set_hostnames_refuses_bad_names (void)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  const char *bad[] = { "node1", "host\x1b]0;pwned\x07\xff" };
  const char *good[] = { "node1", "nœud-2" };
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, bad, &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_cmpstr (error.message, ==,
                   "the host name of rank 1, \"host\\x1B]0;pwned\\x07\\xFF\", is not valid UTF-8");
  g_assert_null (tprof_profiled_time_hostname (pt, 1));
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, good, &error), ==, 0);
  g_assert_cmpstr (tprof_profiled_time_hostname (pt, 1), ==, "nœud-2");
  tprof_profiled_time_free (pt);
}

/* Samples that bypassed the checks are caught by save, and nothing is
 * written. */
static void
test_save_checks_again (void)
{
  double times[] = { 0.5, NAN };
  int32_t ranks[] = { 0, 0 };
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  TprofError error = { 0 };

  g_assert_true (_tprof_profiled_time_append (pt, "step", h5_test_gathered (times, ranks, 2)));
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, "operation 'step': sample 1 is nan"));
  h5_test_assert_dir_entries (dir, NULL, 0);
  tprof_profiled_time_free (pt);

  pt = tprof_profiled_time_new (1);
  g_assert_true (_tprof_profiled_time_append (pt, "st\xc3", h5_test_gathered (times, ranks, 1)));
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
  g_assert_nonnull (strstr (error.message, "not valid UTF-8"));
  h5_test_assert_dir_entries (dir, NULL, 0);
  tprof_profiled_time_free (pt);
  g_free (path);
  g_free (dir);
}

/* A selection whose builder marked its ranks grouped (and its times
 * valid, as a merge of spill files does) is saved as it is; a rank out of
 * range under that mark is still refused, at either end. */
static void
test_save_grouped_mark (void)
{
  double times[] = { 0.5, 0.25, 1.0, 2.0, 0.125 };
  int32_t ranks[] = { 0, 0, 1, 3, 3 };
  int32_t below[] = { -1, 0, 1, 3, 3 }, above[] = { 0, 0, 1, 3, 4 };
  const int32_t *bad[] = { below, above };
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (4), *loaded;
  TprofGatheredTime *gt = h5_test_gathered (times, ranks, 5);
  const TprofGatheredTime *got;
  TprofError error = { 0 };

  _tprof_gathered_time_set_times_valid (gt);
  _tprof_gathered_time_set_ranks_grouped (gt);
  g_assert_true (_tprof_profiled_time_append (pt, "step", gt));
  loaded = h5_test_round_trip (pt, path);
  got = tprof_profiled_time_get (loaded, "step");
  g_assert_nonnull (got);
  g_assert_cmpuint (tprof_gathered_time_count (got), ==, 5);
  g_assert_cmpmem (tprof_gathered_time_times (got), sizeof times, times, sizeof times);
  g_assert_cmpmem (tprof_gathered_time_ranks (got), sizeof ranks, ranks, sizeof ranks);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_unlink (path);
  for (int k = 0; k < 2; k++)
    {
      pt = tprof_profiled_time_new (4);
      gt = h5_test_gathered (times, bad[k], 5);
      _tprof_gathered_time_set_times_valid (gt);
      _tprof_gathered_time_set_ranks_grouped (gt);
      g_assert_true (_tprof_profiled_time_append (pt, "step", gt));
      error = (TprofError) { 0 };
      g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
      g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
      g_assert_nonnull (strstr (error.message, "operation 'step' has a rank outside [0, 4)"));
      h5_test_assert_dir_entries (dir, NULL, 0);
      tprof_profiled_time_free (pt);
    }
  g_free (path);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save-values/add-refuses-bad-times", test_add_refuses_bad_times);
  g_test_add_func ("/h5/save-values/add-refuses-bad-names", test_add_refuses_bad_names);
  g_test_add_func ("/h5/save-values/append-time-refuses", test_append_time_refuses);
  g_test_add_func ("/h5/save-values/save-checks-again", test_save_checks_again);
  g_test_add_func ("/h5/save-values/save-grouped-mark", test_save_grouped_mark);
  g_test_add_func ("/h5/save-values/append-time-refuses-bad-names", test_append_time_refuses_bad_names);
  g_test_add_func ("/h5/save-values/set-hostnames-refuses-bad-names", test_set_hostnames_refuses_bad_names);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
