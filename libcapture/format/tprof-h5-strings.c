/* tprof-h5-strings.c — string and integer attributes and string datasets, fixed or variable length, checked. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-internal.h"

void
_tprof_h5_free_strings (char   **strings,
                        size_t   n)
{
  if (strings == NULL)
    return;
  for (size_t i = 0; i < n; i++)
    free (strings[i]);
  free (strings);
}

static int
tprof_h5_problem (char       *problem,
                  size_t      problem_size,
                  const char *message)
{
  snprintf (problem, problem_size, "%s", message);
  return -1;
}

/* Copies @len bytes at @s into a new NUL-terminated, UTF-8-checked string. */
static int
tprof_h5_copy_string (const char *s,
                      size_t      len,
                      char      **out,
                      char       *problem,
                      size_t      problem_size)
{
  if (!_tprof_h5_utf8_valid (s, len))
    return tprof_h5_problem (problem, problem_size, "is not valid UTF-8");
  *out = malloc (len + 1);
  if (*out == NULL)
    return tprof_h5_problem (problem, problem_size, "is too large for the memory available");
  memcpy (*out, s, len);
  (*out)[len] = '\0';
  return 0;
}

/* HDF5 converts variable-length strings through a buffer it allocates
 * and zeroes at every read, 1 MiB by default: pages to fault in for a
 * column of names that holds a few kilobytes. Strips of at most this many
 * bytes cost less. */
#define TPROF_H5_STRING_BUFFER ((size_t) 64 << 10)

static void *
tprof_h5_vlen_alloc (size_t  size,
                     void   *info)
{
  return malloc (size);
}

static void
tprof_h5_vlen_free (void *mem,
                    void *info)
{
  free (mem);
}

/* H5Dread() of the @n variable-length strings of @dset into @ptrs, each
 * allocated with malloc(): the caller keeps them, without a copy. */
static herr_t
tprof_h5_read_vlen_dataset (hid_t   dset,
                            hid_t   mtype,
                            size_t  n,
                            char  **ptrs)
{
  hid_t dxpl = H5Pcreate (H5P_DATASET_XFER);
  /* room for one value in the file (a heap id) or in memory at least */
  size_t size = n < TPROF_H5_STRING_BUFFER / 16 ? n * 16 + 16 : TPROF_H5_STRING_BUFFER;
  herr_t status = -1;

  if (dxpl >= 0 && H5Pset_buffer (dxpl, size, NULL, NULL) >= 0
      && H5Pset_vlen_mem_manager (dxpl, tprof_h5_vlen_alloc, NULL, tprof_h5_vlen_free, NULL) >= 0)
    status = H5Dread (dset, mtype, H5S_ALL, H5S_ALL, dxpl, ptrs);
  if (dxpl >= 0)
    H5Pclose (dxpl);
  return status;
}

/* Reads @n strings of file type @ftype from attribute or dataset @obj into
 * @out (n entries, zeroed by the caller; filled entries are freed by the
 * caller on failure too). The index of a string that is not UTF-8 in
 * *@bad (untouched otherwise). */
static int
tprof_h5_read_strings (hid_t    obj,
                       bool     is_attr,
                       hid_t    ftype,
                       size_t   n,
                       char   **out,
                       size_t  *bad,
                       char    *problem,
                       size_t   problem_size)
{
  H5T_cset_t cset = H5Tget_cset (ftype);
  htri_t is_vlen = H5Tis_variable_str (ftype);
  hid_t mtype = -1;
  int result = -1;

  if (cset < 0 || is_vlen < 0)
    return tprof_h5_problem (problem, problem_size, "has an unreadable string type");
  mtype = H5Tcopy (H5T_C_S1);
  if (mtype < 0 || H5Tset_cset (mtype, cset) < 0)
    goto out;

  if (is_vlen)
    {
      char **ptrs = calloc (n != 0 ? n : 1, sizeof *ptrs);
      herr_t status;

      if (ptrs == NULL)
        {
          tprof_h5_problem (problem, problem_size, "is too large for the memory available");
          goto out;
        }
      if (H5Tset_size (mtype, H5T_VARIABLE) < 0)
        {
          free (ptrs);
          goto out;
        }
      status = is_attr ? H5Aread (obj, mtype, ptrs) : tprof_h5_read_vlen_dataset (obj, mtype, n, ptrs);
      result = status < 0 ? tprof_h5_problem (problem, problem_size, "cannot be read") : 0;
      for (size_t i = 0; i < n; i++)
        {
          const char *s = ptrs[i] != NULL ? ptrs[i] : "";

          if (result == 0 && !is_attr && ptrs[i] != NULL)
            {
              /* a dataset's strings are malloc'd: kept as they are */
              if (_tprof_h5_utf8_valid (s, strlen (s)))
                {
                  out[i] = ptrs[i];
                  continue;
                }
              result = tprof_h5_problem (problem, problem_size, "is not valid UTF-8");
              *bad = i;
            }
          else if (result == 0 && (result = tprof_h5_copy_string (s, strlen (s), &out[i], problem, problem_size)) < 0)
            *bad = i;
          if (is_attr)
            H5free_memory (ptrs[i]);
          else
            free (ptrs[i]);
        }
      free (ptrs);
    }
  else
    {
      size_t size = H5Tget_size (ftype);
      H5T_str_t pad = H5Tget_strpad (ftype);
      char *bytes;

      if (size == 0 || pad < 0 || n > SIZE_MAX / size)
        {
          tprof_h5_problem (problem, problem_size, "has an unreadable string type");
          goto out;
        }
      if (H5Tset_size (mtype, size) < 0 || H5Tset_strpad (mtype, pad) < 0)
        goto out;
      bytes = malloc (n * size != 0 ? n * size : 1);
      if (bytes == NULL)
        {
          tprof_h5_problem (problem, problem_size, "is too large for the memory available");
          goto out;
        }
      if ((is_attr ? H5Aread (obj, mtype, bytes)
                   : H5Dread (obj, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes)) < 0)
        {
          free (bytes);
          tprof_h5_problem (problem, problem_size, "cannot be read");
          goto out;
        }
      result = 0;
      for (size_t i = 0; i < n && result == 0; i++)
        {
          const char *s = bytes + i * size;
          size_t len = strnlen (s, size);

          if (pad == H5T_STR_SPACEPAD)
            while (len > 0 && s[len - 1] == ' ')
              len--;
          if ((result = tprof_h5_copy_string (s, len, &out[i], problem, problem_size)) < 0)
            *bad = i;
        }
      free (bytes);
    }

out:
  if (result < 0 && problem[0] == '\0')
    tprof_h5_problem (problem, problem_size, "has an unreadable string type");
  _tprof_h5_close (mtype);
  return result;
}

