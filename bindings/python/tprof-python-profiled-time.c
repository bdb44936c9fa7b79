/* tprof-python-profiled-time.c — ProfiledTime: operation name -> GatheredTime, saved and loaded as HDF5. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

#include <stdlib.h>
#include <string.h>

#define SELF_PT(self) (((TprofPyProfiledTime *) (self))->pt)

PyObject *
_tprof_py_profiled_time_wrap (TprofProfiledTime *pt)
{
  TprofPyProfiledTime *self;

  self = (TprofPyProfiledTime *) _tprof_py_profiled_time_class->tp_alloc (_tprof_py_profiled_time_class, 0);
  if (self == NULL)
    {
      tprof_profiled_time_free (pt);
      return NULL;
    }
  self->pt = pt;
  return (PyObject *) self;
}

static int
add_operation (TprofProfiledTime *pt, PyObject *name_obj, PyObject *value)
{
  const char *name = _tprof_py_name (name_obj);
  TprofGatheredTime *copy;
  TprofError error;

  if (name == NULL)
    return -1;
  if (!PyObject_TypeCheck (value, &_tprof_py_gathered_time_type))
    {
      PyErr_Format (PyExc_TypeError, "operation '%s': expected a GatheredTime, not %.80s", name,
                    Py_TYPE (value)->tp_name);
      return -1;
    }
  copy = tprof_gathered_time_slice (((TprofPyGatheredTime *) value)->gt, TPROF_SLICE_DEFAULT,
                                    TPROF_SLICE_DEFAULT, 1);
  if (copy == NULL)
    {
      PyErr_NoMemory ();
      return -1;
    }
  if (tprof_profiled_time_add (pt, name, copy, &error) < 0)
    {
      _tprof_py_raise (&error);
      return -1;
    }
  return 0;
}

/* The smallest world holding every rank of @items' selections. */
static int
world_size_of (PyObject *items)
{
  int world_size = 1;

  for (Py_ssize_t i = 0; i < PyList_GET_SIZE (items); i++)
    {
      PyObject *value = PyTuple_GET_ITEM (PyList_GET_ITEM (items, i), 1);
      const TprofGatheredTime *gt;
      const int32_t *ranks;

      if (!PyObject_TypeCheck (value, &_tprof_py_gathered_time_type))
        continue;
      gt = ((TprofPyGatheredTime *) value)->gt;
      ranks = tprof_gathered_time_ranks (gt);
      for (size_t k = 0; k < tprof_gathered_time_count (gt); k++)
        if (ranks[k] >= world_size)
          world_size = ranks[k] + 1;
    }
  return world_size;
}

static PyObject *
profiled_time_new (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = { "operations", "world_size", NULL };
  PyObject *operations = NULL, *items = NULL, *self;
  int world_size = 0;
  TprofProfiledTime *pt;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "|Oi:ProfiledTime", keywords, &operations, &world_size))
    return NULL;
  if (operations != NULL && operations != Py_None)
    {
      if (!PyDict_Check (operations))
        {
          PyErr_Format (PyExc_TypeError, "operations must be a dict of name -> GatheredTime, not %.80s",
                        Py_TYPE (operations)->tp_name);
          return NULL;
        }
      items = PyDict_Items (operations);
      if (items == NULL)
        return NULL;
    }
  if (world_size == 0)
    world_size = items != NULL ? world_size_of (items) : 1;
  pt = tprof_profiled_time_new (world_size);
  if (pt == NULL)
    {
      Py_XDECREF (items);
      PyErr_Format (PyExc_ValueError, "world_size must be >= 1, not %d", world_size);
      return NULL;
    }
  for (Py_ssize_t i = 0; items != NULL && i < PyList_GET_SIZE (items); i++)
    {
      PyObject *item = PyList_GET_ITEM (items, i);

      if (add_operation (pt, PyTuple_GET_ITEM (item, 0), PyTuple_GET_ITEM (item, 1)) < 0)
        {
          Py_DECREF (items);
          tprof_profiled_time_free (pt);
          return NULL;
        }
    }
  Py_XDECREF (items);
  self = type->tp_alloc (type, 0);
  if (self == NULL)
    tprof_profiled_time_free (pt);
  else
    SELF_PT (self) = pt;
  return self;
}

