/* test-live.c — TprofLive, fed a job's samples in pieces, against the file analysis of the same samples (summaries, arrival, straggler). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <tprof/capture.h>

#define WORLD 4
#define N_OPS 4

/* One job: forward (no synchronisation), allreduce (rank 1 arrives last
 * most often, everyone leaves together), backward, and io on rank 0 only;
 * rank 3 has fewer forwards. Per op, per rank: starts and durations by
 * start. */
typedef struct
{
  GArray *starts[N_OPS][WORLD];
  GArray *times[N_OPS][WORLD];
} Job;

static const char *names[N_OPS] = { "forward", "allreduce", "backward", "io" };

static void
push (Job    *job,
      int     op,
      int     r,
      double  start,
      double  time)
{
  g_array_append_val (job->starts[op][r], start);
  g_array_append_val (job->times[op][r], time);
}

static void
job_make (Job    *job,
          GRand  *rand,
          size_t  steps)
{
  for (int op = 0; op < N_OPS; op++)
    for (int r = 0; r < WORLD; r++)
      {
        job->starts[op][r] = g_array_new (FALSE, FALSE, sizeof (double));
        job->times[op][r] = g_array_new (FALSE, FALSE, sizeof (double));
      }
  for (size_t k = 0; k < steps; k++)
    {
      double t = (double) k, arrive[WORLD], leave = 0.0;

      for (int r = 0; r < WORLD; r++)
        {
          double fwd = 0.1 + g_rand_double_range (rand, 0.0, 0.05) + (r == 1 && g_rand_int_range (rand, 0, 10) < 7 ? 0.2 : 0.0);

          if (r != 3 || k + 5 < steps)
            push (job, 0, r, t + r * 1e-3, fwd);
          arrive[r] = t + fwd + 0.01;
          leave = fmax (leave, arrive[r]);
        }
      leave += 0.02;
      for (int r = 0; r < WORLD; r++)
        {
          push (job, 1, r, arrive[r], leave + g_rand_double_range (rand, 0.0, 1e-4) - arrive[r]);
          push (job, 2, r, leave + 0.01 + r * 1e-3, 0.2 + g_rand_double_range (rand, 0.0, 0.01));
        }
      if (k % 3 == 0)
        push (job, 3, 0, t + 0.5, 0.001 * (double) (k % 7 + 1));
    }
}

static void
job_clear (Job *job)
{
  for (int op = 0; op < N_OPS; op++)
    for (int r = 0; r < WORLD; r++)
      {
        g_array_unref (job->starts[op][r]);
        g_array_unref (job->times[op][r]);
      }
}

/* The whole of @op as a file holds it: ranks in turn, with its timeline. */
static TprofGatheredTime *
job_selection_first (const Job *job,
                     int        op,
                     guint      limit)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (double));
  TprofGatheredTime *gt;
  size_t n;

  for (int32_t r = 0; r < WORLD; r++)
    for (guint i = 0; i < MIN (job->times[op][r]->len, limit); i++)
      {
        g_array_append_val (times, g_array_index (job->times[op][r], double, i));
        g_array_append_val (starts, g_array_index (job->starts[op][r], double, i));
        g_array_append_val (ranks, r);
      }
  n = times->len;
  gt = tprof_gathered_time_new ((double *) times->data, (int32_t *) ranks->data, n);
  g_assert_true (tprof_gathered_time_set_timeline_take (gt, g_memdup2 (starts->data, n * sizeof (double)), NULL));
  g_array_unref (times);
  g_array_unref (ranks);
  g_array_unref (starts);
  return gt;
}

static TprofGatheredTime *
job_selection (const Job *job,
               int        op)
{
  return job_selection_first (job, op, G_MAXUINT);
}

/* Feeds @job to @live in pieces of random size, ranks advancing unevenly,
 * each piece's samples reversed half of the time (a flush need not hold
 * them by start), with an update after each round; each rank is marked
 * done once all its samples are in, while the others may still lag. */
