/* tprof-h5-heap-check.c — refuses a file whose global heaps would make HDF5 1.10 loop or read out of bounds. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof-h5-disk.h"
#include "tprof-h5-reader-private.h"

/* Reads exactly @size bytes at @offset; false on error or end of file. */
static bool
tprof_h5_pread_full (int       fd,
                     void     *buffer,
                     size_t    size,
                     uint64_t  offset)
{
  unsigned char *p = buffer;

  while (size > 0)
    {
      ssize_t got = pread (fd, p, size, (off_t) offset);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        return false;
      p += got;
      size -= (size_t) got;
      offset += (uint64_t) got;
    }
  return true;
}

/* The "size of lengths" of the file's superblock (found at 0, 512, 1024,
 * ...), or 8, HDF5's default, when it cannot be told. */
static unsigned
tprof_h5_size_of_lengths (int      fd,
                          uint64_t file_size)
{
  unsigned char head[TPROF_H5_SUPERBLOCK_HEAD];
  TprofH5Superblock sb;

  for (uint64_t at = 0; at + sizeof head <= file_size; at = at != 0 ? at * 2 : 512)
    if (tprof_h5_pread_full (fd, head, sizeof head, at) && _tprof_h5_superblock_parse (head, &sb))
      return _tprof_h5_superblock_size_valid (sb.len_size) ? sb.len_size : 8;
  return 8;
}

/* Checks the collection whose signature is at @at; stores its size.
 * @read (@read_size bytes) holds what the scan read from @at on: a
 * collection that lies whole in it is checked there, not read again. */
static const char *
tprof_h5_check_collection_at (int                  fd,
                              uint64_t             at,
                              uint64_t             file_size,
                              unsigned             lengths,
                              const unsigned char *read,
                              size_t               read_size,
                              uint64_t            *collection_size)
{
  size_t header_size = _tprof_h5_heap_header_size (lengths);
  unsigned char header[16];
  unsigned char *collection;
  const char *problem;
  uint64_t size;

  if (file_size - at < header_size)
    return "it is cut short";
  if (read_size >= header_size)
    memcpy (header, read, header_size);
  else if (!tprof_h5_pread_full (fd, header, header_size, at))
    return "it is cut short";
  size = _tprof_h5_heap_collection_size (header, lengths);
  if (size < header_size || size > file_size - at)
    return "its size runs past the end of the file";
  *collection_size = size;
  if (size <= read_size)
    return _tprof_h5_heap_walk (read, size, lengths, NULL, NULL);
  collection = malloc ((size_t) size);
  if (collection == NULL)
    return "it is too large for the memory available";
  if (!tprof_h5_pread_full (fd, collection, (size_t) size, at))
    problem = "it cannot be read";
  else
    problem = _tprof_h5_heap_walk (collection, size, lengths, NULL, NULL);
  free (collection);
  *collection_size = size;
  return problem;
}

/* The first collection signature in @block[0..@size), or NULL: memchr's
 * vector scan for its first byte, the rest compared where that occurs
 * (a fifth of memmem's instructions over a file's tables). */
static const unsigned char *
tprof_h5_find_signature (const unsigned char *block,
                         size_t               size)
{
  enum { LEN = TPROF_H5_HEAP_SIGNATURE_SIZE };
  const unsigned char *p = block;

  while (size - (size_t) (p - block) >= LEN)
    {
      p = memchr (p, TPROF_H5_HEAP_SIGNATURE[0], size - (size_t) (p - block) - (LEN - 1));
      if (p == NULL)
        return NULL;
      if (memcmp (p, TPROF_H5_HEAP_SIGNATURE, LEN) == 0)
        return p;
      p++;
    }
  return NULL;
}

/* Byte ranges of the file holding sample data, which cannot hold a global
 * heap and need not be scanned for one. */
typedef struct
{
  uint64_t start;
  uint64_t end;
} TprofH5Range;

