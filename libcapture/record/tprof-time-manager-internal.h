/* tprof-time-manager-internal.h — the per-thread sample buffers behind the recording hot path. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof-names-private.h"
#include "tprof/tprof-macros.h"
#include "tprof/tprof-time-manager.h"

/* A series holds the samples one thread recorded for one name: durations,
 * and beside them the start of each. Its storage is a list of chunks of
 * doubling size that never move, so a reader on another thread can copy the
 * published prefix while the owner appends. A chunk of capacity n holds n
 * durations, then n starts.
 *
 * The hot path stores raw ticks; a reader converts the published samples
 * to seconds in place, under the manager's lock, before it looks at them
 * (`converted` counts those done). Until then a start is ticks
 * (tprof_clock_ticks()) and a duration is either ticks tagged with the sign
 * bit (TPROF_SLOT_TICKS) or, when it came in as seconds (append_time,
 * tprof_timer_stop), the bits of a double >= 0, whose sign bit is clear. */
#define TPROF_SERIES_FIRST_CHUNK 512
#define TPROF_SERIES_MAX_CHUNKS  40
#define TPROF_SLOT_TICKS         ((uint64_t) 1 << 63)

struct _TprofReservoir;

typedef struct
{
  uint64_t *chunk;       /* the current chunk */
  size_t    chunk_first; /* samples stored before it */
  size_t    capacity;    /* its capacity; 0 sends append to the slow path
                            (as a bounded series does once its slots are full) */
  size_t    len;         /* published samples; written with release order */
  size_t    converted;   /* samples in seconds; the manager's lock */
  uint32_t  convert_seq; /* odd while a reader converts in place (a spill
                            copying the samples without the lock retries) */
  size_t    spilled;     /* samples a spill has written; the spill's alone */
  int       n_chunks;
  bool      registered;  /* counted in the manager's first-recorded order */
  /* set (release) before the first sample when the manager has a sample
   * limit; readers then never convert in place (tprof-reservoir-private.h) */
  struct _TprofReservoir *reservoir;
  uint64_t *chunks[TPROF_SERIES_MAX_CHUNKS];
} TprofSeries;

/* Series pointers of one thread, by name id, in fixed blocks (never moved). */
#define TPROF_SERIES_PER_BLOCK 256
#define TPROF_SERIES_BLOCKS    (TPROF_MAX_NAME_ID / TPROF_SERIES_PER_BLOCK)

typedef struct _TprofThreadBuffer TprofThreadBuffer;
struct _TprofThreadBuffer
{
  TprofTimeManager  *tm;
  uint64_t           thread_serial;  /* 1 for the process's first recording thread, ... */
  TprofThreadBuffer *next;          /* in the order threads first recorded */
  TprofSeries      **blocks[TPROF_SERIES_BLOCKS];  /* blocks[0] is first_block */
  TprofSeries       *first_block[TPROF_SERIES_PER_BLOCK];  /* the hot path finds most here */
};

/* The first thread buffer of @tm; ->next links the others. Both are
 * published with release order, so a spill walks them without the lock. */
TprofThreadBuffer *_tprof_time_manager_threads (TprofTimeManager *tm);

/* A spill attached to a manager: what the manager calls on it. */
typedef struct
{
  void (*finish) (void *spill);   /* tprof_time_manager_free(): the last flush, END, close */
  void (*hold) (void *spill);     /* before clear: no flush reads the series until release */
  void (*release) (void *spill);
} TprofSpillHooks;

/* Attaches @spill to @tm (NULL detaches); returns the one attached before. */
void *_tprof_time_manager_attach_spill (TprofTimeManager *tm, void *spill, const TprofSpillHooks *hooks);
/* The spill attached to @tm, or NULL. */
void *_tprof_time_manager_spill (TprofTimeManager *tm);

/* Copies at most @max samples of @series from sample @from on, of those
 * published, into @durations and @starts as seconds, converting raw
 * ticks by @map; takes no lock. Returns the number copied: fewer than
 * were published when a reader converting in place kept the samples busy
 * longer than a few milliseconds (a later call copies them). */
struct _TprofClockMapCopy;
size_t _tprof_series_copy_secs (TprofSeries *series, size_t from, size_t max, double *durations,
                                double *starts, const struct _TprofClockMapCopy *map);

/* Where sample @i of @series lies: stores its duration and start slots
 * and returns how many samples from it on lie contiguously in its chunk.
 * Async-signal-safe. */
size_t _tprof_series_locate (TprofSeries *series, size_t i, uint64_t **duration, uint64_t **start);

/* Stores in *@converted how many of @series' samples are in seconds (the
 * rest are raw slots); false when a reader is converting in place. Async-
 * signal-safe. */
bool _tprof_series_converted (TprofSeries *series, size_t *converted);

/* Called with each stored run of samples; returns false to stop the visit. */
typedef bool (*TprofSampleRunFunc) (const double *samples, size_t n, void *user_data);
/* The same with the run's starts (seconds of CLOCK_MONOTONIC) and the
 * thread that recorded it (0 for the process's first recording thread). */
typedef bool (*TprofTimelineRunFunc) (const double *samples, const double *starts, size_t n,
                                      int32_t thread, void *user_data);

