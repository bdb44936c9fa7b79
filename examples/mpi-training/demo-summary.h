/* demo-summary.h — the short per-operation summary tprof-demo-training prints. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdio.h>

#include <tprof/capture.h>

/* Prints one line per operation of @pt to @out: count, mean, max and the
 * slowest rank; then the straggler named from arrival, beside the rank
 * durations alone would blame. Returns 0, or -1 when memory is exhausted. */
int demo_summary_print (FILE *out, const TprofProfiledTime *pt);
