/* test-plot-exact-double.c — tprof_append_exact_double against the C library's "%.15g", "%.16g" or "%.17g" (the fewest that read back; for subnormals, the fewest digits), on random and extreme doubles; with --print, the text of doubles given in hex on stdin. */
/* SPDX-License-Identifier: MIT */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "tprof-plot.h"

/* The random cases check the digits, which the plain build does in full;
 * under a sanitizer (some 20 times slower) a tenth of them still walks
 * every path of the formatter for memory errors and undefined behaviour. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RANDOM_SCALE 10
#else
#define RANDOM_SCALE 1
#endif

/* the fewest of 15, 16 or 17 significant digits that read back as
 * @value, each formatted and parsed by the C library */
static void
reference_text (double value,
                char  *buf,
                size_t size)
{
  for (int precision = 15; precision <= 17; precision++)
    {
      snprintf (buf, size, "%.*g", precision, value);
      if (strtod (buf, NULL) == value)
        return;
    }
  g_assert_not_reached ();
}

static double
from_bits (uint64_t bits)
{
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

/* the digits from the first nonzero to the last nonzero */
static int
significant_digits (const char *text)
{
  int count = 0, zeros = 0, leading = 1;

  for (const char *p = text; *p != '\0' && *p != 'e'; p++)
    if (g_ascii_isdigit (*p) && !(leading && *p == '0'))
      {
        leading = 0;
        zeros = *p == '0' ? zeros + 1 : 0;
        count++;
      }
  return count - zeros;
}

/* as the C library's round trip gives it; but a subnormal (fewer bits,
 * so 15 digits may be more than it needs) or a power of two (where the
 * doubles below lie closer, so the shortest digits need not be the
 * nearest) may take fewer digits; all read back exactly, in digits none
 * fewer of which would */
static void
check_value (double value)
{
  char expected[64], shorter[64];
  GString *text = g_string_new (NULL);
  int exponent, count;

  tprof_append_exact_double (text, value);
  count = significant_digits (text->str);
  reference_text (value, expected, sizeof expected);
  if (strtod (text->str, NULL) != value)
    g_error ("%a: \"%s\" reads back as %a", value, text->str, strtod (text->str, NULL));
  snprintf (shorter, sizeof shorter, "%.*e", count - 2, value);
  if (count > 1 && strtod (shorter, NULL) == value)
    g_error ("%a: \"%s\", but \"%s\" reads back too", value, text->str, shorter);
  if (strcmp (text->str, expected) != 0
      && !((fabs (value) < DBL_MIN || fabs (frexp (value, &exponent)) == 0.5)
           && count < significant_digits (expected)))
    g_error ("%a: \"%s\", expected \"%s\"", value, text->str, expected);
  g_string_free (text, TRUE);
}

/* every bit pattern of a finite double equally likely, both signs */
static void
test_random_bits (void)
{
  GRand *rand = g_rand_new_with_seed (20261205);

  for (int i = 0; i < 2000000 / RANDOM_SCALE; i++)
    {
      uint64_t bits = ((uint64_t) g_rand_int (rand) << 32) | g_rand_int (rand);
      double value = from_bits (bits);

      if (isfinite (value))
        check_value (value);
    }
  g_rand_free (rand);
}

/* durations as the profiles hold them: 1 ns to 1000 s, log-uniform,
 * and their sums and means */
static void
test_random_durations (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int i = 0; i < 1000000 / RANDOM_SCALE; i++)
    {
      double value = pow (10, g_rand_double_range (rand, -9, 3));

      check_value (value);
      check_value (value * 3 / 7);
    }
  g_rand_free (rand);
}

/* the ends of the range, powers of two and ten, the subnormals, the
 * integers and halves where the form changes */
static void
test_extremes (void)
{
  const double values[] = {
    DBL_MIN, DBL_MAX, DBL_EPSILON, DBL_TRUE_MIN, 5e-324, 1e-323, 2.2250738585072009e-308,
    1.7976931348623157e308, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23,
    9007199254740992.0, 9007199254740993.0, 4503599627370495.5, 123456789012345678.0,
    1e-4, 1e-5, 0.00012345, 5e-5, 100, 1e14, 999999999999999.0, 9999999999999998.0,
  };

  for (size_t i = 0; i < G_N_ELEMENTS (values); i++)
    {
      check_value (values[i]);
      check_value (-values[i]);
    }
  for (int e = -1074; e <= 1023; e++)
    {
      check_value (ldexp (1, e));
      check_value (nextafter (ldexp (1, e), 0));
      check_value (nextafter (ldexp (1, e), INFINITY));
      check_value (ldexp (3, e));
    }
  for (int e = -323; e <= 308; e++)
    {
      g_autofree char *text = g_strdup_printf ("1e%d", e);
      double p = strtod (text, NULL);

      check_value (p);
      check_value (nextafter (p, 0));
      check_value (nextafter (p, INFINITY));
    }
  for (uint64_t m = 1; m < 20000; m++)
    {
      check_value ((double) m);
      check_value (m + 0.5);
      check_value (from_bits (m));                    /* the smallest subnormals */
      check_value (from_bits (0x000fffffffffffffull - m)); /* the largest */
    }
}

static void
test_zero_and_special (void)
{
  GString *text = g_string_new (NULL);

  tprof_append_exact_double (text, 0.0);
  g_string_append_c (text, ' ');
  tprof_append_exact_double (text, -0.0);
  g_string_append_c (text, ' ');
  tprof_append_exact_double (text, INFINITY);
  g_string_append_c (text, ' ');
  tprof_append_exact_double (text, -INFINITY);
  g_assert_cmpstr (text->str, ==, "0 -0 inf -inf");
  g_string_free (text, TRUE);
}

/* one hex bit pattern a line in, its text a line out */
static int
print_lines (void)
{
  char line[64];
  GString *text = g_string_new (NULL);

  while (fgets (line, sizeof line, stdin) != NULL)
    {
      g_string_truncate (text, 0);
      tprof_append_exact_double (text, from_bits (g_ascii_strtoull (line, NULL, 16)));
      printf ("%s\n", text->str);
    }
  g_string_free (text, TRUE);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "--print") == 0)
    return print_lines ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/exact-double/random-bits", test_random_bits);
  g_test_add_func ("/plot/exact-double/random-durations", test_random_durations);
  g_test_add_func ("/plot/exact-double/extremes", test_extremes);
  g_test_add_func ("/plot/exact-double/zero-and-special", test_zero_and_special);
  return g_test_run ();
}
