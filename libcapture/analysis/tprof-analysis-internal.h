/* tprof-analysis-internal.h — what the rest of libcapture uses of analysis/ beyond the public API: allocation, sums, rank balance, threads. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-gathered-time.h>

#include "tprof-stats-parts-internal.h"

/* numpy reduces in buffers of this many values: pairwise within one, in
 * order across them. */
#define TPROF_NUMPY_BUFFER 8192
#define TPROF_STATS_MAX_CHUNKS 4

/* @bytes (at least 1 MiB) for free() or _tprof_free_large(), aligned to
 * and advised onto 2 MiB transparent huge pages (tprof-alloc.c): the
 * last block of that many pages _tprof_free_large() kept, if any. */
TPROF_EXPORT void *_tprof_malloc_large (size_t bytes);
/* Frees @data from _tprof_malloc_large (@bytes), or keeps it (its pages
 * faulted) for the next request of its size: four blocks of up to 32 MiB
 * are kept, the kernel free to take their pages back under memory
 * pressure. Safe on any thread. */
TPROF_EXPORT void _tprof_free_large (void   *data,
                                     size_t  bytes);
/* Makes the whole pages among the @bytes at @p present and writable in
 * one call, before they are written (Linux 5.14; otherwise nothing):
 * cheaper than a fault on each page as it is first written, which in a
 * virtual machine is a trap to the host. The viewer's kept samples use
 * it too. */
TPROF_EXPORT void _tprof_prefault_write (void  *p,
                                         size_t bytes);

/* malloc (@n_items * @item_size), or NULL when that product overflows.
 * A 4 KiB page fault costs about as much as copying the page (more in a
 * VM): an array of 4 MiB or more goes onto 2 MiB pages (where the THP
 * mode is `madvise`, as on Debian), so that a 100 MB array faults 50
 * times instead of 25000; smaller ones would waste memory. */
static inline void *
_tprof_malloc_array (size_t n_items,
                     size_t item_size)
{
  size_t bytes;

  if (__builtin_mul_overflow (n_items, item_size, &bytes))
    return NULL;
  if (bytes >= ((size_t) 4 << 20))
    return _tprof_malloc_large (bytes);
  return malloc (bytes > 0 ? bytes : 1);
}

/* Arrays of 1 MiB or more that a reader fills (or walks, zeroed, when
 * @zero) at once, and frees soon: onto 2 MiB pages as
 * _tprof_malloc_array() puts larger ones, since a fresh 4 KiB page's
 * fault costs more than the memory a partly used 2 MiB page wastes for
 * that while; smaller ones from malloc() or calloc(). For free(); NULL
 * when @n_items * @item_size overflows or memory is exhausted. */
static inline void *
_tprof_malloc_array_paged (size_t n_items,
                           size_t item_size,
                           bool   zero)
{
  size_t bytes;
  void *data;

  if (__builtin_mul_overflow (n_items, item_size, &bytes))
    return NULL;
  if (bytes < ((size_t) 1 << 20))
    return zero ? calloc (bytes > 0 ? bytes : 1, 1) : malloc (bytes > 0 ? bytes : 1);
  data = _tprof_malloc_large (bytes);
  if (data != NULL && zero)
    memset (data, 0, bytes);
  return data;
}

/* Frees @data from _tprof_malloc_array_paged (@n_items, @item_size, ...),
 * given the same sizes (@n_items 0 for a block from malloc() or
 * calloc()): a block of 2 MiB pages is kept for the next of its size
 * (_tprof_free_large()). */
static inline void
_tprof_free_array_paged (void   *data,
                         size_t  n_items,
                         size_t  item_size)
{
  size_t bytes;

  if (data != NULL && !__builtin_mul_overflow (n_items, item_size, &bytes) && bytes >= ((size_t) 1 << 20))
    _tprof_free_large (data, bytes);
  else
    free (data);
}

/* A copy of @s by malloc (), NULL when out of memory: unlike strdup (),
 * which sanitizers and malloc-replacing tests may serve from another
 * allocator than the free () that later releases it. */
static inline char *
_tprof_strdup (const char *s)
{
  size_t n = strlen (s) + 1;
  char *copy = malloc (n);

  return copy != NULL ? memcpy (copy, s, n) : NULL;
}

/* A selection of @n samples whose times and then ranks fill the start of
 * @mapping (@bytes long, from mmap), unmapped when the selection is freed
 * (also when NULL is returned). The isolated reader hands samples over so,
 * without a copy. */
TprofGatheredTime *_tprof_gathered_time_new_mapped (void   *mapping,
                                                    size_t  bytes,
                                                    size_t  n);

/* A selection of @n samples, with a timeline when @timeline, whose arrays
 * lie in its own allocation (one malloc for a small operation read from a
 * file, not five): they are returned in *@times, ... (NULL for none, as
 * the accessors give them), uninitialized, for the caller to fill. NULL
 * when out of memory. */
TprofGatheredTime *_tprof_gathered_time_new_inline (size_t     n,
                                                    bool       timeline,
                                                    double   **times,
                                                    int32_t  **ranks,
                                                    double   **starts,
                                                    int32_t  **threads);

/* A selection of @n samples that lie in arrays its caller keeps (@starts
 * and @threads may be NULL), as tprof_gathered_time_new_shared() makes
 * one, with the thread of each sample too, and whose times its caller
 * has checked (finite, >= 0). Unlike a shared selection its timeline
 * may be replaced (the new one is then the selection's own). @release
 * (may be NULL) is called with @user_data when the selection is freed
 * (also when NULL is returned). A reader hands out each operation of a
 * block of rows so, without a copy. */
