/* demo-options.c — parsing and checking tprof-demo-training's options with getopt_long. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo-options.h"

#define PROGRAM "tprof-demo-training"

enum
{
  OPT_ITERATIONS = 'i',
  OPT_OUTPUT = 'o',
  OPT_HELP = 'h',
  OPT_STRAGGLER = 256,
  OPT_STRAGGLER_FACTOR,
  OPT_SEED,
  OPT_CHECKPOINT_EVERY,
  OPT_QUIET,
  OPT_COMPUTE,
};

static const struct option demo_long_options[] = {
  { "iterations", required_argument, NULL, OPT_ITERATIONS },
  { "output", required_argument, NULL, OPT_OUTPUT },
  { "straggler", required_argument, NULL, OPT_STRAGGLER },
  { "straggler-factor", required_argument, NULL, OPT_STRAGGLER_FACTOR },
  { "seed", required_argument, NULL, OPT_SEED },
  { "checkpoint-every", required_argument, NULL, OPT_CHECKPOINT_EVERY },
  { "quiet", no_argument, NULL, OPT_QUIET },
  { "compute", required_argument, NULL, OPT_COMPUTE },
  { "help", no_argument, NULL, OPT_HELP },
  { NULL, 0, NULL, 0 },
};

static void
demo_print_help (void)
{
  printf ("Usage: mpiexec -n RANKS " PROGRAM " [OPTION...]\n"
          "\n"
          "Simulates a distributed training loop (forward, backward, allreduce,\n"
          "optimizer, data loading and checkpoints), times it with tprof, gathers\n"
          "every rank's samples on rank 0 and saves them as one HDF5 profile.\n"
          "\n"
          "  -i, --iterations N          training iterations (default 200)\n"
          "  -o, --output PATH           profile to write (default tprof-demo.h5)\n"
          "      --straggler RANK        rank whose compute is heavier (default 1;\n"
          "                              -1 for none)\n"
          "      --straggler-factor F    how much heavier, F >= 1 (default 1.5)\n"
          "      --seed S                seed of the random data (default 42)\n"
          "      --checkpoint-every K    write a checkpoint every K iterations\n"
          "                              (default 25)\n"
          "      --compute WHERE         cpu: forward and backward compute on the CPU;\n"
          "                              accelerator: they wait for a simulated GPU, so\n"
          "                              ranks do not compete for cores; auto (default):\n"
          "                              accelerator when a node has more ranks than\n"
          "                              cores, cpu otherwise\n"
          "      --quiet                 print only where the profile was saved\n"
          "  -h, --help                  show this help\n");
}

static DemoOptionsResult
demo_usage_error (bool verbose, const char *format, ...)
{
  va_list args;

  if (!verbose)
    return DEMO_OPTIONS_USAGE;
  fprintf (stderr, PROGRAM ": ");
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fprintf (stderr, "\nTry '" PROGRAM " --help' for more information.\n");
  return DEMO_OPTIONS_USAGE;
}

/* Whether the strto*() call that stopped at @end read all of @text, in range.
 * The parsers below set their *out even when it did not: a bad value ends
 * the parse anyway. */
static bool
demo_parsed_whole (const char *text, const char *end)
{
  return errno == 0 && end != text && *end == '\0';
}

static bool
demo_parse_long (const char *text, long min, long max, long *out)
{
  char *end;

  errno = 0;
  *out = strtol (text, &end, 10);
  return demo_parsed_whole (text, end) && *out >= min && *out <= max;
}

static bool
demo_parse_double (const char *text, double min, double max, double *out)
{
  char *end;

  errno = 0;
  *out = strtod (text, &end);
  return demo_parsed_whole (text, end) && isfinite (*out) && *out >= min && *out <= max;
}

/* strtoull() takes "-1" as a huge number: a sign is refused first. */
static bool
demo_parse_u64 (const char *text, uint64_t *out)
{
  char *end;

  errno = 0;
  *out = strtoull (text, &end, 10);
  return text[0] != '-' && demo_parsed_whole (text, end);
}

