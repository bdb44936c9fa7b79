/* tprof-units.c — durations in the unit a person would pick: "250 µs", "1.25 s", "3 ns". */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-text-private.h"

typedef struct
{
  const char *name;
  double      per_second;
} DurationUnit;

static const DurationUnit units[] = {
  { "ns", 1e9 },
  { "µs", 1e6 },
  { "ms", 1e3 },
  { "s", 1 },
};

static const DurationUnit *
unit_for (double secs)
{
  double a = fabs (secs);

  if (!(a > 0) || !isfinite (a))
    return &units[3];
  if (a < 1e-6)
    return &units[0];
  if (a < 1e-3)
    return &units[1];
  if (a < 1)
    return &units[2];
  return &units[3];
}

const char *
tprof_duration_unit (double  max_secs,
                     double *per_second)
{
  const DurationUnit *unit = unit_for (max_secs);

  if (per_second != NULL)
    *per_second = unit->per_second;
  return unit->name;
}

static double
round_significant (double v, int digits)
{
  double scale;

  if (v == 0 || !isfinite (v))
    return v;
  scale = pow (10, digits - 1 - (int) floor (log10 (fabs (v))));
  return round (v * scale) / scale;
}

static void
strip_trailing_zeros (char *s)
{
  char *dot = strchr (s, '.');
  char *end;

  if (dot == NULL)
    return;
  end = s + strlen (s);
  while (end > dot + 1 && end[-1] == '0')
    *--end = '\0';
  if (end == dot + 1)
    *dot = '\0';
}

/* Past 100 s, minutes and hours read better than "107000 s": "1 min 47 s",
 * "29 h 43 min", to the second or the minute. */
static char *
format_long_duration (double secs)
{
  const char *sign = secs < 0 ? "-" : "";
  double a = fabs (secs);

  if (a < 3600 - 0.5)
    {
      long total = lround (a);

      /* Translators: a duration in minutes and seconds, e.g. "1 min 47 s" */
      return g_strdup_printf (_("%s%ld min %ld s"), sign, total / 60, total % 60);
    }
  {
    long minutes = lround (a / 60);

    /* Translators: a duration in hours and minutes, e.g. "29 h 43 min" */
    return g_strdup_printf (_("%s%ld h %ld min"), sign, minutes / 60, minutes % 60);
  }
}

/* Below this, v * 10^decimals computed in doubles is within 1.2e-4 of
 * its exact value. */
#define FIXED_MAX_SCALED 1e12