static void
profiled_time_dealloc (TprofPyProfiledTime *self)
{
  tprof_profiled_time_free (self->pt);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyObject *
profiled_time_load (PyTypeObject *cls, PyObject *path_obj)
{
  PyObject *path = NULL, *self;
  TprofProfiledTime *pt;
  TprofError error;

  if (!PyUnicode_FSConverter (path_obj, &path))
    return NULL;
  /* parsed in a helper process, as tprof and tprof-viewer do: HDF5
   * crashing on a damaged file is an exception, not this interpreter's end */
  Py_BEGIN_ALLOW_THREADS
  pt = tprof_profiled_time_load_isolated (PyBytes_AS_STRING (path), &error);
  Py_END_ALLOW_THREADS
  Py_DECREF (path);
  if (pt == NULL)
    return _tprof_py_raise (&error);
  self = cls->tp_alloc (cls, 0);
  if (self == NULL)
    tprof_profiled_time_free (pt);
  else
    SELF_PT (self) = pt;
  return self;
}

static PyObject *
profiled_time_save (PyObject *self, PyObject *path_obj)
{
  PyObject *path = NULL;
  TprofError error;
  int status;

  if (!PyUnicode_FSConverter (path_obj, &path))
    return NULL;
  Py_BEGIN_ALLOW_THREADS
  status = tprof_profiled_time_save (SELF_PT (self), PyBytes_AS_STRING (path), &error);
  Py_END_ALLOW_THREADS
  Py_DECREF (path);
  if (status < 0)
    return _tprof_py_raise (&error);
  Py_RETURN_NONE;
}

static Py_ssize_t
profiled_time_length (PyObject *self)
{
  return (Py_ssize_t) tprof_profiled_time_len (SELF_PT (self));
}

static PyObject *
profiled_time_subscript (PyObject *self, PyObject *key)
{
  const TprofGatheredTime *gt;
  const char *name;

  if (!PyUnicode_Check (key))
    {
      PyErr_Format (PyExc_TypeError, "operation names are str, not %.80s", Py_TYPE (key)->tp_name);
      return NULL;
    }
  name = PyUnicode_AsUTF8 (key);
  if (name == NULL)
    return NULL;
  gt = tprof_profiled_time_get (SELF_PT (self), name);
  if (gt == NULL)
    {
      PyErr_SetObject (PyExc_KeyError, key);
      return NULL;
    }
  /* a view owned by the profile: no copy */
  return _tprof_py_gathered_time_wrap ((TprofGatheredTime *) gt, self);
}

static int
profiled_time_contains (PyObject *self, PyObject *key)
{
  const char *name;

  if (!PyUnicode_Check (key))
    return 0;
  name = PyUnicode_AsUTF8 (key);
  if (name == NULL)
    return -1;
  return tprof_profiled_time_get (SELF_PT (self), name) != NULL;
}

static PyObject *
profiled_time_names (PyObject *self, PyObject *unused)
{
  size_t n = tprof_profiled_time_len (SELF_PT (self));
  PyObject *list = PyList_New ((Py_ssize_t) n);

  for (size_t i = 0; list != NULL && i < n; i++)
    {
      PyObject *item = PyUnicode_FromString (tprof_profiled_time_name (SELF_PT (self), i));

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, (Py_ssize_t) i, item);
    }
  return list;
}

static PyObject *
profiled_time_iter (PyObject *self)
{
  PyObject *names = profiled_time_names (self, NULL), *iter;

  if (names == NULL)
    return NULL;
  iter = PyObject_GetIter (names);
  Py_DECREF (names);
  return iter;
}

