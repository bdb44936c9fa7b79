/* tprof-reader-private.h — the isolated reader: a helper process that parses profiles for a TprofProfileFile, and the messages between them. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tprof/tprof-error.h"
#include "tprof/tprof-profile-file.h"
#include "tprof-h5-reader-private.h"

/* Bumped whenever a message changes: a helper of another build is refused. */
#define TPROF_READER_PROTOCOL 6

typedef enum
{
  TPROF_READER_MSG_META = 1,   /* helper: the file's metadata (first message) */
  TPROF_READER_MSG_ERROR,      /* helper: code + message of a failed request */
  TPROF_READER_MSG_STATS,      /* client: op; helper: its statistics */
  TPROF_READER_MSG_READ,       /* client: op, ranks; helper: PROGRESS..., SAMPLES */
  TPROF_READER_MSG_PROGRESS,   /* helper: fraction done */
  TPROF_READER_MSG_SAMPLES,    /* helper: counts, with a memfd holding the arrays */
  TPROF_READER_MSG_SAMPLES_AT, /* helper: counts and the addresses of its arrays,
                                * kept until TAKEN */
  TPROF_READER_MSG_TAKEN,      /* client: 1 when it copied them (process_vm_readv),
                                * 0 to have them in a memfd (SAMPLES) instead */
  TPROF_READER_MSG_LOCATE,     /* client: op; helper: LOCATION */
  TPROF_READER_MSG_LOCATION,   /* helper: where op's arrays lie in the file, and
                                * its cached statistics */
  TPROF_READER_MSG_OPEN,       /* client (first message): the path, and the
                                * address space the helper may use (0: any) */
} TprofReaderMsg;

/* Called first by the helper: it opens files without the heap pre-check,
 * which is the client's to make (tprof-profile-file.c says why). */
TPROF_EXPORT void _tprof_profile_file_skip_heap_check (void);

/* ---- a message's payload, built and parsed with bounds checks (tprof-reader-wire.c) ---- */

typedef struct
{
  uint8_t *data;
  size_t   len;
  size_t   cap;
  size_t   pos;     /* next byte to parse */
  bool     failed;  /* out of memory, or parsed past the end */
} TprofWire;

void _tprof_wire_clear (TprofWire *w);
void _tprof_wire_put (TprofWire *w, const void *bytes, size_t n);
void _tprof_wire_put_u64 (TprofWire *w, uint64_t v);
void _tprof_wire_put_string (TprofWire *w, const char *s);  /* NULL allowed */
bool _tprof_wire_get (TprofWire *w, void *bytes, size_t n);
uint64_t _tprof_wire_get_u64 (TprofWire *w);
/* A malloc'd copy, NULL for a NULL string; sets *@ok false on failure. */
char *_tprof_wire_get_string (TprofWire *w, bool *ok);

/* ---- frames over a socket (tprof-reader-wire.c) ---- */

/* Sends one message, with @pass_fd (>= 0) attached. 0, or -1 with errno. */
int _tprof_reader_send (int fd, TprofReaderMsg type, const TprofWire *payload, int pass_fd);
/* Receives one message into @payload (cleared first) and a passed
 * descriptor into *@got_fd (-1 if none). Waits at most @timeout_ms in all
 * (-1: forever), returning early with -2 when *@cancel becomes true
 * before the message has begun to come (one begun is read whole).
 * 0, -1 with errno (0 at end of file), or -2 when cancelled. */
int _tprof_reader_receive (int fd, TprofReaderMsg *type, TprofWire *payload, int *got_fd,
                           int timeout_ms, const volatile int *cancel);

/* Where a SAMPLES message's memfd holds the arrays of @n samples: times
 * at 0, ranks after them, then (8-byte aligned) starts and threads where
 * present (0 when absent). Returns the memfd's size. */
size_t _tprof_reader_samples_layout (size_t  n,
                                     bool    has_starts,
                                     bool    has_threads,
                                     size_t *starts_at,
                                     size_t *threads_at);

