/* tprof-alloc.c — the arrays the library allocates: large ones on transparent huge pages, so few page faults fill them. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
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

void
_tprof_prefault_write (void  *p,
                       size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
  const uintptr_t page = 4096;
  uintptr_t first = ((uintptr_t) p + page - 1) & ~(page - 1), end = ((uintptr_t) p + bytes) & ~(page - 1);

  /* only a hint: an older kernel refuses it, and the pages fault as written */
  if (end > first)
    (void) madvise ((void *) first, end - first, MADV_POPULATE_WRITE);
#else
  (void) p;
  (void) bytes;
#endif
}