TprofGatheredTime *_tprof_gathered_time_new_view (const double  *times,
                                                  const int32_t *ranks,
                                                  const double  *starts,
                                                  const int32_t *threads,
                                                  size_t         n,
                                                  void         (*release) (void *user_data),
                                                  void          *user_data);

/* Marks @gt's times as known to be finite and >= 0 (checked by whoever
 * built them: the spill reader checks every sample it delivers), so that
 * a save spares its pass over them; and whether they are so known. */
TPROF_EXPORT void _tprof_gathered_time_set_times_valid (TprofGatheredTime *gt);
bool _tprof_gathered_time_times_valid (const TprofGatheredTime *gt);
/* Marks @gt's ranks as known to be in ascending order (its builder
 * appended them rank after rank: a merge of spill files), so that a save
 * checks only the first and the last instead of a pass over them; and
 * whether they are so known. */
TPROF_EXPORT void _tprof_gathered_time_set_ranks_grouped (TprofGatheredTime *gt);
bool _tprof_gathered_time_ranks_grouped (const TprofGatheredTime *gt);

/* A new selection whose sample i is @gt's sample @order[i] (a permutation
 * of its count() indices), timeline included; NULL when out of memory. */
TprofGatheredTime *_tprof_gathered_time_permuted (const TprofGatheredTime *gt,
                                                  const size_t            *order);

/* numpy's sum of @x[0..@n), bit for bit: pairwise within each buffer of
 * TPROF_NUMPY_BUFFER values, the buffers' sums added in order. */
double _tprof_values_sum (const double *x,
                          size_t        n);

/* The balance of the ranks with samples: @totals[i] is the total time of
 * @ranks[i] (ascending). Sets @out's imbalance (largest total / mean
 * total), imbalance_time (largest total - mean total) and slowest_rank
 * (the rank of the largest; the lowest rank wins a tie); NaN, NaN and -1
 * when @n_ranks is 0. The one definition of all three, for summaries of
 * samples and of a profile's cached per-rank totals alike. */
void _tprof_rank_totals_balance (const double  *totals,
                                 const int32_t *ranks,
                                 size_t         n_ranks,
                                 TprofSummary  *out);

/* Splits [0, @n) into 1, 2 or 4 chunks, @bounds[c] .. @bounds[c + 1],
 * at numpy buffer boundaries. Small arrays, and machines with one core,
 * get one chunk. */
size_t _tprof_stats_split (size_t n,
                           size_t bounds[TPROF_STATS_MAX_CHUNKS + 1]);

/* Runs @func on each of the @n_tasks elements (each @task_size bytes) of
 * @tasks, one thread each, the first on the calling thread. Where a thread
 * cannot be started, its task runs on the calling thread instead. */
typedef void (*TprofStatsTaskFunc) (void *task);
void _tprof_stats_run_parallel (void               *tasks,
                                size_t              n_tasks,
                                size_t              task_size,
                                TprofStatsTaskFunc  func);

/* What a profile caches of one operation: its count and the summary's
 * eight figures (NaN where too few samples; sum 0 for none), computed as
 * tprof_gathered_time_summarize() computes them. */
typedef struct
{
  uint64_t count;
  double   sum;
  double   mean;
  double   std;
  double   min;
  double   max;
  double   median;
  double   p95;
  double   p99;
} TprofBatchSummary;

/* The figures of @n_ops operations laid end to end in @times: operation
 * k is @times[@rows[k] .. @rows[k + 1]) (finite values). One pass over
 * them, no allocation for an operation of a few samples (tprof-stats-batch.c):
 * the writer's caches and the reader's check of many small operations.
 * False when memory is exhausted. */
TPROF_EXPORT bool _tprof_batch_summarize (const double      *times,
                                          const uint64_t    *rows,
                                          size_t             n_ops,
                                          TprofBatchSummary *out);

/* Count, sum and extremes of each of @n_parts parts of @times: part s is
 * @times[@bounds[s] .. @bounds[s + 1]) (finite values), its sum as a
 * rank's in tprof_gathered_time_rank_summaries(). */
TPROF_EXPORT void _tprof_batch_part_sums (const double   *times,
                                          const uint64_t *bounds,
                                          size_t          n_parts,
                                          TprofPartSums  *out);

/* What the batch keeps from one operation to the next (where the
 * quantiles of n sorted values lie, worked out again only when n
 * changes), for a caller that hands it operations one at a time. */
typedef struct _TprofBatchState TprofBatchState;
/* NULL when memory is exhausted; free with _tprof_batch_state_free(). */
TprofBatchState *_tprof_batch_state_new (void);
void             _tprof_batch_state_free (TprofBatchState *state);
/* The figures of one operation of @n values at @times, as
 * _tprof_batch_summarize() gives them, into @out, and those of its
 * @n_parts parts, as _tprof_batch_part_sums() gives them, into @parts:
 * part s is @times[@bounds[s] .. @bounds[s + 1]). A lone part that is
 * the whole takes the operation's sum (the same sum of the same values).
 * False when memory is exhausted. */
bool _tprof_batch_summarize_parts (TprofBatchState   *state,
                                   const double      *times,
                                   size_t             n,
                                   const uint64_t    *bounds,
                                   size_t             n_parts,
                                   TprofBatchSummary *out,
                                   TprofPartSums     *parts);
