/* tprof-spill-reader-read.c — one incremental read of a spill file: what was appended since the last one, checked whole, then its committed flushes delivered. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof-analysis-internal.h"
#include "tprof-spill-reader-private.h"

static bool
is_standalone (uint16_t type)
{
  return type == TPROF_SPILL_STATE || type == TPROF_SPILL_SIGNAL || type == TPROF_SPILL_END;
}

/* The checking pass over the @n bytes at @data, which start at byte
 * reader->offset of the file. */
static void
scan (TprofSpillReader     *reader,
      const uint8_t        *data,
      size_t                n,
      TprofSpillScan            *out,
      TprofSpillReadStatus *status)
{
  uint32_t n_names = reader->n_names;
  TprofSpillClock clock = reader->clock;
  double pending = INFINITY;  /* the earliest start of the flush not committed yet */
  size_t pos = 0;

  *out = (TprofSpillScan) { .earliest = INFINITY };
  while (pos < n)
    {
      TprofSpillRecord record;
      TprofSpillFrame frame = _tprof_spill_frame (data + pos, n - pos, &record, status->problem, sizeof status->problem);

      if (frame == TPROF_SPILL_FRAME_OK
          && !_tprof_spill_record_check (&record, &n_names, &clock, &pending, status->problem, sizeof status->problem))
        frame = TPROF_SPILL_FRAME_DAMAGED;
      if (frame != TPROF_SPILL_FRAME_OK)
        {
          out->damaged = frame == TPROF_SPILL_FRAME_DAMAGED;
          out->pending = true;
          break;
        }
      pos += record.size;
      if (record.type == TPROF_SPILL_COMMIT)
        {
          out->commit_end = pos;
          out->pending = false;
          out->earliest = pending < out->earliest ? pending : out->earliest;
          pending = INFINITY;
        }
      else if (!is_standalone (record.type))
        out->pending = true;
    }
  out->stop = pos;
  status->tail_offset = reader->offset + (out->damaged ? pos : out->commit_end);
}

int
_tprof_spill_reader_add_names (TprofSpillReader       *reader,
           const TprofSpillRecord *record,
           TprofError             *error)
{
  uint32_t n = _tprof_spill_get_u32 (record->payload + 4);
  size_t pos = 8;

  if (reader->n_names + n > reader->names_capacity)
    {
      uint32_t capacity = reader->n_names + n > 2 * reader->names_capacity ? reader->n_names + n : 2 * reader->names_capacity;
      char **names = realloc (reader->names, (size_t) capacity * sizeof *names);

      if (names == NULL)
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", reader->path);
      reader->names = names;
      reader->names_capacity = capacity;
    }
  for (uint32_t k = 0; k < n; k++)
    {
      if (!_tprof_spill_str (record, &pos, &reader->names[reader->n_names]))
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", reader->path);
      reader->n_names++;
    }
  return 0;
}

static int
deliver_samples (TprofSpillReader        *reader,
                 const TprofSpillRecord  *record,
                 const TprofSpillVisitor *visitor,
                 void                    *user_data,
                 TprofSpillReadStatus    *status,
                 TprofError              *error)
{
  const uint8_t *p = record->payload;
  uint32_t n = _tprof_spill_get_u32 (p + 8);
  const double *starts, *durations;

  status->samples += n;
  if (visitor->samples == NULL)
    return 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (_tprof_spill_get_u32 (p + 12) == 0)
    {
      starts = (const double *) (const void *) (p + 16);
      durations = starts + n;
    }
  else
#endif
    {
      if (reader->scratch_len < 2 * (size_t) n)
        {
          double *scratch = realloc (reader->scratch, 2 * (size_t) n * sizeof *scratch);

          if (scratch == NULL)
            return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", reader->path);
          reader->scratch = scratch;
          reader->scratch_len = 2 * (size_t) n;
        }
      for (uint32_t i = 0; i < n; i++)
        _tprof_spill_sample (record, &reader->clock, i, &reader->scratch[i], &reader->scratch[n + i]);
      starts = reader->scratch;
      durations = reader->scratch + n;
    }
  return visitor->samples (user_data, _tprof_spill_get_u32 (p), (int32_t) _tprof_spill_get_u32 (p + 4), n, starts, durations);
}

