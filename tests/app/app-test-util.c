/* app-test-util.c — fixture profiles written with libtprof-capture, and numpy references through reference.py. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <tprof/capture.h>

#include "app-test-util.h"

typedef struct
{
  GArray *times;
  GArray *ranks;
} Samples;

static void
samples_init (Samples *s)
{
  s->times = g_array_new (FALSE, FALSE, sizeof (double));
  s->ranks = g_array_new (FALSE, FALSE, sizeof (int32_t));
}

static void
samples_add (Samples *s,
             int32_t  rank,
             double   value)
{
  g_array_append_val (s->times, value);
  g_array_append_val (s->ranks, rank);
}

static void
samples_commit (Samples           *s,
                TprofProfiledTime *pt,
                const char        *name)
{
  TprofError error = { 0 };
  TprofGatheredTime *gt = tprof_gathered_time_new ((const double *) s->times->data,
                                                   (const int32_t *) s->ranks->data,
                                                   s->times->len);

  g_assert_cmpint (tprof_profiled_time_add (pt, name, gt, &error), ==, 0);
  g_array_unref (s->times);
  g_array_unref (s->ranks);
}

static double
gauss (GRand *rand)
{
  double u = g_rand_double_range (rand, 1e-12, 1.0);
  double v = g_rand_double (rand);

  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static void
add_lognormal (TprofProfiledTime *pt,
               GRand             *rand,
               const char        *name,
               int                world,
               int                per_rank,
               double             median,
               double             sigma,
               int                slow_rank,
               double             slow_factor)
{
  Samples s;

  samples_init (&s);
  for (int r = 0; r < world; r++)
    for (int i = 0; i < per_rank; i++)
      samples_add (&s, r, median * (r == slow_rank ? slow_factor : 1.0) * exp (sigma * gauss (rand)));
  samples_commit (&s, pt, name);
}

static TprofProfiledTime *
make_basic (GRand *rand)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (APP_TEST_BASIC_WORLD);
  const char *hosts[APP_TEST_BASIC_WORLD];
  TprofError error = { 0 };
  Samples s;

  add_lognormal (pt, rand, "forward", APP_TEST_BASIC_WORLD, 300, 0.010, 0.3, 5, 3.0);

  samples_init (&s);
  for (int r = 0; r < APP_TEST_BASIC_WORLD - 1; r++)
    for (int i = 0; i < 50; i++)
      samples_add (&s, r, g_rand_double_range (rand, 0.001, 0.004));
  samples_commit (&s, pt, "allreduce");

  samples_init (&s);
  for (int i = 0; i < 3; i++)
    {
      samples_add (&s, 4, g_rand_double_range (rand, 1.0, 2.0));
      samples_add (&s, 0, g_rand_double_range (rand, 1.0, 2.0));
    }
  samples_commit (&s, pt, "io/checkpoint");

  samples_init (&s);
  samples_commit (&s, pt, "empty");

  samples_init (&s);
  for (int r = 0; r < APP_TEST_BASIC_WORLD; r++)
    for (int i = 0; i < 10; i++)
      samples_add (&s, r, 0.25);
  samples_commit (&s, pt, "constant");

  samples_init (&s);
  for (int r = 0; r < 4; r++)
    for (int i = 0; i < 20; i++)
      samples_add (&s, r, i < 5 ? 0.0 : g_rand_double_range (rand, 1e-6, 1e-3));
  samples_commit (&s, pt, "zeros");

  /* many ties and more samples than a direct selection handles */
  samples_init (&s);
  for (int r = 0; r < APP_TEST_BASIC_WORLD; r++)
    for (int i = 0; i < 2000; i++)
      samples_add (&s, r, round (g_rand_double_range (rand, 0.0, 0.05 * (1 + r % 3)) * 1e4) / 1e4);
  samples_commit (&s, pt, "big");

  for (int r = 0; r < APP_TEST_BASIC_WORLD; r++)
    hosts[r] = r < APP_TEST_BASIC_WORLD / 2 ? "node-a" : "node-b";
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, &error), ==, 0);
  return pt;
}

