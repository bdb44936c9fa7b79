/* tprof-gather-mpi-private.h — the gather's internals, shared by its files and reachable by tests linking its objects. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include <tprof/capture.h>

/* A run of samples stored contiguously somewhere the gather only reads:
 * durations, and where known their starts (seconds of this rank's
 * CLOCK_MONOTONIC) and the thread that recorded them. */
typedef struct
{
  const double *samples;
  size_t        n;
  const double *starts;   /* NULL: no timeline */
  int32_t       thread;
} TprofGatherRun;

/* One rank's records as the gather sends them: @n_names operations in
 * first-recorded order; operation i's samples are, in order, the runs
 * @runs[@run_base[i]] up to @runs[@run_base[i + 1]] (@run_base has
 * @n_names + 1 entries). Nothing here is owned by the gather, and the runs
 * must stay valid until it returns. */
typedef struct
{
  size_t                n_names;
  const char *const    *names;
  const size_t         *run_base;
  const TprofGatherRun *runs;
  /* sampled capture: what this rank recorded of each name (the rank
   * field unused), recorded 0 where the runs are all it recorded; NULL
   * when nothing was sampled. Travels in the name table, so it adds no
   * collective. */
  const TprofRankRecorded *recorded;
} TprofGatherLocal;

/* Where this rank's samples lie in its time manager: the manager's own
 * chunks, sent (or written) from there, never copied (tprof-gather-mpi.c). */
typedef struct
{
  size_t          n_names;
  const char    **names;
  size_t         *run_base;
  TprofGatherRun *runs;
  size_t          n_runs;
  size_t          runs_capacity;
  TprofRankRecorded *recorded;   /* per name: what it recorded, when sampled (recorded 0: not) */
} TprofGatherRead;

/* Fills @read from @tm (NULL: an error naming @caller). 0, or -1 with @error. */
int  _tprof_gather_read_manager (TprofTimeManager *tm, const char *caller, TprofGatherRead *read,
                                 TprofError *error);
void _tprof_gather_read_local (const TprofGatherRead *read, TprofGatherLocal *local);
void _tprof_gather_read_clear (TprofGatherRead *read);

/* The collective part of tprof_time_manager_gather(): gathers @local (which
 * tests may fill with what the time manager cannot hold, such as a name with
 * no sample). @local_failure, when not NULL and set, is this rank's failure to
 * build @local: every rank then fails together. */
TprofProfiledTime *_tprof_gather_records (const TprofGatherLocal *local,
                                          const TprofError       *local_failure,
                                          MPI_Comm                comm,
                                          int                     dst,
                                          TprofError             *error);

/* Largest run of elements one entry of an MPI datatype describes; longer runs
 * are described as several blocks (int counts stay in range). Tests make it
 * tiny to exercise the splitting; 0 restores the default. */
void _tprof_gather_set_block_elems (size_t block_elems);

/* Stages whose allocations a test can make fail on the calling rank, to
 * check that every rank then fails together instead of waiting. */
typedef enum
{
  TPROF_GATHER_STAGE_NONE,
  TPROF_GATHER_STAGE_READ,     /* this rank's list of runs */
  TPROF_GATHER_STAGE_PACK,     /* this rank's name table */
  TPROF_GATHER_STAGE_NAMES,    /* a receiver's room for every name table */
  TPROF_GATHER_STAGE_SAMPLES,  /* a receiver's arrays of samples */
} TprofGatherStage;

void _tprof_gather_inject_failure (TprofGatherStage stage);

/* Tests: this rank's clock reads (the recorded starts and the clock
 * alignment's) run @secs ahead, as another host's clock would; all ranks
 * of one host share CLOCK_MONOTONIC otherwise. */
void _tprof_gather_set_test_clock_skew (double secs);

/* --- shared by the gather's own files --- */

/* Sizes travel as uint64 whatever size_t is; one record per rank. */
enum { TPROF_GATHER_META_BLOB_BYTES, TPROF_GATHER_META_N_SAMPLES, TPROF_GATHER_META_TIMELINE,
       TPROF_GATHER_META_N };

