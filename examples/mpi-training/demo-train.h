/* demo-train.h — a small data-parallel training loop whose phases tprof times. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <mpi.h>

#include <tprof/capture.h>

#include "demo-options.h"

/* Runs @opts->iterations training steps on this rank of @comm, timing each
 * phase with TPROF_SCOPE into the managers enabled on this thread and each
 * whole step with TPROF_TIMER into @tm. Returns 0, or -1 after printing why
 * to stderr (an MPI call or the checkpoint directory failed). */
int demo_train_run (const DemoOptions *opts, MPI_Comm comm, TprofTimeManager *tm);

/* Collective: turns DEMO_COMPUTE_AUTO into the accelerator when a node of
 * @comm runs more ranks than it has cores (ranks computing on the CPU
 * would then share cores, and the scheduler, not the straggler, would
 * decide who arrives last), into the CPU otherwise. */
void demo_train_resolve_compute (DemoOptions *opts, MPI_Comm comm);
