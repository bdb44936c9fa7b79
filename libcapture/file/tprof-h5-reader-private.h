/* tprof-h5-reader-private.h — the lazy reader of profile files (TprofProfileFile): what its files share. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <hdf5.h>

#include "tprof/tprof-error.h"
#include "tprof/tprof-profile-file.h"
#include "tprof-analysis-internal.h"
#include "tprof-h5-internal.h"
#include "tprof-profiled-time-internal.h"

/* The sample columns format 3 reads on demand: TPROF_COL_TIMES and the
 * two after it. */
#define TPROF_N_SAMPLE_DSETS 3

/* The newest format_version this reader understands (docs/file-format.md). */
#define TPROF_H5_READER_MAX_VERSION TPROF_FORMAT_VERSION

#define TPROF_PROFILE_FILE_NOT_FOUND ((size_t) -1)

/* The sign and exponent bits of @v, plus 1: at most 0x7ff exactly when
 * @v is finite and >= 0 (or -0.0, which only the checks one by one tell
 * from a negative value), 0x800 for an infinity or NaN, more with the
 * sign set. ORed over values, it says at once whether all are. */
static inline uint64_t
_tprof_h5_value_head (double v)
{
  uint64_t u;

  memcpy (&u, &v, sizeof u);
  return (u >> 52) + 1;
}

/* The statistics attributes of an operation group, after `count`. */
typedef enum
{
  TPROF_CACHE_SUM,
  TPROF_CACHE_MEAN,
  TPROF_CACHE_STD,
  TPROF_CACHE_MIN,
  TPROF_CACHE_MAX,
  TPROF_CACHE_MEDIAN,
  TPROF_CACHE_P95,
  TPROF_CACHE_P99,
  TPROF_CACHE_N_FLOATS
} TprofCacheFloat;

/* The members of section 2b an operation group holds, each checked at
 * open; any may be absent (NULL, or its bit clear). */
typedef struct
{
  bool     has_count;
  int64_t  count;
  unsigned floats_present;        /* bit i: TprofCacheFloat i */
  double   floats[TPROF_CACHE_N_FLOATS];
  int64_t *rank_count;            /* world_size each */
  int64_t *rank_recorded;
  double  *rank_sum;
  double  *rank_min;
  double  *rank_max;
  bool     borrowed;              /* the arrays lie in the file's cache_block */
} TprofOperationCache;

/* One operation of the file. Format 3's load sets each field of it and
 * of its cache one by one, not zeroed first (columns_make_operations()
 * and columns_fill_cache()): a field added here is set there too. */
typedef struct
{
  char                *name;
  char                *link_name;    /* under /timings (formats 1 and 2) */
  uint64_t             n;            /* samples stored */
  /* format 3: the first row of the sample columns, and the operation's
   * segments [seg_first, seg_end) */
  uint64_t             row;
  int64_t              seg_first;
  int64_t              seg_end;
  TprofOperationCache  cache;
} TprofH5Operation;

/* An operation's statistics: filled from a complete cache at open, or
 * computed from the samples. In a table of their own beside the
 * operations' (TprofProfileFile's op_stats), which a load, asking for
 * none, does not have: the operations' table it fills is half as
 * large (184 bytes an operation, not 392). */
typedef struct
{
  bool                 stats_ready;
  bool                 cached;          /* the stats come from the cache */
  TprofOperationStats  stats;
  int64_t             *computed_count;  /* world_size each, when computed */
  int64_t             *computed_recorded;  /* from the isolated reader's helper */
  double              *computed_sum;
  double              *computed_min;
  double              *computed_max;
  bool                 computed_borrowed;  /* the computed arrays lie in the file's cache_block */
} TprofH5OperationStats;

/* How a TprofProfileFile reads what its open left: in process, with
 * HDF5 here (tprof-profile-file-read.c), or through the isolated reader's
 * helper (tprof-reader-source.c). Arguments are checked before. */
