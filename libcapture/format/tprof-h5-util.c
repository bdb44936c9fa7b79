/* tprof-h5-util.c — the HDF5 lock, silenced and captured HDF5 errors, closing ids of any kind. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tprof-h5-internal.h"

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