static void
feed (TprofLive *live,
      const Job *job,
      GRand     *rand)
{
  size_t at[N_OPS][WORLD] = { { 0 } };
  gboolean more = TRUE;

  while (more)
    {
      gboolean rank_more[WORLD] = { FALSE };

      more = FALSE;
      for (int op = 0; op < N_OPS; op++)
        for (int r = 0; r < WORLD; r++)
          {
            GArray *s = job->starts[op][r], *t = job->times[op][r];
            size_t left = s->len - at[op][r], want = (size_t) g_rand_int_range (rand, 0, 40), n = MIN (left, want);
            double starts[40], times[40];
            gboolean reverse = g_rand_boolean (rand);

            for (size_t i = 0; i < n; i++)
              {
                size_t j = reverse ? n - 1 - i : i;

                starts[j] = g_array_index (s, double, at[op][r] + i);
                times[j] = g_array_index (t, double, at[op][r] + i);
              }
            g_assert_true (tprof_live_add (live, r, (size_t) op, n, starts, times));
            at[op][r] += n;
            more = more || at[op][r] < s->len;
            rank_more[r] = rank_more[r] || at[op][r] < s->len;
          }
      for (int r = 0; r < WORLD; r++)
        if (!rank_more[r])
          tprof_live_rank_done (live, r);
      g_assert_true (tprof_live_update (live));
    }
}

static void
assert_close (double a,
              double b)
{
  g_assert_cmpfloat_with_epsilon (a, b, 1e-12 * fmax (1.0, fabs (b)));
}

static void
test_live_equals_file (void)
{
  GRand *rand = g_rand_new_with_seed (27);
  TprofLive *live = tprof_live_new (WORLD);
  TprofStragglers *file = tprof_stragglers_new (WORLD), *got;
  Job job;
  double p_file, p_live;

  job_make (&job, rand, 400);
  for (int op = 0; op < N_OPS; op++)
    g_assert_cmpint (tprof_live_operation (live, names[op]), ==, op);
  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 1);
  feed (live, &job, rand);

  for (int op = 0; op < N_OPS; op++)
    {
      TprofGatheredTime *gt = job_selection (&job, op);
      TprofSummary want, have;
      TprofArrival a_want, a_have;

      g_assert_true (tprof_gathered_time_summarize (gt, &want));
      g_assert_true (tprof_live_summary (live, (size_t) op, &have));
      g_assert_cmpuint (have.count, ==, want.count);
      g_assert_cmpfloat (have.min, ==, want.min);
      g_assert_cmpfloat (have.max, ==, want.max);
      assert_close (have.sum, want.sum);
      assert_close (have.mean, want.mean);
      g_assert_cmpint (have.slowest_rank, ==, want.slowest_rank);

      g_assert_true (tprof_stragglers_add (file, gt, &a_want));
      tprof_live_arrival (live, (size_t) op, &a_have);
      g_assert_cmpuint (a_have.n_ranks, ==, a_want.n_ranks);
      if (op == 0)
        {
          /* rank 3 ran 5 forwards fewer: the file keeps the 395 every
           * rank has, the live analysis also the last 5 over ranks 0-2 */
          g_assert_cmpuint (a_want.n_occurrences, ==, 395);
          g_assert_cmpuint (a_have.n_occurrences, ==, 400);
          g_assert_false (a_have.synchronising || a_want.synchronising);
          tprof_gathered_time_free (gt);
          continue;
        }
      g_assert_cmpuint (a_have.n_occurrences, ==, a_want.n_occurrences);
      g_assert_cmpfloat (a_have.start_spread, ==, a_want.start_spread);
      g_assert_cmpfloat (a_have.end_spread, ==, a_want.end_spread);
      g_assert_cmpint (a_have.synchronising, ==, a_want.synchronising);
      tprof_gathered_time_free (gt);
    }
  /* the job as built: only allreduce synchronises, rank 1 is its straggler */
  g_assert_cmpuint (tprof_stragglers_n_synchronising (file), ==, 1);

  got = tprof_live_stragglers (live);
  g_assert_nonnull (got);
  g_assert_cmpuint (tprof_stragglers_occurrences (got), ==, tprof_stragglers_occurrences (file));
  g_assert_cmpuint (tprof_stragglers_n_synchronising (got), ==, 1);
  g_assert_cmpfloat (tprof_stragglers_expected_late (got), ==, tprof_stragglers_expected_late (file));
  for (int r = 0; r < WORLD; r++)
    {
      g_assert_cmpuint (tprof_stragglers_late_count (got)[r], ==, tprof_stragglers_late_count (file)[r]);
      g_assert_cmpfloat (tprof_stragglers_wait_caused (got)[r], ==, tprof_stragglers_wait_caused (file)[r]);
      g_assert_cmpfloat (tprof_stragglers_expected_late_ranks (got)[r], ==,
                         tprof_stragglers_expected_late_ranks (file)[r]);
    }
  g_assert_cmpint (tprof_stragglers_name (got, &p_live), ==, 1);
  g_assert_cmpint (tprof_stragglers_name (file, &p_file), ==, 1);
  g_assert_cmpfloat (p_live, ==, p_file);

  tprof_stragglers_free (got);
  tprof_stragglers_free (file);
  tprof_live_free (live);
  job_clear (&job);
  g_rand_free (rand);
}

