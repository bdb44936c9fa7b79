/* tprof-python-module.c — tprof._capture: the module, its exceptions and the name sites. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"
#include "tprof-python-api.h"

#include <string.h>

static PyObject *error_class;         /* tprof.Error */
static PyObject *file_error_class;    /* tprof.FileError: also an OSError */
static PyObject *format_error_class;  /* tprof.FormatError: also a ValueError */
static PyObject *sites;               /* name -> capsule of its TprofSite */

PyTypeObject *_tprof_py_gathered_time_class = &_tprof_py_gathered_time_type;
PyTypeObject *_tprof_py_profiled_time_class = &_tprof_py_profiled_time_type;

PyObject *
_tprof_py_raise (const TprofError *error)
{
  PyObject *cls = error_class;

  switch ((TprofErrorCode) error->code)
    {
    case TPROF_ERROR_IO:
      cls = file_error_class;
      break;
    case TPROF_ERROR_FORMAT:
    case TPROF_ERROR_VERSION:
      cls = format_error_class;
      break;
    case TPROF_ERROR_INVALID:
      cls = PyExc_ValueError;
      break;
    case TPROF_ERROR_NO_MEMORY:
      cls = PyExc_MemoryError;
      break;
    case TPROF_ERROR_NONE:
    case TPROF_ERROR_MPI:
    case TPROF_ERROR_TOO_LARGE:
    case TPROF_ERROR_CANCELLED:
    default:
      break;
    }
  PyErr_SetString (cls, error->message[0] != '\0' ? error->message : "tprof: unknown failure");
  return NULL;
}

const char *
_tprof_py_name (PyObject *obj)
{
  const char *name;
  Py_ssize_t len;

  if (!PyUnicode_Check (obj))
    {
      PyErr_Format (PyExc_TypeError, "an operation name must be a str, not %.80s",
                    Py_TYPE (obj)->tp_name);
      return NULL;
    }
  name = PyUnicode_AsUTF8AndSize (obj, &len);
  if (name == NULL)
    return NULL;
  if (len == 0 || strlen (name) != (size_t) len)
    {
      PyErr_SetString (PyExc_ValueError, len == 0 ? "an operation name must not be empty"
                                                  : "an operation name must not contain NUL");
      return NULL;
    }
  return name;
}

static void
site_free (PyObject *capsule)
{
  /* never called for live sites: the dict holding them lives as long as the
   * module; the site's name id stays valid for the process either way */
  TprofSite *site = PyCapsule_GetPointer (capsule, "tprof.site");

  if (site != NULL)
    free ((char *) site->name);
  free (site);
}

static TprofSite *
site_new (PyObject *key)
{
  const char *name = _tprof_py_name (key);
  TprofSite *site;
  PyObject *capsule;

  if (name == NULL)
    return NULL;
  site = calloc (1, sizeof *site);
  if (site == NULL || (site->name = strdup (name)) == NULL)
    {
      free (site);
      PyErr_NoMemory ();
      return NULL;
    }
  capsule = PyCapsule_New (site, "tprof.site", site_free);
  if (capsule == NULL)
    {
      free ((char *) site->name);
      free (site);
      return NULL;
    }
  /* the dict keeps the site for the life of the module, as a static
   * TprofSite lives for the life of a C program */
  if (PyDict_SetItem (sites, key, capsule) < 0)
    site = NULL;
  Py_DECREF (capsule);
  return site;
}

TprofSite *
_tprof_py_site (PyObject *obj)
{
  PyObject *key, *capsule;
  TprofSite *site;

  if (!PyUnicode_Check (obj))
    {
      _tprof_py_name (obj);  /* raises the TypeError naming the type */
      return NULL;
    }
  /* a str subclass is looked up by its value */
  key = PyUnicode_CheckExact (obj) ? (Py_INCREF (obj), obj) : PyUnicode_FromObject (obj);
  if (key == NULL)
    return NULL;
  capsule = PyDict_GetItemWithError (sites, key);
  if (capsule != NULL)
    site = PyCapsule_GetPointer (capsule, "tprof.site");
  else
    site = PyErr_Occurred () ? NULL : site_new (key);
  Py_DECREF (key);
  return site;
}

static PyObject *
set_classes (PyObject *module, PyObject *args)
{
  PyTypeObject *gathered, *profiled;

  if (!PyArg_ParseTuple (args, "O!O!:_set_classes", &PyType_Type, &gathered, &PyType_Type, &profiled))
    return NULL;
  if (!PyType_IsSubtype (gathered, &_tprof_py_gathered_time_type)
      || !PyType_IsSubtype (profiled, &_tprof_py_profiled_time_type))
    {
      PyErr_SetString (PyExc_TypeError, "_set_classes: not subclasses of the base types");
      return NULL;
    }
  Py_INCREF (gathered);
  Py_INCREF (profiled);
  _tprof_py_gathered_time_class = gathered;
  _tprof_py_profiled_time_class = profiled;
  Py_RETURN_NONE;
}

/* What turns a timer into a function decorator (tprof/__init__.py). */
static PyObject *decorator;

