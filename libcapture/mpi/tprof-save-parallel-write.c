/* tprof-save-parallel-write.c — a parallel save's file: rank 0 writes all but the samples, every rank writes its own samples with MPI-IO, rank 0 renames. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-profiled-time-internal.h"
#include "tprof-save-parallel-private.h"

static bool save_fail_writes;

void
_tprof_save_parallel_inject_write_failure (bool fail)
{
  save_fail_writes = fail;
}

/* Every rank: the timeline's 0, the earliest start of any rank placed on
 * rank 0's clock, as the gather takes it. */
static int
write_find_origin (TprofSaveParallel *s, TprofError *err)
{
  double mine = INFINITY;
  int rc;

  s->origin = INFINITY;
  if (!s->g.timeline.all)
    return 0;
  for (size_t k = 0; s->local.n_names > 0 && k < s->local.run_base[s->local.n_names]; k++)
    for (size_t i = 0; i < s->local.runs[k].n; i++)
      mine = fmin (mine, _tprof_gather_place_start (&s->g, s->local.runs[k].starts[i]));
  rc = MPI_Allreduce (&mine, &s->origin, 1, MPI_DOUBLE, MPI_MIN, s->g.comm);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (err, rc, "MPI_Allreduce", "finding the timeline's origin");
  return 0;
}

/* Rank 0: what the file holds beside the operations (world size, hosts,
 * the timeline's offsets and origin), as a profile without operations. */
static TprofProfiledTime *
write_info (TprofSaveParallel *s, TprofError *err)
{
  TprofGather *g = &s->g;
  TprofProfiledTime *info = tprof_profiled_time_new (g->size);

  if (info == NULL)
    {
      _tprof_gather_set_no_memory (err, "writing the file");
      return NULL;
    }
  if (tprof_profiled_time_set_hostnames (info, g->hostnames, err) < 0)
    {
      tprof_profiled_time_free (info);
      return NULL;
    }
  if (g->timeline.all)
    {
      tprof_profiled_time_set_timeline_take (info, g->timeline.offsets, g->timeline.errors,
                                             _tprof_gather_origin_text (g, s->origin));
      g->timeline.offsets = g->timeline.errors = NULL;
    }
  return info;
}

/* Rank 0: the file without its samples; the room's offsets in s->offsets. */
static void
write_shell (TprofSaveParallel *s, TprofError *err)
{
  TprofProfiledTime *info = write_info (s, err);
  TprofOperationParts *parts = calloc (s->n_ops > 0 ? s->n_ops : 1, sizeof *parts);

  if (info != NULL && parts == NULL)
    _tprof_gather_set_no_memory (err, "writing the file");
  if (info != NULL && parts != NULL)
    {
      for (size_t op = 0; op < s->n_ops; op++)
        parts[op] = (TprofOperationParts) {
          .name = s->g.op_names[op],
          .n = s->g.op_counts[op],
          .timeline = s->g.timeline.all,
          .left_to_ranks = true,
          .cache = &s->caches[op],
        };
      if (_tprof_save_shell_write (&s->shell, s->path, info, parts, s->n_ops, err) == 0)
        {
          s->shell_written = true;
          for (size_t op = 0; op < s->n_ops; op++)
            memcpy (&s->offsets[op * TPROF_H5_N_FIELDS], parts[op].offsets, sizeof parts[op].offsets);
          s->tmp_path = strdup (_tprof_save_shell_path (&s->shell));
          if (s->tmp_path == NULL)
            _tprof_gather_set_no_memory (err, "writing the file");
        }
    }
  free (parts);
  tprof_profiled_time_free (info);
}

