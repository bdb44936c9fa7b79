/* SPDX-License-Identifier: MIT */
// test-headers.cc — the public headers compile as C++ and the macros work there.
#include <cstdlib>

#include <tprof/capture.h>

static int
timed (TprofTimeManager *tm)
{
  TPROF_SCOPE ("cxx/scope");
  TPROF_TIMER (tm, "cxx/timer")
    {
      return 1;
    }
  return 0;
}

int
main ()
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  TprofError error = {};
  double *times = nullptr;
  int ok;

  tprof_time_manager_enable (tm);
  ok = timed (tm);
  tprof_time_manager_disable (tm);
  ok = ok && tprof_time_manager_get_time (tm, "cxx/scope", &times) == 1;
  free (times);
  ok = ok && tprof_time_manager_get_time (tm, "cxx/timer", &times) == 1;
  free (times);
  tprof_error_clear (&error);
  tprof_time_manager_free (tm);
  return ok && error.code == 0 ? 0 : 1;
}
