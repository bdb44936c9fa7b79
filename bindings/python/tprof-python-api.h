/* tprof-python-api.h — what tprof._capture lends tprof._mpi, through the capsule tprof._capture._C_API. */
/* SPDX-License-Identifier: MIT */
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <tprof/capture.h>

#define TPROF_PY_API_CAPSULE "tprof._capture._C_API"

typedef struct
{
  /* the manager of a tprof.TimeManager; NULL with TypeError otherwise */
  TprofTimeManager *(*time_manager_get) (PyObject *obj);
  /* a new tprof.ProfiledTime taking @pt (freed on failure) */
  PyObject *(*profiled_time_wrap) (TprofProfiledTime *pt);
  /* raises the exception of @error; returns NULL */
  PyObject *(*raise) (const TprofError *error);
} TprofPyApi;
