/* tprof-names-heap.c — format 3's names in a save built in memory: their global heap and heap ids written by us once HDF5 has closed the image, not by HDF5 one name at a time. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"

#include "tprof-crc32c.h"
#include "tprof-h5-disk.h"
#include "tprof-h5-writer-private.h"

/* HDF5 writes each variable-length string through its type conversion
 * and a global heap insert, some 2 000 instructions a name: 42 % of the
 * writing thread of a save of 10^4 small operations. In an image the
 * whole file is at hand: HDF5 creates the column (contiguous, allocated
 * early and, with no fill value set, never written); once it has closed
 * the file, the collections go after its end, each name's heap id into
 * the column, and the superblock's end of file past the collections.
 * What HDF5 reads is what it would have written itself, but for where
 * the collections lie and how large they are. */

/* A collection takes names up to this size (a longer name gets one of
 * its own): a few reads for a reader, a modest block in HDF5's cache. */
#define NAMES_HEAP_COLLECTION ((uint64_t) 64 << 10)

/* Where the names go, collection after collection. */
typedef struct
{
  unsigned len_size;
  uint64_t start;  /* the current collection, from the heap's start */
  uint64_t used;   /* its bytes so far, header included */
  unsigned index;  /* the last index given in it; 0: none yet */
} NamesPlan;

static void
names_plan_init (NamesPlan *p,
                 unsigned   len_size)
{
  *p = (NamesPlan) { len_size, 0, _tprof_h5_heap_header_size (len_size), 0 };
}

/* A collection whose objects take @used bytes: HDF5 reads the first
 * TPROF_H5_HEAP_MIN_SIZE bytes of one before its size. */
static uint64_t
names_plan_collection_size (uint64_t used)
{
  return used < TPROF_H5_HEAP_MIN_SIZE ? TPROF_H5_HEAP_MIN_SIZE : used;
}

/* Places an object of @size bytes: in the current collection, or in the
 * next, when it returns true with the one it closes in *@closed and
 * *@closed_used. Its index is p->index, its place p->start + p->used
 * minus @size. */
static bool
names_plan_place (NamesPlan *p,
                  uint64_t   size,
                  uint64_t  *closed,
                  uint64_t  *closed_used)
{
  bool next = p->index > 0 && (p->used + size > NAMES_HEAP_COLLECTION || p->index == TPROF_H5_HEAP_MAX_INDEX);

  if (next)
    {
      *closed = p->start;
      *closed_used = p->used;
      p->start += names_plan_collection_size (p->used);
      p->used = _tprof_h5_heap_header_size (p->len_size);
      p->index = 0;
    }
  p->index++;
  p->used += size;
  return next;
}

/* The names to place: a layout's (lengths taken), or a profile's, whose
 * lengths a first pass leaves in their ids (a heap id starts with it). */
typedef struct
{
  const TprofColumnsLayout *l;
  const TprofProfiledTime  *pt;
  const unsigned char      *ids;
  size_t                    n;
} NamesSource;

static inline const char *
names_source_name (const NamesSource *src,
                   size_t             k)
{
  return src->l != NULL ? src->l->ops[k].name : tprof_profiled_time_name (src->pt, k);
}

static inline size_t
names_source_length (const NamesSource *src,
                     size_t             k,
                     size_t             id_size)
{
  return src->l != NULL ? src->l->name_length[k] : (size_t) _tprof_h5_decode_le (src->ids + k * id_size, 4);
}

/* The bytes the collections of @src's names take. */
static uint64_t
names_heap_bytes (const NamesSource *src,
                  unsigned           len_size,
                  size_t             id_size)
{
  NamesPlan p;
  uint64_t closed, closed_used;

  names_plan_init (&p, len_size);
  for (size_t k = 0; k < src->n; k++)
    {
      size_t length = names_source_length (src, k, id_size);

      /* a heap id holds 4 bytes of length */
      if (length > UINT32_MAX)
        return UINT64_MAX;
      names_plan_place (&p, _tprof_h5_heap_object_size (length, len_size), &closed, &closed_used);
    }
  return p.start + names_plan_collection_size (p.used);
}

/* The header and free space of the collection at @heap + @start whose
 * objects took @used bytes; what the free space holds zeros. */
static void
names_heap_close (unsigned char *heap,
                  uint64_t       start,
                  uint64_t       used,
                  unsigned       len_size)
{
  uint64_t size = names_plan_collection_size (used);
  size_t header = _tprof_h5_heap_header_size (len_size);

  _tprof_h5_heap_put_header (heap + start, size, len_size);
  if (size > used)
    _tprof_h5_heap_put_free (heap + start + used, size - used, len_size);
  if (size > used + header)
    memset (heap + start + used + header, 0, (size_t) (size - used - header));
}

