/* tprof-straggler-private.h — adding to TprofStragglers the blame of an operation analysed elsewhere (the live analysis). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>

#include <tprof/tprof-arrival.h>

/* Adds one operation whose arrival @arrival was found elsewhere, with its
 * per-rank blame @wait_caused and @late_count (world_size entries each)
 * and @has_samples[r] true for the ranks with samples of it: what
 * tprof_stragglers_add() adds for the same samples. Nothing is added
 * unless @arrival->synchronising. */
void _tprof_stragglers_add_blame (TprofStragglers    *s,
                                  const TprofArrival *arrival,
                                  const double       *wait_caused,
                                  const uint64_t     *late_count,
                                  const bool         *has_samples);
