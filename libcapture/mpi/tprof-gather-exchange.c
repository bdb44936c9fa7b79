/* tprof-gather-exchange.c — the gather's collectives: sizes for everyone, then name tables and samples by MPI_Alltoallw. */
/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdlib.h>

#include "tprof/capture-mpi.h"
#include "tprof-gather-mpi-private.h"

/* Collective: every rank learns every rank's sizes, and so every rank takes
 * the same decision from them with no further message. */
int
_tprof_gather_share_sizes (TprofGather *g, TprofError *error)
{
  size_t total_bytes = 0;
  size_t total_samples = 0;
  size_t sample_bytes;
  int rc;

  rc = MPI_Allgather (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g->meta, TPROF_GATHER_META_N, MPI_UINT64_T,
                      g->comm);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Allgather", "exchanging sizes");
  for (int r = 0; r < g->size; r++)
    {
      const uint64_t *m = &g->meta[r * TPROF_GATHER_META_N];

      if (m[TPROF_GATHER_META_BLOB_BYTES] > SIZE_MAX || m[TPROF_GATHER_META_N_SAMPLES] > SIZE_MAX
          || !_tprof_gather_size_add (&total_bytes, (size_t) m[TPROF_GATHER_META_BLOB_BYTES])
          || !_tprof_gather_size_add (&total_samples, (size_t) m[TPROF_GATHER_META_N_SAMPLES]))
        return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                                "tprof gather: the ranks' records add up to more than this machine can address");
    }
  if (total_bytes > PTRDIFF_MAX || !_tprof_gather_size_mul (total_samples, sizeof (double), &sample_bytes)
      || sample_bytes > PTRDIFF_MAX)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: %zu samples in all are more than this machine can address",
                            total_samples);
  g->total_samples = total_samples;
  return 0;
}

/* One datatype over @n_regions regions given by @region (called for
 * 0 .. @n_regions - 1, returning the address and element count of each). */
typedef void (*RegionFunc) (const void *data, size_t i, const void **addr, size_t *n_elems);

static int
gather_describe (size_t        n_regions,
                 RegionFunc    region,
                 const void   *data,
                 MPI_Datatype  elem,
                 size_t        elem_size,
                 MPI_Datatype  block,
                 MPI_Datatype *type,
                 int          *count,
                 TprofError   *error)
{
  TprofGatherTypeBuilder b;

  if (_tprof_gather_type_builder_init (&b, n_regions, elem, elem_size, block, error) == 0)
    {
      for (size_t i = 0; i < n_regions; i++)
        {
          const void *addr;
          size_t n_elems;

          region (data, i, &addr, &n_elems);
          _tprof_gather_type_builder_add (&b, addr, n_elems);
        }
      _tprof_gather_type_builder_commit (&b, type, count, error);
    }
  _tprof_gather_type_builder_clear (&b);
  return error->code == TPROF_ERROR_NONE ? 0 : -1;
}

typedef struct
{
  const unsigned char *addr;
  size_t               bytes;
} ByteRegion;

static void
byte_region (const void *data, size_t i, const void **addr, size_t *n_elems)
{
  const ByteRegion *r = data;

  *addr = r->addr;
  *n_elems = r->bytes;
}

/* Receiving ranks: room for every rank's name table; every rank: the
 * datatypes of the exchange. */
int
_tprof_gather_prepare_names (TprofGather *g, TprofError *error)
{
  ByteRegion mine = { g->blob, g->blob_bytes };
  size_t offset = 0;

  if (g->receiving)
    {
      for (int r = 0; r < g->size; r++)
        offset += (size_t) g->meta[r * TPROF_GATHER_META_N + TPROF_GATHER_META_BLOB_BYTES];
      g->blobs = _tprof_gather_malloc (TPROF_GATHER_STAGE_NAMES, offset > 0 ? offset : 1);
      g->blob_offsets = malloc ((size_t) g->size * sizeof *g->blob_offsets);
      if (g->blobs == NULL || g->blob_offsets == NULL)
        return _tprof_gather_set_no_memory (error, "receiving the operation names");
      offset = 0;
      for (int r = 0; r < g->size; r++)
        {
          ByteRegion theirs = { g->blobs + offset,
                                (size_t) g->meta[r * TPROF_GATHER_META_N + TPROF_GATHER_META_BLOB_BYTES] };

          g->blob_offsets[r] = offset;
          offset += theirs.bytes;
          if (gather_describe (1, byte_region, &theirs, MPI_BYTE, 1, g->byte_block,
                               &g->recv_types[r], &g->recv_counts[r], error) < 0)
            return -1;
        }
    }
  return gather_describe (1, byte_region, &mine, MPI_BYTE, 1, g->byte_block,
                          &g->send_type, &g->send_count, error);
}

