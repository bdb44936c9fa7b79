/* tprof-reader-source.c — a TprofProfileFile opened isolated reads through its helper process: the source tprof-reader-client.c talks to. */
/* SPDX-License-Identifier: MIT */
#include "tprof-reader-private.h"

/* Checked by the client or the helper; what the ranks recorded comes
 * with the cache or the statistics the helper sent. */
static TprofGatheredTime *
reader_read (TprofProfileFile   *file,
             size_t              op,
             const int32_t      *ranks,
             size_t              n_ranks,
             TprofProgressFunc   progress,
             void               *user_data,
             const volatile int *cancel,
             TprofError         *error)
{
  TprofGatheredTime *gt = _tprof_reader_client_read (file, op, ranks, n_ranks, progress, user_data, cancel, error);

  if (gt != NULL && !_tprof_operation_cache_attach_recorded (file, &file->ops[op], gt, ranks, n_ranks))
    {
      tprof_gathered_time_free (gt);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", file->path);
      return NULL;
    }
  return gt;
}

static void
reader_close (TprofProfileFile *file)
{
  _tprof_reader_client_close (file->remote);
  file->remote = NULL;
}

const TprofProfileSource _tprof_reader_source = {
  reader_read, _tprof_reader_client_stats, reader_close, _tprof_reader_client_read_rows,
  _tprof_reader_client_column_crc,
};