/* Every rank: rank 0's temporary file name and the room's offsets. */
static int
write_share_room (TprofSaveParallel *s, TprofError *err)
{
  uint64_t len = s->tmp_path != NULL ? strlen (s->tmp_path) + 1 : 0;
  int rc = MPI_Bcast (&len, 1, MPI_UINT64_T, 0, s->g.comm);

  if (rc == MPI_SUCCESS && s->g.rank != 0)
    {
      s->tmp_path = calloc (len > 0 && len < INT_MAX ? len : 1, 1);
      if (s->tmp_path == NULL || len == 0 || len >= INT_MAX)
        _tprof_gather_set_no_memory (err, "learning where the file is");
    }
  if (_tprof_gather_agree (&s->g, "agreeing on the file", err) < 0)
    return -1;
  rc = MPI_Bcast (s->tmp_path, (int) len, MPI_CHAR, 0, s->g.comm);
  if (rc == MPI_SUCCESS)
    rc = MPI_Bcast (s->offsets, (int) (s->n_ops * TPROF_H5_N_FIELDS), MPI_UINT64_T, 0, s->g.comm);
  if (rc != MPI_SUCCESS)
    _tprof_gather_set_mpi_error (err, rc, "MPI_Bcast", "learning where the file is");
  return _tprof_gather_agree (&s->g, "learning where the file is", err);
}

