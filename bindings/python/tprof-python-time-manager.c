/* tprof-python-time-manager.c — TimeManager and its timer(name) and enable_timer() context managers. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

#include <math.h>

typedef struct
{
  PyObject_HEAD
  TprofPyTimeManager *manager;
  TprofSite          *site;
  TprofTimer          timer;
} TprofPyTimer;

typedef struct
{
  PyObject_HEAD
  TprofPyTimeManager *manager;
  int                 depth;   /* times entered and not yet left */
} TprofPyEnable;

TprofTimeManager *
_tprof_py_time_manager_get (PyObject *obj)
{
  if (!PyObject_TypeCheck (obj, &_tprof_py_time_manager_type))
    {
      PyErr_Format (PyExc_TypeError, "expected a tprof.TimeManager, not %.80s", Py_TYPE (obj)->tp_name);
      return NULL;
    }
  return ((TprofPyTimeManager *) obj)->tm;
}

static PyObject *
time_manager_new (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  TprofPyTimeManager *self = (TprofPyTimeManager *) type->tp_alloc (type, 0);

  if (self == NULL)
    return NULL;
  self->tm = tprof_time_manager_new ();
  if (self->tm == NULL)
    {
      Py_DECREF (self);
      return PyErr_NoMemory ();
    }
  return (PyObject *) self;
}

static void
time_manager_dealloc (TprofPyTimeManager *self)
{
  /* enable_timer() objects and running timers hold a reference: none is
   * left when this runs */
  tprof_time_manager_free (self->tm);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static int
append (TprofPyTimeManager *self, PyObject *name_obj, PyObject *secs_obj)
{
  const char *name = _tprof_py_name (name_obj);
  double secs;

  if (name == NULL)
    return -1;
  if (!PyFloat_Check (secs_obj) && !PyLong_Check (secs_obj) && !PyNumber_Check (secs_obj))
    {
      PyErr_Format (PyExc_TypeError, "a time must be a number of seconds, not %.80s",
                    Py_TYPE (secs_obj)->tp_name);
      return -1;
    }
  secs = PyFloat_AsDouble (secs_obj);
  if (secs == -1.0 && PyErr_Occurred ())
    return -1;
  if (!(isfinite (secs) && secs >= 0))
    {
      PyErr_Format (PyExc_ValueError, "a time must be finite and >= 0 seconds, not %R for '%s'",
                    secs_obj, name);
      return -1;
    }
  tprof_time_manager_append_time (self->tm, name, secs);
  return 0;
}

static PyObject *
time_manager_append_time (TprofPyTimeManager *self, PyObject *const *args, Py_ssize_t nargs)
{
  if (nargs != 2)
    {
      PyErr_Format (PyExc_TypeError, "_append_time() takes 2 arguments (name, secs), %zd given", nargs);
      return NULL;
    }
  if (append (self, args[0], args[1]) < 0)
    return NULL;
  Py_RETURN_NONE;
}

static int
time_manager_init (TprofPyTimeManager *self, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = { "records", NULL };
  PyObject *records = Py_None, *key, *values;
  Py_ssize_t pos = 0;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "|O:TimeManager", keywords, &records))
    return -1;
  if (records == Py_None)
    return 0;
  if (!PyDict_Check (records))
    {
      PyErr_Format (PyExc_TypeError, "records must be a dict of name -> list of seconds, not %.80s",
                    Py_TYPE (records)->tp_name);
      return -1;
    }
  while (PyDict_Next (records, &pos, &key, &values))
    {
      PyObject *seq = PySequence_Fast (values, "records values must be sequences of seconds");

      if (seq == NULL)
        return -1;
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE (seq); i++)
        if (append (self, key, PySequence_Fast_GET_ITEM (seq, i)) < 0)
          {
            Py_DECREF (seq);
            return -1;
          }
      Py_DECREF (seq);
    }
  return 0;
}

