/* test-h5-roundtrip.c — profiles saved and loaded back: values, names, order, sizes, host names, the profile object. */
/* SPDX-License-Identifier: MIT */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include <hdf5.h>

#include "h5-test-util.h"

static void
assert_same_samples (const TprofGatheredTime *got,
                     const double            *times,
                     const int32_t           *ranks,
                     size_t                   n)
{
  g_assert_nonnull (got);
  g_assert_cmpuint (tprof_gathered_time_count (got), ==, n);
  if (n == 0)
    return;
  /* memcmp: bit-identical, not merely close */
  g_assert_cmpmem (tprof_gathered_time_times (got), n * sizeof *times, times, n * sizeof *times);
  g_assert_cmpmem (tprof_gathered_time_ranks (got), n * sizeof *ranks, ranks, n * sizeof *ranks);
}

static void
add_op (TprofProfiledTime *pt,
        const char        *name,
        const double      *times,
        const int32_t     *ranks,
        size_t             n)
{
  TprofError error = { 0 };

  g_assert_cmpint (tprof_profiled_time_add (pt, name, h5_test_gathered (times, ranks, n), &error), ==, 0);
  g_assert_cmpint (error.code, ==, 0);
}

static char *
temp_file (const char *base)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, base, NULL);

  g_free (dir);
  return path;
}

static void
test_bit_identical (void)
{
  /* -0.0 is >= 0 too, and keeps its sign */
  static const double times[] = {
    0.0, 5e-324, DBL_MIN, 1e-9, 0.1, 1.0 / 3.0, G_PI, 1e300, DBL_MAX, 0.30000000000000004, -0.0,
  };
  static const int32_t ranks[] = { 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 };
  TprofProfiledTime *pt = tprof_profiled_time_new (3);
  TprofProfiledTime *loaded;
  char *path = temp_file ("values.h5");
  GDateTime *now = g_date_time_new_now_utc ();
  GDateTime *created;
  GTimeZone *utc = g_time_zone_new_utc ();

  add_op (pt, "values", times, ranks, G_N_ELEMENTS (times));
  g_assert_null (tprof_profiled_time_created (pt));
  loaded = h5_test_round_trip (pt, path);

  g_assert_cmpint (tprof_profiled_time_world_size (loaded), ==, 3);
  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, 1);
  g_assert_cmpstr (tprof_profiled_time_name (loaded, 0), ==, "values");
  assert_same_samples (tprof_profiled_time_get (loaded, "values"), times, ranks, G_N_ELEMENTS (times));
  g_assert_null (tprof_profiled_time_hostname (loaded, 0));

  g_assert_cmpstr (tprof_profiled_time_clock (loaded), ==, "CLOCK_MONOTONIC");
  g_assert_true (g_str_has_prefix (tprof_profiled_time_producer (loaded), "libtprof-capture "));
  g_assert_true (g_regex_match_simple ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$",
                                       tprof_profiled_time_created (loaded), 0, 0));
  created = g_date_time_new_from_iso8601 (tprof_profiled_time_created (loaded), utc);
  g_assert_nonnull (created);
  g_assert_cmpint (llabs (g_date_time_difference (now, created)), <, 120 * G_TIME_SPAN_SECOND);

  g_date_time_unref (created);
  g_date_time_unref (now);
  g_time_zone_unref (utc);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (path);
}

/* Names that need escaping in a link name, and some that only look like it. */
static const struct
{
  const char *name;
  const char *link;
} tricky_names[] = {
  { "io/checkpoint", "io%2Fcheckpoint" },
  { "50%", "50%25" },
  { "%2F", "%252F" },
  { ".", "%2E" },
  { "..", ".." },
  { "a.b", "a.b" },
  { "/", "%2F" },
  { "%", "%25" },
  { " spaced name ", " spaced name " },
  { "ünïcødé ✓ 時間", "ünïcødé ✓ 時間" },
  { "%2E", "%252E" },
  { "a/b%c/", "a%2Fb%25c%2F" },
};

