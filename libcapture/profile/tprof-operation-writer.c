/* tprof-operation-writer.c — one operation's group: its name, cached statistics and samples (DESIGN.md sections 2 and 2b). */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-gathered-time-private.h"
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
                                uint64_t           *offset)
{
  hid_t dset = tprof_profile_writer_create_array (w, group, name, file_type, n, false);
  haddr_t at = dset >= 0 && n > 0 ? H5Dget_offset (dset) : HADDR_UNDEF;

  *offset = at != HADDR_UNDEF ? (uint64_t) at : UINT64_MAX;
  _tprof_h5_close (dset);
  return dset >= 0 && (n == 0 || at != HADDR_UNDEF) ? 0 : -1;
}

static int
tprof_operation_writer_stats (TprofProfileWriter        *w,
                              hid_t                      group,
                              const TprofCachedStats *cache,
                              TprofError                *error)
{
  const TprofSummary *s = &cache->summary;
  size_t ws = (size_t) w->world_size;

  if (_tprof_profile_writer_int_attr (w, group, "count", (long long) s->count) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "sum", s->sum) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "mean", s->mean) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "std", s->std) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "min", s->min) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "max", s->max) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "median", s->median) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "p95", s->p95) < 0 ||
      _tprof_profile_writer_double_attr (w, group, "p99", s->p99) < 0)
    return -1;
  if (_tprof_profile_writer_add_array (w, group, "rank_count", H5T_STD_I64LE, H5T_NATIVE_INT64,
                                       cache->rank_count, ws, error) < 0 ||
      _tprof_profile_writer_add_array (w, group, "rank_sum", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                       cache->rank_sum, ws, error) < 0 ||
      _tprof_profile_writer_add_array (w, group, "rank_min", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                       cache->rank_min, ws, error) < 0 ||
      _tprof_profile_writer_add_array (w, group, "rank_max", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                       cache->rank_max, ws, error) < 0)
    return -1;
  if (cache->rank_recorded != NULL
      && _tprof_profile_writer_add_array (w, group, "rank_recorded", H5T_STD_I64LE, H5T_NATIVE_INT64,
                                          cache->rank_recorded, ws, error) < 0)
    return -1;
  return 0;
}

static const char *const tprof_operation_field_names[TPROF_H5_N_FIELDS] = {
  [TPROF_H5_FIELD_TIMES] = "times",
  [TPROF_H5_FIELD_RANKS] = "ranks",
  [TPROF_H5_FIELD_STARTS] = "starts",
  [TPROF_H5_FIELD_THREADS] = "threads",
};

/* Durations and starts are float64, ranks and threads int32 (DESIGN.md 2, 2b). */
static bool
tprof_operation_field_is_double (int field)
{
  return field == TPROF_H5_FIELD_TIMES || field == TPROF_H5_FIELD_STARTS;
}

/* The sample arrays of @parts: written from its data, or left as room. */
static int
tprof_operation_writer_samples (TprofProfileWriter  *w,
                                hid_t                group,
                                TprofOperationParts *parts,
                                TprofError          *error)
{
  int n_fields = parts->timeline ? TPROF_H5_N_FIELDS : TPROF_H5_FIELD_STARTS;

  for (int f = 0; f < TPROF_H5_N_FIELDS; f++)
    parts->offsets[f] = UINT64_MAX;
  for (int f = 0; f < n_fields; f++)
    {
      bool dbl = tprof_operation_field_is_double (f);
      hid_t file_type = dbl ? H5T_IEEE_F64LE : H5T_STD_I32LE;
      int result = parts->left_to_ranks
        ? _tprof_profile_writer_add_room (w, group, tprof_operation_field_names[f], file_type, parts->n,
                                          &parts->offsets[f])
        : _tprof_profile_writer_add_array (w, group, tprof_operation_field_names[f], file_type,
                                           dbl ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT32, parts->data[f],
                                           parts->n, error);

      if (result < 0)
        return -1;
    }
  return 0;
}

