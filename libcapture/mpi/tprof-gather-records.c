/* tprof-gather-records.c — the gather's collective sequence: fixed agreement points around two transfers. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/capture-mpi.h"
#include "tprof-gather-mpi-private.h"

/* What is the same on every rank of @comm, checked before any collective. */
int
_tprof_gather_check_comm (MPI_Comm comm, TprofError *error)
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
  return 0;
}

static void
gather_describe_dst (int dst, char *text, size_t size)
{
  if (dst == TPROF_GATHER_ALL)
    snprintf (text, size, "TPROF_GATHER_ALL");
  else
    snprintf (text, size, "%d", dst);
}

/* Collective, the gather's first: every rank learns whether all passed the
 * same, valid @dst, and fails with the same message if not. A rank that
 * passed another destination would otherwise wait forever in a transfer
 * the others never join. */
static int
gather_agree_dst (TprofGather *g, TprofError *error)
{
  int mine[2] = { g->dst, -g->dst };
  int extremes[2];
  int rc = MPI_Allreduce (mine, extremes, 2, MPI_INT, MPI_MAX, g->comm);
  char low[32], high[32];

  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Allreduce", "agreeing on the destination");
  if (-extremes[1] != extremes[0])
    {
      gather_describe_dst (-extremes[1], low, sizeof low);
      gather_describe_dst (extremes[0], high, sizeof high);
      return tprof_error_set (error, TPROF_ERROR_INVALID,
                              "tprof gather: the ranks passed different destinations "
                              "(from %s to %s); every rank must pass the same dst",
                              low, high);
    }
  if (g->dst != TPROF_GATHER_ALL && (g->dst < 0 || g->dst >= g->size))
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: destination rank %d is neither a rank of the "
                            "communicator (size %d) nor TPROF_GATHER_ALL", g->dst, g->size);
  return 0;
}

