/* tprof-hang-watch-internal.h — each rank's in-flight MPI call, its last calls and its communicators' names, for the hang watchdog; no MPI here. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-macros.h"
#include "tprof/tprof-time-manager.h"
#include "tprof/tprof-timer.h"

TPROF_BEGIN_DECLS

/* What a call does with its communicator. A collective (and a creator,
 * which is one over its parent) takes the next sequence number of that
 * communicator: every member calls the collectives of a communicator in
 * the same order, so the numbers agree between ranks. */
typedef enum
{
  TPROF_HANG_NO_COMM = 0,    /* completion, one-sided, file: no communicator */
  TPROF_HANG_POINT,          /* point-to-point on a communicator */
  TPROF_HANG_COLLECTIVE,     /* a collective over a communicator */
} TprofHangKind;

/* Communicator handles are MPI_Comm values cast to uintptr_t (a pointer in
 * Open MPI, an int in MPICH). */
typedef uintptr_t TprofHangComm;

/* The calls past this many threads are not tracked. */
#define TPROF_HANG_THREADS 64
/* The last calls each rank keeps. */
#define TPROF_HANG_RING 64
/* Communicators a rank can name; later ones are tracked as "unnamed". */
#define TPROF_HANG_COMMS 4096
#define TPROF_HANG_LABEL 64

/* Non-zero once tracking is on (tprof_hang_track_start). */
TPROF_EXPORT int _tprof_hang_tracking;

/* Starts tracking: this rank is @rank of @world_size; @world and @self are
 * MPI_COMM_WORLD and MPI_COMM_SELF, named "WORLD" and "SELF". Call once,
 * before any other call below. */
TPROF_EXPORT void _tprof_hang_track_start (int rank, int world_size, TprofHangComm world, TprofHangComm self);

/* Marks the start of @function (a string that lives forever) on @comm,
 * begun at @start_ticks (tprof_clock_ticks(): the caller's timer already
 * read the clock); returns a token for _tprof_hang_call_end, 0 when
 * nothing was noted (tracking off, too many threads). */
TPROF_EXPORT uint64_t _tprof_hang_call_begin_slow (const char *function, TprofHangKind kind, TprofHangComm comm,
                                                   int64_t start_ticks);
/* Ends the call of @token, which took @duration seconds. */
TPROF_EXPORT void _tprof_hang_call_end_slow (uint64_t token, double duration);

static inline uint64_t
_tprof_hang_call_begin (const char *function, TprofHangKind kind, TprofHangComm comm, int64_t start_ticks)
{
  if (TPROF_LIKELY (__atomic_load_n (&_tprof_hang_tracking, __ATOMIC_RELAXED) == 0))
    return 0;
  return _tprof_hang_call_begin_slow (function, kind, comm, start_ticks);
}

static inline void
_tprof_hang_call_end (uint64_t token, double duration)
{
  if (token != 0)
    _tprof_hang_call_end_slow (token, duration);
}

/* The same for a call without a timer of its own (tprof's collectives):
 * they read the clock themselves. */
TPROF_EXPORT uint64_t _tprof_hang_call_begin_now (const char *function, TprofHangKind kind, TprofHangComm comm);
TPROF_EXPORT void _tprof_hang_call_end_now (uint64_t token);

/* A communicator creation over @parent finished on this rank: @child is
 * the new communicator (@child_valid 0 when this rank got MPI_COMM_NULL),
 * @members its members' world ranks, in its rank order. Every member of
 * the parent calls it, so the n-th creation on a parent is numbered n on
 * every member: the child is named "PARENT.n", with "#LOWEST" (its
 * lowest world rank) added when it has fewer members than its parent. */
TPROF_EXPORT void _tprof_hang_comm_created (TprofHangComm parent, TprofHangComm child, int child_valid,
                                            const int32_t *members, size_t n_members);
/* MPI_Comm_create_group over @parent made @child (this rank's members
 * @members, in its rank order) with @tag: a collective of the group
 * only, so the parent's count of creations is left alone and the child
 * is named "PARENT.gTAG:k#LOWEST", the k-th such with these members. */
TPROF_EXPORT void _tprof_hang_comm_created_group (TprofHangComm parent, TprofHangComm child, int tag,
                                                  const int32_t *members, size_t n_members);
/* An intercommunicator @child was made (over @parent, 0 when none: a
 * creation counted there): its groups @local and @remote as world ranks.
 * The sides' parents differ, so it is named by its groups: "INTER:k#A+B",
 * A and B the groups' lowest world ranks (A < B), k its number among the
 * intercommunicators between these groups; its members are both groups,
 * the one of A first. */
TPROF_EXPORT void _tprof_hang_intercomm_created (TprofHangComm parent, TprofHangComm child, const int32_t *local,
                                                 size_t n_local, const int32_t *remote, size_t n_remote);
