/* test-cli.c — the tprof command line on fixture profiles: outputs against numpy, exit statuses, error lines. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include <cairo.h>
#include <glib/gstdio.h>
#include <tprof/capture.h>

static char *fixture_dir;
static char *profile_path;
static char *outlier_path;
static char *not_hdf5_path;

/* ---- fixtures ---- */

static double
normal (GRand *rand)
{
  double u = g_rand_double_range (rand, 1e-12, 1), v = g_rand_double (rand);

  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

typedef double (*SampleFunc) (GRand *rand, int rank, int i);

static double
sample_forward (GRand *rand, int rank, int i)
{
  return exp (log (2e-3) + 0.1 * rank + 0.3 * normal (rand));
}

static double
sample_allreduce (GRand *rand, int rank, int i)
{
  return fabs (5e-4 + 5e-5 * normal (rand)) * (rank == 5 ? 3 : 1);
}

static double
sample_checkpoint (GRand *rand, int rank, int i)
{
  return rank < 4 ? 0.25 : -1;  /* ranks 4-7 never checkpoint */
}

static double
sample_with_zeros (GRand *rand, int rank, int i)
{
  return i % 5 == 0 ? 0 : 1e-4 * (1 + i);
}

static double
sample_few (GRand *rand, int rank, int i)
{
  return rank == 0 ? 1e-3 * (i + 1) : -1;
}

/* 1 ms +- 10 us and one 10 s outlier: numpy's 'auto' asks for ~10^7 bins. */
static double
sample_spiky (GRand *rand, int rank, int i)
{
  return rank == 0 && i == 7 ? 10.0 : 1e-3 + 1e-5 * normal (rand);
}

static void
add_operation (TprofProfiledTime *profile, const char *name, int world, int per_rank,
               SampleFunc sample, GRand *rand)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
  TprofError error = { 0 };

  for (int32_t r = 0; r < world; r++)
    for (int i = 0; i < per_rank; i++)
      {
        double t = sample (rand, r, i);

        if (t < 0)
          continue;
        g_array_append_val (times, t);
        g_array_append_val (ranks, r);
      }
  g_assert_cmpint (tprof_profiled_time_add (profile, name,
                                            tprof_gathered_time_new ((double *) times->data,
                                                                     (int32_t *) ranks->data, times->len),
                                            &error), ==, 0);
  g_array_unref (times);
  g_array_unref (ranks);
}

static void
make_fixtures (void)
{
  GRand *rand = g_rand_new_with_seed (20261202);
  TprofProfiledTime *profile = tprof_profiled_time_new (8);
  TprofError error = { 0 };
  GError *gerror = NULL;

  fixture_dir = g_dir_make_tmp ("tprof-cli-XXXXXX", &gerror);
  g_assert_no_error (gerror);
  profile_path = g_build_filename (fixture_dir, "run.h5", NULL);
  not_hdf5_path = g_build_filename (fixture_dir, "notes.h5", NULL);

  add_operation (profile, "forward", 8, 400, sample_forward, rand);
  add_operation (profile, "allreduce", 8, 200, sample_allreduce, rand);
  add_operation (profile, "io/checkpoint", 8, 2, sample_checkpoint, rand);
  add_operation (profile, "with zeros", 8, 20, sample_with_zeros, rand);
  add_operation (profile, "empty", 8, 0, sample_forward, rand);
  add_operation (profile, "say \"hi\"\\ é,x", 8, 3, sample_few, rand);
  if (tprof_profiled_time_save (profile, profile_path, &error) != 0)
    g_error ("saving the fixture: %s", error.message);
  tprof_profiled_time_free (profile);

  outlier_path = g_build_filename (fixture_dir, "outlier.h5", NULL);
  profile = tprof_profiled_time_new (4);
  add_operation (profile, "spiky", 4, 5000, sample_spiky, rand);
  if (tprof_profiled_time_save (profile, outlier_path, &error) != 0)
    g_error ("saving the fixture: %s", error.message);
  tprof_profiled_time_free (profile);
  g_rand_free (rand);

  g_assert_true (g_file_set_contents (not_hdf5_path, "this is not a profile\n", -1, NULL));
}

static void
remove_fixtures (void)
{
  GDir *dir = g_dir_open (fixture_dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      char *path = g_build_filename (fixture_dir, name, NULL);

      g_unlink (path);
      g_free (path);
    }
  g_dir_close (dir);
  g_rmdir (fixture_dir);
}

static char *
fixture_file (const char *name)
{
  return g_build_filename (fixture_dir, name, NULL);
}

/* ---- running programs ---- */

static int
run (const char *program, const char *const *args, char **out, char **err)
{
  GPtrArray *argv = g_ptr_array_new ();
  GError *error = NULL;
  char *stdout_text = NULL, *stderr_text = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) program);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &stdout_text, &stderr_text, &status, &error);
  g_assert_no_error (error);
  g_ptr_array_unref (argv);
  g_assert_true (WIFEXITED (status));
  if (out != NULL)
    *out = stdout_text;
  else
    g_free (stdout_text);
  if (err != NULL)
    *err = stderr_text;
  else
    g_free (stderr_text);
  return WEXITSTATUS (status);
}

