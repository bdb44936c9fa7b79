/* tprof-alloc.c — the arrays the library allocates: large ones on transparent huge pages, so few page faults fill them, and the last freed kept for the next of their size. */
/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void) (addr), (void) (size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void) (addr), (void) (size))
#endif

#include "tprof-gathered-time-private.h"

#define TPROF_HUGE_PAGE ((size_t) 2 << 20)

/* Blocks freed by _tprof_free_large(), kept for the next request of
 * their size: a fresh 2 MiB page costs its zeroing (0.1 ms) and, with
 * the block's munmap, a load of 10^4 operations (two such blocks) a
 * tenth of its time, where a reader that mallocs and frees the same
 * sizes over and over gets its pages back from the heap, already
 * faulted. Each slot holds a block's address (a multiple of 2 MiB) plus
 * its size in 2 MiB pages, so that one atomic word takes or gives a
 * block: no lock, which a fork() could leave held. Four slots: a load's
 * two blocks (its operations table, its rows) and a save's two (its
 * operations, its image), so that a program that saves and loads in
 * turn keeps all four. */
#define SPARE_SLOTS 4
/* The largest block kept (in 2 MiB pages): a load's operations table
 * for 10^5 operations and its block of rows both fit. */
#define SPARE_MAX_PAGES ((uintptr_t) 16)
static uintptr_t spares[SPARE_SLOTS];
static unsigned  spare_next;  /* the slot a full set gives up next */
static bool      spare_began;

static size_t
rounded_to_huge_pages (size_t bytes)
{
  return (bytes + TPROF_HUGE_PAGE - 1) & ~(TPROF_HUGE_PAGE - 1);
}

/* A kept block of @rounded bytes, or NULL. */
static void *
spare_take (size_t rounded)
{
  uintptr_t pages = rounded / TPROF_HUGE_PAGE;

  if (rounded == 0 || pages > SPARE_MAX_PAGES)
    return NULL;
  for (int i = 0; i < SPARE_SLOTS; i++)
    {
      uintptr_t held = __atomic_load_n (&spares[i], __ATOMIC_ACQUIRE);

      if (held != 0 && (held & (TPROF_HUGE_PAGE - 1)) == pages
          && __atomic_compare_exchange_n (&spares[i], &held, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        {
          void *data = (void *) (held & ~(uintptr_t) (TPROF_HUGE_PAGE - 1));

          ASAN_UNPOISON_MEMORY_REGION (data, rounded);
          return data;
        }
    }
  return NULL;
}

/* Keeps @data (@rounded bytes, 2 MiB aligned) in a free slot, else in
 * place of the one kept longest; the block given up is freed. */
static void
spare_give (void   *data,
            size_t  rounded)
{
  uintptr_t pages = rounded / TPROF_HUGE_PAGE, block = (uintptr_t) data | pages, old;

  /* the first block goes back to the C library all the same: glibc's
   * free() of a block it mapped (as it maps these) raises its
   * thresholds to the block's size (M_MMAP_THRESHOLD, and twice that
   * M_TRIM_THRESHOLD), so that its heap keeps the pages of a load's
   * smaller arrays from one load to the next; kept from the first, no
   * block would ever raise them, and the heap would give those pages
   * back, to fault them again, at each load (a fifth of its time) */
  if (pages == 0 || pages > SPARE_MAX_PAGES || ((uintptr_t) data & (TPROF_HUGE_PAGE - 1)) != 0
      || !__atomic_exchange_n (&spare_began, true, __ATOMIC_RELAXED))
    {
      free (data);
      return;
    }
  /* its pages stay, but the kernel may take them back (unwritten since)
   * under memory pressure: the next user then faults fresh ones */
#ifdef MADV_FREE
  (void) madvise (data, rounded, MADV_FREE);
#endif
  ASAN_POISON_MEMORY_REGION (data, rounded);
  for (int i = 0; i < SPARE_SLOTS; i++)
    {
      old = 0;
      if (__atomic_compare_exchange_n (&spares[i], &old, block, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return;
    }
  old = __atomic_exchange_n (&spares[__atomic_fetch_add (&spare_next, 1, __ATOMIC_RELAXED) % SPARE_SLOTS], block,
                             __ATOMIC_ACQ_REL);
  if (old != 0)
    {
      void *given_up = (void *) (old & ~(uintptr_t) (TPROF_HUGE_PAGE - 1));

      ASAN_UNPOISON_MEMORY_REGION (given_up, (old & (TPROF_HUGE_PAGE - 1)) * TPROF_HUGE_PAGE);
      free (given_up);
    }
}

void *
_tprof_malloc_large (size_t bytes)
{
  size_t rounded = rounded_to_huge_pages (bytes);
  void *data = NULL;

  if (rounded < bytes)
    return NULL;
  if ((data = spare_take (rounded)) != NULL)
    return data;
  if (posix_memalign (&data, TPROF_HUGE_PAGE, rounded) != 0)
    return NULL;
  /* only a hint: without huge pages the array still works */
  (void) madvise (data, rounded, MADV_HUGEPAGE);
  return data;
}

void
_tprof_free_large (void   *data,
                   size_t  bytes)
{
  if (data != NULL)
    spare_give (data, rounded_to_huge_pages (bytes));
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
