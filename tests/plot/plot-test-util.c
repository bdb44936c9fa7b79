/* plot-test-util.c — hand-made histograms, pixel probes and a Python runner for the viewer/plot tests. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "plot-test-util.h"

TprofHistogram *
plot_test_histogram_new (double          lo,
                         double          hi,
                         gsize           n_bins,
                         const guint64  *counts,
                         gsize           n_ranks,
                         const guint64  *rank_counts)
{
  TprofHistogram *hist = g_new0 (TprofHistogram, 1);

  hist->n_bins = n_bins;
  hist->edges = g_new (double, n_bins + 1);
  for (gsize i = 0; i <= n_bins; i++)
    hist->edges[i] = lo + (hi - lo) * i / n_bins;
  hist->counts = g_memdup2 (counts, n_bins * sizeof *counts);
  if (rank_counts != NULL)
    {
      hist->n_ranks = n_ranks;
      hist->ranks = g_new (int32_t, n_ranks);
      for (gsize r = 0; r < n_ranks; r++)
        hist->ranks[r] = (int32_t) r;
      hist->rank_counts = g_memdup2 (rank_counts, n_ranks * n_bins * sizeof *rank_counts);
    }
  return hist;
}

void
plot_test_histogram_free (TprofHistogram *hist)
{
  g_free (hist->edges);
  g_free (hist->counts);
  g_free (hist->ranks);
  g_free (hist->rank_counts);
  g_free (hist);
}

cairo_surface_t *
plot_test_render (int               width,
                  int               height,
                  TprofPlotDrawFunc draw,
                  gpointer          data)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  draw (cr, width, height, data);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

void
plot_test_pixel (cairo_surface_t *surface,
                 double           x,
                 double           y,
                 int              rgb[3])
{
  int ix = (int) floor (x), iy = (int) floor (y);
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 pixel;

  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (surface));
  pixel = *(guint32 *) (data + iy * stride + ix * 4);
  /* opaque pixels only: the default theme paints an opaque background */
  g_assert_cmpint (pixel >> 24, ==, 0xff);
  rgb[0] = (pixel >> 16) & 0xff;
  rgb[1] = (pixel >> 8) & 0xff;
  rgb[2] = pixel & 0xff;
}

void
plot_test_assert_pixel (cairo_surface_t *surface,
                        double           x,
                        double           y,
                        const double     expected[3],
                        int              tolerance)
{
  int rgb[3];

  plot_test_pixel (surface, x, y, rgb);
  for (int c = 0; c < 3; c++)
    if (ABS (rgb[c] - (int) round (expected[c] * 255)) > tolerance)
      g_error ("pixel (%.1f, %.1f) is #%02x%02x%02x, expected #%02x%02x%02x", x, y,
               rgb[0], rgb[1], rgb[2], (int) round (expected[0] * 255),
               (int) round (expected[1] * 255), (int) round (expected[2] * 255));
}

void
plot_test_blend (const double top[3],
                 double       alpha,
                 const double bottom[3],
                 double       out[3])
{
  for (int c = 0; c < 3; c++)
    out[c] = top[c] * alpha + bottom[c] * (1 - alpha);
}

void
plot_test_run_python (const char        *script,
                      const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  char *out = NULL, *err = NULL;
  GError *error = NULL;
  int status = 0;

  g_ptr_array_add (argv, g_strdup (PYTHON3));
  g_ptr_array_add (argv, g_build_filename (TESTS_SRCDIR, script, NULL));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed:\n%s%s", script, out, err);
  g_free (out);
  g_free (err);
  g_ptr_array_unref (argv);
}