int
_tprof_spill_deliver_standalone (TprofSpillReader        *reader,
                    const TprofSpillRecord  *record,
                    uint64_t                 offset,
                    const TprofSpillVisitor *visitor,
                    void                    *user_data)
{
  char *path = NULL;
  size_t pos = 8;
  int result = 0;

  if (offset < reader->delivered_until)
    return 0;
  reader->delivered_until = offset + record->size;
  switch (record->type)
    {
    case TPROF_SPILL_STATE:
      return visitor->state != NULL ? visitor->state (user_data, record->payload, record->len, offset) : 0;
    case TPROF_SPILL_SIGNAL:
      return visitor->signal != NULL
             ? visitor->signal (user_data, (int32_t) _tprof_spill_get_u32 (record->payload), _tprof_spill_get_f64 (record->payload + 8))
             : 0;
    default:
      if (visitor->end == NULL)
        return 0;
      if (!_tprof_spill_str (record, &pos, &path))
        return -1;
      result = visitor->end (user_data, _tprof_spill_get_f64 (record->payload), path);
      free (path);
      return result;
    }
}

int
_tprof_spill_reader_deliver_record (TprofSpillReader        *reader,
                                    const TprofSpillRecord  *record,
                                    uint64_t                 offset,
                                    const TprofSpillVisitor *visitor,
                                    void                    *user_data,
                                    TprofSpillReadStatus    *status,
                                    TprofError              *error)
{
  const uint8_t *p = record->payload;

  switch (record->type)
    {
    case TPROF_SPILL_NAMES:
      /* defined by the load */
      return visitor->names != NULL ? visitor->names (user_data, _tprof_spill_get_u32 (p), _tprof_spill_get_u32 (p + 4)) : 0;
    case TPROF_SPILL_CLOCK:
      reader->clock = (TprofSpillClock) { true, (int64_t) _tprof_spill_get_u64 (p), _tprof_spill_get_f64 (p + 8),
                                          _tprof_spill_get_f64 (p + 16) };
      return 0;
    case TPROF_SPILL_SAMPLES:
      return deliver_samples (reader, record, visitor, user_data, status, error);
    case TPROF_SPILL_COMMIT:
      reader->last_commit = (TprofSpillCommit) { _tprof_spill_get_u64 (p), _tprof_spill_get_f64 (p + 8), _tprof_spill_get_u64 (p + 16) };
      reader->has_commit = true;
      status->flushes++;
      return visitor->commit != NULL ? visitor->commit (user_data, &reader->last_commit) : 0;
    case TPROF_SPILL_STATE:
    case TPROF_SPILL_SIGNAL:
    case TPROF_SPILL_END:
      return _tprof_spill_deliver_standalone (reader, record, offset, visitor, user_data);
    default:
      return 0;
    }
}

/* Delivers the records of @data up to @sc->stop: all of them up to the
 * last COMMIT, the standalone ones after it. */
static int
deliver_all (TprofSpillReader        *reader,
             const uint8_t           *data,
             const TprofSpillScan         *sc,
             const TprofSpillVisitor *visitor,
             void                    *user_data,
             TprofSpillReadStatus    *status,
             TprofError              *error)
{
  for (size_t pos = 0; pos < sc->stop;)
    {
      TprofSpillRecord record;

      _tprof_spill_frame_known (data + pos, &record);
      if ((pos < sc->commit_end || is_standalone (record.type))
          && _tprof_spill_reader_deliver_record (reader, &record, reader->offset + pos, visitor, user_data, status,
                                                 error) < 0)
        {
          if (error != NULL && error->code == TPROF_ERROR_NONE)
            tprof_error_set (error, TPROF_ERROR_CANCELLED, "%s: reading stopped at byte %" PRIu64,
                             reader->path, reader->offset + pos);
          return -1;
        }
      pos += record.size;
    }
  return 0;
}

void
_tprof_spill_fill_damaged (const TprofSpillReader *reader,
              TprofSpillReadStatus   *status)
{
  status->tail = TPROF_SPILL_TAIL_DAMAGED;
  status->tail_offset = reader->damaged_offset;
  snprintf (status->problem, sizeof status->problem, "%s", reader->damaged_problem);
}

