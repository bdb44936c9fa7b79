/* tprof-spill-reader-internal.h — reading spill journals (docs/spill-format.md): one rank's file, incrementally, and the files of one job in a directory. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tprof/tprof-error.h"
#include "tprof/tprof-macros.h"

TPROF_BEGIN_DECLS

/* The HEADER record of a file. Strings are owned by the reader. */
typedef struct
{
  uint32_t    version;
  int32_t     rank;
  int32_t     world_size;
  int32_t     pid;
  uint64_t    job;                 /* the token of the file name */
  double      clock_offset;        /* seconds added to put this rank's clock on rank 0's */
  double      clock_offset_error;
  double      interval;            /* spill interval, seconds */
  double      started;             /* this rank's clock */
  double      started_wall;        /* seconds since the Unix epoch */
  const char *host;
  const char *label;
} TprofSpillHeader;

/* A COMMIT record: the flush it closes. */
typedef struct
{
  uint64_t flush;    /* 1, 2, ... */
  double   when;     /* every sample that ended before this (rank clock) is read */
  uint64_t total;    /* samples in the file so far */
} TprofSpillCommit;

/* What a read delivers, one callback per record, in file order; any may be
 * NULL. A callback returns 0 to go on, -1 to stop the read (which then
 * fails with TPROF_ERROR_CANCELLED unless the callback filled the error
 * given to the read). SAMPLES, NAMES and CLOCK records are delivered only
 * once the COMMIT closing their flush is in the file; STATE, SIGNAL and END
 * need none. Nothing is delivered twice over successive reads. */
typedef struct
{
  /* A run of samples of operation @op (see _tprof_spill_reader_name()) in
   * seconds of the rank's clock, raw ones converted; the arrays are valid
   * during the call only. */
  int (*samples) (void          *user_data,
                  uint32_t       op,
                  int32_t        thread,
                  size_t         n,
                  const double  *starts,
                  const double  *durations);
  /* Names @first .. @first + @n - 1 were defined. */
  int (*names) (void    *user_data,
                uint32_t first,
                uint32_t n);
  int (*commit) (void                   *user_data,
                 const TprofSpillCommit *commit);
  /* A STATE record's payload as written, at byte @offset of the file. */
  int (*state) (void       *user_data,
                const void *payload,
                size_t      len,
                uint64_t    offset);
  int (*signal) (void   *user_data,
                 int32_t signum,
                 double  when);
  int (*end) (void       *user_data,
              double      when,
              const char *profile_path);
} TprofSpillVisitor;

typedef enum
{
  TPROF_SPILL_TAIL_NONE,        /* the file ends with its last COMMIT's flush */
  TPROF_SPILL_TAIL_UNFINISHED,  /* an incomplete record or a flush without its
                                   COMMIT yet: normal while the rank runs */
  TPROF_SPILL_TAIL_DAMAGED,     /* bad magic, checksum or contents: what is
                                   before stays usable, nothing after is read */
} TprofSpillTail;

/* How a read ended. */
typedef struct
{
  TprofSpillTail tail;
  uint64_t       offset;       /* end of the last COMMIT read (the next read starts there) */
  uint64_t       tail_offset;  /* UNFINISHED: start of the unread bytes; DAMAGED: the bad record */
  uint64_t       size;         /* the file's size when read */
  uint64_t       flushes;      /* flushes this read delivered */
  uint64_t       samples;      /* samples this read delivered */
  char           problem[256]; /* DAMAGED: what is wrong, without the file name */
} TprofSpillReadStatus;

typedef struct _TprofSpillReader TprofSpillReader;

/* Opens @path and reads its HEADER. NULL, with @error naming the file and
 * the byte offset of what is wrong, when the file cannot be read, is not a
 * spill file, is of an unknown spill version (TPROF_ERROR_VERSION) or has
 * no complete HEADER yet. */
TPROF_EXPORT TprofSpillReader *_tprof_spill_reader_open (const char *path,
                                                         TprofError *error);
TPROF_EXPORT void _tprof_spill_reader_close (TprofSpillReader *reader);

TPROF_EXPORT const char *_tprof_spill_reader_path (const TprofSpillReader *reader);
TPROF_EXPORT const TprofSpillHeader *_tprof_spill_reader_header (const TprofSpillReader *reader);

/* Reads what was appended since the last read (the whole file the first
 * time), delivering it to @visitor. 0 with @status filled (a damaged tail
 * is not a failure), or -1 with @error set (I/O, memory, a callback). */
TPROF_EXPORT int _tprof_spill_reader_read (TprofSpillReader        *reader,
                                           const TprofSpillVisitor *visitor,
                                           void                    *user_data,
                                           TprofSpillReadStatus    *status,
                                           TprofError              *error);

/* Where a read puts each SAMPLES record's samples, for a caller that keeps
 * them in arrays of its own (the merge). place() gives room for @n starts
 * and @n durations; the file's bytes are read there, checksummed, converted
 * to seconds and checked in place, then placed() tells they are right. A
 * callback returns 0 to go on, -1 to stop (as a visitor's). */
