/* tprof-python-scope.c — the module-level timer(name): TPROF_SCOPE for Python blocks. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

typedef struct
{
  PyObject_HEAD
  TprofSite  *site;
  TprofScope  scope;
} TprofPyScope;

static PyObject *
scope_enter (TprofPyScope *self, PyObject *unused)
{
  /* nothing enabled anywhere: one relaxed load, nothing recorded */
  self->scope = _tprof_scope_begin (self->site);
  Py_RETURN_NONE;
}

static PyObject *
scope_exit (TprofPyScope *self, PyObject *const *args, Py_ssize_t nargs)
{
  _tprof_scope_end (&self->scope);
  self->scope.name_id = 0;
  Py_RETURN_FALSE;
}

/* A new scope of the same name, not entered: what a decorated function
 * enters at each call. */
static PyObject *
scope_recreate (TprofPyScope *self, PyObject *unused)
{
  TprofPyScope *scope = PyObject_New (TprofPyScope, &_tprof_py_scope_type);

  if (scope == NULL)
    return NULL;
  scope->site = self->site;
  scope->scope.name_id = 0;
  return (PyObject *) scope;
}

static PyMethodDef scope_methods[] = {
  { "_recreate", (PyCFunction) scope_recreate, METH_NOARGS, NULL },
  { "__enter__", (PyCFunction) scope_enter, METH_NOARGS, NULL },
  { "__exit__", (PyCFunction) (void (*) (void)) scope_exit, METH_FASTCALL, NULL },
  { NULL, NULL, 0, NULL },
};

PyTypeObject _tprof_py_scope_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "tprof._capture._Scope",
  .tp_basicsize = sizeof (TprofPyScope),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "tprof.timer(name): a context manager, or a decorator timing each call.",
  .tp_call = _tprof_py_decorate,
  .tp_dealloc = (destructor) PyObject_Free,
  .tp_methods = scope_methods,
};

static PyObject *
timer (PyObject *module, PyObject *name)
{
  TprofSite *site = _tprof_py_site (name);
  TprofPyScope *scope;

  if (site == NULL)
    return NULL;
  scope = PyObject_New (TprofPyScope, &_tprof_py_scope_type);
  if (scope == NULL)
    return NULL;
  scope->site = site;
  scope->scope.name_id = 0;
  return (PyObject *) scope;
}

static PyMethodDef scope_functions[] = {
  { "timer", timer, METH_O,
    "timer(name): a context manager that records the time of its block under name\n"
    "into every TimeManager enabled on this thread (TimeManager.enable_timer()),\n"
    "also when the block raises; with none enabled it records nothing." },
  { NULL, NULL, 0, NULL },
};

int
_tprof_py_scope_init (PyObject *module)
{
  return PyModule_AddFunctions (module, scope_functions);
}
