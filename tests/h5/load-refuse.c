/* load-refuse.c — loads FILE with tprof_profiled_time_load(), which checks each operation's cache in the pass over its samples, and with an open that checks every cache first then a read of every operation: both must refuse it with the same message. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include <tprof/capture.h>

static bool
count_operation (size_t             op,
                 TprofGatheredTime *gt,
                 void              *user_data,
                 TprofError        *error)
{
  (void) op;
  (void) error;
  tprof_gathered_time_free (gt);
  ++*(size_t *) user_data;
  return true;
}

/* FILE opened (every cache checked at once), then every operation read:
 * 0, or -1 with @error. */
static int
open_then_read (const char *path,
                TprofError *error)
{
  TprofProfileFile *pf = tprof_profile_file_open (path, error);
  size_t n = 0;
  int result;

  if (pf == NULL)
    return -1;
  result = tprof_profile_file_read_all (pf, NULL, 0, count_operation, &n, error);
  tprof_profile_file_close (pf);
  return result;
}

int
main (int argc, char **argv)
{
  TprofError loaded = { 0 }, read = { 0 };
  TprofProfiledTime *pt;
  int status;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE\n"
                       "  exit 0 when FILE loads, 1 with the load's message on stderr when both the load\n"
                       "  and an open then a read of every operation refuse it alike, 3 otherwise\n", argv[0]);
      return 2;
    }
  pt = tprof_profiled_time_load (argv[1], &loaded);
  status = open_then_read (argv[1], &read);
  if (pt != NULL && status == 0)
    {
      tprof_profiled_time_free (pt);
      return 0;
    }
  tprof_profiled_time_free (pt);
  if (pt != NULL || status == 0 || strcmp (loaded.message, read.message) != 0)
    {
      fprintf (stderr, "the load and the open then read disagree: load: %s; open and read: %s\n",
               pt != NULL ? "(loaded)" : loaded.message, status == 0 ? "(read)" : read.message);
      return 3;
    }
  fprintf (stderr, "%s\n", loaded.message);
  return 1;
}