typedef struct
{
  /* @op's samples on @ranks (sorted, distinct, in range; NULL: all),
   * checked, with what the ranks recorded attached */
  TprofGatheredTime         *(*read)  (TprofProfileFile   *pf,
                                       size_t              op,
                                       const int32_t      *ranks,
                                       size_t              n_ranks,
                                       TprofProgressFunc   progress,
                                       void               *user_data,
                                       const volatile int *cancel,
                                       TprofError         *error);
  /* @op's statistics, where the open did not find them cached */
  const TprofOperationStats *(*stats) (TprofProfileFile *pf,
                                       size_t            op,
                                       TprofError       *error);
  /* lets go of what the source holds (not @pf itself) */
  void                       (*close) (TprofProfileFile *pf);
  /* format 3 (tprof-columns-batches.c): rows [@row, @row + @count) of
   * the sample columns into @times, @starts and @threads (NULL where the
   * file has none, or they are not asked for), native and unchecked,
   * with the caches of operations [@first_op, @end_op) ready to check
   * them against. With neither
   * operations nor rows it only says whether it can. 1 when it cannot (the caller reads an
   * operation at a time), 0, or -1 with @error. */
  int                        (*read_rows) (TprofProfileFile *pf,
                                           size_t            first_op,
                                           size_t            end_op,
                                           uint64_t          row,
                                           uint64_t          count,
                                           double           *times,
                                           double           *starts,
                                           int32_t          *threads,
                                           TprofError       *error);
  /* format 3: sample column @c's stored checksum, in *@crc, when the
   * values read_rows() gives are its bytes as stored: 1, 0 when it has
   * none or they are not, -1 with @error. */
  int                        (*column_crc) (TprofProfileFile *pf,
                                            int               c,
                                            uint32_t         *crc,
                                            TprofError       *error);
} TprofProfileSource;

extern const TprofProfileSource _tprof_profile_file_in_process;
extern const TprofProfileSource _tprof_reader_source;

/* @op's statistics from every sample, read once through @file's source:
 * the in-process source's stats(), and the isolated one's for what its
 * client reads itself. */
const TprofOperationStats *_tprof_profile_file_stats_from_samples (TprofProfileFile *file,
                                                                   size_t            op,
                                                                   TprofError       *error);

struct _TprofProfileFile
{
  const TprofProfileSource *source;
  char             *path;
  hid_t             file;
  int               fd;              /* under @file, for pread(); -1 if none */
  int               format_version;
  int               world_size;
  char             *created;
  char             *producer;
  char             *clock;
  char             *timeline_origin;
  char            **hostnames;       /* world_size entries, or NULL */
  double           *clock_offsets;        /* world_size entries, or NULL */
  double           *clock_offset_errors;  /* world_size entries, or NULL */
  double           *data_until;           /* world_size entries (NaN: no data), or NULL */
  TprofH5Operation *ops;
  size_t            n_ops;
  /* each operation's statistics, beside ops (zeroed: none ready); NULL
   * where opened to be loaded whole (defer_cache) */
  TprofH5OperationStats *op_stats;
  /* the operations ops and op_stats were allocated for, for their
   * release, by _tprof_malloc_array_paged(); 0: by calloc() */
  size_t            ops_room;
  /* the operations by name (tprof-name-index.c): a hash table of
   * name_mask + 1 slots, each 0 or an operation's index + 1 */
  size_t           *name_slots;
  size_t            name_mask;
  uint64_t          name_seed;
  /* format 3 (tprof-columns-reader.c): the segments, read at open */
  size_t            n_segments;
  int32_t          *seg_rank;
  int64_t          *seg_offset;       /* n_segments + 1 */
  void             *cache_block;      /* every operation's per-rank cache arrays */
  /* every operation's name, where format 3's were read in one block
   * (tprof-columns-names.c): no name is then freed alone. The block is
   * the file's until a load hands it to the profile (NULL then) */
  char             *names_block;
  bool              names_in_block;
  uint64_t          n_samples;
  bool              has_starts;
  bool              has_threads;
  /* samples/times, starts and threads, open from their first read to
   * the close (tprof-columns-reader.c), 0 until then or where absent */
  hid_t             sample_dset[TPROF_N_SAMPLE_DSETS];
  /* format 3's numeric columns as the open's check of the global heaps
   * opened them (to skip their bytes), taken by the columns' reader
   * instead of opening each again; 0 where none is left */
  hid_t             opened_columns[TPROF_N_COLUMNS];
  /* opened to be loaded whole (_tprof_profile_file_open_for_load): format
   * 3's caches are checked in the pass that checks each operation's
   * samples against its cache (tprof-columns-check.c), not at open, and
   * no operation's statistics are filled from them */
  bool              defer_cache;
  /* opened isolated: the helper process that reads for this handle
   * (tprof-reader-client.c); @file is then -1 */
  struct _TprofReaderClient *remote;
};

