/* test-h5-save-refusal-order.c — a save of many operations, whose second thread checks them while the first groups them and lays out the file, refuses with the first bad operation's message, as one checking each before grouping it would. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"
#include "tprof-analysis-internal.h"

/* Exported for libtprof-capture-mpi, outside the installed headers: adds
 * without the checks of tprof_profiled_time_add(). */
extern bool _tprof_profiled_time_append (TprofProfiledTime *pt, const char *name, TprofGatheredTime *gt);

/* Enough operations and samples for the save's second thread. */
#define N_OPS      10000
#define PER_OP     8
#define WORLD_SIZE 2

typedef enum
{
  BAD_NONE,
  BAD_NAN,        /* sample 3 is NaN */
  BAD_NAME,       /* the name is not UTF-8 */
  BAD_RANK,       /* a rank out of range, the times marked valid and the ranks grouped */
  BAD_INTERLEAVE, /* ranks interleaved (grouped by a copy) and sample 5 negative */
} Bad;

/* N_OPS operations "op-NNNNN", each with PER_OP samples on both ranks;
 * operation k is spoiled as @bad[k] says (NULL: none is). */
static TprofProfiledTime *
make_profile (const Bad *bad)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD_SIZE);

  for (int k = 0; k < N_OPS; k++)
    {
      double times[PER_OP];
      int32_t ranks[PER_OP];
      char name[32];
      Bad b = bad != NULL ? bad[k] : BAD_NONE;
      TprofGatheredTime *gt;

      for (int i = 0; i < PER_OP; i++)
        {
          times[i] = 1e-6 * (double) (k % 97 + i + 1);
          ranks[i] = b == BAD_INTERLEAVE ? i % WORLD_SIZE : i * WORLD_SIZE / PER_OP;
        }
      if (b == BAD_NAN)
        times[3] = NAN;
      if (b == BAD_INTERLEAVE)
        times[5] = -1.0;
      if (b == BAD_RANK)
        ranks[PER_OP - 1] = WORLD_SIZE;
      snprintf (name, sizeof name, b == BAD_NAME ? "op-%05d\xc3" : "op-%05d", k);
      gt = h5_test_gathered (times, ranks, PER_OP);
      if (b == BAD_RANK)
        {
          _tprof_gathered_time_set_times_valid (gt);
          _tprof_gathered_time_set_ranks_grouped (gt);
        }
      g_assert_true (_tprof_profiled_time_append (pt, name, gt));
    }
  return pt;
}

/* A save of operations spoiled at @where[i] as @how[i] says refuses with
 * @expected, leaves nothing behind and no HDF5 object open. */
static void
assert_refused (const int   *where,
                const Bad   *how,
                size_t       n,
                const char  *expected)
{
  Bad *bad = g_new0 (Bad, N_OPS);
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *pt;
  TprofError error = { 0 };

  for (size_t i = 0; i < n; i++)
    bad[where[i]] = how[i];
  pt = make_profile (bad);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  if (strstr (error.message, expected) == NULL)
    g_error ("expected '%s' in: %s", expected, error.message);
  g_assert_true (g_str_has_prefix (error.message, path));
  h5_test_assert_dir_entries (dir, NULL, 0);
  h5_test_assert_no_open_objects ();
  tprof_profiled_time_free (pt);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  g_free (bad);
}

/* The first bad operation speaks, whatever comes after it. */
static void
test_first_bad_operation (void)
{
  const int nan_then_name[] = { 6000, 8000 }, name_then_nan[] = { 2000, 9000 };
  const Bad nan_name[] = { BAD_NAN, BAD_NAME }, name_nan[] = { BAD_NAME, BAD_NAN };
  const int last[] = { N_OPS - 1 }, first[] = { 0 };
  const Bad nan[] = { BAD_NAN };

  assert_refused (nan_then_name, nan_name, 2, "operation 'op-06000': sample 3 is nan");
  assert_refused (name_then_nan, name_nan, 2, "not valid UTF-8");
  assert_refused (last, nan, 1, "operation 'op-09999': sample 3 is nan");
  assert_refused (first, nan, 1, "operation 'op-00000': sample 3 is nan");
}

/* A rank out of range that only the grouping sees (times marked valid)
 * speaks when no operation before it is bad, and not when one is; an
 * operation whose samples are copied to be grouped is checked on its
 * samples as given (sample 5, not where the copy put it). */
static void
test_grouping_and_checks (void)
{
  const int rank_then_nan[] = { 300, 500 }, nan_then_rank[] = { 100, 300 }, interleaved[] = { 4321 };
  const Bad rank_nan[] = { BAD_RANK, BAD_NAN }, nan_rank[] = { BAD_NAN, BAD_RANK };
  const Bad interleave[] = { BAD_INTERLEAVE };

  assert_refused (rank_then_nan, rank_nan, 2, "operation 'op-00300' has a rank outside [0, 2)");
  assert_refused (nan_then_rank, nan_rank, 2, "operation 'op-00100': sample 3 is nan");
  assert_refused (interleaved, interleave, 1, "operation 'op-04321': sample 5 is");
}

/* The same profile unspoiled saves, and every operation comes back with
 * its samples. */
static void
test_unspoiled_saves (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *pt = make_profile (NULL), *back;
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  back = tprof_profiled_time_load (path, &error);
  g_assert_nonnull (back);
  g_assert_cmpuint (tprof_profiled_time_len (back), ==, N_OPS);
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_get (back, "op-04321")), ==, PER_OP);
  tprof_profiled_time_free (back);
  tprof_profiled_time_free (pt);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save-refusal-order/first-bad-operation", test_first_bad_operation);
  g_test_add_func ("/h5/save-refusal-order/grouping-and-checks", test_grouping_and_checks);
  g_test_add_func ("/h5/save-refusal-order/unspoiled-saves", test_unspoiled_saves);
  return g_test_run ();
}
