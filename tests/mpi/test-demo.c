/* test-demo.c — runs tprof-demo-training under mpiexec on 2 ranks and checks the profile it saves and its exit codes. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <tprof/capture.h>

/* The build's tprof-mpiexec: the MPI's own launcher with the flags it needs
 * to start more ranks than cores, so nothing here assumes one MPI. */
static const char *mpiexec_path;
static const char *demo_path;

/* Runs the demo on @n_ranks ranks with @extra arguments (NULL-terminated),
 * or, when @n_ranks is 0, as an MPI singleton without mpiexec (much quicker
 * to start); returns its exit status and stores its stdout and stderr.
 * With @no_leak_check, a demo built with AddressSanitizer skips its leak
 * check at exit. */
static int
run_demo_with (int n_ranks, const char *const *extra, gboolean no_leak_check, char **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envp = g_get_environ ();
  int status = -1;

  if (no_leak_check)
    {
      const char *options = g_environ_getenv (envp, "ASAN_OPTIONS");
      g_autofree char *more = g_strconcat (options != NULL ? options : "", options != NULL ? ":" : "",
                                           "detect_leaks=0", NULL);

      envp = g_environ_setenv (envp, "ASAN_OPTIONS", more, TRUE);
    }

  if (n_ranks > 0)
    {
      g_ptr_array_add (argv, g_strdup (mpiexec_path));
      g_ptr_array_add (argv, g_strdup ("-n"));
      g_ptr_array_add (argv, g_strdup_printf ("%d", n_ranks));
    }
  g_ptr_array_add (argv, g_strdup (demo_path));
  for (size_t i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (extra[i]));
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                     out, err, &status, &error))
    g_error ("cannot run %s: %s", mpiexec_path, error->message);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

/* An MPI singleton (@n_ranks 0) runs without the leak check at its exit:
 * under AddressSanitizer, in CI, LeakSanitizer's own tracer crashed there
 * in four clean-clone runs of five ("Tracer caught signal 11 ...
 * LeakSanitizer has encountered a fatal error", then an abort), after a
 * usage error and after --help alike; the runs under mpiexec keep it. */
static int
run_demo (int n_ranks, const char *const *extra, char **out, char **err)
{
  return run_demo_with (n_ranks, extra, n_ranks == 0, out, err);
}

static void
assert_op (const TprofProfiledTime *pt, const char *name, size_t count, size_t rank_count)
{
  const TprofGatheredTime *gt = tprof_profiled_time_get (pt, name);

  if (gt == NULL)
    g_error ("the profile has no operation '%s'", name);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, count);
  g_assert_cmpuint (tprof_gathered_time_rank_count (gt), ==, rank_count);
  g_assert_cmpfloat (tprof_gathered_time_min (gt), >, 0.0);
}

/* The file read by h5py alone, as a user's own script would. */
static void
assert_python_reads (const char *path, int world_size, int iterations)
{
  g_autofree char *script = g_build_filename (TESTS_SRCDIR, "mpi", "check-demo-profile.py", NULL);
  g_autofree char *ws = g_strdup_printf ("%d", world_size);
  g_autofree char *its = g_strdup_printf ("%d", iterations);
  const char *argv[] = { PYTHON3, script, path, ws, its, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, &err, &status, &error))
    g_error ("cannot run %s: %s", PYTHON3, error->message);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("h5py check of %s failed: %s", path, err);
}

