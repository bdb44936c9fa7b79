/* tprof-hang-mpi-private.h — marks tprof's own collectives as in flight for the hang watchdog. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>

#include <mpi.h>

#include "tprof-hang-watch-internal.h"

/* Starts the tracking on first use when TPROF_HANG_TIMEOUT is set (the
 * watchdog writing to @tm's spill file, if it spills), then notes
 * @function in flight on @comm as a collective; end it with
 * _tprof_hang_call_end_now(). */
uint64_t _tprof_hang_mpi_begin (TprofTimeManager *tm, const char *function, MPI_Comm comm);