typedef struct
{
  int (*place) (void     *user_data,
                uint32_t  op,
                int32_t   thread,
                size_t    n,
                double  **starts,
                double  **durations);
  int (*placed) (void         *user_data,
                 uint32_t      op,
                 int32_t       thread,
                 size_t        n,
                 const double *starts,
                 const double *durations);
} TprofSpillPlacer;

/* A read like _tprof_spill_reader_read(), without copy: the samples go from
 * the file into the memory @placer gives (@visitor's samples() is not
 * called). Unlike read(), names() and placed() come as their records are
 * read, before the COMMIT of their flush: the caller takes what came since
 * the last commit() at the next one, and drops it when the read ends first
 * (a flush left unfinished or damaged, status->tail). */
TPROF_EXPORT int _tprof_spill_reader_read_placed (TprofSpillReader        *reader,
                                                  const TprofSpillVisitor *visitor,
                                                  const TprofSpillPlacer  *placer,
                                                  void                    *user_data,
                                                  TprofSpillReadStatus    *status,
                                                  TprofError              *error);

/* What a count found: the samples per name id, the names defined. */
typedef struct
{
  const uint64_t *op_samples;  /* samples per name id, n_names entries */
  const bool     *op_threads;  /* whether one of them has a thread other than 0 */
  const uint64_t *op_committed;  /* the samples per name id of the committed flushes alone */
  uint32_t        n_names;
  uint64_t        samples;
  uint64_t        committed;   /* the samples of the committed flushes */
} TprofSpillCounted;

/* What the file holds from where the next read starts, without reading
 * the samples nor checking them (the read does): the samples per name id
 * of every SAMPLES record (committed or not) and of those of the flushes
 * a COMMIT closes, the names defined. A placed read that follows takes
 * exactly the committed ones unless it finds a record damaged (or the
 * file grew meanwhile). For a caller that sizes its arrays before a placed read
 * (the merge); NULL with @error set (I/O, memory). What it points to is
 * valid until the next call on @reader. */
TPROF_EXPORT const TprofSpillCounted *_tprof_spill_reader_count (TprofSpillReader *reader,
                                                                 TprofError       *error);

/* The operation names defined so far (by the committed flushes read, or
 * by the records a count or a placed read walked). */
TPROF_EXPORT uint32_t _tprof_spill_reader_n_names (const TprofSpillReader *reader);
/* NULL when @op is not defined (yet). */
TPROF_EXPORT const char *_tprof_spill_reader_name (const TprofSpillReader *reader,
                                                   uint32_t                op);
/* The last COMMIT delivered; NULL before the first. */
TPROF_EXPORT const TprofSpillCommit *_tprof_spill_reader_last_commit (const TprofSpillReader *reader);

/* ---- the files of one job in a directory ---- */

/* A job in a directory: its token (16 hex digits) and how many files. */
typedef struct
{
  char   token[17];
  size_t n_files;
} TprofSpillDirJob;

/* The jobs whose spill files are in @dir, by token, ascending, in a new
 * array *@jobs (free()); their number, or -1 with @error set when @dir
 * cannot be read. 0: no spill file at all. */
TPROF_EXPORT ssize_t _tprof_spill_dir_jobs (const char        *dir,
                                            TprofSpillDirJob **jobs,
                                            TprofError        *error);

/* A file of the job that was not used, and why (message without the path). */
typedef struct
{
  char *path;
  int   rank;        /* from the file name */
  char *problem;
} TprofSpillRefused;

typedef struct
{
  char               token[17];
  int                world_size;   /* agreed by the headers; 0 when none is readable */
  TprofSpillReader **readers;      /* world_size entries, NULL where no usable file */
  size_t             n_readers;
  TprofSpillRefused *refused;      /* files named but unusable */
  size_t             n_refused;
} TprofSpillJob;

/* Opens the files of job @token in @dir (NULL: the only job there). Fails
 * (NULL, @error set) when @dir cannot be read, holds no spill file, holds
 * several jobs and @token is NULL, or holds none named @token. Files whose
 * header contradicts their name or the other files (world size, token,
 * rank), or cannot be read, are in refused[]; a job none of whose files is
 * usable is returned too, with world_size 0. */
TPROF_EXPORT TprofSpillJob *_tprof_spill_job_open (const char *dir,
                                                   const char *token,
                                                   TprofError *error);
TPROF_EXPORT void _tprof_spill_job_free (TprofSpillJob *job);

/* The profile named by the note a job's clean end left in @dir
 * (tprof-JOB.ended, docs/spill-format.md), in a new string, its job in
 * @found_token; NULL when there is none, it cannot be read, or @token is
 * NULL and several jobs left one. */
TPROF_EXPORT char *_tprof_spill_dir_ended (const char *dir,
                                           const char *token,
                                           char        found_token[17]);

TPROF_END_DECLS
