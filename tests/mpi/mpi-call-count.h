/* mpi-call-count.h — how many MPI communication calls were made since the last reset. */
/* SPDX-License-Identifier: MIT */
#pragma once

void     mpi_call_count_reset (void);
unsigned mpi_call_count_collectives (void);
unsigned mpi_call_count_point_to_point (void);