static PyObject *
set_decorator (PyObject *module, PyObject *func)
{
  if (!PyCallable_Check (func))
    {
      PyErr_SetString (PyExc_TypeError, "_set_decorator: expected a callable");
      return NULL;
    }
  Py_INCREF (func);
  Py_XSETREF (decorator, func);
  Py_RETURN_NONE;
}

PyObject *
_tprof_py_decorate (PyObject *timer, PyObject *args, PyObject *kwargs)
{
  PyObject *func;

  if ((kwargs != NULL && PyDict_GET_SIZE (kwargs) > 0) || PyTuple_GET_SIZE (args) != 1
      || !PyCallable_Check (func = PyTuple_GET_ITEM (args, 0)))
    {
      PyErr_Format (PyExc_TypeError, "%.80s is a context manager, or a decorator of one function: "
                    "called with something else", Py_TYPE (timer)->tp_name);
      return NULL;
    }
  if (decorator == NULL)
    {
      PyErr_SetString (PyExc_RuntimeError, "tprof._capture: no decorator registered (import tprof)");
      return NULL;
    }
  return PyObject_CallFunctionObjArgs (decorator, timer, func, NULL);
}

static PyMethodDef module_methods[] = {
  { "_set_classes", set_classes, METH_VARARGS,
    "_set_classes(GatheredTime, ProfiledTime): the classes the library hands out." },
  { "_set_decorator", set_decorator, METH_O,
    "_set_decorator(f): timer(name)(func) returns f(timer, func)." },
  { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
  PyModuleDef_HEAD_INIT,
  .m_name = "tprof._capture",
  .m_doc = "The C part of tprof: libtprof-capture's time manager, timers and statistics.",
  .m_size = -1,
  .m_methods = module_methods,
};

static int
add_type (PyObject *module, const char *name, PyTypeObject *type)
{
  if (PyType_Ready (type) < 0)
    return -1;
  Py_INCREF (type);
  return PyModule_AddObject (module, name, (PyObject *) type) < 0 ? -1 : 0;
}

static int
add_exceptions (PyObject *module)
{
  PyObject *bases;

  error_class = PyErr_NewExceptionWithDoc ("tprof.Error",
                                           "A failure reported by libtprof-capture.",
                                           PyExc_RuntimeError, NULL);
  bases = Py_BuildValue ("(OO)", error_class, PyExc_OSError);
  file_error_class = PyErr_NewExceptionWithDoc ("tprof.FileError",
                                                "A profile file could not be read or written.",
                                                bases, NULL);
  Py_XDECREF (bases);
  bases = Py_BuildValue ("(OO)", error_class, PyExc_ValueError);
  format_error_class = PyErr_NewExceptionWithDoc ("tprof.FormatError",
                                                  "A file is not a valid tprof profile.",
                                                  bases, NULL);
  Py_XDECREF (bases);
  if (error_class == NULL || file_error_class == NULL || format_error_class == NULL)
    return -1;
  Py_INCREF (error_class);
  Py_INCREF (file_error_class);
  Py_INCREF (format_error_class);
  if (PyModule_AddObject (module, "Error", error_class) < 0
      || PyModule_AddObject (module, "FileError", file_error_class) < 0
      || PyModule_AddObject (module, "FormatError", format_error_class) < 0)
    return -1;
  return 0;
}

static const TprofPyApi api = {
  .time_manager_get = _tprof_py_time_manager_get,
  .profiled_time_wrap = _tprof_py_profiled_time_wrap,
  .raise = _tprof_py_raise,
};

static int
add_api (PyObject *module)
{
  PyObject *capsule = PyCapsule_New ((void *) &api, TPROF_PY_API_CAPSULE, NULL);

  if (capsule == NULL || PyModule_AddObject (module, "_C_API", capsule) < 0)
    {
      Py_XDECREF (capsule);
      return -1;
    }
  return 0;
}

PyMODINIT_FUNC PyInit__capture (void);

PyMODINIT_FUNC
PyInit__capture (void)
{
  PyObject *module = PyModule_Create (&module_def);

  if (module == NULL)
    return NULL;
  sites = PyDict_New ();
  if (sites == NULL
      || add_exceptions (module) < 0
      || add_type (module, "TimeManager", &_tprof_py_time_manager_type) < 0
      || add_type (module, "_Timer", &_tprof_py_timer_type) < 0
      || add_type (module, "_EnabledTimer", &_tprof_py_enable_type) < 0
      || add_type (module, "_Scope", &_tprof_py_scope_type) < 0
      || add_type (module, "GatheredTime", &_tprof_py_gathered_time_type) < 0
      || add_type (module, "ProfiledTime", &_tprof_py_profiled_time_type) < 0
      || add_type (module, "_SampleBuffer", &_tprof_py_sample_buffer_type) < 0
      || _tprof_py_scope_init (module) < 0
      || _tprof_py_clock_init (module) < 0
      || add_api (module) < 0
      || PyModule_AddStringConstant (module, "version", TPROF_VERSION_S) < 0)
    {
      Py_DECREF (module);
      return NULL;
    }
  return module;
}
