/* tprof-gather-mpi.c — tprof_time_manager_gather: every rank's samples into one profile, in a fixed number of collectives. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/capture-mpi.h"
#include "tprof-gather-mpi-private.h"

/* Sizes travel as uint64 whatever size_t is; one record per rank. */
enum { META_BLOB_BYTES, META_N_SAMPLES, META_N };

#define DEFAULT_BLOCK_ELEMS ((size_t) 1 << 28)

static size_t gather_block_elems = DEFAULT_BLOCK_ELEMS;
static TprofGatherStage gather_failing_stage = TPROF_GATHER_STAGE_NONE;

/* A list of memory regions becoming one MPI datatype at absolute addresses,
 * so that data go straight from the time manager's copies into the
 * profile's arrays with no packing, and no count or displacement is an int. */
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
} TypeBuilder;

typedef struct
{
  MPI_Comm        comm;
  int             rank;
  int             size;
  int             dst;
  bool            receiving;
  MPI_Datatype    byte_block;
  MPI_Datatype    double_block;
  uint64_t       *meta;          /* META_N per rank */

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
  size_t         *name_op;       /* operation of each (rank, name) */
  size_t         *name_offset;   /* where its samples start in the operation */
  size_t          n_ops;
  const char    **op_names;
  size_t         *op_counts;
  double        **op_times;
  int32_t       **op_ranks;
} TprofGather;

void
_tprof_gather_set_block_elems (size_t block_elems)
{
  if (block_elems == 0 || block_elems > INT_MAX)
    block_elems = DEFAULT_BLOCK_ELEMS;
  gather_block_elems = block_elems;
}

void
_tprof_gather_inject_failure (TprofGatherStage stage)
{
  gather_failing_stage = stage;
}

/* malloc, unless a test asked this stage to run out of memory */
static void *
gather_malloc (TprofGatherStage stage, size_t bytes)
{
  if (stage == gather_failing_stage)
    return NULL;
  return malloc (bytes);
}

static bool
size_add (size_t *acc, size_t n)
{
  return !__builtin_add_overflow (*acc, n, acc);
}

static bool
size_mul (size_t a, size_t b, size_t *out)
{
  return !__builtin_mul_overflow (a, b, out);
}

static const char *
gather_describe_code (int code)
{
  switch ((TprofErrorCode) code)
    {
    case TPROF_ERROR_NO_MEMORY:
      return "out of memory";
    case TPROF_ERROR_TOO_LARGE:
      return "the data are too large to transfer";
    case TPROF_ERROR_MPI:
      return "an MPI call failed";
    case TPROF_ERROR_INVALID:
      return "invalid argument";
    case TPROF_ERROR_FORMAT:
      return "corrupt data received";
    case TPROF_ERROR_IO:
    case TPROF_ERROR_VERSION:
    case TPROF_ERROR_NONE:
    default:
      return "error";
    }
}

static int
gather_set_mpi_error (TprofError *error, int rc, const char *call, const char *stage)
{
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;

  if (MPI_Error_string (rc, text, &len) != MPI_SUCCESS)
    snprintf (text, sizeof text, "MPI error code %d", rc);
  return tprof_error_set (error, TPROF_ERROR_MPI, "tprof gather: %s failed while %s: %s",
                          call, stage, text);
}

static int
gather_set_no_memory (TprofError *error, const char *stage)
{
  return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                          "tprof gather: out of memory while %s", stage);
}

/* Every rank learns @failing_rank's message (which says what failed);
 * called by all ranks at the same point, after they agreed that
 * @failing_rank failed. */
static int
gather_share_failure (TprofGather *g, int failing_rank, int code, TprofError *error)
{
  char message[sizeof error->message];

  memset (message, 0, sizeof message);
  if (failing_rank == g->rank)
    snprintf (message, sizeof message, "%s", error->message);
  if (MPI_Bcast (message, (int) sizeof message, MPI_CHAR, failing_rank, g->comm) != MPI_SUCCESS)
    snprintf (message, sizeof message, "%s", gather_describe_code (code));
  message[sizeof message - 1] = '\0';
  if (failing_rank != g->rank && error->code == TPROF_ERROR_NONE)
    tprof_error_set (error, code, "tprof gather: rank %d failed: %s", failing_rank, message);
  return -1;
}

