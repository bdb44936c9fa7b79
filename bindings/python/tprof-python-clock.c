/* tprof-python-clock.c — the clock alignment's tree and estimator, for gathers over Python transports. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

#include <stdlib.h>

static PyObject *
clock_sync_role (PyObject *module, PyObject *args)
{
  int rank, size, step, peer = -1;
  TprofClockSyncRole role;

  if (!PyArg_ParseTuple (args, "iii:clock_sync_role", &rank, &size, &step))
    return NULL;
  role = tprof_clock_sync_role (rank, size, step, &peer);
  return Py_BuildValue ("(ii)", (int) role, role == TPROF_CLOCK_SYNC_IDLE ? -1 : peer);
}

/* The @n floats of @seq into @out; -1 with an exception. */
static int
read_floats (PyObject *seq, double *out, Py_ssize_t n, const char *what)
{
  PyObject *fast = PySequence_Fast (seq, what);

  if (fast == NULL)
    return -1;
  if (PySequence_Fast_GET_SIZE (fast) != n)
    {
      PyErr_Format (PyExc_ValueError, "clock_offset_estimate: %s has %zd values, not %zd", what,
                    PySequence_Fast_GET_SIZE (fast), n);
      Py_DECREF (fast);
      return -1;
    }
  for (Py_ssize_t i = 0; i < n; i++)
    if ((out[i] = PyFloat_AsDouble (PySequence_Fast_GET_ITEM (fast, i))) == -1.0 && PyErr_Occurred ())
      {
        Py_DECREF (fast);
        return -1;
      }
  Py_DECREF (fast);
  return 0;
}

static PyObject *
clock_offset_estimate (PyObject *module, PyObject *args)
{
  PyObject *sent_obj, *theirs_obj, *received_obj, *result = NULL;
  double *values;
  Py_ssize_t n;
  TprofClockOffset offset;

  if (!PyArg_ParseTuple (args, "OOO:clock_offset_estimate", &sent_obj, &theirs_obj, &received_obj))
    return NULL;
  n = PyObject_Length (sent_obj);
  if (n < 0)
    return NULL;
  if (n == 0)
    {
      PyErr_SetString (PyExc_ValueError, "clock_offset_estimate: no round trip");
      return NULL;
    }
  values = PyMem_Malloc (3 * (size_t) n * sizeof *values);
  if (values == NULL)
    return PyErr_NoMemory ();
  if (read_floats (sent_obj, values, n, "sent") == 0
      && read_floats (theirs_obj, values + n, n, "theirs") == 0
      && read_floats (received_obj, values + 2 * n, n, "received") == 0)
    {
      offset = tprof_clock_offset_estimate (values, values + n, values + 2 * n, (size_t) n);
      result = Py_BuildValue ("(dd)", offset.offset, offset.error);
    }
  PyMem_Free (values);
  return result;
}

static PyObject *
clock_offset_compose (PyObject *module, PyObject *args)
{
  TprofClockOffset to_parent, parent_to_root, to_root;

  if (!PyArg_ParseTuple (args, "(dd)(dd):clock_offset_compose", &to_parent.offset, &to_parent.error,
                         &parent_to_root.offset, &parent_to_root.error))
    return NULL;
  to_root = tprof_clock_offset_compose (to_parent, parent_to_root);
  return Py_BuildValue ("(dd)", to_root.offset, to_root.error);
}

static PyMethodDef clock_functions[] = {
  { "clock_sync_role", clock_sync_role, METH_VARARGS,
    "clock_sync_role(rank, size, step): (role, peer) of rank in the clock alignment's round of step:\n"
    "CLOCK_SYNC_PARENT answers peer's pings and then sends it its offset to rank 0,\n"
    "CLOCK_SYNC_CHILD pings peer and then receives peer's offset, CLOCK_SYNC_IDLE (peer -1)." },
  { "clock_offset_estimate", clock_offset_estimate, METH_VARARGS,
    "clock_offset_estimate(sent, theirs, received): (offset, error) from round trips to a parent,\n"
    "by the shortest; offset is added to this clock to read the parent's." },
  { "clock_offset_compose", clock_offset_compose, METH_VARARGS,
    "clock_offset_compose((offset, error) to parent, (offset, error) of parent to rank 0): to rank 0." },
  { NULL, NULL, 0, NULL },
};

int
_tprof_py_clock_init (PyObject *module)
{
  if (PyModule_AddFunctions (module, clock_functions) < 0
      || PyModule_AddIntConstant (module, "CLOCK_SYNC_PINGS", TPROF_CLOCK_SYNC_PINGS) < 0
      || PyModule_AddIntConstant (module, "CLOCK_SYNC_IDLE", TPROF_CLOCK_SYNC_IDLE) < 0
      || PyModule_AddIntConstant (module, "CLOCK_SYNC_PARENT", TPROF_CLOCK_SYNC_PARENT) < 0
      || PyModule_AddIntConstant (module, "CLOCK_SYNC_CHILD", TPROF_CLOCK_SYNC_CHILD) < 0)
    return -1;
  return 0;
}
