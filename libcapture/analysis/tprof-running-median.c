/* tprof-running-median.c — the median of values that keep arriving, numpy's median at every step without re-sorting. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tprof-analysis-internal.h"
#include "tprof-running-median-private.h"
#include "tprof-select-private.h"

/* @sign 1: a max-heap; -1: a min-heap (values compared as sign * x). */
static void
heap_push (double *heap,
           size_t *n,
           double  x,
           double  sign)
{
  size_t i = (*n)++;

  while (i > 0 && sign * heap[(i - 1) / 2] < sign * x)
    {
      heap[i] = heap[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  heap[i] = x;
}

static double
heap_pop (double *heap,
          size_t *n,
          double  sign)
{
  double top = heap[0], last = heap[--*n];
  size_t i = 0;

  for (;;)
    {
      size_t c = 2 * i + 1;

      if (c >= *n)
        break;
      if (c + 1 < *n && sign * heap[c + 1] > sign * heap[c])
        c++;
      if (!(sign * heap[c] > sign * last))
        break;
      heap[i] = heap[c];
      i = c;
    }
  if (*n > 0)
    heap[i] = last;
  return top;
}

/* Heaps from this size on are mapped apart, in address space reserved
 * far ahead, where they grow in place: a follower's heaps hold every
 * occurrence so far, and one refresh must pay for the values it adds
 * (their pages), never for those kept. Below it, malloc: an operation
 * with few occurrences costs no mapping. */
#define MAPPED_BYTES ((size_t) 64 << 10)
/* The values a mapped heap reserves room for at once (128 MiB of address
 * space, no memory until written); past them it moves its pages
 * (mremap), still without copying. */
#define RESERVED_VALUES ((size_t) 1 << 24)

static bool
is_mapped (size_t cap)
{
#ifdef MREMAP_MAYMOVE
  return cap * sizeof (double) >= MAPPED_BYTES;
#else
  (void) cap;
  return false;
#endif
}

#ifdef MREMAP_MAYMOVE
/* A mapping for at least @cap values, reserving more when it can;
 * MAP_FAILED when none. */
static double *
map_reserved (size_t *cap)
{
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  size_t reserved = *cap > RESERVED_VALUES ? *cap : RESERVED_VALUES;
  void *p = mmap (NULL, reserved * sizeof (double), PROT_READ | PROT_WRITE, flags, -1, 0);

  /* an address-space limit may refuse the reserve, not the need */
  if (p == MAP_FAILED && reserved > *cap)
    return mmap (NULL, *cap * sizeof (double), PROT_READ | PROT_WRITE, flags, -1, 0);
  if (p != MAP_FAILED)
    *cap = reserved;
  return p;
}
#endif

/* @heap of *@cap values, its @n first used, grown to hold at least
 * @new_cap (*@cap updated); NULL when memory is exhausted (@heap
 * unchanged). */
static double *
grow (double *heap,
      size_t  n,
      size_t *cap,
      size_t  new_cap)
{
  double *p = NULL;

#ifdef MREMAP_MAYMOVE
  if (is_mapped (*cap) || is_mapped (new_cap))
    {
      void *m;

      if (is_mapped (*cap))
        m = mremap (heap, *cap * sizeof *heap, new_cap * sizeof *heap, MREMAP_MAYMOVE);
      else if ((m = map_reserved (&new_cap)) != MAP_FAILED)
        {
          /* from the small heap: its values copied once */
          if (n > 0)
            memcpy (m, heap, n * sizeof *heap);
          free (heap);
        }
      p = m != MAP_FAILED ? m : NULL;
    }
  else
#endif
    p = realloc (heap, new_cap * sizeof *heap);
  if (p != NULL)
    *cap = new_cap;
  return p;
}

static void
heap_free (double *heap,
           size_t  cap)
{
  if (heap == NULL)
    return;
#ifdef MREMAP_MAYMOVE
  if (is_mapped (cap))
    {
      munmap (heap, cap * sizeof *heap);
      return;
    }
#endif
  free (heap);
}

static bool
reserve (double **heap,
         size_t   used,
         size_t  *cap,
         size_t   n)
{
  double *grown;
  size_t new_cap;

  if (n <= *cap)
    return true;
  new_cap = *cap > 0 ? *cap : 64;
  while (new_cap < n)
    new_cap *= 2;
  grown = grow (*heap, used, cap, new_cap);
  if (grown == NULL)
    return false;
  *heap = grown;
  return true;
}

void
_tprof_running_median_clear (TprofRunningMedian *m)
{
  heap_free (m->lower, m->cap_lower);
  heap_free (m->upper, m->cap_upper);
  *m = (TprofRunningMedian) { 0 };
}

/* Either heap may come to hold every value. */
bool
_tprof_running_median_reserve (TprofRunningMedian *m,
                               size_t              more)
{
  size_t n = _tprof_running_median_count (m) + more;

  return reserve (&m->lower, m->n_lower, &m->cap_lower, n) && reserve (&m->upper, m->n_upper, &m->cap_upper, n);
}

bool
_tprof_running_median_add (TprofRunningMedian *m,
                           double              x)
{
  if (!_tprof_running_median_reserve (m, 1))
    return false;
  if (m->n_lower == 0 || x <= m->lower[0])
    heap_push (m->lower, &m->n_lower, x, 1.0);
  else
    heap_push (m->upper, &m->n_upper, x, -1.0);
  if (m->n_lower > m->n_upper + 1)
    heap_push (m->upper, &m->n_upper, heap_pop (m->lower, &m->n_lower, 1.0), -1.0);
  else if (m->n_upper > m->n_lower)
    heap_push (m->lower, &m->n_lower, heap_pop (m->upper, &m->n_upper, -1.0), 1.0);
  return true;
}

size_t
_tprof_running_median_count (const TprofRunningMedian *m)
{
  return m->n_lower + m->n_upper;
}

double
_tprof_running_median_get (const TprofRunningMedian *m)
{
  const double half = 0.5;
  size_t n = _tprof_running_median_count (m), ranks[2], n_ranks;
  double values[2], median = NAN;

  if (n == 0)
    return NAN;
  /* the order statistics asked are (n - 1) / 2 (the lower's top) and n / 2 */
  n_ranks = _tprof_quantile_ranks (n, &half, 1, ranks);
  for (size_t i = 0; i < n_ranks; i++)
    values[i] = ranks[i] < m->n_lower ? m->lower[0] : m->upper[0];
  _tprof_quantiles_interpolate (n, &half, 1, ranks, values, n_ranks, &median);
  return median;
}
