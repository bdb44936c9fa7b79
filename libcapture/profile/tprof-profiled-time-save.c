/* tprof-profiled-time-save.c — tprof_profiled_time_save(): a reserved temporary file, HDF5's metadata, our samples, then a rename. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-writer-private.h"

uint64_t
_tprof_save_operation_estimate (size_t n,
                                bool   timeline,
                                int    world_size)
{
  /* times and ranks, and starts and threads on a timeline; the cached
   * per-rank arrays (rank_recorded too) */
  uint64_t per_sample = sizeof (double) + sizeof (int32_t)
                        + (timeline ? sizeof (double) + sizeof (int32_t) : 0);

  return (uint64_t) n * per_sample + (uint64_t) world_size * 5 * sizeof (double) + 8192;
}

/* Roughly the size of @pt's operations (see _tprof_save_start()). */
static uint64_t
tprof_profiled_time_operations_estimate (const TprofProfiledTime *pt)
{
  uint64_t size = 0;

  for (size_t op = 0; op < tprof_profiled_time_len (pt); op++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, op);

      size += _tprof_save_operation_estimate (tprof_gathered_time_count (gt),
                                              tprof_gathered_time_starts (gt) != NULL,
                                              tprof_profiled_time_world_size (pt));
    }
  return size;
}

int
_tprof_save_start (const TprofProfiledTime *pt,
                   TprofSaveFile           *out,
                   uint64_t                 operations,
                   TprofError              *error)
{
  TprofH5Guard guard;
  void *skeleton = NULL;
  size_t size = 0;
  /* the skeleton, the operations and the margin the writer keeps
   * (tprof-profile-writer.c) */
  uint64_t estimate;
  int result;

  _tprof_h5_enter (&guard);
  result = _tprof_profile_writer_skeleton (pt, out->path, out->tmp_path, &skeleton, &size, error);
  _tprof_h5_leave (&guard);
  if (result < 0)
    return -1;
  if (__builtin_add_overflow ((uint64_t) size + (320 << 10), operations, &estimate)
      || estimate > (uint64_t) INT64_MAX)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: the file would be too large", out->path);
  else if (_tprof_save_file_reserve (out, (off_t) estimate, error) < 0 ||
           _tprof_save_file_pwrite (out, skeleton, size, 0, error) < 0)
    result = -1;
  free (skeleton);
  return result;
}

/* HDF5 adds every operation and the host names; @size is the file's end. */
static int
tprof_profiled_time_save_body (const TprofProfiledTime *pt,
                               TprofSaveFile           *out,
                               off_t                   *size,
                               TprofError              *error)
{
  TprofProfileWriter w;
  TprofH5Guard guard;
  int result;

  _tprof_h5_enter (&guard);
  result = _tprof_profile_writer_open (&w, out->path, out, tprof_profiled_time_world_size (pt), error);
  for (size_t op = 0; result == 0 && op < tprof_profiled_time_len (pt); op++)
    result = _tprof_profile_writer_add_operation (&w, pt, op, error);
  if (result == 0)
    result = _tprof_profile_writer_add_ranks (&w, pt, error);
  if (w.file >= 0 && _tprof_profile_writer_close (&w, size, error) < 0)
    result = -1;
  _tprof_h5_leave (&guard);
  return result;
}

int
tprof_profiled_time_save (const TprofProfiledTime *pt,
                          const char              *path,
                          TprofError              *error)
{
  TprofSaveFile out;
  off_t size = 0;

  tprof_error_clear (error);
  if (pt == NULL || path == NULL || path[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profiled_time_save: %s",
                            pt == NULL ? "the profile is NULL" : "the path is empty");

  /* the temporary file first: an unwritable place fails before any work */
  if (_tprof_save_file_create (&out, path, error) < 0)
    return -1;
  if (_tprof_save_start (pt, &out, tprof_profiled_time_operations_estimate (pt), error) < 0 ||
      tprof_profiled_time_save_body (pt, &out, &size, error) < 0)
    {
      _tprof_save_file_abandon (&out);
      return -1;
    }
  return _tprof_save_file_commit (&out, size, error);
}
