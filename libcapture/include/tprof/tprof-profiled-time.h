/* tprof-profiled-time.h — TprofProfiledTime: a whole profile (operation name -> samples), saved as HDF5. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>
#include <tprof/tprof-time-manager.h>

TPROF_BEGIN_DECLS

typedef struct _TprofProfiledTime TprofProfiledTime;

/* Returns a new, empty profile of a run of @world_size ranks (>= 1), or
 * NULL when @world_size < 1 or memory is exhausted. */
TPROF_EXPORT TprofProfiledTime *tprof_profiled_time_new (int world_size);

/* Adds operation @name (non-empty UTF-8, copied) with samples @gt, taking
 * ownership of @gt in every case. Fails (returns -1, fills @error, frees @gt)
 * when @name is empty or already present or a rank of @gt is outside
 * [0, world_size). */
TPROF_EXPORT int tprof_profiled_time_add (TprofProfiledTime *pt,
                                          const char        *name,
                                          TprofGatheredTime *gt,
                                          TprofError        *error);

/* Writes @pt to @path as one HDF5 profile file (format 3,
 * docs/file-format.md: a few columns whatever the number of operations,
 * the samples grouped by operation then rank, their statistics cached,
 * each column with its CRC-32C), through
 * a temporary file beside @path renamed over it when complete. A profile
 * loaded from a file keeps the created, producer and clock it was read
 * with; any other is stamped with this save's. On failure
 * (returns -1 and fills @error) an earlier file at @path is left untouched. */
TPROF_EXPORT int tprof_profiled_time_save (const TprofProfiledTime *pt,
                                           const char              *path,
                                           TprofError              *error);

/* Reads a profile; NULL on failure with @error naming the file and what is
 * wrong. HDF5's own diagnostics never reach the terminal. It parses in
 * the calling process: every check of the format is made, but HDF5 1.10
 * itself can crash, loop or allocate without bound on some damaged bytes
 * (single-bit flips of its internal structures). For a file from
 * elsewhere use tprof_profiled_time_load_isolated(). */
TPROF_EXPORT TprofProfiledTime *tprof_profiled_time_load (const char *path,
                                                          TprofError *error);
/* The same, parsed in a helper process as tprof_profile_file_open_isolated()
 * does: HDF5 crashing, looping or allocating without bound on a damaged
 * file is an error here, never the caller's crash. */
TPROF_EXPORT TprofProfiledTime *tprof_profiled_time_load_isolated (const char *path,
                                                                   TprofError *error);

TPROF_EXPORT void tprof_profiled_time_free (TprofProfiledTime *pt);

TPROF_EXPORT size_t tprof_profiled_time_len (const TprofProfiledTime *pt);
/* Name of the operation at @i (file / recording order); NULL when out of range. */
TPROF_EXPORT const char *tprof_profiled_time_name (const TprofProfiledTime *pt, size_t i);
/* The operation at @i, owned by @pt; NULL when out of range. */
TPROF_EXPORT const TprofGatheredTime *tprof_profiled_time_nth (const TprofProfiledTime *pt, size_t i);
/* The operation @name, owned by @pt; NULL when absent. */
TPROF_EXPORT const TprofGatheredTime *tprof_profiled_time_get (const TprofProfiledTime *pt,
                                                               const char              *name);
TPROF_EXPORT int tprof_profiled_time_world_size (const TprofProfiledTime *pt);

/* Host names, one per rank (copied); @hostnames has world_size entries. */
TPROF_EXPORT int tprof_profiled_time_set_hostnames (TprofProfiledTime *pt,
                                                    const char *const *hostnames,
                                                    TprofError        *error);
/* Host of @rank, or NULL when the profile does not say. */
TPROF_EXPORT const char *tprof_profiled_time_hostname (const TprofProfiledTime *pt, int rank);

/* The timeline (docs/file-format.md): per rank, the seconds added to that rank's
 * clock to map it onto rank 0's, and a bound on that offset's error
 * (world_size entries each, both 0 for rank 0); NULL when the profile has
 * no timeline. The samples' starts are in each operation's selection
 * (tprof_gathered_time_starts). */
TPROF_EXPORT const double *tprof_profiled_time_clock_offsets (const TprofProfiledTime *pt);
TPROF_EXPORT const double *tprof_profiled_time_clock_offset_errors (const TprofProfiledTime *pt);
/* ISO 8601 UTC wall time of timeline 0, or NULL when not known. */
TPROF_EXPORT const char *tprof_profiled_time_timeline_origin (const TprofProfiledTime *pt);
/* Takes ownership of the malloc'd arrays (world_size entries each) and
 * string, any of which may be NULL, replacing what was there. */
TPROF_EXPORT void tprof_profiled_time_set_timeline_take (TprofProfiledTime *pt,
                                                         double            *clock_offsets,
                                                         double            *clock_offset_errors,
                                                         char              *timeline_origin);

/* Optional root attributes read from a file (NULL when absent); a new
 * profile carries none until saved. */
TPROF_EXPORT const char *tprof_profiled_time_created (const TprofProfiledTime *pt);
TPROF_EXPORT const char *tprof_profiled_time_producer (const TprofProfiledTime *pt);
TPROF_EXPORT const char *tprof_profiled_time_clock (const TprofProfiledTime *pt);

TPROF_END_DECLS
