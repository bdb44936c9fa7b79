/* tprof-h5-sample-fill.c — fills and checks arrays of samples in blocks, split over threads, with pread() where the file stores them as memory does. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "tprof-h5-reader-private.h"
#include "tprof-gathered-time-private.h"

/* Samples per pread() of each array: the block is checked right after,
 * while it is still in the cache, and the system calls stay cheap. */
#define TPROF_H5_FILL_BLOCK ((size_t) 1 << 15)

/* 0, an errno value, or -1 when the file ends first. */
static int
tprof_h5_pread_all (int    fd,
                    void  *buffer,
                    size_t bytes,
                    off_t  offset)
{
  char *p = buffer;

  while (bytes > 0)
    {
      ssize_t got = pread (fd, p, bytes, offset);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return errno != 0 ? errno : EIO;
      if (got == 0)
        return -1;
      p += got;
      bytes -= (size_t) got;
      offset += got;
    }
  return 0;
}

typedef struct
{
  const TprofH5SampleSource *source;
  double                    *times;
  int32_t                   *ranks;
  size_t                     start;
  size_t                     stop;
  int                        world_size;
  /* where the chunk stopped: at stop when every sample is valid */
  size_t                     reached;
  int                        read_error;
  const char                *failed_array;
} TprofH5FillTask;

static int
tprof_h5_fill_block (TprofH5FillTask *task,
                     size_t           start,
                     size_t           end)
{
  const TprofH5SampleSource *source = task->source;
  int status = 0;

  if (source->times_offset >= 0)
    {
      status = tprof_h5_pread_all (source->fd, task->times + start,
                                   (end - start) * sizeof *task->times,
                                   source->times_offset + (off_t) (start * sizeof *task->times));
      task->failed_array = "times";
    }
  if (status == 0 && source->ranks_offset >= 0)
    {
      status = tprof_h5_pread_all (source->fd, task->ranks + start,
                                   (end - start) * sizeof *task->ranks,
                                   source->ranks_offset + (off_t) (start * sizeof *task->ranks));
      task->failed_array = "ranks";
    }
  return status;
}

static void
tprof_h5_fill_task_run (void *data)
{
  TprofH5FillTask *task = data;

  for (size_t block = task->start; block < task->stop; block += TPROF_H5_FILL_BLOCK)
    {
      size_t end = task->stop - block > TPROF_H5_FILL_BLOCK ? block + TPROF_H5_FILL_BLOCK : task->stop;
      size_t invalid;

      task->read_error = tprof_h5_fill_block (task, block, end);
      if (task->read_error != 0)
        {
          task->reached = block;
          return;
        }
      invalid = _tprof_h5_find_invalid (task->times, task->ranks, block, end, task->world_size);
      if (invalid < end)
        {
          task->reached = invalid;
          return;
        }
    }
  task->reached = task->stop;
}

int
_tprof_h5_fill_samples (const TprofH5SampleSource  *source,
                        double                     *times,
                        int32_t                    *ranks,
                        size_t                      n,
                        int                         world_size,
                        size_t                     *first_invalid,
                        const char                **failed_array)
{
  TprofH5FillTask tasks[TPROF_STATS_MAX_CHUNKS];
  size_t bounds[TPROF_STATS_MAX_CHUNKS + 1];
  size_t n_chunks = _tprof_stats_split (n, bounds);

  for (size_t c = 0; c < n_chunks; c++)
    tasks[c] = (TprofH5FillTask) { source, times, ranks, bounds[c], bounds[c + 1], world_size,
                                   bounds[c], 0, NULL };
  _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, tprof_h5_fill_task_run);

  /* Chunks cover ascending ranges: the first one that stopped early has
   * only valid, fully read chunks before it. */
  *first_invalid = n;
  for (size_t c = 0; c < n_chunks; c++)
    {
      if (tasks[c].read_error != 0)
        {
          *failed_array = tasks[c].failed_array;
          return tasks[c].read_error;
        }
      if (tasks[c].reached < tasks[c].stop)
        {
          *first_invalid = tasks[c].reached;
          return 0;
        }
    }
  return 0;
}