/* @comm was freed: its handle may come back for another communicator. */
TPROF_EXPORT void _tprof_hang_comm_freed (TprofHangComm comm);
/* Names @comm "name" when it was never seen (a communicator made by a call
 * that is not wrapped); for tprof's own collectives outside the preload. */
TPROF_EXPORT void _tprof_hang_comm_name (TprofHangComm comm, const char *name, const int32_t *members,
                                         size_t n_members);
/* The label of @comm, or NULL when it has none; for tests. */
TPROF_EXPORT const char *_tprof_hang_comm_label (TprofHangComm comm);

/* A region of the application (a timer or a TPROF_SCOPE of name @name_id,
 * begun at @start_ticks) opened or closed on this thread: the innermost
 * open one is published as the call in flight is. */
TPROF_EXPORT void _tprof_hang_region_open_slow (int name_id, int64_t start_ticks);
TPROF_EXPORT void _tprof_hang_region_close_slow (int name_id, int64_t start_ticks);

/* The timer of an MPI call (the preload's): _tprof_timer_start_site()
 * without noting a region, as the call is followed as a call. */
TPROF_EXPORT TprofTimer _tprof_timer_start_call (TprofTimeManager *tm, TprofSite *site);

static inline void
_tprof_hang_region_open (int name_id, int64_t start_ticks)
{
  if (TPROF_UNLIKELY (__atomic_load_n (&_tprof_record_state.regions_tracked, __ATOMIC_RELAXED) != 0))
    _tprof_hang_region_open_slow (name_id, start_ticks);
}

static inline void
_tprof_hang_region_close (int name_id, int64_t start_ticks)
{
  if (TPROF_UNLIKELY (__atomic_load_n (&_tprof_record_state.regions_tracked, __ATOMIC_RELAXED) != 0))
    _tprof_hang_region_close_slow (name_id, start_ticks);
}

/* One call as the watchdog sees it. */
typedef struct
{
  const char *function;
  int32_t     comm;       /* index into the communicator table, -1: none */
  int32_t     thread;
  uint64_t    sequence;   /* 1, 2... for a collective, 0 otherwise */
  int64_t     begin;      /* clock ticks */
  double      duration;   /* seconds; negative while in flight */
} TprofHangLiveCall;

/* Copies the calls in flight (at most @max, longest first... in thread
 * order) and returns their number. */
TPROF_EXPORT size_t _tprof_hang_in_flight (TprofHangLiveCall *calls, size_t max);
/* Copies the last calls that ended, oldest first; returns their number. */
TPROF_EXPORT size_t _tprof_hang_recent (TprofHangLiveCall *calls, size_t max);
/* The innermost open region of the thread that opened its own last (as
 * a call: function its name, begin its start, comm -1); 0 when no thread
 * has one open. */
TPROF_EXPORT int _tprof_hang_open_region (TprofHangLiveCall *region);
/* How many calls began or ended so far: changes whenever the state does
 * (regions do not count: a rank that computes through many is quiet). */
TPROF_EXPORT uint64_t _tprof_hang_progress (void);
/* Label and members of the communicator at table index @index. */
TPROF_EXPORT const char *_tprof_hang_comm_at (int32_t index, const int32_t **members, size_t *n_members);

/* The STATE payload of the calls above (docs/spill-format.md, "Hang
 * state"): @stalled says whether a call has been in flight longer than
 * @timeout. Returns a malloc'd buffer of *@len bytes, NULL when out of
 * memory. */
TPROF_EXPORT uint8_t *_tprof_hang_state_encode (int stalled, double now, double timeout, size_t *len);

/* The watchdog: started by spilling when TPROF_HANG_TIMEOUT is set. */

/* Reads TPROF_HANG_TIMEOUT: 0 with *@timeout = 0 when unset or empty, 0
 * with the seconds when valid, -1 (and one line on stderr naming the
 * variable) when not a positive number of seconds. */
TPROF_EXPORT int _tprof_hang_timeout_from_env (double *timeout);
/* Starts the watchdog thread: every call in flight longer than @timeout
 * seconds makes it append one STATE record to @fd (a spill file opened
 * with O_APPEND, or -1 for none) and print one line on stderr; it never
 * calls MPI. @rank names the rank in that line. Returns 0, or -1 when the
 * thread could not start. */
TPROF_EXPORT int _tprof_hang_watch_start (double timeout, int fd, int rank);
/* A descriptor of @tm's spill file for the watchdog: the same file opened
 * again for appending (records are whole writev()s on O_APPEND
 * descriptors, so they do not interleave with the spill thread's); -1
 * when @tm does not spill. */
TPROF_EXPORT int _tprof_hang_spill_fd (TprofTimeManager *tm);
/* Stops the watchdog thread, if running, and waits for it. */
TPROF_EXPORT void _tprof_hang_watch_stop (void);

TPROF_END_DECLS