/* ---- where an operation's samples lie in the file (tprof-reader-locate.c) ---- */

typedef enum
{
  TPROF_READER_TIMES,
  TPROF_READER_RANKS,
  TPROF_READER_STARTS,
  TPROF_READER_THREADS,
  TPROF_READER_N_ARRAYS
} TprofReaderArrayId;

typedef struct
{
  bool           present;
  uint64_t       offset;  /* of value 0, from the start of the file */
  TprofH5RawType type;
  bool           has_crc;  /* format 3: the column's checksum attribute */
  uint32_t       crc;
} TprofReaderArray;

/* What the client needs to read an operation's samples itself: when
 * @direct, every array present is one contiguous, unfiltered run of
 * @n values of a raw type (pread() and a conversion read it), in the
 * file the helper opened (@dev, @ino). Otherwise the helper reads. */
typedef struct
{
  bool             direct;
  uint64_t         dev;
  uint64_t         ino;
  uint64_t         n;
  /* format 3: no ranks array, the cached counts place each rank's
   * samples; the operation's first row of the columns (for messages) */
  bool             ranks_from_counts;
  uint64_t         row;
  uint64_t         n_rows;  /* of the columns: a read of them all checks their checksums */
  TprofReaderArray arrays[TPROF_READER_N_ARRAYS];
} TprofReaderLocation;

/* Finds where operation @op of @file (opened by HDF5) stores its arrays;
 * anything unusual leaves @loc->direct false. Makes HDF5 calls. */
void _tprof_reader_locate (const TprofProfileFile *file,
                           size_t                  op,
                           TprofReaderLocation    *loc);
void _tprof_reader_put_location (TprofWire *w, const TprofReaderLocation *loc);
/* false when malformed */
bool _tprof_reader_get_location (TprofWire *w, TprofReaderLocation *loc);

/* ---- starting helpers (tprof-reader-spare.c) ---- */

/* Starts the helper @helper with a socket to it as its descriptor 3, in
 * *@sock (close-on-exec here): 0, or -1 with errno. It waits for an OPEN,
 * with @warm_bytes of its heap faulted in meanwhile (tprof-reader-main.c). */
int _tprof_reader_spawn (const char *helper, size_t warm_bytes, pid_t *pid, int *sock);
/* The helper started ahead of need, when it is of @helper and still
 * waits: true with it in *@pid and *@sock, the caller's from now on. */
bool _tprof_reader_spare_take (const char *helper, pid_t *pid, int *sock);
/* Starts one ahead of need, for the next file opened isolated, unless
 * one waits already, the process has not asked for spares
 * (_tprof_reader_spare_want()) or TPROF_READER_SPARE=0, with @warm_bytes
 * of heap ready. Each file still has a fresh process of its own: a spare
 * has opened none. */
void _tprof_reader_spare_start (const char *helper, size_t warm_bytes);
/* From now on, _tprof_reader_spare_start() starts spares. */
void _tprof_reader_spare_want (void);

/* ---- the client side (tprof-reader-client.c, tprof-reader-samples.c) ---- */

/* Format 3 in the client (tprof-reader-columns.c): where the columns lie,
 * learnt from the helper's first answer, and each operation's first row. */
typedef struct
{
  bool                known;
  TprofReaderLocation columns;  /* row 0 */
  uint64_t           *rows;     /* n_ops + 1 */
} TprofReaderColumns;

/* After the helper located operation @op at @loc: learns the columns, when
 * @loc is format 3's and read directly. */
void _tprof_reader_columns_learn (TprofReaderColumns        *cols,
                                  const TprofProfileFile    *file,
                                  size_t                     op,
                                  const TprofReaderLocation *loc);
/* true with @loc filled for operation @op (and its cache made from the
 * statistics the helper sent) when the columns are known; false: ask the
 * helper. */
bool _tprof_reader_columns_locate (const TprofReaderColumns *cols,
                                   TprofProfileFile         *file,
                                   size_t                    op,
                                   TprofReaderLocation      *loc);
