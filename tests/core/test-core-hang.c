/* test-core-hang.c — the hang decision on synthesized rank states, against hand-worked answers, and the STATE payload's round trip through the call tracking. */
/* SPDX-License-Identifier: MIT */
#include <unistd.h>

#include <tprof/tprof-hang.h>
#include <tprof/tprof-timer.h>

#include "core-check.h"
#include "tprof-hang-watch-internal.h"

#define N 4

static TprofHangState states[N];
static TprofHangRankInput inputs[N];

/* Four ranks on hosts a, b, a, b; offsets 0, +1, -0.5, +2 s and starts
 * 1, 0.5, 2, -0.5 put every start at 1.0, 1.5, 1.5, 1.5 on rank 0's
 * clock: the timeline begins at 1.0. */
static void
reset (void)
{
  static const char *hosts[N] = { "a", "b", "a", "b" };
  static const double offsets[N] = { 0, 1, -0.5, 2 };
  static const double starts[N] = { 1, 0.5, 2, -0.5 };

  for (int r = 0; r < N; r++)
    {
      tprof_hang_state_clear (&states[r]);
      inputs[r] = (TprofHangRankInput) { r, hosts[r], offsets[r], starts[r], &states[r] };
    }
}

static TprofHangCall
call (const char *function, const char *comm, uint64_t sequence, double begin, double end)
{
  TprofHangCall c = { strdup (function), strdup (comm), sequence, begin, end, 0, NULL, 0 };

  return c;
}

static void
add (TprofHangCall **calls, size_t *n, TprofHangCall c)
{
  *calls = realloc (*calls, (*n + 1) * sizeof **calls);
  (*calls)[(*n)++] = c;
}

static void
stall (int rank, TprofHangCall c)
{
  states[rank].stalled = 1;
  if (states[rank].region == NULL)
    states[rank].region = strdup ("");
  add (&states[rank].in_flight, &states[rank].n_in_flight, c);
}

static void
past (int rank, TprofHangCall c)
{
  if (states[rank].region == NULL)
    states[rank].region = strdup ("");
  add (&states[rank].recent, &states[rank].n_recent, c);
}

static void
check_ranks (const int *expected, size_t n_expected, const int *got, size_t n_got)
{
  CHECK_INT_EQ (n_expected, n_got);
  for (size_t i = 0; i < n_expected; i++)
    CHECK_INT_EQ (expected[i], got[i]);
}

/* Every rank past its last collective, none stalled: no hang; each does
 * "after" its last call, since its end moved onto the timeline. */
static void
test_no_hang (void)
{
  TprofHangReport *report;

  reset ();
  for (int r = 0; r < N; r++)
    past (r, call ("MPI_Allreduce", "WORLD", 5, 9.0, 10.0));
  report = tprof_hang_decide (inputs, N);
  CHECK (report != NULL);
  CHECK_INT_EQ (0, report->hang);
  CHECK_INT_EQ (0, report->n_waiting);
  CHECK_INT_EQ (0, report->n_missing);
  CHECK_INT_EQ (N, report->n_ranks);
  /* hosts a (ranks 0, 2) then b (1, 3) */
  CHECK_INT_EQ (0, report->ranks[0].rank);
  CHECK_INT_EQ (2, report->ranks[1].rank);
  CHECK_INT_EQ (1, report->ranks[2].rank);
  CHECK_INT_EQ (3, report->ranks[3].rank);
  CHECK_INT_EQ (TPROF_HANG_DOING_AFTER, report->ranks[0].doing);
  /* rank 1: 10 + 1 - 1 */
  CHECK_DOUBLE_NEAR (10.0, report->ranks[2].since, 1e-12);
  /* rank 3: 10 + 2 - 1 */
  CHECK_DOUBLE_NEAR (11.0, report->ranks[3].since, 1e-12);
  tprof_hang_report_free (report);
}

/* Ranks 0, 1, 3 wait in WORLD's third collective; rank 2 left the second
 * at 4.0 of its clock and called nothing since. */
