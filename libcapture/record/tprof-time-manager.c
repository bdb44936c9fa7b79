/* tprof-time-manager.c — TprofTimeManager: per-thread sample buffers, merged when read. */
/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tprof-clock-private.h"
#include "tprof-reservoir-private.h"
#include "tprof-time-manager-internal.h"
#include "tprof/tprof-clock.h"
#include "tprof/tprof-timer.h"

struct _TprofTimeManager
{
  uint64_t           serial;        /* never reused: keys per-thread caches */
  pthread_mutex_t    lock;          /* guards the fields below, never the hot path */
  TprofThreadBuffer *threads;
  int               *first_order;   /* by name id: 1 + rank in first-recorded order, 0 if absent */
  size_t             first_order_len;
  int                n_recorded;
  size_t             sample_limit;  /* 0: unbounded; read (relaxed) when a series registers */
  uint64_t           sample_seed;   /* series' random numbers derive from it */
  void              *spill;         /* a spill writing the samples to disk, or NULL */
  const TprofSpillHooks *spill_hooks;
};

static uint64_t next_manager_serial = 1;
static uint64_t next_thread_serial = 1;

/* The buffers this thread used last, so finding one takes no shared lock. */
#define BUFFER_CACHE_SIZE 8
typedef struct
{
  uint64_t           tm_serial;
  TprofThreadBuffer *buffer;
} BufferCacheEntry;

static __thread uint64_t this_thread_serial __attribute__((tls_model ("initial-exec")));
static __thread BufferCacheEntry buffer_cache[BUFFER_CACHE_SIZE]
  __attribute__((tls_model ("initial-exec")));
static __thread unsigned buffer_cache_next __attribute__((tls_model ("initial-exec")));

TprofTimeManager *
tprof_time_manager_new (void)
{
  TprofTimeManager *tm = calloc (1, sizeof *tm);

  if (tm == NULL)
    return NULL;
  tprof_clock_choose ();
  tm->serial = __atomic_fetch_add (&next_manager_serial, 1, __ATOMIC_RELAXED);
  tm->sample_seed = (uint64_t) tprof_clock_ticks () ^ (tm->serial * 0x9e3779b97f4a7c15ull);
  pthread_mutex_init (&tm->lock, NULL);
  return tm;
}

static void
series_reset (TprofSeries *series)
{
  for (int k = 0; k < series->n_chunks; k++)
    free (series->chunks[k]);
  _tprof_reservoir_free (series->reservoir);
  memset (series, 0, sizeof *series);
}

/* Calls @func on every series of every thread of @tm; tm->lock held. */
static void
foreach_series_locked (TprofTimeManager *tm, void (*func) (TprofSeries *series))
{
  for (TprofThreadBuffer *buf = tm->threads; buf != NULL; buf = buf->next)
    for (size_t b = 0; b < TPROF_SERIES_BLOCKS; b++)
      {
        TprofSeries **block = buf->blocks[b];

        if (block == NULL)
          continue;
        for (size_t i = 0; i < TPROF_SERIES_PER_BLOCK; i++)
          if (block[i] != NULL)
            func (block[i]);
      }
}

static void
series_free (TprofSeries *series)
{
  series_reset (series);
  free (series);
}

void
tprof_time_manager_free (TprofTimeManager *tm)
{
  TprofThreadBuffer *buf, *next;

  if (tm == NULL)
    return;
  if (tm->spill != NULL)
    tm->spill_hooks->finish (tm->spill);
  foreach_series_locked (tm, series_free);
  for (buf = tm->threads; buf != NULL; buf = next)
    {
      next = buf->next;
      for (size_t b = 1; b < TPROF_SERIES_BLOCKS; b++)
        free (buf->blocks[b]);
      free (buf);
    }
  free (tm->first_order);
  pthread_mutex_destroy (&tm->lock);
  free (tm);
}

