/* tprof-hang-read.c — a job's spill files read for `tprof hang`: each rank's header and latest hang state. */
/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-hang.h"
#include "tprof-spill-reader-internal.h"

struct _TprofHangJob
{
  TprofSpillJob      *spill;
  TprofHangRankInput *ranks;
  TprofHangState     *states;
  size_t              n_ranks;
  char              **problems;
  size_t              n_problems;
};

/* The latest STATE payload of one file, dropped again at END. */
typedef struct
{
  void  *payload;
  size_t len;
} Latest;

static int
on_state (void *user_data, const void *payload, size_t len, uint64_t offset)
{
  Latest *latest = user_data;
  void *copy = malloc (len > 0 ? len : 1);

  (void) offset;
  if (copy == NULL)
    return -1;
  memcpy (copy, payload, len);
  free (latest->payload);
  latest->payload = copy;
  latest->len = len;
  return 0;
}

static int
on_end (void *user_data, double when, const char *profile_path)
{
  Latest *latest = user_data;

  (void) when;
  (void) profile_path;
  free (latest->payload);
  latest->payload = NULL;
  return 0;
}

static void
add_problem (TprofHangJob *job, const char *format, ...)
{
  char *text = NULL;
  char **grown;
  va_list args;

  va_start (args, format);
  if (vasprintf (&text, format, args) < 0)
    text = NULL;
  va_end (args);
  grown = text != NULL ? realloc (job->problems, (job->n_problems + 1) * sizeof *grown) : NULL;
  if (grown == NULL)
    {
      free (text);
      return;
    }
  job->problems = grown;
  job->problems[job->n_problems++] = text;
}

/* Rank @r's header and latest state; a problem named when it has none. */
static int
read_rank (TprofHangJob *job, size_t r, TprofError *error)
{
  TprofSpillReader *reader = job->spill->readers[r];
  const TprofSpillVisitor visitor = { .state = on_state, .end = on_end };
  TprofSpillReadStatus status;
  Latest latest = { NULL, 0 };
  const TprofSpillHeader *header;
  TprofError bad = { 0 };

  job->ranks[r] = (TprofHangRankInput) { (int) r, NULL, 0, 0, NULL };
  if (reader == NULL)
    return 0;
  header = _tprof_spill_reader_header (reader);
  job->ranks[r].hostname = header->host;
  job->ranks[r].clock_offset = header->clock_offset;
  job->ranks[r].start = header->started;
  if (_tprof_spill_reader_read (reader, &visitor, &latest, &status, error) != 0)
    {
      free (latest.payload);
      return -1;
    }
  if (status.tail == TPROF_SPILL_TAIL_DAMAGED)
    add_problem (job, "%s: damaged at byte %llu: %s", _tprof_spill_reader_path (reader),
                 (unsigned long long) status.tail_offset, status.problem);
  if (latest.payload != NULL && tprof_hang_state_decode (latest.payload, latest.len, &job->states[r], &bad) != 0)
    add_problem (job, "%s: %s", _tprof_spill_reader_path (reader), bad.message);
  else if (latest.payload != NULL)
    job->ranks[r].state = &job->states[r];
  free (latest.payload);
  return 0;
}

TprofHangJob *
tprof_hang_job_read (const char *dir, TprofError *error)
{
  TprofHangJob *job = calloc (1, sizeof *job);

  if (job == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory"), NULL;
  job->spill = _tprof_spill_job_open (dir, NULL, error);
  if (job->spill == NULL)
    goto fail;
  if (job->spill->world_size <= 0)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: no usable spill file (%zu refused)", dir,
                       job->spill->n_refused);
      goto fail;
    }
  for (size_t i = 0; i < job->spill->n_refused; i++)
    add_problem (job, "%s: %s", job->spill->refused[i].path, job->spill->refused[i].problem);
  job->n_ranks = (size_t) job->spill->world_size;
  job->ranks = calloc (job->n_ranks, sizeof *job->ranks);
  job->states = calloc (job->n_ranks, sizeof *job->states);
  if (job->ranks == NULL || job->states == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
      goto fail;
    }
  for (size_t r = 0; r < job->n_ranks; r++)
    if (read_rank (job, r, error) != 0)
      goto fail;
  return job;

fail:
  tprof_hang_job_free (job);
  return NULL;
}

const TprofHangRankInput *
tprof_hang_job_ranks (const TprofHangJob *job, size_t *n_ranks)
{
  *n_ranks = job->n_ranks;
  return job->ranks;
}

size_t
tprof_hang_job_n_problems (const TprofHangJob *job)
{
  return job->n_problems;
}

const char *
tprof_hang_job_problem (const TprofHangJob *job, size_t i)
{
  return i < job->n_problems ? job->problems[i] : NULL;
}

void
tprof_hang_job_free (TprofHangJob *job)
{
  if (job == NULL)
    return;
  for (size_t r = 0; job->states != NULL && r < job->n_ranks; r++)
    tprof_hang_state_clear (&job->states[r]);
  for (size_t i = 0; i < job->n_problems; i++)
    free (job->problems[i]);
  free (job->problems);
  free (job->states);
  free (job->ranks);
  _tprof_spill_job_free (job->spill);
  free (job);
}
