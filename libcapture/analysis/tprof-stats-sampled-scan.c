/* tprof-stats-sampled-scan.c — the pass of a sampled selection: counts below each bracket, gathers inside, vectorised. */
/* SPDX-License-Identifier: MIT */

#include <math.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-select-private.h"
#include "tprof-stats-lanes-private.h"

typedef TprofTally Tally;

#define MAX_BRACKETS TPROF_SAMPLED_MAX_BRACKETS

static bool
tally_keep (Tally  *tally,
            double  x)
{
  if (tally->n_inside == tally->capacity)
    {
      size_t capacity = tally->capacity > 0 ? 2 * tally->capacity : 1024;
      double *grown = realloc (tally->inside, capacity * sizeof *grown);

      if (grown == NULL)
        return false;
      tally->inside = grown;
      tally->capacity = capacity;
    }
  tally->inside[tally->n_inside++] = x;
  return true;
}

/* The rare values at or inside a bracket: counted or kept. */
static void
gather_near (const TprofSampledSelect *select,
             TprofGatherChunk         *chunk,
             const double             *block,
             size_t                    n)
{
  for (size_t b = 0; b < select->n_brackets; b++)
    {
      double lo = select->brackets[b].lo, hi = select->brackets[b].hi;
      Tally *tally = &chunk->tallies[b];

      for (size_t i = 0; i < n; i++)
        {
          double x = block[i];

          if (!(x >= lo && x <= hi))
            continue;
          if (x == lo)
            tally->at_lo++;
          else if (x == hi)
            tally->at_hi++;
          else if (tally->n_inside >= chunk->max_inside)
            chunk->failed = true;
          else if (!tally_keep (tally, x))
            chunk->no_memory = true;
        }
    }
}

/* Two vectors a step: comparisons without branches, which would
 * mispredict half the time near a median. */
#define STEP 4

/* The vectorised scan of @n values, @n a multiple of STEP; inlined with a
 * constant @n_brackets so that the bracket loop unrolls. */
static inline __attribute__ ((always_inline)) void
scan_steps (const TprofSampledSelect *select,
            TprofGatherChunk         *chunk,
            const double             *block,
            size_t                    n,
            size_t                    n_brackets)
{
  Lanes lo[MAX_BRACKETS], hi[MAX_BRACKETS];
  LaneMask below[MAX_BRACKETS];
  LaneMask nan_seen = { 0, 0 };
  Lanes min = { chunk->min, chunk->min }, max = { chunk->max, chunk->max };

  for (size_t b = 0; b < n_brackets; b++)
    {
      lo[b] = (Lanes) { select->brackets[b].lo, select->brackets[b].lo };
      hi[b] = (Lanes) { select->brackets[b].hi, select->brackets[b].hi };
      below[b] = (LaneMask) { 0, 0 };
    }

  for (size_t i = 0; i < n; i += STEP)
    {
      Lanes x = lanes_load (block + i), y = lanes_load (block + i + 2);
      LaneMask near = { 0, 0 };

      /* Measured: the hardware prefetcher alone leaves this loop waiting. */
      __builtin_prefetch (block + i + 64);

      nan_seen = lanes_mark_nan (nan_seen, x, y);
      min = lanes_min (lanes_min (min, x), y);
      max = lanes_max (lanes_max (max, x), y);
      /* unrolled, so that the counts stay in registers */
#pragma GCC unroll 8
      for (size_t b = 0; b < n_brackets; b++)
        {
          LaneMask x_less = x < lo[b], y_less = y < lo[b];

          below[b] -= x_less + y_less;  /* true is -1 */
          near |= (~x_less & (x <= hi[b])) | (~y_less & (y <= hi[b]));
        }
      if (lanes_any (near))
        gather_near (select, chunk, block + i, STEP);
    }

  for (size_t b = 0; b < n_brackets; b++)
    chunk->tallies[b].below += (size_t) (below[b][0] + below[b][1]);
  chunk->min = fmin (min[0], min[1]);
  chunk->max = fmax (max[0], max[1]);
  if (lanes_any (nan_seen))
    chunk->failed = true;
}

void
_tprof_sampled_select_scan (TprofSampledSelect *select,
                            size_t              chunk_index,
                            const double       *block,
                            size_t              n)
{
  TprofGatherChunk *chunk = &select->chunks[chunk_index];
  size_t steps = n - n % STEP;

  if (chunk->failed || chunk->no_memory)
    return;

  switch (select->n_brackets)
    {
    case 1:
      scan_steps (select, chunk, block, steps, 1);
      break;
    case 2:
      scan_steps (select, chunk, block, steps, 2);
      break;
    case 3:
      scan_steps (select, chunk, block, steps, 3);
      break;
    default:
      scan_steps (select, chunk, block, steps, select->n_brackets);
      break;
    }

  /* The last few, one at a time. */
  for (size_t i = steps; i < n; i++)
    {
      double x = block[i];

      if (isnan (x))
        chunk->failed = true;
      chunk->min = fmin (chunk->min, x);
      chunk->max = fmax (chunk->max, x);
      for (size_t b = 0; b < select->n_brackets; b++)
        chunk->tallies[b].below += x < select->brackets[b].lo;
      gather_near (select, chunk, block + i, 1);
    }
}