/* Writes the collections of @src's names at @heap (file address
 * @heap_addr: 0 for addresses from the heap's start) and their ids at
 * @ids; the names' checksum (each with its terminating zero) into
 * *@crc unless NULL. */
static void
names_heap_fill (const NamesSource *src,
                 unsigned           addr_size,
                 unsigned           len_size,
                 unsigned char     *heap,
                 uint64_t           heap_addr,
                 unsigned char     *ids,
                 uint32_t          *crc)
{
  size_t id_size = _tprof_h5_heap_id_size (addr_size);
  uint64_t closed, closed_used;
  NamesPlan p;

  names_plan_init (&p, len_size);
  for (size_t k = 0; k < src->n; k++)
    {
      const char *name = names_source_name (src, k);
      size_t length = names_source_length (src, k, id_size);
      uint64_t size = _tprof_h5_heap_object_size (length, len_size);
      TprofH5HeapId id;

      if (names_plan_place (&p, size, &closed, &closed_used))
        names_heap_close (heap, closed, closed_used, len_size);
      id = (TprofH5HeapId) { length, heap_addr + p.start, p.index };
      _tprof_h5_heap_put_object (heap + p.start + p.used - size, p.index, name, length, len_size);
      _tprof_h5_heap_id_encode (ids + k * id_size, addr_size, &id);
      if (crc != NULL)
        *crc = _tprof_crc32c (*crc, name, length + 1);
    }
  names_heap_close (heap, p.start, p.used, len_size);
}

bool
_tprof_names_heap_build (TprofNamesHeap          *nh,
                         const TprofProfiledTime *pt)
{
  /* the sizes of the save's files, which HDF5 creates with its default
   * creation list; _tprof_names_heap_write() checks them */
  unsigned addr_size = sizeof (haddr_t), len_size = sizeof (hsize_t);
  size_t id_size = _tprof_h5_heap_id_size (addr_size), n = tprof_profiled_time_len (pt);
  NamesSource src = { NULL, pt, NULL, n };
  uint64_t bytes;
  unsigned char *ids;

  *nh = (TprofNamesHeap) { 0 };
  if (n == 0 || n > SIZE_MAX / 2 / id_size || (ids = malloc (n * id_size)) == NULL)
    return false;
  /* each id's length first: they size the heap */
  for (size_t k = 0; k < n; k++)
    {
      size_t length = strlen (tprof_profiled_time_name (pt, k));

      if (length > UINT32_MAX)
        {
          free (ids);
          return false;
        }
      _tprof_h5_encode_le (ids + k * id_size, length, 4);
    }
  src.ids = ids;
  bytes = names_heap_bytes (&src, len_size, id_size);
  if (bytes > SIZE_MAX || (nh->heap = malloc ((size_t) bytes)) == NULL)
    {
      free (ids);
      return false;
    }
  nh->ids = ids;
  nh->n = n;
  nh->bytes = bytes;
  nh->addr_size = addr_size;
  nh->len_size = len_size;
  names_heap_fill (&src, addr_size, len_size, nh->heap, 0, ids, &nh->crc);
  return true;
}

void
_tprof_names_heap_clear (TprofNamesHeap *nh)
{
  free (nh->heap);
  free (nh->ids);
  *nh = (TprofNamesHeap) { 0 };
}

/* The ids built ahead copied to @dst, each collection's address moved
 * by @heap_at, where the heap lies. */
static void
names_ids_place (const TprofNamesHeap *nh,
                 unsigned char        *dst,
                 uint64_t              heap_at)
{
  size_t id_size = _tprof_h5_heap_id_size (nh->addr_size);
  const unsigned char *src = nh->ids;

  /* one pass, each id copied and moved: a copy of a constant size where
   * the address takes 8 bytes, as HDF5's default sizes have it */
  if (id_size == 16)
    for (size_t k = 0; k < nh->n; k++, src += 16, dst += 16)
      {
        memcpy (dst, src, 16);
        _tprof_h5_encode_le (dst + 4, _tprof_h5_decode_le (src + 4, 8) + heap_at, 8);
      }
  else
    for (size_t k = 0; k < nh->n; k++, src += id_size, dst += id_size)
      {
        memcpy (dst, src, id_size);
        _tprof_h5_encode_le (dst + 4, _tprof_h5_decode_le (src + 4, nh->addr_size) + heap_at, nh->addr_size);
      }
}

