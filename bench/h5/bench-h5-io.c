/* bench-h5-io.c — save, load, `tprof summary` / `tprof stragglers` and file size of profiles with random samples, each as a ratio against a baseline measured in the same run. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "bench-h5-util.h"

typedef struct
{
  const char *label;
  size_t      n_ops;
  size_t      per_op;
  int         world_size;
  bool        timeline;     /* starts and threads too (what stragglers needs) */
  bool        run_cli;      /* also time `tprof summary` and `tprof stragglers` */
  const char *save_target;  /* what the save should reach */
} BenchCase;

typedef struct
{
  const char *dir;
  const char *tprof;        /* NULL: the command-line cases are left out */
} BenchSetup;

/* Save of a fresh profile object per run against write()+fsync of the
 * same sample bytes, alternating, with sync() before each. */
static void
bench_save (const BenchCase *c, const BenchColumns *columns, const char *path, const char *raw)
{
  double save[BENCH_RUNS], base[BENCH_RUNS], save_cpu[BENCH_RUNS], save_faults[BENCH_RUNS];
  double mb = bench_columns_bytes (columns) / 1e6;
  struct stat st;

  for (int k = 0; k < BENCH_RUNS; k++)
    {
      TprofProfiledTime *pt = bench_profile_new (columns);
      TprofError error = { 0 };
      double start, start_cpu, start_faults;

      bench_sync ();
      start_faults = bench_page_faults ();
      start_cpu = bench_cpu ();
      start = bench_now ();
      if (tprof_profiled_time_save (pt, path, &error) != 0)
        g_error ("%s", error.message);
      save[k] = bench_now () - start;
      save_cpu[k] = bench_cpu () - start_cpu;
      save_faults[k] = bench_page_faults () - start_faults;
      tprof_profiled_time_free (pt);
      bench_sync ();
      base[k] = bench_write_fsync (columns, raw);
    }
  printf ("  save            %9.1f ms = %6.2fx write()+fsync of the %.2f MB of samples (%.1f ms; target %s)\n",
          bench_median (save, BENCH_RUNS) * 1e3, bench_median (save, BENCH_RUNS) / bench_median (base, BENCH_RUNS),
          mb, bench_median (base, BENCH_RUNS) * 1e3, c->save_target);
  /* every thread's processor time (the statistics run beside the writes) */
  printf ("  save, processor %9.1f ms (all threads), %.0f page faults\n", bench_median (save_cpu, BENCH_RUNS) * 1e3,
          bench_median (save_faults, BENCH_RUNS));

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  printf ("  file size       %9.2f MB = %6.2fx the samples + 1 KB per operation (%.2f MB; target <= 1x)\n",
          st.st_size / 1e6, st.st_size / (mb * 1e6 + 1024.0 * c->n_ops), (mb * 1e6 + 1024.0 * c->n_ops) / 1e6);
}

/* Load in this process against two plain H5Dread baselines, alternating:
 * every column of the profile the load reads (the names, the statistics,
 * the segments and the samples, from the file tprof wrote: the target's
 * baseline), and, as before it, a separate file holding only the sample
 * columns (times, ranks, starts, threads). */
