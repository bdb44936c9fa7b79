/* tprof-wall-time.c — _tprof_wall_time_text(): an instant of wall time as the profile's timeline_origin writes it, ISO 8601 UTC with microseconds. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tprof-profiled-time-internal.h"

char *
_tprof_wall_time_text (double epoch)
{
  /* truncated to whole microseconds, before the seconds are split off */
  double us = floor (epoch * 1e6);
  time_t secs = (time_t) floor (us / 1e6);
  struct tm utc;
  char text[64];
  size_t len;

  if (!isfinite (epoch) || gmtime_r (&secs, &utc) == NULL)
    return NULL;
  len = strftime (text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  if (len == 0)
    return NULL;
  snprintf (text + len, sizeof text - len, ".%06dZ", (int) (us - (double) secs * 1e6));
  return strdup (text);
}
