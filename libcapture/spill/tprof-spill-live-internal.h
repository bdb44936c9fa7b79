/* tprof-spill-live-internal.h — following a running job's spill files: what each refresh appended, fed to TprofLive, and the state of every rank. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <tprof/tprof-live.h>

#include "tprof-spill-reader-internal.h"
#include "tprof-spill-slice-internal.h"

TPROF_BEGIN_DECLS

/* A rank stopped reporting when it wrote no flush for this many of its
 * spill intervals (and no END). */
#define TPROF_SPILL_LIVE_STOPPED_INTERVALS 3

/* A refresh reads this many samples of the ranks together at a time (at
 * least TPROF_SPILL_LIVE_SLICE_MIN of each rank), then completes the
 * occurrences they make: about 1 MiB of samples waits at once. */
#define TPROF_SPILL_LIVE_SLICE     65536
#define TPROF_SPILL_LIVE_SLICE_MIN 1024

typedef struct
{
  bool     has_file;        /* its file is open (it may appear later) */
  bool     not_reporting;   /* no file yet, long after the job started: left out of the arrival */
  bool     ended;           /* it wrote END */
  char    *profile_path;    /* END's path, "" when the job could not write it */
  bool     damaged;         /* its tail is damaged: nothing after is read */
  uint64_t damaged_offset;
  char     problem[256];    /* what is wrong there */
  double   last_flush;      /* wall time (s since the epoch) of its last flush seen, or of its file's start */
  uint64_t flushes;
  uint64_t samples;
} TprofSpillLiveRank;

/* Handed each batch of samples as a refresh reads it: operation @op (an
 * index of sl->live), @rank, @n starts on rank 0's timeline and durations,
 * valid during the call. Non-zero stops the refresh (set @error). */
typedef int (*TprofSpillLiveSamplesFunc) (void         *user_data,
                                          size_t        op,
                                          int           rank,
                                          size_t        n,
                                          const double *starts,
                                          const double *durations,
                                          TprofError   *error);

typedef struct
{
  char               *dir;
  TprofSpillJob      *job;
  TprofLive          *live;
  TprofSpillLiveRank *ranks;  /* job->world_size entries */
  double              interval; /* the longest spill interval of the headers, seconds */
  double              started;  /* wall time the job started: its files' earliest start, at latest
                                   when this follower opened them */
  size_t              slice;     /* samples a refresh reads of the ranks together at a time, */
  size_t              slice_min; /* at least this many of each (TPROF_SPILL_LIVE_SLICE*; tests set others) */
  /* private */
  size_t            **op_map;  /* per rank, the file's operation ids to TprofLive's */
  size_t             *n_map;
  double             *scratch;
  size_t              n_scratch;
  TprofSpillSlice    *slices;   /* per rank, the refresh's read */
  int                *active;   /* the ranks a refresh reads */
  TprofSpillLiveSamplesFunc sink;
  void               *sink_data;
} TprofSpillLive;

/* Opens the job @token (NULL: the only one) of @dir as _tprof_spill_job_open()
 * does, and reads what its files hold. NULL with @error set when it cannot
 * be opened, when none of its files is usable, or on memory or I/O errors. */
TPROF_EXPORT TprofSpillLive *_tprof_spill_live_open (const char *dir,
                                                     const char *token,
                                                     TprofError *error);
/* Like _tprof_spill_live_open(), handing every sample read (the first
 * read's too) to @sink (may be NULL) with @sink_data. */
TPROF_EXPORT TprofSpillLive *_tprof_spill_live_open_full (const char               *dir,
                                                          const char               *token,
                                                          TprofSpillLiveSamplesFunc sink,
                                                          void                     *sink_data,
                                                          TprofError               *error);
TPROF_EXPORT void _tprof_spill_live_free (TprofSpillLive *sl);

/* Reads what every file appended since the last refresh (opening files
 * that appeared since), feeds it to sl->live and updates it. -1 with
 * @error set on I/O or memory errors. */
TPROF_EXPORT int _tprof_spill_live_refresh (TprofSpillLive *sl,
                                            TprofError     *error);

/* Whether rank @r stopped reporting at wall time @now: it has a file, no
 * END, no damaged tail, and no flush for TPROF_SPILL_LIVE_STOPPED_INTERVALS
 * intervals. */
TPROF_EXPORT bool _tprof_spill_live_stopped (const TprofSpillLive *sl,
                                             int                   r,
                                             double                now);
/* A rank whose file has not appeared is not reporting once another rank
 * has a file and TPROF_SPILL_LIVE_STOPPED_INTERVALS spill intervals (the
 * longest of the headers) passed since the job started: from then on, until
 * its file appears, it holds no occurrence back (tprof_live_rank_absent());
 * once it appears, its samples of the occurrences completed meanwhile are
 * left out of their arrival. Set at each refresh. */
TPROF_EXPORT bool _tprof_spill_live_not_reporting (const TprofSpillLive *sl,
                                                   int                   r);
/* The job ended: every rank that has a file wrote END in it, and one at
 * least has a file. A rank whose file never appeared does not hold the
 * end back (it never reported: has_file is false). */
TPROF_EXPORT bool _tprof_spill_live_ended (const TprofSpillLive *sl);

TPROF_END_DECLS
