/* bench-rss.c — a benchmark's memory: its resident and peak resident size, from /proc. */
/* SPDX-License-Identifier: MIT */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-rss.h"

size_t
bench_status_bytes (const char *field)
{
  FILE *status = fopen ("/proc/self/status", "r");
  char line[256];
  size_t kib = 0;

  if (status == NULL)
    return 0;
  while (fgets (line, sizeof line, status) != NULL)
    if (strncmp (line, field, strlen (field)) == 0 && line[strlen (field)] == ':')
      kib = strtoull (line + strlen (field) + 1, NULL, 10);
  fclose (status);
  return kib * 1024;
}

bool
bench_peak_rss_reset (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY);
  bool ok = fd >= 0 && write (fd, "5", 1) == 1;

  if (fd >= 0)
    close (fd);
  return ok;
}
