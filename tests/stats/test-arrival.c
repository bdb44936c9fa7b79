/* test-arrival.c — occurrences, arrival and straggler blame (docs/analysis.md) against reference.py's numpy implementation, on synthetic timelines. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "stats-reference.h"

/* One operation's samples on a timeline, in a shuffled file order. */
typedef struct
{
  int      world_size;
  GArray  *times;
  GArray  *ranks;
  GArray  *starts;
  GArray  *threads;
  gboolean timeline;
} Samples;

static Samples *
samples_new (int world_size)
{
  Samples *s = g_new0 (Samples, 1);

  s->world_size = world_size;
  s->times = g_array_new (FALSE, FALSE, sizeof (double));
  s->ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  s->starts = g_array_new (FALSE, FALSE, sizeof (double));
  s->threads = g_array_new (FALSE, FALSE, sizeof (int32_t));
  s->timeline = TRUE;
  return s;
}

static void
samples_free (Samples *s)
{
  g_array_unref (s->times);
  g_array_unref (s->ranks);
  g_array_unref (s->starts);
  g_array_unref (s->threads);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Samples, samples_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofOccurrences, tprof_occurrences_free)

static void
samples_add (Samples *s,
             int32_t  rank,
             double   start,
             double   time)
{
  int32_t thread = g_test_rand_int_range (0, 3);

  g_array_append_val (s->times, time);
  g_array_append_val (s->ranks, rank);
  g_array_append_val (s->starts, start);
  g_array_append_val (s->threads, thread);
}

/* Files may interleave ranks and need not be in time order. */
static void
samples_shuffle (Samples *s)
{
  for (guint i = s->times->len; i > 1; i--)
    {
      guint j = g_test_rand_int_range (0, i);

#define SWAP(array, type) \
      { type t = g_array_index (array, type, i - 1); \
        g_array_index (array, type, i - 1) = g_array_index (array, type, j); \
        g_array_index (array, type, j) = t; }
      SWAP (s->times, double);
      SWAP (s->ranks, int32_t);
      SWAP (s->starts, double);
      SWAP (s->threads, int32_t);
#undef SWAP
    }
}

static TprofGatheredTime *
samples_selection (const Samples *s)
{
  TprofGatheredTime *gt = tprof_gathered_time_new ((const double *) (gconstpointer) s->times->data,
                                                   (const int32_t *) (gconstpointer) s->ranks->data,
                                                   s->times->len);

  if (s->timeline && s->times->len > 0)
    tprof_gathered_time_set_timeline_take (gt, g_memdup2 (s->starts->data, s->starts->len * sizeof (double)),
                                           g_memdup2 (s->threads->data, s->threads->len * sizeof (int32_t)));
  return gt;
}

static StatsReference *
samples_reference (const Samples *s)
{
  g_autofree char *world = g_strdup_printf ("%d", s->world_size);
  const char *args[] = { world, NULL };
  StatsReferenceFile files[] = {
    { "times.bin", s->times->data, s->times->len * sizeof (double) },
    { "ranks.bin", s->ranks->data, s->ranks->len * sizeof (int32_t) },
    { "starts.bin", s->starts->data, s->starts->len * sizeof (double) },
  };

  return stats_reference_run_files ("arrival", files, s->timeline ? 3 : 2, args);
}

/* Each of the first @n_ranks ranks arrives at a random point of a coarse
 * grid (so that several often arrive together, and the latest start is
 * often shared) and @missing_rank lacks its last 3 occurrences. With
 * @collective every rank leaves together, else each runs for its own
 * time. */
static Samples *
make_spmd (int      world_size,
           int      n_ranks,
           int      n_occurrences,
           int      missing_rank,
           gboolean collective)
{
  Samples *s = samples_new (world_size);
  double clock = 10.0;

  for (int k = 0; k < n_occurrences; k++)
    {
      double arrive[64], latest = -INFINITY;

      g_assert_cmpint (n_ranks, <=, (int) G_N_ELEMENTS (arrive));
      for (int r = 0; r < n_ranks; r++)
        {
          arrive[r] = clock + g_test_rand_int_range (0, 8) * 1e-3;
          latest = fmax (latest, arrive[r]);
        }
      for (int r = 0; r < n_ranks; r++)
        {
          double time = collective ? latest - arrive[r] + 1e-4 + g_test_rand_double_range (0, 1e-6)
                                   : g_test_rand_double_range (0.005, 0.015);

          if (r != missing_rank || k < n_occurrences - 3)
            samples_add (s, r, arrive[r], time);
        }
      clock += 0.05;
    }
  samples_shuffle (s);
  return s;
}