/* While a rank lags, the occurrences complete are those it has too; a
 * rank without samples that is still running holds every occurrence back,
 * and stops doing so once done. */
static void
test_live_occurrences_wait_for_every_rank (void)
{
  TprofLive *live = tprof_live_new (3);
  const double starts[] = { 0.0, 1.0, 2.0, 3.0 }, times[] = { 0.5, 0.5, 0.5, 0.5 };
  TprofArrival a;
  TprofSummary sum;

  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 0);
  g_assert_true (tprof_live_add (live, 0, 0, 4, starts, times));
  g_assert_true (tprof_live_add (live, 1, 0, 2, starts, times));
  g_assert_true (tprof_live_update (live));
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 0);
  tprof_live_rank_done (live, 2);
  g_assert_true (tprof_live_update (live));
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 2);
  g_assert_cmpuint (a.n_ranks, ==, 2);
  g_assert_true (tprof_live_add (live, 1, 0, 1, starts + 2, times + 2));
  g_assert_true (tprof_live_update (live));
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 3);
  g_assert_true (tprof_live_summary (live, 0, &sum));
  g_assert_cmpuint (sum.count, ==, 7);
  g_assert_cmpfloat (sum.sum, ==, 3.5);
  g_assert_false (tprof_live_add (live, 3, 0, 1, starts, times));
  g_assert_false (tprof_live_add (live, 0, 1, 1, starts, times));
  tprof_live_free (live);
  g_assert_null (tprof_live_new (0));
}

/* Midway, with rank 2 behind the others, the arrival and the straggler
 * so far are those of the file analysis of the occurrences every rank has
 * reached. */
