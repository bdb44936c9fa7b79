/* test-h5-save-bytes.c — a save's file does not depend on what its memory held: the same profile saved by two processes whose allocations start filled with different bytes, or after another profile's save whose blocks it reuses, byte for byte the same file (no byte the save leaves unwritten, in its image or its names' heap). */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "h5-test-util.h"

#define N_OPS   3000
#define PER_OP  8
#define WORLD   4
/* Set in the saving children: their clock stands still at FIXED_NOW. */
#define FIXED_CLOCK_ENV "TPROF_TEST_FIXED_CLOCK"
#define FIXED_NOW       1765000000

/* A file holds the second it was saved in (the profile's `created`, and
 * HDF5's time of each object), so two saves are alike byte for byte only
 * within one second, which a loaded machine can take for one save. These
 * two replace the C library's in this program, HDF5's calls included (a
 * program's own symbols come first), and give the saving children one
 * second for ever. */
static struct timespec
clock_now (void)
{
  struct timespec ts = { FIXED_NOW, 0 };

  if (getenv (FIXED_CLOCK_ENV) == NULL)
    clock_gettime (CLOCK_REALTIME, &ts);
  return ts;
}

time_t
time (time_t *out)
{
  time_t now = clock_now ().tv_sec;

  if (out != NULL)
    *out = now;
  return now;
}

int
gettimeofday (struct timeval *restrict tv,
              void *restrict           tz)
{
  struct timespec now = clock_now ();

  (void) tz;
  tv->tv_sec = now.tv_sec;
  tv->tv_usec = now.tv_nsec / 1000;
  return 0;
}

/* Enough operations for the save's second thread and several of the
 * names' heap collections: of one rank, of interleaved ranks, sampled,
 * empty, with long names and multi-byte ones, on a timeline. Another
 * @seed and @letter give another profile of the same shape, whose save
 * takes blocks of the same sizes. */
static TprofProfiledTime *
profile_new (guint32 seed,
             char    letter)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  const char *hosts[WORLD] = { "a", "bb", "ccc", "dddd" };
  guint32 state = seed;

  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, NULL), ==, 0);
  for (int k = 0; k < N_OPS; k++)
    {
      size_t n = k % 50 == 0 ? 0 : PER_OP;
      double times[PER_OP], *starts = g_new (double, PER_OP);
      int32_t ranks[PER_OP], *threads = g_new (int32_t, PER_OP);
      /* a name longer than a collection closes a small one, whose free
       * space the heap holds */
      g_autofree char *name = k == 2 ? g_strnfill (70000, letter) : k % 97 == 5 ? g_strnfill (5000 + k, letter)
                              : g_strdup_printf ("\xcf\x84-%c/%d", letter, k);
      TprofGatheredTime *gt;
      TprofError error = { 0 };

      for (size_t i = 0; i < n; i++)
        {
          state = state * 1103515245u + 12345u;
          times[i] = 1e-6 * (double) (state >> 8);
          ranks[i] = k % 3 == 0 ? 0 : k % 3 == 1 ? (int32_t) (i * WORLD / n) : (int32_t) ((state >> 4) % WORLD);
          starts[i] = 1e-3 * (double) i;
          threads[i] = (int32_t) (i % 2);
        }
      gt = h5_test_gathered (times, ranks, n);
      g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
      if (k % 7 == 0)
        {
          TprofRankRecorded recorded[] = { { 0, 100, 1.0, 0.0, 1.0 }, { 2, 50, 0.5, 0.0, 1.0 } };

          g_assert_true (tprof_gathered_time_set_recorded (gt, recorded, G_N_ELEMENTS (recorded)));
        }
      g_assert_cmpint (tprof_profiled_time_add (pt, name, gt, &error), ==, 0);
    }
  return pt;
}

/* How a save is made. */
enum
{
  SAVE_IMAGE = 1 << 0,        /* in memory, else in place */
  SAVE_AFTER_OTHER = 1 << 1,  /* the second save of its process */
};

/* Saves the profile to @path in a process of its own, its allocations
 * filled with bytes from @perturb; with SAVE_AFTER_OTHER, after another
 * profile's save to @path.other in that process. */
static void
save_in_child (const char *self,
               const char *path,
               const char *perturb,
               int         how)
{
  gboolean image = (how & SAVE_IMAGE) != 0;
  const char *argv[] = { self, how & SAVE_AFTER_OTHER ? "--save-after-other" : "--save", path, NULL };
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  int status = 0;

  envp = g_environ_setenv (envp, "MALLOC_PERTURB_", perturb, TRUE);
  envp = g_environ_setenv (envp, FIXED_CLOCK_ENV, "1", TRUE);
  envp = image ? g_environ_unsetenv (envp, "TPROF_SAVE_NO_IMAGE")
         : g_environ_setenv (envp, "TPROF_SAVE_NO_IMAGE", "1", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* A save alone in its process, and one made as @data says. */
static void
assert_same_bytes (gconstpointer data)
{
  int how = GPOINTER_TO_INT (data);
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *a = g_build_filename (dir, "a.h5", NULL), *b = g_build_filename (dir, "b.h5", NULL);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr (GBytes) bytes_a = NULL, bytes_b = NULL;

  g_assert_nonnull (self);
  save_in_child (self, a, "90", how & SAVE_IMAGE);
  save_in_child (self, b, "165", how);
  bytes_a = h5_test_read_bytes (a);
  bytes_b = h5_test_read_bytes (b);
  g_assert_cmpuint (g_bytes_get_size (bytes_a), ==, g_bytes_get_size (bytes_b));
  g_assert_true (g_bytes_equal (bytes_a, bytes_b));
}

int
main (int    argc,
      char **argv)
{
  if (argc == 3 && (strcmp (argv[1], "--save") == 0 || strcmp (argv[1], "--save-after-other") == 0))
    {
      g_autofree char *other = g_strconcat (argv[2], ".other", NULL);
      gboolean after_other = strcmp (argv[1], "--save-after-other") == 0;
      int status = 0;

      for (int round = after_other ? 0 : 1; round < 2 && status == 0; round++)
        {
          TprofProfiledTime *pt = round == 0 ? profile_new (99, 'Z') : profile_new (7, 'y');
          TprofError error = { 0 };

          status = tprof_profiled_time_save (pt, round == 0 ? other : argv[2], &error);
          if (status != 0)
            g_printerr ("%s\n", error.message);
          tprof_profiled_time_free (pt);
        }
      return status != 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/h5/save-bytes/image", GINT_TO_POINTER (SAVE_IMAGE), assert_same_bytes);
  g_test_add_data_func ("/h5/save-bytes/in-place", GINT_TO_POINTER (0), assert_same_bytes);
  /* the second save reuses the first's blocks (tprof-alloc.c), which
   * hold that save's bytes */
  g_test_add_data_func ("/h5/save-bytes/image-after-other", GINT_TO_POINTER (SAVE_IMAGE | SAVE_AFTER_OTHER),
                        assert_same_bytes);
  g_test_add_data_func ("/h5/save-bytes/in-place-after-other", GINT_TO_POINTER (SAVE_AFTER_OTHER),
                        assert_same_bytes);
  int result = g_test_run ();

  h5_test_cleanup ();
  return result;
}