static void
test_names (void)
{
  static const double times[] = { 1.0, 2.0 };
  static const int32_t ranks[] = { 0, 0 };
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  TprofProfiledTime *loaded;
  char *path = temp_file ("names.h5");
  char *stored[G_N_ELEMENTS (tricky_names)];
  hid_t file, names, str_type;

  for (size_t i = 0; i < G_N_ELEMENTS (tricky_names); i++)
    add_op (pt, tricky_names[i].name, times, ranks, 1 + i % 2);
  loaded = h5_test_round_trip (pt, path);

  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, G_N_ELEMENTS (tricky_names));
  for (size_t i = 0; i < G_N_ELEMENTS (tricky_names); i++)
    {
      g_assert_cmpstr (tprof_profiled_time_name (loaded, i), ==, tricky_names[i].name);
      assert_same_samples (tprof_profiled_time_get (loaded, tricky_names[i].name), times, ranks, 1 + i % 2);
    }

  /* the names themselves, exact and in first-recorded order, read with
   * plain HDF5 from the operations' table */
  file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  g_assert_cmpint (file, >=, 0);
  names = H5Dopen2 (file, "operations/name", H5P_DEFAULT);
  g_assert_cmpint (names, >=, 0);
  str_type = H5Tcopy (H5T_C_S1);
  H5Tset_size (str_type, H5T_VARIABLE);
  H5Tset_cset (str_type, H5T_CSET_UTF8);
  g_assert_cmpint (H5Dread (names, str_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, stored), >=, 0);
  for (size_t i = 0; i < G_N_ELEMENTS (tricky_names); i++)
    {
      g_assert_cmpstr (stored[i], ==, tricky_names[i].name);
      H5free_memory (stored[i]);
    }
  H5Tclose (str_type);
  H5Dclose (names);
  H5Fclose (file);

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (path);
}

static void
test_empty_operation (void)
{
  static const double times[] = { 0.5 };
  static const int32_t ranks[] = { 1 };
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  TprofProfiledTime *loaded;
  char *path = temp_file ("empty-op.h5");

  add_op (pt, "before", times, ranks, 1);
  add_op (pt, "never-ran", NULL, NULL, 0);
  add_op (pt, "after", times, ranks, 1);
  loaded = h5_test_round_trip (pt, path);

  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, 3);
  g_assert_cmpstr (tprof_profiled_time_name (loaded, 1), ==, "never-ran");
  g_assert_true (tprof_gathered_time_is_empty (tprof_profiled_time_nth (loaded, 1)));
  g_assert_cmpuint (tprof_gathered_time_count (tprof_profiled_time_nth (loaded, 1)), ==, 0);
  assert_same_samples (tprof_profiled_time_nth (loaded, 2), times, ranks, 1);

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (path);
}

static void
test_many_operations (void)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  TprofProfiledTime *loaded;
  char *path = temp_file ("many.h5");
  char name[32];

  /* a permutation, so that creation order differs from name order */
  for (size_t i = 0; i < 1000; i++)
    {
      double times[3] = { (double) i, i + 0.5, i + 0.25 };
      int32_t ranks[3] = { 0, (int32_t) (i % 4), 3 };

      g_snprintf (name, sizeof name, "op-%04zu", (i * 7919) % 1000);
      add_op (pt, name, times, ranks, i % 4);
    }
  loaded = h5_test_round_trip (pt, path);

  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, 1000);
  for (size_t i = 0; i < 1000; i++)
    {
      double times[3] = { (double) i, i + 0.5, i + 0.25 };
      int32_t ranks[3] = { 0, (int32_t) (i % 4), 3 };

      g_snprintf (name, sizeof name, "op-%04zu", (i * 7919) % 1000);
      g_assert_cmpstr (tprof_profiled_time_name (loaded, i), ==, name);
      assert_same_samples (tprof_profiled_time_get (loaded, name), times, ranks, i % 4);
      g_assert_true (tprof_profiled_time_get (loaded, name) == tprof_profiled_time_nth (loaded, i));
    }

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (path);
}