static PyObject *
profiled_time_world_size (PyObject *self, void *unused)
{
  return PyLong_FromLong (tprof_profiled_time_world_size (SELF_PT (self)));
}

static PyObject *
profiled_time_hostname (PyObject *self, PyObject *rank_obj)
{
  long rank = PyLong_AsLong (rank_obj);
  const char *host;

  if (rank == -1 && PyErr_Occurred ())
    return NULL;
  if (rank < 0 || rank >= tprof_profiled_time_world_size (SELF_PT (self)))
    {
      PyErr_Format (PyExc_IndexError, "rank %ld is not in [0, %d)", rank,
                    tprof_profiled_time_world_size (SELF_PT (self)));
      return NULL;
    }
  host = tprof_profiled_time_hostname (SELF_PT (self), (int) rank);
  if (host == NULL)
    Py_RETURN_NONE;
  return PyUnicode_FromString (host);
}

static PyObject *
profiled_time_set_hostnames (PyObject *self, PyObject *list)
{
  int world_size = tprof_profiled_time_world_size (SELF_PT (self));
  const char **hosts;
  TprofError error;
  int status;

  if (!PyList_Check (list) || PyList_GET_SIZE (list) != world_size)
    {
      PyErr_Format (PyExc_ValueError, "_set_hostnames: expected a list of %d str", world_size);
      return NULL;
    }
  hosts = PyMem_Calloc ((size_t) world_size, sizeof *hosts);
  if (hosts == NULL)
    return PyErr_NoMemory ();
  for (int i = 0; i < world_size; i++)
    if ((hosts[i] = PyUnicode_AsUTF8 (PyList_GET_ITEM (list, i))) == NULL)
      {
        PyMem_Free (hosts);
        return NULL;
      }
  status = tprof_profiled_time_set_hostnames (SELF_PT (self), hosts, &error);
  PyMem_Free (hosts);
  if (status < 0)
    return _tprof_py_raise (&error);
  Py_RETURN_NONE;
}

/* A list of @n doubles, or None when @values is NULL. */
static PyObject *
double_list (const double *values, int n)
{
  PyObject *list;

  if (values == NULL)
    Py_RETURN_NONE;
  list = PyList_New (n);
  for (int i = 0; list != NULL && i < n; i++)
    {
      PyObject *item = PyFloat_FromDouble (values[i]);

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, item);
    }
  return list;
}

/* _timeline(): (clock offsets, their error bounds, origin), each None when
 * the profile does not say. */
static PyObject *
profiled_time_timeline (PyObject *self, PyObject *unused)
{
  const TprofProfiledTime *pt = SELF_PT (self);
  int n = tprof_profiled_time_world_size (pt);
  const char *origin = tprof_profiled_time_timeline_origin (pt);
  PyObject *offsets = double_list (tprof_profiled_time_clock_offsets (pt), n);
  PyObject *errors = double_list (tprof_profiled_time_clock_offset_errors (pt), n);
  PyObject *result = NULL;

  if (offsets != NULL && errors != NULL)
    result = Py_BuildValue ("(OOz)", offsets, errors, origin);
  Py_XDECREF (offsets);
  Py_XDECREF (errors);
  return result;
}

/* A malloc'd copy of the world_size floats of @seq; NULL with an exception. */
static double *
double_array (PyObject *seq, int n, const char *what)
{
  PyObject *fast = PySequence_Fast (seq, what);
  double *values = NULL;

  if (fast == NULL)
    return NULL;
  if (PySequence_Fast_GET_SIZE (fast) != n)
    PyErr_Format (PyExc_ValueError, "_set_timeline: %s must have %d values, one per rank", what, n);
  else if ((values = malloc ((size_t) n * sizeof *values)) == NULL)
    PyErr_NoMemory ();
  for (int i = 0; values != NULL && i < n; i++)
    {
      values[i] = PyFloat_AsDouble (PySequence_Fast_GET_ITEM (fast, i));
      if (values[i] == -1.0 && PyErr_Occurred ())
        {
          free (values);
          values = NULL;
        }
    }
  Py_DECREF (fast);
  return values;
}