/* Many ranks with different numbers of samples, starts with repeats. */
static Samples *
make_random (int world_size,
             gsize n)
{
  Samples *s = samples_new (world_size);

  for (gsize i = 0; i < n; i++)
    samples_add (s, g_test_rand_int_range (0, world_size),
                 g_test_rand_int_range (0, (int) n / 4) * 0.25e-3, g_test_rand_double_range (0, 0.01));
  return s;
}

static void
assert_values_close (const double *actual,
                     const double *expected,
                     gsize         n,
                     double        scale)
{
  for (gsize i = 0; i < n; i++)
    if (isnan (expected[i]))
      g_assert_true (isnan (actual[i]));
    else
      g_assert_cmpfloat_with_epsilon (actual[i], expected[i], 1e-12 * scale);
}

static void
check_occurrences (const Samples          *s,
                   const TprofOccurrences *occ,
                   StatsReference         *ref)
{
  gsize n;
  const double *number = stats_reference_get (ref, "occurrence", &n);

  g_assert_cmpuint (n, ==, s->times->len);
  g_assert_cmpuint (tprof_occurrences_n_ranks (occ), ==, (gsize) stats_reference_get_one (ref, "n_ranks"));
  g_assert_cmpuint (tprof_occurrences_common (occ), ==, (gsize) stats_reference_get_one (ref, "common"));
  for (gsize i = 0; i < n; i++)
    {
      int32_t rank = g_array_index (s->ranks, int32_t, i);
      size_t k = SIZE_MAX, back = SIZE_MAX;

      g_assert_true (tprof_occurrences_of_sample (occ, i, &k));
      g_assert_cmpuint (k, ==, (gsize) number[i]);
      g_assert_true (tprof_occurrences_sample (occ, rank, k, &back));
      g_assert_cmpuint (back, ==, i);
    }
  for (int r = 0; r < s->world_size; r++)
    {
      size_t sample;

      g_assert_false (tprof_occurrences_sample (occ, r, tprof_occurrences_count (occ, r), &sample));
    }
  g_assert_false (tprof_occurrences_of_sample (occ, n, &(size_t) { 0 }));
}

static void
check_per_occurrence (const Samples          *s,
                      const TprofOccurrences *occ,
                      StatsReference         *ref)
{
  gsize n_late, n_wait, n_lateness;
  const double *late = stats_reference_get (ref, "late_rank", &n_late);
  const double *wait = stats_reference_get (ref, "occurrence_wait", &n_wait);
  const double *lateness = stats_reference_get (ref, "lateness", &n_lateness);
  g_autofree double *mine = g_new (double, s->world_size);

  g_assert_cmpuint (n_late, ==, tprof_occurrences_common (occ));
  g_assert_cmpuint (n_lateness, ==, n_late * s->world_size);
  for (gsize k = 0; k < n_late; k++)
    {
      double my_wait = NAN;

      g_assert_cmpint (tprof_arrival_occurrence (occ, k, mine, &my_wait), ==, (int) late[k]);
      g_assert_cmpfloat_with_epsilon (my_wait, wait[k], 1e-12 * fmax (wait[k], 1.0));
      assert_values_close (mine, lateness + k * s->world_size, s->world_size, 1.0);
    }
  g_assert_cmpint (tprof_arrival_occurrence (occ, n_late, NULL, NULL), ==, -1);
}

/* Everything tprof_arrival_analyze() says, against the reference; returns
 * whether the operation synchronises. */
static gboolean
check_arrival (const Samples *s)
{
  g_autoptr(TprofGatheredTime) gt = samples_selection (s);
  g_autoptr(StatsReference) ref = samples_reference (s);
  g_autoptr(TprofOccurrences) occ = tprof_occurrences_new (gt, s->world_size, NULL);
  g_autofree double *wait_caused = g_new0 (double, s->world_size);
  g_autofree uint64_t *late_count = g_new0 (uint64_t, s->world_size);
  gsize n;
  const double *expected;
  TprofArrival arrival;

  g_assert_nonnull (occ);
  check_occurrences (s, occ, ref);
  g_assert_true (tprof_arrival_analyze (gt, s->world_size, &arrival, wait_caused, late_count));
  if (!s->timeline)
    {
      g_assert_cmpuint (arrival.n_occurrences, ==, 0);
      g_assert_false (arrival.synchronising);
      g_assert_cmpint (tprof_arrival_occurrence (occ, 0, NULL, NULL), ==, -1);
      return FALSE;
    }
  check_per_occurrence (s, occ, ref);
  g_assert_cmpuint (arrival.n_ranks, ==, tprof_occurrences_n_ranks (occ));
  g_assert_cmpuint (arrival.n_occurrences, ==, tprof_occurrences_common (occ));
  stats_assert_close (arrival.start_spread, stats_reference_get_one (ref, "start_spread"), 1e-12);
  stats_assert_close (arrival.end_spread, stats_reference_get_one (ref, "end_spread"), 1e-12);
  g_assert_cmpint (arrival.synchronising, ==, stats_reference_get_one (ref, "synchronising") != 0);
  expected = stats_reference_get (ref, "wait_caused", &n);
  g_assert_cmpuint (n, ==, (gsize) s->world_size);
  for (int r = 0; r < s->world_size; r++)
    stats_assert_close (wait_caused[r], expected[r], 1e-12);
  expected = stats_reference_get (ref, "late_count", &n);
  for (int r = 0; r < s->world_size; r++)
    g_assert_cmpuint (late_count[r], ==, (uint64_t) expected[r]);
  return arrival.synchronising;
}

