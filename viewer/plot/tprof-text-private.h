/* tprof-text-private.h — helpers shared by the text files of viewer/plot (units, files), not part of its interface. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdio.h>

#include "tprof-text.h"

G_BEGIN_DECLS

/* ---- units (tprof-units.c) ---- */

/* Tick labels: @secs in the unit suiting @max_abs, with as many decimals as
 * @step needs ("0.5 ms", "1.0 ms"). */
char *_tprof_format_duration_tick (double secs, double max_abs, double step);
/* "900", "12k", "1.5M"; @step as above (0: from the value). */
char *_tprof_format_count_tick (double count, double max_abs, double step);
/* A round duration, such as a log axis' tick: as tprof_format_duration()
 * but without trailing zeros ("10 ms", "1 µs"). */
char *_tprof_format_duration_round (double secs, int digits);

/* ---- files (tprof-plot-atomic-file.c) ---- */

/* A file written beside its destination and renamed over it on commit, so
 * that a failed write never damages an earlier file. The destination is
 * what @path names once symbolic links are followed; only a regular file
 * (or nothing) is replaced, and its mode and group are kept. */
typedef struct
{
  char *path;      /* as given, for messages */
  char *target;    /* @path with its links followed: what is replaced */
  char *tmp_path;
  FILE *stream;
} TprofAtomicFile;

gboolean _tprof_atomic_file_open (TprofAtomicFile  *file,
                                  const char       *path,
                                  GError          **error);
/* Closes and renames; on failure removes the temporary file. Frees @file's
 * contents either way. */
gboolean _tprof_atomic_file_commit (TprofAtomicFile  *file,
                                    GError          **error);
/* Removes the temporary file and frees @file's contents. */
void _tprof_atomic_file_abort (TprofAtomicFile *file);
/* The error for a write to @path that failed because of @reason. */
void _tprof_atomic_file_set_error (GError     **error,
                                   const char  *path,
                                   const char  *reason);

G_END_DECLS
