/* demo-options.h — the command line of tprof-demo-training. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Where forward and backward spend their time. */
typedef enum
{
  DEMO_COMPUTE_AUTO,         /* accelerator when a node has more ranks than cores */
  DEMO_COMPUTE_CPU,          /* real matrix kernels, all of them */
  DEMO_COMPUTE_ACCELERATOR,  /* a small real kernel, then waiting (sleeping) for the
                                time a GPU would take, as a training process does */
} DemoCompute;

typedef struct
{
  long        iterations;
  const char *output;
  int         straggler;         /* -1: none */
  bool        straggler_given;
  double      straggler_factor;
  uint64_t    seed;
  long        checkpoint_every;
  bool        quiet;             /* only say where the profile went */
  DemoCompute compute;
} DemoOptions;

typedef enum
{
  DEMO_OPTIONS_RUN,
  DEMO_OPTIONS_HELP,   /* help printed: exit 0 */
  DEMO_OPTIONS_USAGE,  /* bad command line, message printed: exit 2 */
} DemoOptionsResult;

/* Parses @argv into @opts. Messages go to stdout/stderr only when @verbose
 * (rank 0), so that every rank parses but one speaks. */
DemoOptionsResult demo_options_parse (DemoOptions *opts, int argc, char **argv, bool verbose);

/* Checks what depends on the run: the straggler must be a rank of it. */
DemoOptionsResult demo_options_check_world (DemoOptions *opts, int world_size, bool verbose);
