/* tprof-spill-slice.c — one read of a spill file delivered in slices of a bounded number of samples, read back from the file, so that a caller reading many files at once holds little of each. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tprof-spill-reader-private.h"
#include "tprof-spill-slice-internal.h"

#define SAMPLES_FIELDS 16

static bool
is_standalone (uint16_t type)
{
  return type == TPROF_SPILL_STATE || type == TPROF_SPILL_SIGNAL || type == TPROF_SPILL_END;
}

static bool
reserve (TprofSpillSlice *s,
         size_t           bytes)
{
  uint8_t *grown;

  if (bytes <= s->buffer_size)
    return true;
  grown = realloc (s->buffer, bytes);
  if (grown == NULL)
    return false;
  s->buffer = grown;
  s->buffer_size = bytes;
  return true;
}

/* Room for the per-id arrays of @n ids. */
static bool
reserve_ids (TprofSpillSlice *s,
             uint32_t         n)
{
  double *bound;
  bool *ordered;

  if (n <= s->ids_capacity)
    return true;
  double *last;

  bound = realloc (s->bound, (size_t) n * sizeof *bound);
  if (bound == NULL)
    return false;
  s->bound = bound;
  last = realloc (s->last, (size_t) n * sizeof *last);
  if (last == NULL)
    return false;
  s->last = last;
  ordered = realloc (s->ordered, (size_t) n * sizeof *ordered);
  if (ordered == NULL)
    return false;
  s->ordered = ordered;
  s->ids_capacity = n;
  return true;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* survey() of @n > 0 starts in seconds at @x (aligned, as a read
 * delivers them): while they come in order, the first is the smallest. */
static void
survey_seconds (const double *x,
                uint32_t      n,
                double       *last,
                double       *least,
                bool         *ordered)
{
  double lo = x[0];
  int down = 0;

  for (uint32_t i = 1; i < n; i++)
    down |= x[i] < x[i - 1];
  if (down)
    for (uint32_t i = 1; i < n; i++)
      lo = x[i] < lo ? x[i] : lo;
  *ordered &= !down && x[0] >= *last;
  *least = lo < *least ? lo : *least;
  *last = x[n - 1];
}
#endif

/* For each name id, the smallest start of the loaded samples and whether
 * they come by start, with the clock of each record. */
static void
survey (TprofSpillSlice *s)
{
  TprofSpillReader *reader = s->reader;
  TprofSpillClock clock = reader->clock;

  for (uint32_t i = 0; i < s->n_ids; i++)
    {
      s->bound[i] = INFINITY;
      s->last[i] = -INFINITY;
      s->ordered[i] = true;
    }
  for (size_t pos = 0; pos < reader->scan.commit_end;)
    {
      TprofSpillRecord record;
      const uint8_t *p;

      _tprof_spill_frame_known (reader->data + pos, &record);
      p = record.payload;
      if (record.type == TPROF_SPILL_CLOCK)
        clock = (TprofSpillClock) { true, (int64_t) _tprof_spill_get_u64 (p), _tprof_spill_get_f64 (p + 8),
                                    _tprof_spill_get_f64 (p + 16) };
      else if (record.type == TPROF_SPILL_SAMPLES)
        {
          uint32_t op = _tprof_spill_get_u32 (p), n = _tprof_spill_get_u32 (p + 8);
          double last = s->last[op], least = s->bound[op];
          bool ordered = s->ordered[op];

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
          if (_tprof_spill_get_u32 (p + 12) == TPROF_SPILL_SECONDS && n > 0)
            survey_seconds ((const double *) (const void *) (p + SAMPLES_FIELDS), n, &last, &least, &ordered);
          else
#endif
            for (uint32_t i = 0; i < n; i++)
              {
                double start, duration;

                _tprof_spill_sample (&record, &clock, i, &start, &duration);
                ordered &= start >= last;
                least = start < least ? start : least;
                last = start;
              }
          s->last[op] = last;
          s->bound[op] = least;
          s->ordered[op] = ordered;
        }
      pos += record.size;
    }
}

int
_tprof_spill_slice_begin (TprofSpillSlice  *s,
                          TprofSpillReader *reader,
                          TprofError       *error)
{
  s->reader = reader;
  s->done = false;
  s->sample = 0;
  if (!_tprof_spill_reader_load (reader, &s->status, error))
    return -1;
  s->n_ids = reader->n_names;
  if (!reserve_ids (s, s->n_ids))
    {
      _tprof_spill_reader_unload (reader);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", reader->path);
    }
  if (reader->data != NULL)
    survey (s);
  s->pos = reader->offset;
  s->commit_end = reader->offset + reader->scan.commit_end;
  s->stop = reader->offset + reader->scan.stop;
  /* the bytes are read back slice by slice: none is held meanwhile */
  _tprof_spill_reader_unload (reader);
  s->done = s->pos >= s->stop;
  if (s->done)
    s->status.offset = reader->offset;
  return 0;
}

/* Reads @n bytes at file offset @at into @out; false when the file ends
 * before (it shrank since it was checked: s->shrank, no error) or with
 * @error set on I/O errors. */
static bool
read_at (TprofSpillSlice *s,
         uint8_t         *out,
         size_t           n,
         uint64_t         at,
         TprofError      *error)
{
  for (size_t done = 0; done < n;)
    {
      ssize_t got = pread (s->reader->fd, out + done, n - done, (off_t) (at + done));

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s at byte %" PRIu64, s->reader->path,
                                strerror (errno), at + done), false;
      if (got == 0)
        {
          s->shrank = true;
          return false;
        }
      done += (size_t) got;
    }
  return true;
}

