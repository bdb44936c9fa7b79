/* test-h5-interop.c — files we save read by h5py alone, and files h5py writes loaded by us. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "h5-test-util.h"

static void
json_append_string (GString    *json,
                    const char *s)
{
  g_string_append_c (json, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (json, "\\%c", *p);
      else if (*p < 0x20)
        g_string_append_printf (json, "\\u%04x", *p);
      else
        g_string_append_c (json, (char) *p);
    }
  g_string_append_c (json, '"');
}

/* The profile's content as JSON, in the order it was added (not the order
 * the file must have: the checker works that out with numpy). */
static char *
profile_to_json (const TprofProfiledTime *pt,
                 gboolean                 with_hostnames)
{
  GString *json = g_string_new (NULL);
  int world_size = tprof_profiled_time_world_size (pt);

  g_string_append_printf (json, "{\"world_size\": %d, \"operations\": [", world_size);
  for (size_t i = 0; i < tprof_profiled_time_len (pt); i++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, i);
      const double *times = tprof_gathered_time_times (gt);
      const int32_t *ranks = tprof_gathered_time_ranks (gt);
      size_t n = tprof_gathered_time_count (gt);

      g_string_append (json, i > 0 ? ", {\"name\": " : "{\"name\": ");
      json_append_string (json, tprof_profiled_time_name (pt, i));
      g_string_append (json, ", \"times\": [");
      for (size_t k = 0; k < n; k++)
        g_string_append_printf (json, "%s%.17g", k > 0 ? ", " : "", times[k]);
      g_string_append (json, "], \"ranks\": [");
      for (size_t k = 0; k < n; k++)
        g_string_append_printf (json, "%s%d", k > 0 ? ", " : "", (int) ranks[k]);
      g_string_append (json, "]}");
    }
  g_string_append (json, "], \"hostnames\": ");
  if (with_hostnames)
    {
      g_string_append_c (json, '[');
      for (int r = 0; r < world_size; r++)
        {
          if (r > 0)
            g_string_append (json, ", ");
          json_append_string (json, tprof_profiled_time_hostname (pt, r));
        }
      g_string_append_c (json, ']');
    }
  else
    g_string_append (json, "null");
  g_string_append (json, "}\n");
  return g_string_free (json, FALSE);
}

static void
add_op (TprofProfiledTime *pt,
        const char        *name,
        const double      *times,
        const int32_t     *ranks,
        size_t             n)
{
  g_assert_cmpint (tprof_profiled_time_add (pt, name, tprof_gathered_time_new (times, ranks, n), NULL), ==, 0);
}

static void
check_h5py_reads (TprofProfiledTime *pt,
                  gboolean           with_hostnames)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "ours.h5", NULL);
  char *spec_path = g_build_filename (dir, "spec.json", NULL);
  char *spec = profile_to_json (pt, with_hostnames);
  TprofError error = { 0 };
  GError *gerror = NULL;

  g_file_set_contents (spec_path, spec, -1, &gerror);
  g_assert_no_error (gerror);
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  h5_test_run_python ("check_saved.py", path, spec_path, NULL);

  g_free (spec);
  g_free (spec_path);
  g_free (path);
  g_free (dir);
}

static void
test_h5py_reads_ours (void)
{
  static const double step[] = { 0.5, 1.25, 1e-7, 3.0, 0.1, 2.5, 1.0 / 3.0 };
  static const int32_t step_ranks[] = { 2, 0, 3, 0, 2, 1, 0 };
  static const double io[] = { 7.0, 8.0 };
  static const int32_t io_ranks[] = { 1, 1 };
  static const char *const hosts[] = { "alpha", "bêta", "gamma", "δ" };
  TprofProfiledTime *pt = tprof_profiled_time_new (4);
  enum { BULK = 3000 };
  double *bulk = g_new (double, BULK);
  int32_t *interleaved = g_new (int32_t, BULK), *grouped = g_new (int32_t, BULK);

  /* large enough for contiguous datasets, whose bytes save writes itself;
   * rank 3 records nothing in the interleaved one */
  for (int i = 0; i < BULK; i++)
    {
      bulk[i] = fmod (i * 0.37, 1.9) + 1e-3 * i;
      interleaved[i] = (i * 7) % 3;
      grouped[i] = i * 4 / BULK;
    }
  add_op (pt, "train/step", step, step_ranks, G_N_ELEMENTS (step));
  add_op (pt, "bulk/interleaved", bulk, interleaved, BULK);
  add_op (pt, "bulk/grouped", bulk, grouped, BULK);
  add_op (pt, "idle", NULL, NULL, 0);
  add_op (pt, "io 100%", io, io_ranks, 2);
  add_op (pt, ".", io, io_ranks, 1);
  add_op (pt, "Ænd \"quoted\"", step, step_ranks, 3);
  add_op (pt, "alpha", io, io_ranks, 2);
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, NULL), ==, 0);

  check_h5py_reads (pt, TRUE);
  tprof_profiled_time_free (pt);
  g_free (bulk);
  g_free (interleaved);
  g_free (grouped);

  /* without host names, /ranks is not written at all */
  pt = tprof_profiled_time_new (1);
  add_op (pt, "only", io, (const int32_t[]) { 0, 0 }, 2);
  check_h5py_reads (pt, FALSE);
  tprof_profiled_time_free (pt);
}