/* The names of the committed flushes read defined. */
static int
define_names (TprofSpillReader *reader,
              TprofError       *error)
{
  for (size_t pos = 0; pos < reader->scan.commit_end;)
    {
      TprofSpillRecord record;

      _tprof_spill_frame_known (reader->data + pos, &record);
      if (record.type == TPROF_SPILL_NAMES && _tprof_spill_reader_add_names (reader, &record, error) < 0)
        return -1;
      pos += record.size;
    }
  return 0;
}

/* The bytes appended since the last read into reader->data (NULL when
 * none); false with @error set. */
static bool
read_appended (TprofSpillReader *reader,
               size_t           *n,
               TprofError       *error)
{
  if (*n > 0 && (reader->data = malloc (*n)) == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory for %zu bytes", reader->path, *n), false;
  _tprof_prefault_write (reader->data, *n);
  for (size_t done = 0; done < *n;)
    {
      ssize_t got = pread (reader->fd, reader->data + done, *n - done, (off_t) (reader->offset + done));

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", reader->path, strerror (errno)), false;
      if (got == 0)
        {
          *n = done;  /* truncated meanwhile: what was read is checked */
          break;
        }
      done += (size_t) got;
    }
  return true;
}

void
_tprof_spill_reader_unload (TprofSpillReader *reader)
{
  free (reader->data);
  reader->data = NULL;
  reader->scan = (TprofSpillScan) { 0 };
}

bool
_tprof_spill_reader_load (TprofSpillReader     *reader,
                          TprofSpillReadStatus *status,
                          TprofError           *error)
{
  struct stat st;
  size_t n;

  *status = (TprofSpillReadStatus) { .offset = reader->offset };
  reader->scan = (TprofSpillScan) { .earliest = INFINITY };
  if (fstat (reader->fd, &st) < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", reader->path, strerror (errno)), false;
  status->size = (uint64_t) st.st_size;
  if (!reader->damaged && (uint64_t) st.st_size < reader->offset)
    {
      reader->damaged = true;
      reader->damaged_offset = (uint64_t) st.st_size;
      snprintf (reader->damaged_problem, sizeof reader->damaged_problem,
                "the file shrank below the %" PRIu64 " bytes already read", reader->offset);
    }
  if (reader->damaged)
    {
      _tprof_spill_fill_damaged (reader, status);
      return true;
    }
  n = (size_t) ((uint64_t) st.st_size - reader->offset);
  if (!read_appended (reader, &n, error))
    {
      _tprof_spill_reader_unload (reader);
      return false;
    }
  scan (reader, reader->data, n, &reader->scan, status);
  if (define_names (reader, error) < 0)
    {
      _tprof_spill_reader_unload (reader);
      return false;
    }
  if (reader->scan.damaged)
    {
      reader->damaged = true;
      reader->damaged_offset = status->tail_offset;
      snprintf (reader->damaged_problem, sizeof reader->damaged_problem, "%s", status->problem);
      status->tail = TPROF_SPILL_TAIL_DAMAGED;
    }
  else
    status->tail = reader->scan.pending ? TPROF_SPILL_TAIL_UNFINISHED : TPROF_SPILL_TAIL_NONE;
  return true;
}

/* Delivers the committed flushes of the load to @visitor. */
static int
deliver_loaded (TprofSpillReader        *reader,
                const TprofSpillVisitor *visitor,
                void                    *user_data,
                TprofSpillReadStatus    *status,
                TprofError              *error)
{
  static const TprofSpillVisitor none = { 0 };
  int result = 0;

  if (reader->data != NULL)
    result = deliver_all (reader, reader->data, &reader->scan, visitor != NULL ? visitor : &none, user_data,
                          status, error);
  if (result == 0)
    {
      reader->offset += reader->scan.commit_end;
      reader->committed_names = reader->n_names;
    }
  status->offset = reader->offset;
  _tprof_spill_reader_unload (reader);
  return result;
}

int
_tprof_spill_reader_read (TprofSpillReader        *reader,
                          const TprofSpillVisitor *visitor,
                          void                    *user_data,
                          TprofSpillReadStatus    *status,
                          TprofError              *error)
{
  if (!_tprof_spill_reader_load (reader, status, error))
    return -1;
  return deliver_loaded (reader, visitor, user_data, status, error);
}
