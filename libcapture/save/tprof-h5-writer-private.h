/* tprof-h5-writer-private.h — the writer of profile files: the temporary file, HDF5's metadata, our sample bytes. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tprof-analysis-internal.h"
#include "tprof-h5-internal.h"
#include "tprof-save-shell-internal.h"
#include "tprof/tprof-gathered-time.h"

/* How a save stays safe and lean (tprof-profiled-time-save.c):
 *
 * In HDF5 1.10 a close that fails (a full disk) leaves a half-destroyed
 * file id that crashes the process at exit, so no write of HDF5's may
 * ever fail. Building the whole file in memory (the core driver) made
 * that so, at the price of a second copy of every sample. Now:
 *
 *  - the temporary file's space is reserved first (posix_fallocate, which
 *    glibc emulates where the file system cannot), before HDF5 sees it:
 *    a full disk or a file size limit fails there, with nothing to undo;
 *  - HDF5 creates the file through its descriptor (tprof-h5-fd-driver.c,
 *    which keeps the reservation where sec2 would truncate it) and writes
 *    only metadata, always inside the reservation: before it creates the columns the
 *    reservation is grown to HDF5's end of allocation plus a bound on
 *    what they can allocate, and a failure to grow it stops the save with
 *    everything HDF5 may write still inside reserved space;
 *  - the columns (docs/file-format.md) are a fixed handful of contiguous
 *    datasets, whatever the number of operations, allocated early and
 *    never filled by HDF5: we pwrite() the tables and the samples at their
 *    offsets, the samples straight from the profile's arrays, while the
 *    statistics the tables cache are computed.
 *
 * A file estimated at TPROF_SAVE_IMAGE_MAX or less is built as one image
 * in memory instead (tprof-save-image.c): the reservation is memory, so
 * HDF5's writes still cannot fail; HDF5 writes through the descriptor
 * driver into the image, we copy the columns into it, and the commit
 * writes it with one pwrite() before the fsync(). No reservation on disk,
 * no cut of its excess and no small writes of HDF5's reach the file
 * system, whose bookkeeping of each cost milliseconds; a full disk fails
 * at that one write, with nothing to undo but the unnamed file. */
/* TprofSaveFile, the temporary file: tprof-save-shell-internal.h. */

/* Room for one operation's runs, a run per rank at most: its rows and
 * what the statistics engine finds of each (tprof-cached-stats.c). */
struct _TprofCachedScratch
{
  uint64_t      *bounds;   /* world_size + 1 */
  int32_t       *ranks;    /* world_size */
  TprofPartSums *parts;    /* world_size */
  TprofBatchState *batch;  /* kept from one operation to the next */
};

/* false when memory is exhausted (nothing to clear then). */
bool _tprof_cached_scratch_init (TprofCachedScratch *scratch,
                                 int                 world_size);
void _tprof_cached_scratch_clear (TprofCachedScratch *scratch);

/* Fills @cache, whose rank_count already says how many of the values at
 * @times each rank has (stored rank after rank, ascending; the sums are
 * zero), as _tprof_cached_stats_init() would from the same samples: the
 * figures of a save whose rows are in its file before their statistics. */
bool _tprof_cached_stats_of_rows (TprofCachedStats   *cache,
                                  const double       *times,
                                  int                 world_size,
                                  TprofCachedScratch *scratch);

/* Creates a new empty temporary file beside the file @path names (after
 * following symbolic links). Refuses a target that exists and is not a
 * regular file. 0, or -1 with @error. The file has no name where the file
 * system allows (O_TMPFILE), so that a killed save leaves nothing: it is
 * named just before the rename. */
int  _tprof_save_file_create (TprofSaveFile *file,
                              const char    *path,
                              TprofError    *error);
/* The same, always named: other processes open it (the parallel save). */
int  _tprof_save_file_create_named (TprofSaveFile *file,
                                    const char    *path,
                                    TprofError    *error);
/* Makes @fapl open the temporary file through its descriptor (or its
 * image in memory); the name to give H5Fcreate() in *@name. 0, or -1. */
int  _tprof_save_file_set_driver (TprofSaveFile       *file,
                                  hid_t                fapl,
                                  const char         **name);
