/* test-profile-file-read-all.c — tprof_profile_file_read_all(): every operation, in order, equal to what was saved, in process and isolated, also kept past the read; a stop, damage caught by the checksums. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <hdf5.h>

#include "h5-test-util.h"

#define WORLD 3
/* more than a block of the reader holds (2^18 rows): read alone */
#define BIG_OP 300000
#define N_OPS 2000

typedef struct
{
  size_t   n;
  double  *times;
  int32_t *ranks;
  double  *starts;
  int32_t *threads;
} Expected;

static char *test_dir;
static char *good_path;
static Expected expected[N_OPS];

/* Operation k: k % 7 samples per rank (none for k % 7 == 0), except
 * operation 1, of BIG_OP samples; ranks ascending, a timeline. */
static void
write_good (const char *path)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  GRand *rand = g_rand_new_with_seed (11);
  TprofError error = { 0 };

  for (size_t k = 0; k < N_OPS; k++)
    {
      Expected *e = &expected[k];
      size_t per_rank = k == 1 ? BIG_OP / WORLD : k % 7;
      TprofGatheredTime *gt;
      char name[32];

      e->n = per_rank * WORLD;
      e->times = g_new (double, e->n + 1);
      e->ranks = g_new (int32_t, e->n + 1);
      e->starts = g_new (double, e->n + 1);
      e->threads = g_new (int32_t, e->n + 1);
      for (size_t i = 0; i < e->n; i++)
        {
          e->times[i] = g_rand_double_range (rand, 1e-6, 1e-2);
          e->ranks[i] = (int32_t) (i / per_rank);
          e->starts[i] = (double) k + 1e-3 * (double) i;
          e->threads[i] = (int32_t) (i % 3);
        }
      gt = h5_test_gathered (e->times, e->ranks, e->n);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, g_memdup2 (e->starts, e->n * sizeof (double) + 1),
                                                            g_memdup2 (e->threads, e->n * sizeof (int32_t) + 1)));
      g_snprintf (name, sizeof name, "op-%04zu", k);
      g_assert_cmpint (tprof_profiled_time_add (pt, name, gt, &error), ==, 0);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  g_rand_free (rand);
}

typedef struct
{
  size_t         calls;
  size_t         stop_at;   /* (size_t) -1: never */
  const int32_t *ranks;     /* the selection asked for, NULL: all */
  size_t         n_ranks;
} Seen;

static gboolean
selected (const Seen *seen,
          int32_t     rank)
{
  for (size_t i = 0; seen->ranks != NULL && i < seen->n_ranks; i++)
    if (seen->ranks[i] == rank)
      return TRUE;
  return seen->ranks == NULL;
}

/* Operation @op's samples @gt as saved (of the selected ranks). */
static void
assert_as_saved (const Seen              *seen,
                 size_t                   op,
                 const TprofGatheredTime *gt)
{
  const Expected *e = &expected[op];
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  const double *starts = tprof_gathered_time_starts (gt);
  const int32_t *threads = tprof_gathered_time_threads (gt);
  size_t j = 0;

  for (size_t i = 0; i < e->n; i++)
    if (selected (seen, e->ranks[i]))
      {
        g_assert_cmpuint (j, <, tprof_gathered_time_count (gt));
        g_assert_cmpfloat (times[j], ==, e->times[i]);
        g_assert_cmpint (ranks[j], ==, e->ranks[i]);
        g_assert_nonnull (starts);
        g_assert_cmpfloat (starts[j], ==, e->starts[i]);
        g_assert_cmpint (threads[j], ==, e->threads[i]);
        j++;
      }
  g_assert_cmpuint (j, ==, tprof_gathered_time_count (gt));
}

/* Each operation as saved (of the selected ranks), in file order. */
static bool
check_operation (size_t             op,
                 TprofGatheredTime *gt,
                 void              *user_data,
                 TprofError        *error)
{
  Seen *seen = user_data;

  g_assert_cmpuint (op, ==, seen->calls);
  seen->calls++;
  assert_as_saved (seen, op, gt);
  tprof_gathered_time_free (gt);
  if (op == seen->stop_at)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "stopped at %zu", op);
      return false;
    }
  return true;
}