static void
assert_samples (const TprofProfiledTime *pt,
                const char              *name,
                const double            *times,
                const int32_t           *ranks,
                size_t                   n)
{
  const TprofGatheredTime *gt = tprof_profiled_time_get (pt, name);

  g_assert_nonnull (gt);
  g_assert_cmpuint (tprof_gathered_time_count (gt), ==, n);
  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpfloat (tprof_gathered_time_times (gt)[i], ==, times[i]);
      g_assert_cmpint (tprof_gathered_time_ranks (gt)[i], ==, ranks[i]);
    }
}

static TprofProfiledTime *
load_foreign (const char *mode)
{
  char *dir = h5_test_make_dir ();
  char *path = g_build_filename (dir, "foreign.h5", NULL);
  TprofError error = { 0 };
  TprofProfiledTime *pt;

  h5_test_run_python ("write_foreign.py", mode, path, NULL);
  pt = tprof_profiled_time_load (path, &error);
  if (pt == NULL)
    g_error ("%s", error.message);
  h5_test_assert_no_open_objects ();
  g_free (path);
  g_free (dir);
  return pt;
}

static void
test_we_read_h5py (void)
{
  TprofProfiledTime *pt = load_foreign ("name-order");

  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, 3);
  /* no creation order in the file: name order of the links */
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 3);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "alpha beta");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 1), ==, "io/read");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 2), ==, "zeta");

  /* float32 and int64, interleaved ranks kept as the file has them */
  assert_samples (pt, "zeta", (const double[]) { 0.5, 0.25, 1.5, 2.0 },
                  (const int32_t[]) { 2, 0, 2, 1 }, 4);
  /* big-endian float64, deflated, uint16 ranks */
  assert_samples (pt, "alpha beta", (const double[]) { 3.0, 0.125, 7.75 },
                  (const int32_t[]) { 1, 1, 0 }, 3);
  assert_samples (pt, "io/read", NULL, NULL, 0);

  g_assert_cmpstr (tprof_profiled_time_hostname (pt, 0), ==, "node-a");
  g_assert_cmpstr (tprof_profiled_time_hostname (pt, 2), ==, "node-c");
  g_assert_cmpstr (tprof_profiled_time_producer (pt), ==, "h5py test writer");
  g_assert_null (tprof_profiled_time_created (pt));
  g_assert_null (tprof_profiled_time_clock (pt));
  tprof_profiled_time_free (pt);
}

static void
test_we_read_h5py_creation_order (void)
{
  TprofProfiledTime *pt = load_foreign ("creation-order");

  g_assert_cmpint (tprof_profiled_time_world_size (pt), ==, 2);
  g_assert_cmpuint (tprof_profiled_time_len (pt), ==, 3);
  g_assert_cmpstr (tprof_profiled_time_name (pt, 0), ==, "zeta");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 1), ==, "alpha");
  g_assert_cmpstr (tprof_profiled_time_name (pt, 2), ==, "mid");
  assert_samples (pt, "mid", (const double[]) { 2.0 }, (const int32_t[]) { 0 }, 1);
  tprof_profiled_time_free (pt);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/interop/h5py-reads-ours", test_h5py_reads_ours);
  g_test_add_func ("/h5/interop/we-read-h5py", test_we_read_h5py);
  g_test_add_func ("/h5/interop/we-read-h5py-creation-order", test_we_read_h5py_creation_order);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