int
_tprof_profile_writer_add_parts (TprofProfileWriter  *w,
                                 TprofOperationParts *parts,
                                 TprofError          *error)
{
  char *link_name;
  hid_t group;
  int result = -1;

  /* checked again: samples appended by the gather or the library's own
   * code bypass tprof_profiled_time_add() */
  if (!_tprof_h5_utf8_valid (parts->name, strlen (parts->name)))
    return tprof_error_set (error, TPROF_ERROR_INVALID, "%s: cannot save: an operation name is not valid UTF-8",
                            w->path);
  link_name = _tprof_h5_escape_name (parts->name);
  if (link_name == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'",
                            w->path, parts->name);
  group = H5Gcreate2 (w->timings, link_name, w->lcpl, w->gcpl_operation, H5P_DEFAULT);
  if (group >= 0 && _tprof_profile_writer_string_attr (w, group, "name", parts->name) == 0 &&
      tprof_operation_writer_samples (w, group, parts, error) == 0 &&
      tprof_operation_writer_stats (w, group, parts->cache, error) == 0)
    result = 0;
  else if (error == NULL || error->code == 0)
    _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write operation '%s'", parts->name);
  _tprof_h5_close (group);
  free (link_name);
  return result;
}

/* The group of operation @name holding the samples of @gt (grouped by
 * rank) and their statistics; a selection with starts but no threads
 * stores thread 0 for all (DESIGN.md 2b). */
static int
tprof_operation_writer_group (TprofProfileWriter      *w,
                              const char              *name,
                              const TprofGatheredTime *gt,
                              TprofError              *error)
{
  TprofCachedStats cache;
  size_t n = tprof_gathered_time_count (gt);
  const int32_t *threads = tprof_gathered_time_threads (gt);
  int32_t *zeros = NULL;
  TprofOperationParts parts = {
    .name = name,
    .n = n,
    .timeline = tprof_gathered_time_starts (gt) != NULL,
    .cache = &cache,
  };
  int result;
  size_t invalid = _tprof_h5_find_invalid (tprof_gathered_time_times (gt), tprof_gathered_time_ranks (gt),
                                           0, n, w->world_size);

  if (invalid < n)
    {
      char where[1024];

      snprintf (where, sizeof where, "%s: cannot save: ", w->path);
      return _tprof_h5_invalid_sample_error (error, TPROF_ERROR_INVALID, where, name,
                                             tprof_gathered_time_times (gt), tprof_gathered_time_ranks (gt),
                                             invalid, w->world_size);
    }
  if (parts.timeline && threads == NULL && (threads = zeros = calloc (n != 0 ? n : 1, sizeof *zeros)) == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing threads", w->path);
  if (!_tprof_cached_stats_init (&cache, gt, w->world_size))
    {
      free (zeros);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'",
                              w->path, name);
    }
  parts.data[TPROF_H5_FIELD_TIMES] = tprof_gathered_time_times (gt);
  parts.data[TPROF_H5_FIELD_RANKS] = tprof_gathered_time_ranks (gt);
  parts.data[TPROF_H5_FIELD_STARTS] = tprof_gathered_time_starts (gt);
  parts.data[TPROF_H5_FIELD_THREADS] = threads;
  result = _tprof_profile_writer_add_parts (w, &parts, error);
  _tprof_cached_stats_clear (&cache);
  free (zeros);
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

/* @gt as stored: itself when grouped by rank (no copy), else a grouped
 * copy in *@copy, which the caller frees. NULL with @error on failure. */
static const TprofGatheredTime *
tprof_operation_writer_grouped (TprofProfileWriter      *w,
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

int
_tprof_profile_writer_add_operation (TprofProfileWriter      *w,
                                     const TprofProfiledTime *pt,
                                     size_t                   op,
                                     TprofError              *error)
{
  const char *name = tprof_profiled_time_name (pt, op);
  const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, op);
  size_t n = tprof_gathered_time_count (gt);
  uint64_t upcoming = (uint64_t) n * (sizeof (double) + sizeof (int32_t))
                      * (tprof_gathered_time_starts (gt) != NULL ? 2 : 1)
                      + (uint64_t) w->world_size * 5 * sizeof (double) + 4 * strlen (name);
  TprofGatheredTime *copy;
  int result;

  /* its link in /timings: a heap block may double for it */
  w->deferred_bound += 2 * (3 * strlen (name) + 64);
  if (_tprof_profile_writer_reserve (w, upcoming, error) < 0)
    return -1;
  gt = tprof_operation_writer_grouped (w, name, gt, &copy, error);
  if (gt == NULL)
    return -1;
  result = tprof_operation_writer_group (w, name, gt, error);
  tprof_gathered_time_free (copy);
  return result;
}