DemoOptionsResult
demo_options_parse (DemoOptions *opts, int argc, char **argv, bool verbose)
{
  long straggler = 1;
  int c;

  opts->iterations = 200;
  opts->output = "tprof-demo.h5";
  opts->straggler = 1;
  opts->straggler_given = false;
  opts->straggler_factor = 1.5;
  opts->seed = 42;
  opts->checkpoint_every = 25;
  opts->quiet = false;
  opts->compute = DEMO_COMPUTE_AUTO;

  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, ":i:o:h", demo_long_options, NULL)) != -1)
    {
      switch (c)
        {
        case OPT_ITERATIONS:
          if (!demo_parse_long (optarg, 1, 100000000, &opts->iterations))
            return demo_usage_error (verbose, "--iterations: '%s' is not a whole number from 1 to 100000000", optarg);
          break;
        case OPT_OUTPUT:
          if (optarg[0] == '\0')
            return demo_usage_error (verbose, "--output: the path is empty");
          opts->output = optarg;
          break;
        case OPT_STRAGGLER:
          if (!demo_parse_long (optarg, -1, 1000000000, &straggler))
            return demo_usage_error (verbose, "--straggler: '%s' is not a rank (a whole number >= 0, or -1 for none)", optarg);
          opts->straggler = (int) straggler;
          opts->straggler_given = true;
          break;
        case OPT_STRAGGLER_FACTOR:
          if (!demo_parse_double (optarg, 1.0, 100.0, &opts->straggler_factor))
            return demo_usage_error (verbose, "--straggler-factor: '%s' is not a number from 1 to 100", optarg);
          break;
        case OPT_SEED:
          if (!demo_parse_u64 (optarg, &opts->seed))
            return demo_usage_error (verbose, "--seed: '%s' is not a whole number >= 0", optarg);
          break;
        case OPT_CHECKPOINT_EVERY:
          if (!demo_parse_long (optarg, 1, 100000000, &opts->checkpoint_every))
            return demo_usage_error (verbose, "--checkpoint-every: '%s' is not a whole number >= 1", optarg);
          break;
        case OPT_QUIET:
          opts->quiet = true;
          break;
        case OPT_COMPUTE:
          if (strcmp (optarg, "auto") == 0)
            opts->compute = DEMO_COMPUTE_AUTO;
          else if (strcmp (optarg, "cpu") == 0)
            opts->compute = DEMO_COMPUTE_CPU;
          else if (strcmp (optarg, "accelerator") == 0)
            opts->compute = DEMO_COMPUTE_ACCELERATOR;
          else
            return demo_usage_error (verbose, "--compute: '%s' is not cpu, accelerator or auto", optarg);
          break;
        case OPT_HELP:
          if (verbose)
            demo_print_help ();
          return DEMO_OPTIONS_HELP;
        case ':':
          return demo_usage_error (verbose, "option '%s' needs a value", argv[optind - 1]);
        case '?':
        default:
          return demo_usage_error (verbose, "unknown option '%s'", argv[optind - 1]);
        }
    }
  if (optind < argc)
    return demo_usage_error (verbose, "unexpected argument '%s'", argv[optind]);
  return DEMO_OPTIONS_RUN;
}

DemoOptionsResult
demo_options_check_world (DemoOptions *opts, int world_size, bool verbose)
{
  if (opts->straggler >= world_size)
    {
      /* the default just has no rank 1 to slow down on a single rank */
      if (!opts->straggler_given)
        {
          opts->straggler = -1;
          return DEMO_OPTIONS_RUN;
        }
      return demo_usage_error (verbose, "--straggler %d: the run has only %d rank%s",
                               opts->straggler, world_size, world_size == 1 ? "" : "s");
    }
  return DEMO_OPTIONS_RUN;
}
