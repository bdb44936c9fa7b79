/* tprof-h5-superblock.c — an HDF5 superblock's version, sizes and where its end-of-file address lies. */
/* SPDX-License-Identifier: MIT */
#include "tprof-h5-disk.h"

bool
_tprof_h5_superblock_size_valid (unsigned size)
{
  return size == 2 || size == 4 || size == 8;
}

bool
_tprof_h5_superblock_parse (const unsigned char *head,
                            TprofH5Superblock   *sb)
{
  static const unsigned char signature[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };

  if (memcmp (head, signature, sizeof signature) != 0)
    return false;
  sb->version = head[8];
  /* versions 0 and 1: four versions and a reserved byte before the
   * sizes; 2 and 3: the sizes at once, and a checksum at the end */
  sb->addr_size = sb->version < 2 ? head[13] : head[9];
  sb->len_size = sb->version < 2 ? head[14] : head[10];
  /* versions 0 and 1 then: the B-tree widths (2 + 2), the consistency
   * flags (4), version 1 two more widths (2 + 2); the base address, the
   * free space's address and the end of file */
  sb->eof_at = sb->version == 0 ? 24 + 2 * (size_t) sb->addr_size
               : sb->version == 1 ? 28 + 2 * (size_t) sb->addr_size : 0;
  return true;
}
