/* tprof-nesting.c — TprofNesting: each sample's parent from interval containment on its rank and thread, self times, parent operations. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/tprof-nesting.h>

#include "tprof-gathered-time-private.h"
#include "tprof-span-sort-private.h"

#define NONE SIZE_MAX

/* The samples of operation op are the ids offset[op] .. offset[op + 1]. */
typedef TprofSpan Span;

struct _TprofNesting
{
  size_t  n_ops;
  size_t *offset;      /* n_ops + 1 */
  bool   *timed;       /* the operation has starts and takes part */
  size_t *parent;      /* per id, NONE for none */
  double *self;        /* per id */
  double *self_sum;    /* per operation */
  size_t *parent_op;   /* per operation, NONE for none */
};

static size_t
operation_of (const TprofNesting *nesting,
              size_t              id)
{
  size_t lo = 0, hi = nesting->n_ops;

  /* the last op whose offset is <= id (empty operations share offsets) */
  while (hi - lo > 1)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (nesting->offset[mid] <= id)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Calls @visit for the rank of each sample with starts. */
static void
each_rank (const TprofNesting             *nesting,
           const TprofGatheredTime *const *ops,
           void (*visit) (void *data, int32_t rank),
           void                           *data)
{
  for (size_t op = 0; op < nesting->n_ops; op++)
    {
      const int32_t *ranks = tprof_gathered_time_ranks (ops[op]);

      for (size_t i = 0; nesting->timed[op] && i < nesting->offset[op + 1] - nesting->offset[op]; i++)
        visit (data, ranks[i]);
    }
}

typedef struct
{
  int32_t lo;
  int32_t hi;
  size_t  n;
} RankRange;

static void
widen_range (void   *data,
             int32_t rank)
{
  RankRange *range = data;

  range->lo = range->n == 0 || rank < range->lo ? rank : range->lo;
  range->hi = range->n == 0 || rank > range->hi ? rank : range->hi;
  range->n++;
}

static void
count_rank (void   *data,
            int32_t rank)
{
  _tprof_span_buckets_count (data, rank);
}

/* Writes each sample with starts into its rank's bucket, in order, so
 * that one operation's samples of a rank stay an ascending run. */
static void
place_spans (TprofNesting                   *nesting,
             const TprofGatheredTime *const *ops,
             TprofSpanBuckets               *buckets,
             Span                           *spans)
{
  for (size_t op = 0; op < nesting->n_ops; op++)
    {
      const double *starts = nesting->timed[op] ? tprof_gathered_time_starts (ops[op]) : NULL;
      const double *times = tprof_gathered_time_times (ops[op]);
      const int32_t *ranks = tprof_gathered_time_ranks (ops[op]);
      const int32_t *threads = tprof_gathered_time_threads (ops[op]);

      for (size_t i = 0; starts != NULL && i < nesting->offset[op + 1] - nesting->offset[op]; i++)
        spans[_tprof_span_buckets_place (buckets, ranks[i])] = (Span) {
          .start = starts[i],
          .end = starts[i] + times[i],
          .rank = ranks[i],
          .thread = threads != NULL ? threads[i] : 0,
          .id = nesting->offset[op] + i,
        };
    }
}

/* The spans of the samples with starts, sorted (_tprof_span_compare);
 * returns how many, or SIZE_MAX when out of memory. */
static size_t
sorted_spans (TprofNesting                   *nesting,
              const TprofGatheredTime *const *ops,
              Span                           *spans)
{
  RankRange range = { 0 };
  TprofSpanBuckets buckets;
  bool ok;

  each_rank (nesting, ops, widen_range, &range);
  if (!_tprof_span_buckets_init (&buckets, range.lo, range.hi, range.n))
    return SIZE_MAX;
  each_rank (nesting, ops, count_rank, &buckets);
  _tprof_span_buckets_start (&buckets);
  place_spans (nesting, ops, &buckets, spans);
  ok = _tprof_span_buckets_sort (&buckets, spans);
  _tprof_span_buckets_clear (&buckets);
  return ok ? range.n : SIZE_MAX;
}

/* One pass over the sorted spans with a stack of the open ones: the last
 * span before B that encloses B is on the stack, and every span popped
 * for B ends before B does, so it encloses nothing after B that B does
 * not enclose too. */
static void
link_parents (TprofNesting *nesting,
              const Span   *spans,
              size_t        n,
              size_t       *stack)
{
  size_t depth = 0;

  for (size_t j = 0; j < n; j++)
    {
      const Span *b = &spans[j];

      if (j > 0 && (spans[j - 1].rank != b->rank || spans[j - 1].thread != b->thread))
        depth = 0;
      while (depth > 0 && spans[stack[depth - 1]].end + TPROF_NESTING_TOLERANCE < b->end)
        depth--;
      nesting->parent[b->id] = depth > 0 ? spans[stack[depth - 1]].id : NONE;
      stack[depth++] = j;
    }
}

/* Each sample's self time: its time minus the part of it its children
 * cover. Children that overlap one another (times handed in rather than
 * measured, whose starts are guessed) cover their overlap once, so a self
 * time is never negative. @spans are sorted (_tprof_span_compare), so a parent's
 * children come in start order and one cursor per parent, @covered_to,
 * tells what they have covered so far; @where maps ids to span indices. */
static void
subtract_children (TprofNesting *nesting,
                   const Span   *spans,
                   size_t        n,
                   size_t       *where,
                   double       *covered_to)
{
  for (size_t j = 0; j < n; j++)
    {
      where[spans[j].id] = j;
      covered_to[j] = -INFINITY;
    }
  for (size_t j = 0; j < n; j++)
    {
      size_t p = nesting->parent[spans[j].id];
      double lo, hi;

      if (p == NONE)
        continue;
      lo = fmax (spans[j].start, covered_to[where[p]]);
      hi = fmin (spans[j].end, spans[where[p]].end);
      if (hi > lo)
        {
          nesting->self[p] -= hi - lo;
          covered_to[where[p]] = hi;
        }
    }
}

/* Each sample's time, before subtract_children(); NaN for the samples
 * of an operation without starts. */
static void
init_self_times (TprofNesting                   *nesting,
                 const TprofGatheredTime *const *ops)
{
  for (size_t op = 0; op < nesting->n_ops; op++)
    {
      const double *times = tprof_gathered_time_times (ops[op]);

      for (size_t i = 0; i < nesting->offset[op + 1] - nesting->offset[op]; i++)
        nesting->self[nesting->offset[op] + i] = nesting->timed[op] ? times[i] : NAN;
    }
}

static void
sum_self_times (TprofNesting *nesting)
{
  for (size_t op = 0; op < nesting->n_ops; op++)
    {
      double sum = nesting->timed[op] ? 0.0 : NAN;

      for (size_t id = nesting->offset[op]; id < nesting->offset[op + 1]; id++)
        sum += nesting->self[id];
      nesting->self_sum[op] = sum;
    }
}

/* The operation of more than half of @op's voting samples' parents (NONE
 * for a sample without one), by Boyer and Moore's majority vote. */
static size_t
majority_parent (const TprofNesting *nesting,
                 size_t              op)
{
  size_t candidate = NONE, lead = 0, votes = 0, count = 0;

  for (int pass = 0; pass < 2; pass++)
    for (size_t id = nesting->offset[op]; id < nesting->offset[op + 1]; id++)
      {
        size_t p = nesting->parent[id];
        size_t vote = p == NONE ? NONE : operation_of (nesting, p);

        if (vote == op)
          continue;
        if (pass == 1)
          {
            votes++;
            count += vote == candidate;
          }
        else if (lead == 0)
          {
            candidate = vote;
            lead = 1;
          }
        else if (vote == candidate)
          lead++;
        else
          lead--;
      }
  return count * 2 > votes ? candidate : NONE;
}

static size_t
find_root (size_t *forest,
           size_t  op)
{
  while (forest[op] != op)
    {
      forest[op] = forest[forest[op]];
      op = forest[op];
    }
  return op;
}

/* Each operation's majority parent, in order, unless it closes a cycle:
 * @forest is a union-find whose roots are the operations without an
 * accepted parent, so @op (still a root) is an ancestor of its candidate
 * exactly when the candidate's root is @op. */
static void
choose_parent_operations (TprofNesting *nesting,
                          size_t       *forest)
{
  for (size_t op = 0; op < nesting->n_ops; op++)
    forest[op] = op;
  for (size_t op = 0; op < nesting->n_ops; op++)
    {
      size_t candidate = nesting->timed[op] ? majority_parent (nesting, op) : NONE;

      if (candidate != NONE && find_root (forest, candidate) == op)
        candidate = NONE;
      nesting->parent_op[op] = candidate;
      if (candidate != NONE)
        forest[op] = candidate;
    }
}

static TprofNesting *
nesting_alloc (const TprofGatheredTime *const *ops,
               size_t                          n_ops)
{
  TprofNesting *nesting = calloc (1, sizeof *nesting);
  size_t n;

  if (nesting == NULL)
    return NULL;
  nesting->n_ops = n_ops;
  nesting->offset = _tprof_malloc_array (n_ops + 1, sizeof *nesting->offset);
  nesting->timed = _tprof_malloc_array (n_ops, sizeof *nesting->timed);
  if (nesting->offset == NULL || nesting->timed == NULL)
    goto fail;
  nesting->offset[0] = 0;
  for (size_t op = 0; op < n_ops; op++)
    {
      size_t count = ops[op] != NULL ? tprof_gathered_time_count (ops[op]) : 0;

      /* an empty selection has no starts, and nothing to nest */
      nesting->timed[op] = count == 0 || tprof_gathered_time_starts (ops[op]) != NULL;
      nesting->offset[op + 1] = nesting->offset[op] + count;
    }
  n = nesting->offset[n_ops];
  nesting->parent = _tprof_malloc_array (n, sizeof *nesting->parent);
  nesting->self = _tprof_malloc_array (n, sizeof *nesting->self);
  nesting->self_sum = _tprof_malloc_array (n_ops, sizeof *nesting->self_sum);
  nesting->parent_op = _tprof_malloc_array (n_ops, sizeof *nesting->parent_op);
  if (nesting->parent == NULL || nesting->self == NULL || nesting->self_sum == NULL
      || nesting->parent_op == NULL)
    goto fail;
  for (size_t id = 0; id < n; id++)
    nesting->parent[id] = NONE;
  return nesting;

fail:
  tprof_nesting_free (nesting);
  return NULL;
}

TprofNesting *
tprof_nesting_new (const TprofGatheredTime *const *ops,
                   size_t                          n_ops,
                   TprofError                     *error)
{
  TprofNesting *nesting = nesting_alloc (ops, n_ops);
  size_t n = nesting != NULL ? nesting->offset[n_ops] : 0, m;
  Span *spans = _tprof_malloc_array_paged (n, sizeof *spans, false);
  size_t *scratch = _tprof_malloc_array (n > n_ops ? n : n_ops, sizeof *scratch);
  double *covered_to = _tprof_malloc_array (n, sizeof *covered_to);

  if (nesting == NULL || spans == NULL || scratch == NULL || covered_to == NULL
      || (m = sorted_spans (nesting, ops, spans)) == SIZE_MAX)
    {
      free (spans);
      free (scratch);
      free (covered_to);
      tprof_nesting_free (nesting);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory nesting %zu samples", n);
      return NULL;
    }
  link_parents (nesting, spans, m, scratch);
  init_self_times (nesting, ops);
  subtract_children (nesting, spans, m, scratch, covered_to);
  free (spans);
  free (covered_to);
  sum_self_times (nesting);
  choose_parent_operations (nesting, scratch);
  free (scratch);
  return nesting;
}

void
tprof_nesting_free (TprofNesting *nesting)
{
  if (nesting == NULL)
    return;
  free (nesting->offset);
  free (nesting->timed);
  free (nesting->parent);
  free (nesting->self);
  free (nesting->self_sum);
  free (nesting->parent_op);
  free (nesting);
}

static bool
sample_id (const TprofNesting *nesting,
           size_t              op,
           size_t              sample,
           size_t             *id)
{
  if (op >= nesting->n_ops || sample >= nesting->offset[op + 1] - nesting->offset[op])
    return false;
  *id = nesting->offset[op] + sample;
  return true;
}

bool
tprof_nesting_parent (const TprofNesting *nesting,
                      size_t              op,
                      size_t              sample,
                      size_t             *parent_op,
                      size_t             *parent_sample)
{
  size_t id, p;

  if (!sample_id (nesting, op, sample, &id) || (p = nesting->parent[id]) == NONE)
    return false;
  *parent_op = operation_of (nesting, p);
  *parent_sample = p - nesting->offset[*parent_op];
  return true;
}

double
tprof_nesting_self_time (const TprofNesting *nesting,
                         size_t              op,
                         size_t              sample)
{
  size_t id;

  return sample_id (nesting, op, sample, &id) ? nesting->self[id] : NAN;
}

double
tprof_nesting_self_sum (const TprofNesting *nesting,
                        size_t              op)
{
  return op < nesting->n_ops ? nesting->self_sum[op] : NAN;
}

bool
tprof_nesting_parent_operation (const TprofNesting *nesting,
                                size_t              op,
                                size_t             *parent)
{
  if (op >= nesting->n_ops || nesting->parent_op[op] == NONE)
    return false;
  *parent = nesting->parent_op[op];
  return true;
}

bool
tprof_nesting_rank_self_sums (const TprofNesting      *nesting,
                              size_t                   op,
                              const TprofGatheredTime *gt,
                              int                      world_size,
                              double                  *out)
{
  const int32_t *ranks = tprof_gathered_time_ranks (gt);

  if (op >= nesting->n_ops || !nesting->timed[op]
      || tprof_gathered_time_count (gt) != nesting->offset[op + 1] - nesting->offset[op])
    return false;
  for (int r = 0; r < world_size; r++)
    out[r] = 0.0;
  for (size_t i = 0; i < tprof_gathered_time_count (gt); i++)
    {
      double self = tprof_nesting_self_time (nesting, op, i);

      if (ranks[i] >= 0 && ranks[i] < world_size && !isnan (self))
        out[ranks[i]] += self;
    }
  return true;
}
