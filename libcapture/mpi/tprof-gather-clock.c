/* tprof-gather-clock.c — the gather's timeline: each rank's clock offset to rank 0 by ping-pong over MPI (tprof-clock-sync.h), and the starts it sends on rank 0's clock. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tprof-gather-mpi-private.h"
#include "tprof-profiled-time-internal.h"

#define TAG_PING   0x7470
#define TAG_OFFSET 0x7471

static double test_skew;

/* Where the clocks are aligned: a communicator, this rank and its size. */
typedef struct
{
  MPI_Comm comm;
  int      rank;
  int      size;
} ClockComm;

void
_tprof_gather_set_test_clock_skew (double secs)
{
  test_skew = secs;
}

/* This rank's CLOCK_MONOTONIC, in seconds (as the recorded starts). */
static double
clock_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec + test_skew;
}

/* The child's side: its round trips to @parent, and what they give. */
static int
ping_parent (const ClockComm  *g,
             int               parent,
             TprofClockOffset *to_parent)
{
  double sent[TPROF_CLOCK_SYNC_PINGS], theirs[TPROF_CLOCK_SYNC_PINGS], received[TPROF_CLOCK_SYNC_PINGS];

  for (int i = 0; i < TPROF_CLOCK_SYNC_PINGS; i++)
    {
      int rc;

      sent[i] = clock_now ();
      theirs[i] = 0.0;
      rc = MPI_Send (&sent[i], 1, MPI_DOUBLE, parent, TAG_PING, g->comm);
      if (rc == MPI_SUCCESS)
        rc = MPI_Recv (&theirs[i], 1, MPI_DOUBLE, parent, TAG_PING, g->comm, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS)
        return rc;
      received[i] = clock_now ();
    }
  *to_parent = tprof_clock_offset_estimate (sent, theirs, received, TPROF_CLOCK_SYNC_PINGS);
  return MPI_SUCCESS;
}

static int
answer_child (const ClockComm *g,
              int              child)
{
  for (int i = 0; i < TPROF_CLOCK_SYNC_PINGS; i++)
    {
      double theirs, now;
      int rc = MPI_Recv (&theirs, 1, MPI_DOUBLE, child, TAG_PING, g->comm, MPI_STATUS_IGNORE);

      now = clock_now ();
      if (rc == MPI_SUCCESS)
        rc = MPI_Send (&now, 1, MPI_DOUBLE, child, TAG_PING, g->comm);
      if (rc != MPI_SUCCESS)
        return rc;
    }
  return MPI_SUCCESS;
}

/* The measuring rounds of the tree (tprof_clock_sync_role). */
static int
measure_to_parent (const ClockComm  *g,
                   TprofClockOffset *to_parent)
{
  for (int step = 1; step < g->size; step <<= 1)
    {
      int peer = 0, rc = MPI_SUCCESS;

      switch (tprof_clock_sync_role (g->rank, g->size, step, &peer))
        {
        case TPROF_CLOCK_SYNC_PARENT:
          rc = answer_child (g, peer);
          break;
        case TPROF_CLOCK_SYNC_CHILD:
          rc = ping_parent (g, peer, to_parent);
          break;
        case TPROF_CLOCK_SYNC_IDLE:
          break;
        }
      if (rc != MPI_SUCCESS)
        return rc;
    }
  return MPI_SUCCESS;
}

/* The composing rounds, the widest step first: a parent's offset to rank
 * 0 is known before it hands it to its child, which adds its own. */
static int
compose_to_root (const ClockComm  *g,
                 TprofClockOffset  to_parent,
                 TprofClockOffset *to_root)
{
  int top = 1;

  *to_root = (TprofClockOffset) { 0.0, 0.0 };
  while (top < g->size)
    top <<= 1;
  for (int step = top / 2; step >= 1; step /= 2)
    {
      double pair[2] = { to_root->offset, to_root->error };
      int peer = 0, rc = MPI_SUCCESS;

      switch (tprof_clock_sync_role (g->rank, g->size, step, &peer))
        {
        case TPROF_CLOCK_SYNC_PARENT:
          rc = MPI_Send (pair, 2, MPI_DOUBLE, peer, TAG_OFFSET, g->comm);
          break;
        case TPROF_CLOCK_SYNC_CHILD:
          rc = MPI_Recv (pair, 2, MPI_DOUBLE, peer, TAG_OFFSET, g->comm, MPI_STATUS_IGNORE);
          *to_root = tprof_clock_offset_compose (to_parent, (TprofClockOffset) { pair[0], pair[1] });
          break;
        case TPROF_CLOCK_SYNC_IDLE:
          break;
        }
      if (rc != MPI_SUCCESS)
        return rc;
    }
  return MPI_SUCCESS;
}

int
_tprof_mpi_clock_offset (MPI_Comm          comm,
                         TprofClockOffset *to_root)
{
  ClockComm cc = { comm, 0, 1 };
  TprofClockOffset to_parent = { 0.0, 0.0 };
  int rc = MPI_Comm_rank (comm, &cc.rank);

  *to_root = (TprofClockOffset) { 0.0, 0.0 };
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_size (comm, &cc.size);
  if (rc == MPI_SUCCESS)
    rc = measure_to_parent (&cc, &to_parent);
  if (rc == MPI_SUCCESS)
    rc = compose_to_root (&cc, to_parent, to_root);
  return rc;
}

