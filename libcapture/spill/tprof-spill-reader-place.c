/* tprof-spill-reader-place.c — a read of a spill file whose SAMPLES arrays go from the file straight into the caller's memory, checked there. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tprof-crc32c.h"
#include "tprof-spill-reader-private.h"

/* What the window holds at first: the small records of many flushes, the
 * start of a large SAMPLES record (the rest is read past it). */
#define WINDOW_SIZE ((size_t) 64 << 10)
#define SAMPLES_HEAD (TPROF_SPILL_HEAD_SIZE + 16)

typedef enum
{
  STEP_OK,
  STEP_INCOMPLETE,  /* the file ends inside the record */
  STEP_DAMAGED,     /* status->problem says why */
  STEP_FAILED,      /* error set */
} Step;

typedef struct
{
  TprofSpillReader        *reader;
  const TprofSpillVisitor *visitor;
  const TprofSpillPlacer  *placer;
  void                    *user_data;
  TprofSpillReadStatus    *status;
  TprofError              *error;
  uint8_t                 *window;     /* the file's bytes from window_at */
  size_t                   window_len;
  size_t                   window_capacity;
  uint64_t                 window_at;
  uint64_t                 size;       /* the file's */
  TprofSpillClock          clock;      /* the latest CLOCK read, committed or not */
  uint32_t                 n_names;    /* the names defined by the records read */
  uint64_t                 flush_samples;
  bool                     pending;    /* a flush's records since the last COMMIT */
} Placing;

static Step
failed_io (Placing *p)
{
  tprof_error_set (p->error, TPROF_ERROR_IO, "%s: %s", p->reader->path, strerror (errno));
  return STEP_FAILED;
}

/* The bytes at @offset into @iov's buffers (@n_iov of them, changed):
 * the count read, less at the end of the file; -1 with errno. */
static ssize_t
read_vector (int           fd,
             struct iovec *iov,
             int           n_iov,
             uint64_t      offset)
{
  size_t done = 0;

  while (n_iov > 0)
    {
      ssize_t got = preadv (fd, iov, n_iov, (off_t) (offset + done));
      size_t left = (size_t) got;

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        return got < 0 ? -1 : (ssize_t) done;
      done += (size_t) got;
      for (; n_iov > 0 && left >= iov->iov_len; n_iov--, iov++)
        left -= iov->iov_len;
      if (n_iov > 0)
        *iov = (struct iovec) { (char *) iov->iov_base + left, iov->iov_len - left };
    }
  return (ssize_t) done;
}

/* The window holding the @want bytes at @offset, or as many as the file
 * has; false with the error set. */
static bool
window_hold (Placing *p,
             uint64_t offset,
             size_t   want)
{
  size_t n;

  if (offset >= p->window_at && offset + want <= p->window_at + p->window_len)
    return true;
  if (offset < p->size && want > p->size - offset)
    want = (size_t) (p->size - offset);  /* no room for what the file does not hold */
  if (want < WINDOW_SIZE)
    want = WINDOW_SIZE;
  if (want > p->window_capacity)
    {
      uint8_t *grown = realloc (p->window, want);

      if (grown == NULL)
        return tprof_error_set (p->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory for %zu bytes",
                                p->reader->path, want), false;
      p->window = grown;
      p->window_capacity = want;
    }
  n = offset >= p->size ? 0 : (size_t) (p->size - offset < want ? p->size - offset : want);
  p->window_at = offset;
  p->window_len = 0;
  for (ssize_t got; p->window_len < n; p->window_len += (size_t) got)
    {
      got = pread (p->reader->fd, p->window + p->window_len, n - p->window_len, (off_t) (offset + p->window_len));
      if (got < 0 && errno == EINTR)
        got = 0;
      else if (got < 0)
        return failed_io (p), false;
      else if (got == 0)
        break;  /* truncated meanwhile */
    }
  return true;
}

/* The bytes of the window from @offset. */
static const uint8_t *
window_at (const Placing *p,
           uint64_t       offset,
           size_t        *avail)
{
  *avail = p->window_at + p->window_len - offset;
  return p->window + (offset - p->window_at);
}

/* The @bytes of each array of the SAMPLES record at @offset (@head in
 * the window) into @starts and @durations: what the window holds of them
 * copied, the rest read there from the file. */