/* Opens attribute @attr_name of @obj if it exists, checking it holds one
 * value of type class @klass. Returns 1 with *@attr and *@ftype open, 0 when
 * absent, -1 with @problem. */
static int
tprof_h5_open_single_attr (hid_t        obj,
                           const char  *attr_name,
                           H5T_class_t  klass,
                           const char  *klass_name,
                           hid_t       *attr,
                           hid_t       *ftype,
                           char        *problem,
                           size_t       problem_size)
{
  htri_t exists;
  hid_t space;
  hssize_t npoints;

  problem[0] = '\0';
  *attr = -1;
  *ftype = -1;
  exists = H5Aexists (obj, attr_name);
  if (exists < 0)
    return tprof_h5_problem (problem, problem_size, "cannot be looked up");
  if (exists == 0)
    return 0;

  *attr = H5Aopen (obj, attr_name, H5P_DEFAULT);
  if (*attr < 0)
    return tprof_h5_problem (problem, problem_size, "cannot be opened");
  *ftype = H5Aget_type (*attr);
  if (*ftype < 0 || H5Tget_class (*ftype) != klass)
    {
      snprintf (problem, problem_size, "is not %s", klass_name);
      goto failed;
    }
  space = H5Aget_space (*attr);
  npoints = space >= 0 ? H5Sget_simple_extent_npoints (space) : -1;
  _tprof_h5_close (space);
  if (npoints != 1)
    {
      snprintf (problem, problem_size, "must hold exactly one value, not %lld",
                (long long) npoints);
      goto failed;
    }
  return 1;

failed:
  _tprof_h5_close (*ftype);
  _tprof_h5_close (*attr);
  *attr = *ftype = -1;
  return -1;
}

int
_tprof_h5_read_string_attr (hid_t       obj,
                            const char *attr_name,
                            char      **value,
                            char       *problem,
                            size_t      problem_size)
{
  hid_t attr, ftype;
  int found;

  *value = NULL;
  found = tprof_h5_open_single_attr (obj, attr_name, H5T_STRING, "a string",
                                     &attr, &ftype, problem, problem_size);
  if (found <= 0)
    return found;
  if (tprof_h5_read_strings (attr, true, ftype, 1, value, &(size_t) { 0 }, problem, problem_size) < 0)
    {
      free (*value);
      *value = NULL;
      found = -1;
    }
  _tprof_h5_close (ftype);
  _tprof_h5_close (attr);
  return found;
}

int
_tprof_h5_read_int_attr (hid_t       obj,
                         const char *attr_name,
                         long long  *value,
                         char       *problem,
                         size_t      problem_size)
{
  hid_t attr, ftype;
  int found;

  *value = 0;
  found = tprof_h5_open_single_attr (obj, attr_name, H5T_INTEGER, "an integer",
                                     &attr, &ftype, problem, problem_size);
  if (found <= 0)
    return found;
  if (H5Aread (attr, H5T_NATIVE_LLONG, value) < 0)
    found = tprof_h5_problem (problem, problem_size, "cannot be read");
  _tprof_h5_close (ftype);
  _tprof_h5_close (attr);
  return found;
}

int
_tprof_h5_read_string_dataset (hid_t    dset,
                               size_t   n,
                               char  ***strings,
                               char    *problem,
                               size_t   problem_size)
{
  size_t bad = SIZE_MAX;

  return _tprof_h5_read_string_column (dset, n, strings, &bad, problem, problem_size);
}

int
_tprof_h5_read_string_column (hid_t    dset,
                              size_t   n,
                              char  ***strings,
                              size_t  *bad,
                              char    *problem,
                              size_t   problem_size)
{
  hid_t ftype = H5Dget_type (dset);
  char **out = NULL;
  int result = -1;

  problem[0] = '\0';
  *strings = NULL;
  if (ftype < 0 || H5Tget_class (ftype) != H5T_STRING)
    {
      tprof_h5_problem (problem, problem_size, "does not hold strings");
      goto out;
    }
  out = calloc (n != 0 ? n : 1, sizeof *out);
  if (out == NULL)
    {
      tprof_h5_problem (problem, problem_size, "is too large for the memory available");
      goto out;
    }
  result = tprof_h5_read_strings (dset, false, ftype, n, out, bad, problem, problem_size);
  if (result < 0)
    _tprof_h5_free_strings (out, n);
  else
    *strings = out;

out:
  _tprof_h5_close (ftype);
  return result;
}
