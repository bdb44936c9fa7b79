/* tprof-save-image.c — a small save's file built as one image in memory, written to its temporary file at once. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprof-h5-writer-private.h"

void
_tprof_save_image_start (TprofSaveFile *file)
{
  if (getenv ("TPROF_SAVE_NO_IMAGE") != NULL || file->image != NULL)
    return;
  /* a valid pointer from the start: the image exists once chosen */
  file->image = malloc (1);
  file->reserved = 0;
  file->image_end = 0;
}

void
_tprof_save_image_free (TprofSaveFile *file)
{
  /* what a block kept for the next save holds is never read there: its
   * bytes are all written, or zeroed, before they go to the file */
  _tprof_free_array_paged (file->image, file->reserved > 0 ? (size_t) file->reserved : 0, 1);
  file->image = NULL;
}

int
_tprof_save_image_reserve (TprofSaveFile *file,
                           size_t         size)
{
  char *grown;

  if ((off_t) size <= file->reserved)
    return 0;
  /* never while another thread writes into it (writes inside what HDF5
   * allocated never grow it: this only guards against a mistake) */
  if (file->image_pinned)
    {
      errno = ENOMEM;
      return -1;
    }
  /* onto huge pages when large: a 4 KiB page's fault costs more than
   * filling it (_tprof_malloc_array_paged()) */
  grown = _tprof_malloc_array_paged (size, 1, false);
  if (grown == NULL)
    {
      errno = ENOMEM;
      return -1;
    }
  /* what lies past the end is never read: reads there give zeros, and a
   * write past it zeroes the gap first */
  memcpy (grown, file->image, file->image_end);
  _tprof_save_image_free (file);
  file->image = grown;
  file->reserved = (off_t) size;
  return 0;
}

/* Writes @size bytes of @bytes at @at to @fd, all of them. 0, or -1 with
 * errno. */
static int
save_image_pwrite_all (int         fd,
                       const char *bytes,
                       size_t      size,
                       off_t       at)
{
  while (size > 0)
    {
      ssize_t written = pwrite (fd, bytes, size, at);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          if (written == 0)
            errno = EIO;
          return -1;
        }
      bytes += written;
      size -= (size_t) written;
      at += written;
    }
  return 0;
}

/* Bytes [@from, @to) of the image, changed after a part of them was
 * written out: that part written again. 0, or -1 with errno. */
static int
save_image_write_through (TprofSaveFile *file,
                          size_t         from,
                          size_t         to)
{
  for (int i = 0; i < file->n_written; i++)
    {
      size_t lo = from > file->written[i][0] ? from : file->written[i][0];
      size_t hi = to < file->written[i][1] ? to : file->written[i][1];

      if (lo < hi && save_image_pwrite_all (file->fd, file->image + lo, hi - lo, (off_t) lo) < 0)
        return -1;
    }
  return 0;
}

int
_tprof_save_image_write (TprofSaveFile *file,
                         const void    *data,
                         size_t         size,
                         uint64_t       offset)
{
  uint64_t end;

  if (__builtin_add_overflow (offset, (uint64_t) size, &end) || end > (uint64_t) INT64_MAX || end > SIZE_MAX)
    {
      errno = EFBIG;
      return -1;
    }
  /* grown by an eighth at least, so that it grows rarely */
  if ((off_t) end > file->reserved
      && _tprof_save_image_reserve (file, end > (uint64_t) file->reserved + (uint64_t) file->reserved / 8 ? end
                                    : (size_t) file->reserved + (size_t) file->reserved / 8) < 0)
    return -1;
  /* a gap left after a cut holds zeros again, as in a file */
  if (offset > file->image_end)
    memset (file->image + file->image_end, 0, (size_t) offset - file->image_end);
  memcpy (file->image + offset, data, size);
  /* HDF5 writing where the file has its bytes already (its close puts
   * small metadata in the alignment gaps between the tables, which are
   * written out before): the file follows */
  if (file->image_write_through
      && save_image_write_through (file, offset < file->image_end ? (size_t) offset : file->image_end,
                                   (size_t) end) < 0)
    return -1;
  if (end > file->image_end)
    file->image_end = (size_t) end;
  return 0;
}

char *
_tprof_save_image_span (TprofSaveFile *file,
                        uint64_t       offset,
                        size_t         size)
{
  uint64_t end;

  if (__builtin_add_overflow (offset, (uint64_t) size, &end) || end > (uint64_t) INT64_MAX || end > SIZE_MAX)
    {
      errno = EFBIG;
      return NULL;
    }
  if ((off_t) end > file->reserved && _tprof_save_image_reserve (file, (size_t) end) < 0)
    return NULL;
  if (offset > file->image_end)
    memset (file->image + file->image_end, 0, (size_t) offset - file->image_end);
  if (end > file->image_end)
    file->image_end = (size_t) end;
  return file->image + offset;
}

char *
_tprof_save_image_extend (TprofSaveFile *file,
                          size_t         end)
{
  if (end > file->image_end)
    {
      if (_tprof_save_image_reserve (file, end) < 0)
        return NULL;
      memset (file->image + file->image_end, 0, end - file->image_end);
      file->image_end = end;
    }
  return file->image;
}

void
_tprof_save_image_read (const TprofSaveFile *file,
                        void                *buffer,
                        size_t               size,
                        uint64_t             offset)
{
  size_t have = offset < file->image_end ? file->image_end - (size_t) offset : 0;

  if (have > size)
    have = size;
  if (have > 0)
    memcpy (buffer, file->image + offset, have);
  memset ((char *) buffer + have, 0, size - have);
}

int
_tprof_save_image_write_out (TprofSaveFile *file,
                             size_t         from,
                             size_t         to)
{
  int n = file->n_written, i = n;

  /* kept ascending: in its place among those written, overlapping none */
  while (i > 0 && from < file->written[i - 1][0])
    i--;
  if (n == (int) (sizeof file->written / sizeof file->written[0]) || from > to || to > file->image_end
      || (i > 0 && from < file->written[i - 1][1]) || (i < n && to > file->written[i][0]))
    {
      errno = EINVAL;
      return -1;
    }
  if (save_image_pwrite_all (file->fd, file->image + from, to - from, (off_t) from) < 0)
    return -1;
  memmove (file->written[i + 1], file->written[i], (size_t) (n - i) * sizeof file->written[0]);
  file->written[i][0] = from;
  file->written[i][1] = to;
  file->n_written = n + 1;
  return 0;
}

void
_tprof_save_image_start_write_back (TprofSaveFile *file,
                                    size_t         from,
                                    size_t         to)
{
#ifdef SYNC_FILE_RANGE_WRITE
  if (to > from)
    (void) sync_file_range (file->fd, (off64_t) from, (off64_t) (to - from), SYNC_FILE_RANGE_WRITE);
#else
  (void) file;
  (void) from;
  (void) to;
#endif
}

int
_tprof_save_image_flush (TprofSaveFile *file,
                         off_t          size)
{
  size_t end = size >= 0 && (size_t) size < file->image_end ? (size_t) size : file->image_end, at = 0;
  int result = 0;

  /* what is in the file already is not written again */
  for (int i = 0; result == 0 && i <= file->n_written; i++)
    {
      size_t gap_end = i < file->n_written && file->written[i][0] < end ? file->written[i][0] : end;

      if (gap_end > at)
        result = save_image_pwrite_all (file->fd, file->image + at, gap_end - at, (off_t) at);
      if (i < file->n_written && file->written[i][1] > at)
        at = file->written[i][1];
    }
  _tprof_save_image_free (file);
  return result;
}
