/* spill-dump.c — prints, as JSON lines, everything the spill reader delivers from one file; reads again at each line on stdin (the live-append test). */
/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-spill-reader-internal.h"

static const char *const tails[] = { "none", "unfinished", "damaged" };

/* @s as a JSON string (names and paths of the tests are plain). */
static void
print_string (const char *s)
{
  putchar ('"');
  for (; *s != '\0'; s++)
    if (*s == '"' || *s == '\\')
      printf ("\\%c", *s);
    else if ((unsigned char) *s < 0x20)
      printf ("\\u%04x", *s);
    else
      putchar (*s);
  putchar ('"');
}

static int
on_samples (void *user_data, uint32_t op, int32_t thread, size_t n, const double *starts, const double *durations)
{
  printf ("{\"samples\": ");
  print_string (_tprof_spill_reader_name (user_data, op));
  printf (", \"thread\": %" PRId32 ", \"starts\": [", thread);
  for (size_t i = 0; i < n; i++)
    printf ("%s%.17g", i ? ", " : "", starts[i]);
  printf ("], \"durations\": [");
  for (size_t i = 0; i < n; i++)
    printf ("%s%.17g", i ? ", " : "", durations[i]);
  printf ("]}\n");
  return 0;
}

static int
on_names (void *user_data, uint32_t first, uint32_t n)
{
  printf ("{\"names\": [");
  for (uint32_t i = 0; i < n; i++)
    {
      printf (i ? ", " : "");
      print_string (_tprof_spill_reader_name (user_data, first + i));
    }
  printf ("], \"first\": %" PRIu32 "}\n", first);
  return 0;
}

static int
on_commit (void *user_data, const TprofSpillCommit *commit)
{
  (void) user_data;
  printf ("{\"commit\": %" PRIu64 ", \"when\": %.17g, \"total\": %" PRIu64 "}\n", commit->flush, commit->when, commit->total);
  return 0;
}

static int
on_state (void *user_data, const void *payload, size_t len, uint64_t offset)
{
  (void) user_data;
  printf ("{\"state\": \"");
  for (size_t i = 0; i < len; i++)
    printf ("%02x", ((const unsigned char *) payload)[i]);
  printf ("\", \"offset\": %" PRIu64 "}\n", offset);
  return 0;
}

static int
on_signal (void *user_data, int32_t signum, double when)
{
  (void) user_data;
  printf ("{\"signal\": %" PRId32 ", \"when\": %.17g}\n", signum, when);
  return 0;
}

static int
on_end (void *user_data, double when, const char *path)
{
  (void) user_data;
  printf ("{\"end\": %.17g, \"path\": ", when);
  print_string (path);
  printf ("}\n");
  return 0;
}

int
main (int    argc,
      char **argv)
{
  const TprofSpillVisitor visitor = { on_samples, on_names, on_commit, on_state, on_signal, on_end };
  TprofError error = { 0 };
  TprofSpillReader *reader;
  const TprofSpillHeader *h;
  char line[64];

  if (argc != 2)
    {
      fprintf (stderr, "usage: spill-dump FILE < commands\n");
      return 2;
    }
  reader = _tprof_spill_reader_open (argv[1], &error);
  if (reader == NULL)
    {
      printf ("{\"error\": ");
      print_string (error.message);
      printf (", \"code\": %d}\n", error.code);
      return 1;
    }
  h = _tprof_spill_reader_header (reader);
  printf ("{\"header\": %" PRId32 ", \"world_size\": %" PRId32 ", \"pid\": %" PRId32 ", \"job\": \"%016" PRIx64 "\", "
          "\"clock_offset\": %.17g, \"clock_offset_error\": %.17g, \"interval\": %.17g, \"started\": %.17g, "
          "\"started_wall\": %.17g, \"host\": ",
          h->rank, h->world_size, h->pid, h->job, h->clock_offset, h->clock_offset_error, h->interval,
          h->started, h->started_wall);
  print_string (h->host);
  printf (", \"label\": ");
  print_string (h->label);
  printf ("}\n");
  /* one read now, one more at each line of stdin */
  do
    {
      TprofSpillReadStatus status;

      if (_tprof_spill_reader_read (reader, &visitor, reader, &status, &error) < 0)
        {
          printf ("{\"error\": ");
          print_string (error.message);
          printf ("}\n");
          _tprof_spill_reader_close (reader);
          return 1;
        }
      printf ("{\"read\": \"%s\", \"offset\": %" PRIu64 ", \"tail_offset\": %" PRIu64 ", \"size\": %" PRIu64
              ", \"flushes\": %" PRIu64 ", \"samples\": %" PRIu64 ", \"problem\": ",
              tails[status.tail], status.offset, status.tail_offset, status.size, status.flushes, status.samples);
      print_string (status.tail == TPROF_SPILL_TAIL_DAMAGED ? status.problem : "");
      printf ("}\n");
      fflush (stdout);
    }
  while (fgets (line, sizeof line, stdin) != NULL);
  _tprof_spill_reader_close (reader);
  return 0;
}
