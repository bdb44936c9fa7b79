/* tprof-h5-names.c — operation names as HDF5 link names (escaping) and the UTF-8 check every string read goes through. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
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