/* 10^0 .. 10^22, each exact */
static const double powers_of_ten[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Room for what fixed_digits() writes: 13 digits before the point, 22
 * after, a sign, the point and the end. */
#define FIXED_BUFFER 40

/* "%.*f" of @v with @decimals, without printf: a table of 10^4 operations
 * formats 10^5 durations. printf rounds the exact binary value of
 * v * 10^decimals to the nearest integer; computed in doubles it is
 * within 1.2e-4 of that value, so unless it lies within 1e-3 of a tie
 * its nearest integer is printf's. Writes its digits at the end of @buf
 * and returns where they start; NULL for anything else (near a tie, too
 * large, rounding to zero), which is printf's to write, so that the text
 * is always printf's. */
static char *
fixed_digits (double v,
              int    decimals,
              char   buf[FIXED_BUFFER])
{
  char *p = buf + FIXED_BUFFER;
  double scaled, k;
  guint64 n;

  if (decimals < 0 || decimals >= (int) G_N_ELEMENTS (powers_of_ten))
    return NULL;
  scaled = fabs (v) * powers_of_ten[decimals];
  k = round (scaled);
  if (!(scaled < FIXED_MAX_SCALED) || fabs (scaled - k) > 0.5 - 1e-3 || k == 0)
    return NULL;
  n = (guint64) k;
  *--p = '\0';
  for (int i = 0; i < decimals; i++, n /= 10)
    *--p = (char) ('0' + n % 10);
  if (decimals > 0)
    *--p = '.';
  do
    *--p = (char) ('0' + n % 10);
  while ((n /= 10) != 0);
  if (v < 0)
    *--p = '-';
  return p;
}

char *
tprof_format_fixed (double v,
                    int    decimals)
{
  char buf[FIXED_BUFFER];
  const char *digits = fixed_digits (v, decimals, buf);

  return digits != NULL ? g_strdup (digits) : g_strdup_printf ("%.*f", decimals, v);
}

/* "@number @unit", in one allocation. */
static char *
join_unit (const char *number,
           const char *unit)
{
  size_t number_length = strlen (number), unit_length = strlen (unit);
  char *text = g_malloc (number_length + unit_length + 2);

  memcpy (text, number, number_length);
  text[number_length] = ' ';
  memcpy (text + number_length + 1, unit, unit_length + 1);
  return text;
}

/* @secs in a unit that suits it, to @digits significant digits; @keep_zeros
 * keeps trailing zeros ("10.0 ms"), otherwise they go ("10 ms"). */
static char *
format_duration (double   secs,
                 int      digits,
                 gboolean keep_zeros)
{
  const DurationUnit *unit;
  double rounded, v;
  int decimals;
  char buf[FIXED_BUFFER];
  char *number, *allocated = NULL, *result;

  if (isnan (secs))
    return g_strdup ("—");
  if (isinf (secs))
    return g_strdup (secs > 0 ? "∞" : "−∞");
  if (digits <= 0)
    digits = 3;
  if (secs == 0)
    return g_strdup ("0 s");

  if (fabs (secs) >= 99.95)
    return format_long_duration (secs);

  /* Round first so that 999.96 µs becomes "1 ms", not "1000 µs". */
  rounded = round_significant (secs, digits);
  unit = unit_for (rounded);
  v = rounded * unit->per_second;
  decimals = MAX (0, digits - 1 - (int) floor (log10 (fabs (v))));
  number = fixed_digits (v, decimals, buf);
  if (number == NULL)
    number = allocated = g_strdup_printf ("%.*f", decimals, v);
  if (!keep_zeros)
    strip_trailing_zeros (number);
  result = join_unit (number, unit->name);
  g_free (allocated);
  return result;
}

char *
tprof_format_duration (double secs,
                       int    digits)
{
  /* one rule for every duration shown as a value: @digits significant
   * digits, so that "10.0 ms" stands beside "10.5 ms" */
  return format_duration (secs, digits, TRUE);
}

char *
_tprof_format_duration_round (double secs,
                              int    digits)
{
  return format_duration (secs, digits, FALSE);
}

char *
_tprof_format_duration_tick (double secs,
                             double max_abs,
                             double step)
{
  double per_second;
  const char *name = tprof_duration_unit (max_abs, &per_second);
  int decimals = 0;

  if (step > 0)
    decimals = MAX (0, (int) -floor (log10 (step * per_second) + 1e-9));
  if (fabs (secs) < step * 1e-6)
    secs = 0;  /* never print "-0" for a tick that is zero up to rounding */
  return g_strdup_printf ("%.*f %s", decimals, secs * per_second, name);
}

char *
_tprof_format_count_tick (double count,
                          double max_abs,
                          double step)
{
  const char *suffix = "";
  double divisor = 1;
  int decimals;

  if (max_abs >= 1e9)
    {
      divisor = 1e9;
      suffix = C_("count suffix, billions", "G");
    }
  else if (max_abs >= 1e6)
    {
      divisor = 1e6;
      suffix = C_("count suffix, millions", "M");
    }
  else if (max_abs >= 1e4)
    {
      divisor = 1e3;
      suffix = C_("count suffix, thousands", "k");
    }
  if (step <= 0)
    step = count != 0 ? fabs (count) : 1;
  if (fabs (count) < step * 1e-6)
    return g_strdup ("0");  /* neither "-0" nor "0k" */
  decimals = MAX (0, (int) -floor (log10 (step / divisor) + 1e-9));
  return g_strdup_printf ("%.*f%s", decimals, count / divisor, suffix);
}

gboolean
tprof_unichar_is_hidden_control (gunichar c)
{
  return (c >= 0x80 && c <= 0x9f)           /* C1 controls: CSI, NEL, ... */
         || (c >= 0x202a && c <= 0x202e)    /* bidi embeddings and overrides */
         || (c >= 0x2066 && c <= 0x2069);   /* bidi isolates */
}

/* Whether character @c of a valid text is written escaped. */
static gboolean
escaped_char (gunichar c)
{
  return c < 0x20 || c == 0x7f || tprof_unichar_is_hidden_control (c);
}

gboolean
tprof_text_shows_as_is (const char *text)
{
  const char *p = text;

  /* printable ASCII, the common case, without decoding */
  while (*p >= 0x20 && *p < 0x7f)
    p++;
  if (*p == '\0')
    return TRUE;
  if (!g_utf8_validate (p, -1, NULL))
    return FALSE;
  for (; *p != '\0'; p = g_utf8_next_char (p))
    if (escaped_char (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

char *
tprof_escape_text (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (tprof_text_shows_as_is (text))
    return g_strdup (text);
  valid = g_utf8_validate (text, -1, NULL) ? NULL : g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (text));

  if (valid != NULL)  /* a file name from the command line is bytes */
    text = valid;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if (tprof_unichar_is_hidden_control (c))  /* C1 controls, bidi overrides */
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (out, FALSE);
}