/* Collective: returns 0 when no rank has an error, else -1 on every rank with
 * @error set (the failing rank keeps its own message). */
static int
gather_agree (TprofGather *g, const char *stage, TprofError *error)
{
  struct { int code; int rank; } mine, worst;
  int rc;

  mine.code = error->code;
  mine.rank = g->rank;
  rc = MPI_Allreduce (&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, g->comm);
  if (rc != MPI_SUCCESS)
    {
      if (error->code == TPROF_ERROR_NONE)
        gather_set_mpi_error (error, rc, "MPI_Allreduce", stage);
      return -1;
    }
  if (worst.code == TPROF_ERROR_NONE)
    return 0;
  return gather_share_failure (g, worst.rank, worst.code, error);
}

static int
type_builder_init (TypeBuilder  *b,
                   size_t        max_regions,
                   MPI_Datatype  elem,
                   size_t        elem_size,
                   MPI_Datatype  block,
                   TprofError   *error)
{
  size_t cap;

  memset (b, 0, sizeof *b);
  b->elem = elem;
  b->elem_size = elem_size;
  b->block = block;
  /* a region may need a run of whole blocks and a remainder */
  if (!size_mul (max_regions, 2, &cap) || cap > INT_MAX)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: %zu operations are more than one MPI datatype can describe",
                            max_regions);
  if (cap == 0)
    return 0;
  b->lens = malloc (cap * sizeof *b->lens);
  b->disps = malloc (cap * sizeof *b->disps);
  b->types = malloc (cap * sizeof *b->types);
  if (b->lens == NULL || b->disps == NULL || b->types == NULL)
    return gather_set_no_memory (error, "describing the data to transfer");
  b->cap = (int) cap;
  return 0;
}

static void
type_builder_clear (TypeBuilder *b)
{
  free (b->lens);
  free (b->disps);
  free (b->types);
  memset (b, 0, sizeof *b);
}

static void
type_builder_push (TypeBuilder *b, int len, const void *addr, MPI_Datatype type)
{
  MPI_Get_address (addr, &b->disps[b->n]);
  b->lens[b->n] = len;
  b->types[b->n] = type;
  b->n++;
}

/* Adds @n_elems elements at @addr: a run of whole blocks, then the rest. */
static void
type_builder_add (TypeBuilder *b, const void *addr, size_t n_elems)
{
  size_t n_blocks = n_elems / gather_block_elems;
  size_t rest = n_elems % gather_block_elems;

  if (n_elems == 0)
    return;
  if (n_blocks > INT_MAX)
    {
      b->too_large = true;
      return;
    }
  if (n_blocks > 0)
    type_builder_push (b, (int) n_blocks, addr, b->block);
  if (rest > 0)
    type_builder_push (b, (int) rest,
                       (const char *) addr + n_blocks * gather_block_elems * b->elem_size,
                       b->elem);
}

/* Makes the datatype (count 1) or, when nothing was added, count 0. */
static int
type_builder_commit (TypeBuilder *b, MPI_Datatype *type, int *count, TprofError *error)
{
  int rc;

  *type = MPI_BYTE;
  *count = 0;
  if (b->too_large)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: an operation has more samples than one MPI datatype can describe");
  if (b->n == 0)
    return 0;
  rc = MPI_Type_create_struct (b->n, b->lens, b->disps, b->types, type);
  if (rc == MPI_SUCCESS)
    {
      rc = MPI_Type_commit (type);
      if (rc != MPI_SUCCESS)
        MPI_Type_free (type);
    }
  if (rc != MPI_SUCCESS)
    {
      *type = MPI_BYTE;
      return gather_set_mpi_error (error, rc, "MPI_Type_create_struct", "describing the data to transfer");
    }
  *count = 1;
  return 0;
}

static void
gather_free_type (MPI_Datatype *type, int *count)
{
  if (*count > 0)
    MPI_Type_free (type);
  *type = MPI_BYTE;
  *count = 0;
}

