/* tprof-time-manager.h — TprofTimeManager: named timing samples recorded by one process. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

typedef struct _TprofTimeManager TprofTimeManager;
typedef struct _TprofProfiledTime TprofProfiledTime;

/* Returns a new, empty manager; free it with tprof_time_manager_free().
 * Returns NULL only when memory is exhausted. */
TPROF_EXPORT TprofTimeManager *tprof_time_manager_new (void);

/* Frees @tm and every sample it holds. @tm must not be enabled on any thread
 * and no thread may be recording into it. NULL is ignored. */
TPROF_EXPORT void tprof_time_manager_free (TprofTimeManager *tm);

/* Records one sample of @secs seconds for @name (a non-empty UTF-8 string,
 * copied). Safe to call from several threads at once. */
TPROF_EXPORT void tprof_time_manager_append_time (TprofTimeManager *tm,
                                                  const char       *name,
                                                  double            secs);

/* Stores in *@times a malloc'd copy of every sample of @name (the caller
 * frees it) and returns their number. Samples of one thread keep their
 * recording order; threads follow each other in the order of their thread
 * numbers (the order they first recorded in the process, as a profile's
 * threads column and a spill file number them). Unknown @name: returns 0
 * and stores NULL. */
TPROF_EXPORT size_t tprof_time_manager_get_time (TprofTimeManager *tm,
                                                 const char       *name,
                                                 double          **times);

/* Stores in *@names a malloc'd array (the caller frees the array, not the
 * strings, which live as long as the process) of the names recorded into
 * @tm, in the order they were first recorded, and returns its length.
 * No names: returns 0 and stores NULL. */
TPROF_EXPORT size_t tprof_time_manager_list_names (TprofTimeManager *tm,
                                                   const char     ***names);

/* Forgets every name and sample. Must not run while another thread records
 * into @tm. */
TPROF_EXPORT void tprof_time_manager_clear (TprofTimeManager *tm);

/* Bounds the memory @tm uses: from now on each series (one name recorded
 * on one thread) stores at most @max_samples samples. Past that it keeps
 * a uniform random subset of everything it recorded (reservoir sampling,
 * Li's Algorithm L: each sample recorded has the same chance to be among
 * those kept) and the exact count, sum, min and max of everything; a
 * profile of @tm then says, per operation and rank, how many samples were
 * recorded (`rank_recorded` in the file) and its count, sum, mean, min and
 * max are exact while std and quantiles are estimates from the subset.
 * 0 (the default) keeps every sample. A series takes the limit when it
 * records its first sample (after creation or tprof_time_manager_clear());
 * series already recording keep theirs, so set it before recording.
 * Memory per series: 20 bytes a kept sample, plus 16 bytes a kept sample
 * for each gather made while that series records (a gather reads a
 * consistent snapshot and may hand it on after it returns; the snapshots
 * go at clear or free); tprof_time_manager_get_time() keeps nothing.
 * The recording path takes no lock: while sampling, a sample that is not
 * kept costs a little more than one that is stored (a call and a few
 * additions); a kept one replaces a slot, which a concurrent reader sees
 * whole, either the old sample or the new. */
TPROF_EXPORT void tprof_time_manager_set_sample_limit (TprofTimeManager *tm,
                                                       size_t            max_samples);

/* Pushes @tm on this thread's stack of enabled managers: TPROF_SCOPE then
 * records into it (and into every other manager enabled on this thread).
 * The stack has no depth limit. Enabling a manager that is already enabled
 * on this thread pushes it again, as the seed's stack does: TPROF_SCOPE then
 * records each region into it twice, and it takes two disables to remove. */
TPROF_EXPORT void tprof_time_manager_enable (TprofTimeManager *tm);

/* Pops @tm from this thread's stack; @tm should be the last manager enabled
 * on this thread. Otherwise the misuse is reported (see below) and: when
 * @tm is enabled deeper in the stack, its innermost entry is removed and the
 * managers enabled after it stay enabled; when it is not enabled on this
 * thread at all, nothing changes. Never aborts. */
TPROF_EXPORT void tprof_time_manager_disable (TprofTimeManager *tm);

/* Receives a message saying how the recording API was misused and what
 * libcapture did about it (a disable out of order, an enable that ran out
 * of memory). Called on the thread that misused the API. */
typedef void (*TprofMisuseHandler) (const char *message, void *user_data);

/* Routes misuse reports to @handler (NULL: the default, which prints the
 * first report of the process to stderr and drops the rest). */
TPROF_EXPORT void tprof_set_misuse_handler (TprofMisuseHandler handler,
                                            void              *user_data);

/* One process's records as rank 0 of a world of 1: a new profile the caller
 * frees, or NULL when memory is exhausted. */
TPROF_EXPORT TprofProfiledTime *tprof_time_manager_gather_local (TprofTimeManager *tm);

/* The same records with each sample's start still on this process's
 * CLOCK_MONOTONIC and no timeline attached: what a gather over another
 * transport places on rank 0's clock itself. NULL when memory is
 * exhausted. */
TPROF_EXPORT TprofProfiledTime *tprof_time_manager_snapshot (TprofTimeManager *tm);

TPROF_END_DECLS
