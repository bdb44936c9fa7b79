/* test-plot-units.c — durations in human units, the nice ticks of linear and log axes, and text shown escaped. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "tprof-plot-private.h"

static void
assert_duration (double secs, int digits, const char *expected)
{
  char *text = tprof_format_duration (secs, digits);

  g_assert_cmpstr (text, ==, expected);
  g_free (text);
}

static void
test_format_duration (void)
{
  assert_duration (0.00025, 0, "250 µs");
  assert_duration (1.25, 3, "1.25 s");
  assert_duration (3e-9, 0, "3.00 ns");
  assert_duration (0.1, 3, "100 ms");
  assert_duration (1.5e-3, 2, "1.5 ms");
  assert_duration (2e-3, 3, "2.00 ms");
  assert_duration (10e-3, 3, "10.0 ms");
  assert_duration (10.5e-3, 3, "10.5 ms");
  assert_duration (-2e-3, 3, "-2.00 ms");
  assert_duration (59.94, 3, "59.9 s");
  /* past 100 s, minutes and hours */
  assert_duration (99.94, 3, "99.9 s");
  assert_duration (100, 3, "1 min 40 s");
  assert_duration (1234.5, 3, "20 min 35 s");
  assert_duration (3599.4, 3, "59 min 59 s");
  assert_duration (3599.6, 3, "1 h 0 min");
  assert_duration (107000, 3, "29 h 43 min");
  assert_duration (-150, 3, "-2 min 30 s");
  assert_duration (0, 3, "0 s");
  assert_duration (NAN, 3, "—");
  /* rounding moves into the next unit instead of printing "1000 µs" */
  assert_duration (0.00099996, 3, "1.00 ms");
  assert_duration (999.6e-9, 3, "1.00 µs");
  assert_duration (0.123456789, 6, "123.457 ms");
}

static void
assert_fixed (double v, int decimals)
{
  char *got = tprof_format_fixed (v, decimals);
  char *want = g_strdup_printf ("%.*f", decimals, v);

  if (g_strcmp0 (got, want) != 0)
    g_error ("%.17g with %d decimals: \"%s\", printf gives \"%s\"", v, decimals, got, want);
  g_free (got);
  g_free (want);
}

/* The table's numbers without printf: always printf's text, for values of
 * few digits, exact ties and values a hair from them, values of many
 * digits, tiny and huge ones. */
static void
test_format_fixed (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  static const double edges[] = {
    0.5, 1.5, 2.5, 0.125, 0.0625, 999.5, 1e15, 1e22, 1e300, 5e-324, -0.0, 0.0, -1.25,
    0.1, 0.7, 1.005, 2.675, 123.456, 9.995, 99.95, 1e-7, 4503599627370496.5,
  };

  for (gsize i = 0; i < G_N_ELEMENTS (edges); i++)
    for (int d = 0; d <= 25; d++)
      {
        assert_fixed (edges[i], d);
        assert_fixed (-edges[i], d);
      }
  for (int i = 0; i < 20000; i++)
    {
      int d = g_rand_int_range (rand, 0, 8);
      /* a few significant digits in some unit, as a duration shows them */
      double k = (double) g_rand_int_range (rand, 1, 1000000);
      double v = k / pow (10, g_rand_int_range (rand, 0, 9));
      double r = g_rand_double_range (rand, -1e4, 1e4);
      /* a tie, or nearly, at the last decimal */
      double tie = (k + 0.5) / pow (10, d);

      assert_fixed (v, d);
      assert_fixed (-v, d);
      assert_fixed (nextafter (v, 0), d);
      assert_fixed (nextafter (v, INFINITY), d);
      assert_fixed (r, d);
      assert_fixed (tie, d);
      assert_fixed (nextafter (tie, 0), d);
      assert_fixed (nextafter (tie, INFINITY), d);
    }
  g_rand_free (rand);
}

static void
assert_unit (double max_secs, const char *name, double per_second)
{
  double got = 0;

  g_assert_cmpstr (tprof_duration_unit (max_secs, &got), ==, name);
  g_assert_cmpfloat (got, ==, per_second);
}

static void
test_duration_unit (void)
{
  assert_unit (5e-7, "ns", 1e9);
  assert_unit (2.5e-4, "µs", 1e6);
  assert_unit (0.5, "ms", 1e3);
  assert_unit (3, "s", 1);
  assert_unit (7200, "s", 1);
  assert_unit (0, "s", 1);
  g_assert_cmpstr (tprof_duration_unit (1e-5, NULL), ==, "µs");
}

static char **
axis_labels (const TprofPlotAxis *axis)
{
  char **labels = g_new0 (char *, axis->n_ticks + 1);

  for (guint i = 0; i < axis->n_ticks; i++)
    labels[i] = _tprof_plot_axis_tick_label (axis, i);
  return labels;
}

static void
assert_labels (const TprofPlotAxis *axis, const char *const *expected)
{
  char **labels = axis_labels (axis);

  g_assert_cmpstrv (labels, expected);
  g_strfreev (labels);
}

