/* tprof-save-shell.c — a parallel save's file without its samples: the columns' metadata and tables, written by one rank. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-writer-private.h"

/* HDF5 writes the columns' metadata and /ranks, we the tables; the
 * sample columns stay empty. */
static int
tprof_save_shell_body (TprofSaveShell          *shell,
                       const TprofProfiledTime *info,
                       TprofOperationParts     *ops,
                       size_t                   n_ops,
                       TprofError              *error)
{
  TprofProfileWriter w;
  TprofColumnsLayout l = { 0 };
  TprofH5Guard guard;
  int world_size = tprof_profiled_time_world_size (info);
  int result;

  _tprof_h5_enter (&guard);
  result = _tprof_profile_writer_create (&w, info, shell->file.path, &shell->file, error);
  if (result == 0)
    result = _tprof_columns_layout_init (&l, ops, n_ops, world_size, shell->file.path, error);
  if (result == 0)
    result = _tprof_columns_writer_create (&w, &l, error);
  if (result == 0)
    result = _tprof_columns_writer_tables (&w, &l, error);
  if (result == 0)
    result = _tprof_columns_writer_table_checksums (&w, &l, error);
  if (result == 0)
    result = _tprof_profile_writer_add_ranks (&w, info, error);
  _tprof_columns_writer_close (&l);
  if (w.file >= 0 && _tprof_profile_writer_close (&w, &shell->size, error) < 0)
    result = -1;
  _tprof_h5_leave (&guard);
  _tprof_columns_layout_clear (&l);
  return result;
}

int
_tprof_save_shell_write (TprofSaveShell          *shell,
                         const char              *path,
                         const TprofProfiledTime *info,
                         TprofOperationParts     *ops,
                         size_t                   n_ops,
                         TprofError              *error)
{
  int world_size = tprof_profiled_time_world_size (info);
  uint64_t segments = 0, samples = 0, timeline_samples = 0, operations;

  memset (shell, 0, sizeof *shell);
  shell->file.fd = -1;
  for (size_t op = 0; op < n_ops; op++)
    {
      if (!ops[op].left_to_ranks)
        return tprof_error_set (error, TPROF_ERROR_INVALID, "%s: an operation's samples were given", path);
      /* the counts come from the ranks: a sum that overflows is too large */
      if (__builtin_add_overflow (samples, (uint64_t) ops[op].n, &samples))
        samples = UINT64_MAX;
      segments += _tprof_save_operation_segments (ops[op].n, world_size);
      timeline_samples += ops[op].timeline ? ops[op].n : 0;
    }
  operations = samples == UINT64_MAX ? UINT64_MAX
               : _tprof_save_operations_estimate (n_ops, segments, samples, timeline_samples);
  if (operations == UINT64_MAX)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: the file would be too large", path);
  if (_tprof_save_file_create_named (&shell->file, path, error) < 0)
    return -1;
  if (_tprof_save_start (info, &shell->file, operations, error) < 0
      || tprof_save_shell_body (shell, info, ops, n_ops, error) < 0)
    {
      _tprof_save_file_abandon (&shell->file);
      return -1;
    }
  return 0;
}

const char *
_tprof_save_shell_path (const TprofSaveShell *shell)
{
  return shell->file.tmp_path;
}

int
_tprof_save_shell_commit (TprofSaveShell *shell,
                          TprofError     *error)
{
  return _tprof_save_file_commit (&shell->file, shell->size, error);
}

void
_tprof_save_shell_abandon (TprofSaveShell *shell)
{
  _tprof_save_file_abandon (&shell->file);
}
