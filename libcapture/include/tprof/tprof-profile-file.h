/* tprof-profile-file.h — TprofProfileFile: a saved profile read lazily, metadata and cached statistics first, samples when needed. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

typedef struct _TprofProfileFile TprofProfileFile;

/* What is known of one operation without holding its samples. The arrays
 * have world_size entries and live as long as the file. */
typedef struct
{
  TprofSummary   summary;     /* every statistic of all stored samples; with
                               * sampled capture (docs/file-format.md), count, sum,
                               * mean, min, max and the balance cover every
                               * recorded sample, as the cache does */
  const int64_t *rank_count;  /* samples of each rank */
  const double  *rank_sum;    /* total time of each rank */
  const double  *rank_min;    /* NaN where the rank has no sample */
  const double  *rank_max;
  const int64_t *rank_recorded;  /* sampled capture: samples each rank
                                  * recorded (>= rank_count; where larger,
                                  * the rank's stored samples are a uniform
                                  * subset and rank_sum/min/max cover all it
                                  * recorded); NULL when nothing was sampled */
} TprofOperationStats;

/* Opens the profile at @path and reads its metadata: the root attributes,
 * the operations' names and sample counts, the host names and, in files of
 * format versions 2 and 3, the cached statistics, all checked as strictly
 * as a full load checks them (docs/file-format.md). Reads no samples. Returns a new handle the caller
 * closes with tprof_profile_file_close(), or NULL with @error naming the
 * file and what is wrong. The handle may be used from one thread at a time;
 * reads of different handles may run concurrently. */
TPROF_EXPORT TprofProfileFile *tprof_profile_file_open (const char *path,
                                                        TprofError *error);
/* The same, but the file is parsed in a helper process (tprof-reader), so
 * that a file damaged in a way HDF5 itself cannot survive (HDF5 1.10 can
 * crash, loop or allocate without bound on some damaged bytes) fails with
 * an error naming the file, instead of taking the caller down. Every
 * function below works on the handle as on one from
 * tprof_profile_file_open(). The helper parses only metadata: samples
 * stored plainly (contiguous, unfiltered, IEEE floats or integers) the
 * caller reads from the file itself and checks as tprof_profile_file_open()
 * does; others the helper reads and the caller copies out of it
 * (process_vm_readv, or a memfd where that call is refused). The helper
 * runs with a memory limit and is stopped when it stalls; a cancelled read stops it, and the next request starts a new one.
 * Programs that open files they did not write (tprof, tprof-viewer) use
 * this; tprof_profile_file_open() and tprof_profiled_time_load() parse in
 * the calling process and are for files a program trusts. */
TPROF_EXPORT TprofProfileFile *tprof_profile_file_open_isolated (const char *path,
                                                                 TprofError *error);
TPROF_EXPORT void tprof_profile_file_close (TprofProfileFile *file);
/* For a program that opens file after file isolated (a viewer): from now
 * on a helper is kept started ahead of need, one now and another at each
 * close, so that tprof_profile_file_open_isolated() skips the helper's
 * start (tens of ms). Each file still gets a process that has parsed no
 * other file. Off until called: a command that opens one file and exits
 * would only start a helper to end it. The environment variable
 * TPROF_READER_SPARE=0 keeps it off. */
TPROF_EXPORT void tprof_profile_file_keep_helper_ready (void);

TPROF_EXPORT const char *tprof_profile_file_path (const TprofProfileFile *file);
TPROF_EXPORT int    tprof_profile_file_format_version (const TprofProfileFile *file);
TPROF_EXPORT int    tprof_profile_file_world_size (const TprofProfileFile *file);
TPROF_EXPORT size_t tprof_profile_file_n_operations (const TprofProfileFile *file);
/* Name of operation @op (file order); NULL when out of range. */
TPROF_EXPORT const char *tprof_profile_file_operation_name (const TprofProfileFile *file,
                                                            size_t                  op);
/* Index of operation @name, or (size_t) -1 when absent (O(log n)). */
TPROF_EXPORT size_t tprof_profile_file_find_operation (const TprofProfileFile *file,
                                                       const char             *name);
/* Number of samples of @op stored in the file (0 when out of range). */
TPROF_EXPORT uint64_t tprof_profile_file_sample_count (const TprofProfileFile *file,
                                                       size_t                  op);
/* Host of @rank, or NULL when the file does not say. */
TPROF_EXPORT const char *tprof_profile_file_hostname (const TprofProfileFile *file,
                                                      int                     rank);
