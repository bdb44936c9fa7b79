/* test-topology.c — ranks grouped by host and topology levels, per-group totals, and the host, rank or no verdict on hand-made arrivals. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "stats-reference.h"

static void
assert_group (const TprofTopology *topo,
              size_t               level,
              size_t               g,
              const char          *name,
              const int32_t       *expected,
              size_t               n_expected)
{
  size_t n;
  const int32_t *ranks = tprof_topology_group_ranks (topo, level, g, &n);

  g_assert_cmpstr (tprof_topology_group_name (topo, level, g), ==, name);
  g_assert_cmpmem (ranks, n * sizeof *ranks, expected, n_expected * sizeof *expected);
  for (size_t i = 0; i < n; i++)
    g_assert_cmpuint (tprof_topology_group_of (topo, level, ranks[i]), ==, g);
}

/* Hosts numbered by their lowest rank; a rank without a name is a host of
 * its own. */
static void
test_hosts (void)
{
  const char *names[] = { "b", "a", "b", NULL, "", "a" };
  const char *same[] = { "x", "x", "x" }, *distinct[] = { "x", "y", "z" };
  TprofTopology *topo = tprof_topology_new (6, names, NULL);
  TprofError error = { 0 };

  g_assert_cmpuint (tprof_topology_n_levels (topo), ==, 2);
  g_assert_cmpstr (tprof_topology_level_name (topo, 1), ==, "host");
  g_assert_cmpuint (tprof_topology_n_groups (topo, TPROF_TOPOLOGY_HOST), ==, 4);
  assert_group (topo, 1, 0, "b", (const int32_t[]) { 0, 2 }, 2);
  assert_group (topo, 1, 1, "a", (const int32_t[]) { 1, 5 }, 2);
  assert_group (topo, 1, 2, "", (const int32_t[]) { 3 }, 1);
  assert_group (topo, 1, 3, "", (const int32_t[]) { 4 }, 1);
  assert_group (topo, 0, 4, NULL, (const int32_t[]) { 4 }, 1);
  g_assert_true (tprof_topology_has_hosts (topo));
  g_assert_cmpuint (tprof_topology_default_level (topo), ==, TPROF_TOPOLOGY_HOST);
  tprof_topology_free (topo);

  /* one host for all, or one rank a host: nothing to group by default */
  topo = tprof_topology_new (3, same, NULL);
  g_assert_cmpuint (tprof_topology_default_level (topo), ==, TPROF_TOPOLOGY_RANK);
  tprof_topology_free (topo);
  topo = tprof_topology_new (3, distinct, NULL);
  g_assert_false (tprof_topology_has_hosts (topo));
  g_assert_cmpuint (tprof_topology_default_level (topo), ==, TPROF_TOPOLOGY_RANK);
  tprof_topology_free (topo);
  g_assert_null (tprof_topology_new (0, NULL, &error));
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
}

static const char *const eight[] = { "n0", "n0", "n1", "n1", "n2", "n2", "n3", "n3" };

static int
parse (TprofTopology *topo,
       const char    *text,
       TprofError    *error)
{
  return tprof_topology_parse (topo, text, strlen (text), "topo.txt", error);
}

static void
test_parse (void)
{
  TprofTopology *topo = tprof_topology_new (8, eight, NULL);
  TprofError error = { 0 };

  g_assert_cmpint (parse (topo, "# racks\nlevels switch rack  # lowest first\n\n"
                                "host n0 s0 r0\nhost n1\ts0 r0\nhost n2 s1 r1\n"
                                "rank 6,7 s1 r1\nhost elsewhere s9 r9\n", &error), ==, 0);
  g_assert_cmpuint (tprof_topology_n_levels (topo), ==, 4);
  g_assert_cmpint (tprof_topology_find_level (topo, "rack"), ==, 3);
  g_assert_cmpint (tprof_topology_find_level (topo, "row"), ==, -1);
  assert_group (topo, 2, 0, "s0", (const int32_t[]) { 0, 1, 2, 3 }, 4);
  assert_group (topo, 3, 1, "r1", (const int32_t[]) { 4, 5, 6, 7 }, 4);
  g_assert_cmpuint (tprof_topology_default_level (topo), ==, 3);
  /* once only */
  g_assert_cmpint (parse (topo, "levels row\nrank 0-7 x\n", &error), ==, -1);
  g_assert_cmpint (error.code, ==, TPROF_ERROR_INVALID);
  tprof_topology_free (topo);
}