static TprofProfiledTime *
make_realistic (GRand *rand)
{
  static const char * const host_names[] = { "gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04" };
  TprofProfiledTime *pt = tprof_profiled_time_new (16);
  const char *hosts[16];
  TprofError error = { 0 };

  add_lognormal (pt, rand, "train/forward", 16, 400, 0.042, 0.08, 11, 1.35);
  add_lognormal (pt, rand, "train/backward", 16, 400, 0.085, 0.1, 11, 1.3);
  add_lognormal (pt, rand, "comm/allreduce", 16, 400, 0.012, 0.5, -1, 1.0);
  add_lognormal (pt, rand, "optimizer/step", 16, 400, 0.006, 0.05, -1, 1.0);
  add_lognormal (pt, rand, "data/load_batch", 16, 400, 0.003, 0.9, 3, 2.0);
  add_lognormal (pt, rand, "io/checkpoint", 16, 4, 1.9, 0.2, 0, 1.5);

  for (int r = 0; r < 16; r++)
    hosts[r] = host_names[r / 4];
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, &error), ==, 0);
  return pt;
}

static TprofProfiledTime *
make_many_ranks (GRand *rand)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (1024);

  add_lognormal (pt, rand, "train/forward", 1024, 60, 0.042, 0.08, 777, 1.35);
  add_lognormal (pt, rand, "comm/allreduce", 1024, 60, 0.012, 0.5, -1, 1.0);
  return pt;
}

enum { SAMPLED_RANKS = 3 };

/* Sample @i of either operation of the sampled fixture: rank i / KEPT. */
static double
sampled_time (gsize i)
{
  return 0.01 + 0.001 * (double) ((i * 7) % 23) + 0.002 * (double) (i / APP_TEST_SAMPLED_KEPT);
}

double
app_test_sampled_rank2_sum (void)
{
  double sum = 0.0;

  for (gsize i = 2 * APP_TEST_SAMPLED_KEPT; i < SAMPLED_RANKS * APP_TEST_SAMPLED_KEPT; i++)
    sum += sampled_time (i);
  return sum;
}

static TprofProfiledTime *
make_sampled (void)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (SAMPLED_RANKS);
  TprofRankRecorded rec[SAMPLED_RANKS] = {
    { 0, 1000, 25.0, 0.0005, 0.2 },
    { 1, 400, 12.0, 0.001, 0.3 },
    { 2, APP_TEST_SAMPLED_KEPT, app_test_sampled_rank2_sum (), G_MAXDOUBLE, 0.0 },
  };
  TprofError error = { 0 };
  gsize n = SAMPLED_RANKS * APP_TEST_SAMPLED_KEPT;

  for (gsize i = 2 * APP_TEST_SAMPLED_KEPT; i < n; i++)
    {
      rec[2].min = MIN (rec[2].min, sampled_time (i));
      rec[2].max = MAX (rec[2].max, sampled_time (i));
    }
  for (guint o = 0; o < 2; o++)
    {
      double *times = g_new (double, n);
      int32_t *ranks = g_new (int32_t, n);
      TprofGatheredTime *gt;

      for (gsize i = 0; i < n; i++)
        {
          ranks[i] = (int32_t) (i / APP_TEST_SAMPLED_KEPT);
          times[i] = sampled_time (i);
        }
      gt = tprof_gathered_time_new_take (times, ranks, n);
      if (o == 0)
        g_assert_true (tprof_gathered_time_set_recorded (gt, rec, SAMPLED_RANKS));
      g_assert_cmpint (tprof_profiled_time_add (pt, o == 0 ? "step" : "plain", gt, &error), ==, 0);
    }
  return pt;
}

char *
app_test_make_profile (const char     *dir,
                       const char     *name,
                       AppTestProfile  profile)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);
  char *path = g_build_filename (dir, name, NULL);
  TprofProfiledTime *pt = NULL;
  TprofError error = { 0 };

  switch (profile)
    {
    case APP_TEST_PROFILE_BASIC:
      pt = make_basic (rand);
      break;
    case APP_TEST_PROFILE_REALISTIC:
      pt = make_realistic (rand);
      break;
    case APP_TEST_PROFILE_MANY_RANKS:
      pt = make_many_ranks (rand);
      break;
    case APP_TEST_PROFILE_SAMPLED:
      pt = make_sampled ();
      break;
    default:
      g_assert_not_reached ();
    }

  if (tprof_profiled_time_save (pt, path, &error) != 0)
    g_error ("could not write the fixture %s: %s", path, error.message);
  tprof_profiled_time_free (pt);
  return path;
}

/* Answers of reference.py, by query key. */
static GHashTable *reference_cache;

static char *
reference_key (const char         *file,
               const char * const *query)
{
  g_autofree char *joined = g_strjoinv ("\t", (char **) query);

  return g_strconcat (file, "\t", joined, NULL);
}

