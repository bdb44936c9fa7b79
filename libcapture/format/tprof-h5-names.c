/* tprof-h5-names.c — operation names as HDF5 link names (escaping), the UTF-8 check every string read goes through, names shown in messages. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-internal.h"

char *
_tprof_h5_escape_name (const char *name)
{
  size_t len = strlen (name);
  char *out;
  char *o;

  if (strcmp (name, ".") == 0)
    return strdup ("%2E");
  if (len > (SIZE_MAX - 1) / 3)
    return NULL;
  out = malloc (len * 3 + 1);
  if (out == NULL)
    return NULL;
  o = out;
  for (const char *p = name; *p != '\0'; p++)
    {
      const char *escape = *p == '%' ? "%25" : *p == '/' ? "%2F" : NULL;

      if (escape != NULL)
        {
          memcpy (o, escape, 3);
          o += 3;
        }
      else
        *o++ = *p;
    }
  *o = '\0';
  return out;
}

static bool
tprof_h5_escape_is (const char *p, char hi, char lo)
{
  return p[0] == '%' && p[1] == hi && (p[2] == lo || p[2] == (lo | 0x20));
}

char *
_tprof_h5_unescape_name (const char *link_name)
{
  char *out = malloc (strlen (link_name) + 1);
  char *o = out;

  if (out == NULL)
    return NULL;
  for (const char *p = link_name; *p != '\0';)
    {
      if (tprof_h5_escape_is (p, '2', '5'))
        *o++ = '%', p += 3;
      else if (tprof_h5_escape_is (p, '2', 'F'))
        *o++ = '/', p += 3;
      else if (tprof_h5_escape_is (p, '2', 'E'))
        *o++ = '.', p += 3;
      else
        *o++ = *p++;
    }
  *o = '\0';
  return out;
}

bool
_tprof_h5_utf8_valid (const char *s,
                      size_t      len)
{
  const unsigned char *p = (const unsigned char *) s;
  const unsigned char *end = p + len;

  while (p < end)
    {
      unsigned c = *p;
      size_t extra;
      uint32_t cp;
      uint32_t min;
      uint64_t word;

      /* ASCII, 8 bytes at a time */
      if ((size_t) (end - p) >= 8 && (memcpy (&word, p, 8), (word & 0x8080808080808080u) == 0))
        {
          p += 8;
          continue;
        }
      if (c < 0x80)
        {
          p++;
          continue;
        }
      if ((c & 0xE0) == 0xC0)
        extra = 1, cp = c & 0x1F, min = 0x80;
      else if ((c & 0xF0) == 0xE0)
        extra = 2, cp = c & 0x0F, min = 0x800;
      else if ((c & 0xF8) == 0xF0)
        extra = 3, cp = c & 0x07, min = 0x10000;
      else
        return false;
      if ((size_t) (end - p) <= extra)
        return false;
      for (size_t k = 1; k <= extra; k++)
        {
          if ((p[k] & 0xC0) != 0x80)
            return false;
          cp = (cp << 6) | (p[k] & 0x3F);
        }
      /* overlong forms, surrogates and values past U+10FFFF */
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return false;
      p += extra + 1;
    }
  return true;
}

/* The length of the printable UTF-8 character at @p (of @left bytes): 0
 * for a control character (C0, DEL, C1), a bidirectional override or
 * isolate (they reorder the rest of a terminal's line), or bytes that are
 * not UTF-8. */
static size_t
tprof_h5_printable_len (const unsigned char *p,
                        size_t               left)
{
  size_t len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;

  if (len > left || !_tprof_h5_utf8_valid ((const char *) p, len))
    return 0;
  if (len == 1)
    return *p >= 0x20 && *p != 0x7F ? 1 : 0;
  if (len == 2 && p[0] == 0xC2 && p[1] < 0xA0)                          /* U+0080-U+009F */
    return 0;
  if (len == 3 && p[0] == 0xE2 && ((p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE)  /* U+202A-U+202E */
                                   || (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)))  /* U+2066-U+2069 */
    return 0;
  return len;
}

void
_tprof_h5_printable (const char *s,
                     char       *buf,
                     size_t      size)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t left = strlen (s), used = 0;

  if (size < 8)
    {
      if (size > 0)
        buf[0] = '\0';
      return;
    }
  while (left > 0)
    {
      size_t len = tprof_h5_printable_len (p, left);
      size_t out = len > 0 ? len : 4;  /* or "\xHH" */

      if (used + out > size - 4)  /* room for "..." and the end */
        {
          memcpy (buf + used, "...", 3);
          used += 3;
          break;
        }
      if (len > 0)
        memcpy (buf + used, p, len);
      else
        snprintf (buf + used, 5, "\\x%02X", *p);
      used += out;
      p += len > 0 ? len : 1;
      left -= len > 0 ? len : 1;
    }
  buf[used] = '\0';
}