static void
test_missing_on_world (void)
{
  static const int waiting[] = { 0, 1, 3 }, missing[] = { 2 };
  TprofHangReport *report;
  const TprofHangRank *two;

  reset ();
  for (int r = 0; r < N; r++)
    past (r, call ("MPI_Allreduce", "WORLD", 2, 3.5, r == 2 ? 4.0 : 4.5));
  stall (0, call ("MPI_Allreduce", "WORLD", 3, 5.0, NAN));
  stall (1, call ("MPI_Allreduce", "WORLD", 3, 5.1, NAN));
  stall (3, call ("MPI_Allreduce", "WORLD", 3, 5.2, NAN));
  report = tprof_hang_decide (inputs, N);
  CHECK (report->hang);
  CHECK (strcmp (report->function, "MPI_Allreduce") == 0);
  CHECK (strcmp (report->communicator, "WORLD") == 0);
  CHECK_INT_EQ (3, report->sequence);
  check_ranks (waiting, 3, report->waiting, report->n_waiting);
  check_ranks (missing, 1, report->missing, report->n_missing);
  two = &report->ranks[1];
  CHECK_INT_EQ (2, two->rank);
  CHECK (strcmp (two->hostname, "a") == 0);
  CHECK_INT_EQ (TPROF_HANG_MISSING, two->role);
  CHECK_INT_EQ (TPROF_HANG_DOING_AFTER, two->doing);
  CHECK_INT_EQ (2, two->sequence);
  /* 4.0 - 0.5 - 1.0 */
  CHECK_DOUBLE_NEAR (2.5, two->since, 1e-12);
  /* rank 3 waits since 5.2 + 2 - 1 */
  CHECK_INT_EQ (TPROF_HANG_WAITING, report->ranks[3].role);
  CHECK_DOUBLE_NEAR (6.2, report->ranks[3].since, 1e-12);
  tprof_hang_report_free (report);
}

/* Two collectives stalled: three ranks in WORLD's seventh, rank 3 in a
 * barrier on the part {2, 3} of WORLD's first split. The one the most
 * wait in is named; rank 3 is missing from it, and busy in the other. */
static void
test_two_communicators (void)
{
  static const int waiting[] = { 0, 1, 2 }, missing[] = { 3 };
  TprofHangCall barrier = call ("MPI_Barrier", "WORLD.1#2", 4, 7.0, NAN);
  TprofHangReport *report;

  barrier.members = malloc (2 * sizeof (int32_t));
  barrier.members[0] = 2;
  barrier.members[1] = 3;
  barrier.n_members = 2;
  reset ();
  for (int r = 0; r < 3; r++)
    stall (r, call ("MPI_Allreduce", "WORLD", 7, 8.0, NAN));
  stall (3, barrier);
  report = tprof_hang_decide (inputs, N);
  CHECK (report->hang);
  CHECK (strcmp (report->communicator, "WORLD") == 0);
  CHECK_INT_EQ (7, report->sequence);
  check_ranks (waiting, 3, report->waiting, report->n_waiting);
  check_ranks (missing, 1, report->missing, report->n_missing);
  CHECK_INT_EQ (3, report->ranks[3].rank);
  CHECK_INT_EQ (TPROF_HANG_DOING_CALL, report->ranks[3].doing);
  CHECK (strcmp (report->ranks[3].function, "MPI_Barrier") == 0);
  CHECK (strcmp (report->ranks[3].communicator, "WORLD.1#2") == 0);
  CHECK_INT_EQ (4, report->ranks[3].sequence);
  /* 7.0 + 2 - 1 */
  CHECK_DOUBLE_NEAR (8.0, report->ranks[3].since, 1e-12);
  tprof_hang_report_free (report);
}

/* A broadcast on {0, 1}, WORLD's second split: rank 0 waits, rank 1 is in
 * a receive on WORLD instead; ranks 2 and 3 are not members and are not
 * named missing. */