/* -1 after reserve() or read_at() failed: memory, unless the read told
 * why. */
static int
read_failed (const TprofSpillSlice *s,
             TprofError            *error)
{
  if (s->shrank || (error != NULL && error->code != TPROF_ERROR_NONE))
    return -1;
  return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", s->reader->path);
}

/* The file shrank below what the slices still had to read: its tail is
 * damaged from the record being read on, what came before is kept. */
static void
shrank (TprofSpillSlice *s)
{
  TprofSpillReader *reader = s->reader;

  reader->damaged = true;
  reader->damaged_offset = s->pos;
  snprintf (reader->damaged_problem, sizeof reader->damaged_problem,
            "the file shrank below byte %" PRIu64 " while it was read", s->stop);
  s->status.tail = TPROF_SPILL_TAIL_DAMAGED;
  s->status.tail_offset = s->pos;
  snprintf (s->status.problem, sizeof s->status.problem, "%s", reader->damaged_problem);
  reader->offset = s->pos;
  s->status.offset = s->pos;
  s->done = true;
}

/* Samples [s->sample, + @take) of the SAMPLES record at s->pos, whose
 * fields are @fields and which holds @n, as one run of their own. */
static int
deliver_piece (TprofSpillSlice         *s,
               const uint8_t           *fields,
               uint32_t                 n,
               uint32_t                 take,
               const TprofSpillVisitor *visitor,
               void                    *user_data,
               TprofError              *error)
{
  uint64_t payload = s->pos + TPROF_SPILL_HEAD_SIZE;
  size_t run = (size_t) take * 8;
  TprofSpillRecord piece = { TPROF_SPILL_SAMPLES, (uint32_t) (SAMPLES_FIELDS + 2 * run), NULL, 0 };
  uint8_t *p;

  if (!reserve (s, SAMPLES_FIELDS + 2 * run))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", s->reader->path);
  p = s->buffer;
  memmove (p, fields, SAMPLES_FIELDS);
  _tprof_spill_put_u32 (p + 8, take);
  if (!read_at (s, p + SAMPLES_FIELDS, run, payload + SAMPLES_FIELDS + (uint64_t) s->sample * 8, error)
      || !read_at (s, p + SAMPLES_FIELDS + run, run, payload + SAMPLES_FIELDS + ((uint64_t) n + s->sample) * 8, error))
    return -1;
  piece.payload = p;
  piece.size = piece.len;
  return _tprof_spill_reader_deliver_record (s->reader, &piece, s->pos, visitor, user_data, &s->status, error);
}

/* After delivering the run of samples @record of name id @op: while its
 * samples come in order, what is left starts at or after the last one. */
static void
advance_bound (TprofSpillSlice        *s,
               const TprofSpillRecord *record,
               uint32_t                op)
{
  uint32_t n = _tprof_spill_get_u32 (record->payload + 8);
  double start, duration;

  if (n == 0 || op >= s->n_ids || !s->ordered[op])
    return;
  _tprof_spill_sample (record, &s->reader->clock, n - 1, &start, &duration);
  s->bound[op] = start;
}