typedef struct
{
  TprofH5Range *ranges;
  size_t        n;
  size_t        capacity;
  uint64_t      base;       /* the user block's size: no data before it */
  uint64_t      file_size;
} TprofH5RawData;

/* Notes the bytes dataset @dset stores, where plausible: a wrong range
 * would hide a heap from the scan. */
static void
tprof_h5_raw_data_note (TprofH5RawData *raw,
                        hid_t           dset)
{
  haddr_t offset = H5Dget_offset (dset);
  hsize_t size = H5Dget_storage_size (dset);

  /* the offset already counts the user block, which holds no data */
  if (offset == HADDR_UNDEF || size == 0 || offset < raw->base || offset > raw->file_size ||
      size > raw->file_size - offset)
    return;
  if (raw->n == raw->capacity)
    {
      size_t capacity = raw->capacity != 0 ? raw->capacity * 2 : 64;
      TprofH5Range *ranges = capacity <= SIZE_MAX / sizeof *ranges
        ? realloc (raw->ranges, capacity * sizeof *ranges) : NULL;

      if (ranges == NULL)
        return;
      raw->ranges = ranges;
      raw->capacity = capacity;
    }
  raw->ranges[raw->n++] = (TprofH5Range) { offset, offset + size };
}

static void
tprof_h5_raw_data_add (TprofH5RawData *raw,
                       hid_t           group,
                       const char     *dset_name)
{
  hid_t dset;

  if (H5Lexists (group, dset_name, H5P_DEFAULT) <= 0 ||
      (dset = H5Dopen2 (group, dset_name, H5P_DEFAULT)) < 0)
    return;
  tprof_h5_raw_data_note (raw, dset);
  _tprof_h5_close (dset);
}

static herr_t
tprof_h5_raw_data_visit (hid_t             timings,
                         const char       *name,
                         const H5L_info_t *info,
                         void             *user_data)
{
  hid_t group;

  if (info->type != H5L_TYPE_HARD || (group = H5Gopen2 (timings, name, H5P_DEFAULT)) < 0)
    return 0;
  tprof_h5_raw_data_add (user_data, group, "times");
  tprof_h5_raw_data_add (user_data, group, "ranks");
  /* format 2's per-sample arrays are as large */
  tprof_h5_raw_data_add (user_data, group, "starts");
  tprof_h5_raw_data_add (user_data, group, "threads");
  _tprof_h5_close (group);
  return 0;
}

