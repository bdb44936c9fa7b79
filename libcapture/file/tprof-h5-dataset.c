/* tprof-h5-dataset.c — checked 1-D datasets of an operation: shape, type class, length, ranges, and where pread() can read them. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>

#include "tprof-h5-reader-private.h"

const char *
_tprof_h5_class_name (H5T_class_t klass)
{
  if (klass == H5T_INTEGER)
    return "integer";
  if (klass == H5T_FLOAT)
    return "floating point";
  if (klass == H5T_STRING)
    return "string";
  if (klass == H5T_COMPOUND)
    return "compound";
  if (klass == H5T_ENUM)
    return "enum";
  if (klass == H5T_ARRAY)
    return "array";
  if (klass == H5T_VLEN)
    return "variable-length sequence";
  return "unsupported";
}

/* Refuses element sizes no integer or float of ours has, and a contiguous
 * or compact dataset whose storage is smaller than its @n values need:
 * damaged layout fields that HDF5 itself would read past. */
static int
tprof_h5_check_storage (const TprofProfileFile *pf,
                        hid_t                   dset,
                        const char             *op,
                        const char             *name,
                        hsize_t                 n,
                        TprofError             *error)
{
  hid_t type = H5Dget_type (dset);
  size_t size = type >= 0 ? H5Tget_size (type) : 0;
  hid_t dcpl = H5Dget_create_plist (dset);
  H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout (dcpl) : H5D_LAYOUT_ERROR;

  _tprof_h5_close (type);
  _tprof_h5_close (dcpl);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' stores %zu-byte values; "
                            "1, 2, 4 or 8 bytes expected", pf->path, op, name, size);
  if ((layout == H5D_CONTIGUOUS || layout == H5D_COMPACT) && n > 0
      && H5Dget_storage_size (dset) / size < n)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' stores %llu bytes, fewer than its "
                            "%llu values need: the file is damaged", pf->path, op, name,
                            (unsigned long long) H5Dget_storage_size (dset), (unsigned long long) n);
  return 0;
}

/* Checks the open @dset is 1-D of class @klass and its storage can hold
 * its values; stores its length. */
static int
tprof_h5_check_dataset_1d (const TprofProfileFile *pf,
                           hid_t                   dset,
                           const char             *op,
                           const char             *name,
                           H5T_class_t             klass,
                           hsize_t                *n,
                           TprofError             *error)
{
  hid_t type = H5Dget_type (dset);
  H5T_class_t found_class = type >= 0 ? H5Tget_class (type) : H5T_NO_CLASS;
  hid_t space;
  int ndims;
  bool one_dim;

  _tprof_h5_close (type);
  if (found_class != klass)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' holds %s values, expected %s",
                            pf->path, op, name, _tprof_h5_class_name (found_class),
                            _tprof_h5_class_name (klass));
  space = H5Dget_space (dset);
  ndims = space >= 0 ? H5Sget_simple_extent_ndims (space) : -1;
  one_dim = ndims == 1 && H5Sget_simple_extent_dims (space, n, NULL) == 1;
  _tprof_h5_close (space);
  if (!one_dim)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': dataset '%s' has %d dimensions, expected 1",
                            pf->path, op, name, ndims);
  return tprof_h5_check_storage (pf, dset, op, name, *n, error);
}

hid_t
_tprof_h5_open_dataset_1d (const TprofProfileFile *pf,
                           hid_t                   group,
                           const char             *op,
                           const char             *name,
                           H5T_class_t             klass,
                           hsize_t                *n,
                           TprofError             *error)
{
  hid_t dset;

  if (H5Lexists (group, name, H5P_DEFAULT) <= 0)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: operation '%s' has no dataset '%s'",
                       pf->path, op, name);
      return -1;
    }
  dset = H5Dopen2 (group, name, H5P_DEFAULT);
  if (dset < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path,
                       "operation '%s': '%s' is not a readable dataset", op, name);
      return -1;
    }
  if (tprof_h5_check_dataset_1d (pf, dset, op, name, klass, n, error) < 0)
    {
      _tprof_h5_close (dset);
      return -1;
    }
  return dset;
}

int
_tprof_h5_read_member (const TprofProfileFile *pf,
                       hid_t                   group,
                       const char             *op,
                       const char             *name,
                       H5T_class_t             klass,
                       hid_t                   mem_type,
                       hsize_t                 n,
                       void                   *data,
                       TprofError             *error)
{
  hsize_t found = 0;
  hid_t dset;
  int result = 1;

  if (H5Lexists (group, name, H5P_DEFAULT) <= 0)
    return 0;
  dset = _tprof_h5_open_dataset_1d (pf, group, op, name, klass, &found, error);
  if (dset < 0)
    return -1;
  if (found != n)
    result = tprof_error_set (error, TPROF_ERROR_FORMAT,
                              "%s: operation '%s': dataset '%s' has %llu values, expected %llu",
                              pf->path, op, name, (unsigned long long) found, (unsigned long long) n);
  else if (n > 0 && H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    result = _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path,
                              "operation '%s': cannot read dataset '%s'", op, name);
  _tprof_h5_close (dset);
  return result;
}

bool
_tprof_h5_read_range (hid_t   dset,
                      hid_t   mem_type,
                      hsize_t start,
                      hsize_t count,
                      void   *data)
{
  hid_t file_space = H5Dget_space (dset);
  hid_t mem_space = -1;
  bool read = false;

  if (file_space >= 0
      && H5Sselect_hyperslab (file_space, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0
      && (mem_space = H5Screate_simple (1, &count, NULL)) >= 0)
    read = H5Dread (dset, mem_type, mem_space, file_space, H5P_DEFAULT, data) >= 0;
  _tprof_h5_close (mem_space);
  _tprof_h5_close (file_space);
  return read;
}

bool
_tprof_h5_direct_offset (hid_t   dset,
                         hid_t   native_type,
                         size_t  n,
                         size_t  elem_size,
                         off_t  *offset)
{
  hid_t dcpl = H5Dget_create_plist (dset);
  hid_t type = H5Dget_type (dset);
  bool plain;
  haddr_t addr;

  /* One run of bytes in this file, in memory's byte order and width:
   * anything else (chunks, filters, external files, conversion) HDF5 reads. */
  plain = dcpl >= 0 && type >= 0
    && H5Pget_layout (dcpl) == H5D_CONTIGUOUS
    && H5Pget_external_count (dcpl) == 0
    && H5Pget_nfilters (dcpl) == 0
    && H5Tequal (type, native_type) > 0
    && H5Dget_storage_size (dset) == (hsize_t) n * elem_size;
  _tprof_h5_close (type);
  _tprof_h5_close (dcpl);
  if (!plain)
    return false;

  /* includes the user block, like the addresses pread() needs */
  addr = H5Dget_offset (dset);
  if (addr == HADDR_UNDEF || addr > (haddr_t) INT64_MAX - (haddr_t) n * elem_size)
    return false;
  *offset = (off_t) addr;
  return true;
}

int
_tprof_h5_file_descriptor (hid_t file)
{
  hid_t fapl = H5Fget_access_plist (file);
  hid_t driver = fapl >= 0 ? H5Pget_driver (fapl) : -1;
  void *handle = NULL;
  int fd = -1;

  /* only the default driver's handle is a plain file descriptor */
  if (driver >= 0 && driver == H5FD_SEC2
      && H5Fget_vfd_handle (file, fapl, &handle) >= 0 && handle != NULL)
    fd = *(int *) handle;
  _tprof_h5_close (fapl);
  return fd;
}