int
_tprof_names_heap_create (TprofProfileWriter *w,
                          TprofColumnsLayout *l,
                          hid_t               group,
                          hid_t               space,
                          hid_t              *dset)
{
  H5F_info2_t info;
  hid_t dcpl;
  haddr_t offset = HADDR_UNDEF;

  /* an image, and a superblock whose end of file can be moved alone */
  if (w->out->image == NULL || l->n_ops == 0 || H5Fget_info2 (w->file, &info) < 0 || info.super.version > 1)
    return 0;
  dcpl = H5Pcreate (H5P_DATASET_CREATE);
  /* no fill value set: HDF5 writes none (it refuses never to fill a
   * variable-length type) */
  if (dcpl >= 0 && H5Pset_layout (dcpl, H5D_CONTIGUOUS) >= 0 && H5Pset_alloc_time (dcpl, H5D_ALLOC_TIME_EARLY) >= 0)
    *dset = H5Dcreate2 (group, _tprof_columns[TPROF_COL_OP_NAME].name, w->str_type, space, H5P_DEFAULT,
                        dcpl, H5P_DEFAULT);
  _tprof_h5_close (dcpl);
  if (*dset >= 0 && (offset = H5Dget_offset (*dset)) == HADDR_UNDEF)
    {
      _tprof_h5_close (*dset);
      *dset = -1;
    }
  if (*dset < 0)
    return -1;
  l->offset[TPROF_COL_OP_NAME] = (uint64_t) offset;
  /* every byte of it ours to write: the image leaves it unzeroed
   * (_tprof_columns_writer_sample_spans()) */
  l->names_ids_bytes = H5Dget_storage_size (*dset);
  return 1;
}

int
_tprof_names_heap_write (TprofSaveFile            *out,
                         const TprofColumnsLayout *l,
                         const TprofNamesHeap     *built,
                         off_t                    *size,
                         TprofError               *error)
{
  uint64_t ids_at = l->offset[TPROF_COL_OP_NAME], heap_at = (uint64_t) *size, bytes, end;
  NamesSource src = { l, NULL, NULL, l->n_ops };
  TprofH5Superblock sb;
  unsigned char *image;
  size_t id_size;

  if (ids_at == UINT64_MAX)
    return 0;
  /* HDF5 closed the image: it holds the whole file, superblock first */
  if (out->image == NULL || *size < TPROF_H5_SUPERBLOCK_HEAD || (uint64_t) *size != out->image_end
      || !_tprof_h5_superblock_parse ((unsigned char *) out->image, &sb) || sb.eof_at == 0
      || !_tprof_h5_superblock_size_valid (sb.addr_size) || !_tprof_h5_superblock_size_valid (sb.len_size)
      || _tprof_h5_decode_le ((unsigned char *) out->image + sb.eof_at - 2 * sb.addr_size, sb.addr_size) != 0
      || _tprof_h5_decode_le ((unsigned char *) out->image + sb.eof_at, sb.addr_size) != heap_at)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write the names: HDF5 did not lay the file out "
                            "as expected", out->path);
  /* built ahead for these names and this superblock's sizes, or now */
  if (built != NULL && (built->heap == NULL || built->n != l->n_ops || built->addr_size != sb.addr_size
                        || built->len_size != sb.len_size))
    built = NULL;
  id_size = _tprof_h5_heap_id_size (sb.addr_size);
  bytes = built != NULL ? built->bytes : names_heap_bytes (&src, sb.len_size, id_size);
  if (ids_at > heap_at || l->n_ops > (heap_at - ids_at) / id_size || bytes == UINT64_MAX
      || (l->names_ids_bytes != 0 && l->names_ids_bytes != l->n_ops * id_size)
      || __builtin_add_overflow (heap_at, bytes, &end)
      || end > SIZE_MAX || (sb.addr_size < 8 && end >> (8 * sb.addr_size) != 0))
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write the names: they do not fit the file",
                            out->path);
  /* every byte of the collections is written (their free space zeroed) */
  if (_tprof_save_image_span (out, heap_at, (size_t) bytes) == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: cannot build it in memory: %s", out->path,
                            strerror (errno));
  image = (unsigned char *) out->image;
  if (built != NULL)
    {
      memcpy (image + heap_at, built->heap, (size_t) bytes);
      names_ids_place (built, image + ids_at, heap_at);
    }
  else
    names_heap_fill (&src, sb.addr_size, sb.len_size, image + heap_at, heap_at, image + ids_at, NULL);
  _tprof_h5_encode_le (image + sb.eof_at, end, sb.addr_size);
  *size = (off_t) end;
  return 0;
}