/* Makes @fapl open the file of descriptor @fd, whatever name H5Fopen() is
 * given (it must be one that exists: HDF5 looks at it), as sec2 would;
 * with @image (not NULL), the image in memory of that file instead.
 * 0, or -1. (tprof-h5-fd-driver.c) */
int  _tprof_h5_fd_driver_set (hid_t          fapl,
                              int            fd,
                              TprofSaveFile *image);
/* Makes sure the first @size bytes of the file have disk space (growing a
 * reservation by at least an eighth, so that it grows rarely). 0, or -1
 * with @error and the earlier reservation kept. */
int  _tprof_save_file_reserve (TprofSaveFile *file,
                               off_t          size,
                               TprofError    *error);
/* Writes all @size bytes of @data at @offset. 0, or -1 with @error. */
int  _tprof_save_file_pwrite (TprofSaveFile *file,
                              const void    *data,
                              size_t         size,
                              off_t          offset,
                              TprofError    *error);
/* Cuts the file to @size if longer (@size -1: as it is), makes it durable and renames it over
 * the target. 0, or -1 with @error (the target is then untouched). Either
 * way the temporary file is closed and gone and @file cleared. */
int  _tprof_save_file_commit (TprofSaveFile *file,
                              off_t          size,
                              TprofError    *error);
/* Closes @fd, the file a save has just replaced, on another thread: the
 * last reference to an unlinked file frees its blocks, off the save's
 * path. One such thread at a time, joined by the next call, a fork, the
 * library's unloading or the exit (tprof-save-closer.c). */
void _tprof_save_close_later (int fd);
/* Closes and removes the temporary file; @file cleared. */
void _tprof_save_file_abandon (TprofSaveFile *file);

/* The image in memory of a small file (tprof-save-image.c): one write
 * and one fsync at commit, instead of HDF5's small writes, a reservation
 * on disk and the cut of its excess, each of which costs milliseconds
 * of the file system's bookkeeping. */
/* Images up to this estimated size are built in memory (larger ones are
 * written in place: an image would double the memory a save takes). */
#define TPROF_SAVE_IMAGE_MAX ((uint64_t) 64 << 20)
/* Makes @file an image in memory, unless TPROF_SAVE_NO_IMAGE is set (for
 * the tests of the path larger files take). Call before anything is
 * written or reserved. */
void _tprof_save_image_start (TprofSaveFile *file);
/* Lets go of @file's image (kept for the next save's, where large:
 * _tprof_free_large()); NULL after. */
void _tprof_save_image_free (TprofSaveFile *file);
/* Grows the image to @size bytes at least (what lies past its end reads
 * as zeros).
 * 0, or -1 with errno. */
int  _tprof_save_image_reserve (TprofSaveFile *file,
                                size_t         size);
/* Copies @size bytes of @data to @offset, growing the image as needed.
 * 0, or -1 with errno. */
int  _tprof_save_image_write (TprofSaveFile *file,
                              const void    *data,
                              size_t         size,
                              uint64_t       offset);
/* Makes the image @end bytes long at least, what it gains zeros, and
 * returns it to be written into directly (up to @end); NULL with errno
 * when memory is exhausted (the image is then as it was). */
char *_tprof_save_image_extend (TprofSaveFile *file,
                                size_t         end);
/* The image's @size bytes at @offset, for the caller to fill, all of
 * them, before anything reads them (what lay between the image's end
 * and @offset becomes zeros); NULL with errno when memory is exhausted.
 * Valid until the image next grows. */
char *_tprof_save_image_span (TprofSaveFile *file,
                              uint64_t       offset,
                              size_t         size);
/* Copies @size bytes at @offset to @buffer: zeros past the image's end. */
void _tprof_save_image_read (const TprofSaveFile *file,
                             void                *buffer,
                             size_t               size,
                             uint64_t             offset);
/* Writes bytes [@from, @to) of the image to the file at once, bytes
 * that nothing changes any more, beside those written so (at most four
 * runs, none overlapping): the commit leaves them out, and once
 * file->image_write_through is set a later write of HDF5 there is written
 * through. One thread at a time. 0, or -1 with errno. */
int  _tprof_save_image_write_out (TprofSaveFile *file,
                                  size_t         from,
                                  size_t         to);
/* Starts the write-back of the file's bytes [@from, @to), written out
 * above, so that the commit's fsync() finds them on their way: only a
 * hint, whose failures that fsync() reports. */
