/* tprof-spill-internal.h — a manager's spill: its file, its thread, its flushes, and the identity its header states. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tprof/tprof-error.h"
#include "tprof/tprof-macros.h"
#include "tprof/tprof-time-manager.h"

/* Who this process is in its job, as its HEADER says. */
typedef struct
{
  int32_t     rank;
  int32_t     world_size;
  uint64_t    job_token;
  double      clock_offset;        /* seconds to add to put this clock on rank 0's */
  double      clock_offset_error;
} TprofSpillIdentity;

/* Samples one SAMPLES record of the spill thread carries at most: its
 * scratch (durations and starts converted to seconds) is 16 bytes each. */
#define TPROF_SPILL_SCRATCH_SAMPLES 65536
/* Bytes of names one NAMES record carries at most (more: several). */
#define TPROF_SPILL_NAMES_BYTES 65536

typedef struct _TprofSpill TprofSpill;
struct _TprofSpill
{
  TprofTimeManager *tm;
  char             *path;
  int               fd;
  int               wake_fd;       /* eventfd: a handler or the end wakes the thread */
  double            interval;
  pid_t             pid;           /* the process that spills: a forked child's handlers leave the file alone */
  bool              keep;          /* TPROF_KEEP_SPILL=1 */
  pthread_t         thread;
  bool              thread_started;

  int               owner;         /* 1 while a flush, clear or the end uses what follows (atomic) */
  bool              closed;        /* the END is written: nothing more */
  bool              failed;        /* a write failed: said once, nothing more */
  int               stop;          /* atomic: the thread ends */
  uint64_t          requested;     /* atomic: flushes handlers asked for */
  uint64_t          served;        /* atomic: requests the thread has flushed */

  uint64_t          flushes;       /* COMMITs written */
  uint64_t          samples;       /* samples in committed flushes */
  uint32_t          n_names;       /* names the file defines */
  int32_t          *file_ids;      /* by name id: 1 + the id in the file, 0 if not yet */
  uint8_t          *names_buf;     /* TPROF_SPILL_NAMES_BYTES */
  double           *scratch;       /* TPROF_SPILL_SCRATCH_SAMPLES durations, then as many starts */
  struct _TprofClockMapCopy *map;  /* the clock's map, copied at each flush */
  uint8_t           clock_payload[24];  /* a CLOCK of the latest fit, for a handler's raw flush */
};

/* The flushes. Both write NAMES for operations new to the file, the
 * samples every series recorded since the last flush, then COMMIT; the
 * caller owns @spill. */
/* The spill thread's: converts ticks to seconds by a copy of the clock's
 * map (encoding 0), then fdatasync(). Returns 0 or -errno. */
int _tprof_spill_flush (TprofSpill *spill);
/* A signal handler's: the chunks as they are (encoding 1 after the CLOCK
 * prepared by the last flush), no malloc, no lock, async-signal-safe. */
int _tprof_spill_flush_raw (TprofSpill *spill);
/* Copies the clock's map for the next flush, and makes the CLOCK a
 * handler's raw flush writes of its latest piece. */
void _tprof_spill_prepare_clock (TprofSpill *spill);
/* Appends a SIGNAL record of @signo; async-signal-safe. */
int _tprof_spill_write_signal (TprofSpill *spill, int signo);

/* Takes @spill for a flush, a clear or its end, waiting for another user;
 * _tprof_spill_try_own() waits at most @ms milliseconds (async-signal-safe). */
void _tprof_spill_own (TprofSpill *spill);
bool _tprof_spill_try_own (TprofSpill *spill, int ms);
void _tprof_spill_disown (TprofSpill *spill);

/* Seconds of CLOCK_MONOTONIC now; async-signal-safe. */
double _tprof_spill_now (void);

/* The signal handlers (tprof-spill-signal.c): a spill registers once its
 * file is open and unregisters before it is freed; the first registration
 * installs the handlers. False when the table is full (spilling goes on
 * without signals). */
bool _tprof_spill_signals_register (TprofSpill *spill);
void _tprof_spill_signals_unregister (TprofSpill *spill);

/* tprof_time_manager_set_spill() as rank @id of a job (NULL: rank 0 of 1,
 * a new token). Exported for libtprof-capture-mpi. */
TPROF_EXPORT int _tprof_time_manager_set_spill_as (TprofTimeManager         *tm,
                                                   const char               *directory,
                                                   double                    interval_seconds,
                                                   const TprofSpillIdentity *id,
                                                   TprofError               *error);

/* Leaves, where a clean end removed @spill_path, DIR/tprof-JOB.ended:
 * one line naming @profile_path, the profile the job wrote, so that a
 * reader coming later can say where the job's samples went. */
void _tprof_spill_note_ended (const char *spill_path,
                              const char *profile_path);

/* A new random job token (never 0). */
TPROF_EXPORT uint64_t _tprof_spill_new_token (void);

/* TPROF_SPILL_INTERVAL read: its seconds in *@interval (the default when
 * unset or empty); false, with a message naming the variable in @message,
 * when it is not a number of seconds > 0. */
TPROF_EXPORT bool _tprof_spill_env_interval (double *interval, char *message, size_t size);

/* One flush of @tm's spill now, on the calling thread, as its thread
 * (@raw false) or a crash handler (@raw true) makes it: for benchmarks
 * and tests. Returns 0, -errno, or -ENOENT when @tm does not spill. */
TPROF_EXPORT int _tprof_spill_flush_now (TprofTimeManager *tm, bool raw);
