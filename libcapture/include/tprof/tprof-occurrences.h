/* tprof-occurrences.h — TprofOccurrences: the k-th sample of an operation on each rank, ordered by start (docs/analysis.md). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

typedef struct _TprofOccurrences TprofOccurrences;

/* The occurrences of the operation whose samples are @gt: occurrence k on
 * a rank is the rank's k-th sample (k from 0) by start, equal starts in
 * the order of @gt; without starts, in the order of @gt. In an SPMD
 * program occurrence k on every rank is the same iteration. @gt must
 * outlive the result (which reads its starts and times) and its ranks must
 * lie in [0, @world_size). O(n log n) time, 16 bytes a sample. Returns
 * NULL with @error set when a rank is out of range or memory is
 * exhausted; free the result with tprof_occurrences_free(). */
TPROF_EXPORT TprofOccurrences *tprof_occurrences_new (const TprofGatheredTime *gt,
                                                      int                      world_size,
                                                      TprofError              *error);
TPROF_EXPORT void tprof_occurrences_free (TprofOccurrences *occ);

/* The selection the occurrences are of, and the world size given. */
TPROF_EXPORT const TprofGatheredTime *tprof_occurrences_selection (const TprofOccurrences *occ);
TPROF_EXPORT int tprof_occurrences_world_size (const TprofOccurrences *occ);

/* Number of ranks with at least one sample, and those ranks (ascending,
 * owned by @occ). */
TPROF_EXPORT size_t tprof_occurrences_n_ranks (const TprofOccurrences *occ);
TPROF_EXPORT const int32_t *tprof_occurrences_ranks (const TprofOccurrences *occ);

/* Occurrences on @rank (0 for a rank without samples or out of range). */
TPROF_EXPORT size_t tprof_occurrences_count (const TprofOccurrences *occ,
                                             int                     rank);
/* The occurrences every rank with samples has: the smallest count() over
 * them (0 when no rank has samples). Arrival compares these. */
TPROF_EXPORT size_t tprof_occurrences_common (const TprofOccurrences *occ);

/* Index in the selection of occurrence @k on @rank; false when @k >=
 * count (@rank). */
TPROF_EXPORT bool tprof_occurrences_sample (const TprofOccurrences *occ,
                                            int                     rank,
                                            size_t                  k,
                                            size_t                 *sample);
/* Occurrence number of the selection's sample @sample on its rank; false
 * when @sample is out of range. */
TPROF_EXPORT bool tprof_occurrences_of_sample (const TprofOccurrences *occ,
                                               size_t                  sample,
                                               size_t                 *k);

TPROF_END_DECLS
