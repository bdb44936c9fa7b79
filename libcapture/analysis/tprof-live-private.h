/* tprof-live-private.h — the state of TprofLive: per operation and rank, what has arrived and what waits for its occurrence to complete. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <tprof/tprof-live.h>

#include "tprof-running-median-private.h"

typedef struct
{
  double start;
  double time;
} TprofLivePair;

/* One rank's samples of one operation not yet in a complete occurrence:
 * pairs[head .. len), by start once sorted. */
typedef struct
{
  TprofLivePair *pairs;
  size_t         head;
  size_t         len;
  size_t         cap;
  size_t         written; /* pairs[0 .. written) were written once: their pages are present */
  bool           unsorted;
  bool           held;   /* no occurrence takes its pairs starting at or after below */
  double         below;
  uint64_t       used;   /* its samples taken by complete occurrences, or skipped */
  uint64_t       skip;   /* its next samples belong to occurrences completed without it */
} TprofLiveLane;

typedef struct
{
  char              *name;
  TprofLiveLane     *lanes;        /* per rank */
  int64_t           *rank_count;   /* per rank, what has arrived */
  double            *rank_sum;
  double            *rank_min;
  double            *rank_max;
  double            *wait_caused;  /* per rank, over the complete occurrences */
  uint64_t          *late_count;
  uint64_t           occurrences;  /* complete */
  TprofRunningMedian start_spread; /* of the complete occurrences */
  TprofRunningMedian end_spread;
  bool               dirty;        /* samples or a done rank since the last update */
  bool               held;         /* one of its lanes is */
} TprofLiveOp;

struct _TprofLive
{
  int           world_size;
  bool         *done;   /* per rank: no more samples will come */
  bool         *absent; /* per rank: not reporting for now (tprof_live_rank_absent()) */
  int          *part;   /* room for the ranks taking part in an occurrence */
  TprofLiveOp **ops;
  size_t        n_ops;
};

TprofLiveOp *_tprof_live_op_new (const char *name,
                                 int         world_size);
void _tprof_live_op_free (TprofLiveOp *o,
                          int          world_size);
/* Analyses every occurrence of @o that is now complete, with @part room
 * for @world_size ranks. False when memory is exhausted. */
bool _tprof_live_op_complete (TprofLiveOp *o,
                              int          world_size,
                              const bool  *done,
                              const bool  *absent,
                              int         *part);
