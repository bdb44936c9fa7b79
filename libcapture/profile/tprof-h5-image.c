/* tprof-h5-image.c — the in-memory HDF5 image a profile is built in, kept past HDF5's close without a copy. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tprof-h5-private.h"

void
_tprof_h5_image_release (TprofH5Image *image)
{
  if (image->buffer != NULL)
    munmap (image->buffer, image->size);
  image->buffer = NULL;
  image->size = 0;
  image->kept = false;
}

/* The image lives in an anonymous mapping populated up front: faulting in
 * a large fresh heap buffer page by page would cost more than the copy. */
static void *
tprof_h5_image_map (size_t size)
{
  void *map = mmap (NULL, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

  return map != MAP_FAILED ? map : NULL;
}

static void *
tprof_h5_image_malloc (size_t size, H5FD_file_image_op_t op, void *udata)
{
  TprofH5Image *image = udata;
  void *map = tprof_h5_image_map (size);

  if (map != NULL)
    {
      image->buffer = map;
      image->size = size;
    }
  return map;
}

static void *
tprof_h5_image_memcpy (void *dest, const void *src, size_t size, H5FD_file_image_op_t op, void *udata)
{
  return memcpy (dest, src, size);
}

static void *
tprof_h5_image_realloc (void *ptr, size_t size, H5FD_file_image_op_t op, void *udata)
{
  TprofH5Image *image = udata;
  void *map;

  if (ptr == NULL)
    return tprof_h5_image_malloc (size, op, udata);
  if (ptr != image->buffer)
    return NULL;
  map = mremap (ptr, image->size, size, MREMAP_MAYMOVE);
  if (map == MAP_FAILED)
    return NULL;
  image->buffer = map;
  image->size = size;
  return map;
}

static herr_t
tprof_h5_image_free (void *ptr, H5FD_file_image_op_t op, void *udata)
{
  TprofH5Image *image = udata;

  if (ptr == NULL || ptr != image->buffer)
    return ptr == NULL ? 0 : -1;
  if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE)
    image->kept = true;
  else
    _tprof_h5_image_release (image);
  return 0;
}

static void *
tprof_h5_image_udata_copy (void *udata)
{
  return udata;
}

static herr_t
tprof_h5_image_udata_free (void *udata)
{
  return 0;
}

/* Roughly the file's size, so the in-memory image rarely grows; it grows
 * by this much too, hence the cap (growing is a cheap mremap). */
static size_t
tprof_h5_estimate_size (const TprofProfiledTime *pt)
{
  const size_t cap = (size_t) 256 << 20;
  size_t size = (size_t) 1 << 20;

  for (size_t op = 0; op < tprof_profiled_time_len (pt) && size < cap; op++)
    {
      size_t n = tprof_gathered_time_count (tprof_profiled_time_nth (pt, op));

      /* HDF5 needs about 2 kB for a group, its attribute and two datasets */
      size += n < cap ? n * (sizeof (double) + sizeof (int32_t)) + 2048 : cap;
    }
  size += size / 16;
  return size < cap ? size : cap;
}

hid_t
_tprof_h5_image_fapl (const TprofProfiledTime *pt,
                      TprofH5Image            *image)
{
  H5FD_file_image_callbacks_t callbacks = {
    tprof_h5_image_malloc, tprof_h5_image_memcpy, tprof_h5_image_realloc,
    tprof_h5_image_free, tprof_h5_image_udata_copy, tprof_h5_image_udata_free,
    image,
  };
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);

  if (fapl < 0 ||
      H5Pset_fapl_core (fapl, tprof_h5_estimate_size (pt), 0) < 0 ||
      H5Pset_file_image_callbacks (fapl, &callbacks) < 0)
    {
      _tprof_h5_close (fapl);
      return -1;
    }
  return fapl;
}
