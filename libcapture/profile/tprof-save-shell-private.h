/* tprof-save-shell-private.h — one rank's part of a parallel save: the whole file but the operations' samples, whose room every rank fills. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tprof-h5-writer-private.h"

/* The temporary file of a parallel save while the ranks fill it. */
typedef struct
{
  TprofSaveFile file;
  off_t         size;  /* where it is cut at commit; -1: as it is */
} TprofSaveShell;

/* Creates the temporary file beside the file @path names (links
 * followed; only a regular file or nothing is ever replaced), reserves
 * its space and writes all of it but the samples: @info's root
 * attributes and /ranks (world size, host names, the timeline's offsets
 * and origin; @info holds no operation), and for each of @ops (which
 * must have left_to_ranks set) its rows of the tables and room for
 * its samples, whose offsets are filled in. HDF5 has closed the file
 * when this returns: other processes may write into the room, by the
 * name _tprof_save_shell_path() gives. 0, or -1 with @error and nothing
 * left behind. */
TPROF_EXPORT int  _tprof_save_shell_write (TprofSaveShell          *shell,
                                           const char              *path,
                                           const TprofProfiledTime *info,
                                           TprofOperationParts     *ops,
                                           size_t                   n_ops,
                                           TprofError              *error);

/* The temporary file's name. */
TPROF_EXPORT const char *_tprof_save_shell_path (const TprofSaveShell *shell);

/* After every rank's samples are durable: makes the file durable and
 * renames it over the target. 0, or -1 with @error (the target is then
 * untouched). The temporary file is gone either way. */
TPROF_EXPORT int  _tprof_save_shell_commit (TprofSaveShell *shell,
                                            TprofError     *error);

/* Removes the temporary file. */
TPROF_EXPORT void _tprof_save_shell_abandon (TprofSaveShell *shell);