static void
test_million_samples (void)
{
  const size_t n = 1000000;
  double *times = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n);
  TprofProfiledTime *pt = tprof_profiled_time_new (8);
  TprofProfiledTime *loaded;
  char *path = temp_file ("million.h5");
  GRand *rand = g_rand_new_with_seed (42);

  for (size_t i = 0; i < n; i++)
    {
      times[i] = g_rand_double (rand) * 1e-3;
      ranks[i] = (int32_t) (i * 8 / n);
    }
  add_op (pt, "step", times, ranks, n);
  loaded = h5_test_round_trip (pt, path);
  assert_same_samples (tprof_profiled_time_get (loaded, "step"), times, ranks, n);

  g_rand_free (rand);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (times);
  g_free (ranks);
  g_free (path);
}

static void
test_hostnames (void)
{
  static const char *const hosts[] = { "node-01", "node-01", "nœud-2.cluster", "n3" };
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  TprofProfiledTime *loaded;
  TprofError error = { 0 };
  char *path = temp_file ("hosts.h5");

  g_assert_null (tprof_profiled_time_hostname (pt, 0));
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, &error), ==, 0);
  g_assert_cmpstr (tprof_profiled_time_hostname (pt, 2), ==, "nœud-2.cluster");
  g_assert_null (tprof_profiled_time_hostname (pt, 4));
  g_assert_null (tprof_profiled_time_hostname (pt, -1));
  add_op (pt, "x", NULL, NULL, 0);
  loaded = h5_test_round_trip (pt, path);

  for (int r = 0; r < 4; r++)
    g_assert_cmpstr (tprof_profiled_time_hostname (loaded, r), ==, hosts[r]);
  g_assert_null (tprof_profiled_time_hostname (loaded, 4));

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (path);
}

static void
test_large_strings (void)
{
  /* 3 MB of host names: far beyond what the writer reserves for a file
   * of no samples, so its in-memory image has to grow */
  char *hosts[2] = { g_strnfill (1500000, 'x'), g_strnfill (1500000, 'y') };
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  TprofProfiledTime *loaded;
  char *path = temp_file ("large-strings.h5");

  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, (const char *const *) hosts, NULL), ==, 0);
  loaded = h5_test_round_trip (pt, path);
  g_assert_cmpstr (tprof_profiled_time_hostname (loaded, 0), ==, hosts[0]);
  g_assert_cmpstr (tprof_profiled_time_hostname (loaded, 1), ==, hosts[1]);

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (hosts[0]);
  g_free (hosts[1]);
  g_free (path);
}

/* The file holds samples grouped by ascending rank, each rank's samples in
 * their original order; computed here rank by rank, the slow obvious way. */
static void
check_interleaved (int    world_size,
                   size_t n)
{
  double *times = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n);
  double *want_times = g_new (double, n);
  int32_t *want_ranks = g_new (int32_t, n);
  TprofProfiledTime *pt = tprof_profiled_time_new (world_size);
  TprofProfiledTime *loaded;
  char *path = temp_file ("interleaved.h5");
  size_t k = 0;

  for (size_t i = 0; i < n; i++)
    {
      times[i] = (double) i;
      ranks[i] = (int32_t) (((n - i) * 7) % 5 * (size_t) (world_size / 5));
    }
  for (int r = 0; r < world_size; r++)
    for (size_t i = 0; i < n; i++)
      if (ranks[i] == r)
        {
          want_times[k] = times[i];
          want_ranks[k++] = ranks[i];
        }
  g_assert_cmpuint (k, ==, n);

  add_op (pt, "mixed", times, ranks, n);
  loaded = h5_test_round_trip (pt, path);
  assert_same_samples (tprof_profiled_time_get (loaded, "mixed"), want_times, want_ranks, n);
  /* the profile that was saved is not modified */
  assert_same_samples (tprof_profiled_time_get (pt, "mixed"), times, ranks, n);

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  g_free (times);
  g_free (ranks);
  g_free (want_times);
  g_free (want_ranks);
  g_free (path);
}

static void
test_interleaved_ranks (void)
{
  check_interleaved (5, 1000);
}

static void
test_interleaved_ranks_huge_world (void)
{
  /* more ranks than samples: the writer must not walk every rank */
  check_interleaved (500000, 40);
}

