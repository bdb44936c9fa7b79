/* tprof-slowest.h — whether the slowest rank stands out from the other ranks beyond noise. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* The least a rank must exceed the other ranks' median by, as a fraction
 * of it, to be called slower than them: ranks that wait for each other
 * end within a few percent of each other by chance. */
#define TPROF_SLOWEST_MIN_EXCESS 0.05

/* Whether @values[@index] lies above the other @n - 1 values by more than
 * noise: it exceeds their median by more than TPROF_SLOWEST_MIN_EXCESS of
 * it, and its robust z-score against them (0.6745 (x - median) / MAD)
 * exceeds TPROF_OUTLIER_Z (any excess counts when their MAD is 0). The
 * others are taken without the value itself, so that one slow rank of
 * two or four is seen. NaN values are left out. False with fewer than two
 * values, and when memory is exhausted (then nothing is called slowest). */
TPROF_EXPORT bool tprof_slowest_stands_out (const double *values,
                                            size_t        n,
                                            size_t        index);

TPROF_END_DECLS