/* Writes @bytes at @offset, in pieces whose counts fit an int. */
static int
write_at (TprofSaveParallel *s, MPI_File fh, MPI_Offset offset, const void *data, size_t bytes,
          TprofError *err)
{
  const char *p = data;

  while (bytes > 0 && err->code == TPROF_ERROR_NONE)
    {
      int take = bytes > (1u << 30) ? (1 << 30) : (int) bytes;
      MPI_Status status;
      int done = 0;
      int rc = save_fail_writes ? MPI_ERR_IO : MPI_File_write_at (fh, offset, p, take, MPI_BYTE, &status);

      if (rc == MPI_SUCCESS)
        MPI_Get_count (&status, MPI_BYTE, &done);
      if (rc != MPI_SUCCESS || done != take)
        {
          char text[MPI_MAX_ERROR_STRING] = "a short write";
          int len = 0;

          if (rc != MPI_SUCCESS && MPI_Error_string (rc, text, &len) != MPI_SUCCESS)
            snprintf (text, sizeof text, "MPI error code %d", rc);
          return tprof_error_set (err, TPROF_ERROR_IO, TPROF_SAVE_PARALLEL ": %s: rank %d cannot write its "
                                  "samples: %s", s->path, s->g.rank, text);
        }
      p += take;
      bytes -= (size_t) take;
      offset += take;
    }
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* @n copies of the 32-bit @value at @offset, through a small stamp. */
static int
write_stamp (TprofSaveParallel *s, MPI_File fh, MPI_Offset offset, int32_t value, size_t n, TprofError *err)
{
  enum { STAMP = 16384 };
  int32_t stamp[STAMP];

  for (size_t i = 0; i < STAMP && i < n; i++)
    stamp[i] = value;
  for (size_t done = 0; done < n && err->code == TPROF_ERROR_NONE; done += STAMP)
    write_at (s, fh, offset + (MPI_Offset) (done * sizeof value), stamp,
              (n - done < STAMP ? n - done : STAMP) * sizeof value, err);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* A run's starts on the timeline: placed on rank 0's clock, less the origin. */
static int
write_starts (TprofSaveParallel *s, MPI_File fh, MPI_Offset offset, const TprofGatherRun *run, TprofError *err)
{
  enum { CHUNK = 8192 };
  double chunk[CHUNK];

  for (size_t done = 0; done < run->n && err->code == TPROF_ERROR_NONE; done += CHUNK)
    {
      size_t take = run->n - done < CHUNK ? run->n - done : CHUNK;

      for (size_t i = 0; i < take; i++)
        chunk[i] = _tprof_gather_place_start (&s->g, run->starts[done + i]) - s->origin;
      write_at (s, fh, offset + (MPI_Offset) (done * sizeof (double)), chunk, take * sizeof (double), err);
    }
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

/* Every rank: its samples into their room, durable when this returns 0. */
static int
write_samples (TprofSaveParallel *s, TprofError *err)
{
  MPI_File fh = MPI_FILE_NULL;
  bool any = false;
  int rc;

  for (size_t i = 0; i < s->local.n_names; i++)
    any = any || s->local.run_base[i + 1] > s->local.run_base[i];
  if (!any)
    return 0;
  /* each rank opens alone: a failure is its own, agreed on afterwards */
  rc = MPI_File_open (MPI_COMM_SELF, s->tmp_path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS)
    {
      char text[MPI_MAX_ERROR_STRING];
      int len = 0;

      MPI_Error_string (rc, text, &len);
      return tprof_error_set (err, TPROF_ERROR_IO, TPROF_SAVE_PARALLEL ": %s: rank %d cannot open the "
                              "temporary file %s: %s", s->path, s->g.rank, s->tmp_path, text);
    }
  for (size_t i = 0; i < s->local.n_names && err->code == TPROF_ERROR_NONE; i++)
    {
      const uint64_t *room = &s->offsets[s->place[2 * i] * TPROF_H5_N_FIELDS];
      uint64_t at = s->place[2 * i + 1];

      for (size_t k = s->local.run_base[i]; k < s->local.run_base[i + 1] && err->code == TPROF_ERROR_NONE; k++)
        {
          const TprofGatherRun *run = &s->local.runs[k];
          MPI_Offset d = (MPI_Offset) (at * sizeof (double)), w = (MPI_Offset) (at * sizeof (int32_t));

          if (run->n == 0)
            continue;
          /* format 3 keeps no rank per sample: its segments say it */
          if (write_at (s, fh, (MPI_Offset) room[TPROF_H5_FIELD_TIMES] + d, run->samples,
                        run->n * sizeof (double), err) == 0
              && (room[TPROF_H5_FIELD_RANKS] == UINT64_MAX
                  || write_stamp (s, fh, (MPI_Offset) room[TPROF_H5_FIELD_RANKS] + w, s->g.rank, run->n,
                                  err) == 0)
              && s->g.timeline.all
              && write_starts (s, fh, (MPI_Offset) room[TPROF_H5_FIELD_STARTS] + d, run, err) == 0)
            write_stamp (s, fh, (MPI_Offset) room[TPROF_H5_FIELD_THREADS] + w, run->thread, run->n, err);
          at += run->n;
        }
    }
  rc = MPI_File_sync (fh);
  if (rc != MPI_SUCCESS && err->code == TPROF_ERROR_NONE)
    tprof_error_set (err, TPROF_ERROR_IO, TPROF_SAVE_PARALLEL ": %s: rank %d cannot make its samples "
                     "durable", s->path, s->g.rank);
  rc = MPI_File_close (&fh);
  if (rc != MPI_SUCCESS && err->code == TPROF_ERROR_NONE)
    tprof_error_set (err, TPROF_ERROR_IO, TPROF_SAVE_PARALLEL ": %s: rank %d cannot close the temporary "
                     "file", s->path, s->g.rank);
  return err->code == TPROF_ERROR_NONE ? 0 : -1;
}

int
_tprof_save_parallel_write (TprofSaveParallel *s, TprofError *err)
{
  if (write_find_origin (s, err) < 0)
    return -1;
  s->offsets = malloc ((s->n_ops > 0 ? s->n_ops : 1) * TPROF_H5_N_FIELDS * sizeof *s->offsets);
  if (s->offsets == NULL)
    _tprof_gather_set_no_memory (err, "writing the file");
  else if (s->n_ops > INT_MAX / TPROF_H5_N_FIELDS)
    tprof_error_set (err, TPROF_ERROR_TOO_LARGE, TPROF_SAVE_PARALLEL ": too many operations");
  else if (s->g.rank == 0)
    write_shell (s, err);
  if (_tprof_gather_agree (&s->g, "writing the file's metadata", err) < 0
      || write_share_room (s, err) < 0)
    return -1;
  write_samples (s, err);
  if (_tprof_gather_agree (&s->g, "writing the samples", err) < 0)
    return -1;
  if (s->g.rank == 0)
    {
      /* committed or removed: nothing is left to abandon */
      s->shell_written = false;
      _tprof_save_shell_commit (&s->shell, err);
    }
  return _tprof_gather_agree (&s->g, "renaming the file over its target", err);
}
