/* tprof-span-sort.c — sorting the nesting's spans: a counting sort by rank, then a merge sort of each rank with the comparison inlined. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "tprof-analysis-internal.h"
#include "tprof-span-sort-private.h"
#include "tprof-span-sort-private.h"

/* Below this length insertion sort beats merging. */
#define SMALL_SORT 16
/* Ranks spread wider than the spans plus this get one bucket. */
#define SPARE_BUCKETS 1024

static inline int
compare (const TprofSpan *x,
         const TprofSpan *y)
{
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

int
_tprof_span_compare (const void *a,
                     const void *b)
{
  return compare (a, b);
}

static void
insertion_sort (TprofSpan *a,
                size_t     n)
{
  for (size_t i = 1; i < n; i++)
    {
      TprofSpan v = a[i];
      size_t j = i;

      for (; j > 0 && compare (&v, &a[j - 1]) < 0; j--)
        a[j] = a[j - 1];
      a[j] = v;
    }
}

/* Top-down merge sort; halves already in order cost one comparison, so
 * a rank's spans, ascending runs (one per operation) as the buckets keep
 * them, merge in near-linear time. @tmp holds (@n + 1) / 2 spans. */
static void
merge_sort (TprofSpan *a,
            size_t     n,
            TprofSpan *tmp)
{
  size_t half = (n + 1) / 2, i = 0, j = half, k = 0;

  if (n <= SMALL_SORT)
    {
      insertion_sort (a, n);
      return;
    }
  merge_sort (a, half, tmp);
  merge_sort (a + half, n - half, tmp);
  if (compare (&a[half - 1], &a[half]) <= 0)
    return;
  for (size_t m = 0; m < half; m++)
    tmp[m] = a[m];
  while (i < half && j < n)
    a[k++] = compare (&a[j], &tmp[i]) < 0 ? a[j++] : tmp[i++];
  while (i < half)
    a[k++] = tmp[i++];
}

bool
_tprof_span_buckets_init (TprofSpanBuckets *buckets,
                          int32_t           lo,
                          int32_t           hi,
                          size_t            n)
{
  uint64_t range = (uint64_t) ((int64_t) hi - lo);

  buckets->lo = lo;
  buckets->n_buckets = n > 0 && range < n + SPARE_BUCKETS ? (size_t) range + 1 : 1;
  buckets->next = _tprof_malloc_array (buckets->n_buckets, sizeof *buckets->next);
  buckets->bounds = calloc (buckets->n_buckets + 1, sizeof *buckets->bounds);
  if (buckets->next == NULL || buckets->bounds == NULL)
    {
      _tprof_span_buckets_clear (buckets);
      return false;
    }
  return true;
}

void
_tprof_span_buckets_start (TprofSpanBuckets *buckets)
{
  for (size_t b = 0; b < buckets->n_buckets; b++)
    {
      buckets->bounds[b + 1] += buckets->bounds[b];
      buckets->next[b] = buckets->bounds[b];
    }
}

bool
_tprof_span_buckets_sort (const TprofSpanBuckets *buckets,
                          TprofSpan              *spans)
{
  size_t largest = 0;
  TprofSpan *tmp;

  for (size_t b = 0; b < buckets->n_buckets; b++)
    if (buckets->bounds[b + 1] - buckets->bounds[b] > largest)
      largest = buckets->bounds[b + 1] - buckets->bounds[b];
  tmp = _tprof_malloc_array_paged (largest / 2 + 1, sizeof *tmp, false);
  if (tmp == NULL)
    return false;
  for (size_t b = 0; b < buckets->n_buckets; b++)
    merge_sort (spans + buckets->bounds[b], buckets->bounds[b + 1] - buckets->bounds[b], tmp);
  free (tmp);
  return true;
}

void
_tprof_span_buckets_clear (TprofSpanBuckets *buckets)
{
  free (buckets->next);
  free (buckets->bounds);
  buckets->next = NULL;
  buckets->bounds = NULL;
}

bool
_tprof_span_sort (const TprofSpan *in,
                  TprofSpan       *out,
                  size_t           n)
{
  int32_t lo = n > 0 ? in[0].rank : 0, hi = lo;
  TprofSpanBuckets buckets;
  bool ok;

  for (size_t i = 1; i < n; i++)
    {
      lo = in[i].rank < lo ? in[i].rank : lo;
      hi = in[i].rank > hi ? in[i].rank : hi;
    }
  if (!_tprof_span_buckets_init (&buckets, lo, hi, n))
    return false;
  for (size_t i = 0; i < n; i++)
    _tprof_span_buckets_count (&buckets, in[i].rank);
  _tprof_span_buckets_start (&buckets);
  for (size_t i = 0; i < n; i++)
    out[_tprof_span_buckets_place (&buckets, in[i].rank)] = in[i];
  ok = _tprof_span_buckets_sort (&buckets, out);
  _tprof_span_buckets_clear (&buckets);
  return ok;
}