static int
tprof_h5_range_compare (const void *a,
                        const void *b)
{
  const TprofH5Range *x = a;
  const TprofH5Range *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Best effort: whatever cannot be listed is simply scanned. Opening every
 * dataset costs about as much as scanning 100 kB, so this only runs when
 * the operations hold more than that each on average. */
static void
tprof_h5_raw_data_find (TprofH5RawData *raw,
                        hid_t           file,
                        hid_t          *opened)
{
  hid_t fcpl = H5Fget_create_plist (file);
  hsize_t userblock = 0;
  H5G_info_t info;
  hid_t timings;

  if (fcpl >= 0 && H5Pget_userblock (fcpl, &userblock) >= 0)
    raw->base = userblock;
  _tprof_h5_close (fcpl);
  /* format 3: a few numeric columns, whatever the number of operations,
   * each opened at once (a missing one fails quietly), left in @opened */
  for (int c = 0; c < TPROF_N_COLUMNS; c++)
    if (_tprof_columns[c].type != TPROF_COLTYPE_STRING)
      {
        hid_t dset = H5Dopen2 (file, _tprof_columns[c].path, H5P_DEFAULT);

        if (dset < 0)
          continue;
        tprof_h5_raw_data_note (raw, dset);
        if (opened != NULL)
          opened[c] = dset;
        else
          _tprof_h5_close (dset);
      }
  if (H5Lexists (file, "timings", H5P_DEFAULT) <= 0 ||
      (timings = H5Gopen2 (file, "timings", H5P_DEFAULT)) < 0)
    return;
  if (H5Gget_info (timings, &info) >= 0 && raw->file_size / 100000 > info.nlinks)
    H5Literate (timings, H5_INDEX_NAME, H5_ITER_INC, NULL, tprof_h5_raw_data_visit, raw);
  _tprof_h5_close (timings);
  if (raw->n > 1)
    qsort (raw->ranges, raw->n, sizeof *raw->ranges, tprof_h5_range_compare);
}

int
_tprof_h5_check_global_heaps (const char *path,
                              hid_t       file,
                              hid_t      *opened,
                              TprofError *error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  int result;

  if (fd < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (errno));
  result = _tprof_h5_scan_global_heaps (path, fd, file, opened, NULL, error);
  close (fd);
  return result;
}

/* Scans the whole file for collection signatures, skipping the sample
 * data, the bulk of a large file, where HDF5 can list it. */
int
_tprof_h5_scan_global_heaps (const char         *path,
                             int                 fd,
                             hid_t               file,
                             hid_t              *opened,
                             const volatile int *stop,
                             TprofError         *error)
{
  enum { BLOCK = 1 << 20, OVERLAP = TPROF_H5_HEAP_SIGNATURE_SIZE - 1 };
  unsigned char *block = malloc (BLOCK);
  TprofH5RawData raw = { NULL, 0, 0, 0, 0 };
  struct stat st;
  uint64_t offset = 0;
  size_t next_range = 0;
  unsigned lengths;
  int result = 0;

  if (block == NULL || fstat (fd, &st) < 0)
    {
      result = tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path,
                                strerror (block == NULL ? ENOMEM : errno));
      goto out;
    }
  raw.file_size = (uint64_t) st.st_size;
  lengths = tprof_h5_size_of_lengths (fd, raw.file_size);
  if (file >= 0)
    tprof_h5_raw_data_find (&raw, file, opened);

  while (offset + TPROF_H5_HEAP_SIGNATURE_SIZE <= raw.file_size && (stop == NULL || !__atomic_load_n (stop, __ATOMIC_RELAXED)))
    {
      uint64_t limit, at, collection_size = 0;
      size_t want;
      const unsigned char *hit;
      const char *problem;

      while (next_range < raw.n && raw.ranges[next_range].end <= offset)
        next_range++;
      if (next_range < raw.n && raw.ranges[next_range].start <= offset)
        {
          offset = raw.ranges[next_range].end;
          continue;
        }
      /* a signature must start before the next sample data */
      limit = next_range < raw.n ? raw.ranges[next_range].start : raw.file_size;
      want = BLOCK;
      if (limit - offset + OVERLAP < want)
        want = (size_t) (limit - offset + OVERLAP);
      if (raw.file_size - offset < want)
        want = (size_t) (raw.file_size - offset);

      if (!tprof_h5_pread_full (fd, block, want, offset))
        {
          result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot read: %s", path,
                                    errno != 0 ? strerror (errno) : "unexpected end of file");
          break;
        }
      hit = tprof_h5_find_signature (block, want);
      if (hit == NULL || offset + (uint64_t) (hit - block) >= limit)
        {
          if (offset + want >= raw.file_size)
            break;
          offset = offset + want >= limit + OVERLAP ? limit : offset + want - OVERLAP;
          continue;
        }
      at = offset + (uint64_t) (hit - block);
      problem = tprof_h5_check_collection_at (fd, at, raw.file_size, lengths, hit, want - (size_t) (hit - block),
                                              &collection_size);
      if (problem != NULL)
        {
          result = tprof_error_set (error, TPROF_ERROR_FORMAT,
                                    "%s: damaged HDF5 global heap at byte %llu: %s",
                                    path, (unsigned long long) at, problem);
          break;
        }
      /* strings inside may spell the signature too */
      offset = at + collection_size;
    }

out:
  free (block);
  free (raw.ranges);
  return result;
}
