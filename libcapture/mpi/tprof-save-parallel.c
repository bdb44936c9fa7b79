/* tprof-save-parallel.c — tprof_time_manager_save_parallel: every rank writes its own samples into one file; here, the sequence and where each rank's samples go. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/capture-mpi.h"
#include "tprof-save-parallel-private.h"
#include "tprof-hang-mpi-private.h"

static uint64_t
save_hash_path (const char *path)
{
  uint64_t h = 14695981039346656037u;

  for (const char *p = path; p != NULL && *p != '\0'; p++)
    h = (h ^ (unsigned char) *p) * 1099511628211u;
  return h;
}

/* Collective: every rank must name the same file. A rank that named
 * another would otherwise write its samples where nobody reads them. */
static int
save_agree_path (TprofSaveParallel *s, TprofError *err)
{
  uint64_t h = save_hash_path (s->path);
  uint64_t mine[2] = { h, ~h }, extremes[2];
  int rc = MPI_Allreduce (mine, extremes, 2, MPI_UINT64_T, MPI_MAX, s->g.comm);

  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (err, rc, "MPI_Allreduce", "agreeing on the path");
  if (extremes[0] != h || ~extremes[1] != h)
    return tprof_error_set (err, TPROF_ERROR_INVALID,
                            TPROF_SAVE_PARALLEL ": the ranks passed different paths; "
                            "every rank must pass the same path");
  return 0;
}

/* This rank's own checks, before any collective work depends on them. */
static void
save_check_local (TprofSaveParallel *s, TprofTimeManager *tm, TprofError *err)
{
  if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
    tprof_error_set (err, TPROF_ERROR_INVALID,
                     TPROF_SAVE_PARALLEL ": writing samples in parallel needs a little-endian host");
  else if (s->path == NULL || s->path[0] == '\0')
    tprof_error_set (err, TPROF_ERROR_INVALID, TPROF_SAVE_PARALLEL ": the path is %s",
                     s->path == NULL ? "NULL" : "empty");
  else if (_tprof_gather_read_manager (tm, TPROF_SAVE_PARALLEL, &s->read, err) == 0)
    _tprof_gather_read_local (&s->read, &s->local);
}

/* Rank 0: each operation's (rank, name) entries in rank order. */
static int
save_index_operations (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  size_t n = g->name_base[g->size];
  size_t *fill;

  s->op_name_base = calloc (s->n_ops + 1, sizeof *s->op_name_base);
  s->op_names = malloc ((n > 0 ? n : 1) * sizeof *s->op_names);
  fill = calloc (s->n_ops + 1, sizeof *fill);
  if (s->op_name_base == NULL || s->op_names == NULL || fill == NULL)
    {
      free (fill);
      return _tprof_gather_set_no_memory (err, "indexing the operations");
    }
  for (size_t k = 0; k < n; k++)
    s->op_name_base[g->name_op[k] + 1]++;
  for (size_t op = 0; op < s->n_ops; op++)
    s->op_name_base[op + 1] += s->op_name_base[op];
  /* k ascends with the rank */
  for (size_t k = 0; k < n; k++)
    s->op_names[s->op_name_base[g->name_op[k]] + fill[g->name_op[k]]++] = k;
  free (fill);
  return 0;
}

/* Stage 2, collective: rank 0 unites the names and tells every rank the
 * operation and first index of each of its names. */