static void
finish (TprofSpillSlice *s)
{
  s->reader->offset = s->commit_end;
  s->status.offset = s->reader->offset;
  s->done = true;
}

/* The next samples of the SAMPLES @record at s->pos, at most *@budget
 * (taken from it): 1 when the record is all delivered, 0 when the slice
 * ends inside it, -1 on failure. */
static int
next_samples (TprofSpillSlice         *s,
              const TprofSpillRecord  *record,
              size_t                  *budget,
              const TprofSpillVisitor *visitor,
              void                    *user_data,
              TprofError              *error)
{
  uint8_t fields[SAMPLES_FIELDS];
  TprofSpillRecord piece = { 0 };
  uint32_t n, take;

  memmove (fields, record->payload, SAMPLES_FIELDS);  /* the piece is read over them */
  n = _tprof_spill_get_u32 (fields + 8);
  take = n - s->sample > *budget ? (uint32_t) *budget : n - s->sample;
  if (deliver_piece (s, fields, n, take, visitor, user_data, error) < 0)
    return -1;
  piece.payload = s->buffer;
  advance_bound (s, &piece, _tprof_spill_get_u32 (fields));
  *budget -= take;
  s->sample += take;
  if (s->sample < n)
    return 0;
  s->sample = 0;
  return 1;
}

static int
next (TprofSpillSlice         *s,
      const TprofSpillVisitor *visitor,
      void                    *user_data,
      size_t                   max_samples,
      TprofError              *error)
{
  size_t budget = max_samples > 0 ? max_samples : 1;

  while (!s->done && budget > 0)
    {
      size_t head = TPROF_SPILL_HEAD_SIZE + SAMPLES_FIELDS, have = s->stop - s->pos < head ? (size_t) (s->stop - s->pos) : head;
      TprofSpillRecord record;
      int result = 0;

      if (!reserve (s, head) || !read_at (s, s->buffer, have, s->pos, error))
        return read_failed (s, error);
      _tprof_spill_frame_known (s->buffer, &record);
      if (s->pos >= s->commit_end && !is_standalone (record.type))
        {
          s->pos += record.size;  /* an unfinished flush: left for the next read */
          if (s->pos >= s->stop)
            finish (s);
          continue;
        }
      if (record.type == TPROF_SPILL_SAMPLES)
        {
          result = next_samples (s, &record, &budget, visitor, user_data, error);
          if (result == 0)
            continue;   /* the slice ends inside the record */
          result = result > 0 ? 0 : -1;
        }
      else
        {
          if (!reserve (s, record.size) || !read_at (s, s->buffer, record.size, s->pos, error))
            return read_failed (s, error);
          _tprof_spill_frame_known (s->buffer, &record);
          result = _tprof_spill_reader_deliver_record (s->reader, &record, s->pos, visitor, user_data, &s->status,
                                                       error);
        }
      if (result < 0)
        {
          if (error != NULL && error->code == TPROF_ERROR_NONE && !s->shrank)
            tprof_error_set (error, TPROF_ERROR_CANCELLED, "%s: reading stopped at byte %" PRIu64,
                             s->reader->path, s->pos);
          return -1;
        }
      s->pos += record.size;
      if (s->pos >= s->stop)
        finish (s);
    }
  return 0;
}

int
_tprof_spill_slice_next (TprofSpillSlice         *s,
                         const TprofSpillVisitor *visitor,
                         void                    *user_data,
                         size_t                   max_samples,
                         TprofError              *error)
{
  static const TprofSpillVisitor none = { 0 };
  int result;

  s->shrank = false;
  result = next (s, visitor != NULL ? visitor : &none, user_data, max_samples, error);
  if (result < 0 && s->shrank)
    {
      if (error != NULL)
        tprof_error_clear (error);
      shrank (s);
      result = 0;
    }

  /* held only during the call: a caller reading many files in turns
   * holds one buffer, reused while hot */
  free (s->buffer);
  s->buffer = NULL;
  s->buffer_size = 0;
  return result;
}

double
_tprof_spill_slice_bound (const TprofSpillSlice *s,
                          uint32_t               op)
{
  if (s->done || op >= s->n_ids)
    return INFINITY;
  return s->bound[op];
}

void
_tprof_spill_slice_clear (TprofSpillSlice *s)
{
  free (s->bound);
  free (s->last);
  free (s->ordered);
  free (s->buffer);
  *s = (TprofSpillSlice) { 0 };
}