static Step
read_arrays (Placing       *p,
             uint64_t       offset,
             const uint8_t *head,
             double        *starts,
             double        *durations,
             size_t         bytes)
{
  const uint8_t *from = head + SAMPLES_HEAD;
  size_t avail, copied, first;
  struct iovec iov[2];
  int n_iov = 0;
  ssize_t got;

  window_at (p, offset + SAMPLES_HEAD, &avail);
  copied = avail < 2 * bytes ? avail : 2 * bytes;
  first = copied < bytes ? copied : bytes;
  if (first > 0)
    memcpy (starts, from, first);
  if (copied > first)
    memcpy (durations, from + first, copied - first);
  if (first < bytes)
    iov[n_iov++] = (struct iovec) { (char *) starts + first, bytes - first };
  if (copied - first < bytes)
    iov[n_iov++] = (struct iovec) { (char *) durations + (copied - first), bytes - (copied - first) };
  if (n_iov == 0)
    return STEP_OK;
  if ((got = read_vector (p->reader->fd, iov, n_iov, offset + SAMPLES_HEAD + copied)) < 0)
    return failed_io (p);
  return (size_t) got < 2 * bytes - copied ? STEP_INCOMPLETE : STEP_OK;
}

/* The SAMPLES record at @offset, whose head and fields the window holds
 * and were found right: counted, or its arrays read into the place the
 * caller gives, checksummed and checked there. */
static Step
place_samples (Placing       *p,
               uint64_t       offset,
               const uint8_t *head)
{
  const uint8_t *fields = head + TPROF_SPILL_HEAD_SIZE;
  uint32_t op = _tprof_spill_get_u32 (fields), n = _tprof_spill_get_u32 (fields + 8);
  int32_t thread = (int32_t) _tprof_spill_get_u32 (fields + 4);
  size_t bytes = (size_t) n * 8;
  double *starts = NULL, *durations = NULL;
  uint32_t crc;
  Step got;

  if (p->placer == NULL)
    {
      /* a count: the samples need not be read */
      p->reader->op_samples[op] += n;
      p->reader->op_threads[op] |= thread != 0;
      p->reader->counted.samples += n;
      return STEP_OK;
    }
  if (p->placer->place (p->user_data, op, thread, n, &starts, &durations) < 0)
    return STEP_FAILED;
  if ((got = read_arrays (p, offset, head, starts, durations, bytes)) != STEP_OK)
    return got;
  crc = _tprof_crc32c (_tprof_crc32c (0, head, 12), fields, 16);
  crc = _tprof_crc32c (_tprof_crc32c (crc, starts, bytes), durations, bytes);
  if (crc != _tprof_spill_get_u32 (head + 12))
    return _tprof_spill_crc_problem (TPROF_SPILL_SAMPLES, crc, _tprof_spill_get_u32 (head + 12), p->status->problem,
                                     sizeof p->status->problem), STEP_DAMAGED;
  if (!_tprof_spill_samples_settle (starts, durations, n, _tprof_spill_get_u32 (fields + 12), &p->clock,
                                    p->status->problem, sizeof p->status->problem))
    return STEP_DAMAGED;
  p->flush_samples += n;
  p->pending = true;
  return p->placer->placed (p->user_data, op, thread, n, starts, durations) < 0 ? STEP_FAILED : STEP_OK;
}

/* Room in the per-name counts of a count for every name defined, those
 * from @first zeroed. */
