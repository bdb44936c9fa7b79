/* tprof-hang.c — the hang decision: the collective the most ranks are stalled in, the members that never entered it, and what every rank does. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-hang.h"

/* A stalled collective call of one rank. */
typedef struct
{
  int                  rank;
  const TprofHangCall *call;
  double               begin;    /* on the timeline */
} Stalled;

typedef struct
{
  const TprofHangRankInput *in;
  size_t                    n;
  double                    t0;
} Inputs;

static double
timeline (const Inputs *in, int rank, double t)
{
  return t + in->in[rank].clock_offset - in->t0;
}

/* The earliest spilling start on rank 0's clock: the timeline's 0. */
static double
timeline_origin (const TprofHangRankInput *ranks, size_t n)
{
  double t0 = INFINITY;

  for (size_t r = 0; r < n; r++)
    if (ranks[r].hostname != NULL && ranks[r].start + ranks[r].clock_offset < t0)
      t0 = ranks[r].start + ranks[r].clock_offset;
  return isfinite (t0) ? t0 : 0;
}

static bool
same_collective (const TprofHangCall *a, const TprofHangCall *b)
{
  return a->sequence == b->sequence && strcmp (a->communicator, b->communicator) == 0;
}

/* Every collective call in flight in a stalled state; NULL (with *@n 0)
 * when none or out of memory (*@failed). */
static Stalled *
collect_stalled (const Inputs *in, size_t *n, bool *failed)
{
  Stalled *all = NULL;
  size_t cap = 0;

  *n = 0;
  for (size_t r = 0; r < in->n; r++)
    {
      const TprofHangState *s = in->in[r].state;

      for (size_t c = 0; s != NULL && s->stalled && c < s->n_in_flight; c++)
        {
          if (s->in_flight[c].sequence == 0)
            continue;
          if (*n == cap)
            {
              Stalled *grown = realloc (all, (cap = cap * 2 + 8) * sizeof *all);

              if (grown == NULL)
                {
                  *failed = true;
                  free (all);
                  return NULL;
                }
              all = grown;
            }
          all[(*n)++] = (Stalled) { (int) r, &s->in_flight[c], timeline (in, (int) r, s->in_flight[c].begin) };
        }
    }
  return all;
}

/* The collective with the most ranks waiting in it; of equals, the one
 * waited in since the earliest. */
static const Stalled *
pick (const Stalled *all, size_t n)
{
  const Stalled *best = NULL;
  size_t best_count = 0;
  double best_begin = INFINITY;

  for (size_t i = 0; i < n; i++)
    {
      size_t count = 0;
      double begin = INFINITY;

      for (size_t j = 0; j < n; j++)
        if (same_collective (all[i].call, all[j].call))
          {
            count++;
            begin = fmin (begin, all[j].begin);
          }
      if (count > best_count || (count == best_count && begin < best_begin))
        {
          best = &all[i];
          best_count = count;
          best_begin = begin;
        }
    }
  return best;
}

static bool
calls_on (const TprofHangCall *calls, size_t n, const char *communicator, uint64_t sequence)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (calls[i].communicator, communicator) == 0 && (sequence == 0 || calls[i].sequence == sequence))
      return true;
  return false;
}

/* Whether @rank is a member of the picked collective's communicator: its
 * members when a waiting rank listed them, every rank for WORLD, else any
 * rank whose state shows a call on it. */
static bool
is_member (const Inputs *in, const Stalled *all, size_t n_all, const TprofHangCall *picked, int rank)
{
  const TprofHangState *s = in->in[rank].state;

  for (size_t i = 0; i < n_all; i++)
    if (same_collective (all[i].call, picked) && all[i].call->n_members > 0)
      {
        for (size_t m = 0; m < all[i].call->n_members; m++)
          if (all[i].call->members[m] == rank)
            return true;
        return false;
      }
  if (strcmp (picked->communicator, "WORLD") == 0)
    return true;
  return s != NULL
         && (calls_on (s->in_flight, s->n_in_flight, picked->communicator, 0)
             || calls_on (s->recent, s->n_recent, picked->communicator, 0));
}

static bool
is_waiting (const Stalled *all, size_t n_all, const TprofHangCall *picked, int rank)
{
  for (size_t i = 0; i < n_all; i++)
    if (all[i].rank == rank && same_collective (all[i].call, picked))
      return true;
  return false;
}

static void
describe_call (TprofHangRank *out, TprofHangDoingKind doing, const TprofHangCall *call, double since)
{
  out->doing = doing;
  out->function = call->function;
  out->communicator = call->communicator;
  out->sequence = call->sequence;
  out->since = since;
}

/* What @rank does: its oldest call in flight, else its open region, else
 * what it called last. */