/* The statistics of operation @op of @pf (not opened to be loaded). */
static inline TprofH5OperationStats *
_tprof_h5_operation_stats (const TprofProfileFile *pf,
                           const TprofH5Operation *op)
{
  return &pf->op_stats[op - pf->ops];
}

/* HDF5 1.10 trusts the sizes inside the global heap collections that hold
 * variable-length strings: damaged ones make it loop forever or copy out of
 * bounds. Checks every collection of @path (open as @file) before HDF5 reads
 * any. Format 3's numeric columns, opened to skip their data, are left
 * open in @opened (TPROF_N_COLUMNS ids, 0 where not opened; NULL: closed)
 * for the caller to read. Returns 0, or -1 with @error set. */
int _tprof_h5_check_global_heaps (const char *path,
                                  hid_t       file,
                                  hid_t      *opened,
                                  TprofError *error);
/* The same on the open descriptor @fd of @path. Where @file is -1 (no
 * HDF5 call at all: safe beside HDF5 in another thread) the whole file is
 * scanned, sample data included. Stops early, returning 0, once *@stop
 * (NULL: never) becomes true. */
int _tprof_h5_scan_global_heaps (const char         *path,
                                 int                 fd,
                                 hid_t               file,
                                 hid_t              *opened,
                                 const volatile int *stop,
                                 TprofError         *error);

/* --- the root group and /ranks (tprof-h5-root.c); 0 or -1 with @error set --- */

int _tprof_h5_read_root (TprofProfileFile *pf,
                         TprofError       *error);
/* /ranks/clock_offset and clock_offset_error, where present. */
int _tprof_h5_read_clock_offsets (TprofProfileFile *pf,
                                  TprofError       *error);
int _tprof_h5_read_hostnames (TprofProfileFile *pf,
                              TprofError       *error);

/* --- /timings (tprof-h5-timings.c) --- */

/* Lists the operations in creation order (name order where untracked) and
 * reads each one's name, sample count and cache. 0 or -1 with @error set. */
int _tprof_h5_read_operations (TprofProfileFile *pf,
                               TprofError       *error);
/* Indexes the operations by name (tprof-name-index.c) and refuses a
 * name given twice, naming the first operation, in file order, that
 * repeats an earlier one. 0 or -1. */
int _tprof_h5_index_names (TprofProfileFile *pf,
                           TprofError       *error);
/* The same of the @n operations named @names (format 3), before their
 * records are made; it reads nothing else of @pf but its path, and
 * writes only its index. */
int _tprof_h5_index_names_of (TprofProfileFile  *pf,
                              const char *const *names,
                              size_t             n,
                              TprofError        *error);
/* The operation named @name, or TPROF_PROFILE_FILE_NOT_FOUND. */
size_t _tprof_h5_find_name (const TprofProfileFile *pf,
                            const char             *name);
/* Opens the group of operation @op, or -1 with @error set. */
hid_t _tprof_h5_open_operation (TprofProfileFile *pf,
                                size_t            op,
                                TprofError       *error);

/* --- format 3's columns (tprof-columns-reader.c) --- */

/* Reads and checks the tables (operations, segments) and the sample
 * columns' shapes, filling pf->ops and their caches. 0, or -1 with @error
 * naming the member and the index. */
int _tprof_columns_read (TprofProfileFile *pf,
                         TprofError       *error);
/* The @n names of format 3's /operations/name (open as @dset) read
 * straight from the file (tprof-columns-names.c): the heap ids with one
 * pread(), each global heap collection they point into with one more,
 * every name copied out of them into one malloc'd block, *@block, that
 * (*@names)[i] points into (not checked as UTF-8; the array is the
 * caller's to free, the names lie in the block). 1 with *@names and
 * *@block set, 0 when the column is not a contiguous,
 * unfiltered column of variable-length strings in a file read through
 * its descriptor (HDF5 reads it then), -1 with @error naming the row
 * whose heap object is missing or damaged. */
