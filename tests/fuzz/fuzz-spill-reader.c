/* fuzz-spill-reader.c — libFuzzer target: any bytes, opened as a spill file and read in two steps as a live reader would (the second in slices), then whole as the merge reads it (counted, then placed), must never crash, and the reads must agree. */
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

/* What a whole read committed: samples and a digest of their values (the
 * exclusive or of their bits, which no order of the flush's records
 * changes); the placed read's flush being read apart. */
typedef struct
{
  size_t   samples, pending_samples;
  uint64_t digest, pending_digest;
  double *blocks[4096];
  size_t  n_blocks;
} Whole;

static uint64_t
digest (const double *starts,
        const double *durations,
        size_t        n)
{
  uint64_t d = 0;

  for (size_t i = 0; i < n; i++)
    {
      uint64_t s, x;

      memcpy (&s, &starts[i], sizeof s);
      memcpy (&x, &durations[i], sizeof x);
      d ^= s ^ (x << 1 | x >> 63);
    }
  return d;
}

static int
whole_samples (void *user_data, uint32_t op, int32_t thread, size_t n, const double *starts, const double *durations)
{
  Whole *w = user_data;

  (void) op;
  (void) thread;
  w->digest ^= digest (starts, durations, n);
  w->samples += n;
  return 0;
}

/* Room of exactly @n values each, so that a write past it is caught. */
static int
on_place (void *user_data, uint32_t op, int32_t thread, size_t n, double **starts, double **durations)
{
  Whole *w = user_data;

  (void) op;
  (void) thread;
  if (w->n_blocks + 2 > sizeof w->blocks / sizeof *w->blocks)
    return -1;
  *starts = w->blocks[w->n_blocks++] = malloc (n > 0 ? n * sizeof (double) : 1);
  *durations = w->blocks[w->n_blocks++] = malloc (n > 0 ? n * sizeof (double) : 1);
  return *starts != NULL && *durations != NULL ? 0 : -1;
}

static int
on_placed (void *user_data, uint32_t op, int32_t thread, size_t n, const double *starts, const double *durations)
{
  Whole *w = user_data;

  (void) op;
  (void) thread;
  w->pending_digest ^= digest (starts, durations, n);
  w->pending_samples += n;
  return 0;
}

static int
on_commit (void *user_data, const TprofSpillCommit *commit)
{
  Whole *w = user_data;

  (void) commit;
  w->digest ^= w->pending_digest;
  w->samples += w->pending_samples;
  w->pending_digest = 0;
  w->pending_samples = 0;
  return 0;
}

/* The file read whole by read() and by count() then read_placed(): the
 * same flushes, samples, values and end; the count no fewer samples. */
static void
check_whole (void)
{
  static const TprofSpillVisitor read_visitor = { .samples = whole_samples };
  static const TprofSpillVisitor placed_visitor = { .commit = on_commit };
  static const TprofSpillPlacer placer = { .place = on_place, .placed = on_placed };
  TprofError error = { 0 };
  TprofSpillReader *a = _tprof_spill_reader_open (path, &error), *b = _tprof_spill_reader_open (path, &error);
  TprofSpillReadStatus sa, sb;
  Whole wa = { 0 }, wb = { 0 };
  const TprofSpillCounted *count;

  if (a == NULL || b == NULL)
    abort ();
  if (_tprof_spill_reader_read (a, &read_visitor, &wa, &sa, &error) < 0 || (count = _tprof_spill_reader_count (b, &error)) == NULL
      || _tprof_spill_reader_read_placed (b, &placed_visitor, &placer, &wb, &sb, &error) < 0)
    abort ();
  if (sa.tail != sb.tail || sa.offset != sb.offset || sa.tail_offset != sb.tail_offset || sa.flushes != sb.flushes
      || sa.samples != sb.samples || wa.samples != wb.samples || wa.samples != sa.samples
      || wa.digest != wb.digest || strcmp (sa.problem, sb.problem) != 0
      || _tprof_spill_reader_n_names (a) > _tprof_spill_reader_n_names (b) || count->samples < sa.samples)
    abort ();
  for (size_t k = 0; k < wb.n_blocks; k++)
    free (wb.blocks[k]);
  _tprof_spill_reader_close (a);
  _tprof_spill_reader_close (b);
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
  check_whole ();
  return 0;
}
