/* test-h5-schema.c — the format's tables of root attributes and /ranks members: what docs/file-format.md lists, what a save writes, what a reader refuses. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <hdf5.h>

#include "h5-test-util.h"
#include "tprof-format.h"

#define WORLD 3

/* The rows of the Markdown table that follows the line starting with
 * @heading in docs/file-format.md: each row's cells, trimmed. */
static GPtrArray *
doc_table (const char *heading)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "file-format.md", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (char **line = lines; *line != NULL; line++)
    {
      if (g_str_has_prefix (*line, heading))
        inside = TRUE;
      else if (inside && g_str_has_prefix (*line, "| `"))
        {
          char **cells = g_strsplit (*line + 1, "|", -1);

          for (char **cell = cells; *cell != NULL; cell++)
            g_strstrip (*cell);
          g_ptr_array_add (rows, cells);
        }
      else if (inside && rows->len > 0 && !g_str_has_prefix (*line, "|"))
        break;
    }
  g_assert_cmpuint (rows->len, >, 0);
  return rows;
}

/* The row of @rows whose first cell is `@name`, or NULL. */
static char **
doc_row (GPtrArray  *rows,
         const char *name)
{
  g_autofree char *quoted = g_strdup_printf ("`%s`", name);

  for (guint i = 0; i < rows->len; i++)
    if (strcmp (((char **) g_ptr_array_index (rows, i))[0], quoted) == 0)
      return g_ptr_array_index (rows, i);
  return NULL;
}

/* Each root attribute and /ranks member of the tables is documented with
 * its type (and, for attributes, whether it is required), and the
 * documentation lists no other. */
static void
test_docs (void)
{
  g_autoptr(GPtrArray) attrs = doc_table ("Root attributes:");
  g_autoptr(GPtrArray) members = doc_table ("Optional group `/ranks`:");

  g_assert_cmpuint (attrs->len, ==, TPROF_N_ROOT_ATTRS);
  for (int a = 0; a < TPROF_N_ROOT_ATTRS; a++)
    {
      char **row = doc_row (attrs, _tprof_root_attrs[a].name);

      if (row == NULL)
        g_error ("root attribute '%s' is not in docs/file-format.md", _tprof_root_attrs[a].name);
      g_assert_cmpstr (row[1], ==, _tprof_root_attrs[a].type == TPROF_COLTYPE_STRING ? "string" : "integer");
      g_assert_true (g_str_has_prefix (row[2], _tprof_root_attrs[a].required ? "yes" : "no"));
    }
  g_assert_cmpuint (members->len, ==, TPROF_N_RANKS_MEMBERS);
  for (int m = 0; m < TPROF_N_RANKS_MEMBERS; m++)
    {
      char **row = doc_row (members, _tprof_ranks_members[m].name);

      if (row == NULL)
        g_error ("%s is not in docs/file-format.md", _tprof_ranks_members[m].path);
      g_assert_cmpstr (row[1], ==, _tprof_ranks_members[m].type == TPROF_COLTYPE_STRING ? "string[world_size]"
                                   : "float64[world_size]");
    }
}

