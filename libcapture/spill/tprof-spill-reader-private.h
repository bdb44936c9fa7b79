/* tprof-spill-reader-private.h — what the spill reader's files share: the reader's state and the record checks of one pass. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tprof-spill-reader-internal.h"

/* The record framing of docs/spill-format.md, as the reader checks it. */
#define TPROF_SPILL_READ_MAGIC        UINT32_C (0x52505354)
#define TPROF_SPILL_READ_RECORD_BYTES 16
/* A payload longer than this is damage, not a record being appended. */
#define TPROF_SPILL_READ_MAX_PAYLOAD  (UINT32_C (1) << 30)

enum
{
  TPROF_SPILL_READ_HEADER = 1,
  TPROF_SPILL_READ_NAMES = 2,
  TPROF_SPILL_READ_SAMPLES = 3,
  TPROF_SPILL_READ_CLOCK = 4,
  TPROF_SPILL_READ_COMMIT = 5,
  TPROF_SPILL_READ_STATE = 6,
  TPROF_SPILL_READ_SIGNAL = 7,
  TPROF_SPILL_READ_END = 8,
};

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
  uint32_t         names_capacity;
  TprofSpillClock  clock;
  TprofSpillCommit last_commit;
  bool             has_commit;

  double          *scratch;          /* raw samples converted */
  size_t           scratch_len;
};

static inline uint16_t
_tprof_spill_u16 (const uint8_t *p)
{
  return (uint16_t) (p[0] | p[1] << 8);
}

static inline uint32_t
_tprof_spill_u32 (const uint8_t *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static inline uint64_t
_tprof_spill_u64 (const uint8_t *p)
{
  return (uint64_t) _tprof_spill_u32 (p) | (uint64_t) _tprof_spill_u32 (p + 4) << 32;
}

static inline double
_tprof_spill_f64 (const uint8_t *p)
{
  uint64_t bits = _tprof_spill_u64 (p);
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

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

/* A `str` at *@pos of @payload (advanced past it), copied into a new
 * string in *@out (may be NULL: not copied). false when it runs past the
 * payload or is not UTF-8. */
bool _tprof_spill_str (const TprofSpillRecord *record,
                       size_t                 *pos,
                       char                  **out);

/* Checks @record's contents (type-specific lengths and values) against
 * the state of the file before it: @n_names names defined, @clock the
 * latest CLOCK. Updates both as the record would. false fills @problem. */
bool _tprof_spill_record_check (const TprofSpillRecord *record,
                                uint32_t               *n_names,
                                TprofSpillClock        *clock,
                                char                   *problem,
                                size_t                  problem_size);

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