void
tprof_time_manager_clear (TprofTimeManager *tm)
{
  if (tm == NULL)
    return;
  /* a spill's flush reads the chunks without the lock: it waits here */
  if (tm->spill != NULL)
    tm->spill_hooks->hold (tm->spill);
  pthread_mutex_lock (&tm->lock);
  /* Series stay allocated (their owners cache pointers to them) but lose
   * their samples and registration, so the next append re-registers. */
  foreach_series_locked (tm, series_reset);
  if (tm->first_order != NULL)
    memset (tm->first_order, 0, tm->first_order_len * sizeof *tm->first_order);
  tm->n_recorded = 0;
  pthread_mutex_unlock (&tm->lock);
  if (tm->spill != NULL)
    tm->spill_hooks->release (tm->spill);
}

TprofThreadBuffer *
_tprof_time_manager_threads (TprofTimeManager *tm)
{
  return __atomic_load_n (&tm->threads, __ATOMIC_ACQUIRE);
}

void *
_tprof_time_manager_spill (TprofTimeManager *tm)
{
  return tm->spill;
}

void *
_tprof_time_manager_attach_spill (TprofTimeManager *tm, void *spill, const TprofSpillHooks *hooks)
{
  void *before = tm->spill;

  tm->spill_hooks = hooks;
  tm->spill = spill;
  return before;
}

/* The list stays in the order of thread numbers (serials), the numbers
 * the profile's threads column and the spill files give, so that
 * get_time() and every walk agree with them: a fresh thread takes its
 * number before this lock, and another may take the lock first (or have
 * recorded into this manager first while numbered later, through another
 * manager). */
static TprofThreadBuffer *
find_or_add_thread_buffer_locked (TprofTimeManager *tm)
{
  TprofThreadBuffer *buf, **at = &tm->threads;

  for (buf = tm->threads; buf != NULL; buf = buf->next)
    if (buf->thread_serial == this_thread_serial)
      return buf;
  buf = calloc (1, sizeof *buf);
  if (buf == NULL)
    return NULL;
  buf->tm = tm;
  buf->blocks[0] = buf->first_block;
  buf->thread_serial = this_thread_serial;
  while (*at != NULL && (*at)->thread_serial < this_thread_serial)
    at = &(*at)->next;
  buf->next = *at;
  __atomic_store_n (at, buf, __ATOMIC_RELEASE);  /* a spill walks the list unlocked */
  return buf;
}

TprofThreadBuffer *
_tprof_time_manager_thread_buffer (TprofTimeManager *tm)
{
  TprofThreadBuffer *buf;

  for (unsigned i = 0; i < BUFFER_CACHE_SIZE; i++)
    if (buffer_cache[i].tm_serial == tm->serial)
      return buffer_cache[i].buffer;

  if (this_thread_serial == 0)
    this_thread_serial = __atomic_fetch_add (&next_thread_serial, 1, __ATOMIC_RELAXED);

  pthread_mutex_lock (&tm->lock);
  buf = find_or_add_thread_buffer_locked (tm);
  pthread_mutex_unlock (&tm->lock);

  if (buf != NULL)
    {
      BufferCacheEntry *entry = &buffer_cache[buffer_cache_next++ % BUFFER_CACHE_SIZE];

      entry->tm_serial = tm->serial;
      entry->buffer = buf;
    }
  return buf;
}

/* Notes that @id was recorded into @tm, keeping first-recorded order. */
static bool
register_name (TprofTimeManager *tm, int id)
{
  bool ok = true;

  pthread_mutex_lock (&tm->lock);
  if ((size_t) id >= tm->first_order_len)
    {
      size_t len = tm->first_order_len ? tm->first_order_len : 64;
      int *order;

      while (len <= (size_t) id)
        len *= 2;
      order = realloc (tm->first_order, len * sizeof *order);
      if (order == NULL)
        ok = false;
      else
        {
          memset (order + tm->first_order_len, 0, (len - tm->first_order_len) * sizeof *order);
          tm->first_order = order;
          tm->first_order_len = len;
        }
    }
  if (ok && tm->first_order[id] == 0)
    tm->first_order[id] = ++tm->n_recorded;
  pthread_mutex_unlock (&tm->lock);
  return ok;
}