static void
test_live_midway_equals_file_prefix (void)
{
  GRand *rand = g_rand_new_with_seed (30);
  TprofLive *live = tprof_live_new (WORLD);
  TprofStragglers *file = tprof_stragglers_new (WORLD), *got;
  TprofGatheredTime *gt;
  TprofArrival a_want, a_have;
  Job job;
  double p_file, p_live;

  job_make (&job, rand, 300);
  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 0);
  for (int r = 0; r < WORLD; r++)
    {
      guint n = r == 2 ? 120 : 200;

      for (guint at = 0; at < n; at += 50)
        {
          guint piece = MIN (50, n - at);

          g_assert_true (tprof_live_add (live, r, 0, piece, &g_array_index (job.starts[1][r], double, at),
                                         &g_array_index (job.times[1][r], double, at)));
          g_assert_true (tprof_live_update (live));
        }
    }
  gt = job_selection_first (&job, 1, 120);
  g_assert_true (tprof_stragglers_add (file, gt, &a_want));
  tprof_live_arrival (live, 0, &a_have);
  g_assert_cmpuint (a_have.n_occurrences, ==, 120);
  g_assert_cmpuint (a_have.n_occurrences, ==, a_want.n_occurrences);
  g_assert_cmpfloat (a_have.start_spread, ==, a_want.start_spread);
  g_assert_cmpfloat (a_have.end_spread, ==, a_want.end_spread);
  g_assert_true (a_have.synchronising && a_want.synchronising);
  got = tprof_live_stragglers (live);
  for (int r = 0; r < WORLD; r++)
    {
      g_assert_cmpuint (tprof_stragglers_late_count (got)[r], ==, tprof_stragglers_late_count (file)[r]);
      g_assert_cmpfloat (tprof_stragglers_wait_caused (got)[r], ==, tprof_stragglers_wait_caused (file)[r]);
    }
  g_assert_cmpint (tprof_stragglers_name (got, &p_live), ==, tprof_stragglers_name (file, &p_file));
  g_assert_cmpfloat (p_live, ==, p_file);
  tprof_stragglers_free (got);
  tprof_stragglers_free (file);
  tprof_gathered_time_free (gt);
  tprof_live_free (live);
  job_clear (&job);
  g_rand_free (rand);
}

/* A synchronising operation on 3 ranks, every rank leaving at k + 0.875;
 * rank 2 has only occurrences 0 and 1. By hand (values exact in binary):
 *   k  rank 0  rank 1  rank 2  late  wait                   start spread
 *   0  0       0.25    0.125   1     0.25 + 0.125 = 0.375   0.25
 *   1  1.5     1       1.25    0     0.5 + 0.25 = 0.75      0.5
 *   2  2       2.375   -       1     0.375                  0.375
 *   3  3       3.125   -       1     0.125                  0.125
 *   4  4.5     4       -       0     0.5                    0.5
 * late counts 2, 3, 0; waits 1.25, 0.875, 0; median start spread 0.375. */
static const double fin_starts[3][5] = { { 0.0, 1.5, 2.0, 3.0, 4.5 },
                                         { 0.25, 1.0, 2.375, 3.125, 4.0 },
                                         { 0.125, 1.25 } };

static void
fin_add (TprofLive *live,
         int        r,
         size_t     from,
         size_t     n)
{
  double times[5];

  for (size_t k = from; k < from + n; k++)
    times[k - from] = (double) k + 0.875 - fin_starts[r][k];
  g_assert_true (tprof_live_add (live, r, 0, n, fin_starts[r] + from, times));
  g_assert_true (tprof_live_update (live));
}

static void
assert_fin_result (TprofLive *live)
{
  const uint64_t late[3] = { 2, 3, 0 };
  const double wait[3] = { 1.25, 0.875, 0.0 };
  TprofStragglers *got;
  TprofArrival a;

  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 5);
  g_assert_cmpuint (a.n_ranks, ==, 3);
  g_assert_cmpfloat (a.start_spread, ==, 0.375);
  g_assert_cmpfloat (a.end_spread, ==, 0.0);
  g_assert_true (a.synchronising);
  got = tprof_live_stragglers (live);
  g_assert_nonnull (got);
  g_assert_cmpuint (tprof_stragglers_occurrences (got), ==, 5);
  for (int r = 0; r < 3; r++)
    {
      g_assert_cmpuint (tprof_stragglers_late_count (got)[r], ==, late[r]);
      g_assert_cmpfloat (tprof_stragglers_wait_caused (got)[r], ==, wait[r]);
    }
  tprof_stragglers_free (got);
}

/* A finished rank (ended, or damaged from some point on) with nothing
 * pending no longer holds back the later occurrences: they complete over
 * the other ranks, whether it finishes before or after they arrive; its
 * pending samples still take part. */