static PyObject *
time_manager_get_time (TprofPyTimeManager *self, PyObject *name_obj)
{
  const char *name = _tprof_py_name (name_obj);
  double *times = NULL;
  PyObject *list;
  size_t n;

  if (name == NULL)
    return NULL;
  n = tprof_time_manager_get_time (self->tm, name, &times);
  list = PyList_New ((Py_ssize_t) n);
  for (size_t i = 0; list != NULL && i < n; i++)
    {
      PyObject *item = PyFloat_FromDouble (times[i]);

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, (Py_ssize_t) i, item);
    }
  free (times);
  return list;
}

static PyObject *
time_manager_get_time_bytes (TprofPyTimeManager *self, PyObject *name_obj)
{
  const char *name = _tprof_py_name (name_obj);
  double *times = NULL;
  PyObject *bytes;
  size_t n;

  if (name == NULL)
    return NULL;
  n = tprof_time_manager_get_time (self->tm, name, &times);
  bytes = PyBytes_FromStringAndSize ((const char *) times, (Py_ssize_t) (n * sizeof (double)));
  free (times);
  return bytes;
}

static PyObject *
time_manager_names (TprofPyTimeManager *self, PyObject *unused)
{
  const char **names = NULL;
  size_t n = tprof_time_manager_list_names (self->tm, &names);
  PyObject *list = PyList_New ((Py_ssize_t) n);

  for (size_t i = 0; list != NULL && i < n; i++)
    {
      PyObject *item = PyUnicode_FromString (names[i]);

      if (item == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, (Py_ssize_t) i, item);
    }
  free (names);
  return list;
}

static PyObject *
time_manager_clear (TprofPyTimeManager *self, PyObject *unused)
{
  tprof_time_manager_clear (self->tm);
  Py_RETURN_NONE;
}

static PyObject *
time_manager_set_sample_limit (TprofPyTimeManager *self, PyObject *arg)
{
  size_t limit = PyLong_AsSize_t (arg);

  if (limit == (size_t) -1 && PyErr_Occurred ())
    {
      if (PyErr_ExceptionMatches (PyExc_OverflowError))
        {
          PyErr_Clear ();
          PyErr_SetString (PyExc_ValueError, "set_sample_limit: max_samples must be an int >= 0");
        }
      return NULL;
    }
  tprof_time_manager_set_sample_limit (self->tm, limit);
  Py_RETURN_NONE;
}

static PyObject *
time_manager_set_spill (TprofPyTimeManager *self, PyObject *args, PyObject *kwargs)
{
  static char *keywords[] = { "directory", "interval", NULL };
  PyObject *directory;
  double interval = TPROF_SPILL_DEFAULT_INTERVAL;
  TprofError error = { 0 };
  int rc;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O&|d:set_spill", keywords, PyUnicode_FSConverter, &directory,
                                    &interval))
    return NULL;
  rc = tprof_time_manager_set_spill (self->tm, PyBytes_AS_STRING (directory), interval, &error);
  Py_DECREF (directory);
  if (rc != 0)
    return _tprof_py_raise (&error);
  Py_RETURN_NONE;
}