static void
test_missing_on_other_communicator (void)
{
  static const int waiting[] = { 0 }, missing[] = { 1 };
  TprofHangCall bcast = call ("MPI_Bcast", "WORLD.2#0", 1, 3.0, NAN);
  TprofHangReport *report;

  bcast.members = malloc (2 * sizeof (int32_t));
  bcast.members[0] = 0;
  bcast.members[1] = 1;
  bcast.n_members = 2;
  reset ();
  stall (0, bcast);
  stall (1, call ("MPI_Recv", "WORLD", 0, 2.5, NAN));
  past (2, call ("MPI_Allreduce", "WORLD", 9, 1.0, 2.0));
  past (3, call ("MPI_Allreduce", "WORLD", 9, 1.0, 2.0));
  report = tprof_hang_decide (inputs, N);
  CHECK (report->hang);
  CHECK (strcmp (report->function, "MPI_Bcast") == 0);
  CHECK (strcmp (report->communicator, "WORLD.2#0") == 0);
  CHECK_INT_EQ (1, report->sequence);
  check_ranks (waiting, 1, report->waiting, report->n_waiting);
  check_ranks (missing, 1, report->missing, report->n_missing);
  CHECK_INT_EQ (1, report->ranks[2].rank);
  CHECK (strcmp (report->ranks[2].function, "MPI_Recv") == 0);
  /* 2.5 + 1 - 1 */
  CHECK_DOUBLE_NEAR (2.5, report->ranks[2].since, 1e-12);
  CHECK_INT_EQ (TPROF_HANG_OTHER, report->ranks[1].role);
  tprof_hang_report_free (report);
}

/* The root of a broadcast entered it and left: not missing. A rank
 * without a spill file is missing, and said to have none. */
static void
test_left_and_no_file (void)
{
  static const int waiting[] = { 1, 2 }, missing[] = { 3 };
  TprofHangReport *report;

  reset ();
  past (0, call ("MPI_Bcast", "WORLD", 4, 1.0, 1.1));
  stall (1, call ("MPI_Bcast", "WORLD", 4, 1.0, NAN));
  stall (2, call ("MPI_Bcast", "WORLD", 4, 1.0, NAN));
  inputs[3].hostname = NULL;
  inputs[3].state = NULL;
  report = tprof_hang_decide (inputs, N);
  check_ranks (waiting, 2, report->waiting, report->n_waiting);
  check_ranks (missing, 1, report->missing, report->n_missing);
  /* hosts a (0, 2), b (1), then the rank without a file */
  CHECK_INT_EQ (3, report->ranks[3].rank);
  CHECK_INT_EQ (TPROF_HANG_DOING_NO_FILE, report->ranks[3].doing);
  CHECK (isnan (report->ranks[3].since));
  tprof_hang_report_free (report);
}

/* Rank 1 of 4 creates WORLD.1#1 = {1, 3} by a split, is stalled in its
 * second collective there; the payload says so. */
static void
test_state_round_trip (void)
{
  static const int32_t members[] = { 1, 3 };
  TprofHangState state;
  TprofError error = { 0 };
  uint64_t token;
  uint8_t *payload;
  size_t len = 0;

  _tprof_hang_track_start (1, 4, 0x100, 0x200);
  token = _tprof_hang_call_begin_now ("MPI_Comm_split", TPROF_HANG_COLLECTIVE, 0x100);
  _tprof_hang_call_end_now (token);
  _tprof_hang_comm_created (0x100, 0x300, 1, members, 2);
  CHECK (strcmp (_tprof_hang_comm_label (0x300), "WORLD.1#1") == 0);
  _tprof_hang_call_end_now (_tprof_hang_call_begin_now ("MPI_Barrier", TPROF_HANG_COLLECTIVE, 0x300));
  _tprof_hang_call_end_now (_tprof_hang_call_begin_now ("MPI_Send", TPROF_HANG_POINT, 0x300));
  token = _tprof_hang_call_begin_now ("MPI_Allreduce", TPROF_HANG_COLLECTIVE, 0x300);
  payload = _tprof_hang_state_encode (1, 123.0, 5.0, &len);
  CHECK (payload != NULL);
  CHECK_INT_EQ (0, tprof_hang_state_decode (payload, len, &state, &error));
  CHECK_INT_EQ (1, state.stalled);
  CHECK_DOUBLE_EQ (123.0, state.when);
  CHECK_DOUBLE_EQ (5.0, state.timeout);
  CHECK_INT_EQ (1, state.n_in_flight);
  CHECK (strcmp (state.in_flight[0].function, "MPI_Allreduce") == 0);
  CHECK (strcmp (state.in_flight[0].communicator, "WORLD.1#1") == 0);
  CHECK_INT_EQ (2, state.in_flight[0].sequence);
  CHECK (isnan (state.in_flight[0].end));
  CHECK_INT_EQ (2, state.in_flight[0].n_members);
  CHECK_INT_EQ (3, state.in_flight[0].members[1]);
  CHECK_INT_EQ (3, state.n_recent);
  CHECK (strcmp (state.recent[0].communicator, "WORLD") == 0);
  CHECK_INT_EQ (1, state.recent[0].sequence);
  CHECK_INT_EQ (0, state.recent[2].sequence);
  CHECK (state.recent[2].begin >= state.recent[1].end - 1e-6);
  /* every byte short of the whole is refused, never read past */
  for (size_t cut = 0; cut < len; cut++)
    {
      TprofHangState partial;

      CHECK_INT_EQ (-1, tprof_hang_state_decode (payload, cut, &partial, &error));
      CHECK (error.code == TPROF_ERROR_FORMAT);
    }
  tprof_hang_state_clear (&state);
  free (payload);
  _tprof_hang_call_end_now (token);
}

