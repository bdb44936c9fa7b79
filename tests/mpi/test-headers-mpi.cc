/* SPDX-License-Identifier: MIT */
// test-headers-mpi.cc — <tprof/capture-mpi.h> compiles and links as C++ (extern "C" guard), and one gather runs.
#include <cstdio>
#include <cstring>

#include <tprof/capture-mpi.h>

int
main (int argc, char **argv)
{
  TprofTimeManager *tm;
  TprofProfiledTime *pt;
  TprofError error;
  int status = 0;

  MPI_Init (&argc, &argv);
  tm = tprof_time_manager_new ();
  tprof_time_manager_append_time (tm, "cxx", 0.25);
  pt = tprof_time_manager_gather (tm, MPI_COMM_SELF, TPROF_GATHER_ALL, &error);
  if (pt == nullptr || tprof_profiled_time_len (pt) != 1
      || std::strcmp (tprof_profiled_time_name (pt, 0), "cxx") != 0
      || tprof_gathered_time_sum (tprof_profiled_time_nth (pt, 0)) != 0.25)
    {
      std::fprintf (stderr, "test-headers-mpi: gather from C++ failed: %s\n",
                    pt == nullptr ? error.message : "wrong contents");
      status = 1;
    }
  tprof_profiled_time_free (pt);
  tprof_time_manager_free (tm);
  MPI_Finalize ();
  return status;
}
