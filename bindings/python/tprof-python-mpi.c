/* tprof-python-mpi.c — tprof._mpi: libtprof-capture-mpi's gather, parallel save and spill on an mpi4py communicator. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-api.h"

#include <mpi4py/mpi4py.h>
#include <tprof/capture-mpi.h>

static const TprofPyApi *api;

static PyObject *
gather (PyObject *module, PyObject *args)
{
  PyObject *manager, *comm_obj;
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error;
  MPI_Comm *comm;
  int dst;

  if (!PyArg_ParseTuple (args, "OOi:gather", &manager, &comm_obj, &dst))
    return NULL;
  tm = api->time_manager_get (manager);
  if (tm == NULL)
    return NULL;
  comm = PyMPIComm_Get (comm_obj);
  if (comm == NULL)
    return NULL;
  tprof_error_clear (&error);
  /* collective: other Python threads run meanwhile */
  Py_BEGIN_ALLOW_THREADS
  pt = tprof_time_manager_gather (tm, *comm, dst < 0 ? TPROF_GATHER_ALL : dst, &error);
  Py_END_ALLOW_THREADS
  if (pt != NULL)
    return api->profiled_time_wrap (pt);
  if (error.code != 0)
    return api->raise (&error);
  Py_RETURN_NONE;
}

static PyObject *
save_parallel (PyObject *module, PyObject *args)
{
  PyObject *manager, *comm_obj, *path_obj, *path = NULL;
  TprofTimeManager *tm;
  TprofError error;
  MPI_Comm *comm;
  int status;

  if (!PyArg_ParseTuple (args, "OOO:save_parallel", &manager, &comm_obj, &path_obj))
    return NULL;
  tm = api->time_manager_get (manager);
  if (tm == NULL || (comm = PyMPIComm_Get (comm_obj)) == NULL || !PyUnicode_FSConverter (path_obj, &path))
    return NULL;
  tprof_error_clear (&error);
  /* collective: other Python threads run meanwhile */
  Py_BEGIN_ALLOW_THREADS
  status = tprof_time_manager_save_parallel (tm, *comm, PyBytes_AS_STRING (path), &error);
  Py_END_ALLOW_THREADS
  Py_DECREF (path);
  if (status != 0)
    return api->raise (&error);
  Py_RETURN_NONE;
}

static PyObject *
set_spill (PyObject *module, PyObject *args)
{
  PyObject *manager, *comm_obj, *directory = NULL;
  TprofTimeManager *tm;
  TprofError error;
  MPI_Comm *comm;
  double interval;
  int status;

  if (!PyArg_ParseTuple (args, "OOO&d:set_spill", &manager, &comm_obj, PyUnicode_FSConverter, &directory,
                         &interval))
    return NULL;
  tm = api->time_manager_get (manager);
  if (tm == NULL || (comm = PyMPIComm_Get (comm_obj)) == NULL)
    {
      Py_DECREF (directory);
      return NULL;
    }
  tprof_error_clear (&error);
  /* collective: other Python threads run meanwhile */
  Py_BEGIN_ALLOW_THREADS
  status = tprof_time_manager_set_spill_mpi (tm, *comm, PyBytes_AS_STRING (directory), interval, &error);
  Py_END_ALLOW_THREADS
  Py_DECREF (directory);
  if (status != 0)
    return api->raise (&error);
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
  { "set_spill", set_spill, METH_VARARGS,
    "set_spill(manager, comm, directory, interval): tprof_time_manager_set_spill_mpi on comm's\n"
    "handle; each rank spills to its own file of the one job, with its clock offset to rank 0." },
  { "save_parallel", save_parallel, METH_VARARGS,
    "save_parallel(manager, comm, path): tprof_time_manager_save_parallel on comm's handle;\n"
    "every rank writes its own samples into the one file path." },
  { "gather", gather, METH_VARARGS,
    "gather(manager, comm, dst): tprof_time_manager_gather on comm's handle;\n"
    "dst < 0 gathers to every rank. A ProfiledTime on the destination, None elsewhere." },
  { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
  PyModuleDef_HEAD_INIT,
  .m_name = "tprof._mpi",
  .m_doc = "The gather, the parallel save and the spill of libtprof-capture-mpi over mpi4py communicators.",
  .m_size = -1,
  .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__mpi (void);

PyMODINIT_FUNC
PyInit__mpi (void)
{
  PyObject *module;

  api = PyCapsule_Import (TPROF_PY_API_CAPSULE, 0);
  if (api == NULL || import_mpi4py () < 0)
    return NULL;
  module = PyModule_Create (&module_def);
  if (module == NULL)
    return NULL;
  /* how MPI.Get_library_version() starts for the MPI this was built against */
  if (PyModule_AddStringConstant (module, "MPI_LIBRARY_PREFIX", TPROF_MPI_LIBRARY_PREFIX) < 0)
    {
      Py_DECREF (module);
      return NULL;
    }
  return module;
}