static int
save_place_names (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  uint64_t *send = NULL;
  int *counts = NULL, *displs = NULL;
  uint64_t n_ops = 0;
  size_t mine = s->local.n_names;
  int rc;

  if (g->rank == 0 && _tprof_gather_unpack_names (g, err) == 0 && _tprof_gather_unite_names (g, err) == 0)
    {
      size_t n = g->name_base[g->size];

      s->n_ops = g->n_ops;
      send = malloc ((n > 0 ? 2 * n : 1) * sizeof *send);
      counts = malloc ((size_t) g->size * sizeof *counts);
      displs = malloc ((size_t) g->size * sizeof *displs);
      if (send == NULL || counts == NULL || displs == NULL)
        _tprof_gather_set_no_memory (err, "placing the operations");
      else if (n > INT_MAX / 2)
        tprof_error_set (err, TPROF_ERROR_TOO_LARGE,
                         TPROF_SAVE_PARALLEL ": the ranks hold %zu operation names in all, more than "
                         "one MPI call can place", n);
      else
        {
          for (size_t k = 0; k < n; k++)
            {
              send[2 * k] = g->name_op[k];
              send[2 * k + 1] = g->name_offset[k];
            }
          for (int r = 0; r < g->size; r++)
            {
              counts[r] = (int) (2 * (g->name_base[r + 1] - g->name_base[r]));
              displs[r] = (int) (2 * g->name_base[r]);
            }
          save_index_operations (s, err);
        }
    }
  s->place = malloc ((mine > 0 ? 2 * mine : 1) * sizeof *s->place);
  if (s->place == NULL && err->code == TPROF_ERROR_NONE)
    _tprof_gather_set_no_memory (err, "placing the operations");
  if (_tprof_gather_agree (g, "agreeing to place the operations", err) < 0)
    goto out;
  n_ops = s->n_ops;
  rc = MPI_Bcast (&n_ops, 1, MPI_UINT64_T, 0, g->comm);
  if (rc == MPI_SUCCESS)
    rc = MPI_Scatterv (send, counts, displs, MPI_UINT64_T, s->place, (int) (2 * mine), MPI_UINT64_T, 0, g->comm);
  if (rc != MPI_SUCCESS)
    _tprof_gather_set_mpi_error (err, rc, "MPI_Scatterv", "placing the operations");
  s->n_ops = (size_t) n_ops;
  for (size_t i = 0; err->code == TPROF_ERROR_NONE && i < mine; i++)
    if (s->place[2 * i] >= n_ops)
      tprof_error_set (err, TPROF_ERROR_FORMAT, TPROF_SAVE_PARALLEL ": rank 0 placed operation '%s' "
                       "outside the %zu operations", s->local.names[i], (size_t) n_ops);
  _tprof_gather_agree (g, "placing the operations", err);
out:
  free (send);
  free (counts);
  free (displs);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* Stage 1, collective: the gather's name exchange to rank 0 and its
 * clock alignment, with no sample moved. */
static int
save_exchange_names (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;

  if (_tprof_gather_agree (g, "agreeing to start", err) < 0
      || _tprof_gather_share_sizes (g, err) < 0
      || _tprof_gather_sync_clocks (g, err) < 0)
    return -1;
  _tprof_gather_prepare_names (g, err);
  if (_tprof_gather_agree (g, "agreeing to exchange the operation names", err) < 0)
    return -1;
  _tprof_gather_transfer (g, "sending the operation names", err);
  return _tprof_gather_agree (g, "agreeing that the names arrived", err);
}

static void
save_clear (TprofSaveParallel *s)
{
  _tprof_save_parallel_statistics_clear (s);
  if (s->shell_written)
    _tprof_save_shell_abandon (&s->shell);
  _tprof_gather_read_clear (&s->read);
  _tprof_gather_close (&s->g);
  free (s->place);
  free (s->offsets);
  free (s->tmp_path);
  free (s->op_names);
  free (s->op_name_base);
}

int
tprof_time_manager_save_parallel (TprofTimeManager *tm,
                                  MPI_Comm          comm,
                                  const char       *path,
                                  TprofError       *error)
{
  TprofSaveParallel s;
  TprofError err;
  uint64_t hang = _tprof_hang_mpi_begin (tm, "tprof_time_manager_save_parallel", comm);

  memset (&s, 0, sizeof s);
  _tprof_gather_init (&s.g);
  s.g.who = TPROF_SAVE_PARALLEL;
  s.path = path;
  tprof_error_clear (&err);

  /* what is the same on every rank fails there before any collective */
  if (_tprof_gather_check_comm (comm, &err) < 0 || _tprof_gather_open (&s.g, comm, 0, &err) < 0)
    goto out;
  if (_tprof_gather_alloc_common (&s.g, &err) == 0)
    save_check_local (&s, tm, &err);
  if (err.code == TPROF_ERROR_NONE)
    _tprof_gather_pack_local (&s.g, &s.local, &err);
  /* from here on every rank makes the same calls, each stage ending at an
   * agreement */
  if (_tprof_gather_agree (&s.g, "checking the arguments", &err) < 0
      || save_agree_path (&s, &err) < 0
      || _tprof_gather_agree (&s.g, "agreeing on the path", &err) < 0
      || save_exchange_names (&s, &err) < 0
      || save_place_names (&s, &err) < 0
      || _tprof_save_parallel_statistics (&s, &err) < 0)
    goto out;
  _tprof_save_parallel_write (&s, &err);

out:
  save_clear (&s);
  _tprof_hang_call_end_now (hang);
  if (error != NULL)
    *error = err;
  return err.code == TPROF_ERROR_NONE ? 0 : -1;
}