static void
gather_free_transfer_types (TprofGather *g)
{
  gather_free_type (&g->send_type, &g->send_count);
  if (g->recv_types != NULL && g->recv_counts != NULL)
    for (int r = 0; r < g->size; r++)
      gather_free_type (&g->recv_types[r], &g->recv_counts[r]);
}

static int
gather_check_args (MPI_Comm comm, int dst, int *size, TprofError *error)
{
  int flag = 0;

  MPI_Initialized (&flag);
  if (!flag)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: MPI is not initialized (call MPI_Init first)");
  MPI_Finalized (&flag);
  if (flag)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: MPI is already finalized");
  if (comm == MPI_COMM_NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: the communicator is MPI_COMM_NULL");
  MPI_Comm_test_inter (comm, &flag);
  if (flag)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: intercommunicators are not supported");
  MPI_Comm_size (comm, size);
  if (dst != TPROF_GATHER_ALL && (dst < 0 || dst >= *size))
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: destination rank %d is neither a rank of the "
                            "communicator (size %d) nor TPROF_GATHER_ALL", dst, *size);
  return 0;
}

static int
gather_open (TprofGather *g, MPI_Comm comm, int dst, TprofError *error)
{
  int rc;

  rc = MPI_Comm_dup (comm, &g->comm);
  if (rc != MPI_SUCCESS)
    {
      g->comm = MPI_COMM_NULL;
      return gather_set_mpi_error (error, rc, "MPI_Comm_dup", "starting");
    }
  /* errors must come back to us so that no rank is left waiting */
  MPI_Comm_set_errhandler (g->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank (g->comm, &g->rank);
  MPI_Comm_size (g->comm, &g->size);
  g->dst = dst;
  g->receiving = dst == TPROF_GATHER_ALL || dst == g->rank;
  return 0;
}

static void
gather_close (TprofGather *g)
{
  gather_free_transfer_types (g);
  if (g->byte_block != MPI_DATATYPE_NULL)
    MPI_Type_free (&g->byte_block);
  if (g->double_block != MPI_DATATYPE_NULL)
    MPI_Type_free (&g->double_block);
  if (g->comm != MPI_COMM_NULL)
    MPI_Comm_free (&g->comm);
  for (size_t i = 0; i < g->n_ops; i++)
    {
      free (g->op_times[i]);
      free (g->op_ranks[i]);
    }
  free (g->meta);
  free (g->blob);
  free (g->recv_types);
  free (g->recv_counts);
  free (g->a2a_send_counts);
  free (g->a2a_recv_counts);
  free (g->a2a_displs);
  free (g->a2a_send_types);
  free (g->a2a_recv_types);
  free (g->blobs);
  free (g->blob_offsets);
  free (g->name_base);
  free (g->hostnames);
  free (g->name_str);
  free (g->name_count);
  free (g->name_op);
  free (g->name_offset);
  free (g->op_names);
  free (g->op_counts);
  free (g->op_times);
  free (g->op_ranks);
}

/* Allocations every rank needs, made before the first collective so that a
 * failure is only a local status. */
static int
gather_alloc_common (TprofGather *g, TprofError *error)
{
  size_t n = (size_t) g->size;
  int rc;

  g->meta = calloc (n, META_N * sizeof *g->meta);
  g->a2a_send_counts = calloc (n, sizeof *g->a2a_send_counts);
  g->a2a_recv_counts = calloc (n, sizeof *g->a2a_recv_counts);
  g->a2a_displs = calloc (n, sizeof *g->a2a_displs);
  g->a2a_send_types = malloc (n * sizeof *g->a2a_send_types);
  g->a2a_recv_types = malloc (n * sizeof *g->a2a_recv_types);
  if (g->receiving)
    {
      g->recv_types = malloc (n * sizeof *g->recv_types);
      g->recv_counts = calloc (n, sizeof *g->recv_counts);
    }
  if (g->meta == NULL || g->a2a_send_counts == NULL || g->a2a_recv_counts == NULL
      || g->a2a_displs == NULL || g->a2a_send_types == NULL || g->a2a_recv_types == NULL
      || (g->receiving && (g->recv_types == NULL || g->recv_counts == NULL)))
    return gather_set_no_memory (error, "starting");
  if (g->receiving)
    for (int r = 0; r < g->size; r++)
      g->recv_types[r] = MPI_BYTE;
  rc = MPI_Type_contiguous ((int) gather_block_elems, MPI_BYTE, &g->byte_block);
  if (rc == MPI_SUCCESS)
    rc = MPI_Type_commit (&g->byte_block);
  if (rc == MPI_SUCCESS)
    rc = MPI_Type_contiguous ((int) gather_block_elems, MPI_DOUBLE, &g->double_block);
  if (rc == MPI_SUCCESS)
    rc = MPI_Type_commit (&g->double_block);
  if (rc != MPI_SUCCESS)
    return gather_set_mpi_error (error, rc, "MPI_Type_contiguous", "starting");
  return 0;
}

static void
blob_put_u64 (unsigned char **p, uint64_t v)
{
  memcpy (*p, &v, sizeof v);
  *p += sizeof v;
}

static void
blob_put_str (unsigned char **p, const char *s)
{
  size_t len = strlen (s) + 1;

  memcpy (*p, s, len);
  *p += len;
}

/* The name table: u64 n_names, u64 counts[n_names], then the host name and
 * the names, each NUL-terminated. */
static int
gather_pack_local (TprofGather *g, const TprofGatherLocal *local, TprofError *error)
{
  char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int host_len = 0;
  size_t bytes = 0;
  size_t n_samples = 0;
  unsigned char *p;
  bool ok;

  if (MPI_Get_processor_name (host, &host_len) != MPI_SUCCESS)
    snprintf (host, sizeof host, "unknown");
  host[MPI_MAX_PROCESSOR_NAME] = '\0';
  ok = local->n_names < SIZE_MAX
       && size_mul (local->n_names + 1, sizeof (uint64_t), &bytes)
       && size_add (&bytes, strlen (host) + 1);
  for (size_t i = 0; ok && i < local->n_names; i++)
    {
      if (local->names[i] == NULL || local->names[i][0] == '\0')
        return tprof_error_set (error, TPROF_ERROR_INVALID,
                                "tprof gather: operation %zu has an empty name", i);
      if (local->counts[i] > 0 && local->times[i] == NULL)
        return tprof_error_set (error, TPROF_ERROR_INVALID,
                                "tprof gather: operation '%s' has %zu samples but no data",
                                local->names[i], local->counts[i]);
      ok = size_add (&bytes, strlen (local->names[i]) + 1)
           && size_add (&n_samples, local->counts[i]);
    }
  if (!ok || bytes > PTRDIFF_MAX)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: this rank's records are too large to describe");
  g->blob = gather_malloc (TPROF_GATHER_STAGE_PACK, bytes);
  if (g->blob == NULL)
    return gather_set_no_memory (error, "packing the operation names");
  p = g->blob;
  blob_put_u64 (&p, local->n_names);
  for (size_t i = 0; i < local->n_names; i++)
    blob_put_u64 (&p, local->counts[i]);
  blob_put_str (&p, host);
  for (size_t i = 0; i < local->n_names; i++)
    blob_put_str (&p, local->names[i]);
  g->blob_bytes = bytes;
  g->meta[g->rank * META_N + META_BLOB_BYTES] = bytes;
  g->meta[g->rank * META_N + META_N_SAMPLES] = n_samples;
  return 0;
}

/* Collective: every rank learns every rank's sizes, and so every rank takes
 * the same decision from them with no further message. */
static int
gather_share_sizes (TprofGather *g, TprofError *error)
{
  size_t total_bytes = 0;
  size_t total_samples = 0;
  size_t sample_bytes;
  int rc;

  rc = MPI_Allgather (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g->meta, META_N, MPI_UINT64_T, g->comm);
  if (rc != MPI_SUCCESS)
    return gather_set_mpi_error (error, rc, "MPI_Allgather", "exchanging sizes");
  for (int r = 0; r < g->size; r++)
    {
      const uint64_t *m = &g->meta[r * META_N];

      if (m[META_BLOB_BYTES] > SIZE_MAX || m[META_N_SAMPLES] > SIZE_MAX
          || !size_add (&total_bytes, (size_t) m[META_BLOB_BYTES])
          || !size_add (&total_samples, (size_t) m[META_N_SAMPLES]))
        return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                                "tprof gather: the ranks' records add up to more than this machine can address");
    }
  if (total_bytes > PTRDIFF_MAX || !size_mul (total_samples, sizeof (double), &sample_bytes)
      || sample_bytes > PTRDIFF_MAX)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: %zu samples in all are more than this machine can address",
                            total_samples);
  g->total_samples = total_samples;
  return 0;
}

