/* tprof-save-in-place-internal.h — a save whose sample rows their producer (the spill merge) writes at their final offsets as it reads them, the statistics and tables after. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "tprof-save-shell-internal.h"
#include "tprof/tprof-profiled-time.h"

TPROF_BEGIN_DECLS

typedef struct _TprofSaveInPlace TprofSaveInPlace;

/* Whether @n_ops operations @ops (their caches' counts filled, as for
 * _tprof_save_in_place_begin()) make a file large enough to be saved in
 * place: a small one is built as an image in memory by the ordinary save,
 * at less cost than HDF5's small writes to a file. */
TPROF_EXPORT bool _tprof_save_in_place_worth (const TprofOperationParts *ops,
                                              size_t                     n_ops,
                                              int                        world_size);

/* Creates the temporary file beside the file @path names with every column
 * of @n_ops operations @ops (left_to_ranks and timeline set, @n samples
 * each, on file) and @info's root attributes (a profile without
 * operations: its world size): the producer then writes every sample
 * row at its place (_tprof_save_in_place_put()). Each
 * operation's cache (@caches[k], ops[k].cache) has its per-rank arrays,
 * the counts filled (which ranks have rows, how many: the segments), the
 * sums zero; _tprof_save_in_place_commit() computes the rest. NULL with
 * @error set, nothing left behind. */
TPROF_EXPORT TprofSaveInPlace *_tprof_save_in_place_begin (const char              *path,
                                                           const TprofProfiledTime *info,
                                                           TprofOperationParts     *ops,
                                                           TprofCachedStats        *caches,
                                                           size_t                   n_ops,
                                                           TprofError              *error);

/* Writes @bytes of @data (native byte order) as the values of field @f
 * (times, starts, threads) of operation @op from its row @row (its rows
 * lie rank after rank). 0, or -1 with @error. */
TPROF_EXPORT int _tprof_save_in_place_put (TprofSaveInPlace *save,
                                           size_t            op,
                                           TprofH5Field      f,
                                           uint64_t          row,
                                           const void       *data,
                                           size_t            bytes,
                                           TprofError       *error);
/* Reads back what _tprof_save_in_place_put() wrote there. 0, or -1. */
TPROF_EXPORT int _tprof_save_in_place_get (TprofSaveInPlace *save,
                                           size_t            op,
                                           TprofH5Field      f,
                                           uint64_t          row,
                                           void             *data,
                                           size_t            bytes,
                                           TprofError       *error);

/* Once every row is written: the statistics of each operation by the
 * statistics engine over its rows in the file, the tables, the
 * checksums (the rows read back through reused buffers: one of the
 * largest operation's durations, one piece of the other columns), @info's
 * timeline origin and /ranks; then the file made
 * durable and renamed over the target. 0, or -1 with @error (the target
 * untouched). @save is freed either way. */
TPROF_EXPORT int _tprof_save_in_place_commit (TprofSaveInPlace        *save,
                                              const TprofProfiledTime *info,
                                              TprofError              *error);

/* Drops the temporary file; @save is freed. */
TPROF_EXPORT void _tprof_save_in_place_abandon (TprofSaveInPlace *save);

TPROF_END_DECLS