/* A saved profile with host names and a timeline. */
static char *
write_profile (const char *dir)
{
  static const char *const hosts[WORLD] = { "node-a", "node-b", "node-a" };
  char *path = g_build_filename (dir, "schema.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  double times[WORLD] = { 0.5, 0.25, 0.125 }, starts[WORLD] = { 0.0, 1.0, 2.0 };
  int32_t ranks[WORLD] = { 0, 1, 2 }, threads[WORLD] = { 0, 0, 0 };
  TprofGatheredTime *gt = h5_test_gathered (times, ranks, WORLD);
  TprofError error = { 0 };

  g_assert_true (tprof_gathered_time_set_timeline_take (gt, g_memdup2 (starts, sizeof starts),
                                                        g_memdup2 (threads, sizeof threads)));
  g_assert_cmpint (tprof_profiled_time_add (pt, "work", gt, &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, &error), ==, 0);
  tprof_profiled_time_set_timeline_take (pt, g_new0 (double, WORLD), g_new0 (double, WORLD),
                                         g_strdup ("2026-01-02T03:04:05.5Z"));
  g_assert_cmpint (tprof_profiled_time_save (pt, path, &error), ==, 0);
  tprof_profiled_time_free (pt);
  return path;
}

static herr_t
collect_attr (hid_t             obj,
              const char       *name,
              const H5A_info_t *info,
              void             *data)
{
  g_ptr_array_add (data, g_strdup (name));
  return 0;
}

/* A save writes every root attribute of the table, of its class, and
 * nothing else at the root; /ranks holds the members it has values for. */
static void
test_written (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = write_profile (dir);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  hid_t file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT), ranks;
  hsize_t at = 0;

  g_assert_cmpint (file, >=, 0);
  g_assert_cmpint (H5Aiterate2 (file, H5_INDEX_NAME, H5_ITER_INC, &at, collect_attr, names), >=, 0);
  g_assert_cmpuint (names->len, ==, TPROF_N_ROOT_ATTRS);
  for (int a = 0; a < TPROF_N_ROOT_ATTRS; a++)
    {
      hid_t attr = H5Aopen (file, _tprof_root_attrs[a].name, H5P_DEFAULT);
      hid_t type = H5Aget_type (attr);

      g_assert_cmpint (attr, >=, 0);
      g_assert_cmpint (H5Tget_class (type), ==, _tprof_root_attrs[a].type == TPROF_COLTYPE_STRING ? H5T_STRING
                                                : H5T_INTEGER);
      H5Tclose (type);
      H5Aclose (attr);
    }
  ranks = H5Gopen2 (file, TPROF_RANKS_GROUP, H5P_DEFAULT);
  g_assert_cmpint (ranks, >=, 0);
  for (int m = 0; m < TPROF_N_RANKS_MEMBERS; m++)
    {
      /* data_until only in a profile merged from spill files */
      gboolean expected = m != TPROF_RANKS_DATA_UNTIL;
      hid_t dset;
      hid_t type;

      g_assert_cmpint (H5Lexists (ranks, _tprof_ranks_members[m].name, H5P_DEFAULT) > 0, ==, expected);
      if (!expected)
        continue;
      dset = H5Dopen2 (ranks, _tprof_ranks_members[m].name, H5P_DEFAULT);
      type = H5Dget_type (dset);
      g_assert_cmpint (H5Tget_class (type), ==, _tprof_ranks_members[m].type == TPROF_COLTYPE_STRING ? H5T_STRING
                                                : H5T_FLOAT);
      H5Tclose (type);
      H5Dclose (dset);
    }
  H5Gclose (ranks);
  H5Fclose (file);
  h5_test_assert_no_open_objects ();
}

/* What the reader takes from the tables' members comes back as saved. */
static void
test_read_back (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = write_profile (dir);
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open (path, &error);

  g_assert_nonnull (pf);
  g_assert_cmpint (tprof_profile_file_format_version (pf), ==, TPROF_FORMAT_VERSION);
  g_assert_cmpint (tprof_profile_file_world_size (pf), ==, WORLD);
  g_assert_cmpstr (tprof_profile_file_timeline_origin (pf), ==, "2026-01-02T03:04:05.5Z");
  g_assert_true (g_str_has_prefix (tprof_profile_file_producer (pf), "libtprof-capture "));
  g_assert_cmpstr (tprof_profile_file_hostname (pf, 2), ==, "node-a");
  g_assert_nonnull (tprof_profile_file_clock_offsets (pf));
  tprof_profile_file_close (pf);
}

/* A member's bad value is refused, named by its path and index. */
static void
test_refused (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *path = write_profile (dir);
  double bad[WORLD] = { 0.0, -1.0, 0.0 };
  TprofError error = { 0 };
  hid_t file = H5Fopen (path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t dset = H5Dopen2 (file, "ranks/clock_offset_error", H5P_DEFAULT);

  g_assert_cmpint (H5Dwrite (dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, bad), >=, 0);
  H5Dclose (dset);
  H5Fclose (file);
  g_assert_null (tprof_profile_file_open (path, &error));
  g_assert_nonnull (strstr (error.message, "/ranks/clock_offset_error[1] is -1, expected a finite value >= 0"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/schema/docs", test_docs);
  g_test_add_func ("/h5/schema/written", test_written);
  g_test_add_func ("/h5/schema/read-back", test_read_back);
  g_test_add_func ("/h5/schema/refused", test_refused);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
