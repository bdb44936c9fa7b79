/* tprof-h5-buffer.c — the arrays a profile loads into: large ones on transparent huge pages, so few page faults fill them. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <sys/mman.h>

#include "tprof-h5-reader-private.h"

#define TPROF_H5_HUGE_PAGE ((size_t) 2 << 20)

void *
_tprof_h5_alloc_samples (size_t n,
                         size_t elem_size)
{
  size_t bytes, rounded;
  void *data = NULL;

  if (__builtin_mul_overflow (n, elem_size, &bytes))
    return NULL;
  /* A 4 KiB page fault costs about as much as copying the page: on
   * 2 MiB pages (this machine's THP mode is `madvise`) a 100 MB array
   * faults 50 times instead of 25000. Smaller arrays would waste memory. */
  if (bytes < 2 * TPROF_H5_HUGE_PAGE)
    return malloc (bytes > 0 ? bytes : 1);

  rounded = (bytes + TPROF_H5_HUGE_PAGE - 1) & ~(TPROF_H5_HUGE_PAGE - 1);
  if (rounded < bytes || posix_memalign (&data, TPROF_H5_HUGE_PAGE, rounded) != 0)
    return NULL;
  /* only a hint: without huge pages the array still works */
  (void) madvise (data, rounded, MADV_HUGEPAGE);
  return data;
}
