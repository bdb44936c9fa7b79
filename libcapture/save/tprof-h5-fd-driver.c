/* tprof-h5-fd-driver.c — an HDF5 file driver over a descriptor already open, for the unnamed temporary file of a save, which HDF5 cannot open by name. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <H5FDpublic.h>

#include "tprof-h5-writer-private.h"

/* It behaves as HDF5's sec2 driver (the one a named file is written with),
 * so that files and the space HDF5 allocates are the same either way:
 * the same features, the same end-of-file bookkeeping, the same cut at
 * close. The descriptor is duplicated: HDF5 closes its own. */

typedef struct
{
  H5FD_t         pub;   /* first: HDF5 sees this */
  int            fd;
  TprofSaveFile *image;  /* or NULL: the file is written in memory */
  haddr_t        eoa;
  haddr_t        eof;
  dev_t          dev;
  ino_t          ino;
} FdFile;

typedef struct
{
  int            fd;
  TprofSaveFile *image;
} FdConfig;

#define FD_MAXADDR ((haddr_t) INT64_MAX)

static void *
fd_fapl_copy (const void *config)
{
  FdConfig *copy = malloc (sizeof *copy);

  if (copy != NULL)
    *copy = *(const FdConfig *) config;
  return copy;
}

static herr_t
fd_fapl_free (void *config)
{
  free (config);
  return 0;
}

static void *
fd_fapl_get (H5FD_t *file)
{
  FdConfig config = { ((FdFile *) file)->fd, ((FdFile *) file)->image };

  return fd_fapl_copy (&config);
}

static H5FD_t *
fd_open (const char *name,
         unsigned    flags,
         hid_t       fapl,
         haddr_t     maxaddr)
{
  const FdConfig *config = H5Pget_driver_info (fapl);
  FdFile *file;
  struct stat st;

  if (config == NULL || fstat (config->fd, &st) < 0 || (file = calloc (1, sizeof *file)) == NULL)
    return NULL;
  file->fd = fcntl (config->fd, F_DUPFD_CLOEXEC, 0);
  if (file->fd < 0)
    {
      free (file);
      return NULL;
    }
  file->image = config->image;
  /* created (truncated), the file is empty to HDF5 whatever space is
   * reserved in it: sec2 would cut it, which would free the reservation */
  file->eof = flags & H5F_ACC_TRUNC ? 0
              : file->image != NULL ? (haddr_t) file->image->image_end : (haddr_t) st.st_size;
  file->dev = st.st_dev;
  file->ino = st.st_ino;
  return &file->pub;
}

static herr_t
fd_close (H5FD_t *pub)
{
  FdFile *file = (FdFile *) pub;
  int status = close (file->fd);

  free (file);
  return status < 0 ? -1 : 0;
}

static int
fd_cmp (const H5FD_t *a,
        const H5FD_t *b)
{
  const FdFile *f1 = (const FdFile *) a, *f2 = (const FdFile *) b;

  if (f1->dev != f2->dev)
    return f1->dev < f2->dev ? -1 : 1;
  if (f1->ino != f2->ino)
    return f1->ino < f2->ino ? -1 : 1;
  return 0;
}

static herr_t
fd_query (const H5FD_t  *file,
          unsigned long *flags)
{
  *flags = file == NULL ? 0
           : H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE
             | H5FD_FEAT_AGGREGATE_SMALLDATA | H5FD_FEAT_POSIX_COMPAT_HANDLE | H5FD_FEAT_SUPPORTS_SWMR_IO
             | H5FD_FEAT_DEFAULT_VFD_COMPATIBLE;
  return 0;
}

static haddr_t
fd_get_eoa (const H5FD_t *file,
            H5FD_mem_t    type)
{
  return ((const FdFile *) file)->eoa;
}

static herr_t
fd_set_eoa (H5FD_t    *file,
            H5FD_mem_t type,
            haddr_t    addr)
{
  ((FdFile *) file)->eoa = addr;
  return 0;
}

static haddr_t
fd_get_eof (const H5FD_t *file,
            H5FD_mem_t    type)
{
  return ((const FdFile *) file)->eof;
}