static void
test_live_finished_rank_releases (void)
{
  TprofLive *live = tprof_live_new (3);
  TprofArrival a;

  /* finished after the others arrived: held at 2 until then */
  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 0);
  fin_add (live, 0, 0, 5);
  fin_add (live, 1, 0, 5);
  fin_add (live, 2, 0, 2);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 2);
  tprof_live_rank_done (live, 2);
  g_assert_true (tprof_live_update (live));
  assert_fin_result (live);
  tprof_live_free (live);

  /* finished first, its samples pending until the others reach them */
  live = tprof_live_new (3);
  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 0);
  fin_add (live, 2, 0, 2);
  tprof_live_rank_done (live, 2);
  g_assert_true (tprof_live_update (live));
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 0);
  fin_add (live, 0, 0, 1);
  fin_add (live, 1, 0, 3);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 1);
  fin_add (live, 0, 1, 3);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 3);
  /* a running rank still holds the occurrences back */
  fin_add (live, 0, 4, 1);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 3);
  fin_add (live, 1, 3, 2);
  assert_fin_result (live);
  tprof_live_free (live);
}

/* Occurrence k of rank @r: starts at k + 0.25 r, ends at k + 1. */
static void
absent_add (TprofLive *live,
            int        r,
            size_t     from,
            size_t     n)
{
  double starts[8], times[8];

  for (size_t k = from; k < from + n; k++)
    {
      starts[k - from] = (double) k + 0.25 * r;
      times[k - from] = (double) k + 1.0 - starts[k - from];
    }
  g_assert_true (tprof_live_add (live, r, 0, n, starts, times));
  g_assert_true (tprof_live_update (live));
}

/* A rank not reporting (absent) holds nothing back; back, it takes part
 * from the next occurrence on, its samples of the occurrences completed
 * meanwhile left out of the arrival but not of its statistics. By hand:
 * occurrences 0-2 over ranks 0,1 (rank 1 late by 0.25), 3-4 over all
 * three (rank 2 late, keeping 0.5 + 0.25 waiting each time). */
static void
test_live_absent_rank (void)
{
  TprofLive *live = tprof_live_new (3);
  const uint64_t late[3] = { 0, 3, 2 };
  const double wait[3] = { 0.0, 0.75, 1.5 };
  TprofStragglers *got;
  TprofArrival a;
  TprofSummary summary;

  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 0);
  absent_add (live, 0, 0, 3);
  absent_add (live, 1, 0, 3);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 0);
  tprof_live_rank_absent (live, 2, true);
  g_assert_true (tprof_live_update (live));
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 3);

  /* back: it holds the next occurrences until its samples come */
  tprof_live_rank_absent (live, 2, false);
  absent_add (live, 0, 3, 2);
  absent_add (live, 1, 3, 2);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 3);
  absent_add (live, 2, 0, 5);
  tprof_live_arrival (live, 0, &a);
  g_assert_cmpuint (a.n_occurrences, ==, 5);
  g_assert_cmpuint (a.n_ranks, ==, 3);
  g_assert_cmpfloat (a.start_spread, ==, 0.25);
  got = tprof_live_stragglers (live);
  g_assert_nonnull (got);
  for (int r = 0; r < 3; r++)
    {
      g_assert_cmpuint (tprof_stragglers_late_count (got)[r], ==, late[r]);
      g_assert_cmpfloat (tprof_stragglers_wait_caused (got)[r], ==, wait[r]);
    }
  tprof_stragglers_free (got);
  /* its five samples count all the same */
  g_assert_true (tprof_live_summary (live, 0, &summary));
  g_assert_cmpuint (summary.count, ==, 15);
  tprof_live_free (live);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The spreads' running median past the size whose heaps are mapped and
 * grow without a copy: after each batch, the median of every spread so
 * far, sorted here. Rank 1 starts d_k after rank 0 in occurrence k. */