int _tprof_columns_read_names (const TprofProfileFile *pf,
                               hid_t                   dset,
                               size_t                  n,
                               char                 ***names,
                               char                  **block,
                               TprofError             *error);
/* Sets the error for column @path whose checksum is not @stored. -1. */
int _tprof_columns_crc_error (const TprofProfileFile *pf,
                              const char             *path,
                              uint32_t                stored,
                              uint32_t                computed,
                              TprofError             *error);
/* The first value of rows [@row, @row + @n) of the sample columns that
 * breaks its rule (@starts and @threads NULL where absent), named by its
 * row. 0, or -1 with @error. */
int _tprof_columns_check_rows (const TprofProfileFile *pf,
                               uint64_t                row,
                               uint64_t                n,
                               const double           *times,
                               const double           *starts,
                               const int32_t          *threads,
                               TprofError             *error);
/* The in-process source's read_rows() and column_crc() (HDF5 here). */
int _tprof_columns_read_rows (TprofProfileFile *pf,
                              size_t            first_op,
                              size_t            end_op,
                              uint64_t          row,
                              uint64_t          count,
                              double           *times,
                              double           *starts,
                              int32_t          *threads,
                              TprofError       *error);
int _tprof_columns_stored_crc (TprofProfileFile *pf,
                               int               c,
                               uint32_t         *crc,
                               TprofError       *error);
/* Called by _tprof_profile_file_read_views() with operation @op's rows,
 * checked, as a view the callback takes (releases, also when it returns
 * false, which stops the read). */
typedef bool (*TprofProfileFileViewFunc) (size_t                   op,
                                          const TprofProfiledView *rows,
                                          void                    *user_data,
                                          TprofError              *error);
/* As tprof_profile_file_read_all() of every rank, but an operation whose
 * rows a file of format 3 gives as they are (all it recorded) goes to
 * @view_func as a view of the block read, with no selection made: a
 * whole-profile load makes none it is not asked for. The others, and
 * every operation of older files, go to @func. 0, or -1 with @error.
 * Both may be called for a block's operations while another thread
 * still checks them against their caches (a refusal then fails the read
 * after them): they must not write the file's operations, which that
 * thread reads. */
int _tprof_profile_file_read_views (TprofProfileFile         *pf,
                                    TprofProfileFileReadFunc  func,
                                    TprofProfileFileViewFunc  view_func,
                                    void                     *user_data,
                                    TprofError               *error);
/* tprof_profile_file_open() for a load of every operation by
 * _tprof_profile_file_read_views(): see TprofProfileFile's defer_cache.
 * Nothing else may be asked of the file but its metadata. */
TprofProfileFile *_tprof_profile_file_open_for_load (const char *path,
                                                     TprofError *error);
/* Closes the sample columns the reads left open, and any column the
 * heaps' check opened that the open did not read: before the file. */
void _tprof_columns_close (TprofProfileFile *pf);
/* Closes the columns the heaps' check opened that are left. */
void _tprof_columns_close_opened (TprofProfileFile *pf);
/* The segment of rank @r in operation @op, or -1. */
int64_t _tprof_columns_segment_of (const TprofProfileFile *pf,
                                   const TprofH5Operation *op,
                                   int                     r);
/* Checks the checksum attribute of dataset @dset (column @path), if it
 * has one, against the CRC-32C of the @size bytes at @bytes (the values
 * as stored). 0, or -1 with @error. */
int _tprof_columns_check_crc (const TprofProfileFile *pf,
                              hid_t                   dset,
                              const char             *path,
                              const void             *bytes,
                              size_t                  size,
                              TprofError             *error);

/* --- checked 1-D datasets (tprof-h5-dataset.c) --- */

/* Opens dataset @name of operation @op (open as @group) and checks it is
 * 1-D with values of class @klass; stores its length in *@n. Returns the
 * dataset, or -1 with @error set. */
hid_t _tprof_h5_open_dataset_1d (const TprofProfileFile *pf,
                                 hid_t                   group,
                                 const char             *op,
                                 const char             *name,
                                 H5T_class_t             klass,
                                 hsize_t                *n,
                                 TprofError             *error);

