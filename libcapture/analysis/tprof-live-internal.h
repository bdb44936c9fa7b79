/* tprof-live-internal.h — what a follower of TprofLive uses beyond the public API: holding back samples that a later part of the same read may precede. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <tprof/tprof-live.h>

/* Until _tprof_live_release(), no occurrence takes @rank's pending samples
 * of @op starting at or after @below (rank 0's timeline): samples still to
 * be added may start before them, and an update meanwhile must not pair
 * them otherwise than one made after every sample is added. A second hold
 * of the same samples replaces the first. */
TPROF_EXPORT void _tprof_live_hold (TprofLive *live,
                                    int        rank,
                                    size_t     op,
                                    double     below);
/* Lifts every hold; the next tprof_live_update() completes what they held. */
TPROF_EXPORT void _tprof_live_release (TprofLive *live);
