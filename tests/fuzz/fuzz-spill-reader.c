/* fuzz-spill-reader.c — libFuzzer target: any bytes, opened as a spill file and read in two steps as a live reader would (the second in slices), must never crash and must deliver what one read delivers. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprof-spill-reader-internal.h"
#include "tprof-spill-slice-internal.h"

static char path[64];

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
on_samples (void *user_data, uint32_t op, int32_t thread, size_t n, const double *starts, const double *durations)
{
  volatile double sum = 0;

  /* a delivered run names a defined operation and holds finite values */
  if (_tprof_spill_reader_name (user_data, op) == NULL || thread < 0)
    abort ();
  for (size_t i = 0; i < n; i++)
    sum += starts[i] + durations[i];
  return 0;
}

static void
write_file (const uint8_t *data,
            size_t         size,
            const char    *mode)
{
  FILE *f = fopen (path, mode);

  if (f == NULL || (size > 0 && fwrite (data, 1, size, f) != size))
    abort ();
  fclose (f);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const TprofSpillVisitor visitor = { .samples = on_samples };
  TprofError error = { 0 };
  TprofSpillReadStatus status, whole_status;
  TprofSpillReader *reader, *whole;
  TprofSpillSlice slice = { 0 };
  uint64_t first;
  size_t half = size / 2;

  if (path[0] == '\0')
    snprintf (path, sizeof path, "/dev/shm/tprof-fuzz-spill-%ld.spill", (long) getpid ());
  /* the first half, then the rest appended, as a writer would */
  write_file (data, half, "wb");
  reader = _tprof_spill_reader_open (path, &error);
  if (reader == NULL)
    {
      write_file (data, size, "wb");
      reader = _tprof_spill_reader_open (path, &error);
      if (reader == NULL)
        {
          /* a refusal is one line naming the file */
          if (error.code == TPROF_ERROR_NONE || strncmp (error.message, path, strlen (path)) != 0
              || strchr (error.message, '\n') != NULL)
            abort ();
          return 0;
        }
    }
  if (_tprof_spill_reader_read (reader, &visitor, reader, &status, &error) < 0)
    abort ();
  first = status.tail == TPROF_SPILL_TAIL_DAMAGED ? UINT64_MAX : status.samples;
  write_file (data + half, size - half, "ab");
  /* the rest in slices of 1 to 8 samples */
  if (_tprof_spill_slice_begin (&slice, reader, &error) < 0)
    abort ();
  while (!slice.done)
    if (_tprof_spill_slice_next (&slice, &visitor, reader, 1 + size % 8, &error) < 0)
      abort ();
  status = slice.status;
  _tprof_spill_slice_clear (&slice);
  if (status.tail == TPROF_SPILL_TAIL_DAMAGED && status.problem[0] == '\0')
    abort ();
  /* without damage, the same as one read of the whole file */
  whole = _tprof_spill_reader_open (path, &error);
  if (whole == NULL || _tprof_spill_reader_read (whole, &visitor, whole, &whole_status, &error) < 0)
    abort ();
  if (first != UINT64_MAX && status.tail != TPROF_SPILL_TAIL_DAMAGED && whole_status.tail != TPROF_SPILL_TAIL_DAMAGED
      && (whole_status.samples != first + status.samples || whole_status.offset != status.offset))
    abort ();
  _tprof_spill_reader_close (whole);
  _tprof_spill_reader_close (reader);
  return 0;
}