static herr_t
fd_get_handle (H5FD_t  *file,
               hid_t    fapl,
               void   **handle)
{
  *handle = &((FdFile *) file)->fd;
  return 0;
}

static herr_t
fd_read (H5FD_t     *pub,
         H5FD_mem_t  type,
         hid_t       dxpl,
         haddr_t     addr,
         size_t      size,
         void       *buffer)
{
  FdFile *file = (FdFile *) pub;
  char *bytes = buffer;

  if (addr > FD_MAXADDR || size > FD_MAXADDR - addr)
    return -1;
  if (file->image != NULL)
    {
      _tprof_save_image_read (file->image, buffer, size, addr);
      return 0;
    }
  while (size > 0)
    {
      ssize_t got = pread (file->fd, bytes, size, (off_t) addr);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return -1;
      if (got == 0)  /* past the end: zeros, as sec2 reads */
        {
          memset (bytes, 0, size);
          break;
        }
      bytes += got;
      size -= (size_t) got;
      addr += (haddr_t) got;
    }
  return 0;
}

static herr_t
fd_write (H5FD_t     *pub,
          H5FD_mem_t  type,
          hid_t       dxpl,
          haddr_t     addr,
          size_t      size,
          const void *buffer)
{
  FdFile *file = (FdFile *) pub;
  const char *bytes = buffer;

  if (addr > FD_MAXADDR || size > FD_MAXADDR - addr)
    return -1;
  if (file->image != NULL)
    {
      if (_tprof_save_image_write (file->image, buffer, size, addr) < 0)
        return -1;
      addr += size;
      size = 0;
    }
  while (size > 0)
    {
      ssize_t written = pwrite (file->fd, bytes, size, (off_t) addr);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return -1;
      bytes += written;
      size -= (size_t) written;
      addr += (haddr_t) written;
    }
  if (addr > file->eof)
    file->eof = addr;
  return 0;
}

static herr_t
fd_truncate (H5FD_t *pub,
             hid_t   dxpl,
             hbool_t closing)
{
  FdFile *file = (FdFile *) pub;

  if (file->eoa == file->eof)
    return 0;
  if (file->image != NULL)
    {
      /* cut, or extended with zeros as ftruncate() would */
      size_t end = file->image->image_end;

      if (file->eoa > end && _tprof_save_image_reserve (file->image, (size_t) file->eoa) < 0)
        return -1;
      if (file->eoa > end)
        memset (file->image->image + end, 0, (size_t) file->eoa - end);
      file->image->image_end = (size_t) file->eoa;
    }
  else if (ftruncate (file->fd, (off_t) file->eoa) < 0)
    return -1;
  file->eof = file->eoa;
  return 0;
}

static const H5FD_class_t fd_class = {
  .name = "tprof-fd",
  .maxaddr = FD_MAXADDR,
  .fc_degree = H5F_CLOSE_WEAK,
  .fapl_size = sizeof (FdConfig),
  .fapl_get = fd_fapl_get,
  .fapl_copy = fd_fapl_copy,
  .fapl_free = fd_fapl_free,
  .open = fd_open,
  .close = fd_close,
  .cmp = fd_cmp,
  .query = fd_query,
  .get_eoa = fd_get_eoa,
  .set_eoa = fd_set_eoa,
  .get_eof = fd_get_eof,
  .get_handle = fd_get_handle,
  .read = fd_read,
  .write = fd_write,
  .truncate = fd_truncate,
  .fl_map = H5FD_FLMAP_DICHOTOMY,
};

int
_tprof_h5_fd_driver_set (hid_t          fapl,
                         int            fd,
                         TprofSaveFile *image)
{
  static hid_t driver = -1;
  FdConfig config = { fd, image };

  /* registered once (under the HDF5 guard), again if HDF5 was closed */
  if (driver < 0 || H5Iis_valid (driver) <= 0)
    driver = H5FDregister (&fd_class);
  if (driver < 0 || H5Pset_driver (fapl, driver, &config) < 0)
    return -1;
  return 0;
}