/* _set_timeline(offsets, errors, origin): how a gather mapped each rank's
 * clock onto rank 0's, and the wall time of timeline 0 (str or None). */
static PyObject *
profiled_time_set_timeline (PyObject *self, PyObject *args)
{
  PyObject *offsets_obj, *errors_obj;
  const char *origin;
  int n = tprof_profiled_time_world_size (SELF_PT (self));
  double *offsets, *errors;
  char *origin_copy = NULL;

  if (!PyArg_ParseTuple (args, "OOz:_set_timeline", &offsets_obj, &errors_obj, &origin))
    return NULL;
  if ((offsets = double_array (offsets_obj, n, "offsets")) == NULL)
    return NULL;
  if ((errors = double_array (errors_obj, n, "errors")) == NULL
      || (origin != NULL && (origin_copy = strdup (origin)) == NULL))
    {
      free (offsets);
      free (errors);
      return PyErr_Occurred () ? NULL : PyErr_NoMemory ();
    }
  tprof_profiled_time_set_timeline_take (SELF_PT (self), offsets, errors, origin_copy);
  Py_RETURN_NONE;
}

static PyMethodDef profiled_time_methods[] = {
  { "load", (PyCFunction) profiled_time_load, METH_O | METH_CLASS,
    "load(path): reads a profile file, parsed in a helper process so that a damaged file cannot "
    "crash this one (raises FileError or FormatError naming what is wrong)." },
  { "save", profiled_time_save, METH_O,
    "save(path): writes the profile as one HDF5 file, atomically." },
  { "hostname", profiled_time_hostname, METH_O, "hostname(rank): the host of rank, or None." },
  { "_names", profiled_time_names, METH_NOARGS, NULL },
  { "_set_hostnames", profiled_time_set_hostnames, METH_O, NULL },
  { "_add_pieces", _tprof_py_profiled_time_add_pieces, METH_VARARGS,
    "_add_pieces(name, [(rank, times, starts, threads)], origin): adds an operation from\n"
    "each rank's float64 columns, starts moved by -origin (None: no timeline)." },
  { "_timeline", profiled_time_timeline, METH_NOARGS,
    "_timeline(): (clock offsets, their error bounds, timeline origin), None where absent." },
  { "_set_timeline", profiled_time_set_timeline, METH_VARARGS,
    "_set_timeline(offsets, errors, origin): how the ranks' clocks were mapped onto rank 0's." },
  { NULL, NULL, 0, NULL },
};

static PyGetSetDef profiled_time_getset[] = {
  { "world_size", profiled_time_world_size, NULL, "Number of ranks of the run.", NULL },
  { NULL, NULL, NULL, NULL, NULL },
};

static PyMappingMethods profiled_time_mapping = {
  .mp_length = profiled_time_length,
  .mp_subscript = profiled_time_subscript,
};

static PySequenceMethods profiled_time_sequence = {
  .sq_contains = profiled_time_contains,
};

PyTypeObject _tprof_py_profiled_time_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture.ProfiledTime",
  .tp_basicsize = sizeof (TprofPyProfiledTime),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "ProfiledTime(operations=None, world_size=0): operation name -> GatheredTime.",
  .tp_new = profiled_time_new,
  .tp_dealloc = (destructor) profiled_time_dealloc,
  .tp_methods = profiled_time_methods,
  .tp_getset = profiled_time_getset,
  .tp_as_mapping = &profiled_time_mapping,
  .tp_as_sequence = &profiled_time_sequence,
  .tp_iter = profiled_time_iter,
};
