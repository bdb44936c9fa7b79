/* tprof-h5-global-heap.c — HDF5's global heap collections and heap ids, read and written byte by byte. */
/* SPDX-License-Identifier: MIT */
#include "tprof-h5-disk.h"

void
_tprof_h5_heap_id_decode (const unsigned char *p,
                          unsigned             addr_size,
                          TprofH5HeapId       *id)
{
  id->length = _tprof_h5_decode_le (p, 4);
  id->addr = _tprof_h5_decode_le (p + 4, addr_size);
  id->index = (uint32_t) _tprof_h5_decode_le (p + 4 + addr_size, 4);
}

void
_tprof_h5_heap_id_encode (unsigned char       *p,
                          unsigned             addr_size,
                          const TprofH5HeapId *id)
{
  _tprof_h5_encode_le (p, id->length, 4);
  _tprof_h5_encode_le (p + 4, id->addr, addr_size);
  _tprof_h5_encode_le (p + 4 + addr_size, id->index, 4);
}

bool
_tprof_h5_heap_is_collection (const unsigned char *head)
{
  return memcmp (head, TPROF_H5_HEAP_SIGNATURE, TPROF_H5_HEAP_SIGNATURE_SIZE) == 0;
}

uint64_t
_tprof_h5_heap_collection_size (const unsigned char *head,
                                unsigned             len_size)
{
  return _tprof_h5_decode_le (head + TPROF_H5_HEAP_SIGNATURE_SIZE, len_size);
}

const char *
_tprof_h5_heap_walk (const unsigned char *collection,
                     uint64_t             size,
                     unsigned             len_size,
                     TprofH5HeapVisit     visit,
                     void                *data)
{
  uint64_t header = _tprof_h5_heap_header_size (len_size);
  uint64_t at = header;

  while (size - at >= header)
    {
      const unsigned char *q = collection + at;
      unsigned index = (unsigned) _tprof_h5_decode_le (q, 2);
      uint64_t length = _tprof_h5_decode_le (q + 8, len_size);
      uint64_t need;

      if (length > size)
        return "an object is larger than the collection";
      /* the free space (index 0) counts its own header */
      need = index > 0 ? _tprof_h5_heap_object_size (length, len_size) : length;
      if (need == 0 || need > size - at)
        return "its objects overrun it";
      if (index > 0 && visit != NULL && !visit (data, index, at + header, length))
        return "it is too large for the memory available";
      at += need;
    }
  return NULL;
}

void
_tprof_h5_heap_put_header (unsigned char *p,
                           uint64_t       size,
                           unsigned       len_size)
{
  memcpy (p, TPROF_H5_HEAP_SIGNATURE, TPROF_H5_HEAP_SIGNATURE_SIZE);
  _tprof_h5_encode_le (p + TPROF_H5_HEAP_SIGNATURE_SIZE, size, len_size);
}

/* An object's header: its index, no references, its size. */
static void
heap_put_object_header (unsigned char *p,
                        unsigned       index,
                        uint64_t       size,
                        unsigned       len_size)
{
  _tprof_h5_encode_le (p, index, 2);
  memset (p + 2, 0, 6);
  _tprof_h5_encode_le (p + 8, size, len_size);
}

uint64_t
_tprof_h5_heap_put_object (unsigned char *p,
                           unsigned       index,
                           const void    *data,
                           uint64_t       length,
                           unsigned       len_size)
{
  uint64_t size = _tprof_h5_heap_object_size (length, len_size);
  size_t header = _tprof_h5_heap_header_size (len_size);

  heap_put_object_header (p, index, length, len_size);
  if (length > 0)
    memcpy (p + header, data, (size_t) length);
  memset (p + header + length, 0, (size_t) (size - header - length));
  return size;
}

void
_tprof_h5_heap_put_free (unsigned char *p,
                         uint64_t       size,
                         unsigned       len_size)
{
  if (size >= _tprof_h5_heap_header_size (len_size))
    heap_put_object_header (p, 0, size, len_size);
  else
    memset (p, 0, (size_t) size);
}