static void
bench_load (const char *path,
            const char *plain)
{
  double load[BENCH_RUNS], all[BENCH_RUNS], base[BENCH_RUNS], paired[BENCH_RUNS];
  double load_cpu[BENCH_RUNS], all_cpu[BENCH_RUNS], base_cpu[BENCH_RUNS];
  double load_ms, all_ms, base_ms;

  for (int k = 0; k < BENCH_RUNS; k++)
    {
      TprofError error = { 0 };
      TprofProfiledTime *pt;
      double start, start_cpu;

      bench_sync ();
      start_cpu = bench_cpu ();
      start = bench_now ();
      pt = tprof_profiled_time_load (path, &error);
      load[k] = bench_now () - start;
      load_cpu[k] = bench_cpu () - start_cpu;
      if (pt == NULL)
        g_error ("%s", error.message);
      tprof_profiled_time_free (pt);
      bench_sync ();
      start_cpu = bench_cpu ();
      all[k] = bench_read_plain_profile (path);
      all_cpu[k] = bench_cpu () - start_cpu;
      paired[k] = load[k] / all[k];
      bench_sync ();
      start_cpu = bench_cpu ();
      base[k] = bench_read_plain_h5 (plain);
      base_cpu[k] = bench_cpu () - start_cpu;
    }
  load_ms = bench_median (load, BENCH_RUNS) * 1e3;
  all_ms = bench_median (all, BENCH_RUNS) * 1e3;
  base_ms = bench_median (base, BENCH_RUNS) * 1e3;
  printf ("  load            %9.1f ms = %6.2fx plain H5Dread of every column of the profile (%.1f ms; target <= 1.5x)\n",
          load_ms, load_ms / all_ms, all_ms);
  /* each load against the plain read just after it: a moment when the
   * machine was busy touches both sides of one ratio, not one side of
   * the medians' */
  printf ("                               = %6.2fx, the median of each run's load over its plain read\n",
          bench_median (paired, BENCH_RUNS));
  printf ("                               = %6.2fx plain H5Dread of a file of the sample columns only (%.1f ms)\n",
          load_ms / base_ms, base_ms);
  /* getrusage() counts in microseconds at best: a tick or two for the
   * plain reads, so these ratios are coarse, but untouched by the waits
   * for a processor that the wall times above include */
  load_ms = bench_median (load_cpu, BENCH_RUNS) * 1e3;
  all_ms = bench_median (all_cpu, BENCH_RUNS) * 1e3;
  base_ms = bench_median (base_cpu, BENCH_RUNS) * 1e3;
  printf ("  load, processor %9.1f ms = %6.2fx that of the plain H5Dread of every column (%.1f ms)\n",
          load_ms, load_ms / MAX (all_ms, 1e-3), all_ms);
  printf ("                               = %6.2fx that of the plain H5Dread of the sample columns (%.1f ms)\n",
          load_ms / MAX (base_ms, 1e-3), base_ms);
}

/* `tprof summary` and `tprof stragglers` as whole processes against a
 * whole process (this program) that reads the plain columns file. */
static void
bench_cli (const BenchSetup *setup, const char *path, const char *plain)
{
  const char *self = "/proc/self/exe";
  g_autofree char *exe = g_file_read_link (self, NULL);
  const char *summary_argv[] = { setup->tprof, "summary", path, "--format", "json", NULL };
  const char *stragglers_argv[] = { setup->tprof, "stragglers", path, "--format", "json", NULL };
  const char *plain_argv[] = { exe, "--plain-read", plain, NULL };
  double summary[BENCH_RUNS], stragglers[BENCH_RUNS], base[BENCH_RUNS];

  g_assert_nonnull (exe);
  for (int k = 0; k < BENCH_RUNS; k++)
    {
      bench_sync ();
      summary[k] = bench_run_process (summary_argv);
      bench_sync ();
      stragglers[k] = bench_run_process (stragglers_argv);
      bench_sync ();
      base[k] = bench_run_process (plain_argv);
    }
  printf ("  tprof summary   %9.1f ms = %6.2fx a process reading the plain columns (%.1f ms; target <= 200 ms)\n",
          bench_median (summary, BENCH_RUNS) * 1e3,
          bench_median (summary, BENCH_RUNS) / bench_median (base, BENCH_RUNS), bench_median (base, BENCH_RUNS) * 1e3);
  printf ("  tprof stragglers%9.1f ms = %6.2fx a process reading the plain columns (target <= 200 ms)\n",
          bench_median (stragglers, BENCH_RUNS) * 1e3,
          bench_median (stragglers, BENCH_RUNS) / bench_median (base, BENCH_RUNS));
}

