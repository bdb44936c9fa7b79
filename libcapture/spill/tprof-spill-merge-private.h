/* tprof-spill-merge-private.h — the merge's state, shared by its in-memory path (tprof-spill-merge.c) and the one into the file's rows (tprof-spill-merge-save.c). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof-spill-merge-internal.h"

/* One operation's samples so far, starts on the timeline of the ranks
 * read so far (Merge.origin), then those of the flush being read
 * (pending), taken at its COMMIT. */
typedef struct
{
  double  *times;
  double  *starts;
  int32_t *ranks;
  int32_t *threads;    /* NULL while every sample is of thread 0 */
  size_t   n;
  size_t   pending;
  size_t   capacity;
  bool     in_flush;   /* listed in Merge.flush_ops */
  size_t   counted;    /* the samples the files hold, every rank's (in a file: committed ones) */
  bool     counted_threads;  /* ... whether one has a thread other than 0 */
} MergeOp;

typedef struct
{
  TprofProfiledTime   *index;      /* the operations' names, in order of appearance */
  MergeOp             *ops;
  size_t               ops_capacity;
  /* the rank being read */
  TprofSpillReader    *reader;
  int32_t              rank;
  double               offset;     /* its clock to rank 0's */
  double               shift;      /* the origin its starts are moved by; NaN until its first sample */
  double               earliest;   /* its earliest committed start, its clock */
  double               flush_earliest;  /* ... of the flush being read */
  uint64_t             flush_samples;
  size_t              *flush_ops;  /* the operations of the flush being read */
  size_t               n_flush_ops;
  double               origin;     /* the earliest start so far, rank 0's clock: the
                                      timeline's origin unless a later rank has an earlier one */
  double              *origins;    /* the origin each rank's starts were moved by */
  size_t              *local;      /* the reader's name ids -> operations */
  size_t               local_capacity;
  TprofSpillMergeRank *out;        /* its part of the report */
  TprofSpillMergeRank *ranks;      /* the report's, every rank */
  TprofError          *error;
  /* a merge into a file (tprof-spill-merge-save.c): each record is read
   * into scratch, its starts moved there, and handed to put() with its
   * operation's row; capacity is the end of the room of the rank being
   * read, which a count found. A flush with a sample past it (the file
   * grew since), or of an operation without rows, and every later one
   * are dropped */
  bool                 in_file;
  int                (*put) (void          *put_data,
                             size_t         op,
                             size_t         row,
                             const double  *starts,
                             const double  *durations,
                             const int32_t *threads,
                             size_t         n);
  void                *put_data;
  bool                 to_scratch;      /* the record being placed has no room */
  bool                 flush_overflow;  /* the flush being read */
  bool                 stopped;
  double              *scratch;         /* 2 * scratch_capacity */
  int32_t             *thread_scratch;  /* scratch_capacity */
  size_t               scratch_capacity;
} Merge;

/* The operation of the reader's names @first .. @first + @n - 1 in
 * m->local, new ones added in order of appearance. 0, or -1. */
int  _tprof_spill_merge_map_names (Merge   *m,
                                   uint32_t first,
                                   uint32_t n);
/* Makes rank @rank, read by @reader, the one the callbacks fill. */
void _tprof_spill_merge_select_rank (Merge            *m,
                                     TprofSpillReader *reader,
                                     int               rank);
/* Reads rank @rank's file into the operations' columns, the earliest
 * start on rank 0's clock lowered to its own. 0, or -1. */
int  _tprof_spill_merge_read_rank (Merge            *m,
                                   TprofSpillReader *reader,
                                   int               rank,
                                   double           *earliest);
/* The headers' hosts, offsets, error bounds and the wall time of
 * @origin into @pt; data_until moved by @origin. 0, or -1. */
int  _tprof_spill_merge_set_ranks (TprofProfiledTime     *pt,
                                   const TprofSpillJob   *job,
                                   TprofSpillMergeReport *report,
                                   double                 origin,
                                   TprofError            *error);
/* Where the timeline starts (rank 0's clock): the earliest sample or,
 * without any, where the earliest rank started spilling. */
double _tprof_spill_merge_origin (const TprofSpillJob *job,
                                  double               earliest);
/* The report's totals from its ranks. */
void _tprof_spill_merge_report_sum (TprofSpillMergeReport *report);
/* Starts a merge of @job: @m and @report (world_size ranks) ready. 0, or
 * -1 with @error. */
int  _tprof_spill_merge_init (Merge                 *m,
                              TprofSpillJob         *job,
                              TprofSpillMergeReport *report,
                              TprofError            *error);
void _tprof_spill_merge_clear (Merge *m);