static TprofSeries *
series_create (TprofThreadBuffer *buf, int id)
{
  TprofSeries **block = buf->blocks[id / TPROF_SERIES_PER_BLOCK];
  TprofSeries *series;

  if (block == NULL)
    {
      block = calloc (TPROF_SERIES_PER_BLOCK, sizeof *block);
      if (block == NULL)
        return NULL;
      __atomic_store_n (&buf->blocks[id / TPROF_SERIES_PER_BLOCK], block, __ATOMIC_RELEASE);
    }
  series = calloc (1, sizeof *series);
  if (series == NULL)
    return NULL;
  __atomic_store_n (&block[id % TPROF_SERIES_PER_BLOCK], series, __ATOMIC_RELEASE);
  return series;
}

/* Chunks of at least this many bytes sit in transparent huge pages where
 * the kernel offers them (madvise mode): a first touch of fresh memory
 * costs a page fault per 4 KiB otherwise, as much as the clock reads of a
 * few samples. */
#define HUGE_PAGE_BYTES ((size_t) 2 << 20)

static uint64_t *
chunk_alloc (size_t n)
{
  size_t bytes = 2 * n * sizeof (uint64_t);  /* durations, then starts */
  void *chunk;

  if (bytes < HUGE_PAGE_BYTES)
    return malloc (bytes);
  chunk = aligned_alloc (HUGE_PAGE_BYTES, bytes);
  if (chunk != NULL)
    madvise (chunk, bytes, MADV_HUGEPAGE);  /* advice only: a refusal changes nothing */
  return chunk;
}

/* Capacity of chunk @k of @series: a bounded series' chunks end at its limit. */
static size_t
series_chunk_capacity (const TprofSeries *series, int k)
{
  return _tprof_reservoir_chunk_capacity (series->reservoir != NULL ? series->reservoir->limit : 0, k);
}

static bool
series_add_chunk (TprofSeries *series)
{
  int k = series->n_chunks;
  size_t capacity;
  uint64_t *chunk;

  if (k == TPROF_SERIES_MAX_CHUNKS)
    return false;
  capacity = series_chunk_capacity (series, k);
  chunk = chunk_alloc (capacity);
  if (chunk == NULL)
    return false;
  __atomic_store_n (&series->chunks[k], chunk, __ATOMIC_RELEASE);
  series->n_chunks = k + 1;
  series->chunk_first += series->capacity;
  series->chunk = chunk;
  series->capacity = capacity;
  return true;
}

/* A new series of @tm takes the manager's sample limit, if any, with
 * random numbers of its own (the same for the same seed, thread and name). */
static bool
series_bound (TprofSeries *series, TprofThreadBuffer *buf, int id)
{
  TprofTimeManager *tm = buf->tm;
  size_t limit = __atomic_load_n (&tm->sample_limit, __ATOMIC_RELAXED);
  uint64_t seed;
  TprofReservoir *res;

  if (limit == 0 || series->reservoir != NULL)
    return true;
  seed = __atomic_load_n (&tm->sample_seed, __ATOMIC_RELAXED) ^ (buf->thread_serial * 0xd1b54a32d192ed03ull)
         ^ ((uint64_t) id * 0xaef17502108ef2d9ull);
  res = _tprof_reservoir_new (limit, seed);
  if (res == NULL)
    return false;
  __atomic_store_n (&series->reservoir, res, __ATOMIC_RELEASE);
  return true;
}

/* A bounded series whose slots are full samples from now on: every append
 * takes the slow path (capacity 0 at used 0). */
static void
series_start_sampling (TprofSeries *series)
{
  _tprof_reservoir_start (series->reservoir, series->chunks);
  series->chunk_first = series->len;
  series->capacity = 0;
}