/* Like _tprof_h5_open_dataset_1d() for a member that must hold exactly @n
 * values, read whole as @mem_type into @data. Returns 1, 0 when absent,
 * -1 with @error set. */
int _tprof_h5_read_member (const TprofProfileFile *pf,
                           hid_t                   group,
                           const char             *op,
                           const char             *name,
                           H5T_class_t             klass,
                           hid_t                   mem_type,
                           hsize_t                 n,
                           void                   *data,
                           TprofError             *error);

/* Reads values [@start, @start + @count) of @dset as @mem_type into @data. */
bool _tprof_h5_read_range (hid_t   dset,
                           hid_t   mem_type,
                           hsize_t start,
                           hsize_t count,
                           void   *data);

/* true, with the file offset of the first value in *@offset, when @dset
 * holds its @n values as one contiguous run of @native_type in the file,
 * so that pread() can fill an array with them. */
bool _tprof_h5_direct_offset (hid_t   dset,
                              hid_t   native_type,
                              size_t  n,
                              size_t  elem_size,
                              off_t  *offset);

/* The descriptor under HDF5's file @file (the default driver's), or -1. */
int _tprof_h5_file_descriptor (hid_t file);

/* "integer", "floating point", ... for messages. */
const char *_tprof_h5_class_name (H5T_class_t klass);

/* --- the cached statistics of formats 2 and 3 (tprof-operation-cache.c) --- */

/* Checks the cache that @op holds (read from the file's columns) and,
 * complete, fills op's stats. 0 or -1. */
int _tprof_operation_cache_accept (TprofProfileFile *pf,
                                   TprofH5Operation *op,
                                   TprofError       *error);
/* The checks of _tprof_operation_cache_accept() alone: the cache valid,
 * the operation's statistics left unfilled. 0 or -1. */
int _tprof_operation_cache_validate (const TprofProfileFile *pf,
                                     const TprofH5Operation *op,
                                     TprofError             *error);

/* Reads and checks the members of section 2b that group @group of
 * operation @op holds; with a complete cache, fills op's stats. 0 or -1. */
int _tprof_operation_cache_read (TprofProfileFile *pf,
                                 TprofH5Operation *op,
                                 hid_t             group,
                                 TprofError       *error);
void _tprof_operation_cache_clear (TprofOperationCache *cache);

/* Checks the cache of @op against @gt, its samples on @ranks (sorted,
 * distinct; NULL: every rank, then the whole-operation statistics too).
 * 0, or -1 with @error saying what differs. */
int _tprof_operation_cache_check (const TprofProfileFile  *pf,
                                  const TprofH5Operation  *op,
                                  const TprofGatheredTime *gt,
                                  const int32_t           *ranks,
                                  size_t                   n_ranks,
                                  TprofError              *error);
/* Rank @r's samples (@got: count 0 when none) against @op's cache: the
 * count exactly; sum and extremes where the rank stores all it recorded,
 * or within the cached extremes where it stores a subset. 0 or -1. */
int _tprof_operation_cache_check_rank (const TprofProfileFile *pf,
                                       const TprofH5Operation *op,
                                       int                     r,
                                       const TprofPartSums    *got,
                                       TprofError             *error);
/* The count and eight statistics of all @op's samples (@got) against its
 * cache. 0 or -1. */
int _tprof_operation_cache_check_figures (const TprofProfileFile  *pf,
                                          const TprofH5Operation  *op,
                                          const TprofBatchSummary *got,
                                          TprofError              *error);
/* Whether some rank of @op stores a subset of what it recorded: its
 * statistics then cover samples the file lacks. */
bool _tprof_operation_cache_sampled (const TprofProfileFile *pf,
                                     const TprofH5Operation *op);
/* Operations [@first, @end), whose samples are @times end to end, against
 * their caches in one pass (tprof-columns-check.c): what
 * _tprof_operation_cache_check() checks of each, every rank. 0 or -1. */
int _tprof_columns_check_block (const TprofProfileFile *pf,
                                size_t                  first,
                                size_t                  end,
                                const double           *times,
                                TprofError             *error);
