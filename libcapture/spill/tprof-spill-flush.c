/* tprof-spill-flush.c — one flush of a spill: new names, the samples recorded since the last flush, a commit. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tprof-clock-map-internal.h"
#include "tprof-names-private.h"
#include "tprof-spill-internal.h"
#include "tprof-spill-record-internal.h"
#include "tprof-time-manager-internal.h"
#include "tprof/tprof-timer.h"

/* Samples go to the file as they lie in memory (f64 and u64 slots), and
 * the journal is little-endian. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
# error "spill files are little-endian: this writer stores samples as they lie in memory"
#endif

/* Samples one raw SAMPLES record carries at most (16 MiB of payload). */
#define RAW_RUN_MAX ((size_t) 1 << 20)

double
_tprof_spill_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void
_tprof_spill_own (TprofSpill *spill)
{
  while (!_tprof_spill_try_own (spill, 1000))
    ;
}

bool
_tprof_spill_try_own (TprofSpill *spill, int ms)
{
  for (int waited = 0;; waited++)
    {
      int free_ = 0;

      if (__atomic_compare_exchange_n (&spill->owner, &free_, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return true;
      if (waited >= ms)
        return false;
      nanosleep (&(struct timespec) { 0, 1000000 }, NULL);
    }
}

void
_tprof_spill_disown (TprofSpill *spill)
{
  __atomic_store_n (&spill->owner, 0, __ATOMIC_RELEASE);
}

/* What a flush carries from series to series. */
typedef struct
{
  TprofSpill              *spill;
  const TprofClockMapCopy *map;        /* the spill thread's: converts to seconds */
  size_t                   names_len;  /* bytes of names_buf in use (after its 8-byte head) */
  uint32_t                 names_first;
  uint32_t                 names_count;
  uint64_t                 samples;    /* written by this flush */
} FlushState;

/* Calls @func on every series of the manager holding samples not yet
 * spilled, with its name id, thread and published length; stops at the
 * first error. */
typedef int (*SeriesFunc) (FlushState *st, TprofSeries *series, int id, int32_t thread, size_t len);

static int
foreach_new_series (FlushState *st, SeriesFunc func)
{
  size_t n_blocks = (size_t) _tprof_names_max_id () / TPROF_SERIES_PER_BLOCK + 1;

  if (n_blocks > TPROF_SERIES_BLOCKS)
    n_blocks = TPROF_SERIES_BLOCKS;
  for (TprofThreadBuffer *buf = _tprof_time_manager_threads (st->spill->tm); buf != NULL;
       buf = __atomic_load_n (&buf->next, __ATOMIC_ACQUIRE))
    for (size_t b = 0; b < n_blocks; b++)
      {
        TprofSeries **block = __atomic_load_n (&buf->blocks[b], __ATOMIC_ACQUIRE);

        for (size_t i = 0; block != NULL && i < TPROF_SERIES_PER_BLOCK; i++)
          {
            TprofSeries *series = __atomic_load_n (&block[i], __ATOMIC_ACQUIRE);
            size_t len;
            int rc;

            if (series == NULL)
              continue;
            len = __atomic_load_n (&series->len, __ATOMIC_ACQUIRE);
            if (len <= series->spilled)
              continue;
            rc = func (st, series, (int) (b * TPROF_SERIES_PER_BLOCK + i), (int32_t) (buf->thread_serial - 1),
                       len);
            if (rc < 0)
              return rc;
          }
      }
  return 0;
}

/* Writes the names gathered so far as one NAMES record. */
static int
names_write (FlushState *st)
{
  TprofSpill *spill = st->spill;
  struct iovec iov = { spill->names_buf, 8 + st->names_len };
  int rc;

  if (st->names_count == 0)
    return 0;
  _tprof_spill_put_u32 (spill->names_buf, st->names_first);
  _tprof_spill_put_u32 (spill->names_buf + 4, st->names_count);
  rc = _tprof_spill_record_write (spill->fd, TPROF_SPILL_NAMES, &iov, 1);
  st->names_first += st->names_count;
  st->names_count = 0;
  st->names_len = 0;
  return rc;
}

/* Gives @id the file's next id, if it has none, and queues its name. */
static int
name_add (FlushState *st, TprofSeries *series, int id, int32_t thread, size_t len)
{
  TprofSpill *spill = st->spill;
  const char *name = _tprof_name_lookup (id);
  size_t size = _tprof_spill_str_size (name);
  int rc;

  (void) series, (void) thread, (void) len;
  if (spill->file_ids[id] != 0)
    return 0;
  if (8 + st->names_len + size > TPROF_SPILL_NAMES_BYTES && (rc = names_write (st)) < 0)
    return rc;
  if (8 + size > TPROF_SPILL_NAMES_BYTES)
    size = 0, name = "";  /* a name longer than a record: cannot happen below 64 KiB */
  _tprof_spill_put_str (spill->names_buf + 8 + st->names_len, name);
  st->names_len += _tprof_spill_str_size (name);
  st->names_count++;
  spill->file_ids[id] = (int32_t) ++spill->n_names;
  return 0;
}

/* One SAMPLES record of @n samples: @durations and @starts as stored. */
static int
samples_write (FlushState *st, int id, int32_t thread, size_t n, uint32_t encoding, const void *durations,
               const void *starts)
{
  uint8_t head[16], *p = head;
  /* the format's order: the starts, then the durations */
  struct iovec iov[3] = { { head, sizeof head }, { (void *) starts, 8 * n }, { (void *) durations, 8 * n } };
  int rc;

  p = _tprof_spill_put_u32 (p, (uint32_t) (st->spill->file_ids[id] - 1));
  p = _tprof_spill_put_i32 (p, thread);
  p = _tprof_spill_put_u32 (p, (uint32_t) n);
  _tprof_spill_put_u32 (p, encoding);
  rc = _tprof_spill_record_write (st->spill->fd, TPROF_SPILL_SAMPLES, iov, 3);
  if (rc == 0)
    st->samples += n;
  return rc;
}

/* The spill thread's: copies and converts through the scratch. */
static int
series_write_secs (FlushState *st, TprofSeries *series, int id, int32_t thread, size_t len)
{
  double *durations = st->spill->scratch, *starts = durations + TPROF_SPILL_SCRATCH_SAMPLES;

  if (st->spill->file_ids[id] == 0)
    return 0;  /* appeared after the names were written: next flush */
  while (series->spilled < len)
    {
      size_t n = _tprof_series_copy_secs (series, series->spilled, TPROF_SPILL_SCRATCH_SAMPLES, durations, starts,
                                          st->map);
      int rc;

      if (n == 0)
        break;  /* busy: a reader converting in place; next flush */
      if ((rc = samples_write (st, id, thread, n, TPROF_SPILL_SECONDS, durations, starts)) < 0)
        return rc;
      series->spilled += n;
    }
  return 0;
}

/* Writes samples [@from, @to) of @series from the chunks, as they lie. */
static int
runs_write_in_place (FlushState *st, TprofSeries *series, int id, int32_t thread, size_t from, size_t to,
                     uint32_t encoding)
{
  while (from < to)
    {
      uint64_t *durations, *starts;
      size_t n = _tprof_series_locate (series, from, &durations, &starts);
      int rc;

      n = n < to - from ? n : to - from;
      n = n < RAW_RUN_MAX ? n : RAW_RUN_MAX;
      if ((rc = samples_write (st, id, thread, n, encoding, durations, starts)) < 0)
        return rc;
      from += n;
    }
  return 0;
}

/* A handler's: writes the chunks themselves, what a reader converted in
 * place as seconds and the rest raw. A conversion under way (the handler
 * interrupted it): only what it had finished. */
static int
series_write_raw (FlushState *st, TprofSeries *series, int id, int32_t thread, size_t len)
{
  size_t converted = 0, from = series->spilled;
  bool settled = _tprof_series_converted (series, &converted);
  int rc;

  if (st->spill->file_ids[id] == 0)
    return 0;
  if (__atomic_load_n (&series->reservoir, __ATOMIC_ACQUIRE) != NULL)
    converted = 0;  /* bounded series are never converted in place */
  if (converted > len)
    converted = len;
  if (from < converted && (rc = runs_write_in_place (st, series, id, thread, from, converted, TPROF_SPILL_SECONDS)) < 0)
    return rc;
  if (settled && (rc = runs_write_in_place (st, series, id, thread, from > converted ? from : converted, len,
                                            TPROF_SPILL_RAW)) < 0)
    return rc;
  series->spilled = settled ? len : converted > from ? converted : from;
  return 0;
}

static int
commit_write (FlushState *st, double when)
{
  TprofSpill *spill = st->spill;
  uint8_t payload[24], *p = payload;
  struct iovec iov = { payload, sizeof payload };
  int rc;

  p = _tprof_spill_put_u64 (p, spill->flushes + 1);
  p = _tprof_spill_put_f64 (p, when);
  _tprof_spill_put_u64 (p, spill->samples + st->samples);
  rc = _tprof_spill_record_write (spill->fd, TPROF_SPILL_COMMIT, &iov, 1);
  if (rc == 0)
    {
      spill->flushes++;
      spill->samples += st->samples;
    }
  return rc;
}

/* The latest piece of @map as a CLOCK payload. */
static void
clock_payload_set (uint8_t payload[24], const TprofClockMapCopy *map)
{
  const TprofClockPiece *last = &map->pieces[map->n - 1];
  uint8_t *p = payload;

  p = _tprof_spill_put_i64 (p, last->ref_ticks);
  p = _tprof_spill_put_f64 (p, last->ref_secs);
  _tprof_spill_put_f64 (p, last->secs_per_tick);
}

static int
flush_with (TprofSpill *spill, const TprofClockMapCopy *map, SeriesFunc write_series)
{
  FlushState st = { spill, map, 0, spill->n_names, 0, 0 };
  double when = _tprof_spill_now ();  /* before the lengths are read */
  int rc;

  if (spill->closed || spill->failed)
    return 0;
  if ((rc = foreach_new_series (&st, name_add)) < 0 || (rc = names_write (&st)) < 0)
    return rc;
  if (map == NULL)
    {
      struct iovec iov = { spill->clock_payload, sizeof spill->clock_payload };

      if ((rc = _tprof_spill_record_write (spill->fd, TPROF_SPILL_CLOCK, &iov, 1)) < 0)
        return rc;
    }
  if ((rc = foreach_new_series (&st, write_series)) < 0 || (rc = commit_write (&st, when)) < 0)
    return rc;
  return fdatasync (spill->fd) == 0 || errno == EINVAL ? 0 : -errno;
}

void
_tprof_spill_prepare_clock (TprofSpill *spill)
{
  _tprof_clock_map_copy (spill->map);
  clock_payload_set (spill->clock_payload, spill->map);
}

int
_tprof_spill_flush (TprofSpill *spill)
{
  _tprof_spill_prepare_clock (spill);
  return flush_with (spill, spill->map, series_write_secs);
}

int
_tprof_spill_flush_raw (TprofSpill *spill)
{
  return flush_with (spill, NULL, series_write_raw);
}

int
_tprof_spill_write_signal (TprofSpill *spill, int signo)
{
  uint8_t payload[16], *p = payload;
  struct iovec iov = { payload, sizeof payload };

  p = _tprof_spill_put_i32 (p, signo);
  p = _tprof_spill_put_i32 (p, 0);
  _tprof_spill_put_f64 (p, _tprof_spill_now ());
  return _tprof_spill_record_write (spill->fd, TPROF_SPILL_SIGNAL, &iov, 1);
}