static void
run (const BenchCase *c, const BenchSetup *setup)
{
  g_autofree char *path = g_build_filename (setup->dir, "bench.h5", NULL);
  g_autofree char *raw = g_build_filename (setup->dir, "bench.raw", NULL);
  g_autofree char *plain = g_build_filename (setup->dir, "plain.h5", NULL);
  BenchColumns *columns = bench_columns_new (c->n_ops, c->per_op, c->world_size, c->timeline, 7);
  TprofProfileFile *pf;

  printf ("%s: %zu operation(s) x %zu samples, %d rank(s)%s\n", c->label, c->n_ops, c->per_op, c->world_size,
          c->timeline ? ", with starts and threads" : "");
  bench_save (c, columns, path, raw);
  pf = tprof_profile_file_open (path, NULL);
  g_assert_nonnull (pf);
  printf ("  (file format version %d)\n", tprof_profile_file_format_version (pf));
  tprof_profile_file_close (pf);
  bench_write_plain_h5 (columns, plain);
  bench_load (path, plain);
  if (c->run_cli && setup->tprof != NULL)
    bench_cli (setup, path, plain);
  bench_columns_free (columns);
  g_unlink (path);
  g_unlink (raw);
  g_unlink (plain);
}

/* The profile of @c and its plain columns file, left for other tools. */
static int
write_case (const BenchCase *c, const char *path, const char *plain)
{
  BenchColumns *columns = bench_columns_new (c->n_ops, c->per_op, c->world_size, c->timeline, 7);
  TprofProfiledTime *pt = bench_profile_new (columns);
  TprofError error = { 0 };
  int status = 0;

  if (tprof_profiled_time_save (pt, path, &error) != 0)
    {
      fprintf (stderr, "%s\n", error.message);
      status = 1;
    }
  else
    bench_write_plain_h5 (columns, plain);
  tprof_profiled_time_free (pt);
  bench_columns_free (columns);
  return status;
}

int
main (int argc, char **argv)
{
  const char *size = g_getenv ("TPROF_BENCH_SAMPLES");
  size_t big = size != NULL ? MAX (g_ascii_strtoull (size, NULL, 10), 8) : 10000000;
  g_autofree char *dir = NULL;
  BenchSetup setup = { 0 };
  const BenchCase cases[] = {
    { "10^4 operations x 8 samples", 10000, 8, 1, true, true, "<= 3x, or <= 10 ms" },
    { "one operation, all samples", 1, big, 8, false, false, "<= 1.5x" },
  };

  if (argc == 3 && g_str_equal (argv[1], "--plain-read"))
    {
      bench_read_plain_h5 (argv[2]);
      return 0;
    }
  if (argc == 4 && g_str_equal (argv[1], "--write"))
    return write_case (&cases[0], argv[2], argv[3]);
  if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
    {
      fprintf (stderr, "usage: %s [TPROF]\n"
                       "  times save, load, file size and, given the tprof program, `tprof summary`\n"
                       "  and `tprof stragglers`, each against a baseline measured in the same run;\n"
                       "  TPROF_BENCH_SAMPLES sets the size of the one-operation case (10^7)\n"
                       "   or: %s --write PROFILE PLAIN\n"
                       "  writes the 10^4-operation profile and its plain columns file, to time\n"
                       "  other programs on them; or: %s --plain-read PLAIN, the baseline process\n",
               argv[0], argv[0], argv[0]);
      return 2;
    }
  setup.tprof = argc == 2 ? argv[1] : NULL;
  dir = g_dir_make_tmp ("tprof-bench-h5-XXXXXX", NULL);
  g_assert_nonnull (dir);
  setup.dir = dir;
  printf ("bench-h5-io: medians of %d runs, a fresh profile object per run, sync() before each timing,\n"
          "random durations; baselines measured in the same run, alternating\n", BENCH_RUNS);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    run (&cases[i], &setup);
  g_rmdir (dir);
  return 0;
}