void _tprof_reader_columns_clear (TprofReaderColumns *cols);
/* With the columns known: checks they lie within the file open as @fd
 * (no operations, no rows), or reads rows [@row, @row + @count) of them from @fd, with
 * the caches of operations [@first_op, @end_op) made ready. 0 or -1. */
int _tprof_reader_columns_read (const TprofReaderColumns *cols, TprofProfileFile *file, int fd,
                                size_t first_op, size_t end_op, uint64_t row, uint64_t count,
                                double *times, double *starts, int32_t *threads, TprofError *error);
/* Sample column @c's stored checksum when the values read are its bytes
 * as stored: 1 with *@crc, else 0. */
int _tprof_reader_columns_crc (const TprofReaderColumns *cols, int c, uint32_t *crc);

/* Reads operation @op's samples on @ranks (sorted, distinct, in range;
 * NULL: all) from @fd where @loc (direct) says they lie, checks them and
 * the cache of @op against them as the in-process reader does. NULL with
 * @error set. Makes no HDF5 call. */
TprofGatheredTime *_tprof_reader_read_direct (TprofProfileFile          *pf,
                                              size_t                     op,
                                              int                        fd,
                                              const TprofReaderLocation *loc,
                                              const int32_t             *ranks,
                                              size_t                     n_ranks,
                                              TprofProgressFunc          progress,
                                              void                      *user_data,
                                              const volatile int        *cancel,
                                              TprofError                *error);

typedef struct _TprofReaderClient TprofReaderClient;

void _tprof_reader_client_free (TprofReaderClient *client);
/* Frees @client of a file that was open, with a helper started ahead of
 * the next open (_tprof_reader_spare_start()). */
void _tprof_reader_client_close (TprofReaderClient *client);
const TprofOperationStats *_tprof_reader_client_stats (TprofProfileFile *file, size_t op,
                                                       TprofError *error);
/* The source's read_rows() and column_crc() (TprofProfileSource): format
 * 3's rows read here with pread(), where the helper located the columns
 * (it is asked once). */
int _tprof_reader_client_read_rows (TprofProfileFile *file, size_t first_op, size_t end_op, uint64_t row,
                                    uint64_t count, double *times, double *starts, int32_t *threads,
                                    TprofError *error);
int _tprof_reader_client_column_crc (TprofProfileFile *file, int c, uint32_t *crc, TprofError *error);
TprofGatheredTime *_tprof_reader_client_read (TprofProfileFile *file, size_t op,
                                              const int32_t *ranks, size_t n_ranks,
                                              TprofProgressFunc progress, void *user_data,
                                              const volatile int *cancel, TprofError *error);

/* ---- the helper side, shared with the client (tprof-reader-meta.c) ---- */

/* @file's metadata and ready statistics, as the helper sends them. */
bool _tprof_reader_put_meta (TprofWire *w, const TprofProfileFile *file);
/* A TprofProfileFile without HDF5 from @w, or NULL with @error. */
TprofProfileFile *_tprof_reader_get_meta (TprofWire *w, const char *path, TprofError *error);
/* An operation's cache (docs/file-format.md: the statistics and the per-rank
 * arrays, each world_size long). The arrays travel as a list, so that a
 * new one is one more entry of a table in tprof-reader-meta.c. */
void _tprof_reader_put_cache (TprofWire *w, const TprofOperationCache *cache, int world_size);
/* Into @cache (cleared first); false when malformed. */
bool _tprof_reader_get_cache (TprofWire *w, TprofOperationCache *cache, int world_size);
/* One operation's statistics (summary and per-rank arrays). */
void _tprof_reader_put_stats (TprofWire *w, const TprofOperationStats *stats, int world_size);
/* Into @file's operation @op (its computed arrays: in @storage, 5 *
 * world_size values of 8 bytes, if not NULL, else allocated); false when
 * malformed. */
bool _tprof_reader_get_stats (TprofWire *w, TprofProfileFile *file, size_t op, int64_t *storage);
