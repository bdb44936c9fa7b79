/* tprof-outliers.h — the robust z-score that flags ranks whose total stands out. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* A value is an outlier when |robust z| exceeds this (Iglewicz and
 * Hoaglin's cut-off). */
#define TPROF_OUTLIER_Z 3.5

/* Robust z-score of each of the @n @values against their median:
 * 0.6745 (x - median) / MAD, or, when the MAD is 0 (more than half the
 * values equal), (x - median) / (1.253314 * mean absolute deviation); 0
 * for all when every value is the same. Writes @n entries to @z. False
 * when memory is exhausted. */
TPROF_EXPORT bool tprof_robust_z (const double *values,
                                  size_t        n,
                                  double       *z);

TPROF_END_DECLS