/* How many operations from @first on (before @end; one at least) the
 * check of a block takes in one round: a function of @first alone, so
 * that rounds taken one by one, in any order or on any thread, are the
 * very rounds of a check in one piece. */
size_t _tprof_columns_check_round_size (const TprofProfileFile *pf,
                                        size_t                  first,
                                        size_t                  end);
/* The scratch of rounds of a check, used again from round to round: one
 * per thread. NULL when memory is exhausted (the round then says so). */
typedef struct _TprofColumnsCheckRound TprofColumnsCheckRound;
TprofColumnsCheckRound *_tprof_columns_check_round_new (void);
void _tprof_columns_check_round_free (TprofColumnsCheckRound *round);
/* The round of the @n operations from @first on (@n as counted above),
 * whose rows are @times end to end, as _tprof_columns_check_block()
 * checks it: 0 or -1. */
int _tprof_columns_check_round (TprofColumnsCheckRound *round,
                                const TprofProfileFile *pf,
                                size_t                  first,
                                size_t                  n,
                                const double           *times,
                                TprofError             *error);

/* A second thread for a load's work (tprof-columns-thread.c): one kept
 * for the process, which runs a job at a time. */
typedef struct
{
  void (*run) (void *data);
  void  *data;
  int    state;  /* accessed atomically */
} TprofColumnsJob;

/* Hands run (@data) to the thread, on a processor other than the
 * caller's, where the process may run on two and one is free at the
 * moment, and the thread has no other job: true when handed (then
 * awaited by _tprof_columns_job_finish()); false, the caller does it. */
bool _tprof_columns_job_start (TprofColumnsJob *job,
                               void           (*run) (void *data),
                               void            *data);
/* Until @job is done: run here where the thread has not taken it yet
 * (its processor busy since), else polled a while, then waited for. */
void _tprof_columns_job_finish (TprofColumnsJob *job);
/* Until *@flag (accessed atomically) is true: polled a while, then
 * asleep on @changed, which whoever sets it under @lock signals. */
void _tprof_columns_thread_wait_flag (const bool      *flag,
                                      pthread_mutex_t *lock,
                                      pthread_cond_t  *changed);

/* A block's check against the caches shared with a second thread
 * (tprof-columns-check-share.c): the caller and the thread take its
 * rounds in turn, in order, and the refusal kept is that of the lowest
 * round refused, as a check in one piece would give it. */
typedef struct
{
  TprofColumnsCheckRound *round;
  size_t                  refused;  /* the first operation of the round refused; SIZE_MAX if none */
  TprofError              error;
} TprofColumnsCheckHand;

typedef struct
{
  const TprofProfileFile *pf;
  const double           *times;
  size_t                  end;
  pthread_mutex_t         lock;
  pthread_cond_t          rows_read; /* signalled when ready is set */
  size_t                  next;      /* the next round to take, and its row */
  uint64_t                next_row;
  bool                    stop;      /* a round refused: take no more */
  bool                    ready;     /* the rows are read (atomic) */
  TprofColumnsJob         job;       /* the thread's part */
  TprofColumnsCheckHand   hands[2];  /* the caller's, the thread's */
} TprofColumnsCheckShare;

/* Starts a thread that checks operations [@first, @end), whose rows are
 * @times end to end, round by round, where the block is large enough to
 * pay for a thread and the process may run on a second processor, free
 * at the moment: true when it started; the caller then must call
 * _tprof_columns_check_share_rows_read() and
 * _tprof_columns_check_share_finish(). Started before the rows are read,
 * so that the thread is running when they are. */
bool _tprof_columns_check_share_start (TprofColumnsCheckShare *share,
                                       const TprofProfileFile *pf,
                                       size_t                  first,
                                       size_t                  end,
                                       const double           *times);
/* Lets the thread begin on the rows' times, read when @read (else it
 * stops): the other columns may still be being read. */
void _tprof_columns_check_share_rows_read (TprofColumnsCheckShare *share,
                                           bool                    read);
/* Takes the rounds left with the thread where @result (the caller's
 * checks before these, such as the values') is 0, waits for the thread,
 * and gives @result when -1, else the block's: 0, or -1 with the
 * lowest refused round's refusal in @error. */
