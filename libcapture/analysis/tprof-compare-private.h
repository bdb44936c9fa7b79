/* tprof-compare-private.h — what the comparison's files share: the per-sample part of a comparison and the verdict's tests. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <tprof/tprof-compare.h>

/* Blocks of occurrences per run in the verdict's test with one run a side:
 * at most this many, of at least BLOCK_MIN_OCCURRENCES occurrences each. */
#define TPROF_COMPARE_BLOCKS          10
#define TPROF_COMPARE_BLOCK_MIN_OCCURRENCES 5

/* One run a side: how many times the larger spread seen inside the runs
 * (between blocks, between ranks) whole runs may differ by, as a standard
 * deviation of their logs (docs/compare.md says why 2). */
#define TPROF_COMPARE_RUN_SPREAD_FACTOR 2.0

/* Everything of @out but the verdict's test, its interval and the
 * verdict: counts, medians, ratio, p_value (= p_adjusted); the verdict's
 * fields and the interval NaN / none. Returns false when memory is exhausted. */
bool _tprof_compare_pooled (const double    *base,
                            size_t           n_base,
                            const double    *new_samples,
                            size_t           n_new,
                            TprofComparison *out);

/* The verdict's test over blocks of the samples @base[0..@n_base) and
 * @new_samples[0..@n_new), each taken as one rank's occurrences in order,
 * into @out's verdict fields. Returns false when memory is exhausted. */
bool _tprof_compare_flat_blocks (const double    *base,
                                 size_t           n_base,
                                 const double    *new_samples,
                                 size_t           n_new,
                                 TprofComparison *out);
