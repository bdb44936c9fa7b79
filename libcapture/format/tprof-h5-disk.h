/* tprof-h5-disk.h — the parts of HDF5's file format tprof reads and writes without HDF5: the superblock's sizes and end, the global heap that holds variable-length strings. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The one home of these layouts (HDF5's "File Format Specification",
 * version 0 and 1 superblocks and "Global Heap"): the save writes the
 * names' heap itself (save/tprof-names-heap.c), the reader reads it
 * itself (file/tprof-columns-names.c) and checks every collection of a
 * file before HDF5 trusts one (file/tprof-h5-heap-check.c). */

/* The unsigned little-endian integer of @n_bytes (at most 8) at @p, as
 * HDF5 stores addresses and lengths. */
static inline uint64_t
_tprof_h5_decode_le (const unsigned char *p,
                     unsigned             n_bytes)
{
  uint64_t value = 0;
  uint32_t u32;
  uint16_t u16;

  /* the widths HDF5 uses, one load each where the host is little-endian
   * (the names read a length, an address and an index per name) */
  if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    switch (n_bytes)
      {
      case 8:
        memcpy (&value, p, 8);
        return value;
      case 4:
        memcpy (&u32, p, 4);
        return u32;
      case 2:
        memcpy (&u16, p, 2);
        return u16;
      default:
        break;
      }
  for (unsigned i = n_bytes; i > 0; i--)
    value = (value << 8) | p[i - 1];
  return value;
}

/* Stores @value in @n_bytes (at most 8) at @p, little-endian. */
static inline void
_tprof_h5_encode_le (unsigned char *p,
                     uint64_t       value,
                     unsigned       n_bytes)
{
  uint32_t u32 = (uint32_t) value;
  uint16_t u16 = (uint16_t) value;

  /* one store each where the host is little-endian (the save writes a
   * heap id and an object header per name) */
  if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    switch (n_bytes)
      {
      case 8:
        memcpy (p, &value, 8);
        return;
      case 4:
        memcpy (p, &u32, 4);
        return;
      case 2:
        memcpy (p, &u16, 2);
        return;
      default:
        break;
      }
  for (unsigned i = 0; i < n_bytes; i++, value >>= 8)
    p[i] = (unsigned char) value;
}

/* --- the superblock (tprof-h5-superblock.c) --- */

/* Enough of a superblock's start to tell its version and sizes. */
#define TPROF_H5_SUPERBLOCK_HEAD 16

typedef struct
{
  unsigned version;
  unsigned addr_size;   /* "size of offsets": 2, 4 or 8 */
  unsigned len_size;    /* "size of lengths": 2, 4 or 8 */
  size_t   eof_at;      /* where its end-of-file address lies; 0 when it
                         * cannot be changed alone (a checksum covers it) */
} TprofH5Superblock;

/* Reads the superblock whose first TPROF_H5_SUPERBLOCK_HEAD bytes are at
 * @head. false when they are not one (its signature); its sizes are as
 * it says, not checked. */
bool _tprof_h5_superblock_parse (const unsigned char *head,
                                 TprofH5Superblock   *sb);
/* Whether @size is one HDF5 gives addresses or lengths: 2, 4 or 8. */
bool _tprof_h5_superblock_size_valid (unsigned size);

/* --- the global heap (tprof-h5-global-heap.c) --- */

/* A collection starts with "GCOL", version 1 and three reserved bytes,
 * then its size in all (a length); each object with its index (2 bytes),
 * references (2), reserved (4) and its size (a length), then its bytes,
 * padded with zeros to a multiple of 8. Index 0 is the free space, whose
 * size counts its own header; objects are numbered from 1. */
#define TPROF_H5_HEAP_SIGNATURE      "GCOL\1\0\0\0"
#define TPROF_H5_HEAP_SIGNATURE_SIZE 8
/* HDF5 reads this much of a collection before it knows its size: no
 * collection is smaller (and none may end closer to the file's end). */
#define TPROF_H5_HEAP_MIN_SIZE       4096
/* Indexes are 16 bits. */
#define TPROF_H5_HEAP_MAX_INDEX      65535

/* The collection's header, and each object's, for @len_size. */
static inline size_t
_tprof_h5_heap_header_size (unsigned len_size)
{
  return 8 + len_size;
}

/* The bytes an object of @length bytes takes, its header included. */
static inline uint64_t
_tprof_h5_heap_object_size (uint64_t length,
                            unsigned len_size)
{
  return _tprof_h5_heap_header_size (len_size) + ((length + 7) & ~(uint64_t) 7);
}

/* A heap id, as a variable-length string's element holds it: the
 * string's length (4 bytes), the collection's address (an address, from
 * the base address) and the object's index (4 bytes). */
typedef struct
{
  uint64_t length;
  uint64_t addr;
  uint32_t index;
} TprofH5HeapId;

static inline size_t
_tprof_h5_heap_id_size (unsigned addr_size)
{
  return 8 + addr_size;
}

void _tprof_h5_heap_id_decode (const unsigned char *p,
                               unsigned             addr_size,
                               TprofH5HeapId       *id);
void _tprof_h5_heap_id_encode (unsigned char       *p,
                               unsigned             addr_size,
                               const TprofH5HeapId *id);

/* Whether @head (TPROF_H5_HEAP_SIGNATURE_SIZE bytes) opens a collection. */
bool _tprof_h5_heap_is_collection (const unsigned char *head);
/* The size in all of the collection whose header is at @head. */
uint64_t _tprof_h5_heap_collection_size (const unsigned char *head,
                                         unsigned             len_size);

/* Called for each object (not the free space) of a collection: object
 * @index's bytes are @begin .. @begin + @length of the collection. false
 * stops the walk (memory exhausted). */
typedef bool (*TprofH5HeapVisit) (void    *data,
                                  unsigned index,
                                  uint64_t begin,
                                  uint64_t length);

/* Walks the objects of the collection of @size bytes at @collection as
 * HDF5 does, checking every size stays inside it; @visit (may be NULL)
 * sees each. NULL, or what is wrong ("its objects overrun it", ...). */
const char *_tprof_h5_heap_walk (const unsigned char *collection,
                                 uint64_t             size,
                                 unsigned             len_size,
                                 TprofH5HeapVisit     visit,
                                 void                *data);

/* Writes at @p the header of a collection of @size bytes. */
void _tprof_h5_heap_put_header (unsigned char *p,
                                uint64_t       size,
                                unsigned       len_size);
/* Writes at @p object @index, the @length bytes of @data, padded;
 * returns the bytes it takes (_tprof_h5_heap_object_size()). */
uint64_t _tprof_h5_heap_put_object (unsigned char *p,
                                    unsigned       index,
                                    const void    *data,
                                    uint64_t       length,
                                    unsigned       len_size);
/* Writes at @p the free space filling the last @size bytes of a
 * collection (a multiple of 8; HDF5 counts fewer bytes than a header as
 * free space without one). */
void _tprof_h5_heap_put_free (unsigned char *p,
                              uint64_t       size,
                              unsigned       len_size);
