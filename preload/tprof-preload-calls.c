/* tprof-preload-calls.c — the timed MPI calls: each forwards to its PMPI_ twin and records its duration under its own name. */
/* SPDX-License-Identifier: MIT */
#include <mpi.h>

#include "tprof-preload-private.h"

/* The name's id is cached in the call's own TprofSite, so a call costs two
 * clock reads and one store into this thread's buffer on top of MPI. */
#define TPROF_PRELOAD_CALL(fn, params, args)                    \
  int                                                           \
  fn params                                                     \
  {                                                             \
    static TprofSite site = { #fn, 0 };                         \
    TprofTimeManager *tm = _tprof_preload_recording ();         \
    TprofTimer timer;                                           \
    int rc;                                                     \
                                                                \
    if (tm == NULL)                                             \
      return P##fn args;                                        \
    timer = _tprof_timer_start_site (tm, &site);                \
    rc = P##fn args;                                            \
    tprof_timer_stop (&timer);                                  \
    return rc;                                                  \
  }

#include "tprof-preload-calls.def"