void
_tprof_thread_buffer_append_slow (TprofThreadBuffer *buf, int id, int64_t start_ticks, uint64_t duration)
{
  TprofSeries *series;
  size_t used;

  if (buf == NULL || id <= 0)
    return;
  series = _tprof_thread_buffer_series (buf, id);
  if (series == NULL && (series = series_create (buf, id)) == NULL)
    return;
  if (series->reservoir != NULL && series->reservoir->sampling)
    {
      _tprof_reservoir_offer (series->reservoir, series->chunks, start_ticks, duration);
      return;
    }
  if (!series->registered)
    {
      /* the bound before the first sample: readers decide by it how to read */
      if (!series_bound (series, buf, id) || !register_name (buf->tm, id))
        return;
      series->registered = true;
    }
  if (series->reservoir != NULL && series->len == series->reservoir->limit)
    {
      series_start_sampling (series);
      _tprof_reservoir_offer (series->reservoir, series->chunks, start_ticks, duration);
      return;
    }
  /* Out of memory drops the sample rather than abort the host application. */
  if (series->len - series->chunk_first == series->capacity && !series_add_chunk (series))
    return;
  used = series->len - series->chunk_first;
  series->chunk[used] = duration;
  series->chunk[series->capacity + used] = (uint64_t) start_ticks;
  __atomic_store_n (&series->len, series->len + 1, __ATOMIC_RELEASE);
}

void
tprof_time_manager_append_time (TprofTimeManager *tm, const char *name, double secs)
{
  int id;

  /* a profile file holds only finite times >= 0: refuse here, visibly,
   * rather than save a file no reader accepts */
  if (!(isfinite (secs) && secs >= 0))
    {
      char message[256];

      snprintf (message, sizeof message, "tprof_time_manager_append_time: %g seconds for '%.64s' is not "
                "a finite time >= 0; not recorded", secs, name != NULL ? name : "(null)");
      _tprof_misuse (message);
      return;
    }
  id = _tprof_name_intern (name);
  if (id == 0)
    return;
  /* a time handed in was, as far as anyone can tell, just measured: it
   * began @secs ago */
  _tprof_thread_buffer_append (_tprof_time_manager_thread_buffer (tm), id,
                               tprof_clock_ticks () - (int64_t) (secs / _tprof_clock_secs_per_tick ()),
                               _tprof_slot_secs (secs));
}

/* A duration slot begun at @start in seconds; the clock's lock held. */
static double
duration_secs (uint64_t slot, int64_t start)
{
  double secs;
  int64_t ticks;

  if (!(slot & TPROF_SLOT_TICKS))
    {
      memcpy (&secs, &slot, sizeof secs);
      return secs;
    }
  ticks = (int64_t) (slot << 1) >> 1;  /* the 63 bits of ticks, sign extended */
  return ticks > 0 ? _tprof_clock_duration_locked (start, ticks) : 0.0;
}

/* Converts samples [from, to) of the chunk @k of @series to seconds. */
static void
chunk_convert (TprofSeries *series, int k, size_t from, size_t to)
{
  uint64_t *chunk = __atomic_load_n (&series->chunks[k], __ATOMIC_ACQUIRE);
  size_t capacity = _tprof_series_chunk_capacity (k);
  int64_t latest = INT64_MIN;

  for (size_t i = from; i < to; i++)
    {
      int64_t start_ticks = (int64_t) chunk[capacity + i];
      double secs = duration_secs (chunk[i], start_ticks);
      double start = _tprof_clock_secs_locked (start_ticks);

      uint64_t secs_bits, start_bits;

      if (start_ticks > latest)
        latest = start_ticks;
      memcpy (&secs_bits, &secs, sizeof secs);
      memcpy (&start_bits, &start, sizeof start);
      /* relaxed atomic stores: the spill thread copies these slots without
       * the lock (retrying when a conversion ran meanwhile) */
      __atomic_store_n (&chunk[i], secs_bits, __ATOMIC_RELAXED);
      __atomic_store_n (&chunk[capacity + i], start_bits, __ATOMIC_RELAXED);
    }
  _tprof_clock_freeze_locked (latest);
}

/* Converts the published samples of @series not yet in seconds, at most
 * @len; tm->lock held. The owner only ever writes past the published
 * length, so this never races it. */
