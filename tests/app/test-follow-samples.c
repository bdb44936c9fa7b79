/* test-follow-samples.c — TprofFollowSamples: the kept samples of a followed job, and the memory readied for the next poll off the main thread. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tprof-follow-samples.h"

#define POLL 300000   /* samples of operation 0 per poll: megabytes */

/* Whether the page holding @p is in memory. */
static gboolean
is_resident (const void *p)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  unsigned char in = 0;

  g_assert_cmpint (mincore ((void *) ((guintptr) p & ~(guintptr) (page - 1)), page, &in), ==, 0);
  return (in & 1) != 0;
}

/* Whether this kernel makes pages present on request (Linux 5.14). */
static gboolean
can_populate (void)
{
#ifdef MADV_POPULATE_WRITE
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  void *p = mmap (NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  gboolean ok = p != MAP_FAILED && madvise (p, page, MADV_POPULATE_WRITE) == 0;

  if (p != MAP_FAILED)
    munmap (p, page);
  return ok;
#else
  return FALSE;
#endif
}

/* One poll's samples of @op: starts first + i, durations (first + i) / 2. */
static void
add_poll (TprofFollowSamples *samples, gsize op, int rank, gsize first, gsize n)
{
  g_autofree double *starts = g_new (double, n);
  g_autofree double *durations = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    {
      starts[i] = (double) (first + i);
      durations[i] = (double) (first + i) / 2.0;
    }
  g_assert_cmpint (_tprof_follow_samples_add (samples, op, rank, n, starts, durations, NULL), ==, 0);
}

static void
check_kept (TprofGatheredTime *gt, gsize n)
{
  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, n);
  for (gsize i = 0; i < n; i++)
    if (tprof_gathered_time_times (gt)[i] != (double) i / 2.0 || tprof_gathered_time_starts (gt)[i] != (double) i)
      g_error ("sample %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " changed", i, n);
}

/* After a poll, the next poll's room (as many samples as it brought) has
 * its pages present; the next poll writes there; the snapshot taken
 * before is unchanged; a poll that brings nothing readies nothing. */
static void
test_ahead (void)
{
  TprofFollowSamples *samples = _tprof_follow_samples_new (G_GUINT64_CONSTANT (10000000));
  TprofFollowSamplesAhead *ahead;
  TprofGatheredTime *before, *after, *other;
  const double *next;

  /* the opening read is no poll's: nothing readied for it */
  add_poll (samples, 0, 0, 0, 1000);
  _tprof_follow_samples_settle (samples);
  g_assert_null (_tprof_follow_samples_ahead (samples));

  add_poll (samples, 0, 0, 1000, POLL - 1000);
  add_poll (samples, 1, 3, 0, 10);
  before = _tprof_follow_samples_dup (samples, 0);
  /* the last sample the next poll of the same size would write */
  next = tprof_gathered_time_times (before) + 2 * POLL - 1;
  ahead = _tprof_follow_samples_ahead (samples);
  g_assert_nonnull (ahead);
  if (can_populate ())
    {
      g_assert_false (is_resident (next));
      _tprof_follow_samples_ahead_run (ahead);
      g_assert_true (is_resident (next));
    }
  else
    _tprof_follow_samples_ahead_run (ahead);
  /* nothing came since: nothing to ready, what is readied stays so */
  g_assert_null (_tprof_follow_samples_ahead (samples));

  add_poll (samples, 0, 0, POLL, POLL);
  after = _tprof_follow_samples_dup (samples, 0);
  check_kept (before, POLL);
  check_kept (after, 2 * POLL);
  g_assert_true (tprof_gathered_time_times (after) + 2 * POLL - 1 == next);
  other = _tprof_follow_samples_dup (samples, 1);
  g_assert_cmpuint (tprof_gathered_time_count (other), ==, 10);
  tprof_gathered_time_free (other);
  tprof_gathered_time_free (before);
  tprof_gathered_time_free (after);
  _tprof_follow_samples_ahead_free (ahead);

  /* a worker may still run after the store is gone: it holds the mapping */
  g_assert_nonnull ((ahead = _tprof_follow_samples_ahead (samples)));
  _tprof_follow_samples_free (samples);
  _tprof_follow_samples_ahead_run (ahead);
  _tprof_follow_samples_ahead_free (ahead);
}

/* Near the cap, no more than the cap is readied, and every sample up to
 * it is still kept. */
static void
test_ahead_cap (void)
{
  TprofFollowSamples *samples = _tprof_follow_samples_new (1500);
  TprofFollowSamplesAhead *ahead;
  TprofGatheredTime *gt;

  add_poll (samples, 0, 0, 0, 1000);
  ahead = _tprof_follow_samples_ahead (samples);
  if (ahead != NULL)
    _tprof_follow_samples_ahead_run (ahead);
  _tprof_follow_samples_ahead_free (ahead);
  add_poll (samples, 0, 0, 1000, 1000);
  g_assert_true (_tprof_follow_samples_is_full (samples));
  gt = _tprof_follow_samples_dup (samples, 0);
  check_kept (gt, 1500);
  tprof_gathered_time_free (gt);
  _tprof_follow_samples_free (samples);
}

/* The process's address space in bytes now (/proc/self/statm's first field). */
static gsize
address_space (void)
{
  g_autofree char *statm = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  return (gsize) g_ascii_strtoull (statm, NULL, 10) * (gsize) sysconf (_SC_PAGESIZE);
}

/* Without room to reserve a mapping (an address-space limit below it),
 * the samples are kept in allocated arrays copied as they outgrow them:
 * every sample is kept, in order, and a snapshot taken before a copy
 * still reads what it held. */
static void
test_copied (void)
{
  if (g_test_subprocess ())
    {
      /* 10^7 samples reserve 200 MB; 96 MB more than used leaves room
       * for the copies of 900 000 samples (18 MB each) but not for it */
      gsize limit = address_space () + ((gsize) 96 << 20);
      struct rlimit rl = { limit, limit };
      TprofFollowSamples *samples;
      TprofGatheredTime *before, *after;
      void *probe;

      g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
      /* the limit holds: the store cannot have its mapping either */
      probe = mmap (NULL, (gsize) 200 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      g_assert_true (probe == MAP_FAILED);
      samples = _tprof_follow_samples_new (G_GUINT64_CONSTANT (10000000));
      add_poll (samples, 0, 0, 0, 1000);
      before = _tprof_follow_samples_dup (samples, 0);
      add_poll (samples, 0, 0, 1000, POLL - 1000);
      add_poll (samples, 0, 0, POLL, 2 * POLL);
      after = _tprof_follow_samples_dup (samples, 0);
      check_kept (before, 1000);
      check_kept (after, 3 * POLL);
      tprof_gathered_time_free (before);
      tprof_gathered_time_free (after);
      _tprof_follow_samples_free (samples);
      g_print ("COPIED\n");
      return;
    }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  /* their runtimes reserve terabytes of shadow memory: no limit fits */
  g_test_skip ("an address-space limit cannot be set under a sanitizer");
  return;
#endif
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*COPIED*");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/follow-samples/ahead", test_ahead);
  g_test_add_func ("/follow-samples/ahead-cap", test_ahead_cap);
  g_test_add_func ("/follow-samples/copied", test_copied);
  return g_test_run ();
}