typedef struct
{
  const TprofGather *g;
  size_t             first;  /* of the rank's entries in the name tables */
  TprofGatherField   field;
} RecvRegions;

static void *
field_base (const TprofGather *g, TprofGatherField field, size_t op, size_t offset)
{
  switch (field)
    {
    case TPROF_GATHER_FIELD_STARTS:
      return g->timeline.op_starts[op] + offset;
    case TPROF_GATHER_FIELD_THREADS:
      return g->timeline.op_threads[op] + offset;
    case TPROF_GATHER_FIELD_TIMES:
    default:
      return g->op_times[op] + offset;
    }
}

static void
recv_region (const void *data, size_t i, const void **addr, size_t *n_elems)
{
  const RecvRegions *r = data;
  size_t k = r->first + i;

  *n_elems = r->g->name_count[k];
  /* an operation without samples has no array to point into */
  *addr = *n_elems > 0 ? field_base (r->g, r->field, r->g->name_op[k], r->g->name_offset[k]) : NULL;
}

static void
send_region (const void *data, size_t i, const void **addr, size_t *n_elems)
{
  const TprofGatherLocal *local = data;

  *addr = local->runs[i].samples;
  *n_elems = local->runs[i].n;
}

typedef struct
{
  const void *addr;
  size_t      n;
} OneRegion;

static void
one_region (const void *data, size_t i, const void **addr, size_t *n_elems)
{
  const OneRegion *r = data;

  *addr = r->n > 0 ? r->addr : NULL;
  *n_elems = r->n;
}

/* Receivers: each rank's values of @field straight into their places in
 * the operations; every rank: its own, the durations as they lie in the
 * time manager, the timeline from the arrays placed on rank 0's clock. */
int
_tprof_gather_describe_field (TprofGather *g, const TprofGatherLocal *local, TprofGatherField field,
                              TprofError *error)
{
  bool threads = field == TPROF_GATHER_FIELD_THREADS;
  MPI_Datatype elem = threads ? MPI_INT32_T : MPI_DOUBLE;
  size_t elem_size = threads ? sizeof (int32_t) : sizeof (double);
  MPI_Datatype block = threads ? g->int_block : g->double_block;
  OneRegion mine = { threads ? (const void *) g->timeline.local_threads : (const void *) g->timeline.local_starts,
                     (size_t) g->meta[g->rank * TPROF_GATHER_META_N + TPROF_GATHER_META_N_SAMPLES] };

  if (g->receiving)
    for (int r = 0; r < g->size; r++)
      {
        RecvRegions regions = { g, g->name_base[r], field };

        if (gather_describe (g->name_base[r + 1] - g->name_base[r], recv_region, &regions,
                             elem, elem_size, block, &g->recv_types[r], &g->recv_counts[r], error) < 0)
          return -1;
      }
  if (field != TPROF_GATHER_FIELD_TIMES)
    return gather_describe (1, one_region, &mine, elem, elem_size, block, &g->send_type, &g->send_count, error);
  /* no operation: @run_base may be NULL */
  return gather_describe (local->n_names > 0 ? local->run_base[local->n_names] : 0, send_region, local,
                          elem, elem_size, block, &g->send_type, &g->send_count, error);
}

void
_tprof_gather_free_transfer_types (TprofGather *g)
{
  _tprof_gather_free_type (&g->send_type, &g->send_count);
  if (g->recv_types != NULL && g->recv_counts != NULL)
    for (int r = 0; r < g->size; r++)
      _tprof_gather_free_type (&g->recv_types[r], &g->recv_counts[r]);
}

/* Collective: one MPI_Alltoallw moves each rank's data to the receivers
 * with the datatypes prepared beforehand. */
int
_tprof_gather_transfer (TprofGather *g, const char *stage, TprofError *error)
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
  _tprof_gather_free_transfer_types (g);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Alltoallw", stage);
  return 0;
}