static void
test_overwrite (void)
{
  static const double times[] = { 1.0, 2.0 };
  static const int32_t ranks[] = { 0, 0 };
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "profile.h5", NULL);
  const char *entries[] = { "profile.h5" };
  TprofProfiledTime *first = tprof_profiled_time_new (1);
  TprofProfiledTime *second = tprof_profiled_time_new (1);
  TprofProfiledTime *loaded;

  add_op (first, "first", times, ranks, 2);
  add_op (second, "second", times, ranks, 1);
  tprof_profiled_time_free (h5_test_round_trip (first, path));
  loaded = h5_test_round_trip (second, path);
  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, 1);
  g_assert_cmpstr (tprof_profiled_time_name (loaded, 0), ==, "second");
  h5_test_assert_dir_entries (dir, entries, 1);

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (first);
  tprof_profiled_time_free (second);
  g_free (path);
  g_free (dir);
}

static void
test_gather_local (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofProfiledTime *loaded;
  char *path = temp_file ("local.h5");
  const double backward[] = { 0.25, 0.125 };
  const double forward[] = { 0.5 };
  const int32_t zeros[] = { 0, 0 };

  tprof_time_manager_append_time (tm, "backward", 0.25);
  tprof_time_manager_append_time (tm, "forward", 0.5);
  tprof_time_manager_append_time (tm, "backward", 0.125);
  pt = tprof_time_manager_gather_local (tm);
  g_assert_nonnull (pt);
  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, 1);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 2);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "backward");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 1), ==, "forward");
  assert_same_samples (tprof_profiled_time_get (pt, "backward"), backward, zeros, 2);
  assert_same_samples (tprof_profiled_time_get (pt, "forward"), forward, zeros, 1);

  loaded = h5_test_round_trip (pt, path);
  assert_same_samples (tprof_profiled_time_get (loaded, "backward"), backward, zeros, 2);
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);

  /* an empty manager gives an empty profile, which saves too */
  tprof_time_manager_clear (tm);
  pt = tprof_time_manager_gather_local (tm);
  g_assert_nonnull (pt);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 0);
  loaded = h5_test_round_trip (pt, path);
  g_assert_cmpuint (tprof_profiled_time_len (loaded), ==, 0);
  g_assert_cmpint (tprof_profiled_time_world_size (loaded), ==, 1);

  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  g_free (path);
}

static void
test_add_errors (void)
{
  static const double times[] = { 1.0, 2.0 };
  static const int32_t good[] = { 0, 1 };
  static const int32_t too_big[] = { 0, 2 };
  static const int32_t negative[] = { -1, 0 };
  TprofProfiledTime *pt = tprof_profiled_time_new (2);
  TprofError error = { 0 };
  static const char *const short_hosts[] = { "a", NULL };

  g_assert_null (tprof_profiled_time_new (0));
  g_assert_null (tprof_profiled_time_new (-3));

  add_op (pt, "ok", times, good, 2);
  g_assert_cmpint (tprof_profiled_time_add (pt, "ok", h5_test_gathered (times, good, 2), &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  g_assert_nonnull (strstr (error.message, "'ok' is already"));

  g_assert_cmpint (tprof_profiled_time_add (pt, "", h5_test_gathered (times, good, 2), &error), ==, -1);
  g_assert_nonnull (strstr (error.message, "must not be empty"));

  g_assert_cmpint (tprof_profiled_time_add (pt, "big", h5_test_gathered (times, too_big, 2), &error), ==, -1);
  g_assert_nonnull (strstr (error.message, "sample 1 has rank 2, outside [0, 2)"));
  g_assert_cmpint (tprof_profiled_time_add (pt, "neg", h5_test_gathered (times, negative, 2), NULL), ==, -1);

  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, short_hosts, &error), ==, -1);
  g_assert_nonnull (strstr (error.message, "rank 1"));
  g_assert_null (tprof_profiled_time_hostname (pt, 0));

  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 1);
  g_assert_null (tprof_profiled_time_get (pt, "big"));
  g_assert_null (tprof_profiled_time_get (pt, "neg"));
  g_assert_null (tprof_profiled_time_name (pt, 1));
  g_assert_null (tprof_profiled_time_nth (pt, 1));
  tprof_profiled_time_free (pt);
}

