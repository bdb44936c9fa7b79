/* tprof-spill-slice-internal.h — one read of what a spill file appended, checked whole, then delivered a bounded number of samples at a time. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof-spill-reader-internal.h"

/* A read of @reader in slices: _tprof_spill_slice_begin() reads and checks
 * what was appended as _tprof_spill_reader_read() does, keeping none of
 * its bytes; each _tprof_spill_slice_next() reads back from the file and
 * delivers at most a given number of samples (a SAMPLES record may be cut
 * into several runs), resuming where the last one stopped. The deliveries
 * of all the slices are those of one _tprof_spill_reader_read(), in the
 * same order. */
typedef struct
{
  TprofSpillReader    *reader;
  TprofSpillReadStatus status;      /* the load's; complete once done */
  bool                 done;        /* every slice delivered (or nothing to) */
  bool                 shrank;      /* the file ended before a slice's bytes */
  uint64_t             pos;         /* file offset of the next record */
  uint32_t             sample;      /* of the SAMPLES record at pos, the ones delivered */
  uint64_t             commit_end;  /* file offsets: the last COMMIT's end, */
  uint64_t             stop;        /* the last whole valid record's end */
  double              *bound;       /* per name id: no sample left starts before it (rank clock) */
  double              *last;        /* per name id: the last start surveyed */
  bool                *ordered;     /* per name id: its samples come by start */
  uint32_t             n_ids;
  uint32_t             ids_capacity;
  uint8_t             *buffer;      /* the record being delivered, during a slice */
  size_t               buffer_size;
} TprofSpillSlice;

/* Starts a read of @reader into @s (zeroed, or cleared by the last read's
 * _tprof_spill_slice_clear()). 0, or -1 with @error set (I/O, memory). */
TPROF_EXPORT int _tprof_spill_slice_begin (TprofSpillSlice  *s,
                                           TprofSpillReader *reader,
                                           TprofError       *error);
/* Delivers to @visitor (may be NULL) the next records, up to @max_samples samples
 * (at least one when any is left); s->done once all is delivered. A file
 * that shrank below what is left to read is damaged from there on (a
 * damaged tail in s->status, as a read reports it). 0, or -1 with @error
 * set (I/O, memory, a callback). */
TPROF_EXPORT int _tprof_spill_slice_next (TprofSpillSlice         *s,
                                          const TprofSpillVisitor *visitor,
                                          void                    *user_data,
                                          size_t                   max_samples,
                                          TprofError              *error);
/* The smallest start, on the file's clock, that the samples of name id
 * @op still to be delivered may have (INFINITY: none is left). */
TPROF_EXPORT double _tprof_spill_slice_bound (const TprofSpillSlice *s,
                                              uint32_t               op);
/* Frees what @s holds (it may begin again after). */
TPROF_EXPORT void _tprof_spill_slice_clear (TprofSpillSlice *s);
