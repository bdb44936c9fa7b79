/* bench-thread-cost.h — what one thread costs, in measures a shared machine does not blur: its instructions (hardware counters, where there are any) and its CPU time. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Counts the calling thread's user-space instructions from now on: a
 * descriptor for bench_instructions_read(), or -1 where the machine has
 * no hardware counters (a virtual machine without a PMU). */
int bench_instructions_open (void);
/* Instructions counted so far, and the descriptor closed; 0 for -1. */
uint64_t bench_instructions_close (int fd);

/* The calling thread's CPU time, ns. */
double bench_thread_cpu_ns (void);
/* This process's CPU time (every thread), ns. */
double bench_process_cpu_ns (void);
/* The CPU time of this process's thread named @name (its comm), ns, from
 * the scheduler's own account; -1 when there is none. */
double bench_named_thread_cpu_ns (const char *name);