/* The open region a STATE payload taken now records: its name into
 * @name, its start into *@since. */
static void
encoded_region (char *name, size_t size, double *since)
{
  TprofHangState state;
  TprofError error = { 0 };
  size_t len = 0;
  uint8_t *payload = _tprof_hang_state_encode (0, 1.0, 5.0, &len);

  CHECK (payload != NULL);
  CHECK_INT_EQ (0, tprof_hang_state_decode (payload, len, &state, &error));
  snprintf (name, size, "%s", state.region);
  *since = state.region_since;
  tprof_hang_state_clear (&state);
  free (payload);
}

/* Tracking on: the innermost open region (a timer, a scope, or noted
 * directly) is in the state with its start converted as the clock
 * converts it; a region closed out of order leaves the innermost; none
 * open, the field is empty. */
static void
test_open_region (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  int outer = _tprof_name_intern ("outer"), inner = _tprof_name_intern ("inner");
  int64_t t0 = tprof_clock_ticks (), t1 = t0 + 1000;
  char name[64];
  double since;

  tprof_time_manager_enable (tm);
  encoded_region (name, sizeof name, &since);
  CHECK (strcmp (name, "") == 0 && isnan (since));
  _tprof_hang_region_open (outer, t0);
  _tprof_hang_region_open (inner, t1);
  encoded_region (name, sizeof name, &since);
  CHECK (strcmp (name, "inner") == 0);
  CHECK (fabs (since - tprof_clock_ticks_to_secs (t1)) < 1e-9);
  /* the outer closed first: the inner stays the innermost */
  _tprof_hang_region_close (outer, t0);
  encoded_region (name, sizeof name, &since);
  CHECK (strcmp (name, "inner") == 0);
  _tprof_hang_region_close (inner, t1);
  encoded_region (name, sizeof name, &since);
  CHECK (strcmp (name, "") == 0);
  {
    TprofTimer solve = tprof_timer_start (tm, "solve");

    {
      TPROF_SCOPE ("assemble");
      encoded_region (name, sizeof name, &since);
      CHECK (strcmp (name, "assemble") == 0);
    }
    encoded_region (name, sizeof name, &since);
    CHECK (strcmp (name, "solve") == 0);
    CHECK (fabs (since - tprof_clock_ticks_to_secs (solve.start_ticks)) < 1e-9);
    tprof_timer_stop (&solve);
  }
  encoded_region (name, sizeof name, &since);
  CHECK (strcmp (name, "") == 0);
  /* an MPI call's timer (the preload's) is a call, not a region */
  {
    static TprofSite site = { "MPI_Send", 0 };
    TprofTimer call = _tprof_timer_start_call (tm, &site);

    encoded_region (name, sizeof name, &since);
    CHECK (strcmp (name, "") == 0);
    tprof_timer_stop (&call);
  }
  tprof_time_manager_free (tm);
}

/* The STATE records in @fd's file, in order: their flags (bit 0:
 * stalled) into @flags; their number. */
static int
state_flags (int fd, uint32_t *flags, int max)
{
  uint8_t buffer[65536];
  ssize_t len = pread (fd, buffer, sizeof buffer, 0);
  int n = 0;

  for (ssize_t at = 0; at + 16 <= len && n < max;)
    {
      uint16_t type;
      uint32_t payload;

      memcpy (&type, buffer + at + 4, 2);
      memcpy (&payload, buffer + at + 8, 4);
      if (type == 6)
        memcpy (&flags[n++], buffer + at + 16 + 4, 4);
      at += 16 + ((payload + 7) & ~7u);
    }
  return n;
}

