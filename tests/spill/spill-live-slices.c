/* spill-live-slices.c — follows a spill directory twice, reading the ranks in slices of a few samples and each rank whole, and prints both followers' figures as JSON lines at each line on stdin; or reads one file in slices, shrinking it after the first. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tprof/tprof-arrival.h>

#include "tprof-spill-live-internal.h"

/* Every figure the live view shows, exactly (%a), of @sl. */
static void
print_follower (const char     *label,
                TprofSpillLive *sl)
{
  TprofStragglers *s = tprof_live_stragglers (sl->live);
  int world = sl->job->world_size;

  printf ("\"%s\": {\"ops\": {", label);
  for (size_t op = 0; op < tprof_live_n_operations (sl->live); op++)
    {
      TprofArrival a;
      const int64_t *count;
      const double *sum, *min, *max;

      tprof_live_arrival (sl->live, op, &a);
      tprof_live_rank_totals (sl->live, op, &count, &sum, &min, &max);
      printf ("%s\"%s\": {\"occurrences\": %zu, \"start_spread\": \"%a\", \"end_spread\": \"%a\", "
              "\"synchronising\": %s, \"count\": [", op > 0 ? ", " : "", tprof_live_operation_name (sl->live, op),
              a.n_occurrences, a.start_spread, a.end_spread, a.synchronising ? "true" : "false");
      for (int r = 0; r < world; r++)
        printf ("%s%lld", r > 0 ? ", " : "", (long long) count[r]);
      printf ("], \"sum\": [");
      for (int r = 0; r < world; r++)
        printf ("%s\"%a\"", r > 0 ? ", " : "", sum[r]);
      printf ("]}");
    }
  printf ("}, \"wait_caused\": [");
  for (int r = 0; s != NULL && r < world; r++)
    printf ("%s\"%a\"", r > 0 ? ", " : "", tprof_stragglers_wait_caused (s)[r]);
  printf ("], \"late_count\": [");
  for (int r = 0; s != NULL && r < world; r++)
    printf ("%s%llu", r > 0 ? ", " : "", (unsigned long long) tprof_stragglers_late_count (s)[r]);
  printf ("], \"straggler\": %d, \"ranks\": [", s != NULL ? tprof_stragglers_name (s, NULL) : -2);
  for (int r = 0; r < world; r++)
    {
      const TprofSpillLiveRank *rank = &sl->ranks[r];

      printf ("%s{\"samples\": %llu, \"flushes\": %llu, \"ended\": %s, \"damaged\": %s, \"problem\": \"%s\"}",
              r > 0 ? ", " : "", (unsigned long long) rank->samples, (unsigned long long) rank->flushes,
              rank->ended ? "true" : "false", rank->damaged ? "true" : "false", rank->damaged ? rank->problem : "");
    }
  printf ("]}");
  tprof_stragglers_free (s);
}

/* --shrink: FILE read in slices of @per_slice samples, cut @keep bytes
 * after the record the first slice stopped in; prints how the read ended. */
static int
shrink (const char *path,
        size_t      per_slice,
        long        keep)
{
  TprofError error = { 0 };
  TprofSpillReader *reader = _tprof_spill_reader_open (path, &error);
  TprofSpillSlice slice = { 0 };
  uint64_t cut;

  if (reader == NULL || _tprof_spill_slice_begin (&slice, reader, &error) < 0
      || _tprof_spill_slice_next (&slice, NULL, NULL, per_slice, &error) < 0)
    {
      fprintf (stderr, "%s\n", error.message);
      return 1;
    }
  cut = slice.pos;
  if (truncate (path, (off_t) (cut + (uint64_t) keep)) < 0)
    return 1;
  while (!slice.done)
    if (_tprof_spill_slice_next (&slice, NULL, NULL, per_slice, &error) < 0)
      {
        fprintf (stderr, "%s\n", error.message);
        return 1;
      }
  printf ("{\"cut\": %llu, \"damaged\": %s, \"tail_offset\": %llu, \"samples\": %llu, \"problem\": \"%s\"}\n",
          (unsigned long long) cut, slice.status.tail == TPROF_SPILL_TAIL_DAMAGED ? "true" : "false",
          (unsigned long long) slice.status.tail_offset, (unsigned long long) slice.status.samples,
          slice.status.problem);
  _tprof_spill_slice_clear (&slice);
  _tprof_spill_reader_close (reader);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  TprofError error = { 0 };
  TprofSpillLive *sliced, *whole;
  char line[64];

  if (argc == 5 && strcmp (argv[1], "--shrink") == 0)
    return shrink (argv[2], (size_t) strtoul (argv[3], NULL, 10), strtol (argv[4], NULL, 10));
  if (argc != 3)
    {
      fprintf (stderr, "usage: spill-live-slices DIR SAMPLES-PER-SLICE | --shrink FILE SAMPLES-PER-SLICE BYTES\n");
      return 2;
    }
  /* opened at the first line: the files' first records are written by then */
  if (fgets (line, sizeof line, stdin) == NULL)
    return 1;
  sliced = _tprof_spill_live_open (argv[1], NULL, &error);
  whole = sliced != NULL ? _tprof_spill_live_open (argv[1], NULL, &error) : NULL;
  if (whole == NULL)
    {
      fprintf (stderr, "%s\n", error.message);
      return 1;
    }
  sliced->slice = (size_t) strtoul (argv[2], NULL, 10);
  sliced->slice_min = 1;
  whole->slice = SIZE_MAX;
  printf ("{\"opened\": true}\n");
  fflush (stdout);
  while (fgets (line, sizeof line, stdin) != NULL)
    {
      if (_tprof_spill_live_refresh (sliced, &error) < 0 || _tprof_spill_live_refresh (whole, &error) < 0)
        {
          fprintf (stderr, "%s\n", error.message);
          return 1;
        }
      printf ("{");
      print_follower ("sliced", sliced);
      printf (", ");
      print_follower ("whole", whole);
      printf ("}\n");
      fflush (stdout);
    }
  _tprof_spill_live_free (sliced);
  _tprof_spill_live_free (whole);
  return 0;
}
