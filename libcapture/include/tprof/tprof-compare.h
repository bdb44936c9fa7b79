/* tprof-compare.h — comparing an operation across two runs: the ratio of medians, its interval, a Mann-Whitney U test, Holm's adjustment, the verdict. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* DESIGN.md 4b: the defaults of tprof compare. */
#define TPROF_COMPARE_ALPHA      0.05
#define TPROF_COMPARE_MIN_CHANGE 0.02

typedef enum
{
  TPROF_VERDICT_SAME,
  TPROF_VERDICT_SLOWER,
  TPROF_VERDICT_FASTER,
  TPROF_VERDICT_ONLY_BASE,   /* samples in the base run only */
  TPROF_VERDICT_ONLY_NEW,    /* samples in the new run only */
} TprofVerdict;

typedef struct
{
  size_t       base_count;
  size_t       new_count;
  double       base_median;   /* numpy's median; NaN when empty */
  double       new_median;
  double       ratio;         /* new median / base median */
  double       ci_low;        /* a 95% interval of the ratio (HACKING.md says how) */
  double       ci_high;
  double       p_value;       /* two-sided Mann-Whitney U test, normal approximation
                               * with tie and continuity correction (scipy's
                               * mannwhitneyu method="asymptotic"); NaN with a side empty */
  double       p_adjusted;    /* Holm's, over the comparisons decided together */
  TprofVerdict verdict;
} TprofComparison;

/* Compares the samples @base[0..@n_base) with @new_samples[0..@n_new) (either
 * may be empty): fills everything of @out, p_adjusted = p_value and the
 * verdict of this comparison alone at the default alpha and min_change.
 * O((n_base + n_new) log) time, a copy of both in memory. Returns false
 * when memory is exhausted. */
TPROF_EXPORT bool tprof_compare_samples (const double    *base,
                                         size_t           n_base,
                                         const double    *new_samples,
                                         size_t           n_new,
                                         TprofComparison *out);

/* The same for two selections (either may be NULL: no samples). */
TPROF_EXPORT bool tprof_compare_gathered (const TprofGatheredTime *base,
                                          const TprofGatheredTime *new_samples,
                                          TprofComparison         *out);

/* Holm's adjustment of the p-values of @comparisons[0..@n) taken together
 * (those without a p-value take no part), then each one's verdict: slower
 * when p_adjusted < @alpha and ratio > 1 + @min_change, faster when
 * p_adjusted < @alpha and ratio < 1 / (1 + @min_change), same otherwise;
 * only-base / only-new when one side is empty. */
TPROF_EXPORT void tprof_compare_decide (TprofComparison *comparisons,
                                        size_t           n,
                                        double           alpha,
                                        double           min_change);

/* "same", "slower", "faster", "only-base" or "only-new". */
TPROF_EXPORT const char *tprof_verdict_name (TprofVerdict verdict);

TPROF_END_DECLS
