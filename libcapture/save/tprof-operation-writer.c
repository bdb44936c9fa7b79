/* tprof-operation-writer.c — the writer's datasets and attributes, and an operation's samples grouped by rank as the file stores them. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-analysis-internal.h"
#include "tprof-h5-writer-private.h"

static int
tprof_profile_writer_attr (TprofProfileWriter *w,
                           hid_t               obj,
                           const char         *name,
                           hid_t               file_type,
                           hid_t               mem_type,
                           const void         *value)
{
  hid_t attr = H5Acreate2 (obj, name, file_type, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
  herr_t status = attr >= 0 ? H5Awrite (attr, mem_type, value) : -1;

  _tprof_h5_close (attr);
  return status < 0 ? -1 : 0;
}

int
_tprof_profile_writer_string_attr (TprofProfileWriter *w,
                                   hid_t               obj,
                                   const char         *name,
                                   const char         *value)
{
  return tprof_profile_writer_attr (w, obj, name, w->str_type, w->str_type, &value);
}

int
_tprof_profile_writer_int_attr (TprofProfileWriter *w,
                                hid_t               obj,
                                const char         *name,
                                long long           value)
{
  return tprof_profile_writer_attr (w, obj, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &value);
}

int
_tprof_profile_writer_double_attr (TprofProfileWriter *w,
                                   hid_t               obj,
                                   const char         *name,
                                   double              value)
{
  return tprof_profile_writer_attr (w, obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

/* A 1-D dataset of @n values of @file_type in @group: compact (inside its
 * header) when @compact, else contiguous and allocated at once. */
static hid_t
tprof_profile_writer_create_array (TprofProfileWriter *w,
                                   hid_t               group,
                                   const char         *name,
                                   hid_t               file_type,
                                   size_t              n,
                                   bool                compact)
{
  hsize_t dims[1] = { n };
  hid_t space = H5Screate_simple (1, dims, NULL);
  hid_t dset = -1;

  if (space >= 0)
    dset = H5Dcreate2 (group, name, file_type, space, H5P_DEFAULT,
                       compact ? w->dcpl_compact : w->dcpl_contiguous, H5P_DEFAULT);
  _tprof_h5_close (space);
  return dset;
}

int
_tprof_profile_writer_add_array (TprofProfileWriter *w,
                                 hid_t               group,
                                 const char         *name,
                                 hid_t               file_type,
                                 hid_t               mem_type,
                                 const void         *data,
                                 size_t              n,
                                 TprofError         *error)
{
  size_t bytes = n * H5Tget_size (mem_type);
  bool compact = bytes <= TPROF_H5_COMPACT_MAX;
  /* our bytes go to the file as they are: the file types are little-endian */
  bool ours = !compact && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
  hid_t dset = tprof_profile_writer_create_array (w, group, name, file_type, n, compact);
  haddr_t offset = HADDR_UNDEF;
  int result = -1;

  if (dset >= 0 && !ours)
    result = n == 0 || H5Dwrite (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0 ? 0 : -1;
  else if (dset >= 0 && (offset = H5Dget_offset (dset)) != HADDR_UNDEF)
    /* allocated early and never filled: the bytes are ours to write */
    result = _tprof_save_file_pwrite (w->out, data, bytes, (off_t) offset, error);
  _tprof_h5_close (dset);
  return result;
}

int
_tprof_profile_writer_add_room (TprofProfileWriter *w,
                                hid_t               group,
                                const char         *name,
                                hid_t               file_type,
                                size_t              n,
                                uint64_t           *offset,
                                hid_t              *kept)
{
  hid_t dset = tprof_profile_writer_create_array (w, group, name, file_type, n, false);
  haddr_t at = dset >= 0 && n > 0 ? H5Dget_offset (dset) : HADDR_UNDEF;
  int result = dset >= 0 && (n == 0 || at != HADDR_UNDEF) ? 0 : -1;

  *offset = at != HADDR_UNDEF ? (uint64_t) at : UINT64_MAX;
  if (kept != NULL && result == 0)
    *kept = dset;
  else
    _tprof_h5_close (dset);
  return result;
}

static const int32_t *sorting_ranks;  /* under the HDF5 lock, which makes it safe */

static int
tprof_operation_writer_compare_samples (const void *a,
                                        const void *b)
{
  size_t x = *(const size_t *) a, y = *(const size_t *) b;
  int32_t rx = sorting_ranks[x], ry = sorting_ranks[y];

  return rx != ry ? (rx > ry) - (rx < ry) : (x > y) - (x < y);
}

/* A copy of @gt, timeline included, with its samples grouped by rank and
 * each rank's in their order; NULL when memory is exhausted. */
static TprofGatheredTime *
tprof_operation_writer_grouped_timeline (const TprofGatheredTime *gt)
{
  size_t n = tprof_gathered_time_count (gt);
  size_t *order = malloc (n * sizeof *order);
  TprofGatheredTime *grouped;

  if (order == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  sorting_ranks = tprof_gathered_time_ranks (gt);
  qsort (order, n, sizeof *order, tprof_operation_writer_compare_samples);
  sorting_ranks = NULL;
  grouped = _tprof_gathered_time_permuted (gt, order);
  free (order);
  return grouped;
}

const TprofGatheredTime *
_tprof_operation_writer_grouped (TprofProfileWriter      *w,
                                const char              *name,
                                const TprofGatheredTime *gt,
                                TprofGatheredTime      **copy,
                                TprofError              *error)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);
  double *times;
  int32_t *grouped_ranks;

  *copy = NULL;
  /* ascending by its builder (a merge of spill files): its extremes say
   * whether every rank is in range */
  if (_tprof_gathered_time_ranks_grouped (gt) && (n == 0 || (ranks[0] >= 0 && ranks[n - 1] < w->world_size)))
    return gt;
  switch (_tprof_h5_rank_order (ranks, n, w->world_size))
    {
    case TPROF_H5_GROUPED:
      return gt;
    case TPROF_H5_OUT_OF_RANGE:
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: operation '%s' has a rank outside [0, %d)",
                       w->path, name, w->world_size);
      return NULL;
    case TPROF_H5_INTERLEAVED:
      break;
    }
  if (tprof_gathered_time_starts (gt) != NULL)
    {
      /* the timeline moves with its samples */
      *copy = tprof_operation_writer_grouped_timeline (gt);
      if (*copy == NULL)
        tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'",
                         w->path, name);
      return *copy;
    }
  /* n fits: the selection already holds n doubles */
  times = malloc (n * sizeof *times);
  grouped_ranks = malloc (n * sizeof *grouped_ranks);
  if (times != NULL && grouped_ranks != NULL &&
      _tprof_h5_group_by_rank (tprof_gathered_time_times (gt), ranks, n, w->world_size, times, grouped_ranks))
    *copy = tprof_gathered_time_new_take (times, grouped_ranks, n);
  else
    {
      free (times);
      free (grouped_ranks);
    }
  if (*copy == NULL)
    tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'",
                     w->path, name);
  return *copy;
}
