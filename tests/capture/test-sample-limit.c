/* test-sample-limit.c — bounded capture: memory, exact figures and a uniform subset past the sample limit. */
/* SPDX-License-Identifier: MIT */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tprof/capture.h>

#include "tprof-time-manager-internal.h"

/* Memory is measured as the process's resident size. Under a sanitizer
 * that size also holds shadow memory, redzones and (ASan) a quarantine of
 * freed blocks: the bounds below then allow 300 MB more, still far below
 * what an unbounded capture takes (1.6 GB). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZER_SLACK ((size_t) 300 * 1024 * 1024)
#else
#define SANITIZER_SLACK ((size_t) 0)
#endif

#if defined(__SANITIZE_ADDRESS__)
/* ASan's quarantine holds 256 MB by default, which a loop of copies
 * fills; with its shadow and the allocator's own pages that came to
 * 304 MB once, past the slack. This program keeps 64 MB (ASAN_OPTIONS
 * can still set another size). */
const char *__asan_default_options (void);

const char *
__asan_default_options (void)
{
  return "quarantine_size_mb=64";
}
#endif

/* A field of /proc/self/status ("VmRSS", "VmHWM") in bytes. */
static size_t
status_bytes (const char *field)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  size_t kib = 0, len = strlen (field);

  g_assert_nonnull (f);
  while (fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, field, len) == 0 && line[len] == ':')
      kib = strtoull (line + len + 1, NULL, 10);
  fclose (f);
  g_assert_cmpuint (kib, >, 0);
  return kib * 1024;
}

static bool
collect_times (const double *times, const double *starts, size_t n, int32_t thread, void *user_data)
{
  GArray *out = user_data;

  g_array_append_vals (out, times, (guint) n);
  return true;
}

/* The stored samples of @name and the exact figures of all recorded. */
static GArray *
read_recorded (TprofTimeManager *tm, const char *name, TprofRecordedFigures *figures, bool *sampled)
{
  GArray *stored = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert_true (_tprof_time_manager_visit_recorded (tm, name, collect_times, stored, figures, sampled));
  return stored;
}

/* 10^8 samples under a limit of 10^5: memory stays within what 10^5
 * samples take, and count, sum, min and max cover all 10^8 exactly. The
 * durations are multiples of 2^-24 below 2^-12, so every partial sum is
 * exact in a double and the expected sum is an integer count of 2^-24. */
#define BIG_N     100000000ull
#define BIG_LIMIT 100000

static void
test_bounded_memory (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofRecordedFigures figures;
  uint64_t units = 0;
  size_t rss_before, hwm_before, rss_after, hwm_after;
  bool sampled = false;
  GArray *stored;
  double stored_sum = 0;

#ifdef __SANITIZE_THREAD__
  /* One thread and 10^8 appends: nothing ThreadSanitizer could find that
   * concurrent-reader does not, and 2 minutes of its instrumented stores
   * (the plain and ASan builds run it in under 20 s). */
  g_test_skip ("one thread: left to the plain and AddressSanitizer builds");
  tprof_time_manager_free (tm);
  return;
#endif
  tprof_time_manager_set_sample_limit (tm, BIG_LIMIT);
  rss_before = status_bytes ("VmRSS");
  hwm_before = status_bytes ("VmHWM");
  for (uint64_t i = 0; i < BIG_N; i++)
    {
      /* a pseudo-random multiple in [1, 4095], the outliers at known places */
      uint64_t k = 1 + (i * 2654435761u) % 4095;

      if (i == 77777777)
        k = 0;
      else if (i == 123456)
        k = 4096;
      units += k;
      tprof_time_manager_append_time (tm, "op", (double) k * 0x1p-24);
    }
  rss_after = status_bytes ("VmRSS");
  hwm_after = status_bytes ("VmHWM");
  g_test_message ("RSS %zu -> %zu KiB, peak %zu -> %zu KiB (unbounded: %llu KiB of samples)",
                  rss_before / 1024, rss_after / 1024, hwm_before / 1024, hwm_after / 1024,
                  (unsigned long long) (BIG_N * 16 / 1024));
  /* 10^5 slots of 16 bytes and their 4-byte sequence numbers are 2 MB:
   * allow 8 MB of growth, against 1.6 GB unbounded */
  g_assert_cmpuint (rss_after, <, rss_before + 8 * 1024 * 1024 + SANITIZER_SLACK);
  g_assert_cmpuint (hwm_after, <, hwm_before + 8 * 1024 * 1024 + SANITIZER_SLACK);

  stored = read_recorded (tm, "op", &figures, &sampled);
  g_assert_true (sampled);
  g_assert_cmpuint (stored->len, ==, BIG_LIMIT);
  g_assert_cmpuint (figures.recorded, ==, BIG_N);
  g_assert_cmpfloat (figures.sum, ==, (double) units * 0x1p-24);
  g_assert_cmpfloat (figures.min, ==, 0.0);
  g_assert_cmpfloat (figures.max, ==, 4096 * 0x1p-24);
  for (guint i = 0; i < stored->len; i++)
    stored_sum += g_array_index (stored, double, i);
  /* the subset's mean estimates the mean: 4096/2 units, sd ~1182 units / sqrt(10^5) */
  g_assert_cmpfloat (fabs (stored_sum / stored->len - figures.sum / (double) figures.recorded), <,
                     5 * 1182.0 / sqrt (BIG_LIMIT) * 0x1p-24);
  g_array_free (stored, TRUE);
  /* a second read of an unchanged manager reuses its snapshot: no growth */
  rss_before = status_bytes ("VmRSS");
  g_array_free (read_recorded (tm, "op", &figures, &sampled), TRUE);
  g_assert_cmpuint (status_bytes ("VmRSS"), <, rss_before + 1024 * 1024 + SANITIZER_SLACK);
  tprof_time_manager_free (tm);
}