static void
describe (const Inputs *in, int rank, TprofHangRank *out)
{
  const TprofHangState *s = in->in[rank].state;

  out->rank = rank;
  out->hostname = in->in[rank].hostname != NULL ? in->in[rank].hostname : "";
  out->doing = in->in[rank].hostname == NULL ? TPROF_HANG_DOING_NO_FILE : TPROF_HANG_DOING_UNKNOWN;
  out->function = out->communicator = "";
  out->sequence = 0;
  out->since = NAN;
  if (s == NULL)
    return;
  if (s->n_in_flight > 0)
    {
      const TprofHangCall *oldest = &s->in_flight[0];

      for (size_t c = 1; c < s->n_in_flight; c++)
        if (s->in_flight[c].begin < oldest->begin)
          oldest = &s->in_flight[c];
      describe_call (out, TPROF_HANG_DOING_CALL, oldest, timeline (in, rank, oldest->begin));
    }
  else if (s->region != NULL && s->region[0] != '\0')
    {
      out->doing = TPROF_HANG_DOING_REGION;
      out->function = s->region;
      out->since = timeline (in, rank, s->region_since);
    }
  else if (s->n_recent > 0)
    describe_call (out, TPROF_HANG_DOING_AFTER, &s->recent[s->n_recent - 1],
                   timeline (in, rank, s->recent[s->n_recent - 1].end));
}

/* Hosts in the order of their lowest rank, ranks ascending in each; ranks
 * without a file last. */
static int
host_order (const void *a, const void *b, void *data)
{
  const TprofHangRank *x = a, *y = b;
  const int *first = data;

  if (first[x->rank] != first[y->rank])
    return first[x->rank] - first[y->rank];
  return x->rank - y->rank;
}

static int
group_by_host (TprofHangRank *ranks, size_t n)
{
  int *first = malloc ((n + 1) * sizeof *first);

  if (first == NULL)
    return -1;
  for (size_t r = 0; r < n; r++)
    {
      first[r] = ranks[r].hostname[0] == '\0' ? (int) n : (int) r;
      for (size_t q = 0; q < r && first[r] == (int) r; q++)
        if (strcmp (ranks[q].hostname, ranks[r].hostname) == 0)
          first[r] = first[q];
    }
  qsort_r (ranks, n, sizeof *ranks, host_order, first);
  free (first);
  return 0;
}

/* Waiting and missing ranks of the picked collective, ascending. */
static int
classify (TprofHangReport *report, const Inputs *in, const Stalled *all, size_t n_all, const Stalled *picked)
{
  report->waiting = malloc ((in->n + 1) * sizeof (int));
  report->missing = malloc ((in->n + 1) * sizeof (int));
  if (report->waiting == NULL || report->missing == NULL)
    return -1;
  for (size_t r = 0; r < in->n; r++)
    {
      const TprofHangState *s = in->in[r].state;
      TprofHangRank *row = &report->ranks[r];

      if (is_waiting (all, n_all, picked->call, (int) r))
        row->role = TPROF_HANG_WAITING, report->waiting[report->n_waiting++] = (int) r;
      else if (is_member (in, all, n_all, picked->call, (int) r)
               && !(s != NULL
                    && calls_on (s->recent, s->n_recent, picked->call->communicator, picked->call->sequence)))
        row->role = TPROF_HANG_MISSING, report->missing[report->n_missing++] = (int) r;
    }
  report->hang = 1;
  report->function = picked->call->function;
  report->communicator = picked->call->communicator;
  report->sequence = picked->call->sequence;
  return 0;
}

TprofHangReport *
tprof_hang_decide (const TprofHangRankInput *ranks, size_t n)
{
  Inputs in = { ranks, n, timeline_origin (ranks, n) };
  TprofHangReport *report = calloc (1, sizeof *report);
  bool failed = false;
  size_t n_all = 0;
  Stalled *all;
  const Stalled *picked;

  if (report == NULL)
    return NULL;
  report->function = report->communicator = "";
  report->ranks = calloc (n + 1, sizeof *report->ranks);
  all = collect_stalled (&in, &n_all, &failed);
  if (report->ranks == NULL || failed)
    goto fail;
  report->n_ranks = n;
  for (size_t r = 0; r < n; r++)
    {
      describe (&in, (int) r, &report->ranks[r]);
      report->ranks[r].role = TPROF_HANG_OTHER;
    }
  picked = pick (all, n_all);
  if ((picked != NULL && classify (report, &in, all, n_all, picked) != 0) || group_by_host (report->ranks, n) != 0)
    goto fail;
  free (all);
  return report;

fail:
  free (all);
  tprof_hang_report_free (report);
  return NULL;
}

void
tprof_hang_report_free (TprofHangReport *report)
{
  if (report == NULL)
    return;
  free (report->waiting);
  free (report->missing);
  free (report->ranks);
  free (report);
}