static void
test_lookup_many (void)
{
  const size_t n = 20000;
  TprofProfiledTime *pt = tprof_profiled_time_new (1);
  char name[32];

  for (size_t i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "region/%zu", i);
      add_op (pt, name, NULL, NULL, 0);
    }
  for (size_t i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "region/%zu", i);
      g_assert_true (tprof_profiled_time_get (pt, name) == tprof_profiled_time_nth (pt, i));
      g_assert_cmpstr (tprof_profiled_time_name (pt, i), ==, name);
    }
  g_assert_null (tprof_profiled_time_get (pt, "region/20000"));
  g_assert_null (tprof_profiled_time_get (pt, "region"));
  tprof_profiled_time_free (pt);
}

typedef struct
{
  char *path;
  int   seed;
  int   failures;
} ThreadJob;

static void *
thread_save_load (void *data)
{
  ThreadJob *job = data;

  for (int k = 0; k < 20; k++)
    {
      double times[2] = { job->seed, k };
      int32_t ranks[2] = { 0, 1 };
      TprofProfiledTime *pt = tprof_profiled_time_new (2);
      TprofProfiledTime *loaded;
      TprofGatheredTime *gt = tprof_gathered_time_new (times, ranks, 2);

      if (tprof_profiled_time_add (pt, "t", gt, NULL) < 0 ||
          tprof_profiled_time_save (pt, job->path, NULL) < 0 ||
          (loaded = tprof_profiled_time_load (job->path, NULL)) == NULL)
        job->failures++;
      else
        {
          const double *got = tprof_gathered_time_times (tprof_profiled_time_get (loaded, "t"));

          if (got == NULL || got[0] != job->seed || got[1] != k)
            job->failures++;
          tprof_profiled_time_free (loaded);
        }
      tprof_profiled_time_free (pt);
    }
  return NULL;
}

static void
test_threads (void)
{
  char *dir = h5_test_make_dir ();
  pthread_t threads[4];
  ThreadJob jobs[4];

  for (int i = 0; i < 4; i++)
    {
      char base[32];

      g_snprintf (base, sizeof base, "thread-%d.h5", i);
      jobs[i] = (ThreadJob) { g_build_filename (dir, base, NULL), i, 0 };
      g_assert_cmpint (pthread_create (&threads[i], NULL, thread_save_load, &jobs[i]), ==, 0);
    }
  for (int i = 0; i < 4; i++)
    {
      pthread_join (threads[i], NULL);
      g_assert_cmpint (jobs[i].failures, ==, 0);
      g_free (jobs[i].path);
    }
  h5_test_assert_no_open_objects ();
  g_free (dir);
}

#define ON_DEMAND_OPS 300
#define ON_DEMAND_THREADS 4

/* Every thread asks for every operation of one loaded profile. */
static void *
ask_every_operation (void *data)
{
  const TprofProfiledTime *pt = ((void **) data)[0];
  const TprofGatheredTime **seen = ((void **) data)[1];

  for (size_t k = 0; k < ON_DEMAND_OPS; k++)
    seen[k] = tprof_profiled_time_nth (pt, (k * 7) % ON_DEMAND_OPS) ;
  return NULL;
}

/* A loaded profile makes an operation's selection when first asked for:
 * threads asking at once all get the same one, by index and by name,
 * holding what was saved, with its statistics, however asked and in any
 * order; a profile freed with operations never asked for frees all. */
