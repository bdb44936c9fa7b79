/* test-plot-export.c — PNG, SVG and PDF exports and the histogram CSV: sizes, contents, atomic writes, errors. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "plot-test-util.h"

typedef struct
{
  TprofHistogram    *hist;
  TprofPlotHistogram plot;
  char              *dir;
} Fixture;

static const guint64 counts[] = { 2, 0, 7, 3, 0, 1 };

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  GError *error = NULL;

  f->hist = plot_test_histogram_new (1e-3, 4e-3, G_N_ELEMENTS (counts), counts, 0, NULL);
  tprof_plot_histogram_init (&f->plot);
  f->plot.hist = f->hist;
  f->dir = g_dir_make_tmp ("tprof-plot-export-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
remove_dir (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_dir (child);
      else
        g_unlink (child);
      g_free (child);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  remove_dir (f->dir);
  g_free (f->dir);
  plot_test_histogram_free (f->hist);
}

static char *
export (Fixture *f, const char *name, int width, int height, GError **error)
{
  char *path = g_build_filename (f->dir, name, NULL);

  if (!tprof_plot_export (path, width, height, tprof_plot_histogram_draw_default, &f->plot, error))
    g_clear_pointer (&path, g_free);
  return path;
}

/* export() that must succeed. */
static char *
export_ok (Fixture *f, const char *name, int width, int height)
{
  GError *error = NULL;
  char *path = export (f, name, width, height, &error);

  g_assert_no_error (error);
  g_assert_nonnull (path);
  return path;
}

static void
test_format_from_path (void)
{
  g_assert_cmpint (tprof_plot_format_from_path ("a.png"), ==, TPROF_PLOT_FORMAT_PNG);
  g_assert_cmpint (tprof_plot_format_from_path ("/x/A.SVG"), ==, TPROF_PLOT_FORMAT_SVG);
  g_assert_cmpint (tprof_plot_format_from_path ("b.Pdf"), ==, TPROF_PLOT_FORMAT_PDF);
  g_assert_cmpint (tprof_plot_format_from_path ("c.csv"), ==, TPROF_PLOT_FORMAT_CSV);
  g_assert_cmpint (tprof_plot_format_from_path ("d.gif"), ==, TPROF_PLOT_FORMAT_UNKNOWN);
  g_assert_cmpint (tprof_plot_format_from_path ("png"), ==, TPROF_PLOT_FORMAT_UNKNOWN);
}

static void
test_png_size (Fixture *f, gconstpointer data)
{
  const int sizes[][2] = { { 640, 480 }, { 123, 77 }, { 1920, 1080 } };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      char *path = export_ok (f, "chart.png", sizes[k][0], sizes[k][1]);
      cairo_surface_t *png = cairo_image_surface_create_from_png (path);

      g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (png), ==, sizes[k][0]);
      g_assert_cmpint (cairo_image_surface_get_height (png), ==, sizes[k][1]);
      cairo_surface_destroy (png);
      g_free (path);
    }
}

static void
test_svg_contents (Fixture *f, gconstpointer data)
{
  char *path = export_ok (f, "chart.svg", 900, 500);
  char *bars_text, *fill;
  double blue[3];
  int bars = 0;

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    bars += counts[i] > 0;
  tprof_plot_palette_color (0, blue);
  bars_text = g_strdup_printf ("%d", bars);
  fill = g_strdup_printf ("%.6f,%.6f,%.6f", blue[0], blue[1], blue[2]);
  {
    const char *args[] = { path, "900", "500", bars_text, fill, NULL };

    plot_test_run_python ("plot/check-svg.py", args);
  }
  g_free (bars_text);
  g_free (fill);
  g_free (path);
}

static void
test_pdf_header (Fixture *f, gconstpointer data)
{
  char *path = export_ok (f, "chart.PDF", 800, 600);
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 1000);
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  g_free (contents);
  g_free (path);
}

static void
assert_only_files (const char *dir, guint expected)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  g_dir_close (d);
  /* no temporary file is left behind */
  g_assert_cmpuint (n, ==, expected);
}

static void
test_errors (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  char *missing_dir = g_build_filename (f->dir, "no", "such", "dir", "x.png", NULL);
  char *path;

  g_assert_null (export (f, "chart.gif", 100, 100, &error));
  g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "chart.gif"));
  g_clear_error (&error);

  g_assert_null (export (f, "chart.csv", 100, 100, &error));
  g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_FORMAT);
  g_clear_error (&error);

  g_assert_null (export (f, "chart.png", 0, 100, &error));
  g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_FORMAT);
  g_clear_error (&error);

  g_assert_false (tprof_plot_export (missing_dir, 100, 100, tprof_plot_histogram_draw_default,
                                     &f->plot, &error));
  g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, missing_dir));
  g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
  g_clear_error (&error);

  /* a directory in the way */
  path = g_build_filename (f->dir, "dir.png", NULL);
  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  g_assert_null (export (f, "dir.png", 100, 100, &error));
  g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_WRITE);
  g_clear_error (&error);
  assert_only_files (f->dir, 1);
  g_rmdir (path);
  g_free (path);
  g_free (missing_dir);
}