/* The watchdog writes once per hang: a call in flight past the timeout
 * gives one stalled state however long it stays, its end one more that
 * clears it, and a rank then idle nothing more (its state is unchanged). */
static void
test_watchdog_once_per_hang (void)
{
  char path[] = "/tmp/test-core-hang-XXXXXX";
  int fd = mkstemp (path);
  uint32_t flags[8];
  uint64_t token;

  CHECK (fd >= 0);
  unlink (path);
  CHECK_INT_EQ (0, _tprof_hang_watch_start (0.2, fd, 1));
  token = _tprof_hang_call_begin_now ("MPI_Barrier", TPROF_HANG_COLLECTIVE, 0x100);
  usleep (1200 * 1000);
  CHECK_INT_EQ (1, state_flags (fd, flags, 8));
  CHECK_INT_EQ (1, flags[0] & 1);
  _tprof_hang_call_end_now (token);
  usleep (1200 * 1000);
  _tprof_hang_watch_stop ();
  CHECK_INT_EQ (2, state_flags (fd, flags, 8));
  CHECK_INT_EQ (0, flags[1] & 1);
  close (fd);
}

/* The regions of the STATE records in @fd's file, in order, into
 * @regions (@max of @size bytes each); their number. */
static int
state_regions (int fd, char (*regions)[64], int max)
{
  static uint8_t buffer[65536];
  ssize_t len = pread (fd, buffer, sizeof buffer, 0);
  int n = 0;

  for (ssize_t at = 0; at + 16 <= len && n < max;)
    {
      uint16_t type;
      uint32_t payload;

      memcpy (&type, buffer + at + 4, 2);
      memcpy (&payload, buffer + at + 8, 4);
      if (type == 6)
        {
          TprofHangState state;
          TprofError error = { 0 };

          CHECK_INT_EQ (0, tprof_hang_state_decode (buffer + at + 16, payload, &state, &error));
          snprintf (regions[n++], 64, "%s", state.region);
          tprof_hang_state_clear (&state);
        }
      at += 16 + ((payload + 7) & ~7u);
    }
  return n;
}

/* A rank outside MPI that only moves from one region to another, no call
 * begun or ended: the state written last names the region it is in now,
 * not the one it was in when it went quiet; a rank then still writes
 * nothing more. */
static void
test_watchdog_region_change (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();
  char path[] = "/tmp/test-core-hang-XXXXXX";
  int fd = mkstemp (path);
  char regions[8][64];
  int n;

  CHECK (fd >= 0);
  unlink (path);
  tprof_time_manager_enable (tm);
  CHECK_INT_EQ (0, _tprof_hang_watch_start (0.2, fd, 1));
  {
    TprofTimer first = tprof_timer_start (tm, "phase-one");

    usleep (1200 * 1000);
    CHECK_INT_EQ (1, state_regions (fd, regions, 8));
    CHECK_STR_EQ ("phase-one", regions[0]);
    tprof_timer_stop (&first);
  }
  {
    TprofTimer second = tprof_timer_start (tm, "phase-two");

    usleep (1200 * 1000);
    n = state_regions (fd, regions, 8);
    CHECK_INT_EQ (2, n);
    CHECK_STR_EQ ("phase-two", regions[n - 1]);
    usleep (800 * 1000);
    CHECK_INT_EQ (2, state_regions (fd, regions, 8));
    tprof_timer_stop (&second);
  }
  usleep (1200 * 1000);
  _tprof_hang_watch_stop ();
  n = state_regions (fd, regions, 8);
  CHECK_INT_EQ (3, n);
  CHECK_STR_EQ ("", regions[n - 1]);
  tprof_time_manager_free (tm);
  close (fd);
}

int
main (void)
{
  test_no_hang ();
  test_missing_on_world ();
  test_two_communicators ();
  test_missing_on_other_communicator ();
  test_left_and_no_file ();
  test_state_round_trip ();
  test_open_region ();
  test_watchdog_once_per_hang ();
  test_watchdog_region_change ();
  reset ();
  for (int r = 0; r < N; r++)
    tprof_hang_state_clear (&states[r]);
  return 0;
}
