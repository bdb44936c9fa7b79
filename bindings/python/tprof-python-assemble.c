/* tprof-python-assemble.c — ProfiledTime._add_pieces: an operation built from the ranks' pieces a Python gather received, copied once. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The columns being filled, and where the next piece goes. */
typedef struct
{
  double  *times;
  int32_t *ranks;
  double  *starts;   /* NULL: no timeline */
  int32_t *threads;
  size_t   at;
} Columns;

/* A read-only, contiguous 1-D float64 view of @obj holding @n values;
 * -1 with an exception set. */
static int
float_view (PyObject *obj, Py_ssize_t n, const char *what, Py_ssize_t piece, Py_buffer *view)
{
  if (PyObject_GetBuffer (obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
    return -1;
  if (view->itemsize != sizeof (double) || view->format == NULL || view->format[strlen (view->format) - 1] != 'd'
      || view->len / (Py_ssize_t) sizeof (double) != n)
    {
      PyErr_Format (PyExc_ValueError, "_add_pieces: piece %zd: %s must be %zd float64 values", piece, what, n);
      PyBuffer_Release (view);
      return -1;
    }
  return 0;
}

/* Copies piece @k, (rank, times, starts, threads), into @c, checking each
 * value; starts are moved by -@origin, threads read from float64. */
static int
add_piece (Columns *c, PyObject *piece, Py_ssize_t k, double origin)
{
  PyObject *times_obj, *starts_obj, *threads_obj;
  Py_buffer times, starts = { 0 }, threads = { 0 };
  int rank, status = -1;
  Py_ssize_t n;

  if (!PyArg_ParseTuple (piece, "iOOO:_add_pieces", &rank, &times_obj, &starts_obj, &threads_obj))
    return -1;
  if ((n = PyObject_Length (times_obj)) < 0 || float_view (times_obj, n, "times", k, &times) < 0)
    return -1;
  if (c->starts != NULL && (float_view (starts_obj, n, "starts", k, &starts) < 0
                            || float_view (threads_obj, n, "threads", k, &threads) < 0))
    goto out;
  {
    /* locals, not c's fields: the compiler may keep them in registers */
    const double *in_times = times.buf, *in_starts = starts.buf, *in_threads = threads.buf;
    double *out_times = c->times + c->at, *out_starts = c->starts != NULL ? c->starts + c->at : NULL;
    int32_t *out_ranks = c->ranks + c->at, *out_threads = c->threads != NULL ? c->threads + c->at : NULL;

    for (Py_ssize_t i = 0; i < n; i++)
      {
        if (!(isfinite (in_times[i]) && in_times[i] >= 0) || rank < 0)
          {
            PyErr_Format (PyExc_ValueError, "_add_pieces: piece %zd, sample %zd: not a time >= 0 of a rank >= 0",
                          k, i);
            goto out;
          }
        out_times[i] = in_times[i];
        out_ranks[i] = rank;
        if (out_starts != NULL)
          {
            double s = in_starts[i] - origin, th = in_threads[i];

            if (!isfinite (s) || !(th >= 0 && th <= INT32_MAX))
              {
                PyErr_Format (PyExc_ValueError, "_add_pieces: piece %zd, sample %zd: a start not finite "
                              "or a thread out of range", k, i);
                goto out;
              }
            out_starts[i] = s;
            out_threads[i] = (int32_t) th;
          }
      }
    c->at += (size_t) n;
  }
  status = 0;
out:
  if (threads.obj != NULL)
    PyBuffer_Release (&threads);
  if (starts.obj != NULL)
    PyBuffer_Release (&starts);
  PyBuffer_Release (&times);
  return status;
}

/* _add_pieces(name, [(rank, times, starts, threads)], origin): operation
 * @name from its pieces in order (one per rank, ascending), each a rank's
 * float64 views; origin None: no timeline, starts and threads ignored. */
PyObject *
_tprof_py_profiled_time_add_pieces (PyObject *self, PyObject *args)
{
  PyObject *name_obj, *pieces, *origin_obj;
  const char *name;
  Columns c = { 0 };
  double origin = 0.0;
  size_t total = 0;
  TprofGatheredTime *gt;
  TprofError error;

  if (!PyArg_ParseTuple (args, "OO!O:_add_pieces", &name_obj, &PyList_Type, &pieces, &origin_obj))
    return NULL;
  if ((name = _tprof_py_name (name_obj)) == NULL)
    return NULL;
  if (origin_obj != Py_None && (origin = PyFloat_AsDouble (origin_obj)) == -1.0 && PyErr_Occurred ())
    return NULL;
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE (pieces); k++)
    {
      PyObject *piece = PyList_GET_ITEM (pieces, k);
      Py_ssize_t n = PyTuple_Check (piece) && PyTuple_GET_SIZE (piece) == 4
                     ? PyObject_Length (PyTuple_GET_ITEM (piece, 1)) : -1;

      if (n < 0)
        {
          PyErr_Clear ();
          PyErr_Format (PyExc_TypeError, "_add_pieces: piece %zd is not (rank, times, starts, threads)", k);
          return NULL;
        }
      total += (size_t) n;
    }
  c.times = malloc ((total > 0 ? total : 1) * sizeof *c.times);
  c.ranks = malloc ((total > 0 ? total : 1) * sizeof *c.ranks);
  if (origin_obj != Py_None)
    {
      c.starts = malloc ((total > 0 ? total : 1) * sizeof *c.starts);
      c.threads = malloc ((total > 0 ? total : 1) * sizeof *c.threads);
    }
  if (c.times == NULL || c.ranks == NULL || (origin_obj != Py_None && (c.starts == NULL || c.threads == NULL)))
    {
      PyErr_NoMemory ();
      goto failed;
    }
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE (pieces); k++)
    if (add_piece (&c, PyList_GET_ITEM (pieces, k), k, origin) < 0)
      goto failed;
  gt = tprof_gathered_time_new_take (c.times, c.ranks, total);
  c.times = NULL;
  c.ranks = NULL;
  if (gt == NULL)
    {
      PyErr_NoMemory ();
      goto failed;
    }
  if (c.starts != NULL)
    tprof_gathered_time_set_timeline_take (gt, c.starts, c.threads);  /* fails only without gt */
  if (tprof_profiled_time_add (((TprofPyProfiledTime *) self)->pt, name, gt, &error) < 0)
    return _tprof_py_raise (&error);
  Py_RETURN_NONE;

failed:
  free (c.times);
  free (c.ranks);
  free (c.starts);
  free (c.threads);
  return NULL;
}
