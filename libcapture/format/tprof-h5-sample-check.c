/* tprof-h5-sample-check.c — finds the first sample the format refuses (time not finite or < 0, rank out of range), for the profile, the writer and the readers. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "tprof-h5-internal.h"

/* Small enough for a block of times and ranks to stay in the L1/L2 cache
 * between the fast check and the exact one. */
#define TPROF_H5_VALIDATE_BLOCK 4096

/* Branch-free over the bits, on a whole block whose length the compiler
 * knows, so that -O2 vectorizes it: true when every sample is valid, the
 * common case. The sign bit flags negatives (and -0.0, which the exact
 * check then accepts); adding one to the exponent carries into the sign
 * bit exactly for infinities and NaNs. Ranks compare unsigned, so that
 * negative ones wrap to huge ones. */
static bool
tprof_h5_block_maybe_valid (const double  *times,
                            const int32_t *ranks,
                            int            world_size)
{
  uint64_t times_bad = 0;
  uint32_t ranks_bad = 0;

  for (size_t i = 0; i < TPROF_H5_VALIDATE_BLOCK; i++)
    {
      uint64_t bits;

      memcpy (&bits, &times[i], sizeof bits);
      times_bad |= bits | (bits + UINT64_C (0x0010000000000000));
    }
  for (size_t i = 0; i < TPROF_H5_VALIDATE_BLOCK; i++)
    ranks_bad |= (uint32_t) ranks[i] >= (uint32_t) world_size;
  return (times_bad >> 63) == 0 && ranks_bad == 0;
}

static bool
tprof_h5_sample_valid (double  time,
                       int32_t rank,
                       int     world_size)
{
  return isfinite (time) && time >= 0 && rank >= 0 && rank < world_size;
}

size_t
_tprof_h5_find_invalid (const double  *times,
                        const int32_t *ranks,
                        size_t         start,
                        size_t         stop,
                        int            world_size)
{
  for (size_t block = start; block < stop; block += TPROF_H5_VALIDATE_BLOCK)
    {
      size_t end = stop - block > TPROF_H5_VALIDATE_BLOCK ? block + TPROF_H5_VALIDATE_BLOCK : stop;

      /* a short last block goes straight to the exact check */
      if (TPROF_LIKELY (end - block == TPROF_H5_VALIDATE_BLOCK
                        && tprof_h5_block_maybe_valid (times + block, ranks + block, world_size)))
        continue;
      for (size_t i = block; i < end; i++)
        if (!tprof_h5_sample_valid (times[i], ranks[i], world_size))
          return i;
    }
  return stop;
}

int
_tprof_h5_invalid_sample_error (TprofError    *error,
                                int            code,
                                const char    *where,
                                const char    *name,
                                const double  *times,
                                const int32_t *ranks,
                                size_t         i,
                                int            world_size)
{
  if (!(isfinite (times[i]) && times[i] >= 0))
    return tprof_error_set (error, code, "%soperation '%s': sample %zu is %g, not a finite time >= 0",
                            where, name, i, times[i]);
  return tprof_error_set (error, code, "%soperation '%s': sample %zu has rank %d, outside [0, %d)",
                          where, name, i, (int) ranks[i], world_size);
}
