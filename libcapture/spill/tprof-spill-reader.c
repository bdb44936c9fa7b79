/* tprof-spill-reader.c — a spill file opened: its HEADER read and checked, and what the reader keeps between reads. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tprof-spill-reader-private.h"

#define HEADER_FIXED 64
/* More ranks than this is a damaged header, not a job (a merge allocates
 * per rank). */
#define MAX_WORLD_SIZE (1 << 24)

/* Reads up to @n bytes at @offset; the count read, or -1 with errno. */
static ssize_t
read_at (int      fd,
         void    *buf,
         size_t   n,
         uint64_t offset)
{
  size_t done = 0;

  while (done < n)
    {
      ssize_t got = pread (fd, (char *) buf + done, n - done, (off_t) (offset + done));

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return -1;
      if (got == 0)
        break;
      done += (size_t) got;
    }
  return (ssize_t) done;
}

static int
header_fields (TprofSpillReader       *reader,
               const TprofSpillRecord *record,
               TprofError             *error)
{
  TprofSpillHeader *h = &reader->header;
  const uint8_t *p = record->payload;
  size_t pos = HEADER_FIXED;

  if (record->len < HEADER_FIXED)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 16: HEADER record of %" PRIu32 " bytes, expected at least %d",
                            reader->path, record->len, HEADER_FIXED + 4);
  h->version = _tprof_spill_get_u32 (p);
  if (h->version != TPROF_SPILL_VERSION)
    return tprof_error_set (error, TPROF_ERROR_VERSION, "%s: byte 16: spill version %" PRIu32 ", this reader reads version %d",
                            reader->path, h->version, TPROF_SPILL_VERSION);
  h->rank = (int32_t) _tprof_spill_get_u32 (p + 4);
  h->world_size = (int32_t) _tprof_spill_get_u32 (p + 8);
  h->pid = (int32_t) _tprof_spill_get_u32 (p + 12);
  h->job = _tprof_spill_get_u64 (p + 16);
  h->clock_offset = _tprof_spill_get_f64 (p + 24);
  h->clock_offset_error = _tprof_spill_get_f64 (p + 32);
  h->interval = _tprof_spill_get_f64 (p + 40);
  h->started = _tprof_spill_get_f64 (p + 48);
  h->started_wall = _tprof_spill_get_f64 (p + 56);
  if (h->world_size < 1 || h->world_size > MAX_WORLD_SIZE || h->rank < 0 || h->rank >= h->world_size)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 20: HEADER of rank %" PRId32 " in a world of %" PRId32 " ranks",
                            reader->path, h->rank, h->world_size);
  if (!isfinite (h->clock_offset) || !isfinite (h->clock_offset_error) || h->clock_offset_error < 0
      || !isfinite (h->started) || !isfinite (h->started_wall) || !isfinite (h->interval))
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 40: HEADER with a clock offset, error bound or start that is not a finite number",
                            reader->path);
  if (!_tprof_spill_str (record, &pos, &reader->host) || !_tprof_spill_str (record, &pos, &reader->label))
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte %zu: HEADER's host name or job label is cut short or not UTF-8",
                            reader->path, TPROF_SPILL_HEAD_SIZE + pos);
  h->host = reader->host;
  h->label = reader->label;
  return 0;
}

int
_tprof_spill_reader_read_header (TprofSpillReader *reader,
                                 TprofError       *error)
{
  uint8_t start[TPROF_SPILL_HEAD_SIZE];
  uint8_t *data;
  ssize_t got = read_at (reader->fd, start, sizeof start, 0);
  TprofSpillRecord record;
  char problem[256];
  size_t n;
  int result = -1;

  if (got < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", reader->path, strerror (errno));
  if (got == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: empty: its rank has not written its HEADER yet", reader->path);
  if (got >= 4 && _tprof_spill_get_u32 (start) != TPROF_SPILL_MAGIC)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 0: not a spill file (no record starts there)", reader->path);
  if (got < (ssize_t) sizeof start)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 0: its HEADER record is incomplete (%zd bytes)", reader->path, got);
  if (_tprof_spill_get_u16 (start + 4) != TPROF_SPILL_HEADER)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 4: the first record is of type %u, expected a HEADER (1)",
                            reader->path, _tprof_spill_get_u16 (start + 4));
  n = TPROF_SPILL_HEAD_SIZE + ((_tprof_spill_get_u32 (start + 8) + (size_t) 7) & ~(size_t) 7);
  if (_tprof_spill_get_u32 (start + 8) > 1 << 20)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 8: a HEADER record of %" PRIu32 " bytes is impossible",
                            reader->path, _tprof_spill_get_u32 (start + 8));
  data = malloc (n);
  if (data == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", reader->path);
  got = read_at (reader->fd, data, n, 0);
  if (got < 0)
    tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", reader->path, strerror (errno));
  else
    switch (_tprof_spill_frame (data, (size_t) got, &record, problem, sizeof problem))
      {
      case TPROF_SPILL_FRAME_INCOMPLETE:
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 0: its HEADER record is incomplete (%zd of %zu bytes)",
                         reader->path, got, n);
        break;
      case TPROF_SPILL_FRAME_DAMAGED:
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: byte 0: %s", reader->path, problem);
        break;
      case TPROF_SPILL_FRAME_OK:
        result = header_fields (reader, &record, error);
        reader->offset = reader->delivered_until = record.size;
        break;
      }
  free (data);
  return result;
}

TprofSpillReader *
_tprof_spill_reader_open (const char *path,
                          TprofError *error)
{
  TprofSpillReader *reader = calloc (1, sizeof *reader);

  if (reader == NULL || (reader->path = strdup (path)) == NULL)
    {
      free (reader);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
      return NULL;
    }
  reader->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (reader->fd < 0)
    {
      tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (errno));
      _tprof_spill_reader_close (reader);
      return NULL;
    }
  if (_tprof_spill_reader_read_header (reader, error) < 0)
    {
      _tprof_spill_reader_close (reader);
      return NULL;
    }
  return reader;
}

void
_tprof_spill_reader_close (TprofSpillReader *reader)
{
  if (reader == NULL)
    return;
  if (reader->fd >= 0)
    close (reader->fd);
  for (uint32_t i = 0; i < reader->n_names; i++)
    free (reader->names[i]);
  free (reader->names);
  free (reader->scratch);
  free (reader->data);
  free (reader->op_samples);
  free (reader->op_threads);
  free (reader->op_committed);
  free (reader->host);
  free (reader->label);
  free (reader->path);
  free (reader);
}

const char *
_tprof_spill_reader_path (const TprofSpillReader *reader)
{
  return reader->path;
}

const TprofSpillHeader *
_tprof_spill_reader_header (const TprofSpillReader *reader)
{
  return &reader->header;
}

uint32_t
_tprof_spill_reader_n_names (const TprofSpillReader *reader)
{
  return reader->n_names;
}

const char *
_tprof_spill_reader_name (const TprofSpillReader *reader,
                          uint32_t                op)
{
  return op < reader->n_names ? reader->names[op] : NULL;
}

const TprofSpillCommit *
_tprof_spill_reader_last_commit (const TprofSpillReader *reader)
{
  return reader->has_commit ? &reader->last_commit : NULL;
}