void _tprof_save_image_start_write_back (TprofSaveFile *file,
                                         size_t         from,
                                         size_t         to);
/* Writes the image's first @size bytes (@size -1: all it holds) to the
 * file, but for the runs _tprof_save_image_write_out() wrote, and frees
 * it. 0, or -1 with errno. */
int  _tprof_save_image_flush (TprofSaveFile *file,
                              off_t          size);

/* A new temporary file "<@dir>/.tprof-HOST-PID-XXXXXX" (HOST: 8 hex digits
 * standing for this host), opened read-write; its malloc'd name in @path.
 * The descriptor, or -1 with errno. (tprof-save-temp.c) */
int  _tprof_save_temp_open (const char  *dir,
                            char       **path);
/* A new unnamed (O_TMPFILE) file in @dir, opened read-write, and in
 * @path a malloc'd name of the form above for it to take when linked.
 * The descriptor, or -1 where the file system or kernel has none (or
 * TPROF_SAVE_NO_TMPFILE is set, for tests). HDF5 cannot open it by
 * /proc/self/fd/N (it resolves the link, to a deleted file): it writes it
 * through _tprof_h5_fd_driver_set(). */
int  _tprof_save_temp_open_unnamed (const char  *dir,
                                    char       **path);
/* Links the unnamed file @fd in @dir as @path, or as another such name
 * written into @path when that one is taken. 0, or -1 with errno. */
int  _tprof_save_temp_link (int         fd,
                            const char *dir,
                            char       *path);
/* Removes from @dir the temporary files that saves of this user on this
 * host left when they were killed: those whose process is gone, older
 * than a minute. A small directory is swept at every save; a crowded one
 * (a listing over 32 KiB, such as /tmp) at a process's first save there
 * only, as reading it costs more than the save's own work. Failures are
 * ignored: a sweep only tidies. */
void _tprof_save_temp_sweep (const char *dir);

/* The segments of an operation of @n samples (a rank's samples each): at
 * most one per rank, at most one per sample, and one when it is empty. */
uint64_t _tprof_save_operation_segments (size_t n,
                                         int    world_size);
/* Roughly the bytes @k operations add to a file, with @segments segments,
 * @samples samples of which @timeline_samples have starts and threads:
 * their rows of every column (the format's table says their sizes) and
 * short names; UINT64_MAX when that overflows. Only the first
 * reservation uses it: every later one is grown to what HDF5 is about
 * to allocate, so an estimate that falls short costs a second
 * reservation, and one too large costs freeing the excess. */
uint64_t _tprof_save_operations_estimate (uint64_t k,
                                          uint64_t segments,
                                          uint64_t samples,
                                          uint64_t timeline_samples);

/* Reserves the file's space: what creating it takes
 * (_tprof_profile_writer_root_bound()), @operations bytes estimated for
 * the operations and the writer's margins, so that a full disk fails
 * here, before HDF5 touches the file. 0, or -1 with @error. */
int _tprof_save_start (const TprofProfiledTime *pt,
                       TprofSaveFile           *out,
                       uint64_t                 operations,
                       TprofError              *error);

/* The HDF5 side of a save (tprof-profile-writer.c, tprof-columns-writer.c). */
typedef struct
{
  const char    *path;             /* the target, for messages */
  TprofSaveFile *out;
  int            world_size;
  hid_t          file;
  hid_t          groups[TPROF_N_COLUMN_GROUPS];  /* operations, segments, samples */
  hid_t          str_type;         /* variable-length UTF-8 */
  hid_t          lcpl;             /* UTF-8 link names */
  hid_t          scalar;
  hid_t          dcpl_contiguous;  /* allocated early, never filled */
  hid_t          dcpl_compact;
  /* HDF5 gives some metadata file space only when it flushes it, at any
   * later call: a bound on that space */
  uint64_t       deferred_bound;
} TprofProfileWriter;

/* The margins of the writer's reservations (_tprof_profile_writer_reserve()):
 * what one more object, or the host names, may make HDF5 allocate on top
 * of raw data (object headers, B-tree nodes, a global heap collection);
 * what it gives file space only when it flushes; and an object header
 * per column. The first reservation (_tprof_save_start()) takes them all,
 * so that the writer's later ones seldom grow it. */
