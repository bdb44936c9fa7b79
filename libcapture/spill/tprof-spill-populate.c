/* tprof-spill-populate.c — _tprof_spill_populate(): the pages of fresh memory mapped in one system call. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tprof-spill-reader-internal.h"

void
_tprof_spill_populate (void  *p,
                       size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  uintptr_t start = (uintptr_t) p & ~(page - 1);
  uintptr_t end = ((uintptr_t) p + bytes + page - 1) & ~(page - 1);

  if (bytes > 0)
    madvise ((void *) start, end - start, MADV_POPULATE_WRITE);
#else
  (void) p;
  (void) bytes;
#endif
}