/* The export replaces an earlier file in one step (a new file renamed over
 * it), and a failed export leaves the earlier file as it was. */
static void
test_atomic_replace (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  char *path = g_build_filename (f->dir, "keep.svg", NULL);
  char *contents = NULL;
  char buf[16] = { 0 };
  FILE *earlier;

  g_assert_true (g_file_set_contents (path, "earlier", -1, NULL));
  earlier = fopen (path, "r");
  g_assert_nonnull (earlier);
  g_assert_true (tprof_plot_export (path, 100, 100, tprof_plot_histogram_draw_default, &f->plot, &error));
  g_assert_no_error (error);
  /* the old file was never written into */
  g_assert_cmpuint (fread (buf, 1, sizeof buf - 1, earlier), ==, 7);
  g_assert_cmpstr (buf, ==, "earlier");
  fclose (earlier);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_free (contents);

  if (geteuid () != 0)  /* root ignores directory permissions */
    {
      g_assert_true (g_file_set_contents (path, "earlier", -1, NULL));
      g_assert_cmpint (g_chmod (f->dir, 0555), ==, 0);
      g_assert_false (tprof_plot_export (path, 100, 100, tprof_plot_histogram_draw_default, &f->plot,
                                         &error));
      g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_WRITE);
      g_clear_error (&error);
      g_chmod (f->dir, 0755);
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "earlier");
      g_free (contents);
    }
  assert_only_files (f->dir, 1);
  g_free (path);
}

/* An export gets the mode creat(2) would give under the umask, and a
 * replaced file keeps its own. */
static void
test_mode (Fixture *f, gconstpointer data)
{
  mode_t old_mask = umask (027);
  char *fresh = export_ok (f, "fresh.png", 50, 40);
  char *kept = g_build_filename (f->dir, "kept.svg", NULL);
  struct stat st;

  g_assert_cmpint (stat (fresh, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);

  g_assert_true (g_file_set_contents (kept, "earlier", -1, NULL));
  g_assert_cmpint (g_chmod (kept, 0604), ==, 0);
  g_free (export_ok (f, "kept.svg", 50, 40));
  g_assert_cmpint (stat (kept, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0604);

  umask (old_mask);
  g_free (fresh);
  g_free (kept);
}

/* A picture that cannot be written completely names the system's reason,
 * not cairo's "error while writing to output stream", and leaves nothing. */
static void
test_write_failure_reason (Fixture *f, gconstpointer data)
{
  const char *formats[] = { "big.png", "big.svg", "big.pdf" };
  struct rlimit old_limit, small;
  void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  small = old_limit;
  small.rlim_cur = 4096;  /* any file this process writes stops at 4 KiB */
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);

  for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
    {
      GError *error = NULL;
      char *path = export (f, formats[k], 1500, 1000, &error);

      g_assert_null (path);
      g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_WRITE);
      g_test_message ("%s: %s", formats[k], error->message);
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
      g_assert_null (strstr (error->message, "output stream"));
      g_clear_error (&error);
    }

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  signal (SIGXFSZ, old_handler);
  assert_only_files (f->dir, 0);
}

static void
test_csv (Fixture *f, gconstpointer data)
{
  const guint64 rank_counts[] = { 1, 0, 3, 3, 0, 0,
                                  1, 0, 4, 0, 0, 1 };
  TprofHistogram *hist = plot_test_histogram_new (0.1, 0.7, 6, counts, 2, rank_counts);
  char *csv = tprof_plot_histogram_to_csv (f->hist);
  char *path = g_build_filename (f->dir, "h.csv", NULL);
  char **lines = g_strsplit (csv, "\n", -1);
  char **fields;
  char *contents = NULL;
  GError *error = NULL;

  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (counts) + 2);
  g_assert_cmpstr (lines[0], ==, "left,right,count");
  g_assert_cmpstr (lines[G_N_ELEMENTS (counts) + 1], ==, "");
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      fields = g_strsplit (lines[i + 1], ",", -1);
      g_assert_cmpuint (g_strv_length (fields), ==, 3);
      /* full precision: the text reads back as the exact double */
      g_assert_cmpfloat (g_ascii_strtod (fields[0], NULL), ==, f->hist->edges[i]);
      g_assert_cmpfloat (g_ascii_strtod (fields[1], NULL), ==, f->hist->edges[i + 1]);
      g_assert_cmpuint (g_ascii_strtoull (fields[2], NULL, 10), ==, counts[i]);
      g_strfreev (fields);
    }

  g_assert_true (tprof_plot_save_text (path, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, csv);
  g_free (contents);
  g_strfreev (lines);
  g_free (csv);

  csv = tprof_plot_histogram_to_csv (hist);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "left,right,count,rank_0,rank_1");
  g_assert_true (g_str_has_suffix (lines[3], ",7,3,4"));
  g_assert_true (g_str_has_suffix (lines[6], ",1,0,1"));
  g_strfreev (lines);
  g_free (csv);
  g_free (path);
  plot_test_histogram_free (hist);
}

