/* fuzz-seeds.c — writes valid profiles of several shapes into a directory: the fuzzer's seed corpus. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include <tprof/capture.h>

static void
save_shape (const char *dir, const char *name, int world_size, int n_ops, int per_rank)
{
  TprofProfiledTime *pt = tprof_profiled_time_new (world_size);
  TprofError error = { 0 };
  char path[4096];

  for (int op = 0; op < n_ops; op++)
    {
      size_t n = (size_t) world_size * (size_t) per_rank;
      double *times = malloc ((n != 0 ? n : 1) * sizeof *times);
      int32_t *ranks = malloc ((n != 0 ? n : 1) * sizeof *ranks);
      char op_name[32];

      for (size_t i = 0; i < n; i++)
        {
          times[i] = 1e-3 * (double) (1 + (i * 7919) % 101);
          ranks[i] = (int32_t) (i / (size_t) per_rank);
        }
      snprintf (op_name, sizeof op_name, op % 2 ? "io/step %d" : "op%d", op);
      if (tprof_profiled_time_add (pt, op_name, tprof_gathered_time_new_take (times, ranks, n), &error) != 0)
        exit (1);
    }
  snprintf (path, sizeof path, "%s/%s", dir, name);
  if (tprof_profiled_time_save (pt, path, &error) != 0)
    {
      fprintf (stderr, "fuzz-seeds: %s\n", error.message);
      exit (1);
    }
  tprof_profiled_time_free (pt);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s DIRECTORY\n", argv[0]);
      return 2;
    }
  save_shape (argv[1], "one-rank.h5", 1, 1, 3);
  save_shape (argv[1], "three-ranks.h5", 3, 2, 2);
  save_shape (argv[1], "empty-ops.h5", 2, 3, 0);
  save_shape (argv[1], "many-ops.h5", 2, 12, 1);
  save_shape (argv[1], "more-samples.h5", 4, 2, 50);
  return 0;
}