static PyObject *
time_manager_end_spill (TprofPyTimeManager *self, PyObject *args)
{
  const char *path = NULL;

  if (!PyArg_ParseTuple (args, "|z:end_spill", &path))
    return NULL;
  Py_BEGIN_ALLOW_THREADS
  tprof_time_manager_end_spill (self->tm, path);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static PyObject *
time_manager_gather_local (TprofPyTimeManager *self, PyObject *unused)
{
  TprofProfiledTime *pt;

  Py_BEGIN_ALLOW_THREADS
  pt = tprof_time_manager_gather_local (self->tm);
  Py_END_ALLOW_THREADS
  if (pt == NULL)
    return PyErr_NoMemory ();
  return _tprof_py_profiled_time_wrap (pt);
}

static PyObject *
time_manager_snapshot (TprofPyTimeManager *self, PyObject *unused)
{
  TprofProfiledTime *pt;

  Py_BEGIN_ALLOW_THREADS
  pt = tprof_time_manager_snapshot (self->tm);
  Py_END_ALLOW_THREADS
  if (pt == NULL)
    return PyErr_NoMemory ();
  return _tprof_py_profiled_time_wrap (pt);
}

static PyObject *
time_manager_timer (TprofPyTimeManager *self, PyObject *name)
{
  TprofSite *site = _tprof_py_site (name);
  TprofPyTimer *timer;

  if (site == NULL)
    return NULL;
  timer = PyObject_New (TprofPyTimer, &_tprof_py_timer_type);
  if (timer == NULL)
    return NULL;
  Py_INCREF (self);
  timer->manager = self;
  timer->site = site;
  timer->timer.running = false;
  return (PyObject *) timer;
}

static PyObject *
time_manager_enable_timer (TprofPyTimeManager *self, PyObject *unused)
{
  TprofPyEnable *enable = PyObject_New (TprofPyEnable, &_tprof_py_enable_type);

  if (enable == NULL)
    return NULL;
  Py_INCREF (self);
  enable->manager = self;
  enable->depth = 0;
  return (PyObject *) enable;
}

static PyMethodDef time_manager_methods[] = {
  { "timer", (PyCFunction) time_manager_timer, METH_O,
    "timer(name): a context manager that records the time of its block under name,\n"
    "also when the block raises." },
  { "enable_timer", (PyCFunction) time_manager_enable_timer, METH_NOARGS,
    "enable_timer(): a context manager inside which the module-level timer() and\n"
    "@timer_wrap record into this manager too (on this thread)." },
  { "_append_time", (PyCFunction) (void (*) (void)) time_manager_append_time, METH_FASTCALL,
    "_append_time(name, secs): records one sample." },
  { "_get_time", (PyCFunction) time_manager_get_time, METH_O,
    "_get_time(name): the samples of name, in seconds, as a list ([] when unknown)." },
  { "_get_time_bytes", (PyCFunction) time_manager_get_time_bytes, METH_O,
    "_get_time_bytes(name): the samples of name as float64 bytes." },
  { "_names", (PyCFunction) time_manager_names, METH_NOARGS,
    "_names(): the names recorded, in the order first recorded." },
  { "clear", (PyCFunction) time_manager_clear, METH_NOARGS, "clear(): forgets every sample." },
  { "set_sample_limit", (PyCFunction) time_manager_set_sample_limit, METH_O,
    "set_sample_limit(max_samples): keep at most max_samples samples per name and thread;\n"
    "past that a uniform random subset, with exact count, sum, min and max of all\n"
    "(saved as rank_recorded). 0, the default: every sample. Set it before recording." },
  { "set_spill", (PyCFunction) (void (*) (void)) time_manager_set_spill, METH_VARARGS | METH_KEYWORDS,
    "set_spill(directory, interval=10.0): every interval seconds, a thread appends the samples\n"
    "recorded since to directory/tprof-JOB-0.spill, so that a killed or crashed process leaves\n"
    "them (SIGTERM, SIGINT and SIGUSR1 flush too). Ends at end_spill() or when the manager is\n"
    "freed, which removes the file unless TPROF_KEEP_SPILL=1." },
  { "end_spill", (PyCFunction) time_manager_end_spill, METH_VARARGS,
    "end_spill(profile_path=None): the last flush, an end record naming profile_path, and the\n"
    "file removed unless TPROF_KEEP_SPILL=1." },
  { "_gather_local", (PyCFunction) time_manager_gather_local, METH_NOARGS,
    "_gather_local(): this process's samples as rank 0 of 1, a ProfiledTime." },
  { "_snapshot", (PyCFunction) time_manager_snapshot, METH_NOARGS,
    "_snapshot(): as _gather_local(), the starts on this process's CLOCK_MONOTONIC, no timeline." },
  { NULL, NULL, 0, NULL },
};

PyTypeObject _tprof_py_time_manager_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture.TimeManager",
  .tp_basicsize = sizeof (TprofPyTimeManager),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "TimeManager(records=None): named time samples of this process.",
  .tp_new = time_manager_new,
  .tp_init = (initproc) time_manager_init,
  .tp_dealloc = (destructor) time_manager_dealloc,
  .tp_methods = time_manager_methods,
};

