/* tprof-units.c — durations in the unit a person would pick: "250 µs", "1.25 s", "3 ns". */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-plot-private.h"

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
  char *number, *result;

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
  number = g_strdup_printf ("%.*f", decimals, v);
  if (!keep_zeros)
    strip_trailing_zeros (number);
  result = g_strdup_printf ("%s %s", number, unit->name);
  g_free (number);
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