/* Optional root attributes; NULL when absent. */
TPROF_EXPORT const char *tprof_profile_file_created (const TprofProfileFile *file);
TPROF_EXPORT const char *tprof_profile_file_producer (const TprofProfileFile *file);
TPROF_EXPORT const char *tprof_profile_file_clock (const TprofProfileFile *file);
/* The timeline (docs/file-format.md), where the file has one: the wall time of
 * timeline 0 (ISO 8601 UTC), and per rank the seconds added to its clock
 * and the bound on that offset's error (world_size entries, owned by
 * @file; NULL unless both are stored). Samples' starts and threads come
 * with tprof_profile_file_read_operation(). */
TPROF_EXPORT const char   *tprof_profile_file_timeline_origin (const TprofProfileFile *file);
TPROF_EXPORT const double *tprof_profile_file_clock_offsets (const TprofProfileFile *file);
TPROF_EXPORT const double *tprof_profile_file_clock_offset_errors (const TprofProfileFile *file);

/* true when the file holds the cached statistics of @op, so that
 * tprof_profile_file_operation_stats() reads no samples. */
TPROF_EXPORT bool tprof_profile_file_has_cached_stats (const TprofProfileFile *file,
                                                       size_t                  op);

/* The statistics of all samples of @op, owned by @file. Taken from the
 * file's cache when it has one; otherwise (format 1, other writers) the
 * samples are read once and the statistics computed and kept. NULL with
 * @error set when that read fails. */
TPROF_EXPORT const TprofOperationStats *tprof_profile_file_operation_stats (TprofProfileFile *file,
                                                                            size_t            op,
                                                                            TprofError       *error);

/* Reads the samples of @op on the ranks @ranks[0..@n_ranks) (NULL: every
 * rank), each checked as a full load checks it, and, where the file caches
 * statistics, the cache against them. The result holds the samples in
 * file order (tprof's writers store them grouped by ascending rank, each
 * rank's in recording order; files of other writers may interleave ranks),
 * so that its statistics equal numpy's on the file's arrays; ranks outside
 * [0, world_size) select nothing. The caller frees it.
 * @progress (may be NULL) is called from the calling thread; when *@cancel
 * (may be NULL) becomes true the read stops and returns NULL with @error
 * code TPROF_ERROR_CANCELLED. NULL with @error set on any failure. */
TPROF_EXPORT TprofGatheredTime *tprof_profile_file_read_operation (TprofProfileFile  *file,
                                                                   size_t             op,
                                                                   const int32_t     *ranks,
                                                                   size_t             n_ranks,
                                                                   TprofProgressFunc  progress,
                                                                   void              *user_data,
                                                                   const volatile int *cancel,
                                                                   TprofError        *error);

/* Called by tprof_profile_file_read_all() with operation @op's samples,
 * which it takes (frees or keeps). false stops the read (which then
 * fails with @error as the callback left it, or TPROF_ERROR_CANCELLED). */
typedef bool (*TprofProfileFileReadFunc) (size_t             op,
                                          TprofGatheredTime *samples,
                                          void              *user_data,
                                          TprofError        *error);

/* Reads every operation of @file, in file order, on the ranks
 * @ranks[0..@n_ranks) (NULL: every rank), each checked as
 * tprof_profile_file_read_operation() checks it, and hands each to @func.
 * Much faster than reading them one by one when a file holds many small
 * operations: format 3's columns are read in large blocks that hold many
 * operations (and against their checksums, checked once every row is
 * read: on a mismatch the call fails after @func has seen the
 * operations); memory holds one block beside what @func keeps. 0, or -1
 * with @error set. */
TPROF_EXPORT int tprof_profile_file_read_all (TprofProfileFile         *file,
                                              const int32_t            *ranks,
                                              size_t                    n_ranks,
                                              TprofProfileFileReadFunc  func,
                                              void                     *user_data,
                                              TprofError               *error);

/* For programs that only read profiles, such as tprof and tprof-viewer:
 * skips HDF5's clean-up at exit. After some damaged files HDF5 cannot
 * release what it opened and prints "infinite loop closing library" when
 * the program ends, although the file was refused with a clear error; a
 * reader has nothing to flush. Call it before any other tprof or HDF5
 * function. A program that writes HDF5 files itself must not call it. */
TPROF_EXPORT void tprof_profile_file_skip_exit_cleanup (void);

TPROF_END_DECLS
