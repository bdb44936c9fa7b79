/* tprof-gather-type.c — memory regions described as one MPI datatype, in blocks that keep every count an int. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gather-mpi-private.h"

#define DEFAULT_BLOCK_ELEMS ((size_t) 1 << 28)

static size_t gather_block_elems = DEFAULT_BLOCK_ELEMS;

void
_tprof_gather_set_block_elems (size_t block_elems)
{
  if (block_elems == 0 || block_elems > INT_MAX)
    block_elems = DEFAULT_BLOCK_ELEMS;
  gather_block_elems = block_elems;
}

size_t
_tprof_gather_block_elems (void)
{
  return gather_block_elems;
}

/* A committed contiguous type of one block of @elem. */
int
_tprof_gather_make_block (MPI_Datatype elem, MPI_Datatype *block)
{
  int rc = MPI_Type_contiguous ((int) gather_block_elems, elem, block);

  if (rc != MPI_SUCCESS)
    {
      *block = MPI_DATATYPE_NULL;
      return rc;
    }
  rc = MPI_Type_commit (block);
  if (rc != MPI_SUCCESS)
    {
      MPI_Type_free (block);
      *block = MPI_DATATYPE_NULL;
    }
  return rc;
}

int
_tprof_gather_type_builder_init (TprofGatherTypeBuilder *b,
                                 size_t                  max_regions,
                                 MPI_Datatype            elem,
                                 size_t                  elem_size,
                                 MPI_Datatype            block,
                                 TprofError             *error)
{
  size_t cap;

  memset (b, 0, sizeof *b);
  b->elem = elem;
  b->elem_size = elem_size;
  b->block = block;
  /* a region may need a run of whole blocks and a remainder */
  if (!_tprof_gather_size_mul (max_regions, 2, &cap) || cap > INT_MAX)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: %zu memory regions are more than one MPI datatype can describe",
                            max_regions);
  if (cap == 0)
    return 0;
  b->lens = malloc (cap * sizeof *b->lens);
  b->disps = malloc (cap * sizeof *b->disps);
  b->types = malloc (cap * sizeof *b->types);
  if (b->lens == NULL || b->disps == NULL || b->types == NULL)
    return _tprof_gather_set_no_memory (error, "describing the data to transfer");
  b->cap = (int) cap;
  return 0;
}

void
_tprof_gather_type_builder_clear (TprofGatherTypeBuilder *b)
{
  free (b->lens);
  free (b->disps);
  free (b->types);
  memset (b, 0, sizeof *b);
}

static void
type_builder_push (TprofGatherTypeBuilder *b, int len, const void *addr, MPI_Datatype type)
{
  MPI_Get_address (addr, &b->disps[b->n]);
  b->lens[b->n] = len;
  b->types[b->n] = type;
  b->n++;
}

/* Adds @n_elems elements at @addr: a run of whole blocks, then the rest. */
void
_tprof_gather_type_builder_add (TprofGatherTypeBuilder *b, const void *addr, size_t n_elems)
{
  size_t n_blocks = n_elems / gather_block_elems;
  size_t rest = n_elems % gather_block_elems;

  if (n_elems == 0)
    return;
  if (n_blocks > INT_MAX)
    {
      b->too_large = true;
      return;
    }
  if (n_blocks > 0)
    type_builder_push (b, (int) n_blocks, addr, b->block);
  if (rest > 0)
    type_builder_push (b, (int) rest,
                       (const char *) addr + n_blocks * gather_block_elems * b->elem_size,
                       b->elem);
}

/* Makes the datatype (count 1) or, when nothing was added, count 0. */
int
_tprof_gather_type_builder_commit (TprofGatherTypeBuilder *b,
                                   MPI_Datatype           *type,
                                   int                    *count,
                                   TprofError             *error)
{
  int rc;

  *type = MPI_BYTE;
  *count = 0;
  if (b->too_large)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: an operation has more samples than one MPI datatype can describe");
  if (b->n == 0)
    return 0;
  rc = MPI_Type_create_struct (b->n, b->lens, b->disps, b->types, type);
  if (rc == MPI_SUCCESS)
    {
      rc = MPI_Type_commit (type);
      if (rc != MPI_SUCCESS)
        MPI_Type_free (type);
    }
  if (rc != MPI_SUCCESS)
    {
      *type = MPI_BYTE;
      return _tprof_gather_set_mpi_error (error, rc, "MPI_Type_create_struct", "describing the data to transfer");
    }
  *count = 1;
  return 0;
}

void
_tprof_gather_free_type (MPI_Datatype *type, int *count)
{
  if (*count > 0)
    MPI_Type_free (type);
  *type = MPI_BYTE;
  *count = 0;
}