static void
test_live_many_occurrences (void)
{
  enum { BATCH = 50000, BATCHES = 12 };
  TprofLive *live = tprof_live_new (2);
  GRand *rand = g_rand_new_with_seed (2027);
  double *spreads = g_new (double, BATCH * BATCHES), *sorted = g_new (double, BATCH * BATCHES);
  double *starts[2] = { g_new (double, BATCH), g_new (double, BATCH) };
  double *times[2] = { g_new (double, BATCH), g_new (double, BATCH) };

  g_assert_cmpint (tprof_live_operation (live, "allreduce"), ==, 0);
  for (size_t b = 0; b < BATCHES; b++)
    {
      size_t n = (b + 1) * BATCH;
      TprofArrival a;
      double want;

      for (size_t i = 0; i < BATCH; i++)
        {
          size_t k = b * BATCH + i;

          starts[0][i] = 2.0 * (double) k;
          starts[1][i] = 2.0 * (double) k + g_rand_double (rand);
          /* as the analysis subtracts them, rounding and all */
          spreads[k] = starts[1][i] - starts[0][i];
          times[0][i] = 1.0;
          times[1][i] = 1.0 - spreads[k];
        }
      for (int r = 0; r < 2; r++)
        g_assert_true (tprof_live_add (live, r, 0, BATCH, starts[r], times[r]));
      g_assert_true (tprof_live_update (live));
      memcpy (sorted, spreads, n * sizeof *sorted);
      qsort (sorted, n, sizeof *sorted, compare_doubles);
      want = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
      tprof_live_arrival (live, 0, &a);
      g_assert_cmpuint (a.n_occurrences, ==, n);
      g_assert_cmpfloat_with_epsilon (a.start_spread, want, 1e-15);
    }
  for (int r = 0; r < 2; r++)
    {
      g_free (starts[r]);
      g_free (times[r]);
    }
  g_free (spreads);
  g_free (sorted);
  g_rand_free (rand);
  tprof_live_free (live);
}

/* The per-rank totals are what was added, by hand; and under a mask they
 * summarize as the ranks selected alone do. */
static void
test_live_rank_totals (void)
{
  TprofLive *live = tprof_live_new (3);
  const double s0[] = { 0.0, 1.0 }, d0[] = { 0.5, 0.25 };
  const double s2[] = { 0.0, 1.0, 2.0 }, d2[] = { 0.125, 2.0, 1.0 };
  const int64_t *count;
  const double *sum, *min, *max;
  const uint8_t mask[] = { 0, 0, 1 };
  TprofSummary masked;
  ssize_t op = tprof_live_operation (live, "step");

  g_assert_cmpint (op, ==, 0);
  g_assert_true (tprof_live_add (live, 0, 0, 2, s0, d0));
  g_assert_true (tprof_live_add (live, 2, 0, 3, s2, d2));
  g_assert_true (tprof_live_update (live));
  tprof_live_rank_totals (live, 0, &count, &sum, &min, &max);
  g_assert_cmpint (count[0], ==, 2);
  g_assert_cmpint (count[1], ==, 0);
  g_assert_cmpint (count[2], ==, 3);
  g_assert_cmpfloat (sum[0], ==, 0.75);
  g_assert_cmpfloat (sum[2], ==, 3.125);
  g_assert_cmpfloat (min[0], ==, 0.25);
  g_assert_cmpfloat (max[0], ==, 0.5);
  g_assert_cmpfloat (min[2], ==, 0.125);
  g_assert_cmpfloat (max[2], ==, 2.0);
  g_assert_true (tprof_rank_totals_summarize (count, sum, min, max, 3, mask, &masked));
  g_assert_cmpuint (masked.count, ==, 3);
  g_assert_cmpfloat (masked.sum, ==, 3.125);
  g_assert_cmpfloat (masked.max, ==, 2.0);
  tprof_live_free (live);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live/equals-file", test_live_equals_file);
  g_test_add_func ("/live/occurrences-wait-for-every-rank", test_live_occurrences_wait_for_every_rank);
  g_test_add_func ("/live/midway-equals-file-prefix", test_live_midway_equals_file_prefix);
  g_test_add_func ("/live/finished-rank-releases", test_live_finished_rank_releases);
  g_test_add_func ("/live/rank-totals", test_live_rank_totals);
  g_test_add_func ("/live/absent-rank", test_live_absent_rank);
  g_test_add_func ("/live/many-occurrences", test_live_many_occurrences);
  return g_test_run ();
}