static void
test_collective (void)
{
  for (int round = 0; round < 4; round++)
    {
      g_autoptr(Samples) s = make_spmd (6, 5, 40, 3, TRUE);

      /* rank 5 never ran it, rank 3 misses its last occurrences */
      g_assert_true (check_arrival (s));
    }
}

static void
test_compute_phase (void)
{
  for (int round = 0; round < 4; round++)
    {
      g_autoptr(Samples) s = make_spmd (4, 4, 40, -1, FALSE);

      g_assert_false (check_arrival (s));
    }
}

static void
test_single_rank (void)
{
  g_autoptr(Samples) s = make_spmd (3, 1, 20, -1, TRUE);

  g_assert_false (check_arrival (s));
}

static void
test_random_ranks (void)
{
  g_autoptr(Samples) s = make_random (16, 20000);

  check_arrival (s);
}

static void
test_without_starts (void)
{
  g_autoptr(Samples) s = make_spmd (4, 4, 10, 2, TRUE);

  s->timeline = FALSE;
  check_arrival (s);
}

static void
test_empty (void)
{
  g_autoptr(Samples) s = samples_new (2);
  g_autoptr(TprofGatheredTime) gt = samples_selection (s);
  g_autoptr(TprofOccurrences) occ = tprof_occurrences_new (gt, 2, NULL);
  TprofArrival arrival;

  g_assert_cmpuint (tprof_occurrences_n_ranks (occ), ==, 0);
  g_assert_cmpuint (tprof_occurrences_common (occ), ==, 0);
  g_assert_cmpuint (tprof_occurrences_count (occ, 1), ==, 0);
  g_assert_true (tprof_arrival_analyze (gt, 2, &arrival, NULL, NULL));
  g_assert_false (arrival.synchronising);
  g_assert_true (isnan (arrival.start_spread));
}

/* A rank outside the world is refused, naming the sample, and nothing
 * is charged. */
static void
test_rank_out_of_range (void)
{
  g_autoptr(Samples) s = make_spmd (4, 4, 10, -1, TRUE);
  g_autoptr(TprofGatheredTime) gt = samples_selection (s);
  double wait_caused[3] = { 0 };
  uint64_t late_count[3] = { 0 };
  TprofError error = { 0 };
  TprofArrival arrival;
  g_autofree char *expected = NULL;
  guint i;

  for (i = 0; g_array_index (s->ranks, int32_t, i) != 3; i++)
    ;
  g_assert_null (tprof_occurrences_new (gt, 3, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  expected = g_strdup_printf ("sample %u has rank 3, outside [0, 3)", i);
  g_assert_nonnull (strstr (error.message, expected));
  g_assert_null (tprof_occurrences_new (gt, 0, &error));
  g_assert_false (tprof_arrival_analyze (gt, 3, &arrival, wait_caused, late_count));
  for (int r = 0; r < 3; r++)
    g_assert_true (wait_caused[r] == 0.0 && late_count[r] == 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/arrival/collective", test_collective);
  g_test_add_func ("/analysis/arrival/compute-phase", test_compute_phase);
  g_test_add_func ("/analysis/arrival/single-rank", test_single_rank);
  g_test_add_func ("/analysis/arrival/random-ranks", test_random_ranks);
  g_test_add_func ("/analysis/arrival/without-starts", test_without_starts);
  g_test_add_func ("/analysis/arrival/empty", test_empty);
  g_test_add_func ("/analysis/arrival/rank-out-of-range", test_rank_out_of_range);
  return g_test_run ();
}
