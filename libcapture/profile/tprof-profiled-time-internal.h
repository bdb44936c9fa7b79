/* tprof-profiled-time-internal.h — TprofProfiledTime internals shared with the HDF5 reader. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tprof/tprof-macros.h"
#include "tprof/tprof-profiled-time.h"

#define TPROF_PROFILED_TIME_NOT_FOUND ((size_t) -1)

/* Index of operation @name, or TPROF_PROFILED_TIME_NOT_FOUND. */
size_t _tprof_profiled_time_find (const TprofProfiledTime *pt,
                                  const char              *name);

/* Appends @name (copied) with @gt (taken in every case) without checking
 * ranks or duplicates: the caller has. Returns false when memory is
 * exhausted. Exported (outside the installed headers) for the gather in
 * libtprof-capture-mpi, whose results are valid by construction. */
TPROF_EXPORT bool _tprof_profiled_time_append (TprofProfiledTime *pt,
                                               const char        *name,
                                               TprofGatheredTime *gt);

/* @block (malloc'd, taken) holds the names of the next @n operations
 * appended to the empty @pt by the _take() functions below, which then
 * free none of those names alone: a load's names, read as one block. */
void _tprof_profiled_time_adopt_names (TprofProfiledTime *pt,
                                       char              *block,
                                       size_t             n);

/* As _tprof_profiled_time_append(), @name (malloc'd) taken in every case. */
bool _tprof_profiled_time_append_take (TprofProfiledTime *pt,
                                       char              *name,
                                       TprofGatheredTime *gt);

/* An operation's samples that lie in arrays another object owns (a
 * reader's block of rows): @times and @ranks, and @starts and @threads
 * (NULL where absent), @n each, checked; kept until @release (may be
 * NULL) is called with @release_data. */
typedef struct
{
  const double  *times;
  const int32_t *ranks;
  const double  *starts;
  const int32_t *threads;
  size_t         n;
  void         (*release) (void *data);
  void          *release_data;
} TprofProfiledView;

/* Appends @name (malloc'd, taken in every case) as an operation whose
 * samples @view (taken in every case: released with the profile) gives:
 * its TprofGatheredTime is made only when first asked for
 * (tprof_profiled_time_nth() or _get()), as a view of those arrays, so
 * that a load of many operations makes none it is not asked for. Returns
 * false when memory is exhausted. */
bool _tprof_profiled_time_append_view_take (TprofProfiledTime       *pt,
                                            char                    *name,
                                            const TprofProfiledView *view);

/* Room for @n_ops more operations made at once, in the arrays and the
 * index, rather than as they come. Returns false when memory is
 * exhausted (the profile unchanged). */
bool _tprof_profiled_time_reserve (TprofProfiledTime *pt,
                                   size_t             n_ops);

/* The hash of an operation's name from @seed (FNV-1a, its high bits
 * mixed into the low ones a table uses): the profile's index and an
 * opened file's use the one function, so that a load hands the file's
 * table over instead of hashing every name again. */
uint64_t _tprof_name_hash (const char *name,
                           uint64_t    seed);

/* Like _tprof_profiled_time_reserve() on an empty profile, whose index
 * becomes @slots (taken in every case; @n_slots, a power of two at least
 * 2 @n_ops, each 0 or an operation's index + 1 by _tprof_name_hash()
 * from @seed): the table of the @n_ops operations about to be appended,
 * in that order, which are then not hashed again. Anything else (a
 * profile not empty, a table too small) is indexed as usual. Returns
 * false when memory is exhausted. */
bool _tprof_profiled_time_reserve_indexed (TprofProfiledTime *pt,
                                           size_t             n_ops,
                                           size_t            *slots,
                                           size_t             n_slots,
                                           uint64_t           seed);

/* Takes ownership of the malloc'd strings (any may be NULL), replacing
 * earlier ones. */
void _tprof_profiled_time_take_info (TprofProfiledTime *pt,
                                     char              *created,
                                     char              *producer,
                                     char              *clock);

/* A profile merged from spill files (docs/spill-format.md) says per rank
 * until when, on its timeline, it has that rank's samples: NaN for a rank
 * with none. Takes ownership of the malloc'd array (world_size entries,
 * NULL: not said), saved as /ranks/data_until. */
TPROF_EXPORT void _tprof_profiled_time_set_data_until_take (TprofProfiledTime *pt,
                                                            double            *data_until);
/* NULL when the profile does not say. */
TPROF_EXPORT const double *_tprof_profiled_time_data_until (const TprofProfiledTime *pt);

/* @epoch seconds since the Unix epoch as ISO 8601 UTC with microseconds
 * ("2026-12-05T03:00:00.250000Z"), the timeline_origin of a profile, in
 * a new string; NULL when not finite, out of range or out of memory. For
 * the gathers (local and MPI) and the merge of spill files alike. */
TPROF_EXPORT char *_tprof_wall_time_text (double epoch);
