/* tprof-stats-parallel.c — splits a pass over a large selection between threads, at numpy's buffer boundaries. */
/* SPDX-License-Identifier: MIT */

#include <pthread.h>
#include <unistd.h>

#include "tprof-gathered-time-private.h"

/* Below this many samples per chunk a thread costs more than it saves. */
#define MIN_CHUNK_SAMPLES (1u << 18)

static size_t
online_cpus (void)
{
  static size_t cached;
  size_t cpus = __atomic_load_n (&cached, __ATOMIC_RELAXED);

  /* Threads racing here all store the same value. */
  if (cpus == 0)
    {
      long n = sysconf (_SC_NPROCESSORS_ONLN);

      cpus = n > 0 ? (size_t) n : 1;
      __atomic_store_n (&cached, cpus, __ATOMIC_RELAXED);
    }
  return cpus;
}

size_t
_tprof_stats_split (size_t n,
                    size_t bounds[TPROF_STATS_MAX_CHUNKS + 1])
{
  size_t cpus = online_cpus ();
  size_t n_buffers = (n + TPROF_NUMPY_BUFFER - 1) / TPROF_NUMPY_BUFFER;
  size_t n_chunks = 1;

  while (n_chunks < TPROF_STATS_MAX_CHUNKS && n_chunks < cpus
         && n / (2 * n_chunks) >= MIN_CHUNK_SAMPLES)
    n_chunks *= 2;

  /* Whole buffers each, so that every chunk's buffers are numpy's. */
  for (size_t c = 0; c < n_chunks; c++)
    bounds[c] = n_buffers * c / n_chunks * TPROF_NUMPY_BUFFER;
  bounds[n_chunks] = n;
  return n_chunks;
}

void
_tprof_stats_pass_init (TprofStatsPass *pass,
                        size_t          n)
{
  size_t n_buffers = (n + TPROF_NUMPY_BUFFER - 1) / TPROF_NUMPY_BUFFER;

  pass->n_chunks = _tprof_stats_split (n, pass->bounds);
  pass->buffer_sums = NULL;
  if (pass->n_chunks > 1)
    {
      pass->buffer_sums = _tprof_malloc_array (n_buffers, sizeof *pass->buffer_sums);
      if (pass->buffer_sums == NULL)
        {
          pass->n_chunks = 1;
          pass->bounds[1] = n;
        }
    }
}

double *
_tprof_stats_pass_sums (const TprofStatsPass *pass,
                        size_t                c)
{
  if (pass->buffer_sums == NULL)
    return NULL;
  return pass->buffer_sums + pass->bounds[c] / TPROF_NUMPY_BUFFER;
}

double
_tprof_stats_pass_total (const TprofStatsPass *pass,
                         const double         *chunk_totals)
{
  size_t n_buffers;
  double total = 0.0;

  if (pass->buffer_sums == NULL)
    return chunk_totals[0];

  /* In order from zero, as numpy's reduction adds its buffers. */
  n_buffers = (pass->bounds[pass->n_chunks] + TPROF_NUMPY_BUFFER - 1) / TPROF_NUMPY_BUFFER;
  for (size_t b = 0; b < n_buffers; b++)
    total += pass->buffer_sums[b];
  return total;
}

void
_tprof_stats_pass_clear (TprofStatsPass *pass)
{
  free (pass->buffer_sums);
  pass->buffer_sums = NULL;
}

typedef struct
{
  TprofStatsTaskFunc func;
  void              *task;
} Job;

static void *
job_run (void *data)
{
  Job *job = data;

  job->func (job->task);
  return NULL;
}

void
_tprof_stats_run_parallel (void               *tasks,
                           size_t              n_tasks,
                           size_t              task_size,
                           TprofStatsTaskFunc  func)
{
  pthread_t threads[TPROF_STATS_MAX_CHUNKS];
  bool started[TPROF_STATS_MAX_CHUNKS] = { false };
  Job jobs[TPROF_STATS_MAX_CHUNKS];
  char *base = tasks;

  for (size_t t = 1; t < n_tasks && t < TPROF_STATS_MAX_CHUNKS; t++)
    {
      jobs[t] = (Job) { func, base + t * task_size };
      started[t] = pthread_create (&threads[t], NULL, job_run, &jobs[t]) == 0;
    }

  func (base);

  for (size_t t = 1; t < n_tasks; t++)
    {
      if (t < TPROF_STATS_MAX_CHUNKS && started[t])
        pthread_join (threads[t], NULL);
      else
        func (base + t * task_size);
    }
}