int
_tprof_gather_sync_clocks (TprofGather *g,
                           TprofError  *error)
{
  TprofGatherTimeline *tl = &g->timeline;
  TprofClockOffset to_root = { 0.0, 0.0 };
  double mine[3], *all;
  struct timespec wall;
  int rc;

  tl->all = true;
  for (int r = 0; r < g->size; r++)
    tl->all = tl->all && g->meta[r * TPROF_GATHER_META_N + TPROF_GATHER_META_TIMELINE] != 0;
  if (!tl->all)
    return 0;  /* every rank knows: no timeline, no exchange */

  rc = _tprof_mpi_clock_offset (g->comm, &to_root);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Send/MPI_Recv", "aligning the clocks");
  tl->offset = to_root.offset;
  tl->error = to_root.error;

  clock_gettime (CLOCK_REALTIME, &wall);
  mine[0] = tl->offset;
  mine[1] = tl->error;
  mine[2] = (double) wall.tv_sec + 1e-9 * (double) wall.tv_nsec - clock_now ();
  all = malloc ((size_t) g->size * 3 * sizeof *all);
  if (all == NULL)
    return _tprof_gather_set_no_memory (error, "aligning the clocks");
  rc = MPI_Allgather (mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, g->comm);
  if (rc == MPI_SUCCESS && g->receiving)
    {
      tl->offsets = malloc ((size_t) g->size * sizeof *tl->offsets);
      tl->errors = malloc ((size_t) g->size * sizeof *tl->errors);
      for (int r = 0; tl->offsets != NULL && tl->errors != NULL && r < g->size; r++)
        {
          tl->offsets[r] = all[3 * r];
          tl->errors[r] = all[3 * r + 1];
        }
      tl->wall_minus_mono = all[2];
    }
  free (all);
  if (rc != MPI_SUCCESS)
    return _tprof_gather_set_mpi_error (error, rc, "MPI_Allgather", "sharing the clock offsets");
  if (g->receiving && (tl->offsets == NULL || tl->errors == NULL))
    return _tprof_gather_set_no_memory (error, "sharing the clock offsets");
  return 0;
}

double
_tprof_gather_place_start (const TprofGather *g, double start)
{
  return start + test_skew + g->timeline.offset;
}

int
_tprof_gather_local_timeline (TprofGather            *g,
                              const TprofGatherLocal *local,
                              TprofError             *error)
{
  TprofGatherTimeline *tl = &g->timeline;
  size_t n = (size_t) g->meta[g->rank * TPROF_GATHER_META_N + TPROF_GATHER_META_N_SAMPLES];
  size_t at = 0;

  if (!tl->all)
    return 0;
  tl->local_starts = malloc ((n > 0 ? n : 1) * sizeof *tl->local_starts);
  tl->local_threads = malloc ((n > 0 ? n : 1) * sizeof *tl->local_threads);
  if (tl->local_starts == NULL || tl->local_threads == NULL)
    return _tprof_gather_set_no_memory (error, "placing this rank's samples on the timeline");
  /* in the order the durations are sent: run after run */
  for (size_t k = 0; local->n_names > 0 && k < local->run_base[local->n_names]; k++)
    for (size_t i = 0; i < local->runs[k].n; i++, at++)
      {
        tl->local_starts[at] = _tprof_gather_place_start (g, local->runs[k].starts[i]);
        tl->local_threads[at] = local->runs[k].thread;
      }
  return 0;
}

void
_tprof_gather_timeline_clear (TprofGather *g)
{
  TprofGatherTimeline *tl = &g->timeline;

  for (size_t op = 0; op < g->n_ops; op++)
    {
      if (tl->op_starts != NULL)
        free (tl->op_starts[op]);
      if (tl->op_threads != NULL)
        free (tl->op_threads[op]);
    }
  free (tl->op_starts);
  free (tl->op_threads);
  free (tl->offsets);
  free (tl->errors);
  free (tl->local_starts);
  free (tl->local_threads);
  memset (tl, 0, sizeof *tl);
}

char *
_tprof_gather_origin_text (const TprofGather *g, double origin)
{
  return isfinite (origin) ? _tprof_wall_time_text (origin + g->timeline.wall_minus_mono) : NULL;
}

int
_tprof_gather_timeline_finish (TprofGather       *g,
                               TprofProfiledTime *pt,
                               TprofError        *error)
{
  TprofGatherTimeline *tl = &g->timeline;
  double origin = INFINITY;

  if (!tl->all)
    return 0;
  for (size_t op = 0; op < g->n_ops; op++)
    for (size_t i = 0; i < g->op_counts[op]; i++)
      origin = fmin (origin, tl->op_starts[op][i]);
  for (size_t op = 0; op < g->n_ops; op++)
    {
      /* the profile's operations are in the gather's order */
      TprofGatheredTime *gt = (TprofGatheredTime *) tprof_profiled_time_nth (pt, op);

      for (size_t i = 0; i < g->op_counts[op]; i++)
        tl->op_starts[op][i] -= origin;
      tprof_gathered_time_set_timeline_take (gt, tl->op_starts[op], tl->op_threads[op]);
      tl->op_starts[op] = NULL;
      tl->op_threads[op] = NULL;
    }
  tprof_profiled_time_set_timeline_take (pt, tl->offsets, tl->errors, _tprof_gather_origin_text (g, origin));
  tl->offsets = tl->errors = NULL;
  (void) error;
  return 0;
}