int _tprof_columns_check_share_finish (TprofColumnsCheckShare *share,
                                       int                     result,
                                       TprofError             *error);

/* Sampled capture: attaches to @gt (@op's samples on @ranks, as above)
 * what each of those ranks recorded, from the cache; nothing when @op was
 * not sampled. false when memory is exhausted. */
bool _tprof_operation_cache_attach_recorded (const TprofProfileFile *pf,
                                             const TprofH5Operation *op,
                                             TprofGatheredTime      *gt,
                                             const int32_t          *ranks,
                                             size_t                  n_ranks);

/* --- reading samples (tprof-h5-samples.c) --- */

/* Reads and checks the samples of @op on @ranks (sorted, distinct, in
 * range; NULL: all), in file order. NULL with @error set. */
TprofGatheredTime *_tprof_h5_read_samples (TprofProfileFile   *pf,
                                           size_t              op,
                                           const int32_t      *ranks,
                                           size_t              n_ranks,
                                           TprofProgressFunc   progress,
                                           void               *user_data,
                                           const volatile int *cancel,
                                           TprofError         *error);

/* --- the runs of samples a read covers (tprof-h5-samples.c; no HDF5) --- */

/* File indices [start, start + count) whose samples all belong to @rank
 * (-1: any rank). */
typedef struct
{
  uint64_t start;
  uint64_t count;
  int32_t  rank;
} TprofH5Run;

/* Where an operation's samples come from: HDF5 in process
 * (tprof-h5-samples.c) or the file itself in the isolated reader's client
 * (tprof-reader-samples.c). */
typedef struct
{
  TprofProfileFile   *pf;
  const char         *op;
  uint64_t            n;       /* the operation's samples */
  TprofProgressFunc   progress;
  void               *user_data;
  const volatile int *cancel;
  TprofError         *error;
  void               *source;
  /* fills and checks samples [@start, @start + @count) of the operation
   * into @times and @ranks: 0, or -1 with the error */
  int  (*read_block)    (void *source, uint64_t start, uint64_t count, double *times, int32_t *ranks);
  /* allocates and checks the starts and threads at @runs (NULL where the
   * file has none): 0, or -1 with the error */
  int  (*read_timeline) (void *source, const TprofH5Run *runs, size_t n_runs, size_t n, double **starts,
                         int32_t **threads);
  /* NULL, or called with true before the progress callback runs and with
   * false after (the in-process source lets go of HDF5's lock meanwhile) */
  void (*unlock)        (void *source, bool unlocked);
  /* progress: samples read of those planned */
  uint64_t            done;
  uint64_t            total;
} TprofH5Reading;

/* The samples of @op's ranks @ranks (NULL: all) into a new selection: the
 * ranks' runs where the cached counts place them, else everything read
 * and filtered (tprof-h5-sample-plan.c). NULL with r->error set. */
TprofGatheredTime *_tprof_h5_read_planned (TprofH5Reading         *r,
                                           const TprofH5Operation *op,
                                           const int32_t          *ranks,
                                           size_t                  n_ranks);

/* With the cached per-rank counts: one run per selected rank (@ranks
 * sorted, distinct) with samples, where a file grouped by ascending rank
 * stores it; their total in *@total. NULL (and *@n_runs 0) when the
 * counts are unknown. */
TprofH5Run *_tprof_h5_plan_runs (const TprofProfileFile *pf,
                                 const TprofH5Operation *op,
                                 const int32_t          *ranks,
                                 size_t                  n_ranks,
                                 size_t                 *n_runs,
                                 uint64_t               *total);
/* Format 3 stores no rank per sample: fills @ranks with those of samples
 * [@start, @start + @count) of an operation whose @counts (world_size)
 * say how many each rank stores, in rank order; -1 past their total. */
void _tprof_h5_ranks_from_counts (const int64_t *counts,
                                  int            world_size,
                                  uint64_t       start,
                                  uint64_t       count,
                                  int32_t       *ranks);
/* Sets the error for format 3's invalid time at @row of samples/times
 * (operation @op). Returns -1. */
int _tprof_h5_report_invalid_row (const TprofProfileFile *pf,
                                  const char             *op,
                                  double                  time,
                                  uint64_t                row,
                                  TprofError             *error);
