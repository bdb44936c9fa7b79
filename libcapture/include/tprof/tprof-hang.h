/* tprof-hang.h — which collective a stopped job waits in, who never entered it and what they do instead, from each rank's last hang state. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-error.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* One MPI call of a rank's state; times on that rank's clock. */
typedef struct
{
  char    *function;
  char    *communicator;   /* "" for a call on no communicator */
  uint64_t sequence;       /* the collective's number on its communicator; 0: not a collective */
  double   begin;
  double   end;            /* NaN while in flight */
  int32_t  thread;
  int32_t *members;        /* the communicator's world ranks, when listed */
  size_t   n_members;
} TprofHangCall;

/* A rank's STATE record, decoded. */
typedef struct
{
  int            stalled;       /* a call was in flight longer than the timeout */
  double         when;          /* when it was written, this rank's clock */
  double         timeout;
  TprofHangCall *in_flight;
  size_t         n_in_flight;
  TprofHangCall *recent;        /* oldest first */
  size_t         n_recent;
  char          *region;        /* innermost open region; "" when not known */
  double         region_since;
} TprofHangState;

/* Decodes a STATE payload into @state (cleared first); -1 with @error
 * naming what is wrong. */
TPROF_EXPORT int tprof_hang_state_decode (const void *payload, size_t len, TprofHangState *state,
                                          TprofError *error);
TPROF_EXPORT void tprof_hang_state_clear (TprofHangState *state);

/* What the analysis knows of one rank. */
typedef struct
{
  int                   rank;
  const char           *hostname;      /* NULL: no spill file */
  double                clock_offset;  /* seconds to add to put its clock on rank 0's */
  double                start;         /* when it began spilling, its clock */
  const TprofHangState *state;         /* NULL: no state written */
} TprofHangRankInput;

typedef enum
{
  TPROF_HANG_WAITING = 0,   /* in the collective the others wait in */
  TPROF_HANG_MISSING,       /* a member that never entered it */
  TPROF_HANG_OTHER,         /* not a member, or entered and left it */
} TprofHangRole;

typedef enum
{
  TPROF_HANG_DOING_CALL = 0,    /* in an MPI call (function, communicator, sequence) */
  TPROF_HANG_DOING_AFTER,       /* no call in flight; the last one is named */
  TPROF_HANG_DOING_REGION,      /* in an open region (function holds its name) */
  TPROF_HANG_DOING_UNKNOWN,     /* no state from this rank */
  TPROF_HANG_DOING_NO_FILE,     /* no spill file from this rank */
} TprofHangDoingKind;

typedef struct
{
  int                rank;
  const char        *hostname;      /* "" when unknown */
  TprofHangRole      role;
  TprofHangDoingKind doing;
  const char        *function;      /* "" when none */
  const char        *communicator;  /* "" when none */
  uint64_t           sequence;
  double             since;         /* seconds on the timeline; NaN when unknown */
} TprofHangRank;

typedef struct
{
  int            hang;
  const char    *function;
  const char    *communicator;
  uint64_t       sequence;
  int           *waiting;        /* ascending */
  size_t         n_waiting;
  int           *missing;        /* ascending */
  size_t         n_missing;
  TprofHangRank *ranks;          /* grouped by host (hosts in order of their lowest rank), ranks ascending */
  size_t         n_ranks;
} TprofHangReport;

/* Decides from @n ranks' inputs (world ranks 0..@n-1, in order): the
 * collective (communicator, sequence) the most ranks are stalled in, its
 * waiting ranks, the members that never entered it, and what every rank
 * does. The timeline's origin is the earliest spilling start. The
 * report's strings point into @ranks: free the report first. NULL when
 * out of memory. */
TPROF_EXPORT TprofHangReport *tprof_hang_decide (const TprofHangRankInput *ranks, size_t n);
TPROF_EXPORT void tprof_hang_report_free (TprofHangReport *report);

/* The spill files of a job, as the decision needs them. */
typedef struct _TprofHangJob TprofHangJob;

/* Reads the spill files of the one job in @dir: each rank's HEADER and
 * its latest STATE (none once the rank wrote END). NULL with @error when
 * @dir cannot be read, holds no spill file, no usable one, or the files
 * of several jobs. A file refused, a damaged tail or a state that cannot
 * be decoded is a problem named by tprof_hang_job_problem(), not a
 * failure. */
TPROF_EXPORT TprofHangJob *tprof_hang_job_read (const char *dir, TprofError *error);
/* The job's ranks, 0 .. world size - 1, for tprof_hang_decide(). */
TPROF_EXPORT const TprofHangRankInput *tprof_hang_job_ranks (const TprofHangJob *job, size_t *n_ranks);
TPROF_EXPORT size_t tprof_hang_job_n_problems (const TprofHangJob *job);
/* "PATH: what is wrong". */
TPROF_EXPORT const char *tprof_hang_job_problem (const TprofHangJob *job, size_t i);
TPROF_EXPORT void tprof_hang_job_free (TprofHangJob *job);

TPROF_END_DECLS
