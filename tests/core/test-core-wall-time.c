/* test-core-wall-time.c — the timeline origin's wall time text, against instants worked out by hand (and Python's datetime). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core-check.h"
#include "tprof-profiled-time-internal.h"

static void
check_text (double epoch, const char *expected)
{
  char *text = _tprof_wall_time_text (epoch);

  if (expected == NULL)
    CHECK (text == NULL);
  else
    CHECK (text != NULL && strcmp (text, expected) == 0);
  free (text);
}

int
main (void)
{
  check_text (0, "1970-01-01T00:00:00.000000Z");
  check_text (1764892800.25, "2025-12-05T00:00:00.250000Z");
  /* truncated to the microsecond, never carried into a seventh digit */
  check_text (1764892859.9999995, "2025-12-05T00:00:59.999999Z");
  check_text (-0.5, "1969-12-31T23:59:59.500000Z");
  check_text (NAN, NULL);
  check_text (INFINITY, NULL);
  return 0;
}