static int
counts_room (Placing *p,
             uint32_t first)
{
  TprofSpillReader *reader = p->reader;

  if (p->placer != NULL)
    return 0;
  if (reader->n_names > reader->op_capacity)
    {
      uint32_t capacity = reader->n_names > 2 * reader->op_capacity ? reader->n_names : 2 * reader->op_capacity;
      uint64_t *op_samples = realloc (reader->op_samples, capacity * sizeof *op_samples);
      bool *op_threads = op_samples != NULL ? realloc (reader->op_threads, capacity * sizeof *op_threads) : NULL;
      uint64_t *op_committed = op_threads != NULL ? realloc (reader->op_committed, capacity * sizeof *op_committed)
                               : NULL;

      if (op_samples != NULL)
        reader->op_samples = op_samples;
      if (op_threads != NULL)
        reader->op_threads = op_threads;
      if (op_committed == NULL)
        return tprof_error_set (p->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", reader->path);
      reader->op_committed = op_committed;
      reader->op_capacity = capacity;
    }
  if (reader->n_names > first)
    {
      memset (reader->op_samples + first, 0, (reader->n_names - first) * sizeof *reader->op_samples);
      memset (reader->op_threads + first, 0, (reader->n_names - first) * sizeof *reader->op_threads);
      memset (reader->op_committed + first, 0, (reader->n_names - first) * sizeof *reader->op_committed);
    }
  return 0;
}

/* A record other than a large SAMPLES one, whole in the window, checked
 * and taken. */
static Step
take_record (Placing                *p,
             uint64_t                offset,
             const TprofSpillRecord *record)
{
  const uint8_t *payload = record->payload;
  const TprofSpillVisitor *v = p->visitor;
  TprofSpillReader *reader = p->reader;
  uint32_t first = p->n_names;
  double earliest = INFINITY;
  int result = 0;

  if (!_tprof_spill_record_check (record, &p->n_names, &p->clock, &earliest, p->status->problem,
                                  sizeof p->status->problem))
    return STEP_DAMAGED;
  if (record->type == TPROF_SPILL_NAMES)
    {
      p->pending = true;
      /* defined by an earlier walk (a count) over the same bytes, or now */
      if (first < reader->n_names)
        return STEP_OK;
      if (_tprof_spill_reader_add_names (reader, record, p->error) < 0
          || counts_room (p, first) < 0
          || (v->names != NULL && v->names (p->user_data, first, reader->n_names - first) < 0))
        return STEP_FAILED;
      return STEP_OK;
    }
  if (p->placer == NULL)
    {
      /* a count takes nothing else but where the committed flushes end */
      if (record->type == TPROF_SPILL_COMMIT && reader->n_names > 0)
        memcpy (reader->op_committed, reader->op_samples, reader->n_names * sizeof *reader->op_committed);
      if (record->type == TPROF_SPILL_COMMIT)
        reader->counted.committed = reader->counted.samples;
      return STEP_OK;
    }
  switch (record->type)
    {
    case TPROF_SPILL_COMMIT:
      reader->last_commit = (TprofSpillCommit) { _tprof_spill_get_u64 (payload), _tprof_spill_get_f64 (payload + 8),
                                                 _tprof_spill_get_u64 (payload + 16) };
      reader->has_commit = true;
      reader->clock = p->clock;
      reader->offset = offset + record->size;
      reader->committed_names = p->n_names;
      p->status->flushes++;
      p->status->samples += p->flush_samples;
      p->flush_samples = 0;
      p->pending = false;
      result = v->commit != NULL ? v->commit (p->user_data, &reader->last_commit) : 0;
      break;
    case TPROF_SPILL_STATE:
    case TPROF_SPILL_SIGNAL:
    case TPROF_SPILL_END:
      result = _tprof_spill_deliver_standalone (reader, record, offset, v, p->user_data);
      break;
    default:
      p->pending = true;  /* CLOCK, and types this reader does not know: part of a flush */
      break;
    }
  return result < 0 ? STEP_FAILED : STEP_OK;
}

/* The record at @offset read, checked and taken; *@size its bytes. */
static Step
step (Placing  *p,
      uint64_t  offset,
      size_t   *size)
{
  TprofSpillRecord record;
  TprofSpillFrame frame;
  const uint8_t *head;
  char again[sizeof p->status->problem];  /* said again when the record is read whole */
  size_t avail;

  if (!window_hold (p, offset, SAMPLES_HEAD))
    return STEP_FAILED;
  head = window_at (p, offset, &avail);
  if (avail >= SAMPLES_HEAD && _tprof_spill_get_u32 (head) == TPROF_SPILL_MAGIC
      && _tprof_spill_get_u16 (head + 4) == TPROF_SPILL_SAMPLES
      && _tprof_spill_samples_head_check (head + TPROF_SPILL_HEAD_SIZE, _tprof_spill_get_u32 (head + 8), p->n_names,
                                          &p->clock, again, sizeof again))
    {
      *size = _tprof_spill_record_size (_tprof_spill_get_u32 (head + 8));
      /* not whole yet: nothing placed for it (its announced size is not trusted) */
      if (*size > p->size - offset)
        return STEP_INCOMPLETE;
      return place_samples (p, offset, head);
    }
  /* any other record, and a SAMPLES one found wrong (its checksum, if
   * wrong too, is what is reported, as when it is read whole) */
  if (avail >= TPROF_SPILL_HEAD_SIZE && _tprof_spill_get_u32 (head) == TPROF_SPILL_MAGIC
      && _tprof_spill_get_u32 (head + 8) <= TPROF_SPILL_MAX_PAYLOAD)
    {
      if (!window_hold (p, offset, _tprof_spill_record_size (_tprof_spill_get_u32 (head + 8))))
        return STEP_FAILED;
      head = window_at (p, offset, &avail);
    }
  frame = _tprof_spill_frame (head, avail, &record, p->status->problem, sizeof p->status->problem);
  if (frame != TPROF_SPILL_FRAME_OK)
    return frame == TPROF_SPILL_FRAME_DAMAGED ? STEP_DAMAGED : STEP_INCOMPLETE;
  *size = record.size;
  return take_record (p, offset, &record);
}

/* The read's end in @status and the reader; 0, or -1 when it failed. */
static int
finish (Placing  *p,
        Step      last,
        uint64_t  stop)
{
  TprofSpillReader *reader = p->reader;
  TprofSpillReadStatus *status = p->status;

  status->offset = reader->offset;
  if (last == STEP_FAILED)
    {
      if (p->error != NULL && p->error->code == TPROF_ERROR_NONE)
        tprof_error_set (p->error, TPROF_ERROR_CANCELLED, "%s: reading stopped at byte %" PRIu64, reader->path, stop);
      return -1;
    }
  if (last == STEP_DAMAGED && p->placer != NULL)
    {
      reader->damaged = true;
      reader->damaged_offset = stop;
      snprintf (reader->damaged_problem, sizeof reader->damaged_problem, "%s", status->problem);
      status->tail = TPROF_SPILL_TAIL_DAMAGED;
      status->tail_offset = stop;
      return 0;
    }
  if (last == STEP_DAMAGED)
    {
      status->tail = TPROF_SPILL_TAIL_DAMAGED;
      status->tail_offset = stop;
      return 0;
    }
  p->pending |= last == STEP_INCOMPLETE;
  status->tail = p->pending ? TPROF_SPILL_TAIL_UNFINISHED : TPROF_SPILL_TAIL_NONE;
  status->tail_offset = reader->offset;
  return 0;
}

/* Reads the records from reader->offset: their samples placed by
 * @placer, or counted when it is NULL. */
static int
walk (TprofSpillReader        *reader,
      const TprofSpillVisitor *visitor,
      const TprofSpillPlacer  *placer,
      void                    *user_data,
      TprofSpillReadStatus    *status,
      TprofError              *error)
{
  static const TprofSpillVisitor none = { 0 };
  Placing p = { reader, visitor != NULL ? visitor : &none, placer, user_data, status, error,
                .clock = reader->clock, .n_names = reader->committed_names };
  struct stat st;
  uint64_t offset = reader->offset;
  Step last = STEP_OK;
  int result;

  *status = (TprofSpillReadStatus) { .offset = reader->offset };
  if (fstat (reader->fd, &st) < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", reader->path, strerror (errno));
  p.size = status->size = (uint64_t) st.st_size;
  if (!reader->damaged && p.size < reader->offset && placer != NULL)
    {
      reader->damaged = true;
      reader->damaged_offset = p.size;
      snprintf (reader->damaged_problem, sizeof reader->damaged_problem,
                "the file shrank below the %" PRIu64 " bytes already read", reader->offset);
    }
  if (reader->damaged)
    {
      _tprof_spill_fill_damaged (reader, status);
      return 0;
    }
  if (counts_room (&p, 0) < 0)
    return -1;
  while (offset < p.size && last == STEP_OK)
    {
      size_t size = 0;

      last = step (&p, offset, &size);
      if (last == STEP_OK)
        offset += size;
    }
  result = finish (&p, last, offset);
  free (p.window);
  return result;
}

int
_tprof_spill_reader_read_placed (TprofSpillReader        *reader,
                                 const TprofSpillVisitor *visitor,
                                 const TprofSpillPlacer  *placer,
                                 void                    *user_data,
                                 TprofSpillReadStatus    *status,
                                 TprofError              *error)
{
  return walk (reader, visitor, placer, user_data, status, error);
}

const TprofSpillCounted *
_tprof_spill_reader_count (TprofSpillReader *reader,
                           TprofError       *error)
{
  TprofSpillReadStatus status;

  reader->counted = (TprofSpillCounted) { 0 };
  if (walk (reader, NULL, NULL, NULL, &status, error) < 0)
    return NULL;
  reader->counted.op_samples = reader->op_samples;
  reader->counted.op_threads = reader->op_threads;
  reader->counted.op_committed = reader->op_committed;
  reader->counted.n_names = reader->n_names;
  return &reader->counted;
}