#define TPROF_H5_METADATA_BOUND ((uint64_t) 256 << 10)
#define TPROF_H5_DEFERRED_BOUND ((uint64_t) 64 << 10)
#define TPROF_H5_COLUMN_HEADERS ((uint64_t) 4096 * TPROF_N_COLUMNS)
#define TPROF_H5_WRITER_MARGIN  (TPROF_H5_METADATA_BOUND + TPROF_H5_DEFERRED_BOUND + TPROF_H5_COLUMN_HEADERS)

/* Datasets up to this size live in their object header. */
#define TPROF_H5_COMPACT_MAX 4096

/* A bound on what creating @pt's file takes: the superblock, the root
 * group and its attributes, the columns' empty groups. */
uint64_t _tprof_profile_writer_root_bound (const TprofProfiledTime *pt);

/* Has HDF5 create @out's file (its space reserved: _tprof_save_start())
 * through its descriptor, with @pt's root attributes and the columns'
 * empty groups. 0, or -1 with @error and nothing open. */
int _tprof_profile_writer_create (TprofProfileWriter      *w,
                                  const TprofProfiledTime *pt,
                                  const char              *path,
                                  TprofSaveFile           *out,
                                  TprofError              *error);

/* The same, every object HDF5 allocates at an address that is a
 * multiple of @alignment (> 1): columns whose values are read in place
 * (tprof-save-in-place.c). */
int _tprof_profile_writer_create_aligned (TprofProfileWriter      *w,
                                          const TprofProfiledTime *pt,
                                          const char              *path,
                                          TprofSaveFile           *out,
                                          size_t                   alignment,
                                          TprofError              *error);

/* Grows the reservation to HDF5's end of allocation plus @upcoming bytes:
 * call before anything that may allocate up to @upcoming bytes. */
int _tprof_profile_writer_reserve (TprofProfileWriter *w,
                                   uint64_t            upcoming,
                                   TprofError         *error);

/* Writes /ranks, the members of the format's table that @pt has
 * (hostname when it knows the hosts, clock_offset and clock_offset_error
 * on a timeline, data_until when merged from spill files). */
int _tprof_profile_writer_add_ranks (TprofProfileWriter      *w,
                                     const TprofProfiledTime *pt,
                                     TprofError              *error);

/* Closes every HDF5 object; on success stores in *@size (may be NULL)
 * the size the file must be cut to, or -1 when HDF5 cut it already. Returns 0, or -1 with @error (unless @error is
 * already set by an earlier failure). */
int _tprof_profile_writer_close (TprofProfileWriter *w,
                                 off_t              *size,
                                 TprofError         *error);

/* Creates the 1-D dataset @name of @n values of @file_type in @group:
 * compact and filled from @data when small, else contiguous with @data
 * written by us at its offset. 0, or -1 (HDF5's or @error's message). */
int _tprof_profile_writer_add_array (TprofProfileWriter *w,
                                     hid_t               group,
                                     const char         *name,
                                     hid_t               file_type,
                                     hid_t               mem_type,
                                     const void         *data,
                                     size_t              n,
                                     TprofError         *error);

/* Creates the 1-D dataset @name of @n values of @file_type in @group,
 * contiguous, allocated and never written: room another writer fills
 * (a rank of a parallel save). Its file offset in *@offset (UINT64_MAX
 * when @n is 0); the dataset left open in *@kept unless that is NULL.
 * 0, or -1 (HDF5's message). */
int _tprof_profile_writer_add_room (TprofProfileWriter *w,
                                    hid_t               group,
                                    const char         *name,
                                    hid_t               file_type,
                                    size_t              n,
                                    uint64_t           *offset,
                                    hid_t              *kept);

/* Scalar attributes of @obj. 0 or -1. */
int _tprof_profile_writer_string_attr (TprofProfileWriter *w,
                                       hid_t               obj,
                                       const char         *name,
                                       const char         *value);
int _tprof_profile_writer_int_attr (TprofProfileWriter *w,
                                    hid_t               obj,
                                    const char         *name,
                                    long long           value);
int _tprof_profile_writer_double_attr (TprofProfileWriter *w,
                                       hid_t               obj,
                                       const char         *name,
                                       double              value);