/* Sample i has duration i: the kept durations are the kept positions.
 * Their counts in 100 equal buckets of the positions follow a uniform
 * distribution: chi-square with 99 degrees of freedom below 148.23, its
 * 0.999 quantile (alpha = 0.001; the seed is fixed, so the test is
 * reproducible). The first or last 10^4 samples, what a buffer that
 * stopped or wrapped around would keep, give a chi-square of 990000. */
#define UNIFORM_N       1000000
#define UNIFORM_LIMIT   10000
#define UNIFORM_BUCKETS 100
#define CHI2_CRITICAL   148.23

static double
chi_square_of_positions (GArray *kept, size_t n)
{
  double counts[UNIFORM_BUCKETS] = { 0 }, expected = (double) kept->len / UNIFORM_BUCKETS, chi2 = 0;

  for (guint i = 0; i < kept->len; i++)
    {
      double position = g_array_index (kept, double, i);

      g_assert_cmpfloat (position, ==, floor (position));
      g_assert_cmpfloat (position, >=, 0);
      g_assert_cmpfloat (position, <, n);
      counts[(size_t) position * UNIFORM_BUCKETS / n]++;
    }
  for (int b = 0; b < UNIFORM_BUCKETS; b++)
    chi2 += (counts[b] - expected) * (counts[b] - expected) / expected;
  return chi2;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
test_uniform_subset (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofRecordedFigures figures;
  bool sampled;
  GArray *kept, *first;
  double chi2;

  _tprof_time_manager_set_sample_seed (tm, 20261204);
  tprof_time_manager_set_sample_limit (tm, UNIFORM_LIMIT);
  for (int i = 0; i < UNIFORM_N; i++)
    tprof_time_manager_append_time (tm, "pos", (double) i);
  kept = read_recorded (tm, "pos", &figures, &sampled);
  g_assert_cmpuint (kept->len, ==, UNIFORM_LIMIT);
  g_assert_cmpuint (figures.recorded, ==, UNIFORM_N);
  g_assert_cmpfloat (figures.sum, ==, (double) UNIFORM_N * (UNIFORM_N - 1) / 2);
  /* each position kept once */
  g_array_sort (kept, compare_double);
  for (guint i = 1; i < kept->len; i++)
    g_assert_cmpfloat (g_array_index (kept, double, i - 1), <, g_array_index (kept, double, i));
  chi2 = chi_square_of_positions (kept, UNIFORM_N);
  g_test_message ("chi-square of kept positions, 99 dof: %.2f (critical %.2f at alpha 0.001)", chi2,
                  CHI2_CRITICAL);
  g_assert_cmpfloat (chi2, <, CHI2_CRITICAL);

  /* the statistic tells a biased subset apart */
  first = g_array_new (FALSE, FALSE, sizeof (double));
  for (int i = 0; i < UNIFORM_LIMIT; i++)
    {
      double position = i;

      g_array_append_val (first, position);
    }
  g_assert_cmpfloat (chi_square_of_positions (first, UNIFORM_N), >, CHI2_CRITICAL);
  g_array_free (first, TRUE);
  g_array_free (kept, TRUE);

  /* the same seed keeps the same subset */
  {
    TprofTimeManager *again = tprof_time_manager_new ();
    GArray *kept_again;
    double *a = NULL, *b = NULL;
    size_t na, nb;

    _tprof_time_manager_set_sample_seed (again, 20261204);
    tprof_time_manager_set_sample_limit (again, UNIFORM_LIMIT);
    for (int i = 0; i < UNIFORM_N; i++)
      tprof_time_manager_append_time (again, "pos", (double) i);
    na = tprof_time_manager_get_time (tm, "pos", &a);
    nb = tprof_time_manager_get_time (again, "pos", &b);
    g_assert_cmpuint (na, ==, UNIFORM_LIMIT);
    g_assert_cmpuint (nb, ==, UNIFORM_LIMIT);
    g_assert_cmpmem (a, na * sizeof *a, b, nb * sizeof *b);
    free (a);
    free (b);
    kept_again = read_recorded (again, "pos", &figures, &sampled);
    g_assert_true (sampled);
    g_array_free (kept_again, TRUE);
    tprof_time_manager_free (again);
  }
  tprof_time_manager_free (tm);
}

/* At or below the limit nothing is sampled and every sample stays, in
 * order; a limit smaller than a chunk holds; clear starts over. With one
 * thread sampled, the figures add the other threads' stored samples. */
static gpointer
append_three (gpointer data)
{
  for (int i = 0; i < 3; i++)
    tprof_time_manager_append_time (data, "seven", 0.25);
  return NULL;
}

static void
test_within_limit (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofRecordedFigures figures;
  bool sampled = true;
  GArray *stored;
  double *times = NULL;

  tprof_time_manager_set_sample_limit (tm, 7);
  for (int i = 0; i < 7; i++)
    tprof_time_manager_append_time (tm, "seven", i + 0.5);
  stored = read_recorded (tm, "seven", &figures, &sampled);
  g_assert_false (sampled);
  g_assert_cmpuint (stored->len, ==, 7);
  for (int i = 0; i < 7; i++)
    g_assert_cmpfloat (g_array_index (stored, double, i), ==, i + 0.5);
  g_assert_cmpuint (figures.recorded, ==, 0);  /* the runs are all */
  g_array_free (stored, TRUE);

  tprof_time_manager_append_time (tm, "seven", 100.0);
  g_assert_cmpuint (tprof_time_manager_get_time (tm, "seven", &times), ==, 7);
  free (times);
  stored = read_recorded (tm, "seven", &figures, &sampled);
  g_assert_true (sampled);
  g_assert_cmpuint (figures.recorded, ==, 8);
  g_assert_cmpfloat (figures.sum, ==, 124.5);
  g_assert_cmpfloat (figures.min, ==, 0.5);
  g_assert_cmpfloat (figures.max, ==, 100.0);
  g_array_free (stored, TRUE);

  {
    GThread *other = g_thread_new ("other", append_three, tm);

    g_thread_join (other);
  }
  stored = read_recorded (tm, "seven", &figures, &sampled);
  g_assert_true (sampled);
  g_assert_cmpuint (stored->len, ==, 7 + 3);
  g_assert_cmpuint (figures.recorded, ==, 8 + 3);
  g_assert_cmpfloat (figures.sum, ==, 124.5 + 3 * 0.25);
  g_assert_cmpfloat (figures.min, ==, 0.25);
  g_array_free (stored, TRUE);

  tprof_time_manager_clear (tm);
  tprof_time_manager_set_sample_limit (tm, 0);
  for (int i = 0; i < 1000; i++)
    tprof_time_manager_append_time (tm, "seven", 1.0);
  g_assert_cmpuint (tprof_time_manager_get_time (tm, "seven", &times), ==, 1000);
  free (times);
  tprof_time_manager_free (tm);
}

/* Regions timed by TPROF_SCOPE (raw ticks) past the limit: the count is
 * exact and the sum lies between the stored samples' and what the
 * clock says elapsed around them. */
static void
test_scope_ticks (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofRecordedFigures figures;
  bool sampled = false;
  GArray *stored;
  double stored_sum = 0, stored_max = 0;
  gint64 before, after;

  tprof_time_manager_set_sample_limit (tm, 1000);
  tprof_time_manager_enable (tm);
  before = g_get_monotonic_time ();
  for (int i = 0; i < 200000; i++)
    {
      TPROF_SCOPE ("region");
    }
  after = g_get_monotonic_time ();
  tprof_time_manager_disable (tm);
  stored = read_recorded (tm, "region", &figures, &sampled);
  g_assert_true (sampled);
  g_assert_cmpuint (stored->len, ==, 1000);
  g_assert_cmpuint (figures.recorded, ==, 200000);
  for (guint i = 0; i < stored->len; i++)
    {
      stored_sum += g_array_index (stored, double, i);
      stored_max = fmax (stored_max, g_array_index (stored, double, i));
    }
  g_assert_cmpfloat (figures.sum, >=, stored_sum * (1 - 1e-6));
  g_assert_cmpfloat (figures.sum, <=, (after - before) * 1e-6 + 1e-3);
  g_assert_cmpfloat (figures.max, >=, stored_max * (1 - 1e-6));
  g_array_free (stored, TRUE);
  tprof_time_manager_free (tm);
}

/* A reader copying while the owner replaces slots sees every slot whole:
 * sample i has duration i and begins (as append_time sets it) i seconds
 * before it was recorded, so start + duration of a whole slot is a clock
 * reading after the run started; half of one and half of another is not. */
typedef struct
{
  TprofTimeManager *tm;
  gint              done;
} Recorder;

static gpointer
record_positions (gpointer data)
{
  Recorder *r = data;

  for (int i = 0; i < 3000000; i++)
    tprof_time_manager_append_time (r->tm, "race", (double) (i % 1000) * 1e-3);
  g_atomic_int_set (&r->done, 1);
  return NULL;
}

static bool
check_whole (const double *times, const double *starts, size_t n, int32_t thread, void *user_data)
{
  double *bounds = user_data;

  for (size_t i = 0; i < n; i++)
    {
      double end = starts[i] + times[i];

      /* the end is when append_time ran: within the run, give or take rounding */
      if (!(end >= bounds[0] - 1e-3 && end <= bounds[1] + 1e-3))
        bounds[2]++;
    }
  return true;
}

static void
test_concurrent_reader (void)
{
  Recorder r = { tprof_time_manager_new (), 0 };
  GThread *thread;
  int reads = 0, copies = 0;
  double bounds[3];
  size_t rss_before, rss_after;

  tprof_time_manager_set_sample_limit (r.tm, 1000);
  tprof_clock_calibrate ();
  bounds[0] = g_get_monotonic_time () * 1e-6;
  bounds[1] = INFINITY;
  bounds[2] = 0;
  thread = g_thread_new ("recorder", record_positions, &r);
  /* a visit keeps its snapshot (16 kB here) until free: a few hundred */
  while (!g_atomic_int_get (&r.done) && reads < 300)
    {
      _tprof_time_manager_visit_timeline (r.tm, "race", check_whole, bounds);
      reads++;
    }
  /* copies keep nothing: memory stays flat however many */
  rss_before = status_bytes ("VmRSS");
  while (!g_atomic_int_get (&r.done))
    {
      double *times = NULL;

      g_assert_cmpuint (tprof_time_manager_get_time (r.tm, "race", &times), <=, 1000);
      free (times);
      copies++;
    }
  rss_after = status_bytes ("VmRSS");
  g_test_message ("resident size grew by %.1f MB over %d copies", (double) (rss_after - MIN (rss_after, rss_before)) / 1e6,
                  copies);
  g_assert_cmpuint (rss_after, <, rss_before + 1024 * 1024 + SANITIZER_SLACK);
  g_thread_join (thread);
  bounds[1] = g_get_monotonic_time () * 1e-6;
  _tprof_time_manager_visit_timeline (r.tm, "race", check_whole, bounds);
  g_test_message ("%d visits and %d copies while recording", reads, copies);
  g_assert_cmpint (reads, >, 10);
  g_assert_cmpint (copies, >, 10);
  g_assert_cmpfloat (bounds[2], ==, 0);
  tprof_time_manager_free (r.tm);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/sample-limit/within-limit", test_within_limit);
  g_test_add_func ("/capture/sample-limit/uniform-subset", test_uniform_subset);
  g_test_add_func ("/capture/sample-limit/scope-ticks", test_scope_ticks);
  g_test_add_func ("/capture/sample-limit/concurrent-reader", test_concurrent_reader);
  g_test_add_func ("/capture/sample-limit/bounded-memory", test_bounded_memory);
  return g_test_run ();
}
