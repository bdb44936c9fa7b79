/* fuzz-reader.c — libFuzzer target: any bytes, opened as a profile through the isolated reader and read whole, must never crash the caller. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tprof/capture.h>

/* HDF5 1.10 refuses a memfd's /proc path: a tmpfs file instead. */
static char path[64];

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  TprofError error = { 0 };
  TprofProfileFile *pf;
  FILE *f;

  if (path[0] == '\0')
    snprintf (path, sizeof path, "/dev/shm/tprof-fuzz-%ld.h5", (long) getpid ());
  f = fopen (path, "wb");
  if (f == NULL)
    abort ();
  if (size > 0 && fwrite (data, 1, size, f) != size)
    abort ();
  fclose (f);

  pf = tprof_profile_file_open_isolated (path, &error);
  if (pf == NULL)
    {
      /* a refusal is one line naming the file */
      if (error.code == TPROF_ERROR_NONE || strncmp (error.message, path, strlen (path)) != 0
          || strchr (error.message, '\n') != NULL)
        abort ();
      return 0;
    }
  for (size_t op = 0; op < tprof_profile_file_n_operations (pf) && op < 16; op++)
    {
      const TprofOperationStats *stats = tprof_profile_file_operation_stats (pf, op, &error);
      TprofGatheredTime *gt = tprof_profile_file_read_operation (pf, op, NULL, 0, NULL, NULL, NULL, &error);

      if (stats != NULL && gt != NULL && stats->summary.count != tprof_gathered_time_count (gt)
          && !tprof_profile_file_has_cached_stats (pf, op))
        abort ();
      tprof_gathered_time_free (gt);
    }
  tprof_profile_file_close (pf);
  return 0;
}