/* A whole profile as format 3 lays it out (tprof-columns-layout.c): K
 * operations, S segments (a rank's samples of one operation), N samples. */
typedef struct
{
  TprofOperationParts *ops;
  size_t               n_ops;
  size_t               n_segments;
  uint64_t             n_samples;
  uint64_t            *rows;         /* K + 1: operation k's samples are rows[k] .. rows[k+1]-1 */
  int64_t             *op_segments;  /* K + 1 */
  int32_t             *seg_rank;     /* S */
  int64_t             *seg_offset;   /* S + 1 */
  size_t              *name_length;  /* K: strlen() of each name, taken once */
  bool                 timeline;     /* samples/starts and samples/threads */
  bool                 sampled;      /* segments/recorded */
  bool                 names_crc_later;  /* the names' checksum left to the save's helper */
  bool                 no_room_offsets;  /* no operation's offsets: a save that writes its samples itself */
  bool                 present[TPROF_N_COLUMNS];
  uint64_t             offset[TPROF_N_COLUMNS];  /* of value 0 in the file; UINT64_MAX: HDF5 writes */
  uint64_t             names_ids_bytes;  /* the names' ids' room, when we write them (in an image) */
  uint32_t             crc[TPROF_N_COLUMNS];
  hid_t                dset[TPROF_N_COLUMNS];  /* kept open from their creation; 0: none */
} TprofColumnsLayout;

/* Lays out @ops: segments from each operation's ranks (data) or, for
 * room left to ranks, from its cache's counts. 0, or -1 with @error. */
int  _tprof_columns_layout_init (TprofColumnsLayout  *l,
                                 TprofOperationParts *ops,
                                 size_t               n_ops,
                                 int                  world_size,
                                 const char          *path,
                                 TprofError          *error);
void _tprof_columns_layout_clear (TprofColumnsLayout *l);
/* Roughly the bytes the columns of @l take in a file. */
uint64_t _tprof_columns_layout_bytes (const TprofColumnsLayout *l);

/* Creates every column of @l, allocated early, and fills l->offset; the
 * operations' room offsets too, unless l->no_room_offsets. 0, or -1 with
 * @error. */
int _tprof_columns_writer_create (TprofProfileWriter *w,
                                  TprofColumnsLayout *l,
                                  TprofError         *error);
/* Writes the sample columns from the operations' data, with their
 * checksums into l->crc. Plain pwrite(), no HDF5: may run in another
 * thread while HDF5 writes the tables. 0, or -1 with @error. */
/* Closes the columns' datasets that the writer kept open (before HDF5
 * closes the file; again harmless). */
void _tprof_columns_writer_close (TprofColumnsLayout *l);
int _tprof_columns_writer_samples (TprofProfileWriter       *w,
                                   TprofColumnsLayout       *l,
                                   TprofError               *error);
/* The same in two steps, for an image: the sample columns' places there
 * in @spans and their sizes in @bytes (NULL and 0 for a column absent or
 * empty, in the file's order), taken on the writing
 * thread; then their values copied in and their checksums into l->crc,
 * on any thread (no HDF5, nothing that moves the image), while the
 * writing thread writes elsewhere in the image, inside what HDF5 has
 * allocated (so inside the image's reservation: it does not grow).
 * 0, or -1 with @error. */
#define TPROF_N_SAMPLE_COLUMNS 3
int  _tprof_columns_writer_sample_spans (TprofProfileWriter *w,
                                         TprofColumnsLayout *l,
                                         char               *spans[TPROF_N_SAMPLE_COLUMNS],
                                         size_t              bytes[TPROF_N_SAMPLE_COLUMNS],
                                         TprofError         *error);
/* The checksum of @l's names, each with its terminating zero, into
 * l->crc: where the writing thread leaves it to the helper, which has
 * time to spare, once the samples are filled. */
void _tprof_columns_writer_names_crc (TprofColumnsLayout *l);
/* In an image, the tables (each table column we fill, in one run of
 * the file) written out and their write-back started, once they are
 * final: after the join. 0, or -1 with @error. */
int  _tprof_columns_writer_tables_out (TprofProfileWriter *w,
                                       TprofColumnsLayout *l,
                                       TprofError         *error);
void _tprof_columns_writer_samples_fill (TprofColumnsLayout *l,
                                         char *const         spans[TPROF_N_SAMPLE_COLUMNS]);