int
_tprof_gather_open (TprofGather *g, MPI_Comm comm, int dst, TprofError *error)
{
  int rc;

  rc = MPI_Comm_dup (comm, &g->comm);
  if (rc != MPI_SUCCESS)
    {
      g->comm = MPI_COMM_NULL;
      return _tprof_gather_set_mpi_error (error, rc, "MPI_Comm_dup", "starting");
    }
  /* errors must come back to us so that no rank is left waiting */
  MPI_Comm_set_errhandler (g->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank (g->comm, &g->rank);
  MPI_Comm_size (g->comm, &g->size);
  g->dst = dst;
  g->receiving = dst == TPROF_GATHER_ALL || dst == g->rank;
  return gather_agree_dst (g, error);
}

void
_tprof_gather_close (TprofGather *g)
{
  _tprof_gather_free_transfer_types (g);
  if (g->byte_block != MPI_DATATYPE_NULL)
    MPI_Type_free (&g->byte_block);
  if (g->double_block != MPI_DATATYPE_NULL)
    MPI_Type_free (&g->double_block);
  if (g->int_block != MPI_DATATYPE_NULL)
    MPI_Type_free (&g->int_block);
  _tprof_gather_timeline_clear (g);
  if (g->comm != MPI_COMM_NULL)
    MPI_Comm_free (&g->comm);
  /* the parallel save unites the names but receives no sample */
  for (size_t i = 0; g->op_times != NULL && i < g->n_ops; i++)
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
  free (g->name_recorded);
  free (g->name_op);
  free (g->name_offset);
  free (g->op_names);
  free (g->op_counts);
  free (g->op_times);
  free (g->op_ranks);
}

/* Allocations every rank needs, made before the first collective so that a
 * failure is only a local status. */
int
_tprof_gather_alloc_common (TprofGather *g, TprofError *error)
{
  size_t n = (size_t) g->size;
  int rc;

  g->meta = calloc (n, TPROF_GATHER_META_N * sizeof *g->meta);
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
    return _tprof_gather_set_no_memory (error, "starting");
  if (g->receiving)
    for (int r = 0; r < g->size; r++)
      g->recv_types[r] = MPI_BYTE;
  rc = _tprof_gather_make_block (MPI_BYTE, &g->byte_block);
  if (rc == MPI_SUCCESS)
    rc = _tprof_gather_make_block (MPI_DOUBLE, &g->double_block);
  if (rc == MPI_SUCCESS)
    rc = _tprof_gather_make_block (MPI_INT32_T, &g->int_block);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Type_contiguous", "starting");
  return 0;
}

/* Receiving ranks, after the names arrived: the layout of the samples. */
static int
gather_plan_samples (TprofGather *g, TprofError *error)
{
  if (_tprof_gather_unpack_names (g, error) < 0
      || _tprof_gather_unite_names (g, error) < 0
      || _tprof_gather_alloc_samples (g, error) < 0)
    return -1;
  return 0;
}

/* The starts, then the threads: each described, agreed on, moved. */
static int
gather_transfer_timeline (TprofGather *g, const TprofGatherLocal *local, TprofError *err)
{
  if (err->code == TPROF_ERROR_NONE)
    _tprof_gather_describe_field (g, local, TPROF_GATHER_FIELD_STARTS, err);
  if (_tprof_gather_agree (g, "agreeing to exchange the starts", err) < 0)
    return -1;
  _tprof_gather_transfer (g, "sending the starts", err);
  if (err->code == TPROF_ERROR_NONE)
    _tprof_gather_describe_field (g, local, TPROF_GATHER_FIELD_THREADS, err);
  if (_tprof_gather_agree (g, "agreeing to exchange the threads", err) < 0)
    return -1;
  _tprof_gather_transfer (g, "sending the threads", err);
  return 0;
}

void
_tprof_gather_init (TprofGather *g)
{
  memset (g, 0, sizeof *g);
  g->who = "tprof gather";
  g->comm = MPI_COMM_NULL;
  g->byte_block = MPI_DATATYPE_NULL;
  g->double_block = MPI_DATATYPE_NULL;
  g->int_block = MPI_DATATYPE_NULL;
  g->send_type = MPI_BYTE;
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

  _tprof_gather_init (&g);
  tprof_error_clear (&err);

  /* what is the same on every rank fails there before any collective;
   * the destination is agreed on in the first one */
  if (_tprof_gather_check_comm (comm, &err) < 0 || _tprof_gather_open (&g, comm, dst, &err) < 0)
    goto out;

  if (_tprof_gather_alloc_common (&g, &err) == 0)
    {
      if (local_failure != NULL && local_failure->code != TPROF_ERROR_NONE)
        err = *local_failure;
      else if (local == NULL)
        tprof_error_set (&err, TPROF_ERROR_INVALID, "tprof gather: no records given");
      else
        _tprof_gather_pack_local (&g, local, &err);
    }
  /* from here on every rank makes the same calls: a failure travels through
   * the agreements (fixed points) so that no rank waits for a lost one */
  if (_tprof_gather_agree (&g, "agreeing to start", &err) < 0
      || _tprof_gather_share_sizes (&g, &err) < 0
      || _tprof_gather_sync_clocks (&g, &err) < 0)
    goto out;
  _tprof_gather_local_timeline (&g, local, &err);

  _tprof_gather_prepare_names (&g, &err);
  if (_tprof_gather_agree (&g, "agreeing to exchange the operation names", &err) < 0)
    goto out;
  _tprof_gather_transfer (&g, "sending the operation names", &err);
  if (err.code == TPROF_ERROR_NONE && g.receiving)
    gather_plan_samples (&g, &err);
  if (err.code == TPROF_ERROR_NONE)
    _tprof_gather_describe_field (&g, local, TPROF_GATHER_FIELD_TIMES, &err);
  if (_tprof_gather_agree (&g, "agreeing to exchange the samples", &err) < 0)
    goto out;
  _tprof_gather_transfer (&g, "sending the samples", &err);
  if (g.timeline.all && gather_transfer_timeline (&g, local, &err) < 0)
    goto out;
  if (_tprof_gather_agree (&g, "agreeing that the samples arrived", &err) < 0)
    goto out;

  if (g.receiving)
    pt = _tprof_gather_build_profile (&g, &err);

out:
  _tprof_gather_close (&g);
  if (error != NULL)
    *error = err;
  return pt;
}
