/* plot-test-util.h — hand-made histograms, pixel probes and a Python runner for the viewer/plot tests. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tprof-plot.h"

G_BEGIN_DECLS

/* A histogram with @n_bins equal bins over [@lo, @hi] and the given counts;
 * @rank_counts (n_ranks rows) may be NULL. Free with plot_test_histogram_free(). */
TprofHistogram *plot_test_histogram_new (double          lo,
                                         double          hi,
                                         gsize           n_bins,
                                         const guint64  *counts,
                                         gsize           n_ranks,
                                         const guint64  *rank_counts);
void plot_test_histogram_free (TprofHistogram *hist);

/* An image surface of @width x @height with @draw run on it. */
cairo_surface_t *plot_test_render (int width, int height, TprofPlotDrawFunc draw, gpointer data);

/* RGB (0..255) of the pixel at (@x, @y). */
void plot_test_pixel (cairo_surface_t *surface, double x, double y, int rgb[3]);
/* Asserts the pixel is within @tolerance (per channel, 0..255) of @expected (0..1). */
void plot_test_assert_pixel (cairo_surface_t *surface, double x, double y,
                             const double expected[3], int tolerance);
/* @top (alpha @alpha) over @bottom, as cairo composites them. */
void plot_test_blend (const double top[3], double alpha, const double bottom[3], double out[3]);

/* Runs PYTHON3 on tests/plot/@script (or tests/cli/...) with @args; fails
 * the test, showing the script's output, unless it exits with 0. */
void plot_test_run_python (const char *script, const char *const *args);

G_END_DECLS