/* The names of a save built as an image (tprof-names-heap.c): creates
 * the column (in @group, of @space) in *@dset, allocated and left for
 * _tprof_names_heap_write(), its offset in l->offset. 1 then; 0 when the
 * file is not an image (or has no names, or a superblock that a checksum
 * covers), for HDF5 to write them; -1 when HDF5 fails. */
int _tprof_names_heap_create (TprofProfileWriter *w,
                              TprofColumnsLayout *l,
                              hid_t               group,
                              hid_t               space,
                              hid_t              *dset);
/* The names' heap built ahead, off the writing thread, before the
 * file's end is known: its collections, which hold no address, each
 * name's heap id with its collection's address from the heap's start,
 * and the names' checksum (each with its terminating zero). */
typedef struct
{
  unsigned char *heap;   /* @bytes, or NULL: not built */
  unsigned char *ids;    /* @n ids */
  uint64_t       bytes;
  size_t         n;
  uint32_t       crc;
  unsigned       addr_size;
  unsigned       len_size;
} TprofNamesHeap;

/* Builds @pt's names' heap for a file of HDF5's default sizes. false
 * (nothing to clear) when memory is exhausted or there are no names. */
bool _tprof_names_heap_build (TprofNamesHeap          *nh,
                              const TprofProfiledTime *pt);
/* Frees what @nh holds; again harmless. */
void _tprof_names_heap_clear (TprofNamesHeap *nh);
/* Once HDF5 has closed @out's image, of *@size bytes: appends the global
 * heap collections of @l's names (copied from @built when it holds them,
 * for these sizes; @built may be NULL), writes their ids into the column
 * and moves the superblock's end of file, and *@size, past them. Nothing
 * when HDF5 wrote the names. 0, or -1 with @error. */
int _tprof_names_heap_write (TprofSaveFile            *out,
                             const TprofColumnsLayout *l,
                             const TprofNamesHeap     *built,
                             off_t                    *size,
                             TprofError               *error);

/* Writes the operations' and segments' tables from the caches, their
 * checksums into l->crc: no HDF5 call on a little-endian host, where
 * they are written in place. 0, or -1 with @error. */
int _tprof_columns_writer_tables (TprofProfileWriter *w,
                                  TprofColumnsLayout *l,
                                  TprofError         *error);
/* Then the tables' checksum attributes (the names' too). 0, or -1 with
 * @error. */
int _tprof_columns_writer_table_checksums (TprofProfileWriter *w,
                                           TprofColumnsLayout *l,
                                           TprofError         *error);
/* Stores l->crc[@c] as column @c's checksum attribute. 0, or -1. */
int _tprof_columns_writer_checksum (TprofProfileWriter       *w,
                                    const TprofColumnsLayout *l,
                                    TprofColumn               c,
                                    TprofError               *error);

/* @gt as stored: itself when grouped by rank (no copy), else a grouped
 * copy in *@copy, which the caller frees. NULL with @error on failure. */
const TprofGatheredTime *_tprof_operation_writer_grouped (TprofProfileWriter      *w,
                                                          const char              *name,
                                                          const TprofGatheredTime *gt,
                                                          TprofGatheredTime      **copy,
                                                          TprofError              *error);

typedef enum
{
  TPROF_H5_GROUPED,
  TPROF_H5_INTERLEAVED,
  TPROF_H5_OUT_OF_RANGE,
} TprofH5RankOrder;

/* Whether @ranks are grouped by ascending rank, interleaved, or hold a
 * value outside [0, @world_size). */
TprofH5RankOrder _tprof_h5_rank_order (const int32_t *ranks,
                                       size_t         n,
                                       int            world_size);

/* Fills @out_times/@out_ranks with the samples grouped by ascending rank,
 * each rank's samples in their original order (ranks must be in range).
 * Returns false when memory is exhausted. */
bool _tprof_h5_group_by_rank (const double  *times,
                              const int32_t *ranks,
                              size_t         n,
                              int            world_size,
                              double        *out_times,
                              int32_t       *out_ranks);

/* A profile's operations as a save stores them: checked, grouped by
 * rank (copies where they were not), their caches computed later. The
 * parts, copies and caches lie in one block, and the caches' per-rank
 * arrays in another: for many operations a few huge pages, not a fresh
 * 4 KiB page per 30 operations, whose faults cost more than the save's
 * own work on some virtual machines (tprof-profiled-time-save.c). */
