/* tprof-span-sort-private.h — TprofSpan and its sort by rank, thread, start, end descending, id. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A sample, by its id, as the nesting sees it. */
typedef struct
{
  double  start;
  double  end;
  int32_t rank;
  int32_t thread;
  size_t  id;
} TprofSpan;

/* Rank, thread, start, end descending, id: a total order (qsort's form). */
int _tprof_span_compare (const void *a,
                         const void *b);

/* One bucket per rank, filled in place as the spans are written (a
 * counting sort), so that a rank's ascending runs stay runs: init() with
 * the rank range, count() each span's rank, start(), write each span at
 * place(), then sort(). Ranks spread much wider than the spans share one
 * bucket. */
typedef struct
{
  int32_t lo;
  size_t  n_buckets;
  size_t *next;     /* per bucket, where its next span goes */
  size_t *bounds;   /* n_buckets + 1: where each bucket starts */
} TprofSpanBuckets;

bool _tprof_span_buckets_init (TprofSpanBuckets *buckets,
                               int32_t           lo,
                               int32_t           hi,
                               size_t            n);

static inline size_t
_tprof_span_bucket (const TprofSpanBuckets *buckets,
                    int32_t                 rank)
{
  return buckets->n_buckets > 1 ? (size_t) ((int64_t) rank - buckets->lo) : 0;
}

static inline void
_tprof_span_buckets_count (TprofSpanBuckets *buckets,
                           int32_t           rank)
{
  buckets->bounds[_tprof_span_bucket (buckets, rank) + 1]++;
}

void _tprof_span_buckets_start (TprofSpanBuckets *buckets);

static inline size_t
_tprof_span_buckets_place (TprofSpanBuckets *buckets,
                           int32_t           rank)
{
  return buckets->next[_tprof_span_bucket (buckets, rank)]++;
}

/* Sorts each bucket of @spans by _tprof_span_compare(); false when out
 * of memory. */
bool _tprof_span_buckets_sort (const TprofSpanBuckets *buckets,
                               TprofSpan              *spans);

void _tprof_span_buckets_clear (TprofSpanBuckets *buckets);

/* @n spans of @in sorted into @out by the buckets above; false when out
 * of memory. */
bool _tprof_span_sort (const TprofSpan *in,
                       TprofSpan       *out,
                       size_t           n);
