/* tprof-profiled-time-load.c — tprof_profiled_time_load() and _load_isolated(): a whole profile, read through TprofProfileFile: format 3's columns at once, older files one operation at a time. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profile-file.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-reader-private.h"
#include "tprof-profiled-time-internal.h"

/* Moves what @pf knows beyond the samples into @pt. */
static int
tprof_profiled_time_take_metadata (TprofProfiledTime *pt,
                                   TprofProfileFile  *pf,
                                   TprofError        *error)
{
  if (pf->hostnames != NULL
      && tprof_profiled_time_set_hostnames (pt, (const char *const *) pf->hostnames, error) < 0)
    return -1;
  _tprof_profiled_time_take_info (pt, pf->created, pf->producer, pf->clock);
  pf->created = pf->producer = pf->clock = NULL;
  if (tprof_profile_file_clock_offsets (pf) != NULL)
    {
      tprof_profiled_time_set_timeline_take (pt, pf->clock_offsets, pf->clock_offset_errors, pf->timeline_origin);
      pf->clock_offsets = pf->clock_offset_errors = NULL;
      pf->timeline_origin = NULL;
    }
  return 0;
}

/* Operation @k of a format 3 file from the whole columns: its rows
 * (taken when they are all of them, else copied), ranks from its cache's
 * counts, checked against its cache. NULL with @error. */
static TprofGatheredTime *
tprof_profiled_time_cut (TprofProfileFile *pf,
                         size_t            k,
                         double          **times,
                         double          **starts,
                         int32_t         **threads,
                         TprofError       *error)
{
  const TprofH5Operation *op = &pf->ops[k];
  size_t n = (size_t) op->n;
  bool whole = n == pf->n_samples && n > 0;
  double *t = whole ? *times : malloc ((n > 0 ? n : 1) * sizeof *t);
  double *s = *starts == NULL ? NULL : whole ? *starts : malloc ((n > 0 ? n : 1) * sizeof *s);
  int32_t *th = *threads == NULL ? NULL : whole ? *threads : malloc ((n > 0 ? n : 1) * sizeof *th);
  int32_t *r = malloc ((n > 0 ? n : 1) * sizeof *r);
  TprofGatheredTime *gt = NULL;

  if (whole)
    *times = *starts = NULL, *threads = NULL;
  if (t != NULL && r != NULL && (*starts == NULL || s != NULL) && (*threads == NULL || th != NULL))
    {
      if (!whole)
        {
          memcpy (t, *times + op->row, n * sizeof *t);
          if (s != NULL)
            memcpy (s, *starts + op->row, n * sizeof *s);
          if (th != NULL)
            memcpy (th, *threads + op->row, n * sizeof *th);
        }
      _tprof_h5_ranks_from_counts (op->cache.rank_count, pf->world_size, 0, n, r);
      gt = tprof_gathered_time_new_take (t, r, n);
      t = NULL;
      r = NULL;
    }
  if (gt != NULL && (s != NULL || th != NULL) && tprof_gathered_time_set_timeline_take (gt, s, th))
    s = NULL, th = NULL;
  free (t);
  free (r);
  free (s);
  free (th);
  if (gt == NULL)
    tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation '%s'", pf->path, op->name);
  else if (_tprof_operation_cache_check (pf, op, gt, NULL, 0, error) < 0
           || !_tprof_operation_cache_attach_recorded (pf, op, gt, NULL, 0))
    {
      if (error == NULL || error->code == 0)
        tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
      tprof_gathered_time_free (gt);
      gt = NULL;
    }
  return gt;
}

/* Format 3 open in this process (HDF5 holds the file here): each sample
 * column read once, whole (and so checked against its checksum), then
 * cut into the operations. */
static bool
tprof_profiled_time_load_columns (TprofProfiledTime *pt,
                                  TprofProfileFile  *pf,
                                  TprofError        *error)
{
  double *times = NULL, *starts = NULL;
  int32_t *threads = NULL;
  bool ok = _tprof_columns_read_samples (pf, &times, &starts, &threads, error) == 0;

  for (size_t k = 0; ok && k < pf->n_ops; k++)
    {
      TprofGatheredTime *gt = tprof_profiled_time_cut (pf, k, &times, &starts, &threads, error);

      ok = gt != NULL && _tprof_profiled_time_append (pt, pf->ops[k].name, gt);
      if (gt != NULL && !ok)
        tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation '%s'",
                         pf->path, pf->ops[k].name);
    }
  free (times);
  free (starts);
  free (threads);
  return ok;
}

/* Every operation of the file at @path, opened by @open: format 3 read
 * in this process takes its sample columns whole, anything else (older
 * files, or a file behind the isolated reader) is read an operation at a
 * time. */
static TprofProfiledTime *
tprof_profiled_time_load_with (const char        *path,
                               TprofProfileFile *(*open) (const char *, TprofError *),
                               const char        *caller,
                               TprofError        *error)
{
  TprofProfileFile *pf;
  TprofProfiledTime *pt;
  bool columns;

  tprof_error_clear (error);
  if (path == NULL || path[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the path is empty", caller);
      return NULL;
    }
  pf = open (path, error);
  if (pf == NULL)
    return NULL;
  pt = tprof_profiled_time_new (pf->world_size);
  if (pt == NULL)
    tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);

  columns = pf->format_version >= 3 && pf->file >= 0;
  if (pt != NULL && columns && !tprof_profiled_time_load_columns (pt, pf, error))
    {
      tprof_profiled_time_free (pt);
      pt = NULL;
    }
  for (size_t op = 0; pt != NULL && !columns && op < pf->n_ops; op++)
    {
      TprofGatheredTime *gt = tprof_profile_file_read_operation (pf, op, NULL, 0, NULL, NULL, NULL, error);

      if (gt == NULL || !_tprof_profiled_time_append (pt, pf->ops[op].name, gt))
        {
          if (gt != NULL)
            tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation '%s'",
                             path, pf->ops[op].name);
          tprof_profiled_time_free (pt);
          pt = NULL;
        }
    }
  if (pt != NULL && tprof_profiled_time_take_metadata (pt, pf, error) < 0)
    {
      tprof_profiled_time_free (pt);
      pt = NULL;
    }
  tprof_profile_file_close (pf);
  return pt;
}

TprofProfiledTime *
tprof_profiled_time_load (const char *path,
                          TprofError *error)
{
  return tprof_profiled_time_load_with (path, tprof_profile_file_open, "tprof_profiled_time_load", error);
}

TprofProfiledTime *
tprof_profiled_time_load_isolated (const char *path,
                                   TprofError *error)
{
  return tprof_profiled_time_load_with (path, tprof_profile_file_open_isolated,
                                        "tprof_profiled_time_load_isolated", error);
}