/* A refused file leaves the topology as it was, even when a lower level
 * had already been added. */
static void
test_parse_refused (void)
{
  TprofTopology *topo = tprof_topology_new (8, eight, NULL);
  TprofError error = { 0 };

  g_assert_cmpint (parse (topo, "levels switch rack\nrank 0-3 s0 r0\nrank 4-5 s1 r0\nrank 6-7 s1 r1\n", &error),
                   ==, -1);
  g_assert_cmpstr (error.message, ==, "topo.txt: switch s1 (rank 6) is in rack r0 and in rack r1: each switch "
                                      "lies in one rack");
  g_assert_cmpuint (tprof_topology_n_levels (topo), ==, 2);
  g_assert_cmpint (parse (topo, "levels rack\nrank 0-7 r0\n", &error), ==, 0);
  g_assert_cmpuint (tprof_topology_n_levels (topo), ==, 3);
  tprof_topology_free (topo);
}

static void
test_group_totals (void)
{
  TprofTopology *topo = tprof_topology_new (8, eight, NULL);
  const int64_t count[] = { 2, 3, 0, 0, 1, 1, 5, 0 };
  const double sum[] = { 1.0, 2.5, 0, 0, 0.25, 0.5, 4.0, 0 };
  const bool selected[] = { true, false, true, true, true, true, true, true };
  int64_t c[4];
  double s[4];
  size_t with[4];

  tprof_topology_group_totals (topo, TPROF_TOPOLOGY_HOST, count, sum, NULL, c, s, with);
  g_assert_cmpmem (c, sizeof c, ((int64_t[]) { 5, 0, 2, 5 }), sizeof c);
  g_assert_cmpmem (with, sizeof with, ((size_t[]) { 2, 0, 2, 1 }), sizeof with);
  g_assert_cmpfloat (s[0], ==, 3.5);
  g_assert_cmpfloat (s[2], ==, 0.75);
  tprof_topology_group_totals (topo, TPROF_TOPOLOGY_HOST, count, sum, selected, c, s, with);
  g_assert_cmpint (c[0], ==, 2);
  g_assert_cmpfloat (s[0], ==, 1.0);
  g_assert_cmpuint (with[0], ==, 1);
  tprof_topology_free (topo);
}

/* ---- the verdict ---- */

#define RANKS 16
#define OCCURRENCES 60

/* A collective on 16 ranks (two hosts of 8) at 60 occurrences: the rank
 * @late_of (k) arrives 2 ms after the others, who arrive within 1 ms, and
 * all leave together. */
static TprofStragglers *
collective (int (*late_of) (size_t k))
{
  size_t n = RANKS * OCCURRENCES;
  double *times = g_new (double, n), *starts = g_new (double, n);
  int32_t *ranks = g_new (int32_t, n), *threads = g_new0 (int32_t, n);
  TprofStragglers *s = tprof_stragglers_new (RANKS);
  TprofGatheredTime *gt;
  TprofArrival arrival;

  for (size_t i = 0; i < n; i++)
    {
      size_t k = i % OCCURRENCES;
      int32_t r = (int32_t) (i / OCCURRENCES);

      ranks[i] = r;
      starts[i] = (double) k + (r == late_of (k) ? 3e-3 : 1e-3 * (double) ((r * 7 + k) % 11) / 11.0);
      times[i] = (double) k + 4e-3 - starts[i];
    }
  gt = tprof_gathered_time_new_take (times, ranks, n);
  g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));
  g_assert_true (tprof_stragglers_add (s, gt, &arrival));
  g_assert_true (arrival.synchronising);
  tprof_gathered_time_free (gt);
  return s;
}

static int late_host (size_t k) { return 8 + (int) (k % 8); }     /* host 1's ranks in turn */
static int late_rank (size_t k) { (void) k; return 9; }           /* one rank of host 1 */
static int late_any (size_t k) { return (int) (k * 5 % RANKS); }  /* every rank in turn */
static int late_pair (size_t k) { return 8 + (int) (k % 2); }     /* two ranks of host 1 */

