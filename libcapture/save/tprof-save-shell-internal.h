/* tprof-save-shell-internal.h — what the parallel save (mpi/) uses of save/: an operation's parts and cache, and the file without its samples, whose rows every rank fills. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tprof-h5-internal.h"
#include "tprof/tprof-gathered-time.h"

/* What the file caches of one operation (docs/file-format.md), computed
 * by the statistics engine (tprof-cached-stats.c). */
typedef struct
{
  TprofSummary summary;
  int64_t     *rank_count;  /* world_size each */
  double      *rank_sum;
  double      *rank_min;    /* NaN where a rank has no sample */
  double      *rank_max;
  int64_t     *rank_recorded;  /* sampled capture only, else NULL:
                                * samples each rank recorded; then rank_sum/min/max
                                * and the summary's count, sum, mean, min and max
                                * cover all of them */
  bool         borrowed;    /* the arrays lie in @storage (see below) */
} TprofCachedStats;

/* Values of the per-rank arrays of one operation's cache, world_size
 * each: counts, sums, minima, maxima, recorded. */
#define TPROF_CACHED_STATS_ARRAYS 5

/* Room for a run of samples per rank (tprof-h5-writer-private.h). */
typedef struct _TprofCachedScratch TprofCachedScratch;

/* Fills @cache from @gt; false when memory is exhausted. With @storage
 * (TPROF_CACHED_STATS_ARRAYS * world_size values of 8 bytes, zeroed) the
 * arrays lie there, else they are allocated. With @scratch (may be NULL),
 * an operation stored rank after rank takes no allocation of its own. */
bool _tprof_cached_stats_init (TprofCachedStats        *cache,
                               const TprofGatheredTime *gt,
                               int                      world_size,
                               int64_t                 *storage,
                               TprofCachedScratch      *scratch);
TPROF_EXPORT void _tprof_cached_stats_clear (TprofCachedStats *cache);

/* The sample arrays of an operation. */
typedef enum
{
  TPROF_H5_FIELD_TIMES,    /* float64 */
  TPROF_H5_FIELD_RANKS,    /* int32: in memory only; format 3 keeps them in segments */
  TPROF_H5_FIELD_STARTS,   /* float64, only on a timeline */
  TPROF_H5_FIELD_THREADS,  /* int32, only on a timeline */
  TPROF_H5_N_FIELDS,
} TprofH5Field;

/* One operation as the writer stores it: its name, @n samples grouped by
 * ascending rank, its cached statistics, and the sample arrays @data
 * (native byte order), or with @left_to_ranks none: its rows of each
 * sample column are then room that the ranks of a parallel save fill,
 * and their file offsets come back in @offsets (UINT64_MAX for a column
 * not written, and for ranks, which have none). Starts and threads
 * exist only with @timeline. @recorded (@n_recorded entries, ascending
 * by rank) says what each rank recorded under sampled capture; without
 * samples data, @cache alone says which ranks have samples. */
typedef struct
{
  const char              *name;
  size_t                   n;
  bool                     timeline;
  bool                     left_to_ranks;
  const void              *data[TPROF_H5_N_FIELDS];
  const TprofRankRecorded *recorded;
  size_t                   n_recorded;
  const TprofCachedStats  *cache;
  uint64_t                 offsets[TPROF_H5_N_FIELDS];
} TprofOperationParts;

/* A save's temporary file (tprof-save-file.c). */
typedef struct
{
  const char *path;      /* as the caller gave it, for messages */
  char       *target;    /* @path with symbolic links followed: what is replaced */
  char       *dir;       /* the directory of @target */
  char       *tmp_path;  /* "<dir>/.tprof-XXXXXX": short, whatever the target's length */
  bool        unnamed;   /* O_TMPFILE: @tmp_path is the name it takes when linked */
  bool        linked;    /* @tmp_path names it now */
  int         fd;
  off_t       reserved;  /* bytes allocated on disk (or in @image) from offset 0 */
  /* An image of the file in memory, or NULL: every write, ours and
   * HDF5's, lands there, and the commit writes it to @fd at once
   * (tprof-save-image.c). */
  char       *image;
  size_t      image_end;  /* bytes written or cut to: the file's size */
  bool        image_pinned;  /* another thread writes into it: it may not move */
  /* bytes [written[i][0], written[i][1]) of it are in the file already
   * (the sample columns the helper wrote, the tables once joined),
   * ascending; n_written of them */
  size_t      written[4][2];
  int         n_written;
  /* the writing thread alone writes into the image now (after the
   * helper's join): its writes into those runs go to the file too */
  bool        image_write_through;
} TprofSaveFile;

/* The temporary file of a parallel save while the ranks fill it. */
typedef struct
{
  TprofSaveFile file;
  off_t         size;  /* where it is cut at commit; -1: as it is */
} TprofSaveShell;

/* Creates the temporary file beside the file @path names (links
 * followed; only a regular file or nothing is ever replaced), reserves
 * its space and writes all of it but the samples: @info's root
 * attributes and /ranks (world size, host names, the timeline's offsets
 * and origin; @info holds no operation), and for each of @ops (which
 * must have left_to_ranks set) its rows of the tables and room for
 * its samples, whose offsets are filled in. HDF5 has closed the file
 * when this returns: other processes may write into the room, by the
 * name _tprof_save_shell_path() gives. 0, or -1 with @error and nothing
 * left behind. */
TPROF_EXPORT int  _tprof_save_shell_write (TprofSaveShell          *shell,
                                           const char              *path,
                                           const TprofProfiledTime *info,
                                           TprofOperationParts     *ops,
                                           size_t                   n_ops,
                                           TprofError              *error);

/* The temporary file's name. */
TPROF_EXPORT const char *_tprof_save_shell_path (const TprofSaveShell *shell);

/* After every rank's samples are durable: makes the file durable and
 * renames it over the target. 0, or -1 with @error (the target is then
 * untouched). The temporary file is gone either way. */
TPROF_EXPORT int  _tprof_save_shell_commit (TprofSaveShell *shell,
                                            TprofError     *error);

/* Removes the temporary file. */
TPROF_EXPORT void _tprof_save_shell_abandon (TprofSaveShell *shell);