/* Calls @func on each contiguous run of @name's samples where @tm stores
 * them, in the order tprof_time_manager_get_time() copies them, with no copy.
 * Appends made meanwhile are left out. The runs stay valid and unchanged
 * until tprof_time_manager_clear() or _free() on @tm (appends never move
 * them), so a caller may keep them past the visit. Unknown @name: no call.
 * Returns false when @func stopped the visit. Exported (with a _tprof_ name,
 * outside the installed headers) for libtprof-capture-mpi's gather. */
TPROF_EXPORT bool _tprof_time_manager_visit_samples (TprofTimeManager   *tm,
                                                     const char         *name,
                                                     TprofSampleRunFunc  func,
                                                     void               *user_data);

/* _tprof_time_manager_visit_samples() with each run's starts and thread. */
TPROF_EXPORT bool _tprof_time_manager_visit_timeline (TprofTimeManager     *tm,
                                                      const char           *name,
                                                      TprofTimelineRunFunc  func,
                                                      void                 *user_data);

/* _tprof_time_manager_visit_timeline() that also stores in *@sampled
 * whether some thread's series of @name holds only a subset of what it
 * recorded (sample limit) and, when it does, in *@figures the exact
 * figures (count, sum, min, max; seconds) of everything recorded under
 * @name on every thread, read after the runs so that they cover at least
 * the runs. Not sampled: *@figures is left empty (the runs are all). */
typedef struct
{
  uint64_t recorded;
  double   sum;
  double   min;  /* +inf when recorded is 0 */
  double   max;  /* -inf when recorded is 0 */
} TprofRecordedFigures;
TPROF_EXPORT bool _tprof_time_manager_visit_recorded (TprofTimeManager     *tm,
                                                      const char           *name,
                                                      TprofTimelineRunFunc  func,
                                                      void                 *user_data,
                                                      TprofRecordedFigures *figures,
                                                      bool                 *sampled);

/* Seeds the random numbers of the series that register from now on
 * (after creation or clear): a test hook, for reproducible subsets. */
TPROF_EXPORT void _tprof_time_manager_set_sample_seed (TprofTimeManager *tm, uint64_t seed);

/* tprof_time_manager_list_names(), telling out-of-memory (returns
 * (size_t) -1 and stores NULL) from no names (returns 0). */
TPROF_EXPORT size_t _tprof_time_manager_list_names (TprofTimeManager   *tm,
                                                    const char       ***names);

/* tprof_time_manager_get_time(), telling out-of-memory (returns (size_t) -1
 * and stores NULL) from no samples (returns 0). */
size_t _tprof_time_manager_get_time (TprofTimeManager  *tm,
                                     const char        *name,
                                     double           **times);

/* This thread's buffer in @tm, created on first use; NULL when out of memory. */
TprofThreadBuffer *_tprof_time_manager_thread_buffer (TprofTimeManager *tm);

/* Reports a misuse of the recording API (tprof-misuse.c). */
void _tprof_misuse (const char *message);

/* Slow path of _tprof_thread_buffer_append(): creates, registers or grows. */
void _tprof_thread_buffer_append_slow (TprofThreadBuffer *buf, int id, int64_t start_ticks,
                                       uint64_t duration);

static inline size_t
_tprof_series_chunk_capacity (int chunk)
{
  return (size_t) TPROF_SERIES_FIRST_CHUNK << chunk;
}

static inline TprofSeries *
_tprof_thread_buffer_series (TprofThreadBuffer *buf, int id)
{
  unsigned uid = (unsigned) id;  /* ids are positive: unsigned division is a shift */
  TprofSeries **block;

  /* the first names of a process need one load less */
  if (TPROF_LIKELY (uid < TPROF_SERIES_PER_BLOCK))
    return __atomic_load_n (&buf->first_block[uid], __ATOMIC_ACQUIRE);
  block = __atomic_load_n (&buf->blocks[uid / TPROF_SERIES_PER_BLOCK], __ATOMIC_ACQUIRE);
  if (block == NULL)
    return NULL;
  return __atomic_load_n (&block[uid % TPROF_SERIES_PER_BLOCK], __ATOMIC_ACQUIRE);
}

/* A duration slot holding @ticks. */
static inline uint64_t
_tprof_slot_ticks (int64_t ticks)
{
  return (uint64_t) ticks | TPROF_SLOT_TICKS;
}

/* A duration slot holding @secs (finite, >= 0). */
static inline uint64_t
_tprof_slot_secs (double secs)
{
  uint64_t bits;

  __builtin_memcpy (&bits, &secs, sizeof bits);
  return bits;
}

/* Records @duration (a slot, above) for name @id, begun at @start_ticks;
 * only ever called by the thread owning @buf. */
static inline void
_tprof_thread_buffer_append (TprofThreadBuffer *buf, int id, int64_t start_ticks, uint64_t duration)
{
  TprofSeries *series = _tprof_thread_buffer_series (buf, id);
  uint64_t *chunk;
  size_t len, used, capacity;

  if (TPROF_UNLIKELY (series == NULL))
    goto slow;
  /* all loads before the stores, which the compiler must otherwise assume
   * may change them */
  len = series->len;
  used = len - series->chunk_first;
  capacity = series->capacity;
  chunk = series->chunk;
  if (TPROF_UNLIKELY (used == capacity))
    goto slow;
  chunk[used] = duration;
  chunk[capacity + used] = (uint64_t) start_ticks;
  __atomic_store_n (&series->len, len + 1, __ATOMIC_RELEASE);
  return;
slow:
  _tprof_thread_buffer_append_slow (buf, id, start_ticks, duration);
}