static void
timer_dealloc (TprofPyTimer *self)
{
  Py_DECREF (self->manager);
  PyObject_Free (self);
}

static PyObject *
timer_enter (TprofPyTimer *self, PyObject *unused)
{
  self->timer = _tprof_timer_start_site (self->manager->tm, self->site);
  Py_RETURN_NONE;
}

static PyObject *
timer_exit (TprofPyTimer *self, PyObject *const *args, Py_ssize_t nargs)
{
  /* recorded also when the block raises; the exception goes on */
  tprof_timer_stop (&self->timer);
  Py_RETURN_FALSE;
}

/* A new timer of the same manager and name, not entered: what a decorated
 * function enters at each call. */
static PyObject *
timer_recreate (TprofPyTimer *self, PyObject *unused)
{
  TprofPyTimer *timer = PyObject_New (TprofPyTimer, &_tprof_py_timer_type);

  if (timer == NULL)
    return NULL;
  Py_INCREF (self->manager);
  timer->manager = self->manager;
  timer->site = self->site;
  timer->timer.running = false;
  return (PyObject *) timer;
}

static PyMethodDef timer_methods[] = {
  { "_recreate", (PyCFunction) timer_recreate, METH_NOARGS, NULL },
  { "__enter__", (PyCFunction) timer_enter, METH_NOARGS, NULL },
  { "__exit__", (PyCFunction) (void (*) (void)) timer_exit, METH_FASTCALL, NULL },
  { NULL, NULL, 0, NULL },
};

PyTypeObject _tprof_py_timer_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture._Timer",
  .tp_basicsize = sizeof (TprofPyTimer),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "TimeManager.timer(name): a context manager, or a decorator timing each call.",
  .tp_call = _tprof_py_decorate,
  .tp_dealloc = (destructor) timer_dealloc,
  .tp_methods = timer_methods,
};

static void
enable_dealloc (TprofPyEnable *self)
{
  /* left without __exit__ (a generator never resumed): take it off the
   * stack, or the manager would be freed while enabled */
  for (; self->depth > 0; self->depth--)
    tprof_time_manager_disable (self->manager->tm);
  Py_DECREF (self->manager);
  PyObject_Free (self);
}

static PyObject *
enable_enter (TprofPyEnable *self, PyObject *unused)
{
  tprof_time_manager_enable (self->manager->tm);
  self->depth++;
  Py_RETURN_NONE;
}

static PyObject *
enable_exit (TprofPyEnable *self, PyObject *const *args, Py_ssize_t nargs)
{
  if (self->depth > 0)
    {
      tprof_time_manager_disable (self->manager->tm);
      self->depth--;
    }
  Py_RETURN_FALSE;
}

static PyMethodDef enable_methods[] = {
  { "__enter__", (PyCFunction) enable_enter, METH_NOARGS, NULL },
  { "__exit__", (PyCFunction) (void (*) (void)) enable_exit, METH_FASTCALL, NULL },
  { NULL, NULL, 0, NULL },
};

PyTypeObject _tprof_py_enable_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture._EnabledTimer",
  .tp_basicsize = sizeof (TprofPyEnable),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "TimeManager.enable_timer(): the manager is enabled on this thread inside the block.",
  .tp_dealloc = (destructor) enable_dealloc,
  .tp_methods = enable_methods,
};
