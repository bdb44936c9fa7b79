/* tprof-preload-calls.c — the timed MPI calls: each forwards to its PMPI_ twin and records its duration under its own name. */
/* SPDX-License-Identifier: MIT */
#include <mpi.h>

#include "tprof-preload-private.h"

/* The name's id is cached in the call's own TprofSite, so a call costs two
 * clock reads and one store into this thread's buffer on top of MPI; the
 * hang tracking adds one load while it is off, and reuses the timer's
 * clock reads when on. */
#define TPROF_PRELOAD_BODY(fn, kind, comm, args, after)                            \
  {                                                                                \
    static TprofSite site = { #fn, 0 };                                            \
    TprofTimeManager *tm = _tprof_preload_recording ();                            \
    TprofTimer timer;                                                              \
    uint64_t hang;                                                                 \
    int rc;                                                                        \
                                                                                   \
    if (tm == NULL)                                                                \
      return P##fn args;                                                           \
    timer = _tprof_timer_start_call (tm, &site);                                   \
    hang = _tprof_hang_call_begin (#fn, TPROF_HANG_##kind, (TprofHangComm) (comm),  \
                                   timer.start_ticks);                             \
    rc = P##fn args;                                                               \
    _tprof_hang_call_end (hang, tprof_timer_stop (&timer));                        \
    if (hang != 0 && rc == MPI_SUCCESS)                                            \
      after;                                                                       \
    return rc;                                                                     \
  }

#define TPROF_PRELOAD_CALL(fn, kind, comm, params, args) \
  int fn params TPROF_PRELOAD_BODY (fn, kind, comm, args, (void) 0)

/* A creation is a collective over its parent; the new communicator is then
 * named after it. */
#define TPROF_PRELOAD_CREATE(fn, parent, newcomm, params, args) \
  int fn params TPROF_PRELOAD_BODY (fn, COLLECTIVE, parent, args, _tprof_preload_comm_created (parent, *(newcomm)))

/* MPI_Comm_idup: named at the call, after its parent's groups (the child
 * is not usable before its request completes). */
#define TPROF_PRELOAD_CREATE_PENDING(fn, parent, newcomm, params, args) \
  int fn params TPROF_PRELOAD_BODY (fn, COLLECTIVE, parent, args, _tprof_preload_comm_duplicated (parent, *(newcomm)))

/* MPI_Comm_create_group: a collective of the group, not of the parent,
 * so it takes no sequence number there. */
#define TPROF_PRELOAD_CREATE_GROUP(fn, parent, tag, newcomm, params, args) \
  int fn params TPROF_PRELOAD_BODY (fn, POINT, parent, args, _tprof_preload_comm_created_group (parent, tag, *(newcomm)))

#define TPROF_PRELOAD_FREE(fn, comm, params, args)                                           \
  int fn params                                                                              \
  {                                                                                          \
    MPI_Comm freed = *(comm);                                                                \
                                                                                             \
    TPROF_PRELOAD_BODY (fn, COLLECTIVE, freed, args, _tprof_hang_comm_freed ((TprofHangComm) freed)) \
  }

#include "tprof-preload-calls.def"
