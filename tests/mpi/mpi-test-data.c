/* mpi-test-data.c — the gather tests' records and an independent computation of the expected profile. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "mpi-test-data.h"

#define BIG_COUNT 1000000
#define MANY_OPS  40

size_t
mpi_test_max_records (MpiTestScenario scenario)
{
  return scenario == MPI_TEST_MANY_OPS ? MANY_OPS : MPI_TEST_MAX_OPS;
}

static void
record_set (MpiTestRecord *rec, const char *name, size_t count)
{
  g_strlcpy (rec->name, name, sizeof rec->name);
  rec->count = count;
}

size_t
mpi_test_records (MpiTestScenario scenario, int rank, int size, MpiTestRecord *out)
{
  static const char *const common[] = { "forward", "backward", "allreduce", "io/checkpoint" };
  size_t n = 0;

  switch (scenario)
    {
    case MPI_TEST_IDENTICAL:
      for (size_t i = 0; i < G_N_ELEMENTS (common); i++)
        record_set (&out[n++], common[i], 3 + (size_t) rank + i);
      break;
    case MPI_TEST_DISJOINT:
      for (size_t i = 0; i < 3; i++)
        {
          char name[32];

          g_snprintf (name, sizeof name, "rank%d/op%zu", rank, i);
          record_set (&out[n++], name, 1 + (size_t) rank * 2 + i);
        }
      break;
    case MPI_TEST_SHUFFLED:
      /* rotate, and reverse on odd ranks */
      for (size_t i = 0; i < G_N_ELEMENTS (common); i++)
        {
          size_t k = (i + (size_t) rank) % G_N_ELEMENTS (common);

          if (rank % 2 == 1)
            k = G_N_ELEMENTS (common) - 1 - k;
          record_set (&out[n++], common[k], 2 + k + (size_t) rank);
        }
      break;
    case MPI_TEST_ONE_RANK_EMPTY:
      if (rank != size - 1)
        for (size_t i = 0; i < 2; i++)
          record_set (&out[n++], common[i], 5 + (size_t) rank);
      break;
    case MPI_TEST_BIG_ON_LAST:
      if (rank == size - 1)
        record_set (&out[n++], "big", BIG_COUNT);
      break;
    case MPI_TEST_MANY_OPS:
      for (size_t i = 0; i < MANY_OPS; i++)
        {
          char name[32];

          g_snprintf (name, sizeof name, "op%02zu", (i + (size_t) rank * 3) % MANY_OPS);
          record_set (&out[n++], name, 1 + (i % 3));
        }
      break;
    default:
      g_assert_not_reached ();
    }
  return n;
}

double
mpi_test_value (int data_rank, const char *name, size_t index)
{
  guint h = g_str_hash (name);
  guint64 mix = (guint64) data_rank * 7919u + (guint64) (h % 1000u) * 104729u + (guint64) index * 31u;

  /* distinct enough to catch any mix-up, always finite and >= 0 */
  return (double) (mix % 1000003u) * 1e-6 + (double) data_rank * 1e-9;
}

void
mpi_test_fill (TprofTimeManager *tm, MpiTestScenario scenario, int rank, int size, int data_rank)
{
  g_autofree MpiTestRecord *recs = g_new0 (MpiTestRecord, mpi_test_max_records (scenario));
  size_t n = mpi_test_records (scenario, rank, size, recs);
  size_t longest = 0;

  for (size_t i = 0; i < n; i++)
    longest = MAX (longest, recs[i].count);
  /* interleaved, as a real program records; every count is >= 1, so the
   * first-recorded order is the list order */
  for (size_t k = 0; k < longest; k++)
    for (size_t i = 0; i < n; i++)
      if (k < recs[i].count)
        tprof_time_manager_append_time (tm, recs[i].name, mpi_test_value (data_rank, recs[i].name, k));
}

typedef struct
{
  GPtrArray *names;   /* of char *, in expected order */
  GPtrArray *times;   /* of GArray of double */
  GPtrArray *ranks;   /* of GArray of gint32 */
} Expected;

static void
expected_clear (Expected *e)
{
  g_ptr_array_unref (e->names);
  g_ptr_array_unref (e->times);
  g_ptr_array_unref (e->ranks);
}

