/* tprof-profiled-time-internal.h — TprofProfiledTime internals shared with the HDF5 reader. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

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

/* Takes ownership of the malloc'd strings (any may be NULL), replacing
 * earlier ones. */
void _tprof_profiled_time_take_info (TprofProfiledTime *pt,
                                     char              *created,
                                     char              *producer,
                                     char              *clock);
