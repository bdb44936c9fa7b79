/* test-h5-save-segments.c — a save's segments, one per rank of each operation, laid out in one walk and written out early: many operations of many ranks, one of more ranks than the layout makes room for, ranks out of range at either end of a sorted run. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"

/* As tprof-analysis-internal.h declares it: a selection appended without
 * the checks of tprof_profiled_time_add(). */
extern bool _tprof_profiled_time_append (TprofProfiledTime *pt, const char *name, TprofGatheredTime *gt);

#define WORLD 5000
#define N_NARROW 1200
#define PER_NARROW 40
#define N_WIDE 6000

typedef struct
{
  int32_t rank;
  size_t  index;
} Sample;

static int
sample_compare (const void *a,
                const void *b)
{
  const Sample *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Asserts @got holds @times/@ranks (@n) grouped by ascending rank, each
 * rank's samples in their order: what a file stores, one segment a rank. */
static void
assert_grouped (const TprofGatheredTime *got,
                const double            *times,
                const int32_t           *ranks,
                size_t                   n)
{
  Sample *order = g_new (Sample, n);

  g_assert_nonnull (got);
  g_assert_cmpuint (tprof_gathered_time_count (got), ==, n);
  for (size_t i = 0; i < n; i++)
    order[i] = (Sample) { ranks[i], i };
  qsort (order, n, sizeof *order, sample_compare);
  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpint (tprof_gathered_time_ranks (got)[i], ==, order[i].rank);
      g_assert_cmpfloat (tprof_gathered_time_times (got)[i], ==, times[order[i].index]);
    }
  g_free (order);
}

/* The one operation of N_WIDE samples, its ranks interleaved over the
 * whole world. */
static void
fill_wide (double  *times,
           int32_t *ranks)
{
  for (size_t i = 0; i < N_WIDE; i++)
    {
      times[i] = 0.001 * (double) (i + 1);
      ranks[i] = (int32_t) ((i * 7919) % WORLD);
    }
}

/* Narrow operation @k's PER_NARROW samples: k % 7 + 1 samples a rank,
 * the last run cut short. */
static void
fill_narrow (int      k,
             double  *times,
             int32_t *ranks)
{
  for (size_t i = 0; i < PER_NARROW; i++)
    {
      times[i] = 1.0 + 0.5 * (double) k + 0.01 * (double) i;
      ranks[i] = (int32_t) ((k * 131 + i / (size_t) (k % 7 + 1) * 17) % WORLD);
    }
}

/* Operations of up to 40 ranks each, 3.7 x 10^4 segments in all (the
 * layout's first room is one an operation), and one of 5000 ranks
 * interleaved (more than it makes room for at once: counted first).
 * Enough work for the save's helper: in an image the samples and then
 * the tables are written out before HDF5 closes, and HDF5's metadata put
 * in the tables' alignment gaps then must reach the file too. */
static void
test_many_segments (void)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD), *loaded;
  double *times = g_new (double, N_WIDE);
  int32_t *ranks = g_new (int32_t, N_WIDE);
  TprofError error = { 0 };

  fill_wide (times, ranks);
  g_assert_cmpint (tprof_profiled_time_add (pt, "wide", h5_test_gathered (times, ranks, N_WIDE), &error), ==, 0);
  for (int k = 0; k < N_NARROW; k++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "narrow-%03d", k);
      fill_narrow (k, times, ranks);
      g_assert_cmpint (tprof_profiled_time_add (pt, name, h5_test_gathered (times, ranks, PER_NARROW), &error), ==, 0);
    }
  loaded = h5_test_round_trip (pt, path);
  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, N_NARROW + 1);
  fill_wide (times, ranks);
  assert_grouped (tprof_profiled_time_get (loaded, "wide"), times, ranks, N_WIDE);
  for (int k = 0; k < N_NARROW; k++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "narrow-%03d", k);
      fill_narrow (k, times, ranks);
      assert_grouped (tprof_profiled_time_get (loaded, name), times, ranks, PER_NARROW);
    }
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (times);
  g_free (ranks);
  g_unlink (path);
  g_free (path);
  g_free (dir);
}

/* Ranks that bypassed the checks, sorted but out of range at one end (the
 * grouping's quick check looks at the ends only), or interleaved: each
 * refused with its first bad sample's message, and nothing written. */
static void
test_sorted_out_of_range (void)
{
  double times[] = { 0.5, 0.25, 1.0, 2.0, 0.125 };
  int32_t below[] = { -1, 0, 1, 3, 3 }, above[] = { 0, 0, 1, 3, 4 }, mixed[] = { 3, 0, 4, 1, 1 };
  int32_t good[] = { 0, 0, 1, 3, 3 };
  const int32_t *bad[] = { below, above, mixed };
  const char *refused[] = { "operation 'step': sample 0 has rank -1, outside [0, 4)",
                            "operation 'step': sample 4 has rank 4, outside [0, 4)",
                            "operation 'step': sample 2 has rank 4, outside [0, 4)" };
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "run.h5", NULL);

  for (int k = 0; k < 3; k++)
    {
      TprofProfiledTime *pt = tprof_profiled_time_new (4);
      TprofError error = { 0 };

      g_assert_true (_tprof_profiled_time_append (pt, "fine", h5_test_gathered (times, good, 5)));
      g_assert_true (_tprof_profiled_time_append (pt, "step", h5_test_gathered (times, bad[k], 5)));
      g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, -1);
      g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
      g_assert_true (g_str_has_prefix (error.message, path));
      g_assert_nonnull (strstr (error.message, refused[k]));
      h5_test_assert_dir_entries (dir, NULL, 0);
      h5_test_assert_no_open_objects ();
      tprof_error_clear (&error);
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
  g_test_add_func ("/h5/save-segments/many-segments", test_many_segments);
  g_test_add_func ("/h5/save-segments/sorted-out-of-range", test_sorted_out_of_range);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