static void
test_linear_ticks (void)
{
  TprofPlotAxis axis;
  const char *const ms[] = { "0.0 ms", "0.2 ms", "0.4 ms", "0.6 ms", "0.8 ms", "1.0 ms", NULL };
  const char *const us[] = { "250 µs", "300 µs", "350 µs", "400 µs", NULL };
  const char *const counts[] = { "0", "20k", "40k", "60k", NULL };

  _tprof_plot_axis_init_linear (&axis, TPROF_PLOT_AXIS_DURATION, 0, 1e-3, 5, FALSE);
  assert_labels (&axis, ms);
  g_assert_cmpfloat (axis.min, ==, 0);
  g_assert_cmpfloat (axis.max, ==, 1e-3);

  _tprof_plot_axis_init_linear (&axis, TPROF_PLOT_AXIS_DURATION, 240e-6, 410e-6, 4, FALSE);
  assert_labels (&axis, us);

  /* a count axis grows to whole ticks and never steps by less than one */
  _tprof_plot_axis_init_linear (&axis, TPROF_PLOT_AXIS_COUNT, 0, 51234, 3, TRUE);
  assert_labels (&axis, counts);
  g_assert_cmpfloat (axis.max, ==, 60000);
  _tprof_plot_axis_init_linear (&axis, TPROF_PLOT_AXIS_COUNT, 0, 2, 5, TRUE);
  g_assert_cmpfloat (axis.step, ==, 1);
}

static void
test_log_ticks (void)
{
  TprofPlotAxis axis;
  const char *const decades[] = { "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", NULL };
  const char *const one_two_five[] = { "2 ms", "5 ms", "10 ms", "20 ms", NULL };

  _tprof_plot_axis_init_log (&axis, TPROF_PLOT_AXIS_DURATION, 0.9e-6, 2e-2);
  assert_labels (&axis, decades);
  _tprof_plot_axis_init_log (&axis, TPROF_PLOT_AXIS_DURATION, 1.5e-3, 30e-3);
  assert_labels (&axis, one_two_five);

  /* positions are logarithmic: 10 µs sits a quarter of the way from 1 µs to 10 ms */
  _tprof_plot_axis_init_log (&axis, TPROF_PLOT_AXIS_DURATION, 1e-6, 1e-2);
  g_assert_cmpfloat_with_epsilon (_tprof_plot_axis_fraction (&axis, 1e-5), 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (_tprof_plot_axis_value (&axis, 0.5), 1e-4, 1e-16);

  /* many decades thin out */
  _tprof_plot_axis_init_log (&axis, TPROF_PLOT_AXIS_COUNT, 1, 1e20);
  g_assert_cmpuint (axis.n_ticks, <=, 11);
  g_assert_cmpuint (axis.n_ticks, >=, 4);
}

static void
test_nice_step (void)
{
  g_assert_cmpfloat_with_epsilon (_tprof_plot_nice_step (0.13), 0.2, 1e-15);
  g_assert_cmpfloat_with_epsilon (_tprof_plot_nice_step (3), 5, 1e-15);
  g_assert_cmpfloat_with_epsilon (_tprof_plot_nice_step (7), 10, 1e-15);
  g_assert_cmpfloat_with_epsilon (_tprof_plot_nice_step (100), 100, 1e-12);
}

/* A text shows as it is exactly when escaping leaves it unchanged, with
 * each kind of text the escape knows written out by hand. */
static void
test_shows_as_is (void)
{
  static const struct { const char *text; gboolean as_is; const char *escaped; } cases[] = {
    { "", TRUE, "" },
    { "forward 1.23 ms", TRUE, "forward 1.23 ms" },
    { "12.3 \u00b5s", TRUE, "12.3 \u00b5s" },
    { "\u6f14\u7b97", TRUE, "\u6f14\u7b97" },
    { "a\nb", FALSE, "a\\nb" },
    { "tab\t", FALSE, "tab\\t" },
    { "\x1b[31m", FALSE, "\\x1b[31m" },
    { "del\x7f", FALSE, "del\\x7f" },
    { "nel\xc2\x85", FALSE, "nel\\u0085" },
    { "\u00b5\u202eevil", FALSE, "\u00b5\\u202eevil" },
    { "bad\xff", FALSE, "bad\xef\xbf\xbd" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *escaped = tprof_escape_text (cases[i].text);

      g_assert_cmpint (tprof_text_shows_as_is (cases[i].text), ==, cases[i].as_is);
      g_assert_cmpstr (escaped, ==, cases[i].escaped);
      g_free (escaped);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/units/format-duration", test_format_duration);
  g_test_add_func ("/plot/units/format-fixed", test_format_fixed);
  g_test_add_func ("/plot/units/duration-unit", test_duration_unit);
  g_test_add_func ("/plot/axis/linear-ticks", test_linear_ticks);
  g_test_add_func ("/plot/axis/log-ticks", test_log_ticks);
  g_test_add_func ("/plot/axis/nice-step", test_nice_step);
  g_test_add_func ("/plot/units/shows-as-is", test_shows_as_is);
  return g_test_run ();
}
