/* tprof-h5-util.c — the HDF5 lock, silenced and captured HDF5 errors, name escaping and string reading. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-private.h"

/* HDF5 keeps global state (ids, error stacks, the auto-print hook) that a
 * non-threadsafe build does not protect, and the viewer loads files from a
 * worker thread: one lock for every HDF5 call we make. */
static pthread_mutex_t tprof_h5_mutex = PTHREAD_MUTEX_INITIALIZER;

void
_tprof_h5_enter (TprofH5Guard *guard)
{
  pthread_mutex_lock (&tprof_h5_mutex);
  guard->saved_func = NULL;
  guard->saved_data = NULL;
  H5Eget_auto2 (H5E_DEFAULT, &guard->saved_func, &guard->saved_data);
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
}

void
_tprof_h5_leave (TprofH5Guard *guard)
{
  H5Eset_auto2 (H5E_DEFAULT, guard->saved_func, guard->saved_data);
  pthread_mutex_unlock (&tprof_h5_mutex);
}

typedef struct
{
  char   *buffer;
  size_t  size;
} TprofH5Innermost;

static herr_t
tprof_h5_innermost_cb (unsigned            n,
                       const H5E_error2_t *err_desc,
                       void               *user_data)
{
  TprofH5Innermost *innermost = user_data;

  /* Walking upward, entry 0 is where HDF5 first noticed the problem: the
   * most specific message of the stack. */
  if (n == 0 && err_desc->desc != NULL)
    snprintf (innermost->buffer, innermost->size, "%s", err_desc->desc);
  return 0;
}

int
_tprof_h5_error (TprofError *error,
                 int         code,
                 const char *path,
                 const char *format,
                 ...)
{
  char what[384];
  char hdf5[256] = "";
  TprofH5Innermost innermost = { hdf5, sizeof hdf5 };
  va_list args;

  if (error == NULL)
    return -1;
  va_start (args, format);
  vsnprintf (what, sizeof what, format, args);
  va_end (args);
  H5Ewalk2 (H5E_DEFAULT, H5E_WALK_UPWARD, tprof_h5_innermost_cb, &innermost);
  if (hdf5[0] != '\0')
    return tprof_error_set (error, code, "%s: %s (HDF5: %s)", path, what, hdf5);
  return tprof_error_set (error, code, "%s: %s", path, what);
}

void
_tprof_h5_close (hid_t id)
{
  H5I_type_t type;
  hid_t pending = -1;

  if (id < 0)
    return;
  /* Cleaning up after a failure must not wipe the HDF5 message that
   * explains it: every API call starts by clearing the error stack. */
  if (H5Eget_num (H5E_DEFAULT) > 0)
    pending = H5Eget_current_stack ();
  type = H5Iget_type (id);
  if (type == H5I_FILE)
    H5Fclose (id);
  else if (type == H5I_GROUP)
    H5Gclose (id);
  else if (type == H5I_DATASET)
    H5Dclose (id);
  else if (type == H5I_ATTR)
    H5Aclose (id);
  else if (type == H5I_DATATYPE)
    H5Tclose (id);
  else if (type == H5I_DATASPACE)
    H5Sclose (id);
  else if (type == H5I_GENPROP_LST)
    H5Pclose (id);
  if (pending >= 0)
    H5Eset_current_stack (pending);
}

hid_t
_tprof_h5_vlen_utf8_type (void)
{
  hid_t type = H5Tcopy (H5T_C_S1);

  if (type < 0)
    return -1;
  if (H5Tset_size (type, H5T_VARIABLE) < 0 || H5Tset_cset (type, H5T_CSET_UTF8) < 0)
    {
      H5Tclose (type);
      return -1;
    }
  return type;
}

char *
_tprof_h5_escape_name (const char *name)
{
  size_t len = strlen (name);
  char *out;
  char *o;

  if (strcmp (name, ".") == 0)
    return strdup ("%2E");
  if (len > (SIZE_MAX - 1) / 3)
    return NULL;
  out = malloc (len * 3 + 1);
  if (out == NULL)
    return NULL;
  o = out;
  for (const char *p = name; *p != '\0'; p++)
    {
      const char *escape = *p == '%' ? "%25" : *p == '/' ? "%2F" : NULL;

      if (escape != NULL)
        {
          memcpy (o, escape, 3);
          o += 3;
        }
      else
        *o++ = *p;
    }
  *o = '\0';
  return out;
}

static bool
tprof_h5_escape_is (const char *p, char hi, char lo)
{
  return p[0] == '%' && p[1] == hi && (p[2] == lo || p[2] == (lo | 0x20));
}

char *
_tprof_h5_unescape_name (const char *link_name)
{
  char *out = malloc (strlen (link_name) + 1);
  char *o = out;

  if (out == NULL)
    return NULL;
  for (const char *p = link_name; *p != '\0';)
    {
      if (tprof_h5_escape_is (p, '2', '5'))
        *o++ = '%', p += 3;
      else if (tprof_h5_escape_is (p, '2', 'F'))
        *o++ = '/', p += 3;
      else if (tprof_h5_escape_is (p, '2', 'E'))
        *o++ = '.', p += 3;
      else
        *o++ = *p++;
    }
  *o = '\0';
  return out;
}

bool
_tprof_h5_utf8_valid (const char *s,
                      size_t      len)
{
  const unsigned char *p = (const unsigned char *) s;
  const unsigned char *end = p + len;

  while (p < end)
    {
      unsigned c = *p;
      size_t extra;
      uint32_t cp;
      uint32_t min;

      if (c < 0x80)
        {
          p++;
          continue;
        }
      if ((c & 0xE0) == 0xC0)
        extra = 1, cp = c & 0x1F, min = 0x80;
      else if ((c & 0xF0) == 0xE0)
        extra = 2, cp = c & 0x0F, min = 0x800;
      else if ((c & 0xF8) == 0xF0)
        extra = 3, cp = c & 0x07, min = 0x10000;
      else
        return false;
      if ((size_t) (end - p) <= extra)
        return false;
      for (size_t k = 1; k <= extra; k++)
        {
          if ((p[k] & 0xC0) != 0x80)
            return false;
          cp = (cp << 6) | (p[k] & 0x3F);
        }
      /* overlong forms, surrogates and values past U+10FFFF */
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return false;
      p += extra + 1;
    }
  return true;
}

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

/* Reads @n strings of file type @ftype from attribute or dataset @obj into
 * @out (n entries, zeroed by the caller; filled entries are freed by the
 * caller on failure too). */
static int
tprof_h5_read_strings (hid_t    obj,
                       bool     is_attr,
                       hid_t    ftype,
                       size_t   n,
                       char   **out,
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
      status = is_attr ? H5Aread (obj, mtype, ptrs)
                       : H5Dread (obj, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs);
      result = status < 0 ? tprof_h5_problem (problem, problem_size, "cannot be read") : 0;
      for (size_t i = 0; i < n; i++)
        {
          const char *s = ptrs[i] != NULL ? ptrs[i] : "";

          if (result == 0)
            result = tprof_h5_copy_string (s, strlen (s), &out[i], problem, problem_size);
          H5free_memory (ptrs[i]);
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
          result = tprof_h5_copy_string (s, len, &out[i], problem, problem_size);
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
  if (tprof_h5_read_strings (attr, true, ftype, 1, value, problem, problem_size) < 0)
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
  result = tprof_h5_read_strings (dset, false, ftype, n, out, problem, problem_size);
  if (result < 0)
    _tprof_h5_free_strings (out, n);
  else
    *strings = out;

out:
  _tprof_h5_close (ftype);
  return result;
}