/* Receiving ranks: room for every rank's name table; every rank: the
 * datatypes of the exchange. */
static int
gather_prepare_names (TprofGather *g, TprofError *error)
{
  TypeBuilder b;
  size_t offset = 0;

  if (g->receiving)
    {
      for (int r = 0; r < g->size; r++)
        offset += (size_t) g->meta[r * META_N + META_BLOB_BYTES];
      g->blobs = gather_malloc (TPROF_GATHER_STAGE_NAMES, offset > 0 ? offset : 1);
      g->blob_offsets = malloc ((size_t) g->size * sizeof *g->blob_offsets);
      if (g->blobs == NULL || g->blob_offsets == NULL)
        return gather_set_no_memory (error, "receiving the operation names");
      offset = 0;
      for (int r = 0; r < g->size; r++)
        {
          g->blob_offsets[r] = offset;
          offset += (size_t) g->meta[r * META_N + META_BLOB_BYTES];
        }
      for (int r = 0; r < g->size; r++)
        {
          if (type_builder_init (&b, 1, MPI_BYTE, 1, g->byte_block, error) < 0)
            {
              type_builder_clear (&b);
              return -1;
            }
          type_builder_add (&b, g->blobs + g->blob_offsets[r],
                            (size_t) g->meta[r * META_N + META_BLOB_BYTES]);
          type_builder_commit (&b, &g->recv_types[r], &g->recv_counts[r], error);
          type_builder_clear (&b);
          if (error->code != TPROF_ERROR_NONE)
            return -1;
        }
    }
  if (type_builder_init (&b, 1, MPI_BYTE, 1, g->byte_block, error) < 0)
    {
      type_builder_clear (&b);
      return -1;
    }
  type_builder_add (&b, g->blob, g->blob_bytes);
  type_builder_commit (&b, &g->send_type, &g->send_count, error);
  type_builder_clear (&b);
  return error->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* Collective: one MPI_Alltoallw moves each rank's data to the receivers
 * with the datatypes prepared beforehand. */
static int
gather_transfer (TprofGather *g, const char *stage, TprofError *error)
{
  int rc;

  for (int r = 0; r < g->size; r++)
    {
      bool to_r = g->dst == TPROF_GATHER_ALL || g->dst == r;

      g->a2a_send_types[r] = to_r ? g->send_type : MPI_BYTE;
      g->a2a_send_counts[r] = to_r ? g->send_count : 0;
      g->a2a_recv_types[r] = g->receiving ? g->recv_types[r] : MPI_BYTE;
      g->a2a_recv_counts[r] = g->receiving ? g->recv_counts[r] : 0;
    }
  rc = MPI_Alltoallw (MPI_BOTTOM, g->a2a_send_counts, g->a2a_displs, g->a2a_send_types,
                      MPI_BOTTOM, g->a2a_recv_counts, g->a2a_displs, g->a2a_recv_types,
                      g->comm);
  gather_free_transfer_types (g);
  if (rc != MPI_SUCCESS)
    return gather_set_mpi_error (error, rc, "MPI_Alltoallw", stage);
  return 0;
}

static bool
blob_get_u64 (const unsigned char **p, const unsigned char *end, uint64_t *v)
{
  if ((size_t) (end - *p) < sizeof *v)
    return false;
  memcpy (v, *p, sizeof *v);
  *p += sizeof *v;
  return true;
}

static bool
blob_get_str (const unsigned char **p, const unsigned char *end, const char **s)
{
  const unsigned char *nul = memchr (*p, '\0', (size_t) (end - *p));

  if (nul == NULL)
    return false;
  *s = (const char *) *p;
  *p = nul + 1;
  return true;
}

static int
gather_set_corrupt (TprofError *error, int rank)
{
  return tprof_error_set (error, TPROF_ERROR_FORMAT,
                          "tprof gather: the name table received from rank %d is corrupt", rank);
}

/* First pass: how many names each rank sent. */
static int
gather_count_names (TprofGather *g, TprofError *error)
{
  g->name_base = malloc (((size_t) g->size + 1) * sizeof *g->name_base);
  g->hostnames = calloc ((size_t) g->size, sizeof *g->hostnames);
  if (g->name_base == NULL || g->hostnames == NULL)
    return gather_set_no_memory (error, "reading the operation names");
  g->name_base[0] = 0;
  for (int r = 0; r < g->size; r++)
    {
      const unsigned char *p = g->blobs + g->blob_offsets[r];
      const unsigned char *end = p + g->meta[r * META_N + META_BLOB_BYTES];
      uint64_t n;

      /* each name takes at least a count and two bytes */
      if (!blob_get_u64 (&p, end, &n) || n > (size_t) (end - p) / (sizeof (uint64_t) + 2))
        return gather_set_corrupt (error, r);
      g->name_base[r + 1] = g->name_base[r] + (size_t) n;
    }
  return 0;
}

/* Second pass: counts, host name and names of every rank, checked. */
static int
gather_read_names (TprofGather *g, TprofError *error)
{
  size_t n = g->name_base[g->size];

  g->name_str = malloc ((n > 0 ? n : 1) * sizeof *g->name_str);
  g->name_count = malloc ((n > 0 ? n : 1) * sizeof *g->name_count);
  g->name_op = malloc ((n > 0 ? n : 1) * sizeof *g->name_op);
  g->name_offset = malloc ((n > 0 ? n : 1) * sizeof *g->name_offset);
  if (g->name_str == NULL || g->name_count == NULL || g->name_op == NULL || g->name_offset == NULL)
    return gather_set_no_memory (error, "reading the operation names");
  for (int r = 0; r < g->size; r++)
    {
      const unsigned char *p = g->blobs + g->blob_offsets[r];
      const unsigned char *end = p + g->meta[r * META_N + META_BLOB_BYTES];
      size_t n_samples = 0;
      uint64_t skip;

      blob_get_u64 (&p, end, &skip);
      for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
        {
          uint64_t count;

          if (!blob_get_u64 (&p, end, &count) || count > SIZE_MAX
              || !size_add (&n_samples, (size_t) count))
            return gather_set_corrupt (error, r);
          g->name_count[i] = (size_t) count;
        }
      if (n_samples != g->meta[r * META_N + META_N_SAMPLES]
          || !blob_get_str (&p, end, &g->hostnames[r]))
        return gather_set_corrupt (error, r);
      for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
        if (!blob_get_str (&p, end, &g->name_str[i]) || g->name_str[i][0] == '\0')
          return gather_set_corrupt (error, r);
      if (p != end)
        return gather_set_corrupt (error, r);
    }
  return 0;
}

static uint64_t
gather_hash_name (const char *s)
{
  uint64_t h = 14695981039346656037u;

  for (; *s != '\0'; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211u;
  return h;
}

/* The union of the names, in the order of the first rank that has each one,
 * and where each (rank, name)'s samples go in its operation. */
static int
gather_unite_names (TprofGather *g, TprofError *error)
{
  size_t n = g->name_base[g->size];
  size_t cap = 16;
  size_t *slots;

  while (cap / 2 < n)
    if (!size_mul (cap, 2, &cap))
      return gather_set_no_memory (error, "merging the operation names");
  slots = calloc (cap, sizeof *slots);
  g->op_names = malloc ((n > 0 ? n : 1) * sizeof *g->op_names);
  g->op_counts = calloc (n > 0 ? n : 1, sizeof *g->op_counts);
  if (slots == NULL || g->op_names == NULL || g->op_counts == NULL)
    {
      free (slots);
      return gather_set_no_memory (error, "merging the operation names");
    }
  for (size_t i = 0; i < n; i++)
    {
      size_t s = gather_hash_name (g->name_str[i]) & (cap - 1);

      while (slots[s] != 0 && strcmp (g->op_names[slots[s] - 1], g->name_str[i]) != 0)
        s = (s + 1) & (cap - 1);
      if (slots[s] == 0)
        {
          g->op_names[g->n_ops] = g->name_str[i];
          slots[s] = ++g->n_ops;
        }
      g->name_op[i] = slots[s] - 1;
      /* ranks come in ascending order, so the samples end up grouped by rank;
       * the sum is bounded by the total checked in gather_share_sizes() */
      g->name_offset[i] = g->op_counts[g->name_op[i]];
      g->op_counts[g->name_op[i]] += g->name_count[i];
    }
  free (slots);
  return 0;
}

static int
gather_alloc_samples (TprofGather *g, TprofError *error)
{
  g->op_times = calloc (g->n_ops > 0 ? g->n_ops : 1, sizeof *g->op_times);
  g->op_ranks = calloc (g->n_ops > 0 ? g->n_ops : 1, sizeof *g->op_ranks);
  if (g->op_times == NULL || g->op_ranks == NULL)
    return gather_set_no_memory (error, "receiving the samples");
  for (size_t op = 0; op < g->n_ops; op++)
    {
      if (g->op_counts[op] == 0)
        continue;
      g->op_times[op] = gather_malloc (TPROF_GATHER_STAGE_SAMPLES, g->op_counts[op] * sizeof (double));
      g->op_ranks[op] = gather_malloc (TPROF_GATHER_STAGE_SAMPLES, g->op_counts[op] * sizeof (int32_t));
      if (g->op_times[op] == NULL || g->op_ranks[op] == NULL)
        return gather_set_no_memory (error, "receiving the samples");
    }
  for (int r = 0; r < g->size; r++)
    for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
      {
        int32_t *ranks = g->op_ranks[g->name_op[i]] + g->name_offset[i];

        for (size_t k = 0; k < g->name_count[i]; k++)
          ranks[k] = r;
      }
  return 0;
}

static int
gather_describe_samples (TprofGather *g, const TprofGatherLocal *local, TprofError *error)
{
  TypeBuilder b;

  if (g->receiving)
    for (int r = 0; r < g->size; r++)
      {
        if (type_builder_init (&b, g->name_base[r + 1] - g->name_base[r],
                               MPI_DOUBLE, sizeof (double), g->double_block, error) < 0)
          {
            type_builder_clear (&b);
            return -1;
          }
        for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
          if (g->name_count[i] > 0)
            type_builder_add (&b, g->op_times[g->name_op[i]] + g->name_offset[i], g->name_count[i]);
        type_builder_commit (&b, &g->recv_types[r], &g->recv_counts[r], error);
        type_builder_clear (&b);
        if (error->code != TPROF_ERROR_NONE)
          return -1;
      }
  if (type_builder_init (&b, local->n_names, MPI_DOUBLE, sizeof (double), g->double_block, error) < 0)
    {
      type_builder_clear (&b);
      return -1;
    }
  for (size_t i = 0; i < local->n_names; i++)
    type_builder_add (&b, local->times[i], local->counts[i]);
  type_builder_commit (&b, &g->send_type, &g->send_count, error);
  type_builder_clear (&b);
  return error->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* Receiving ranks, after the names arrived: the layout of the samples. */
static int
gather_plan_samples (TprofGather *g, TprofError *error)
{
  if (gather_count_names (g, error) < 0
      || gather_read_names (g, error) < 0
      || gather_unite_names (g, error) < 0
      || gather_alloc_samples (g, error) < 0)
    return -1;
  return 0;
}

static TprofProfiledTime *
gather_build_profile (TprofGather *g, TprofError *error)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (g->size);

  if (pt == NULL)
    {
      gather_set_no_memory (error, "building the profile");
      return NULL;
    }
  for (size_t op = 0; op < g->n_ops; op++)
    {
      TprofGatheredTime *gt = tprof_gathered_time_new_take (g->op_times[op], g->op_ranks[op],
                                                            g->op_counts[op]);

      g->op_times[op] = NULL;
      g->op_ranks[op] = NULL;
      if (gt == NULL)
        {
          gather_set_no_memory (error, "building the profile");
          goto fail;
        }
      if (tprof_profiled_time_add (pt, g->op_names[op], gt, error) < 0)
        goto fail;
    }
  if (tprof_profiled_time_set_hostnames (pt, g->hostnames, error) < 0)
    goto fail;
  return pt;

fail:
  tprof_profiled_time_free (pt);
  return NULL;
}

TprofProfiledTime *
_tprof_gather_records (const TprofGatherLocal *local,
                       const TprofError       *local_failure,
                       MPI_Comm                comm,
                       int                     dst,
                       TprofError             *error)
{
  TprofGather g;
  TprofError err;
  TprofProfiledTime *pt = NULL;
  int size = 0;

  memset (&g, 0, sizeof g);
  g.comm = MPI_COMM_NULL;
  g.byte_block = MPI_DATATYPE_NULL;
  g.double_block = MPI_DATATYPE_NULL;
  g.send_type = MPI_BYTE;
  tprof_error_clear (&err);

  /* the same arguments fail the same way on every rank: no collective yet */
  if (gather_check_args (comm, dst, &size, &err) < 0 || gather_open (&g, comm, dst, &err) < 0)
    goto out;

  if (gather_alloc_common (&g, &err) == 0)
    {
      if (local_failure != NULL && local_failure->code != TPROF_ERROR_NONE)
        err = *local_failure;
      else if (local == NULL)
        tprof_error_set (&err, TPROF_ERROR_INVALID, "tprof gather: no records given");
      else
        gather_pack_local (&g, local, &err);
    }
  /* from here on every rank makes the same calls: a failure travels through
   * the agreements (fixed points) so that no rank waits for a lost one */
  if (gather_agree (&g, "agreeing to start", &err) < 0
      || gather_share_sizes (&g, &err) < 0)
    goto out;

  gather_prepare_names (&g, &err);
  if (gather_agree (&g, "agreeing to exchange the operation names", &err) < 0)
    goto out;
  gather_transfer (&g, "sending the operation names", &err);
  if (err.code == TPROF_ERROR_NONE && g.receiving)
    gather_plan_samples (&g, &err);
  if (err.code == TPROF_ERROR_NONE)
    gather_describe_samples (&g, local, &err);
  if (gather_agree (&g, "agreeing to exchange the samples", &err) < 0)
    goto out;
  gather_transfer (&g, "sending the samples", &err);
  if (gather_agree (&g, "agreeing that the samples arrived", &err) < 0)
    goto out;

  if (g.receiving)
    pt = gather_build_profile (&g, &err);

out:
  gather_close (&g);
  if (error != NULL)
    *error = err;
  return pt;
}

typedef struct
{
  size_t       n;
  const char **names;
  size_t      *counts;
  double     **times;
} TprofGatherRead;

static void
gather_read_clear (TprofGatherRead *read)
{
  for (size_t i = 0; read->times != NULL && i < read->n; i++)
    free (read->times[i]);
  free (read->names);
  free (read->counts);
  free (read->times);
  memset (read, 0, sizeof *read);
}

/* The local records, through the public API only. */
static int
gather_read_manager (TprofTimeManager *tm, TprofGatherRead *read, TprofError *error)
{
  memset (read, 0, sizeof *read);
  if (tm == NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof_time_manager_gather: the time manager is NULL");
  read->n = tprof_time_manager_list_names (tm, &read->names);
  if (read->n == 0)
    return 0;
  read->counts = calloc (read->n, sizeof *read->counts);
  read->times = calloc (read->n, sizeof *read->times);
  if (read->counts == NULL || read->times == NULL)
    return gather_set_no_memory (error, "reading this rank's records");
  for (size_t i = 0; i < read->n; i++)
    read->counts[i] = tprof_time_manager_get_time (tm, read->names[i], &read->times[i]);
  return 0;
}

TprofProfiledTime *
tprof_time_manager_gather (TprofTimeManager *tm,
                           MPI_Comm          comm,
                           int               dst,
                           TprofError       *error)
{
  TprofGatherRead read;
  TprofGatherLocal local;
  TprofError local_failure;
  TprofProfiledTime *pt;

  tprof_error_clear (&local_failure);
  gather_read_manager (tm, &read, &local_failure);
  local.n_names = read.n;
  local.names = read.names;
  local.counts = read.counts;
  local.times = (const double *const *) read.times;
  pt = _tprof_gather_records (&local, &local_failure, comm, dst, error);
  gather_read_clear (&read);
  return pt;
}
