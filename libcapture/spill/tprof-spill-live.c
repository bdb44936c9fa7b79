/* tprof-spill-live.c — following a running job's spill files: each refresh reads only what was appended and feeds it to TprofLive. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tprof-live-internal.h"
#include "tprof-spill-live-internal.h"

/* What a read's callbacks need: the follower and the rank read. */
typedef struct
{
  TprofSpillLive *sl;
  int             rank;
  TprofError     *error;
} ReadContext;

/* When @path was last written; now when it is gone (a job that ends
 * cleanly removes its files once it wrote END). */
static double
file_mtime (const char *path)
{
  struct stat st;
  struct timespec now;

  if (stat (path, &st) == 0)
    return (double) st.st_mtim.tv_sec + (double) st.st_mtim.tv_nsec * 1e-9;
  clock_gettime (CLOCK_REALTIME, &now);
  return (double) now.tv_sec + (double) now.tv_nsec * 1e-9;
}

static int
on_names (void    *user_data,
          uint32_t first,
          uint32_t n)
{
  ReadContext *c = user_data;
  TprofSpillLive *sl = c->sl;
  const TprofSpillReader *reader = sl->job->readers[c->rank];
  size_t *grown = realloc (sl->op_map[c->rank], ((size_t) first + n) * sizeof *grown);

  if (grown == NULL)
    return tprof_error_set (c->error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
  sl->op_map[c->rank] = grown;
  for (uint32_t i = first; i < first + n; i++)
    {
      ssize_t op = tprof_live_operation (sl->live, _tprof_spill_reader_name (reader, i));

      if (op < 0)
        return tprof_error_set (c->error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
      grown[i] = (size_t) op;
    }
  sl->n_map[c->rank] = (size_t) first + n;
  return 0;
}

static int
on_samples (void         *user_data,
            uint32_t      op,
            int32_t       thread,
            size_t        n,
            const double *starts,
            const double *durations)
{
  ReadContext *c = user_data;
  TprofSpillLive *sl = c->sl;
  double offset = _tprof_spill_reader_header (sl->job->readers[c->rank])->clock_offset;

  (void) thread;
  if (op >= sl->n_map[c->rank])
    return 0;   /* the reader checks ids against NAMES; nothing to map otherwise */
  if (n > sl->n_scratch)
    {
      double *grown = realloc (sl->scratch, n * sizeof *grown);

      if (grown == NULL)
        return tprof_error_set (c->error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
      sl->scratch = grown;
      sl->n_scratch = n;
    }
  for (size_t i = 0; i < n; i++)
    sl->scratch[i] = starts[i] + offset;
  if (!tprof_live_add (sl->live, c->rank, sl->op_map[c->rank][op], n, sl->scratch, durations))
    return tprof_error_set (c->error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
  if (sl->sink != NULL)
    return sl->sink (sl->sink_data, sl->op_map[c->rank][op], c->rank, n, sl->scratch, durations, c->error);
  return 0;
}

static int
on_end (void       *user_data,
        double      when,
        const char *profile_path)
{
  ReadContext *c = user_data;
  TprofSpillLiveRank *rank = &c->sl->ranks[c->rank];

  (void) when;
  free (rank->profile_path);
  rank->profile_path = strdup (profile_path);
  if (rank->profile_path == NULL)
    return tprof_error_set (c->error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
  rank->ended = true;   /* done once all it has is read (finish_rank()) */
  return 0;
}

/* Opens rank @r's file when it appeared since, and it belongs to the job. */
static void
try_open (TprofSpillLive *sl,
          int             r)
{
  char *path = NULL;
  TprofError error = { 0 };
  TprofSpillReader *reader;
  const TprofSpillHeader *h;

  if (asprintf (&path, "%s/tprof-%s-%d.spill", sl->dir, sl->job->token, r) < 0)
    return;
  reader = _tprof_spill_reader_open (path, &error);
  tprof_error_clear (&error);
  h = reader != NULL ? _tprof_spill_reader_header (reader) : NULL;
  if (h != NULL && h->rank == r && h->world_size == sl->job->world_size)
    {
      sl->job->readers[r] = reader;
      sl->ranks[r].has_file = true;
      sl->ranks[r].last_flush = file_mtime (path);
      if (h->interval > sl->interval)
        sl->interval = h->interval;
      if (h->started_wall < sl->started)
        sl->started = h->started_wall;
    }
  else
    _tprof_spill_reader_close (reader);
  free (path);
}

/* Rank @r's read is delivered: its status taken in. */
static void
finish_rank (TprofSpillLive *sl,
             int             r)
{
  TprofSpillLiveRank *rank = &sl->ranks[r];
  const TprofSpillReadStatus *status = &sl->slices[r].status;

  rank->samples += status->samples;
  if (status->flushes > 0)
    {
      rank->flushes += status->flushes;
      rank->last_flush = file_mtime (_tprof_spill_reader_path (sl->job->readers[r]));
    }
  if (status->tail == TPROF_SPILL_TAIL_DAMAGED)
    {
      rank->damaged = true;
      rank->damaged_offset = status->tail_offset;
      snprintf (rank->problem, sizeof rank->problem, "%s", status->problem);
    }
  if (rank->damaged || rank->ended)
    tprof_live_rank_done (sl->live, r);
}

/* The next slice of rank @r's read; -1 with @error set. */
static int
read_slice (TprofSpillLive *sl,
            int             r,
            size_t          max_samples,
            TprofError     *error)
{
  static const TprofSpillVisitor visitor = { .samples = on_samples, .names = on_names, .end = on_end };
  ReadContext c = { sl, r, error };

  if (_tprof_spill_slice_next (&sl->slices[r], &visitor, &c, max_samples, error) < 0)
    return -1;
  if (sl->slices[r].done)
    finish_rank (sl, r);
  return 0;
}

/* Holds back what rank @r's read so far may still precede in each
 * operation, on rank 0's timeline. */
static void
hold_rank (TprofSpillLive *sl,
           int             r)
{
  const TprofSpillSlice *slice = &sl->slices[r];
  double offset = _tprof_spill_reader_header (sl->job->readers[r])->clock_offset;

  for (uint32_t id = 0; id < slice->n_ids && id < sl->n_map[r]; id++)
    {
      double bound = _tprof_spill_slice_bound (slice, id);

      if (bound < INFINITY)
        _tprof_live_hold (sl->live, r, sl->op_map[r][id], bound + offset);
    }
}

/* One slice of every rank's read in turn, then the occurrences they
 * complete, until every read is delivered: the samples waiting for the
 * other ranks stay a few slices, whatever a refresh finds. An occurrence
 * takes a sample only when no sample still to be read may start before
 * it, so the result is that of one update after every read. */
static int
read_ranks (TprofSpillLive *sl,
            const int      *active,
            int             n_active,
            TprofError     *error)
{
  size_t per_slice = sl->slice / (size_t) (n_active > 0 ? n_active : 1);
  bool more = true;

  if (per_slice < sl->slice_min)
    per_slice = sl->slice_min;
  while (more)
    {
      more = false;
      for (int i = 0; i < n_active; i++)
        if (!sl->slices[active[i]].done && read_slice (sl, active[i], per_slice, error) < 0)
          return -1;
      for (int i = 0; i < n_active; i++)
        if (!sl->slices[active[i]].done)
          {
            hold_rank (sl, active[i]);
            more = true;
          }
      if (more && !tprof_live_update (sl->live))
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
      _tprof_live_release (sl->live);
    }
  return 0;
}

static double
wall_now (void)
{
  struct timespec now;

  clock_gettime (CLOCK_REALTIME, &now);
  return (double) now.tv_sec + (double) now.tv_nsec * 1e-9;
}

/* Which ranks without a file are not reporting now (see the header). */
static void
mark_not_reporting (TprofSpillLive *sl)
{
  bool any = false, late;

  for (int r = 0; r < sl->job->world_size; r++)
    any |= sl->ranks[r].has_file;
  late = any && sl->interval > 0 && wall_now () - sl->started > TPROF_SPILL_LIVE_STOPPED_INTERVALS * sl->interval;
  for (int r = 0; r < sl->job->world_size; r++)
    {
      sl->ranks[r].not_reporting = !sl->ranks[r].has_file && late;
      tprof_live_rank_absent (sl->live, r, sl->ranks[r].not_reporting);
    }
}

int
_tprof_spill_live_refresh (TprofSpillLive *sl,
                           TprofError     *error)
{
  int n_active = 0;

  for (int r = 0; r < sl->job->world_size; r++)
    if (sl->job->readers[r] == NULL)
      try_open (sl, r);
  /* before reading: a rank back takes part from the occurrences not yet complete */
  mark_not_reporting (sl);
  for (int r = 0; r < sl->job->world_size; r++)
    {
      if (sl->job->readers[r] == NULL || sl->ranks[r].damaged || sl->ranks[r].ended)
        continue;
      if (_tprof_spill_slice_begin (&sl->slices[r], sl->job->readers[r], error) < 0)
        return -1;
      if (sl->slices[r].done)
        finish_rank (sl, r);
      else
        sl->active[n_active++] = r;
    }
  if (read_ranks (sl, sl->active, n_active, error) < 0)
    return -1;
  if (!tprof_live_update (sl->live))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
  return 0;
}

TprofSpillLive *
_tprof_spill_live_open (const char *dir,
                        const char *token,
                        TprofError *error)
{
  return _tprof_spill_live_open_full (dir, token, NULL, NULL, error);
}

TprofSpillLive *
_tprof_spill_live_open_full (const char               *dir,
                             const char               *token,
                             TprofSpillLiveSamplesFunc sink,
                             void                     *sink_data,
                             TprofError               *error)
{
  TprofSpillLive *sl = calloc (1, sizeof *sl);
  size_t world;

  if (sl == NULL || (sl->dir = strdup (dir)) == NULL)
    {
      free (sl);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
      return NULL;
    }
  sl->sink = sink;
  sl->sink_data = sink_data;
  sl->slice = TPROF_SPILL_LIVE_SLICE;
  sl->slice_min = TPROF_SPILL_LIVE_SLICE_MIN;
  sl->job = _tprof_spill_job_open (dir, token, error);
  if (sl->job == NULL)
    {
      _tprof_spill_live_free (sl);
      return NULL;
    }
  if (sl->job->world_size < 1)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: no usable spill file of job %s", dir, sl->job->token);
      _tprof_spill_live_free (sl);
      return NULL;
    }
  world = (size_t) sl->job->world_size;
  sl->started = wall_now ();
  sl->live = tprof_live_new (sl->job->world_size);
  sl->ranks = calloc (world, sizeof *sl->ranks);
  sl->op_map = calloc (world, sizeof *sl->op_map);
  sl->n_map = calloc (world, sizeof *sl->n_map);
  sl->slices = calloc (world, sizeof *sl->slices);
  sl->active = calloc (world, sizeof *sl->active);
  if (sl->live == NULL || sl->ranks == NULL || sl->op_map == NULL || sl->n_map == NULL || sl->slices == NULL
      || sl->active == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s", strerror (ENOMEM));
      _tprof_spill_live_free (sl);
      return NULL;
    }
  for (size_t r = 0; r < world; r++)
    if (sl->job->readers[r] != NULL)
      {
        const TprofSpillHeader *h = _tprof_spill_reader_header (sl->job->readers[r]);

        sl->ranks[r].has_file = true;
        sl->ranks[r].last_flush = file_mtime (_tprof_spill_reader_path (sl->job->readers[r]));
        if (h->interval > sl->interval)
          sl->interval = h->interval;
        if (h->started_wall < sl->started)
          sl->started = h->started_wall;
      }
  if (_tprof_spill_live_refresh (sl, error) < 0)
    {
      _tprof_spill_live_free (sl);
      return NULL;
    }
  return sl;
}

void
_tprof_spill_live_free (TprofSpillLive *sl)
{
  if (sl == NULL)
    return;
  for (int r = 0; sl->job != NULL && r < sl->job->world_size; r++)
    {
      if (sl->op_map != NULL)
        free (sl->op_map[r]);
      if (sl->ranks != NULL)
        free (sl->ranks[r].profile_path);
      if (sl->slices != NULL)
        _tprof_spill_slice_clear (&sl->slices[r]);
    }
  free (sl->slices);
  free (sl->active);
  free (sl->op_map);
  free (sl->n_map);
  free (sl->ranks);
  free (sl->scratch);
  tprof_live_free (sl->live);
  _tprof_spill_job_free (sl->job);
  free (sl->dir);
  free (sl);
}

bool
_tprof_spill_live_stopped (const TprofSpillLive *sl,
                           int                   r,
                           double                now)
{
  const TprofSpillLiveRank *rank = &sl->ranks[r];

  if (!rank->has_file || rank->ended || rank->damaged)
    return false;
  return now - rank->last_flush
         > TPROF_SPILL_LIVE_STOPPED_INTERVALS * _tprof_spill_reader_header (sl->job->readers[r])->interval;
}

bool
_tprof_spill_live_not_reporting (const TprofSpillLive *sl,
                                 int                   r)
{
  return sl->ranks[r].not_reporting;
}

bool
_tprof_spill_live_ended (const TprofSpillLive *sl)
{
  bool any = false;

  /* a rank whose file never appeared will not write END in it */
  for (int r = 0; r < sl->job->world_size; r++)
    {
      if (!sl->ranks[r].has_file)
        continue;
      if (!sl->ranks[r].ended)
        return false;
      any = true;
    }
  return any;
}
