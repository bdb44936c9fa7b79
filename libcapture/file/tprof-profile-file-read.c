/* tprof-profile-file-read.c — a TprofProfileFile's samples and statistics through its source; the in-process source, HDF5 here. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profile-file.h"
#include "tprof-h5-reader-private.h"

static int
tprof_profile_file_compare_ranks (const void *a,
                                  const void *b)
{
  int32_t x = *(const int32_t *) a, y = *(const int32_t *) b;

  return (x > y) - (x < y);
}

/* @ranks sorted, without repeats or ranks outside the world (which hold
 * no samples), in a new array; NULL when memory is exhausted. */
static int32_t *
tprof_profile_file_normalize_ranks (const TprofProfileFile *pf,
                                    const int32_t          *ranks,
                                    size_t                  n_ranks,
                                    size_t                 *n_out)
{
  int32_t *sorted = malloc ((n_ranks != 0 ? n_ranks : 1) * sizeof *sorted);
  size_t m = 0;

  if (sorted == NULL)
    return NULL;
  memcpy (sorted, ranks, n_ranks * sizeof *sorted);
  qsort (sorted, n_ranks, sizeof *sorted, tprof_profile_file_compare_ranks);
  for (size_t i = 0; i < n_ranks; i++)
    if (sorted[i] >= 0 && sorted[i] < pf->world_size && (m == 0 || sorted[m - 1] != sorted[i]))
      sorted[m++] = sorted[i];
  *n_out = m;
  return sorted;
}

/* The in-process source: HDF5 reads, the cache is checked here. */
static TprofGatheredTime *
in_process_read (TprofProfileFile   *file,
                 size_t              op,
                 const int32_t      *ranks,
                 size_t              n_ranks,
                 TprofProgressFunc   progress,
                 void               *user_data,
                 const volatile int *cancel,
                 TprofError         *error)
{
  TprofGatheredTime *gt;

  if (progress != NULL)
    progress (0.0, user_data);
  gt = _tprof_h5_read_samples (file, op, ranks, n_ranks, progress, user_data, cancel, error);
  if (gt != NULL && _tprof_operation_cache_check (file, &file->ops[op], gt, ranks, n_ranks, error) < 0)
    {
      tprof_gathered_time_free (gt);
      gt = NULL;
    }
  if (gt != NULL && !_tprof_operation_cache_attach_recorded (file, &file->ops[op], gt, ranks, n_ranks))
    {
      tprof_gathered_time_free (gt);
      gt = NULL;
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", file->path);
    }
  if (gt != NULL && progress != NULL)
    progress (1.0, user_data);
  return gt;
}

TprofGatheredTime *
tprof_profile_file_read_operation (TprofProfileFile   *file,
                                   size_t              op,
                                   const int32_t      *ranks,
                                   size_t              n_ranks,
                                   TprofProgressFunc   progress,
                                   void               *user_data,
                                   const volatile int *cancel,
                                   TprofError         *error)
{
  int32_t *selected = NULL;
  size_t n_selected = 0;
  TprofGatheredTime *gt;

  tprof_error_clear (error);
  if (file == NULL || op >= file->n_ops)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profile_file_read_operation: %s",
                       file == NULL ? "the file is NULL" : "no such operation");
      return NULL;
    }
  if (ranks != NULL && (selected = tprof_profile_file_normalize_ranks (file, ranks, n_ranks, &n_selected)) == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", file->path);
      return NULL;
    }
  gt = file->source->read (file, op, selected, n_selected, progress, user_data, cancel, error);
  free (selected);
  return gt;
}

/* The per-rank arrays of @op from its samples' rank summaries. */
static bool
tprof_profile_file_fill_rank_stats (const TprofProfileFile  *pf,
                                    TprofH5Operation        *op,
                                    const TprofGatheredTime *gt)
{
  TprofH5OperationStats *st = _tprof_h5_operation_stats (pf, op);
  size_t w = (size_t) pf->world_size;
  TprofRankSummary *summaries = NULL;
  size_t n = tprof_gathered_time_rank_summaries (gt, &summaries);

  st->computed_count = calloc (w, sizeof *st->computed_count);
  st->computed_sum = calloc (w, sizeof *st->computed_sum);
  st->computed_min = malloc (w * sizeof *st->computed_min);
  st->computed_max = malloc (w * sizeof *st->computed_max);
  if (n == (size_t) -1 || st->computed_count == NULL || st->computed_sum == NULL
      || st->computed_min == NULL || st->computed_max == NULL)
    {
      free (summaries);
      free (st->computed_count);
      free (st->computed_sum);
      free (st->computed_min);
      free (st->computed_max);
      st->computed_count = NULL;
      st->computed_sum = st->computed_min = st->computed_max = NULL;
      return false;
    }
  for (size_t r = 0; r < w; r++)
    st->computed_min[r] = st->computed_max[r] = NAN;
  for (size_t i = 0; i < n; i++)
    {
      int32_t r = summaries[i].rank;

      st->computed_count[r] = (int64_t) summaries[i].count;
      st->computed_sum[r] = summaries[i].sum;
      st->computed_min[r] = summaries[i].min;
      st->computed_max[r] = summaries[i].max;
    }
  free (summaries);
  return true;
}

const TprofOperationStats *
_tprof_profile_file_stats_from_samples (TprofProfileFile *file,
                                        size_t            op,
                                        TprofError       *error)
{
  TprofH5Operation *o = &file->ops[op];
  TprofH5OperationStats *st = &file->op_stats[op];
  TprofGatheredTime *gt = tprof_profile_file_read_operation (file, op, NULL, 0, NULL, NULL, NULL, error);
  bool ok;

  if (gt == NULL)
    return NULL;
  ok = tprof_gathered_time_summarize (gt, &st->stats.summary)
       && tprof_profile_file_fill_rank_stats (file, o, gt);
  tprof_gathered_time_free (gt);
  if (!ok)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory summarizing operation '%s'",
                       file->path, o->name);
      return NULL;
    }
  st->stats.rank_count = st->computed_count;
  st->stats.rank_sum = st->computed_sum;
  st->stats.rank_min = st->computed_min;
  st->stats.rank_max = st->computed_max;
  st->stats_ready = true;
  return &st->stats;
}

static void
in_process_close (TprofProfileFile *file)
{
  TprofH5Guard guard;

  _tprof_h5_enter (&guard);
  _tprof_columns_close (file);
  _tprof_h5_close (file->file);
  file->file = -1;
  _tprof_h5_leave (&guard);
}

const TprofProfileSource _tprof_profile_file_in_process = {
  in_process_read, _tprof_profile_file_stats_from_samples, in_process_close, _tprof_columns_read_rows, _tprof_columns_stored_crc,
};

const TprofOperationStats *
tprof_profile_file_operation_stats (TprofProfileFile *file,
                                    size_t            op,
                                    TprofError       *error)
{
  tprof_error_clear (error);
  if (file == NULL || op >= file->n_ops)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profile_file_operation_stats: %s",
                       file == NULL ? "the file is NULL" : "no such operation");
      return NULL;
    }
  if (file->op_stats[op].stats_ready)
    return &file->op_stats[op].stats;
  return file->source->stats (file, op, error);
}