static void
test_loaded_on_demand (void)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (2), *loaded;
  char *path = temp_file ("on-demand.h5");
  const TprofGatheredTime *seen[ON_DEMAND_THREADS][ON_DEMAND_OPS];
  pthread_t threads[ON_DEMAND_THREADS];
  void *args[ON_DEMAND_THREADS][2];
  TprofError error = { 0 };

  for (size_t k = 0; k < ON_DEMAND_OPS; k++)
    {
      double times[4] = { 1e-3 * (double) k, 0.5, 2e-3 * (double) k, 0.25 };
      int32_t ranks[4] = { 0, 0, 1, 1 };
      char name[32];

      g_snprintf (name, sizeof name, "op-%03zu", k);
      add_op (pt, name, times, ranks, k % 5 == 0 ? 0 : 4);
    }
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);

  /* never asked for: freed all the same (ASan and the leak check say) */
  loaded = tprof_profiled_time_load (path, &error);
  g_assert_nonnull (loaded);
  tprof_profiled_time_free (loaded);

  loaded = tprof_profiled_time_load (path, &error);
  g_assert_nonnull (loaded);
  for (int t = 0; t < ON_DEMAND_THREADS; t++)
    {
      args[t][0] = loaded;
      args[t][1] = seen[t];
      g_assert_cmpint (pthread_create (&threads[t], NULL, ask_every_operation, args[t]), ==, 0);
    }
  for (int t = 0; t < ON_DEMAND_THREADS; t++)
    pthread_join (threads[t], NULL);
  for (size_t k = 0; k < ON_DEMAND_OPS; k++)
    {
      size_t op = (k * 7) % ON_DEMAND_OPS;
      const TprofGatheredTime *gt = seen[0][k];
      const TprofGatheredTime *saved = tprof_profiled_time_nth (pt, op);

      for (int t = 1; t < ON_DEMAND_THREADS; t++)
        g_assert_true (seen[t][k] == gt);
      g_assert_true (tprof_profiled_time_get (loaded, tprof_profiled_time_name (loaded, op)) == gt);
      g_assert_cmpuint (tprof_gathered_time_count (gt), ==, tprof_gathered_time_count (saved));
      for (size_t i = 0; i < tprof_gathered_time_count (gt); i++)
        {
          g_assert_cmpfloat (tprof_gathered_time_times (gt)[i], ==, tprof_gathered_time_times (saved)[i]);
          g_assert_cmpint (tprof_gathered_time_ranks (gt)[i], ==, tprof_gathered_time_ranks (saved)[i]);
        }
      if (tprof_gathered_time_count (gt) > 0)
        {
          /* 1e-3 k + 0.5 + 2e-3 k + 0.25, added in that order */
          double sum = ((1e-3 * (double) op + 0.5) + 2e-3 * (double) op) + 0.25;

          g_assert_cmpfloat (tprof_gathered_time_sum (gt), ==, sum);
          g_assert_cmpfloat (tprof_gathered_time_max (gt), ==, 0.5 > 2e-3 * (double) op ? 0.5 : 2e-3 * (double) op);
        }
    }
  tprof_profiled_time_free (loaded);
  tprof_profiled_time_free (pt);
  h5_test_assert_no_open_objects ();
  g_free (path);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/roundtrip/bit-identical", test_bit_identical);
  g_test_add_func ("/h5/roundtrip/names", test_names);
  g_test_add_func ("/h5/roundtrip/empty-operation", test_empty_operation);
  g_test_add_func ("/h5/roundtrip/1000-operations", test_many_operations);
  g_test_add_func ("/h5/roundtrip/million-samples", test_million_samples);
  g_test_add_func ("/h5/roundtrip/hostnames", test_hostnames);
  g_test_add_func ("/h5/roundtrip/large-strings", test_large_strings);
  g_test_add_func ("/h5/roundtrip/interleaved-ranks", test_interleaved_ranks);
  g_test_add_func ("/h5/roundtrip/interleaved-ranks-huge-world", test_interleaved_ranks_huge_world);
  g_test_add_func ("/h5/roundtrip/overwrite", test_overwrite);
  g_test_add_func ("/h5/roundtrip/gather-local", test_gather_local);
  g_test_add_func ("/h5/roundtrip/threads", test_threads);
  g_test_add_func ("/h5/roundtrip/loaded-on-demand", test_loaded_on_demand);
  g_test_add_func ("/h5/profile/add-errors", test_add_errors);
  g_test_add_func ("/h5/profile/lookup-20000", test_lookup_many);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