/* What a rank's timeline adds to the gather (tprof-gather-clock.c). */
typedef struct
{
  bool      all;              /* every rank has starts for every sample */
  double    offset;           /* this rank's: seconds added to its clock to read rank 0's */
  double    error;            /* bound on @offset's error */
  double   *offsets;          /* receiving ranks: every rank's offset, error, and */
  double   *errors;           /* rank 0's wall clock minus its monotonic clock */
  double    wall_minus_mono;
  double   *local_starts;     /* this rank's starts on rank 0's clock, in send order */
  int32_t  *local_threads;
  double  **op_starts;        /* receiving ranks, per operation */
  int32_t **op_threads;
} TprofGatherTimeline;

typedef struct
{
  const char     *who;           /* what fails, in messages: "tprof gather" */
  MPI_Comm        comm;
  int             rank;
  int             size;
  int             dst;
  bool            receiving;
  MPI_Datatype    byte_block;
  MPI_Datatype    double_block;
  uint64_t       *meta;          /* TPROF_GATHER_META_N per rank */

  unsigned char  *blob;          /* this rank's packed name table */
  size_t          blob_bytes;
  MPI_Datatype    send_type;
  int             send_count;
  MPI_Datatype   *recv_types;    /* per rank; receiving ranks only */
  int            *recv_counts;
  /* the arguments of MPI_Alltoallw, allocated up front so that nothing can
   * fail between an agreement and the transfer it allows */
  int            *a2a_send_counts;
  int            *a2a_recv_counts;
  int            *a2a_displs;
  MPI_Datatype   *a2a_send_types;
  MPI_Datatype   *a2a_recv_types;

  /* receiving ranks only */
  unsigned char  *blobs;
  size_t         *blob_offsets;  /* per rank */
  size_t          total_samples;
  size_t         *name_base;     /* per rank + 1: first entry of the rank in the name tables */
  const char    **hostnames;     /* per rank, into @blobs */
  const char    **name_str;      /* per (rank, name), into @blobs */
  size_t         *name_count;
  TprofRankRecorded *name_recorded;  /* per (rank, name); recorded 0: not sampled */
  size_t         *name_op;       /* operation of each (rank, name) */
  size_t         *name_offset;   /* where its samples start in the operation */
  size_t          n_ops;
  const char    **op_names;
  size_t         *op_counts;
  double        **op_times;
  int32_t       **op_ranks;

  MPI_Datatype    int_block;
  TprofGatherTimeline timeline;
} TprofGather;

static inline bool
_tprof_gather_size_add (size_t *acc, size_t n)
{
  return !__builtin_add_overflow (*acc, n, acc);
}

static inline bool
_tprof_gather_size_mul (size_t a, size_t b, size_t *out)
{
  return !__builtin_mul_overflow (a, b, out);
}

/* tprof-gather-records.c: the gather's frame, shared with the parallel
 * save: a cleared state; what must hold on every rank before any
 * collective; the duplicated communicator and the agreement on @dst (the
 * first collective); the allocations every rank needs; the end. */
void _tprof_gather_init (TprofGather *g);
int  _tprof_gather_check_comm (MPI_Comm comm, TprofError *error);
int  _tprof_gather_open (TprofGather *g, MPI_Comm comm, int dst, TprofError *error);
int  _tprof_gather_alloc_common (TprofGather *g, TprofError *error);
void _tprof_gather_close (TprofGather *g);

/* tprof-gather-error.c: errors, and how every rank learns of one */
void *_tprof_gather_malloc (TprofGatherStage stage, size_t bytes);
int _tprof_gather_set_mpi_error (TprofError *error, int rc, const char *call, const char *stage);
int _tprof_gather_set_no_memory (TprofError *error, const char *stage);
int _tprof_gather_agree (TprofGather *g, const char *stage, TprofError *error);

/* tprof-gather-type.c: memory regions become one MPI datatype at absolute
 * addresses, so that data go straight from where they are into the
 * profile's arrays with no packing, and no count or displacement is an int */