/* Keeps every operation, in kept[op]. */
static bool
keep_operation (size_t             op,
                TprofGatheredTime *gt,
                void              *user_data,
                TprofError        *error)
{
  TprofGatheredTime **kept = user_data;

  kept[op] = gt;
  return true;
}

static TprofProfileFile *
open_file (const char *path,
           gboolean    isolated)
{
  TprofError error = { 0 };
  TprofProfileFile *pf = isolated ? tprof_profile_file_open_isolated (path, &error)
                                  : tprof_profile_file_open (path, &error);

  if (pf == NULL)
    g_error ("%s", error.message);
  return pf;
}

static void
check_all (gconstpointer data)
{
  gboolean isolated = GPOINTER_TO_INT (data);
  TprofProfileFile *pf = open_file (good_path, isolated);
  static const int32_t some[] = { 2, 0 };
  Seen seen = { 0, (size_t) -1, NULL, 0 };
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profile_file_read_all (pf, NULL, 0, check_operation, &seen, &error), ==, 0);
  g_assert_cmpuint (seen.calls, ==, N_OPS);
  /* some ranks: an operation at a time, the same order */
  seen = (Seen) { 0, (size_t) -1, some, G_N_ELEMENTS (some) };
  g_assert_cmpint (tprof_profile_file_read_all (pf, some, G_N_ELEMENTS (some), check_operation, &seen, &error),
                   ==, 0);
  g_assert_cmpuint (seen.calls, ==, N_OPS);
  tprof_profile_file_close (pf);
  h5_test_assert_no_open_objects ();
}

/* The callback says stop: the read fails with its error, nothing more. */
static void
check_stop (gconstpointer data)
{
  TprofProfileFile *pf = open_file (good_path, GPOINTER_TO_INT (data));
  Seen seen = { 0, 5, NULL, 0 };
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profile_file_read_all (pf, NULL, 0, check_operation, &seen, &error), ==, -1);
  g_assert_cmpuint (seen.calls, ==, 6);
  g_assert_cmpstr (error.message, ==, "stopped at 5");
  g_assert_cmpint (tprof_profile_file_read_all (NULL, NULL, 0, check_operation, &seen, &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_cmpint (tprof_profile_file_read_all (pf, NULL, 0, NULL, &seen, &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  tprof_profile_file_close (pf);
}

/* Operations kept past the read and the file's close, and freed in any
 * order, keep their samples: those the reader hands over lie in the
 * blocks it read (no copy), which must outlive the reader while an
 * operation holds them and never be read into again meanwhile. A kept
 * operation's timeline can still be replaced. */
static void
check_kept (gconstpointer data)
{
  gboolean isolated = GPOINTER_TO_INT (data);
  TprofProfileFile *pf = open_file (good_path, isolated);
  TprofGatheredTime **kept = g_new0 (TprofGatheredTime *, N_OPS);
  Seen all = { 0, (size_t) -1, NULL, 0 };
  TprofError error = { 0 };
  const Expected *e = &expected[3];
  double *starts = g_new (double, e->n);
  int32_t *threads = g_new (int32_t, e->n);

  g_assert_cmpint (tprof_profile_file_read_all (pf, NULL, 0, keep_operation, kept, &error), ==, 0);
  tprof_profile_file_close (pf);
  /* the even ones first, then the big one, then the rest checked */
  for (size_t k = 0; k < N_OPS; k += 2)
    {
      assert_as_saved (&all, k, kept[k]);
      tprof_gathered_time_free (kept[k]);
    }
  assert_as_saved (&all, 1, kept[1]);
  tprof_gathered_time_free (kept[1]);
  g_assert_cmpuint (e->n, >, 0);
  for (size_t i = 0; i < e->n; i++)
    {
      starts[i] = -1.0 - (double) i;
      threads[i] = 7;
    }
  g_assert_true (tprof_gathered_time_set_timeline_take (kept[3], starts, threads));
  g_assert_cmpfloat (tprof_gathered_time_starts (kept[3])[e->n - 1], ==, -(double) e->n);
  g_assert_cmpint (tprof_gathered_time_threads (kept[3])[0], ==, 7);
  g_assert_cmpfloat (tprof_gathered_time_times (kept[3])[e->n - 1], ==, e->times[e->n - 1]);
  for (size_t k = 5; k < N_OPS; k += 2)
    assert_as_saved (&all, k, kept[k]);
  for (size_t k = 3; k < N_OPS; k += 2)
    tprof_gathered_time_free (kept[k]);
  g_free (kept);
}

/* Overwrites value @row of sample column @column with @value, keeping
 * the column's checksum: damage only the checksum can see. */
static char *
damaged_copy (const char *name,
              const char *column,
              hsize_t     row,
              double      value)
{
  char *path = g_build_filename (test_dir, name, NULL);
  GBytes *bytes = h5_test_read_bytes (good_path);
  hid_t file, dset, space, mem;
  hsize_t one = 1;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  g_bytes_unref (bytes);
  file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  dset = H5Dopen2 (file, column, H5P_DEFAULT);
  space = H5Dget_space (dset);
  mem = H5Screate_simple (1, &one, NULL);
  g_assert_cmpint (H5Sselect_hyperslab (space, H5S_SELECT_SET, &row, NULL, &one, NULL), >=, 0);
  g_assert_cmpint (H5Dwrite (dset, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &value), >=, 0);
  H5Sclose (mem);
  H5Sclose (space);
  H5Dclose (dset);
  H5Fclose (file);
  return path;
}

static bool
keep_nothing (size_t op, TprofGatheredTime *gt, void *user_data, TprofError *error)
{
  tprof_gathered_time_free (gt);
  return true;
}

static void
assert_crc_refused (const char *path,
                    const char *column,
                    gboolean    isolated)
{
  TprofProfileFile *pf = open_file (path, isolated);
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profile_file_read_all (pf, NULL, 0, keep_nothing, NULL, &error),
                   ==, -1);
  g_test_message ("%s", error.message);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error.message, path));
  g_assert_nonnull (strstr (error.message, column));
  g_assert_nonnull (strstr (error.message, "checksum mismatch"));
  tprof_profile_file_close (pf);
}

