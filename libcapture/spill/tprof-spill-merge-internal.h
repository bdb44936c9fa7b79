/* tprof-spill-merge-internal.h — one profile from the spill files of a job, on one timeline, and what each rank's file gave. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-spill-reader-internal.h"

TPROF_BEGIN_DECLS

/* What one rank's file gave. */
typedef struct
{
  bool                 has_file;    /* a usable file (job->readers[rank]) */
  TprofSpillReadStatus status;      /* its read, when has_file */
  uint64_t             samples;
  uint64_t             flushes;
  double               data_until;  /* on the timeline; NaN: no committed flush */
  bool                 ended;       /* an END record: the rank ended cleanly */
  int32_t              signal;      /* the last SIGNAL's number, 0 when none */
} TprofSpillMergeRank;

typedef struct
{
  int                  world_size;
  TprofSpillMergeRank *ranks;       /* world_size entries */
  uint64_t             samples;
  int                  ranks_with_data;
  size_t               operations;  /* in the profile */
  bool                 in_memory;   /* _tprof_spill_merge_save(): merged in memory, then saved */
  bool                 saving;      /* ... failed while writing the profile, not reading */
} TprofSpillMergeReport;

/* Reads every usable file of @job whole (committed flushes) into one
 * profile: each operation's samples grouped by rank, starts moved onto
 * rank 0's clock with the headers' offsets then shifted so that the
 * earliest is 0, the offsets, their error bounds and the host names from
 * the headers, the wall time of timeline 0, and per rank until when it
 * has data (_tprof_profiled_time_data_until()). Fills @report (cleared
 * with _tprof_spill_merge_report_clear()). NULL with @error set when
 * reading fails (I/O, memory); a job without a usable file gives a
 * profile without operations. */
TPROF_EXPORT TprofProfiledTime *_tprof_spill_merge (TprofSpillJob         *job,
                                                    TprofSpillMergeReport *report,
                                                    TprofError            *error);
TPROF_EXPORT void _tprof_spill_merge_report_clear (TprofSpillMergeReport *report);

/* Merges @job as _tprof_spill_merge() does and saves the profile to @path
 * (tprof_profiled_time_save()) in one go: the same file, written without
 * holding the samples in memory. A count of each file's committed flushes
 * lays the file out; each SAMPLES record is read into one reused buffer
 * and written at its rows (tprof-spill-merge-save.c), the statistics
 * then computed from the rows read back. Flushes committed after the
 * count are left out. When a file gives other counts during the read (a
 * record damaged inside its samples, which the count does not
 * checksum), the file is dropped and the job merged in memory, then
 * saved (report->in_memory); so is a small job, whose save builds its
 * file in memory anyway, and one whose file cannot be laid out. The
 * variable
 * TPROF_MERGE_PATH=file or =memory forces either (for tests). 0, or -1
 * with @error (report->saving when it failed writing @path); @report
 * filled when it succeeds, cleared with _tprof_spill_merge_report_clear()
 * either way. */
TPROF_EXPORT int _tprof_spill_merge_save (TprofSpillJob         *job,
                                          const char            *path,
                                          TprofSpillMergeReport *report,
                                          TprofError            *error);

TPROF_END_DECLS