typedef struct
{
  int           n;
  int           cap;
  int          *lens;
  MPI_Aint     *disps;
  MPI_Datatype *types;
  MPI_Datatype  elem;
  size_t        elem_size;
  MPI_Datatype  block;
  bool          too_large;
} TprofGatherTypeBuilder;

size_t _tprof_gather_block_elems (void);
int _tprof_gather_make_block (MPI_Datatype elem, MPI_Datatype *block);
int _tprof_gather_type_builder_init (TprofGatherTypeBuilder *b,
                                     size_t                  max_regions,
                                     MPI_Datatype            elem,
                                     size_t                  elem_size,
                                     MPI_Datatype            block,
                                     TprofError             *error);
void _tprof_gather_type_builder_clear (TprofGatherTypeBuilder *b);
void _tprof_gather_type_builder_add (TprofGatherTypeBuilder *b, const void *addr, size_t n_elems);
int _tprof_gather_type_builder_commit (TprofGatherTypeBuilder *b,
                                       MPI_Datatype           *type,
                                       int                    *count,
                                       TprofError             *error);
void _tprof_gather_free_type (MPI_Datatype *type, int *count);

/* tprof-gather-name-table.c: the wire format of a rank's name table */
int _tprof_gather_pack_local (TprofGather *g, const TprofGatherLocal *local, TprofError *error);
int _tprof_gather_unpack_names (TprofGather *g, TprofError *error);

/* tprof-gather-union.c: the union of every rank's names */
int _tprof_gather_unite_names (TprofGather *g, TprofError *error);

/* tprof-gather-exchange.c: the collectives and the layouts they move */
int _tprof_gather_share_sizes (TprofGather *g, TprofError *error);
int _tprof_gather_prepare_names (TprofGather *g, TprofError *error);
int _tprof_gather_describe_samples (TprofGather *g, const TprofGatherLocal *local, TprofError *error);
int _tprof_gather_transfer (TprofGather *g, const char *stage, TprofError *error);
void _tprof_gather_free_transfer_types (TprofGather *g);

/* The arrays of the samples a transfer moves. */
typedef enum
{
  TPROF_GATHER_FIELD_TIMES,
  TPROF_GATHER_FIELD_STARTS,
  TPROF_GATHER_FIELD_THREADS,
} TprofGatherField;

int _tprof_gather_describe_field (TprofGather *g, const TprofGatherLocal *local, TprofGatherField field,
                                  TprofError *error);

/* tprof-gather-clock.c: every rank's clock offset to rank 0, estimated by
 * ping-pong over a binary tree (log2 P rounds), then shared; this rank's
 * starts on rank 0's clock. Collective. */
int _tprof_gather_sync_clocks (TprofGather *g, TprofError *error);
int _tprof_gather_local_timeline (TprofGather *g, const TprofGatherLocal *local, TprofError *error);
void _tprof_gather_timeline_clear (TprofGather *g);
/* A start of this rank (seconds of its clock) on rank 0's clock. */
double _tprof_gather_place_start (const TprofGather *g, double start);
/* Receivers: ISO 8601 UTC wall time of timeline 0, the placed start
 * @origin (malloc'd; NULL when @origin is not finite). */
char *_tprof_gather_origin_text (const TprofGather *g, double origin);
/* Receivers: each operation's starts and threads onto its selection, the
 * timeline shifted to begin at 0, and the offsets onto @pt. */
int _tprof_gather_timeline_finish (TprofGather *g, TprofProfiledTime *pt, TprofError *error);

/* tprof-gather-samples.c: a receiver's sample arrays, then its profile */
int _tprof_gather_alloc_samples (TprofGather *g, TprofError *error);
TprofProfiledTime *_tprof_gather_build_profile (TprofGather *g, TprofError *error);

/* Every rank of @comm: its clock's offset to rank 0 of @comm, by the
 * ping-pong tree of tprof-clock-sync.h (collective). An MPI error code. */
int _tprof_mpi_clock_offset (MPI_Comm comm, TprofClockOffset *to_root);
