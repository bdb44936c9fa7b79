/* tprof-alloc.c — the arrays the library allocates: large ones on transparent huge pages, so few page faults fill them. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <sys/mman.h>

#include "tprof-gathered-time-private.h"

#define TPROF_HUGE_PAGE ((size_t) 2 << 20)

void *
_tprof_malloc_large (size_t bytes)
{
  size_t rounded = (bytes + TPROF_HUGE_PAGE - 1) & ~(TPROF_HUGE_PAGE - 1);
  void *data = NULL;

  if (rounded < bytes || posix_memalign (&data, TPROF_HUGE_PAGE, rounded) != 0)
    return NULL;
  /* only a hint: without huge pages the array still works */
  (void) madvise (data, rounded, MADV_HUGEPAGE);
  return data;
}
