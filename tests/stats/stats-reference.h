/* stats-reference.h — runs reference.py (numpy) on test data and reads back the expected numbers. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <stdint.h>

#include <tprof/capture.h>

typedef struct _StatsReference StatsReference;

/* Writes @times and @ranks to a temporary directory and runs
 * `reference.py COMMAND DIR ARGS...` (@args NULL-terminated, may be NULL).
 * Fails the test when Python fails. */
StatsReference *stats_reference_run (const char    *command,
                                     const double  *times,
                                     const int32_t *ranks,
                                     gsize          n,
                                     const char   **args);
/* The same with any files: each written as @files[i].name in DIR. */
typedef struct
{
  const char   *name;
  gconstpointer data;
  gsize         size;
} StatsReferenceFile;
StatsReference *stats_reference_run_files (const char               *command,
                                           const StatsReferenceFile *files,
                                           gsize                     n_files,
                                           const char              **args);
void            stats_reference_free (StatsReference *ref);

/* The values printed under @name; fails the test when absent. */
const double   *stats_reference_get (StatsReference *ref,
                                     const char     *name,
                                     gsize          *n_values);
/* The single value printed under @name. */
double          stats_reference_get_one (StatsReference *ref,
                                         const char     *name);

/* Asserts |actual - expected| <= rel_tol * |expected|; NaN matches NaN only. */
#define stats_assert_close(actual, expected, rel_tol) \
  stats_assert_close_impl (__FILE__, __LINE__, #actual, (actual), (expected), (rel_tol))
void stats_assert_close_impl (const char *file,
                              int         line,
                              const char *expression,
                              double      actual,
                              double      expected,
                              double      rel_tol);

/* Reproducible test data: timings spread like real ones (log-normal around
 * 1 ms), ranks uniform in [0, n_ranks). Caller frees both with g_free(). */
void stats_random_samples (gsize      n,
                           int32_t    n_ranks,
                           double   **times,
                           int32_t  **ranks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StatsReference, stats_reference_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofGatheredTime, tprof_gathered_time_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TprofHistogram, tprof_histogram_free)
