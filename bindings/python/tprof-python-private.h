/* tprof-python-private.h — the object layouts and helpers shared by the files of tprof._capture. */
/* SPDX-License-Identifier: MIT */
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <tprof/capture.h>

typedef struct
{
  PyObject_HEAD
  TprofTimeManager *tm;
} TprofPyTimeManager;

typedef struct
{
  PyObject_HEAD
  TprofGatheredTime *gt;
  PyObject          *owner;    /* a ProfiledTime owning gt, or NULL when gt is ours */
} TprofPyGatheredTime;

typedef struct
{
  PyObject_HEAD
  TprofProfiledTime *pt;
} TprofPyProfiledTime;

extern PyTypeObject _tprof_py_time_manager_type;
extern PyTypeObject _tprof_py_timer_type;
extern PyTypeObject _tprof_py_enable_type;
extern PyTypeObject _tprof_py_scope_type;
extern PyTypeObject _tprof_py_gathered_time_type;
extern PyTypeObject _tprof_py_profiled_time_type;
extern PyTypeObject _tprof_py_sample_buffer_type;

/* The classes handed out for new selections and profiles: the Python
 * subclasses of tprof/__init__.py once registered, the base types before. */
extern PyTypeObject *_tprof_py_gathered_time_class;
extern PyTypeObject *_tprof_py_profiled_time_class;

/* Raises the Python exception matching @error's code, with its message;
 * returns NULL. */
PyObject *_tprof_py_raise (const TprofError *error);

/* The operation name of @obj as UTF-8 owned by @obj, or NULL with TypeError
 * or ValueError set (not a str, empty, embedded NUL, not encodable). */
const char *_tprof_py_name (PyObject *obj);

/* The site (a TprofSite living as long as the process) of name @obj, which
 * caches the interned name id; NULL with an exception set. */
TprofSite *_tprof_py_site (PyObject *obj);

/* Wraps @gt (taken) as a new selection object; @owner, when not NULL, owns
 * @gt instead and is kept alive. NULL (and @gt freed unless owned) with an
 * exception set on failure. */
PyObject *_tprof_py_gathered_time_wrap (TprofGatheredTime *gt, PyObject *owner);
/* ProfiledTime._add_pieces (tprof-python-assemble.c). */
PyObject *_tprof_py_profiled_time_add_pieces (PyObject *self, PyObject *args);
/* Wraps @pt (taken) as a new profile object; frees @pt on failure. */
PyObject *_tprof_py_profiled_time_wrap (TprofProfiledTime *pt);

TprofTimeManager *_tprof_py_time_manager_get (PyObject *obj);

/* tp_call of the timers: @timer(func) is the registered decorator's
 * decorator(timer, func), which times each call with timer._recreate(). */
PyObject *_tprof_py_decorate (PyObject *timer, PyObject *args, PyObject *kwargs);

int _tprof_py_scope_init (PyObject *module);
int _tprof_py_clock_init (PyObject *module);

/* tprof._capture._stragglers(profile, by=None, topology=None): the
 * straggler verdict as a dict (tprof-python-stragglers.c). */
PyObject *_tprof_py_stragglers (PyObject *module, PyObject *args, PyObject *kwargs);