static void
check_damage (gconstpointer data)
{
  gboolean isolated = GPOINTER_TO_INT (data);
  /* the last row: the checksum, complete only at the end, sees it */
  size_t n = 0;
  char *starts, *times;

  for (size_t k = 0; k < N_OPS; k++)
    n += expected[k].n;
  starts = damaged_copy (isolated ? "starts-iso.h5" : "starts.h5", "samples/starts", n - 1, 123.0);
  assert_crc_refused (starts, "samples/starts", isolated);
  /* a time in an early operation, which its cache refuses first: the
   * checksum names the damage */
  times = damaged_copy (isolated ? "times-iso.h5" : "times.h5", "samples/times", 2, 0.5);
  assert_crc_refused (times, "samples/times", isolated);
  g_free (starts);
  g_free (times);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  test_dir = h5_test_make_dir ();
  good_path = g_build_filename (test_dir, "good.h5", NULL);
  write_good (good_path);
  g_test_add_data_func ("/read-all/in-process", GINT_TO_POINTER (FALSE), check_all);
  g_test_add_data_func ("/read-all/isolated", GINT_TO_POINTER (TRUE), check_all);
  g_test_add_data_func ("/read-all/kept/in-process", GINT_TO_POINTER (FALSE), check_kept);
  g_test_add_data_func ("/read-all/kept/isolated", GINT_TO_POINTER (TRUE), check_kept);
  g_test_add_data_func ("/read-all/stop/in-process", GINT_TO_POINTER (FALSE), check_stop);
  g_test_add_data_func ("/read-all/stop/isolated", GINT_TO_POINTER (TRUE), check_stop);
  g_test_add_data_func ("/read-all/damage/in-process", GINT_TO_POINTER (FALSE), check_damage);
  g_test_add_data_func ("/read-all/damage/isolated", GINT_TO_POINTER (TRUE), check_damage);
  status = g_test_run ();
  for (size_t k = 0; k < N_OPS; k++)
    {
      g_free (expected[k].times);
      g_free (expected[k].ranks);
      g_free (expected[k].starts);
      g_free (expected[k].threads);
    }
  g_free (good_path);
  h5_test_cleanup ();
  return status;
}