static int
run_tprof (const char *const *args, char **out, char **err)
{
  return run (TPROF_CLI, args, out, err);
}

static void
run_check (const char *script, const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  char *out = NULL, *err = NULL;
  int status;

  g_ptr_array_add (argv, g_build_filename (TESTS_SRCDIR, "cli", script, NULL));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  status = run (PYTHON3, (const char *const *) argv->pdata, &out, &err);
  if (status != 0)
    g_error ("%s says:\n%s%s", script, out, err);
  g_free (out);
  g_free (err);
  g_ptr_array_unref (argv);
}

/* Runs tprof and saves what it printed to @name in the fixture directory. */
static char *
run_tprof_to_file (const char *const *args, const char *name)
{
  char *out = NULL, *err = NULL;
  char *path = fixture_file (name);

  g_assert_cmpint (run_tprof (args, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_file_set_contents (path, out, -1, NULL));
  g_free (out);
  g_free (err);
  return path;
}

static void
assert_one_line (const char *text, const char *prefix)
{
  /* exactly one line: its only newline ends it */
  if (strchr (text, '\n') != text + strlen (text) - 1)
    g_error ("not one line: \"%s\"", text);
  if (!g_str_has_prefix (text, prefix))
    g_error ("\"%s\" does not start with \"%s\"", text, prefix);
}

/* ---- summary ---- */

static void
test_summary_json (void)
{
  const char *all[] = { "summary", profile_path, "--format", "json", NULL };
  const char *subset[] = { "summary", profile_path, "--format", "json", "--ranks", "0,2-3,5", NULL };
  char *path;

  path = run_tprof_to_file (all, "summary.json");
  run_check ("check-summary.py", (const char *[]) { profile_path, path, NULL });
  g_free (path);
  path = run_tprof_to_file (subset, "summary-subset.json");
  run_check ("check-summary.py", (const char *[]) { profile_path, path, "0,2-3,5", NULL });
  g_free (path);
}

static void
test_summary_csv_and_table (void)
{
  const char *csv_args[] = { "summary", profile_path, "--format", "csv", "--sort", "sum", NULL };
  const char *table_args[] = { "summary", profile_path, NULL };
  char *out = NULL, *err = NULL;
  char **lines;
  double last = INFINITY;

  g_assert_cmpint (run_tprof (csv_args, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "name,count,rank_count,sum,mean,std,min,max,median,p95,p99,"
                                 "imbalance,slowest_rank,parent,self_sum,sampled,stored");
  g_assert_cmpuint (g_strv_length (lines), ==, 6 + 2);
  /* sorted by sum, largest first; the awkward name is quoted */
  for (guint i = 1; i <= 6; i++)
    {
      const char *p = lines[i];
      double sum;

      if (*p == '"')
        {
          g_assert_true (g_str_has_prefix (p, "\"say \"\"hi\"\"\\ é,x\","));
          p = strstr (p, "\",") + 1;
        }
      else
        p = strchr (p, ',');
      /* skip count and rank_count */
      p = strchr (strchr (p + 1, ',') + 1, ',') + 1;
      sum = g_ascii_strtod (p, NULL);
      g_assert_cmpfloat (sum, <=, last);
      last = sum;
    }
  g_assert_true (g_str_has_prefix (lines[1], "forward,3200,8,"));
  g_assert_true (g_str_has_prefix (lines[6], "empty,0,0,0,,,,,,,,,"));
  g_strfreev (lines);
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_tprof (table_args, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Operation"));
  g_assert_true (g_str_has_prefix (lines[1], "forward"));
  g_assert_true (g_str_has_prefix (lines[3], "io/checkpoint"));
  /* human units, and the rows line up */
  g_assert_nonnull (strstr (lines[3], "250 ms"));
  for (guint i = 1; i <= 6; i++)
    g_assert_cmpint (g_utf8_strlen (lines[i], -1), <=, g_utf8_strlen (lines[0], -1));
  g_strfreev (lines);
  g_free (out);
  g_free (err);
}

static double
sample_even (GRand *rand, int32_t rank, int i)
{
  /* rank 2 1 % slower: noise among ranks that wait for each other */
  return rank == 2 ? 1.01e-3 : 1e-3;
}

static double
sample_skewed (GRand *rand, int32_t rank, int i)
{
  return rank == 3 ? 1.5e-3 : 1e-3;
}

/* The table's Slowest column names a rank only beyond noise (5 % over the
 * others' median): none among four even ranks, rank 3 when 50 % slower;
 * the CSV keeps the rank with the largest total either way. */
static void
test_summary_slowest (void)
{
  g_autofree char *path = g_build_filename (fixture_dir, "slowest.h5", NULL);
  const char *table_args[] = { "summary", path, NULL };
  const char *csv_args[] = { "summary", path, "--format", "csv", NULL };
  TprofProfiledTime *profile = tprof_profiled_time_new (4);
  TprofError error = { 0 };
  char *out = NULL, *err = NULL;
  char **lines;

  add_operation (profile, "even", 4, 10, sample_even, NULL);
  add_operation (profile, "skewed", 4, 10, sample_skewed, NULL);
  g_assert_cmpint (tprof_profiled_time_save (profile, path, &error), ==, 0);
  tprof_profiled_time_free (profile);

  g_assert_cmpint (run_tprof (table_args, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_suffix (lines[0], "Slowest"));
  g_assert_true (g_str_has_prefix (lines[1], "even"));
  g_assert_true (g_str_has_suffix (lines[1], "—"));
  g_assert_true (g_str_has_prefix (lines[2], "skewed"));
  g_assert_true (g_str_has_suffix (lines[2], " 3"));
  g_strfreev (lines);
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_tprof (csv_args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\neven,40,4,"));
  lines = g_strsplit (out, "\n", -1);
  /* slowest_rank is the 13th field */
  {
    g_auto(GStrv) even = g_strsplit (lines[1], ",", -1);

    g_assert_cmpstr (even[12], ==, "2");
  }
  g_strfreev (lines);
  g_free (out);
  g_free (err);
}

/* A sampled capture: the summary marks the operation and says which
 * figures are exact (count and sum of every recorded sample, checked
 * here) and which are estimates; with --ranks too. */
static void
test_summary_sampled (void)
{
  g_autofree char *path = fixture_file ("sampled.h5");
  const char *json_args[] = { "summary", path, "--format", "json", NULL };
  const char *ranks_args[] = { "summary", path, "--format", "json", "--ranks", "0", NULL };
  /* append_time's samples overlap at random: no tree, so file order */
  const char *csv_args[] = { "summary", path, "--format", "csv", "--no-tree", NULL };
  const char *table_args[] = { "summary", path, "--no-tree", NULL };
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofProfiledTime *pt;
  TprofError error = { 0 };

  tprof_time_manager_set_sample_limit (tm, 100);
  for (int i = 0; i < 10000; i++)
    tprof_time_manager_append_time (tm, "op", (double) (1 + i % 8) * 0.125);
  tprof_time_manager_append_time (tm, "plain", 0.5);
  pt = tprof_time_manager_gather_local (tm);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);

  for (int with_ranks = 0; with_ranks < 2; with_ranks++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_tprof (with_ranks ? ranks_args : json_args, &out, &err), ==, 0);
      /* 10000 samples of mean 0.5625 s: sum 5625 s, exact */
      g_assert_nonnull (strstr (out, "{\"name\": \"op\", \"count\": 10000, \"rank_count\": 1, \"sum\": 5625, "
                                     "\"mean\": 0.5625, "));
      g_assert_nonnull (strstr (out, "\"min\": 0.125, \"max\": 1, "));
      g_assert_nonnull (strstr (out, "\"sampled\": true, \"stored\": 100, "
                                     "\"estimates\": [\"std\", \"median\", \"p95\", \"p99\"]}"));
      g_assert_nonnull (strstr (out, "{\"name\": \"plain\", \"count\": 1, "));
      g_assert_nonnull (strstr (out, "\"sampled\": false, \"stored\": 1, \"estimates\": []}"));
    }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_auto(GStrv) lines = NULL;

    g_assert_cmpint (run_tprof (csv_args, &out, &err), ==, 0);
    lines = g_strsplit (out, "\n", -1);
    g_assert_true (g_str_has_prefix (lines[1], "op,10000,1,5625,0.5625,"));
    g_assert_true (g_str_has_suffix (lines[1], ",true,100"));
    g_assert_true (g_str_has_suffix (lines[2], ",false,1"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_auto(GStrv) lines = NULL;

    g_assert_cmpint (run_tprof (table_args, &out, &err), ==, 0);
    lines = g_strsplit (out, "\n", -1);
    g_assert_true (g_str_has_prefix (lines[1], "op *"));
    g_assert_true (g_str_has_prefix (lines[2], "plain "));
    g_assert_true (g_str_has_prefix (lines[3], "* sampled"));
    g_assert_nonnull (strstr (lines[3], "exact"));
    g_assert_nonnull (strstr (lines[3], "estimates"));
  }
}

static void
test_summary_sort_columns (void)
{
  const char *columns[] = { "name", "count", "ranks", "rank_count", "sum", "mean", "std", "min", "max",
                            "median", "p95", "p99", "imbalance", "slowest_rank", "parent", "self_sum" };

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const char *args[] = { "summary", profile_path, "--sort", columns[i], "--format", "csv", NULL };
      char *out = NULL;

      g_assert_cmpint (run_tprof (args, &out, NULL), ==, 0);
      if (g_str_equal (columns[i], "name"))
        g_assert_true (g_str_has_prefix (out + strcspn (out, "\n") + 1, "allreduce,"));
      if (g_str_equal (columns[i], "imbalance"))  /* allreduce's rank 5 makes it the least balanced */
        g_assert_true (g_str_has_prefix (out + strcspn (out, "\n") + 1, "allreduce,"));
      g_free (out);
    }
}

/* ---- compare ---- */

static void
test_compare (void)
{
  run_check ("check-compare.py", (const char *[]) { TPROF_CLI, fixture_dir, NULL });
}

static void
test_summary_tree (void)
{
  run_check ("check-summary-tree.py", (const char *[]) { TPROF_CLI, fixture_dir, NULL });
}

/* ---- plot ---- */

static void
test_plot_heatmap (void)
{
  run_check ("check-plot.py", (const char *[]) { TPROF_CLI, fixture_dir, NULL });
}

/* ---- stragglers ---- */

static void
test_stragglers (void)
{
  run_check ("check-stragglers.py", (const char *[]) { TPROF_CLI, fixture_dir, NULL });
}

/* ---- trace ---- */

static void
test_trace (void)
{
  run_check ("check-trace.py", (const char *[]) { TPROF_CLI, fixture_dir, NULL });
}

/* ---- hist ---- */

/* Runs `tprof hist` on operation @op of @profile into a CSV, checks it with
 * check-hist-csv.py and returns its number of bins. */
static guint
check_profile_hist_csv (const char *profile, const char *op, const char *const *options,
                        const char *const *check_options)
{
  GPtrArray *args = g_ptr_array_new ();
  GPtrArray *check = g_ptr_array_new ();
  char *csv = fixture_file ("hist.csv");
  char *err = NULL, *text = NULL;
  guint n_bins;

  g_ptr_array_add (args, (char *) "hist");
  g_ptr_array_add (args, (char *) profile);
  g_ptr_array_add (args, (char *) "--op");
  g_ptr_array_add (args, (char *) op);
  g_ptr_array_add (args, (char *) "-o");
  g_ptr_array_add (args, csv);
  for (guint i = 0; options[i] != NULL; i++)
    g_ptr_array_add (args, (char *) options[i]);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (run_tprof ((const char *const *) args->pdata, NULL, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");

  g_ptr_array_add (check, (char *) profile);
  g_ptr_array_add (check, (char *) op);
  g_ptr_array_add (check, csv);
  for (guint i = 0; check_options[i] != NULL; i++)
    g_ptr_array_add (check, (char *) check_options[i]);
  g_ptr_array_add (check, NULL);
  run_check ("check-hist-csv.py", (const char *const *) check->pdata);

  /* a header, then one line per bin */
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  n_bins = 0;
  for (const char *c = text; *c != '\0'; c++)
    n_bins += *c == '\n';
  g_assert_cmpuint (n_bins, >=, 1);

  g_ptr_array_unref (args);
  g_ptr_array_unref (check);
  g_free (text);
  g_free (csv);
  g_free (err);
  return n_bins - 1;
}

static void
check_hist_csv (const char *op, const char *const *options, const char *const *check_options)
{
  check_profile_hist_csv (profile_path, op, options, check_options);
}

static void
test_hist_csv (void)
{
  const char *none[] = { NULL };
  const char *bins[] = { "--bins", "17", NULL };
  const char *check_bins[] = { "--bins", "17", NULL };
  const char *separate[] = { "--separate-ranks", "--ranks", "1-3,6", NULL };
  const char *check_separate[] = { "--separate-ranks", "--ranks", "1-3,6", NULL };
  const char *log_x[] = { "--log-x", "--bins", "8", NULL };
  const char *check_log_x[] = { "--log-x", "--bins", "8", NULL };

  check_hist_csv ("forward", none, none);
  check_hist_csv ("allreduce", bins, check_bins);
  check_hist_csv ("forward", separate, check_separate);
  check_hist_csv ("with zeros", log_x, check_log_x);
  check_hist_csv ("io/checkpoint", none, none);
}

/* One far outlier makes numpy's 'auto' rule ask for millions of bins:
 * the automatic count stops at TPROF_HISTOGRAM_MAX_AUTO_BINS, an explicit one
 * does not, and below the cap 'auto' stays numpy's (test_hist_csv). */
static void
test_hist_auto_bins_capped (void)
{
  g_autofree char *cap = g_strdup_printf ("%d", TPROF_HISTOGRAM_MAX_AUTO_BINS);
  const char *none[] = { NULL };
  const char *check_capped[] = { "--max-auto-bins", cap, NULL };
  const char *log_x[] = { "--log-x", NULL };
  const char *check_log_x[] = { "--log-x", "--max-auto-bins", cap, NULL };
  const char *explicit_bins[] = { "--bins", "4321", NULL };
  const char *check_explicit[] = { "--bins", "4321", NULL };

  g_assert_cmpuint (check_profile_hist_csv (outlier_path, "spiky", none, check_capped), ==,
                    TPROF_HISTOGRAM_MAX_AUTO_BINS);
  g_assert_cmpuint (check_profile_hist_csv (outlier_path, "spiky", explicit_bins, check_explicit), ==,
                    4321);
  /* four decades on a log axis still ask for ~9000 bins */
  g_assert_cmpuint (check_profile_hist_csv (outlier_path, "spiky", log_x, check_log_x), ==,
                    TPROF_HISTOGRAM_MAX_AUTO_BINS);
  g_assert_cmpuint (check_profile_hist_csv (profile_path, "forward", none, check_capped), <,
                    TPROF_HISTOGRAM_MAX_AUTO_BINS);
}

static void
test_hist_pictures (void)
{
  char *png = fixture_file ("forward.png");
  char *svg = fixture_file ("forward.svg");
  char *pdf = fixture_file ("forward.pdf");
  const char *png_args[] = { "hist", profile_path, "--op", "forward", "-o", png, "--width", "640",
                             "--height", "360", "--separate-ranks", "--log-y", NULL };
  const char *svg_args[] = { "hist", profile_path, "--op", "allreduce", "-o", svg, "--log-x",
                             "--title", "Allreduce", NULL };
  const char *pdf_args[] = { "hist", profile_path, "--op", "forward", "-o", pdf, "--ranks", "0-3", NULL };
  cairo_surface_t *image;
  char *contents = NULL;

  g_assert_cmpint (run_tprof (png_args, NULL, NULL), ==, 0);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 640);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 360);
  cairo_surface_destroy (image);

  g_assert_cmpint (run_tprof (svg_args, NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_assert_nonnull (strstr (contents, "</svg>"));
  g_free (contents);

  g_assert_cmpint (run_tprof (pdf_args, NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (pdf, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF"));
  g_free (contents);

  g_free (png);
  g_free (svg);
  g_free (pdf);
}

/* ---- ranks ---- */

/* --sort sum --top 3: the three ranks with the largest totals, largest
 * first; bad keys and counts are usage errors. */
static void
test_ranks_sort_top (void)
{
  const char *args[] = { "ranks", profile_path, "--op", "forward", "--sort", "sum", "--top", "3",
                         "--format", "csv", NULL };
  const char *all_args[] = { "ranks", profile_path, "--op", "forward", "--format", "csv", NULL };
  const char *bad_sort[] = { "ranks", profile_path, "--op", "forward", "--sort", "color", NULL };
  const char *bad_top[] = { "ranks", profile_path, "--op", "forward", "--top", "-2", NULL };
  char *out = NULL, *all = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) all_lines = NULL;
  double largest = 0;

  g_assert_cmpint (run_tprof (args, &out, NULL), ==, 0);
  g_assert_cmpint (run_tprof (all_args, &all, NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  all_lines = g_strsplit (all, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 3 + 1);
  /* the largest sum of all ranks comes first */
  for (guint i = 1; all_lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (all_lines[i], ",", -1);

      largest = MAX (largest, g_ascii_strtod (f[2], NULL));
    }
  for (guint i = 1; i <= 3; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      double sum = g_ascii_strtod (f[2], NULL);

      if (i == 1)
        g_assert_cmpfloat (sum, ==, largest);
      g_assert_cmpfloat (sum, <=, largest);
      largest = sum;
    }
  g_free (out);
  g_free (all);
  g_assert_cmpint (run_tprof (bad_sort, NULL, NULL), ==, 2);
  g_assert_cmpint (run_tprof (bad_top, NULL, NULL), ==, 2);
}

static void
test_ranks_outliers (void)
{
  const char *json_args[] = { "ranks", profile_path, "--op", "allreduce", "--format", "json", NULL };
  const char *table_args[] = { "ranks", profile_path, "--op", "allreduce", NULL };
  const char *csv_args[] = { "ranks", profile_path, "--op", "forward", "--format", "csv", NULL };
  char *path, *out = NULL;
  char **lines;

  path = run_tprof_to_file (json_args, "ranks.json");
  run_check ("check-ranks.py", (const char *[]) { profile_path, "allreduce", path, "5", NULL });
  g_free (path);

  g_assert_cmpint (run_tprof (table_args, &out, NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Rank"));
  g_assert_true (g_str_has_suffix (lines[6], "slow"));
  g_assert_false (g_str_has_suffix (lines[5], "slow"));
  g_assert_nonnull (strstr (out, "(|robust z| > 3.5): 5\n"));
  g_strfreev (lines);
  g_free (out);

  g_assert_cmpint (run_tprof (csv_args, &out, NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "rank,count,sum,mean,std,min,max,z,outlier");
  g_assert_cmpuint (g_strv_length (lines), ==, 8 + 2);
  g_assert_true (g_str_has_prefix (lines[1], "0,400,"));
  g_strfreev (lines);
  g_free (out);
}

/* ---- errors ---- */

static void
test_usage_errors (void)
{
  char *out_png = fixture_file ("usage.png");
  const char *const *cases[] = {
    (const char *[]) { NULL },
    (const char *[]) { "frobnicate", profile_path, NULL },
    (const char *[]) { "--frobnicate", NULL },
    (const char *[]) { "help", "frobnicate", NULL },
    (const char *[]) { "summary", NULL },
    (const char *[]) { "summary", profile_path, profile_path, NULL },
    (const char *[]) { "summary", profile_path, "--bogus", NULL },
    (const char *[]) { "summary", profile_path, "--format", "xml", NULL },
    (const char *[]) { "summary", profile_path, "--sort", "speed", NULL },
    (const char *[]) { "summary", profile_path, "--ranks", "3-1", NULL },
    (const char *[]) { "summary", profile_path, "--ranks", "8", NULL },
    (const char *[]) { "summary", profile_path, "--ranks", "x", NULL },
    (const char *[]) { "summary", profile_path, "--ranks", "-1", NULL },
    (const char *[]) { "summary", profile_path, "--ranks", "1,,2", NULL },
    (const char *[]) { "summary", profile_path, "--ranks", NULL },
    (const char *[]) { "hist", profile_path, "-o", out_png, NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", "x.gif", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", out_png, "--bins", "0", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", out_png, "--bins", "many", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", out_png, "--bins", "1000001", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", out_png, "--width", "0", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", out_png, "--height", "abc", NULL },
    (const char *[]) { "hist", profile_path, "--op", "forward", "-o", out_png, "--ranks", "9", NULL },
    (const char *[]) { "hist", "--op", "forward", "-o", out_png, NULL },
    (const char *[]) { "ranks", profile_path, NULL },
    (const char *[]) { "ranks", profile_path, "--op", "forward", "--format", "yaml", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *out = NULL, *err = NULL;
      int status = run_tprof (cases[i], &out, &err);

      if (status != 2)
        g_error ("case %u: exit status %d, expected 2 (stderr: %s)", i, status, err);
      g_assert_cmpstr (out, ==, "");
      assert_one_line (err, "tprof: ");
      g_assert_nonnull (strstr (err, "--help"));
      g_free (out);
      g_free (err);
    }
  g_assert_false (g_file_test (out_png, G_FILE_TEST_EXISTS));
  g_free (out_png);
}

static void
test_bad_files (void)
{
  char *missing = fixture_file ("missing.h5");
  char *empty = fixture_file ("empty.h5");
  const char *files[] = { missing, not_hdf5_path, empty, fixture_dir };
  char *out_png = fixture_file ("bad.png");

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      const char *const *commands[] = {
        (const char *[]) { "summary", files[i], NULL },
        (const char *[]) { "hist", files[i], "--op", "forward", "-o", out_png, NULL },
        (const char *[]) { "ranks", files[i], "--op", "forward", NULL },
      };
      char *prefix = g_strdup_printf ("tprof: %s: ", files[i]);

      for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
        {
          char *out = NULL, *err = NULL;

          g_assert_cmpint (run_tprof (commands[c], &out, &err), ==, 1);
          g_assert_cmpstr (out, ==, "");
          assert_one_line (err, prefix);
          /* the reason is there, and not the file name twice */
          g_assert_cmpuint (strlen (err), >, strlen (prefix) + 5);
          g_assert_null (strstr (err + strlen (prefix), files[i]));
          g_free (out);
          g_free (err);
        }
      g_free (prefix);
    }
  g_assert_false (g_file_test (out_png, G_FILE_TEST_EXISTS));
  g_free (missing);
  g_free (empty);
  g_free (out_png);
}

static void
test_unknown_operation (void)
{
  char *out_png = fixture_file ("unknown.png");
  const char *hist_args[] = { "hist", profile_path, "--op", "x", "-o", out_png, NULL };
  const char *ranks_args[] = { "ranks", profile_path, "--op", "x", NULL };
  char *expected = g_strdup_printf ("tprof: %s: no operation named \"x\"\n", profile_path);
  char *err = NULL;

  g_assert_cmpint (run_tprof (hist_args, NULL, &err), ==, 1);
  g_assert_cmpstr (err, ==, expected);
  g_free (err);
  g_assert_cmpint (run_tprof (ranks_args, NULL, &err), ==, 1);
  g_assert_cmpstr (err, ==, expected);
  g_free (err);
  g_free (expected);
  g_free (out_png);
}

/* Columns a terminal gives @line, counted independently of tprof:
 * CJK ideographs are two columns wide, everything else here one. */
static glong
terminal_columns (const char *line)
{
  glong width = 0;

  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    width += g_utf8_get_char (p) >= 0x4e00 && g_utf8_get_char (p) <= 0x9fff ? 2 : 1;
  return width;
}

/* Names with newlines, terminal escapes and wide characters: the table
 * shows them escaped, one line each, its columns aligned on screen; an
 * error quoting such a name stays one line without escapes. */
static void
test_hostile_names (void)
{
  static const char *const names[] = { "two\nlines", "\x1b[31mred\x1b[0m", "演算", "tab\there\xc2\x85",
                                       "rtl\xe2\x80\xaelive.exe" };
  static const char *const shown[] = { "two\\nlines", "\\x1b[31mred\\x1b[0m", "演算", "tab\\there\\u0085",
                                       "rtl\\u202elive.exe" };
  g_autofree char *path = fixture_file ("names.h5");
  TprofProfiledTime *profile = tprof_profiled_time_new (2);
  GRand *rand = g_rand_new_with_seed (7);
  TprofError error = { 0 };
  const char *table_args[] = { "summary", path, NULL };
  const char *csv_args[] = { "summary", path, "--format", "csv", "--no-tree", NULL };
  const char *json_args[] = { "summary", path, "--format", "json", "--no-tree", NULL };
  const char *op_args[] = { "ranks", path, "--op", "no\x1b]0;title\x07such", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    add_operation (profile, names[i], 2, 3 + (int) i, sample_few, rand);
  g_assert_cmpint (tprof_profiled_time_save (profile, path, &error), ==, 0);
  tprof_profiled_time_free (profile);
  g_rand_free (rand);

  g_assert_cmpint (run_tprof (table_args, &out, &err), ==, 0);
  g_assert_null (strchr (out, '\x1b'));
  g_assert_null (strchr (out, '\t'));
  g_assert_null (strstr (out, "\xc2\x85"));
  g_assert_null (strstr (out, "\xe2\x80\xae"));
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + G_N_ELEMENTS (names) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (g_str_has_prefix (lines[1 + i], shown[i]));
      /* right-aligned numbers end every row at the header's last column */
      g_assert_cmpint (terminal_columns (lines[1 + i]), ==, terminal_columns (lines[0]));
    }

  /* CSV: one record a line, each name escaped as the table shows it */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&lines, g_strfreev);
  g_assert_cmpint (run_tprof (csv_args, &out, NULL), ==, 0);
  g_assert_null (strchr (out, '\x1b'));
  g_assert_null (strchr (out, '\t'));
  g_assert_null (strstr (out, "\xc2\x85"));
  g_assert_null (strstr (out, "\xe2\x80\xae"));
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + G_N_ELEMENTS (names) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *field = g_strconcat (shown[i], ",", NULL);

      g_assert_true (g_str_has_prefix (lines[1 + i], field));
    }
  /* JSON: escapes a JSON reader decodes back to the names */
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run_tprof (json_args, &out, NULL), ==, 0);
  g_assert_null (strchr (out, '\x1b'));
  g_assert_null (strstr (out, "\xc2\x85"));
  g_assert_null (strstr (out, "\xe2\x80\xae"));
  g_assert_nonnull (strstr (out, "\"\\u001b[31mred\\u001b[0m\""));
  g_assert_nonnull (strstr (out, "\"rtl\\u202elive.exe\""));

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_tprof (op_args, NULL, &err), ==, 1);
  assert_one_line (err, "tprof: ");
  g_assert_null (strchr (err, '\x1b'));
  g_assert_null (strchr (err, '\x07'));
  g_assert_nonnull (strstr (err, "no\\x1b]0;title\\x07such"));
}

/* A profile with one flipped bit that HDF5 cannot release once refused:
 * its clean-up at exit used to print "infinite loop closing library"
 * after tprof's own error line. */
static void
test_damaged_exit_quiet (void)
{
  g_autofree char *path = g_build_filename (TESTS_SRCDIR, "fixtures", "flipped-root-heap.h5", NULL);
  const char *args[] = { "summary", path, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (run_tprof (args, NULL, &err), ==, 1);
  assert_one_line (err, "tprof: ");
  g_assert_null (strstr (err, "HDF5"));
}

static void
test_nothing_to_draw (void)
{
  char *out_png = fixture_file ("nothing.png");
  const char *empty_args[] = { "hist", profile_path, "--op", "empty", "-o", out_png, NULL };
  const char *ranks_args[] = { "hist", profile_path, "--op", "io/checkpoint", "-o", out_png,
                               "--ranks", "4-7", NULL };
  char *err = NULL;

  g_assert_cmpint (run_tprof (empty_args, NULL, &err), ==, 1);
  assert_one_line (err, "tprof: ");
  g_assert_nonnull (strstr (err, "no samples"));
  g_free (err);
  g_assert_cmpint (run_tprof (ranks_args, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no samples on ranks 4-7"));
  g_free (err);
  g_assert_false (g_file_test (out_png, G_FILE_TEST_EXISTS));
  g_free (out_png);
}

static void
test_unwritable_output (void)
{
  const char *outputs[] = { "/nonexistent-dir/x.png", "/nonexistent-dir/x.csv", "/nonexistent-dir/x.svg",
                            "/proc/version.pdf" };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      const char *args[] = { "hist", profile_path, "--op", "forward", "-o", outputs[i], NULL };
      char *prefix = g_strdup_printf ("tprof: %s: ", outputs[i]);
      char *err = NULL;

      g_assert_cmpint (run_tprof (args, NULL, &err), ==, 1);
      assert_one_line (err, prefix);
      /* the path once, then why */
      g_assert_null (strstr (err + strlen (prefix), outputs[i]));
      g_free (prefix);
      g_free (err);
    }
}

/* Format-2 profiles from tests/h5/write_format2.py: summary takes the
 * cached statistics and reads no sample; in v2-damaged.h5 every time of
 * `io/step%1` is NaN, which only a read of its samples can see. */
static void
test_summary_cached (void)
{
  char *script = g_build_filename (TESTS_SRCDIR, "h5", "write_format2.py", NULL);
  char *v2 = fixture_file ("v2.h5"), *damaged = fixture_file ("v2-damaged.h5");
  const char *json_args[] = { "summary", v2, "--format", "json", NULL };
  const char *damaged_args[] = { "summary", damaged, NULL };
  const char *damaged_ranks[] = { "summary", damaged, "--ranks", "0-5", NULL };
  char *csv = fixture_file ("damaged-op0.csv");
  const char *hist_good[] = { "hist", damaged, "--op", "op0", "-o", csv, NULL };
  char *out = NULL, *err = NULL, *path, *prefix;

  g_assert_cmpint (run (PYTHON3, (const char *[]) { script, fixture_dir, NULL }, NULL, NULL), ==, 0);
  path = run_tprof_to_file (json_args, "summary-v2.json");
  run_check ("check-summary.py", (const char *[]) { v2, path, NULL });
  g_free (path);

  g_assert_cmpint (run_tprof (damaged_args, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "io/step%1"));
  g_free (out);
  g_free (err);
  /* with --ranks the samples are read, and refused */
  g_assert_cmpint (run_tprof (damaged_ranks, NULL, &err), ==, 1);
  prefix = g_strdup_printf ("tprof: %s: operation 'io/step%%1': times[0] is NaN", damaged);
  assert_one_line (err, prefix);
  g_free (prefix);
  g_free (err);
  /* hist reads only the operation it draws, and op0 is intact */
  g_assert_cmpint (run_tprof (hist_good, NULL, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_free (err);
  g_free (csv);
  g_free (damaged);
  g_free (v2);
  g_free (script);
}

static void
test_help_and_version (void)
{
  const char *const *ok_cases[] = {
    (const char *[]) { "--help", NULL },
    (const char *[]) { "help", NULL },
    (const char *[]) { "help", "hist", NULL },
    (const char *[]) { "summary", "--help", NULL },
    (const char *[]) { "ranks", "--help", NULL },
  };
  char *out = NULL, *cap_text;

  g_assert_cmpint (run_tprof ((const char *[]) { "--version", NULL }, &out, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "tprof "));
  g_free (out);
  for (guint i = 0; i < G_N_ELEMENTS (ok_cases); i++)
    {
      g_assert_cmpint (run_tprof (ok_cases[i], &out, NULL), ==, 0);
      g_assert_nonnull (strstr (out, "Usage"));
      g_free (out);
    }
  g_assert_cmpint (run_tprof ((const char *[]) { "help", "hist", NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--separate-ranks"));
  /* the cap on automatic bins is documented */
  cap_text = g_strdup_printf ("at most %d bins", TPROF_HISTOGRAM_MAX_AUTO_BINS);
  g_assert_nonnull (strstr (out, cap_text));
  g_free (cap_text);
  g_free (out);
  g_assert_cmpint (run_tprof ((const char *[]) { "ranks", "--help", NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "MAD"));
  g_free (out);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  make_fixtures ();
  g_test_add_func ("/cli/summary/json-matches-numpy", test_summary_json);
  g_test_add_func ("/cli/summary/csv-and-table", test_summary_csv_and_table);
  g_test_add_func ("/cli/summary/sort-columns", test_summary_sort_columns);
  g_test_add_func ("/cli/summary/sampled", test_summary_sampled);
  g_test_add_func ("/cli/summary/cached-reads-no-samples", test_summary_cached);
  g_test_add_func ("/cli/compare/against-scipy", test_compare);
  g_test_add_func ("/cli/trace/against-h5py", test_trace);
  g_test_add_func ("/cli/stragglers/against-numpy", test_stragglers);
  g_test_add_func ("/cli/hist/csv-matches-numpy", test_hist_csv);
  g_test_add_func ("/cli/hist/auto-bins-capped", test_hist_auto_bins_capped);
  g_test_add_func ("/cli/hist/pictures", test_hist_pictures);
  g_test_add_func ("/cli/ranks/outliers", test_ranks_outliers);
  g_test_add_func ("/cli/errors/usage", test_usage_errors);
  g_test_add_func ("/cli/errors/bad-files", test_bad_files);
  g_test_add_func ("/cli/errors/unknown-operation", test_unknown_operation);
  g_test_add_func ("/cli/errors/hostile-names", test_hostile_names);
  g_test_add_func ("/cli/errors/damaged-exit-quiet", test_damaged_exit_quiet);
  g_test_add_func ("/cli/errors/nothing-to-draw", test_nothing_to_draw);
  g_test_add_func ("/cli/errors/unwritable-output", test_unwritable_output);
  g_test_add_func ("/cli/help-and-version", test_help_and_version);
  g_test_add_func ("/cli/summary/tree", test_summary_tree);
  g_test_add_func ("/cli/summary/slowest", test_summary_slowest);
  g_test_add_func ("/cli/ranks/sort-top", test_ranks_sort_top);
  g_test_add_func ("/cli/plot/heatmap", test_plot_heatmap);
  status = g_test_run ();
  remove_fixtures ();
  return status;
}