static TprofTopology *
two_hosts (void)
{
  const char *names[RANKS];

  for (int r = 0; r < RANKS; r++)
    names[r] = r < 8 ? "h0" : "h1";
  return tprof_topology_new (RANKS, names, NULL);
}

static void
decide (int                  (*late_of) (size_t),
        size_t                 level,
        TprofStragglerVerdict *v)
{
  TprofStragglers *s = collective (late_of);
  TprofTopology *topo = two_hosts ();
  uint64_t late[2];
  double wait[2], expected[2];

  g_assert_true (tprof_stragglers_decide (s, topo, level, v));
  tprof_stragglers_group_blame (s, topo, TPROF_TOPOLOGY_HOST, late, wait, expected);
  g_assert_cmpuint (late[0] + late[1], ==, OCCURRENCES);
  stats_assert_close (expected[0], OCCURRENCES / 2.0, 1e-12);
  if (v->kind == TPROF_STRAGGLER_VERDICT_GROUP)
    {
      g_assert_cmpuint (v->late_count, ==, late[v->group]);
      g_assert_cmpfloat (v->wait_caused, ==, wait[v->group]);
    }
  tprof_stragglers_free (s);
  tprof_topology_free (topo);
}

static void
test_verdict_host (void)
{
  TprofStragglerVerdict v;

  decide (late_host, TPROF_TOPOLOGY_HOST, &v);
  g_assert_cmpint (v.kind, ==, TPROF_STRAGGLER_VERDICT_GROUP);
  g_assert_cmpuint (v.level, ==, TPROF_TOPOLOGY_HOST);
  g_assert_cmpuint (v.group, ==, 1);
  g_assert_cmpuint (v.late_count, ==, OCCURRENCES);
  g_assert_cmpuint (v.occurrences, ==, OCCURRENCES);
  /* host 1 last 60 of 60 at chance 1/2, 2 hosts: 2 * 2^-60 */
  stats_assert_close (v.p_value, 2 * pow (0.5, 60), 1e-9);
  /* its latest rank, 8 lates of 60 (8 and 9..11 have 8, the rest 7):
   * 8 * P(X >= 8; 60, 1/8) is far from significant */
  g_assert_cmpint (v.latest_rank, >=, 8);
  g_assert_cmpfloat (v.spread_p_value, >=, TPROF_STRAGGLER_ALPHA);
  /* by rank alone, no rank stands out: 8 of 60 at 1/16, times 16 */
  decide (late_host, TPROF_TOPOLOGY_RANK, &v);
  g_assert_cmpint (v.kind, ==, TPROF_STRAGGLER_VERDICT_NONE);
  g_assert_cmpint (v.rank, ==, -1);
}

static void
test_verdict_rank (void)
{
  TprofStragglerVerdict v;

  decide (late_rank, TPROF_TOPOLOGY_HOST, &v);
  g_assert_cmpint (v.kind, ==, TPROF_STRAGGLER_VERDICT_RANK);
  g_assert_cmpint (v.rank, ==, 9);
  /* two slow ranks of eight: each holds half the host's lates, more than
   * its share, so a rank is named, not the host */
  decide (late_pair, TPROF_TOPOLOGY_HOST, &v);
  g_assert_cmpint (v.kind, ==, TPROF_STRAGGLER_VERDICT_RANK);
  g_assert_cmpint (v.rank == 8 || v.rank == 9, ==, TRUE);
}

static void
test_verdict_none (void)
{
  TprofStragglerVerdict v;

  decide (late_any, TPROF_TOPOLOGY_HOST, &v);
  g_assert_cmpint (v.kind, ==, TPROF_STRAGGLER_VERDICT_NONE);
  g_assert_true (isnan (v.p_value));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topology/hosts", test_hosts);
  g_test_add_func ("/topology/parse", test_parse);
  g_test_add_func ("/topology/parse-refused", test_parse_refused);
  g_test_add_func ("/topology/group-totals", test_group_totals);
  g_test_add_func ("/straggler/verdict-host", test_verdict_host);
  g_test_add_func ("/straggler/verdict-rank", test_verdict_rank);
  g_test_add_func ("/straggler/verdict-none", test_verdict_none);
  return g_test_run ();
}