static GHashTable *
reference_parse (char **lines)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", -1);
      GArray *values;

      if (fields[0] == NULL || fields[0][0] == '\0')
        continue;
      values = g_array_new (FALSE, FALSE, sizeof (double));
      for (guint f = 1; fields[f] != NULL; f++)
        {
          double v = g_str_equal (fields[f], "nan") ? NAN : g_ascii_strtod (fields[f], NULL);

          g_array_append_val (values, v);
        }
      g_hash_table_insert (table, g_strdup (fields[0]), values);
    }
  return table;
}

static char *
reference_run (const char *file,
               const char *const *args,
               const char *input)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "app", "reference.py", NULL);
  g_autoptr(GStrvBuilder) argv_builder = g_strv_builder_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  g_autofree char *err = NULL;

  g_strv_builder_add_many (argv_builder, PYTHON3, script, file, NULL);
  g_strv_builder_addv (argv_builder, (const char **) args);
  argv = g_strv_builder_end (argv_builder);

  process = g_subprocess_newv ((const char * const *) argv,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (process == NULL)
    g_error ("could not run %s: %s", PYTHON3, error->message);
  if (!g_subprocess_communicate_utf8 (process, input, NULL, &out, &err, &error))
    g_error ("could not talk to reference.py: %s", error->message);
  if (!g_subprocess_get_successful (process))
    g_error ("reference.py failed:\n%s", err);
  return out;
}

void
app_test_reference_prefetch (const char         *file,
                             const char * const *const *queries,
                             guint               n_queries)
{
  GString *input = g_string_new (NULL);
  const char *batch[] = { "--batch", NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) answers = NULL;

  if (reference_cache == NULL)
    reference_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);

  for (guint i = 0; i < n_queries; i++)
    {
      g_autofree char *line = g_strjoinv ("\t", (char **) queries[i]);

      g_string_append_printf (input, "%s\n", line);
    }
  out = reference_run (file, batch, input->str);
  g_string_free (input, TRUE);

  answers = g_strsplit (out, "===\n", -1);
  g_assert_cmpuint (g_strv_length (answers), ==, n_queries + 1);
  for (guint i = 0; i < n_queries; i++)
    {
      g_auto(GStrv) lines = g_strsplit (answers[i], "\n", -1);

      g_hash_table_replace (reference_cache, reference_key (file, queries[i]), reference_parse (lines));
    }
}

GHashTable *
app_test_reference (const char *file,
                    const char *command,
                    const char *op,
                    const char *ranks,
                    const char *arg1,
                    const char *arg2)
{
  const char *query[] = { command, op, ranks, arg1, arg2, NULL };
  g_autofree char *key = reference_key (file, query);
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *cached;

  if (reference_cache != NULL && (cached = g_hash_table_lookup (reference_cache, key)) != NULL)
    return g_hash_table_ref (cached);

  out = reference_run (file, query, NULL);
  lines = g_strsplit (out, "\n", -1);
  return reference_parse (lines);
}

GArray *
app_test_reference_get (GHashTable *reference,
                        const char *name)
{
  GArray *values = g_hash_table_lookup (reference, name);

  if (values == NULL)
    g_error ("reference.py printed no line %s", name);
  return values;
}

void
app_test_assert_close (double      got,
                       double      want,
                       double      rtol,
                       const char *what)
{
  if (isnan (want) && isnan (got))
    return;
  if (fabs (got - want) <= rtol * MAX (fabs (want), 1e-300))
    return;
  g_error ("%s: got %.17g, numpy says %.17g", what, got, want);
}

typedef struct
{
  gboolean (*done) (gpointer data);
  gpointer   data;
  gboolean   timed_out;
} Wait;

static gboolean
wait_timeout_cb (gpointer user_data)
{
  Wait *wait = user_data;

  wait->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

void
app_test_wait (gboolean (*done) (gpointer data),
               gpointer   data)
{
  /* a safety net against hangs, not a timing assertion */
  Wait wait = { done, data, FALSE };
  guint source = g_timeout_add_seconds (60, wait_timeout_cb, &wait);

  while (!done (data) && !wait.timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (wait.timed_out)
    g_error ("gave up waiting after a minute");
  g_source_remove (source);

  /* let idle handlers triggered by the change run too */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

char *
app_test_make_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tprof-app-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
app_test_remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        app_test_remove_dir (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}