/* Where -o points (hist, trace, plot): as for a profile's save, a link is
 * followed and the file it names replaced (the link stays a link), a FIFO
 * or a directory is refused and left as it is, the replaced file's mode
 * and group are kept, and a name the system cannot hold says so. */
static void
test_targets (Fixture *f, gconstpointer data)
{
  g_autofree char *real = g_build_filename (f->dir, "real.csv", NULL);
  g_autofree char *link = g_build_filename (f->dir, "link.csv", NULL);
  g_autofree char *fifo = g_build_filename (f->dir, "fifo.csv", NULL);
  g_autofree char *sub = g_build_filename (f->dir, "sub.csv", NULL);
  g_autofree char *long_base = g_strnfill (NAME_MAX - 4, 'x');
  g_autofree char *longest = g_strconcat (long_base, ".csv", NULL);  /* NAME_MAX bytes */
  g_autofree char *too_long = g_strconcat (long_base, "x.csv", NULL);
  g_autofree char *longest_path = g_build_filename (f->dir, longest, NULL);
  g_autofree char *too_long_path = g_build_filename (f->dir, too_long, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *target = NULL;
  GError *error = NULL;
  struct stat st;
  gid_t other_gid = getegid () == 0 ? 1 : getegid ();  /* root may give a file any group */

  /* a link: the file it names is replaced, keeping its mode and group */
  g_assert_true (g_file_set_contents (real, "earlier", -1, NULL));
  g_assert_cmpint (g_chmod (real, 0600), ==, 0);
  g_assert_cmpint (chown (real, (uid_t) -1, other_gid), ==, 0);
  g_assert_cmpint (symlink ("real.csv", link), ==, 0);
  g_assert_true (tprof_plot_save_text (link, "a,b\n", &error));
  g_assert_no_error (error);
  target = g_file_read_link (link, NULL);
  g_assert_cmpstr (target, ==, "real.csv");
  g_assert_true (g_file_get_contents (real, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "a,b\n");
  g_assert_cmpint (stat (real, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpint (st.st_gid, ==, other_gid);

  /* a FIFO and a directory: refused by name, left alone */
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_false (tprof_plot_save_text (fifo, "a,b\n", &error));
  g_assert_error (error, TPROF_PLOT_ERROR, TPROF_PLOT_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, fifo));
  g_assert_nonnull (strstr (error->message, "FIFO"));
  g_clear_error (&error);
  g_assert_cmpint (lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_false (tprof_plot_save_text (sub, "a,b\n", &error));
  g_assert_nonnull (strstr (error->message, g_strerror (EISDIR)));
  g_clear_error (&error);

  /* a name of NAME_MAX bytes is written (the temporary name is short); one
   * byte more is refused as too long */
  g_assert_true (tprof_plot_save_text (longest_path, "a,b\n", &error));
  g_assert_no_error (error);
  g_assert_false (tprof_plot_save_text (too_long_path, "a,b\n", &error));
  g_assert_nonnull (strstr (error->message, g_strerror (ENAMETOOLONG)));
  g_clear_error (&error);

  /* nothing else was left behind */
  assert_only_files (f->dir, 5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/export/format-from-path", test_format_from_path);
  g_test_add ("/plot/export/png-size", Fixture, NULL, fixture_set_up, test_png_size, fixture_tear_down);
  g_test_add ("/plot/export/svg-contents", Fixture, NULL, fixture_set_up, test_svg_contents,
              fixture_tear_down);
  g_test_add ("/plot/export/pdf-header", Fixture, NULL, fixture_set_up, test_pdf_header, fixture_tear_down);
  g_test_add ("/plot/export/errors", Fixture, NULL, fixture_set_up, test_errors, fixture_tear_down);
  g_test_add ("/plot/export/atomic-replace", Fixture, NULL, fixture_set_up, test_atomic_replace,
              fixture_tear_down);
  g_test_add ("/plot/export/mode", Fixture, NULL, fixture_set_up, test_mode, fixture_tear_down);
  g_test_add ("/plot/export/write-failure-reason", Fixture, NULL, fixture_set_up,
              test_write_failure_reason, fixture_tear_down);
  g_test_add ("/plot/export/csv", Fixture, NULL, fixture_set_up, test_csv, fixture_tear_down);
  g_test_add ("/plot/export/targets", Fixture, NULL, fixture_set_up, test_targets, fixture_tear_down);
  return g_test_run ();
}
