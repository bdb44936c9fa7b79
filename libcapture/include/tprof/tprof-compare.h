/* tprof-compare.h — comparing an operation across runs: the ratio of medians, its interval, a Mann-Whitney U test, the verdict's test over blocks or runs, Holm's adjustment, the verdict. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* docs/compare.md: the defaults of tprof compare. */
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

/* The test the verdict rests on (docs/compare.md). */
typedef enum
{
  TPROF_VERDICT_TEST_NONE,     /* too few blocks or runs: no p_verdict, the verdict is "same" */
  TPROF_VERDICT_TEST_BLOCKS,   /* one run a side: medians of consecutive blocks of occurrences */
  TPROF_VERDICT_TEST_RUNS,     /* several runs, or a calibration: the medians of whole runs */
} TprofVerdictTest;

/* How much the log of a run's median varies between runs of the same code,
 * measured by tprof_compare_calibrate(). */
typedef struct
{
  size_t runs;          /* runs measured (with samples of the operation) */
  double log_sd;        /* sample standard deviation of the logs of their medians; NaN: fewer than 2 */
  double noise_floor;   /* the relative change of the median that two identical single runs
                         * exceed in 5% of pairs (the t distribution's 97.5% quantile with
                         * runs - 1 degrees of freedom times sqrt(2) log_sd, as a ratio - 1) */
} TprofRunSpread;

typedef struct
{
  size_t       base_count;
  size_t       new_count;
  double       base_median;   /* numpy's median; NaN when empty */
  double       new_median;
  double       ratio;         /* new median / base median */
  double       ci_low;        /* the 95% interval of the ratio the verdict's test makes (its
                               * estimate +- the t quantile times its error, exponentiated;
                               * not Holm-adjusted); NaN without a test */
  double       ci_high;
  double       p_value;       /* two-sided Mann-Whitney U test, normal approximation
                               * with tie and continuity correction (scipy's
                               * mannwhitneyu method="asymptotic"); NaN with a side empty */
  double       p_adjusted;    /* Holm's, over the comparisons decided together */
  TprofVerdictTest verdict_test;
  double       verdict_df;    /* degrees of freedom of the verdict's t test; NaN without one */
  double       p_verdict_raw; /* two-sided p of the verdict's test (blocks or runs); NaN without one */
  double       p_verdict;     /* Holm's adjustment of p_verdict_raw over the comparisons decided
                               * together: the p-value the verdict rests on */
  double       noise_floor;   /* smallest change that counts for this operation, from a
                               * calibration (NaN: none); the verdict uses the larger of it
                               * and the min_change it is given */
  TprofVerdict verdict;
} TprofComparison;

/* Compares the samples @base[0..@n_base) with @new_samples[0..@n_new) (either
 * may be empty): fills everything of @out, p_adjusted = p_value, the
 * verdict's test over blocks of consecutive samples (each array is taken as
 * one rank's occurrences in order), p_verdict = p_verdict_raw and the
 * verdict of this comparison alone at the default alpha and min_change.
 * O((n_base + n_new) log) time, a copy of both in memory. Returns false
 * when memory is exhausted. */
TPROF_EXPORT bool tprof_compare_samples (const double    *base,
                                         size_t           n_base,
                                         const double    *new_samples,
                                         size_t           n_new,
                                         TprofComparison *out);

/* The same for two selections (either may be NULL: no samples); the
 * verdict's blocks follow each rank's occurrences (tprof-occurrences.h). */
TPROF_EXPORT bool tprof_compare_gathered (const TprofGatheredTime *base,
                                          const TprofGatheredTime *new_samples,
                                          TprofComparison         *out);

/* Several runs a side, @base[0..@n_base) against @new_runs[0..@n_new) (an
 * entry may be NULL: that run has no samples of the operation). Medians,
 * ratio, interval and p_value are those of every run's samples of a side
 * taken together; the verdict's test takes each run's median as one
 * observation: a t test on their logs with the run-to-run variance pooled
 * from both sides and from @spread (NULL: no calibration). With one run a
 * side and no calibration, the test over blocks of
 * tprof_compare_gathered(). Returns false when memory is exhausted. */
TPROF_EXPORT bool tprof_compare_runs (const TprofGatheredTime *const *base,
                                      size_t                          n_base,
                                      const TprofGatheredTime *const *new_runs,
                                      size_t                          n_new,
                                      const TprofRunSpread           *spread,
                                      TprofComparison                *out);

/* The verdict's test alone, into the verdict's fields and the interval of
 * @out (the others untouched; none, NaN, when it cannot be made): over
 * blocks of occurrences of one run a side (either may be NULL); returns
 * false when memory is exhausted. */
TPROF_EXPORT bool tprof_compare_blocks (const TprofGatheredTime *base,
                                        const TprofGatheredTime *new_samples,
                                        TprofComparison         *out);
/* ... or on the medians of whole runs, @base_medians[0..@n_base) against
 * @new_medians[0..@n_new), with @spread (NULL: none); no test (none) when
 * a side has no run, a median is not positive, or there is no degree of
 * freedom. */
TPROF_EXPORT void tprof_compare_run_medians (const double         *base_medians,
                                             size_t                n_base,
                                             const double         *new_medians,
                                             size_t                n_new,
                                             const TprofRunSpread *spread,
                                             TprofComparison      *out);

/* The spread between @runs[0..@n) of identical code (NULL entries: runs
 * without the operation) into @out. Returns false when memory is exhausted. */
TPROF_EXPORT bool tprof_compare_calibrate (const TprofGatheredTime *const *runs,
                                           size_t                          n,
                                           TprofRunSpread                 *out);

/* Holm's adjustment of the p-values of @comparisons[0..@n) taken together
 * (those without a p-value take no part), p_value into p_adjusted and
 * p_verdict_raw into p_verdict, then each one's verdict, with m the larger
 * of @min_change and its noise_floor: slower when p_verdict < @alpha and
 * ratio > 1 + m, faster when p_verdict < @alpha and ratio < 1 / (1 + m),
 * same otherwise; only-base / only-new when one side is empty. */
TPROF_EXPORT void tprof_compare_decide (TprofComparison *comparisons,
                                        size_t           n,
                                        double           alpha,
                                        double           min_change);

/* "same", "slower", "faster", "only-base" or "only-new". */
TPROF_EXPORT const char *tprof_verdict_name (TprofVerdict verdict);

/* "none", "blocks" or "runs". */
TPROF_EXPORT const char *tprof_verdict_test_name (TprofVerdictTest test);

/* The two-sided p-value of Student's t distribution with @df degrees of
 * freedom at @t, and its quantile: the t whose upper tail holds @q. */
TPROF_EXPORT double tprof_student_t_p (double t,
                                       double df);
TPROF_EXPORT double tprof_student_t_upper (double q,
                                           double df);

TPROF_END_DECLS