typedef struct
{
  void                *block;
  size_t               block_bytes;
  TprofOperationParts *parts;
  TprofGatheredTime  **copies;
  TprofCachedStats    *caches;
  int64_t             *rank_block;  /* every cache's per-rank arrays, or NULL */
  size_t               rank_bytes;  /* its size when on 2 MiB pages, else 0 */
  size_t               n;         /* operations prepared, whose copies to free */
  size_t               n_cached;  /* operations whose caches to clear, from the first */
  size_t               from_cached;  /* and from this one to the last prepared */
} TprofSaveOperations;

/* A save's second thread, when there is work enough for one
 * (tprof-save-helper.c): it checks each operation (an invalid name or
 * sample refuses the save) and computes its statistics as soon as the
 * writing thread has grouped it, then, in an image, copies the sample
 * columns there while the writing thread writes the tables. HDF5 stays
 * on the writing thread. Without a thread, the writing thread does the
 * same itself. */
typedef struct
{
  int                      world_size;
  const char              *path;
  const TprofProfiledTime *pt;
  TprofSaveOperations     *so;
  size_t                   n_ops;
  bool                     threaded;
  bool                     in_image;  /* the save builds an image */
  bool                     checked;   /* every operation passed its check */
  pthread_t                thread;
  pthread_mutex_t          lock;      /* over the eight below */
  pthread_cond_t           moved;     /* any of them changed */
  size_t                   prepared;  /* operations grouped */
  size_t                   front;     /* the helper has taken the operations before this one */
  size_t                   back;      /* the writing thread those from this one on */
  bool                     stop;      /* the writing thread is done with it */
  bool                     failed;    /* a check or statistic failed: no more taken */
  bool                     stats_done;  /* the helper has done its share */
  bool                     samples_given;  /* @layout and @spans set, or @layout NULL */
  TprofColumnsLayout      *layout;
  char                    *spans[TPROF_N_SAMPLE_COLUMNS];
  size_t                   span_bytes[TPROF_N_SAMPLE_COLUMNS];
  TprofSaveFile           *out;
  int                      write_errno;  /* the helper's write of the samples failed */
  TprofNamesHeap           names;     /* in an image, built by the helper first */
  TprofError               error;
  int                      result;
} TprofSaveHelper;

/* Starts @h for @pt's save into @out, whose operations @so holds once
 * prepared (a thread when there is work enough and one can be had). */
void _tprof_save_helper_start (TprofSaveHelper         *h,
                               const TprofProfiledTime *pt,
                               TprofSaveOperations     *so,
                               TprofSaveFile           *out);
/* The writing thread has prepared operation @k - 1 (and all before). */
void _tprof_save_helper_prepared (TprofSaveHelper *h,
                                  size_t           k);
/* Once every operation is prepared: the sample columns of @l written,
 * or handed to the helper in an image (which stays where it is until
 * the join), whose pages not yet written are then faulted in here,
 * while the helper computes. 0, or -1 with @error. */
int  _tprof_save_helper_samples (TprofSaveHelper    *h,
                                 TprofProfileWriter *w,
                                 TprofColumnsLayout *l,
                                 TprofError         *error);
/* The statistics: the writing thread takes its share of what is left,
 * from the last operation down, and waits for the helper's (computes
 * them all without a thread). 0, or -1 with @error. */
int  _tprof_save_helper_statistics (TprofSaveHelper *h,
                                    TprofError      *error);
/* After a failure of the writing thread, before the helper was done
 * checking: the refusal of the first of @h's first @n_ops operations
 * that fails its check, into @error (which keeps the failure when none
 * does): what a save that checked each operation before grouping it
 * would have said. */
void _tprof_save_helper_recheck (TprofSaveHelper *h,
                                 size_t           n_ops,
                                 TprofError      *error);
/* Stops the helper where it waits and joins it (the samples it was
 * given are written then); @out's image may move again. 0, or -1 with
 * @error (may be NULL) when the helper could not write the samples to the
 * file. Again harmless. */
int  _tprof_save_helper_join (TprofSaveHelper *h,
                              TprofSaveFile   *out,
                              TprofError      *error);