static void
test_demo_profile (void)
{
  g_autoptr (GError) gerror = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tprof-demo-test-XXXXXX", &gerror);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  TprofProfiledTime *pt;
  TprofError error;
  int status;

  g_assert_no_error (gerror);
  path = g_build_filename (dir, "demo.h5", NULL);
  {
    const char *const args[] = { "--iterations", "6", "--checkpoint-every", "3", "--seed", "7",
                                 "--output", path, NULL };

    status = run_demo (2, args, &out, &err);
  }
  if (status != 0)
    g_error ("the demo failed (exit %d):\n%s\n%s", status, out, err);
  g_assert_nonnull (strstr (out, path));
  g_assert_nonnull (strstr (out, "forward"));

  pt = tprof_profiled_time_load (path, &error);
  if (pt == NULL)
    g_error ("loading the demo's profile: %s", error.message);
  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, 2);
  /* 6 iterations on 2 ranks; checkpoints at iterations 3 and 6 on rank 0 */
  assert_op (pt, "data/load", 12, 2);
  assert_op (pt, "forward", 12, 2);
  assert_op (pt, "backward", 12, 2);
  assert_op (pt, "allreduce", 12, 2);
  assert_op (pt, "optimizer", 12, 2);
  assert_op (pt, "step", 12, 2);
  assert_op (pt, "io/checkpoint", 2, 1);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 7);
  g_assert_cmpint (tprof_gathered_time_ranks (tprof_profiled_time_get (pt, "io/checkpoint"))[0], ==, 0);
  g_assert_nonnull (tprof_profiled_time_hostname (pt, 1));
  tprof_profiled_time_free (pt);
  assert_python_reads (path, 2, 6);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
assert_usage_error (const char *const *args, int n_ranks, const char *fragment)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  /* no leak check at the exit of a usage error either (see run_demo()):
   * the tracer's crash was first seen there */
  int status = run_demo_with (n_ranks, args, TRUE, &out, &err);

  /* what the demo said, when it did not end as a usage error: 128 is a
   * signal (a sanitizer's abort, or mpiexec's) */
  if (status != 2)
    g_error ("%s%s: exit %d, expected 2; stderr: %s", n_ranks > 0 ? "mpiexec " : "", args[0], status, err);
  if (strstr (err, fragment) == NULL)
    g_error ("stderr '%s' does not mention '%s'", err, fragment);
}

static void
test_demo_bad_options (void)
{
  const char *const bad_iterations[] = { "--iterations", "abc", NULL };
  const char *const zero_iterations[] = { "--iterations", "0", NULL };
  const char *const bad_factor[] = { "--straggler-factor", "0.5", NULL };
  const char *const no_such_rank[] = { "--straggler", "5", NULL };
  const char *const unknown[] = { "--bogus", NULL };
  const char *const missing[] = { "--output", NULL };

  assert_usage_error (bad_iterations, 0, "--iterations: 'abc'");
  assert_usage_error (zero_iterations, 0, "--iterations: '0'");
  assert_usage_error (bad_factor, 0, "--straggler-factor: '0.5'");
  assert_usage_error (no_such_rank, 2, "--straggler 5: the run has only 2 ranks");
  assert_usage_error (unknown, 0, "unknown option '--bogus'");
  assert_usage_error (missing, 0, "'--output' needs a value");
}

/* A profile that cannot be written: a message naming the file, exit 1. */
static void
test_demo_unwritable_output (void)
{
  const char *const args[] = { "--iterations", "2", "--output", "/nonexistent-tprof-dir/demo.h5", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_demo (0, args, &out, &err), ==, 1);
  if (strstr (err, "/nonexistent-tprof-dir/demo.h5") == NULL)
    g_error ("stderr '%s' does not name the output file", err);
  g_assert_false (g_file_test ("/nonexistent-tprof-dir", G_FILE_TEST_EXISTS));
}

static void
test_demo_help (void)
{
  const char *const args[] = { "--help", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_demo (0, args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "--straggler-factor"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc != 3)
    g_error ("usage: %s TPROF-MPIEXEC TPROF-DEMO-TRAINING", argv[0]);
  mpiexec_path = argv[1];
  demo_path = argv[2];

  g_test_add_func ("/mpi/demo/profile", test_demo_profile);
  g_test_add_func ("/mpi/demo/bad-options", test_demo_bad_options);
  g_test_add_func ("/mpi/demo/unwritable-output", test_demo_unwritable_output);
  g_test_add_func ("/mpi/demo/help", test_demo_help);
  return g_test_run ();
}
