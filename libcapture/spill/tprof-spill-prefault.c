/* tprof-spill-prefault.c — the pages of large fresh blocks mapped ahead on a thread of its own, while another fills them from their starts. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "tprof-spill-reader-internal.h"

/* A block is mapped in this many slices, every block's first slice
 * before any's second: the merge fills them together, rank after rank. */
#define SLICES 256

struct _TprofSpillPrefault
{
  pthread_t    thread;
  atomic_bool  stop;
  size_t       n_blocks;
  char       **blocks;
  size_t      *bytes;
};

static void *
prefault_main (void *data)
{
  TprofSpillPrefault *pf = data;

  for (size_t s = 0; s < SLICES; s++)
    for (size_t k = 0; k < pf->n_blocks; k++)
      {
        size_t lo = pf->bytes[k] / SLICES * s, hi = s + 1 < SLICES ? pf->bytes[k] / SLICES * (s + 1) : pf->bytes[k];

        if (atomic_load_explicit (&pf->stop, memory_order_relaxed))
          return NULL;
        _tprof_spill_populate (pf->blocks[k] + lo, hi - lo);
      }
  return NULL;
}

TprofSpillPrefault *
_tprof_spill_prefault_start (void *const  *blocks,
                             const size_t *bytes,
                             size_t        n_blocks)
{
  TprofSpillPrefault *pf = calloc (1, sizeof *pf);

  if (pf == NULL || (pf->blocks = malloc (n_blocks * sizeof *pf->blocks + 1)) == NULL
      || (pf->bytes = malloc (n_blocks * sizeof *pf->bytes + 1)) == NULL)
    goto fail;
  for (size_t k = 0; k < n_blocks; k++)
    {
      pf->blocks[k] = blocks[k];
      pf->bytes[k] = blocks[k] != NULL ? bytes[k] : 0;
    }
  pf->n_blocks = n_blocks;
  atomic_init (&pf->stop, false);
  if (pthread_create (&pf->thread, NULL, prefault_main, pf) == 0)
    return pf;
fail:
  /* only ahead of time: the filler maps what it fills anyway */
  if (pf != NULL)
    {
      free (pf->blocks);
      free (pf->bytes);
    }
  free (pf);
  return NULL;
}

void
_tprof_spill_prefault_stop (TprofSpillPrefault *pf)
{
  if (pf == NULL)
    return;
  atomic_store_explicit (&pf->stop, true, memory_order_relaxed);
  pthread_join (pf->thread, NULL);
  free (pf->blocks);
  free (pf->bytes);
  free (pf);
}
