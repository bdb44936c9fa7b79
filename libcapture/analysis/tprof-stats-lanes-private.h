/* tprof-stats-lanes-private.h — two-lane vectors of doubles for the statistics passes, portable with an SSE2 fast path. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
# include <emmintrin.h>
#endif

/* Two lanes in GCC's portable vector extension (Clang has it too): SSE2
 * on any x86-64, what the target offers elsewhere. Each lane does exactly
 * the scalar operations, so results stay bit for bit numpy's. */
typedef double  Lanes __attribute__ ((vector_size (2 * sizeof (double))));
typedef int64_t LaneMask __attribute__ ((vector_size (2 * sizeof (double))));

static inline Lanes
lanes_load (const double *x)
{
  Lanes v;

  memcpy (&v, x, sizeof v);
  return v;
}

/* Lane-wise extremes: SSE2's own instructions where there are some, a
 * select elsewhere, since C has no vector conditional. As with a < b ? a : b,
 * a NaN in @b never wins; callers that care check for NaN. */
static inline Lanes
lanes_min (Lanes a,
           Lanes b)
{
#ifdef __SSE2__
  return (Lanes) _mm_min_pd ((__m128d) a, (__m128d) b);
#else
  LaneMask less = a < b;

  return (Lanes) (((LaneMask) a & less) | ((LaneMask) b & ~less));
#endif
}

static inline Lanes
lanes_max (Lanes a,
           Lanes b)
{
#ifdef __SSE2__
  return (Lanes) _mm_max_pd ((__m128d) a, (__m128d) b);
#else
  LaneMask greater = a > b;

  return (Lanes) (((LaneMask) a & greater) | ((LaneMask) b & ~greater));
#endif
}

/* @seen with the lanes where @x or @y is NaN set. */
static inline LaneMask
lanes_mark_nan (LaneMask seen,
                Lanes    x,
                Lanes    y)
{
#ifdef __SSE2__
  return seen | (LaneMask) _mm_cmpunord_pd ((__m128d) x, (__m128d) y);
#else
  return seen | ~((x == x) & (y == y));
#endif
}

static inline bool
lanes_any (LaneMask mask)
{
#ifdef __SSE2__
  return _mm_movemask_pd ((__m128d) mask) != 0;
#else
  return (mask[0] | mask[1]) != 0;
#endif
}