/* Straightforward on purpose: linear search, rank by rank. */
static void
expected_compute (Expected *e, MpiTestScenario scenario, int size, const int *data_ranks)
{
  g_autofree MpiTestRecord *recs = g_new0 (MpiTestRecord, mpi_test_max_records (scenario));

  e->names = g_ptr_array_new_with_free_func (g_free);
  e->times = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  e->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (int r = 0; r < size; r++)
    {
      size_t n = mpi_test_records (scenario, r, size, recs);

      for (size_t i = 0; i < n; i++)
        {
          guint op;

          for (op = 0; op < e->names->len; op++)
            if (strcmp (g_ptr_array_index (e->names, op), recs[i].name) == 0)
              break;
          if (op == e->names->len)
            {
              g_ptr_array_add (e->names, g_strdup (recs[i].name));
              g_ptr_array_add (e->times, g_array_new (FALSE, FALSE, sizeof (double)));
              g_ptr_array_add (e->ranks, g_array_new (FALSE, FALSE, sizeof (gint32)));
            }
          for (size_t k = 0; k < recs[i].count; k++)
            {
              double v = mpi_test_value (data_ranks[r], recs[i].name, k);
              gint32 rank = r;

              g_array_append_val (g_ptr_array_index (e->times, op), v);
              g_array_append_val (g_ptr_array_index (e->ranks, op), rank);
            }
        }
    }
}

static void
assert_samples (const TprofGatheredTime *gt, const double *times, const gint32 *ranks, size_t n)
{
  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, n);
  if (n == 0)
    return;
  g_assert_true (memcmp (tprof_gathered_time_times (gt), times, n * sizeof (double)) == 0);
  g_assert_true (memcmp (tprof_gathered_time_ranks (gt), ranks, n * sizeof (gint32)) == 0);
}

void
mpi_test_assert_profile (const TprofProfiledTime *pt, MpiTestScenario scenario, int size,
                         const int *data_ranks)
{
  Expected e;

  expected_compute (&e, scenario, size, data_ranks);
  g_assert_nonnull (pt);
  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, size);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, e.names->len);
  for (guint op = 0; op < e.names->len; op++)
    {
      GArray *times = g_ptr_array_index (e.times, op);
      GArray *ranks = g_ptr_array_index (e.ranks, op);

      g_assert_cmpstr (tprof_profiled_time_name (pt, op), ==, g_ptr_array_index (e.names, op));
      assert_samples (tprof_profiled_time_nth (pt, op), (double *) (void *) times->data,
                      (gint32 *) (void *) ranks->data, times->len);
    }
  for (int r = 0; r < size; r++)
    {
      const char *host = tprof_profiled_time_hostname (pt, r);

      g_assert_nonnull (host);
      g_assert_cmpstr (host, !=, "");
    }
  expected_clear (&e);
}

void
mpi_test_assert_same_profile (const TprofProfiledTime *a, const TprofProfiledTime *b)
{
  int size = tprof_profiled_time_world_size (a);

  g_assert_cmpint (tprof_profiled_time_world_size (b), ==, size);
  g_assert_cmpuint (tprof_profiled_time_len (b), ==, tprof_profiled_time_len (a));
  for (size_t op = 0; op < tprof_profiled_time_len (a); op++)
    {
      const TprofGatheredTime *ga = tprof_profiled_time_nth (a, op);

      g_assert_cmpstr (tprof_profiled_time_name (b, op), ==, tprof_profiled_time_name (a, op));
      assert_samples (tprof_profiled_time_nth (b, op), tprof_gathered_time_times (ga),
                      tprof_gathered_time_ranks (ga), tprof_gathered_time_count (ga));
    }
  for (int r = 0; r < size; r++)
    g_assert_cmpstr (tprof_profiled_time_hostname (b, r), ==, tprof_profiled_time_hostname (a, r));
}

void
mpi_test_assert_roundtrip (const TprofProfiledTime *pt)
{
  g_autoptr (GError) gerror = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tprof-mpi-test-XXXXXX", &gerror);
  g_autofree char *path = NULL;
  TprofProfiledTime *loaded;
  TprofError error;

  g_assert_no_error (gerror);
  path = g_build_filename (dir, "profile.h5", NULL);
  if (tprof_profiled_time_save (pt, path, &error) < 0)
    g_error ("saving %s: %s", path, error.message);
  loaded = tprof_profiled_time_load (path, &error);
  if (loaded == NULL)
    g_error ("loading %s: %s", path, error.message);
  mpi_test_assert_same_profile (pt, loaded);
  tprof_profiled_time_free (loaded);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}