static void
series_convert_locked (TprofSeries *series, size_t len)
{
  size_t first = 0;

  if (series->converted >= len)
    return;
  _tprof_clock_lock ();
  __atomic_store_n (&series->convert_seq, series->convert_seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  for (int k = 0; series->converted < len; k++)
    {
      size_t capacity = _tprof_series_chunk_capacity (k);
      size_t end = first + capacity < len ? first + capacity : len;

      if (series->converted < end)
        {
          chunk_convert (series, k, series->converted - first, end - first);
          __atomic_store_n (&series->converted, end, __ATOMIC_RELAXED);
        }
      first += capacity;
    }
  __atomic_store_n (&series->convert_seq, series->convert_seq + 1, __ATOMIC_RELEASE);
  _tprof_clock_unlock ();
}

/* Calls @func on the chunks holding the first @len samples of @series. */
static bool
series_foreach_run (TprofSeries *series, size_t len, TprofSampleRunFunc func, void *user_data)
{
  size_t done = 0;

  for (int k = 0; done < len; k++)
    {
      const double *chunk = (const double *) __atomic_load_n (&series->chunks[k], __ATOMIC_ACQUIRE);
      size_t take = _tprof_series_chunk_capacity (k);

      if (take > len - done)
        take = len - done;
      if (!func (chunk, take, user_data))
        return false;
      done += take;
    }
  return true;
}

/* Calls @func on the runs of at most @limit published samples of name @id,
 * thread after thread; tm->lock held. Threads may append meanwhile: @limit
 * keeps a second pass within what a first one counted. @retain: the
 * caller keeps the runs past the lock (see the reservoir's snapshots). */
static bool
foreach_run_locked (TprofTimeManager *tm, int id, size_t limit, bool retain, TprofSampleRunFunc func,
                    void *user_data)
{
  for (TprofThreadBuffer *buf = tm->threads; buf != NULL && limit > 0; buf = buf->next)
    {
      TprofSeries *series = _tprof_thread_buffer_series (buf, id);
      size_t len;

      if (series == NULL)
        continue;
      len = __atomic_load_n (&series->len, __ATOMIC_ACQUIRE);
      if (__atomic_load_n (&series->reservoir, __ATOMIC_ACQUIRE) != NULL)
        {
          const TprofSnapshot *snap = _tprof_reservoir_snapshot_locked (series->reservoir, series->chunks, len,
                                                                        retain);

          if (snap == NULL)
            return false;
          len = snap->n < limit ? snap->n : limit;
          if (len > 0 && !func (snap->times, len, user_data))
            return false;
          limit -= len;
          continue;
        }
      if (len > limit)
        len = limit;
      series_convert_locked (series, len);
      if (!series_foreach_run (series, len, func, user_data))
        return false;
      limit -= len;
    }
  return true;
}

/* Calls @func on the runs of the first @len samples of @series with their
 * starts; @thread recorded them. */
static bool
series_foreach_timeline_run (TprofSeries *series, size_t len, int32_t thread, TprofTimelineRunFunc func,
                             void *user_data)
{
  size_t done = 0;

  for (int k = 0; done < len; k++)
    {
      size_t take = _tprof_series_chunk_capacity (k);
      const double *chunk = (const double *) __atomic_load_n (&series->chunks[k], __ATOMIC_ACQUIRE);
      const double *starts = chunk + take;

      if (take > len - done)
        take = len - done;
      if (!func (chunk, starts, take, thread, user_data))
        return false;
      done += take;
    }
  return true;
}

static bool
name_recorded_locked (TprofTimeManager *tm, int id)
{
  return id > 0 && (size_t) id < tm->first_order_len && tm->first_order[id] != 0;
}

bool
_tprof_time_manager_visit_samples (TprofTimeManager   *tm,
                                   const char         *name,
                                   TprofSampleRunFunc  func,
                                   void               *user_data)
{
  int id = _tprof_name_intern (name);
  bool finished = true;

  tprof_clock_calibrate ();  /* the fit converts what the visit reads */
  pthread_mutex_lock (&tm->lock);
  if (name_recorded_locked (tm, id))
    finished = foreach_run_locked (tm, id, SIZE_MAX, true, func, user_data);
  pthread_mutex_unlock (&tm->lock);
  return finished;
}

static void
figures_add_run (TprofRecordedFigures *figures, const double *times, size_t n)
{
  figures->recorded += n;
  for (size_t i = 0; i < n; i++)
    {
      figures->sum += times[i];
      figures->min = fmin (figures->min, times[i]);
      figures->max = fmax (figures->max, times[i]);
    }
}

/* Visits the samples of @series (the first @len published) with @func;
 * with @figures, adds to it the series' exact figures. tm->lock held. */
static bool
series_visit_timeline_locked (TprofSeries *series, size_t len, int32_t thread, TprofTimelineRunFunc func,
                              void *user_data, TprofRecordedFigures *figures, bool *sampled)
{
  const TprofSnapshot *snap;

  if (__atomic_load_n (&series->reservoir, __ATOMIC_ACQUIRE) == NULL)
    {
      series_convert_locked (series, len);
      if (figures != NULL)
        for (size_t k = 0, done = 0; done < len; k++)
          {
            size_t take = _tprof_series_chunk_capacity ((int) k);

            take = take < len - done ? take : len - done;
            figures_add_run (figures, (const double *) series->chunks[k], take);
            done += take;
          }
      return series_foreach_timeline_run (series, len, thread, func, user_data);
    }
  snap = _tprof_reservoir_snapshot_locked (series->reservoir, series->chunks, len, true);
  if (snap == NULL)
    return false;
  if (figures != NULL)
    {
      /* after the snapshot: the figures cover at least what it holds */
      if (_tprof_reservoir_figures (series->reservoir, figures))
        *sampled = true;
      else
        figures_add_run (figures, snap->times, snap->n);
    }
  return snap->n == 0 || func (snap->times, snap->times + snap->n, snap->n, thread, user_data);
}

/* Whether some thread's series of @id is sampling; tm->lock held. */
static bool
name_sampling_locked (TprofTimeManager *tm, int id)
{
  for (TprofThreadBuffer *buf = tm->threads; buf != NULL; buf = buf->next)
    {
      TprofSeries *series = _tprof_thread_buffer_series (buf, id);
      TprofReservoir *res = series != NULL ? __atomic_load_n (&series->reservoir, __ATOMIC_ACQUIRE) : NULL;

      if (res != NULL && __atomic_load_n (&res->sampling, __ATOMIC_ACQUIRE))
        return true;
    }
  return false;
}

bool
_tprof_time_manager_visit_recorded (TprofTimeManager     *tm,
                                    const char           *name,
                                    TprofTimelineRunFunc  func,
                                    void                 *user_data,
                                    TprofRecordedFigures *figures,
                                    bool                 *sampled)
{
  int id = _tprof_name_intern (name);
  bool finished = true, any_sampled = false;

  if (figures != NULL)
    *figures = (TprofRecordedFigures) { 0, 0.0, INFINITY, -INFINITY };
  tprof_clock_calibrate ();  /* the fit converts what the visit reads */
  pthread_mutex_lock (&tm->lock);
  /* the figures of unsampled series cost a pass over their samples: only
   * for a name that some thread samples (a series that starts sampling
   * meanwhile is read as it was: its first samples, all it had) */
  if (figures != NULL && !name_sampling_locked (tm, id))
    figures = NULL;
  if (name_recorded_locked (tm, id))
    for (TprofThreadBuffer *buf = tm->threads; buf != NULL && finished; buf = buf->next)
      {
        TprofSeries *series = _tprof_thread_buffer_series (buf, id);
        size_t len;

        if (series == NULL)
          continue;
        len = __atomic_load_n (&series->len, __ATOMIC_ACQUIRE);
        finished = series_visit_timeline_locked (series, len, (int32_t) (buf->thread_serial - 1), func,
                                                 user_data, figures, &any_sampled);
      }
  pthread_mutex_unlock (&tm->lock);
  if (sampled != NULL)
    *sampled = any_sampled;
  return finished;
}

bool
_tprof_time_manager_visit_timeline (TprofTimeManager     *tm,
                                    const char           *name,
                                    TprofTimelineRunFunc  func,
                                    void                 *user_data)
{
  return _tprof_time_manager_visit_recorded (tm, name, func, user_data, NULL, NULL);
}

void
tprof_time_manager_set_sample_limit (TprofTimeManager *tm, size_t max_samples)
{
  if (tm != NULL)
    __atomic_store_n (&tm->sample_limit, max_samples, __ATOMIC_RELAXED);
}

void
_tprof_time_manager_set_sample_seed (TprofTimeManager *tm, uint64_t seed)
{
  __atomic_store_n (&tm->sample_seed, seed, __ATOMIC_RELAXED);
}

static bool
count_run (const double *samples, size_t n, void *user_data)
{
  size_t *total = user_data;

  *total += n;
  return true;
}

typedef struct
{
  double *out;
  size_t  copied;
} CopyCursor;

static bool
copy_run (const double *samples, size_t n, void *user_data)
{
  CopyCursor *cursor = user_data;

  memcpy (cursor->out + cursor->copied, samples, n * sizeof *samples);
  cursor->copied += n;
  return true;
}

size_t
_tprof_time_manager_get_time (TprofTimeManager *tm, const char *name, double **times)
{
  int id = _tprof_name_intern (name);
  CopyCursor cursor = { NULL, 0 };
  size_t total = 0;
  bool no_memory = false;

  *times = NULL;
  tprof_clock_calibrate ();  /* the fit converts what the visit reads */
  pthread_mutex_lock (&tm->lock);
  if (name_recorded_locked (tm, id))
    {
      foreach_run_locked (tm, id, SIZE_MAX, false, count_run, &total);
      if (total > 0 && total <= SIZE_MAX / sizeof *cursor.out)
        cursor.out = malloc (total * sizeof *cursor.out);
      no_memory = total > 0 && cursor.out == NULL;
      if (cursor.out != NULL)
        foreach_run_locked (tm, id, total, false, copy_run, &cursor);
    }
  pthread_mutex_unlock (&tm->lock);

  if (no_memory)
    return (size_t) -1;
  *times = cursor.out;
  return cursor.copied;
}

size_t
tprof_time_manager_get_time (TprofTimeManager *tm, const char *name, double **times)
{
  size_t n = _tprof_time_manager_get_time (tm, name, times);

  return n != (size_t) -1 ? n : 0;
}

typedef struct
{
  int id;
  int order;
} NameOrder;

static int
compare_name_order (const void *a, const void *b)
{
  const NameOrder *x = a, *y = b;

  return (x->order > y->order) - (x->order < y->order);
}

size_t
_tprof_time_manager_list_names (TprofTimeManager *tm, const char ***names)
{
  NameOrder *entries = NULL;
  const char **out = NULL;
  size_t n = 0;
  bool no_memory = false;

  *names = NULL;
  pthread_mutex_lock (&tm->lock);
  if (tm->n_recorded > 0)
    {
      entries = malloc ((size_t) tm->n_recorded * sizeof *entries);
      no_memory = entries == NULL;
    }
  for (size_t id = 0; entries != NULL && id < tm->first_order_len; id++)
    if (tm->first_order[id] != 0)
      entries[n++] = (NameOrder) { (int) id, tm->first_order[id] };
  pthread_mutex_unlock (&tm->lock);

  if (n > 0)
    {
      out = malloc (n * sizeof *out);
      no_memory = out == NULL;
    }
  if (out == NULL)
    {
      free (entries);
      return no_memory ? (size_t) -1 : 0;
    }
  qsort (entries, n, sizeof *entries, compare_name_order);
  for (size_t i = 0; i < n; i++)
    out[i] = _tprof_name_lookup (entries[i].id);
  free (entries);
  *names = out;
  return n;
}

size_t
tprof_time_manager_list_names (TprofTimeManager *tm, const char ***names)
{
  size_t n = _tprof_time_manager_list_names (tm, names);

  return n != (size_t) -1 ? n : 0;
}
