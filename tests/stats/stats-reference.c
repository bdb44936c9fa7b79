/* stats-reference.c — runs reference.py (numpy) on test data and reads back the expected numbers. */
/* SPDX-License-Identifier: MIT */

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>

#include "stats-reference.h"

struct _StatsReference
{
  GHashTable *values;  /* name -> GArray of double */
};

static void
write_file_or_fail (const char   *dir,
                    const char   *name,
                    gconstpointer data,
                    gsize         size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, size > 0 ? data : "", size, &error);
  g_assert_no_error (error);
}

static void
remove_dir (const char               *dir,
            const StatsReferenceFile *files,
            gsize                     n_files)
{
  for (gsize i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

static void
reference_parse_line (StatsReference *ref,
                      const char     *line)
{
  g_auto(GStrv) fields = g_strsplit (line, " ", -1);
  GArray *values;

  g_assert_nonnull (fields[0]);
  values = g_array_new (FALSE, FALSE, sizeof (double));
  for (gsize i = 1; fields[i] != NULL; i++)
    {
      char *end = NULL;
      /* strtod reads float.hex() exactly, and 'nan'. */
      double v = g_strcmp0 (fields[i], "nan") == 0 ? NAN : strtod (fields[i], &end);

      if (end != NULL)
        g_assert_true (*end == '\0');
      g_array_append_val (values, v);
    }
  g_hash_table_replace (ref->values, g_strdup (fields[0]), values);
}

StatsReference *
stats_reference_run_files (const char               *command,
                           const StatsReferenceFile *files,
                           gsize                     n_files,
                           const char              **args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *script = g_build_filename (TESTS_SRCDIR, "stats", "reference.py", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tprof-stats-XXXXXX", &error);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  StatsReference *ref;
  int status = 0;

  g_assert_no_error (error);
  for (gsize i = 0; i < n_files; i++)
    write_file_or_fail (dir, files[i].name, files[i].data, files[i].size);

  g_ptr_array_add (argv, (char *) PYTHON3);
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, (char *) command);
  g_ptr_array_add (argv, dir);
  for (gsize i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                NULL, NULL, &out, &err, &status, &error);
  remove_dir (dir, files, n_files);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("reference.py %s failed: %s", command, err);

  ref = g_new0 (StatsReference, 1);
  ref->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_array_unref);
  lines = g_strsplit (out, "\n", -1);
  for (gsize i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      reference_parse_line (ref, lines[i]);

  return ref;
}

StatsReference *
stats_reference_run (const char    *command,
                     const double  *times,
                     const int32_t *ranks,
                     gsize          n,
                     const char   **args)
{
  const StatsReferenceFile files[] = {
    { "times.bin", times, n * sizeof *times },
    { "ranks.bin", ranks, n * sizeof *ranks },
  };

  return stats_reference_run_files (command, files, G_N_ELEMENTS (files), args);
}

void
stats_reference_free (StatsReference *ref)
{
  g_hash_table_unref (ref->values);
  g_free (ref);
}

const double *
stats_reference_get (StatsReference *ref,
                     const char     *name,
                     gsize          *n_values)
{
  GArray *values = g_hash_table_lookup (ref->values, name);

  if (values == NULL)
    g_error ("reference.py printed no '%s'", name);

  *n_values = values->len;
  return (const double *) (gconstpointer) values->data;
}

double
stats_reference_get_one (StatsReference *ref,
                         const char     *name)
{
  gsize n_values;
  const double *values = stats_reference_get (ref, name, &n_values);

  g_assert_cmpuint (n_values, ==, 1);
  return values[0];
}

void
stats_assert_close_impl (const char *file,
                         int         line,
                         const char *expression,
                         double      actual,
                         double      expected,
                         double      rel_tol)
{
  gboolean ok;

  if (isnan (expected) || isnan (actual))
    ok = isnan (expected) && isnan (actual);
  else
    ok = fabs (actual - expected) <= rel_tol * fabs (expected);

  if (!ok)
    {
      g_autofree char *message =
        g_strdup_printf ("%s = %.17g, expected %.17g (relative tolerance %g)",
                         expression, actual, expected, rel_tol);
      g_assertion_message (G_LOG_DOMAIN, file, line, G_STRFUNC, message);
    }
}

void
stats_random_samples (gsize      n,
                      int32_t    n_ranks,
                      double   **times,
                      int32_t  **ranks)
{
  *times = g_new (double, n);
  *ranks = g_new (int32_t, n);

  for (gsize i = 0; i < n; i++)
    {
      /* Box-Muller gives the normal exponent of a log-normal. */
      double u = g_test_rand_double_range (1e-12, 1.0);
      double v = g_test_rand_double ();
      double z = sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);

      (*times)[i] = 1e-3 * exp (0.5 * z);
      (*ranks)[i] = g_test_rand_int_range (0, n_ranks);
    }
}
