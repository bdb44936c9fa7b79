/* tprof-spill-reader-private.h — what the spill reader's files share: the reader's state and the record checks of one pass. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tprof-spill-reader-internal.h"
#include "tprof-spill-record-internal.h"

/* A payload longer than TPROF_SPILL_MAX_PAYLOAD is damage, not a record
 * being appended. */

/* seconds = ref_seconds + (ticks - ref_ticks) * seconds_per_tick */
typedef struct
{
  bool    set;
  int64_t ref_ticks;
  double  ref_seconds;
  double  seconds_per_tick;
} TprofSpillClock;

/* One record of a buffer, framing checked. */
typedef struct
{
  uint16_t       type;
  uint32_t       len;        /* payload bytes */
  const uint8_t *payload;
  size_t         size;       /* header + padded payload */
} TprofSpillRecord;

/* What the checking pass found in the bytes read. */
typedef struct
{
  size_t commit_end;   /* end of the last COMMIT */
  size_t stop;         /* end of the last whole, valid record */
  bool   pending;      /* a flush's records, or an incomplete record, after commit_end */
  bool   damaged;
  double earliest;     /* smallest sample start before commit_end */
} TprofSpillScan;

struct _TprofSpillReader
{
  char            *path;
  int              fd;
  TprofSpillHeader header;
  char            *host;
  char            *label;

  uint64_t         offset;           /* end of the last COMMIT delivered */
  uint64_t         delivered_until;  /* standalone records before this were delivered */
  bool             damaged;
  uint64_t         damaged_offset;
  char             damaged_problem[256];

  char           **names;
  uint32_t         n_names;
  uint32_t         committed_names;  /* defined before offset */
  uint32_t         names_capacity;
  TprofSpillClock  clock;
  TprofSpillCommit last_commit;
  bool             has_commit;

  double          *scratch;          /* raw samples converted */
  size_t           scratch_len;

  TprofSpillScan   scan;             /* the bytes read, not delivered yet */
  uint8_t         *data;             /* its bytes, from offset; NULL when none */
  uint64_t        *op_samples;       /* a count's samples per name id */
  bool            *op_threads;       /* ... whether one has a thread other than 0 */
  uint64_t        *op_committed;     /* ... those of committed flushes, as of the last COMMIT */
  uint32_t         op_capacity;
  TprofSpillCounted counted;
};

typedef enum
{
  TPROF_SPILL_FRAME_OK,
  TPROF_SPILL_FRAME_INCOMPLETE,
  TPROF_SPILL_FRAME_DAMAGED,
} TprofSpillFrame;

/* The record at the start of the @n bytes at @data: its framing, length
 * and checksum. DAMAGED fills @problem. */
TprofSpillFrame _tprof_spill_frame (const uint8_t    *data,
                                    size_t            n,
                                    TprofSpillRecord *record,
                                    char             *problem,
                                    size_t            problem_size);

/* The message of a record of @type whose CRC-32C is @crc, not @stored. */
void _tprof_spill_crc_problem (uint16_t type,
                               uint32_t crc,
                               uint32_t stored,
                               char    *problem,
                               size_t   problem_size);

/* The record at @data, whose framing _tprof_spill_frame() accepted
 * before: its fields without the checksum computed again. */
void _tprof_spill_frame_known (const uint8_t    *data,
                               TprofSpillRecord *record);

/* A `str` at *@pos of @payload (advanced past it), copied into a new
 * string in *@out (may be NULL: not copied). false when it runs past the
 * payload or is not UTF-8. */
bool _tprof_spill_str (const TprofSpillRecord *record,
                       size_t                 *pos,
                       char                  **out);

/* Checks @record's contents (type-specific lengths and values) against
 * the state of the file before it: @n_names names defined, @clock the
 * latest CLOCK. Updates both as the record would, and *@earliest to the
 * smallest of it and a SAMPLES record's starts. false fills @problem. */
bool _tprof_spill_record_check (const TprofSpillRecord *record,
                                uint32_t               *n_names,
                                TprofSpillClock        *clock,
                                double                 *earliest,
                                char                   *problem,
                                size_t                  problem_size);

/* The fields of a SAMPLES record of @len payload bytes (its first 16
 * bytes), against the state of the file before it as
 * _tprof_spill_record_check() does, without its samples. */
bool _tprof_spill_samples_head_check (const uint8_t          fields[16],
                                      uint32_t               len,
                                      uint32_t               n_names,
                                      const TprofSpillClock *clock,
                                      char                  *problem,
                                      size_t                 problem_size);

/* The @n samples of a SAMPLES record of @encoding read as they are stored
 * into @starts and @durations, converted there to seconds with @clock and
 * checked as _tprof_spill_record_check() does; false fills @problem. */
bool _tprof_spill_samples_settle (double                *starts,
                                  double                *durations,
                                  uint32_t               n,
                                  uint32_t               encoding,
                                  const TprofSpillClock *clock,
                                  char                  *problem,
                                  size_t                 problem_size);

/* Sample @i of a SAMPLES record in seconds: its start and duration,
 * converted with @clock for raw ones. */
void _tprof_spill_sample (const TprofSpillRecord *record,
                          const TprofSpillClock  *clock,
                          size_t                  i,
                          double                 *start,
                          double                 *duration);

/* Reads the HEADER record of @reader's file into its header. */
int _tprof_spill_reader_read_header (TprofSpillReader *reader,
                                     TprofError       *error);

/* The names of a checked NAMES record added to @reader's. */
int _tprof_spill_reader_add_names (TprofSpillReader       *reader,
                                   const TprofSpillRecord *record,
                                   TprofError             *error);

/* A checked STATE, SIGNAL or END record at @offset delivered, unless an
 * earlier read did. */
int _tprof_spill_deliver_standalone (TprofSpillReader        *reader,
                                     const TprofSpillRecord  *record,
                                     uint64_t                 offset,
                                     const TprofSpillVisitor *visitor,
                                     void                    *user_data);

/* @status of a read of a file found damaged before. */
void _tprof_spill_fill_damaged (const TprofSpillReader *reader,
                                TprofSpillReadStatus   *status);

/* A read's first step: reads and checks what was appended since the last
 * read into reader->data and reader->scan (names defined, damage noted in
 * @status); false with @error set (I/O, memory). The bytes are held until
 * _tprof_spill_reader_unload(). */
bool _tprof_spill_reader_load (TprofSpillReader     *reader,
                               TprofSpillReadStatus *status,
                               TprofError           *error);
void _tprof_spill_reader_unload (TprofSpillReader *reader);

/* Delivers one checked @record at file offset @offset as a read does
 * (CLOCK and COMMIT update @reader; STATE, SIGNAL, END once). */
int _tprof_spill_reader_deliver_record (TprofSpillReader        *reader,
                                        const TprofSpillRecord  *record,
                                        uint64_t                 offset,
                                        const TprofSpillVisitor *visitor,
                                        void                    *user_data,
                                        TprofSpillReadStatus    *status,
                                        TprofError              *error);
