/* tprof-stats-sampled-select.c — order statistics of read-only samples: brackets from a sample, selection of what the scan kept. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"

/* Below this many samples a scratch copy is cheap and stays in the cache. */
#define SAMPLED_MIN_N (1u << 16)
/* Large enough that the brackets hold ~1% of the samples each; small
 * enough that reading it (scattered) costs little next to the pass. */
#define SAMPLE_SIZE (1u << 16)
/* Half-width of a bracket in standard deviations of a sample rank: a
 * target escapes it (and the scratch copy runs) about once in 10^4. */
#define BRACKET_SIGMAS 4.0
#define MAX_BRACKETS TPROF_SAMPLED_MAX_BRACKETS
/* Targets handled by sampling: more go the scratch-copy way. */
#define MAX_TARGETS (2 * MAX_BRACKETS)
/* Values scanned between checks for NaN and overflowing brackets. */
#define BLOCK 4096

typedef TprofBracket Bracket;
typedef TprofTally Tally;

_Static_assert (TPROF_SAMPLED_MAX_CHUNKS == TPROF_STATS_MAX_CHUNKS,
                "a sampled selection takes the chunks of _tprof_stats_split()");

/* splitmix64's finaliser: positions that look random, the same every run. */
static uint64_t
mix (uint64_t x)
{
  x = (x ^ (x >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* One sample from each of @n_sample strata that together cover all of
 * @values, at a jittered position: periodic data cannot line up with it.
 * (Strata of n / n_sample values rounded down left the tail unsampled, which
 * biased every bracket of sorted data low and sent it to the slow path.) */
static void
draw_sample (const double *values,
             size_t        n,
             double       *sample,
             size_t        n_sample)
{
  for (size_t i = 0; i < n_sample; i++)
    {
      size_t start = (size_t) ((unsigned __int128) i * n / n_sample);
      size_t stop = (size_t) ((unsigned __int128) (i + 1) * n / n_sample);

      sample[i] = values[start + (size_t) (mix (i) % (stop - start))];
    }
}

/* Sample ranks that bracket global rank @k with high probability. */
static void
bracket_sample_ranks (size_t     k,
                      size_t     n,
                      size_t     n_sample,
                      ptrdiff_t *lo,
                      ptrdiff_t *hi)
{
  double p = ((double) k + 0.5) / (double) n;
  double expected = p * (double) n_sample - 0.5;
  double spread = BRACKET_SIGMAS * sqrt ((double) n_sample * p * (1.0 - p)) + 2.0;

  *lo = (ptrdiff_t) floor (expected - spread);
  *hi = (ptrdiff_t) ceil (expected + spread);
}

/* Groups the targets into brackets and finds their bounds in @sample
 * (reordered). Returns the number of brackets, 0 when there are too many. */
static size_t
brackets_init (Bracket      *brackets,
               double       *sample,
               size_t        n_sample,
               size_t        n,
               const size_t *ranks,
               size_t        n_ranks)
{
  ptrdiff_t lo_ranks[MAX_BRACKETS], hi_ranks[MAX_BRACKETS];
  size_t bound_ranks[2 * MAX_BRACKETS] = { 0 };
  double bound_values[2 * MAX_BRACKETS];
  size_t n_brackets = 0, n_bounds = 0;

  for (size_t t = 0; t < n_ranks; t++)
    {
      ptrdiff_t lo, hi;

      bracket_sample_ranks (ranks[t], n, n_sample, &lo, &hi);
      /* Overlapping brackets merge into one that holds both. */
      if (n_brackets > 0 && lo <= hi_ranks[n_brackets - 1] + 1)
        {
          lo_ranks[n_brackets - 1] = lo < lo_ranks[n_brackets - 1] ? lo : lo_ranks[n_brackets - 1];
          hi_ranks[n_brackets - 1] = hi > hi_ranks[n_brackets - 1] ? hi : hi_ranks[n_brackets - 1];
          brackets[n_brackets - 1].count++;
          continue;
        }
      if (n_brackets == MAX_BRACKETS)
        return 0;
      lo_ranks[n_brackets] = lo;
      hi_ranks[n_brackets] = hi;
      brackets[n_brackets++] = (Bracket) { .first = t, .count = 1 };
    }

  /* Bounds beyond the sample leave the bracket open on that side. The
   * spread keeps each bracket's bounds apart and the merging keeps the
   * brackets apart, so the bound ranks ascend strictly (checked, since a
   * widened bracket could reach back past the one before). */
  for (size_t b = 0; b < n_brackets; b++)
    {
      if (lo_ranks[b] >= 0)
        bound_ranks[n_bounds++] = (size_t) lo_ranks[b];
      if (hi_ranks[b] < (ptrdiff_t) n_sample)
        bound_ranks[n_bounds++] = (size_t) hi_ranks[b];
    }
  for (size_t i = 1; i < n_bounds; i++)
    if (bound_ranks[i] <= bound_ranks[i - 1])
      return 0;
  _tprof_select_ranks (sample, n_sample, bound_ranks, n_bounds, bound_values);

  for (size_t b = 0, i = 0; b < n_brackets; b++)
    {
      brackets[b].lo = lo_ranks[b] >= 0 ? bound_values[i++] : -INFINITY;
      brackets[b].hi = hi_ranks[b] < (ptrdiff_t) n_sample ? bound_values[i++] : INFINITY;
    }
  return n_brackets;
}

int
_tprof_sampled_select_init (TprofSampledSelect *select,
                            const double       *values,
                            size_t              n,
                            const size_t       *ranks,
                            size_t              n_ranks,
                            const size_t       *bounds,
                            size_t              n_chunks)
{
  size_t n_sample;
  double *sample;

  memset (select, 0, sizeof *select);
  if (n < SAMPLED_MIN_N || n_ranks == 0 || n_ranks > MAX_TARGETS
      || n_chunks > TPROF_SAMPLED_MAX_CHUNKS)
    return 0;

  n_sample = n / 16 < SAMPLE_SIZE ? n / 16 : SAMPLE_SIZE;
  sample = _tprof_malloc_array (n_sample, sizeof *sample);
  if (sample == NULL)
    return -1;
  draw_sample (values, n, sample, n_sample);
  select->n_brackets = brackets_init (select->brackets, sample, n_sample, n, ranks, n_ranks);
  free (sample);
  if (select->n_brackets == 0)
    return 0;

  select->ranks = ranks;
  select->n_ranks = n_ranks;
  select->n_chunks = n_chunks;
  for (size_t c = 0; c < n_chunks; c++)
    {
      /* Eight times a median bracket's expected share: more means the
       * sample lied (or the data are adversarial) and a scratch copy is
       * cheaper. */
      select->chunks[c].max_inside = (bounds[c + 1] - bounds[c]) / 8 + 4096;
      select->chunks[c].min = INFINITY;
      select->chunks[c].max = -INFINITY;
    }
  return 1;
}

void
_tprof_sampled_select_clear (TprofSampledSelect *select)
{
  for (size_t c = 0; c < TPROF_SAMPLED_MAX_CHUNKS; c++)
    for (size_t b = 0; b < MAX_BRACKETS; b++)
      free (select->chunks[c].tallies[b].inside);
  memset (select, 0, sizeof *select);
}

/* Resolves the targets of bracket @b from the tallies of every chunk.
 * Returns 1, 0 when a target escaped the bracket, -1 without memory. */
static int
bracket_resolve (const TprofSampledSelect *select,
                 size_t                    b,
                 double                   *out)
{
  const Bracket *bracket = &select->brackets[b];
  size_t below = 0, at_lo = 0, at_hi = 0, n_inside = 0, n_wanted = 0;
  size_t wanted[MAX_TARGETS], wanted_target[MAX_TARGETS];
  double values[MAX_TARGETS];
  double *inside;

  for (size_t c = 0; c < select->n_chunks; c++)
    {
      below += select->chunks[c].tallies[b].below;
      at_lo += select->chunks[c].tallies[b].at_lo;
      at_hi += select->chunks[c].tallies[b].at_hi;
      n_inside += select->chunks[c].tallies[b].n_inside;
    }

  for (size_t t = bracket->first; t < bracket->first + bracket->count; t++)
    {
      size_t k = select->ranks[t];

      if (k < below)
        return 0;
      k -= below;
      if (k < at_lo)
        out[t] = bracket->lo;
      else if (k - at_lo < n_inside)
        {
          wanted_target[n_wanted] = t;
          wanted[n_wanted++] = k - at_lo;
        }
      else if (k - at_lo - n_inside < at_hi)
        out[t] = bracket->hi;
      else
        return 0;
    }
  if (n_wanted == 0)
    return 1;

  inside = _tprof_malloc_array (n_inside, sizeof *inside);
  if (inside == NULL)
    return -1;
  n_inside = 0;
  for (size_t c = 0; c < select->n_chunks; c++)
    {
      const Tally *tally = &select->chunks[c].tallies[b];

      if (tally->n_inside > 0)
        memcpy (inside + n_inside, tally->inside, tally->n_inside * sizeof *inside);
      n_inside += tally->n_inside;
    }

  _tprof_select_ranks (inside, n_inside, wanted, n_wanted, values);
  for (size_t w = 0; w < n_wanted; w++)
    out[wanted_target[w]] = values[w];
  free (inside);
  return 1;
}

int
_tprof_sampled_select_finish (TprofSampledSelect *select,
                              double             *out)
{
  int result = 1;

  for (size_t c = 0; c < select->n_chunks; c++)
    {
      if (select->chunks[c].no_memory)
        return -1;
      if (select->chunks[c].failed)
        result = 0;
    }
  for (size_t b = 0; b < select->n_brackets && result > 0; b++)
    result = bracket_resolve (select, b, out);
  return result;
}

/* One chunk of a stand-alone sampled selection. */
typedef struct
{
  TprofSampledSelect *select;
  size_t              chunk;
  const double       *values;
  size_t              n;
} ScanTask;

static void
scan_task_run (void *data)
{
  ScanTask *task = data;

  for (size_t start = 0; start < task->n; start += BLOCK)
    _tprof_sampled_select_scan (task->select, task->chunk, task->values + start,
                                task->n - start < BLOCK ? task->n - start : BLOCK);
}

int
_tprof_select_ranks_sampled (const double *values,
                             size_t        n,
                             const size_t *ranks,
                             size_t        n_ranks,
                             double       *out,
                             double       *min,
                             double       *max)
{
  TprofSampledSelect select;
  ScanTask tasks[TPROF_STATS_MAX_CHUNKS];
  size_t bounds[TPROF_STATS_MAX_CHUNKS + 1];
  size_t n_chunks = _tprof_stats_split (n, bounds);
  int result;

  result = _tprof_sampled_select_init (&select, values, n, ranks, n_ranks, bounds, n_chunks);
  if (result > 0)
    {
      for (size_t c = 0; c < n_chunks; c++)
        tasks[c] = (ScanTask) { &select, c, values + bounds[c], bounds[c + 1] - bounds[c] };
      _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, scan_task_run);
      result = _tprof_sampled_select_finish (&select, out);

      *min = select.chunks[0].min;
      *max = select.chunks[0].max;
      for (size_t c = 1; c < n_chunks; c++)
        {
          *min = fmin (*min, select.chunks[c].min);
          *max = fmax (*max, select.chunks[c].max);
        }
    }

  _tprof_sampled_select_clear (&select);
  return result;
}

/* Fills plan->values: sampled when that works, else from a scratch copy.
 * Returns false when memory is exhausted. */
static bool
select_plan_values (const double      *values,
                    size_t             n,
                    TprofQuantilePlan *plan,
                    bool              *scanned,
                    double            *min,
                    double            *max)
{
  int found = _tprof_select_ranks_sampled (values, n, plan->ranks, plan->n_ranks, plan->values, min, max);
  double *scratch;

  *scanned = found > 0;
  if (found != 0)
    return found > 0;

  scratch = _tprof_malloc_array (n, sizeof *scratch);
  if (scratch == NULL)
    return false;
  memcpy (scratch, values, n * sizeof *scratch);
  _tprof_select_ranks (scratch, n, plan->ranks, plan->n_ranks, plan->values);
  free (scratch);
  return true;
}

bool
_tprof_quantiles_and_extremes_of (const double *values,
                                  size_t        n,
                                  const double *qs,
                                  size_t        n_qs,
                                  double       *out,
                                  bool         *scanned,
                                  double       *min,
                                  double       *max)
{
  TprofQuantilePlan plan;

  *scanned = false;
  if (!_tprof_quantile_plan_init (&plan, n, qs, n_qs))
    return false;
  if (n > 0 && !select_plan_values (values, n, &plan, scanned, min, max))
    {
      _tprof_quantile_plan_clear (&plan);
      return false;
    }
  _tprof_quantile_plan_finish (&plan, out);
  return true;
}

bool
_tprof_quantiles_of (const double *values,
                     size_t        n,
                     const double *qs,
                     size_t        n_qs,
                     double       *out)
{
  double min, max;
  bool scanned;

  return _tprof_quantiles_and_extremes_of (values, n, qs, n_qs, out, &scanned, &min, &max);
}