/* true when all @n of @ranks are @rank. */
bool _tprof_h5_all_of_rank (const int32_t *ranks,
                            uint64_t       n,
                            int32_t        rank);
/* Keeps, in order, the samples of the ranks marked in @keep (with their
 * starts and threads where not NULL); their count. */
size_t _tprof_h5_keep_ranks (double        *times,
                             int32_t       *ranks,
                             double        *starts,
                             int32_t       *threads,
                             size_t         n,
                             const uint8_t *keep);
/* The file index of the @i-th value read from @runs. */
uint64_t _tprof_h5_file_index (const TprofH5Run *runs,
                               size_t            i);
/* Checks the @n starts (finite) and threads (>= 0) read from @runs, each
 * NULL when absent; format 3 names the row, @row plus the index read.
 * 0, or -1 with @error naming the file index. */
int _tprof_h5_check_timeline (const TprofProfileFile *pf,
                              const char             *op,
                              uint64_t                row,
                              const TprofH5Run       *runs,
                              const double           *starts,
                              const int32_t          *threads,
                              size_t                  n,
                              TprofError             *error);

/* --- filling arrays fast: tprof-h5-sample-check.c, -sample-fill.c (large
 * arrays come from _tprof_malloc_array(), on huge pages) --- */

/* Sets the error for invalid sample @i of operation @op, from its time
 * and its rank as stored (@rank_text). Returns -1. */
int _tprof_h5_report_invalid (const TprofProfileFile *pf,
                              const char             *op,
                              double                  time,
                              const char             *rank_text,
                              size_t                  i,
                              TprofError             *error);

/* How a dataset stores its values in the file, for reads without HDF5:
 * IEEE floats of 4 or 8 bytes, two's-complement integers of 1, 2, 4 or 8,
 * either byte order. All zero: as memory holds the array it fills (a
 * double, an int32_t). */
typedef enum
{
  TPROF_H5_RAW_NATIVE = 0,
  TPROF_H5_RAW_FLOAT,
  TPROF_H5_RAW_SIGNED,
  TPROF_H5_RAW_UNSIGNED,
} TprofH5RawKind;

typedef struct
{
  uint8_t kind;        /* TprofH5RawKind */
  uint8_t size;        /* bytes a value */
  bool    big_endian;
} TprofH5RawType;

/* Reads exactly @bytes at @offset of @fd into @buffer: 0, an errno
 * value, or -1 when the file ends first. */
int _tprof_h5_pread_all (int    fd,
                         void  *buffer,
                         size_t bytes,
                         off_t  offset);

/* Reads @count values stored as @type at @offset of @fd into @out, as
 * doubles (@as_double: from floats) or as int32_t (from integers, clamped
 * to int32_t's range as HDF5 converts them). 0, an errno value, or -1
 * when the file ends first. Makes no HDF5 call. */
int _tprof_h5_pread_values (int            fd,
                            off_t          offset,
                            TprofH5RawType type,
                            size_t         count,
                            void          *out,
                            bool           as_double);

/* The integer stored as @type at @offset of @fd, in decimal, for messages
 * (the value before any clamping); false when it cannot be read. */
bool _tprof_h5_format_stored_integer (int            fd,
                                      off_t          offset,
                                      TprofH5RawType type,
                                      char          *text,
                                      size_t         text_size);

/* Where the arrays come from: already filled by HDF5 (offset -1), or read
 * from @fd at the offset, stored as the type says. */
typedef struct
{
  int            fd;
  off_t          times_offset;
  off_t          ranks_offset;
  TprofH5RawType times_type;
  TprofH5RawType ranks_type;
} TprofH5SampleSource;

/* Reads what @source leaves to it into @times and @ranks and checks all
 * @n samples, in blocks split over threads. Returns 0 with the first
 * invalid sample's index in *@first_invalid (@n when all are valid), or
 * when a read fails an errno value (-1: the file ends first) and the
 * array's name in *@failed_array. Makes no HDF5 call. */
int _tprof_h5_fill_samples (const TprofH5SampleSource  *source,
                            double                     *times,
                            int32_t                    *ranks,
                            size_t                      n,
                            int                         world_size,
                            size_t                     *first_invalid,
                            const char                **failed_array);
