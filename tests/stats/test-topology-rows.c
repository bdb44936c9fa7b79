/* test-topology-rows.c — a chart's rows gathered by host, a heat map's rows merged by their largest value, per-host totals and means, and a chart's bars of hosts, against hand-computed values and numpy. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "stats-reference.h"

/* 10 ranks on 5 hosts of 2, hosts interleaved: rank r on host r % 5. */
static const char *const interleaved[] = { "h0", "h1", "h2", "h3", "h4", "h0", "h1", "h2", "h3", "h4" };

/* Few enough hosts: one row each, in host order; hosts without a shown
 * rank get none. */
static void
test_bin_one_per_group (void)
{
  TprofTopology *topo = tprof_topology_new (10, interleaved, NULL);
  bool selected[10] = { 0 };
  size_t group_bin[5], first[8], last[8];

  g_assert_cmpuint (tprof_topology_bin_groups (topo, TPROF_TOPOLOGY_HOST, NULL, 8, group_bin, first, last), ==, 5);
  for (size_t g = 0; g < 5; g++)
    {
      g_assert_cmpuint (group_bin[g], ==, g);
      g_assert_cmpuint (first[g], ==, g);
      g_assert_cmpuint (last[g], ==, g);
    }
  /* ranks 6 (h1) and 3 (h3) shown: two rows, h1 then h3 */
  selected[6] = selected[3] = true;
  g_assert_cmpuint (tprof_topology_bin_groups (topo, TPROF_TOPOLOGY_HOST, selected, 8, group_bin, first, last), ==, 2);
  g_assert_cmpuint (group_bin[0], ==, SIZE_MAX);
  g_assert_cmpuint (group_bin[1], ==, 0);
  g_assert_cmpuint (group_bin[2], ==, SIZE_MAX);
  g_assert_cmpuint (group_bin[3], ==, 1);
  g_assert_cmpuint (group_bin[4], ==, SIZE_MAX);
  g_assert_cmpuint (first[0], ==, 1);
  g_assert_cmpuint (last[1], ==, 3);
  /* nothing shown, or no room: no row */
  memset (selected, 0, sizeof selected);
  g_assert_cmpuint (tprof_topology_bin_groups (topo, TPROF_TOPOLOGY_HOST, selected, 8, group_bin, first, last), ==, 0);
  g_assert_cmpuint (tprof_topology_bin_groups (topo, TPROF_TOPOLOGY_HOST, NULL, 0, group_bin, first, last), ==, 0);
  tprof_topology_free (topo);
}

/* More groups than rows: 10 ranks into 4 rows take 3, 2, 3, 2 ranks
 * (row of the k-th = floor (4 k / 10)), consecutive. */
static void
test_bin_blocks (void)
{
  TprofTopology *topo = tprof_topology_new (10, NULL, NULL);
  size_t group_bin[10], first[4], last[4];
  const size_t expected[10] = { 0, 0, 0, 1, 1, 2, 2, 2, 3, 3 };

  g_assert_cmpuint (tprof_topology_bin_groups (topo, TPROF_TOPOLOGY_RANK, NULL, 4, group_bin, first, last), ==, 4);
  g_assert_cmpmem (group_bin, sizeof group_bin, expected, sizeof expected);
  g_assert_cmpuint (first[1], ==, 3);
  g_assert_cmpuint (last[1], ==, 4);
  g_assert_cmpuint (first[3], ==, 8);
  g_assert_cmpuint (last[3], ==, 9);
  tprof_topology_free (topo);
}

/* Merged cells hold their rows' largest finite value, NaN where none has
 * one; a row sent nowhere is left out. */
static void
test_merge_rows (void)
{
  const double cells[] = {
    1.0, NAN, 3.0,
    2.0, NAN, -1.0,
    9.0, 9.0, 9.0,   /* row 2: left out */
    -4.0, 5.0, NAN,
  };
  const size_t row_bin[] = { 0, 0, SIZE_MAX, 1 };
  const double expected[] = { 2.0, NAN, 3.0, -4.0, 5.0, NAN };
  double out[6];

  tprof_heatmap_merge_rows (cells, 4, 3, row_bin, 2, out);
  for (size_t i = 0; i < 6; i++)
    if (isnan (expected[i]))
      g_assert_true (isnan (out[i]));
    else
      g_assert_cmpfloat (out[i], ==, expected[i]);
}

/* Per host: the shown ranks' samples and time, their mean, NaN without
 * samples (hand-computed: h0 = ranks 0 and 5, h1 = 1 and 6, ...). */
static void
test_group_summaries (void)
{
  TprofTopology *topo = tprof_topology_new (10, interleaved, NULL);
  const int64_t count[10] = { 2, 1, 0, 4, 1, 2, 3, 0, 4, 0 };
  const double sum[10] = { 2.0, 0.5, 0.0, 4.0, 1.0, 6.0, 1.5, 0.0, 2.0, 0.0 };
  bool selected[10] = { 0 };
  TprofGroupTotals out[5];

  tprof_topology_group_summaries (topo, TPROF_TOPOLOGY_HOST, count, sum, NULL, out);
  g_assert_cmpuint (out[0].ranks_shown, ==, 2);
  g_assert_cmpint (out[0].count, ==, 4);
  g_assert_cmpfloat (out[0].sum, ==, 8.0);
  g_assert_cmpfloat (out[0].mean, ==, 2.0);
  g_assert_cmpint (out[1].count, ==, 4);
  g_assert_cmpfloat (out[1].mean, ==, 0.5);
  g_assert_cmpint (out[3].count, ==, 8);
  g_assert_cmpfloat (out[3].mean, ==, 0.75);
  g_assert_cmpint (out[4].count, ==, 1);
  /* ranks 5 (h0) and 7 (h2, no samples) shown */
  selected[5] = selected[7] = true;
  tprof_topology_group_summaries (topo, TPROF_TOPOLOGY_HOST, count, sum, selected, out);
  g_assert_cmpuint (out[0].ranks_shown, ==, 1);
  g_assert_cmpfloat (out[0].mean, ==, 3.0);
  g_assert_cmpuint (out[2].ranks_shown, ==, 1);
  g_assert_cmpint (out[2].count, ==, 0);
  g_assert_true (isnan (out[2].mean));
  g_assert_cmpuint (out[1].ranks_shown, ==, 0);
  tprof_topology_free (topo);
}

/* 40 ranks on 10 hosts of 4 ("h0" has ranks 0-3), random samples. */
static TprofTopology *
hosts_of_four (void)
{
  const char *names[40];
  char *owned[40];
  TprofTopology *topo;

  for (int r = 0; r < 40; r++)
    names[r] = owned[r] = g_strdup_printf ("h%d", r / 4);
  topo = tprof_topology_new (40, names, NULL);
  for (int r = 0; r < 40; r++)
    g_free (owned[r]);
  return topo;
}

/* The rank summaries of @times and @ranks but those of rank @excluded. */
static TprofRankSummary *
summaries_without (const double  *times,
                   const int32_t *ranks,
                   gsize          n,
                   int32_t        excluded,
                   gsize         *n_out)
{
  g_autoptr(TprofGatheredTime) gt = tprof_gathered_time_new (times, ranks, n);
  TprofRankSummary *summaries = NULL;
  gsize kept = 0, n_ranks = tprof_gathered_time_rank_summaries (gt, &summaries);

  for (gsize i = 0; i < n_ranks; i++)
    if (summaries[i].rank != excluded)
      summaries[kept++] = summaries[i];
  *n_out = kept;
  return summaries;
}

static void
assert_summary (const TprofRankSummary *actual,
                const double           *expected)
{
  g_assert_cmpuint (actual->count, ==, (gsize) expected[0]);
  stats_assert_close (actual->sum, expected[1], 1e-12);
  stats_assert_close (actual->mean, expected[2], 1e-12);
  stats_assert_close (actual->std, expected[3], 1e-9);
  stats_assert_close (actual->min, expected[4], 0);
  stats_assert_close (actual->max, expected[5], 0);
}

/* Few hosts: a bar each, summarising its ranks' samples together as numpy
 * does on the samples themselves (rank 5 left out: h1 has 3 ranks). */
static void
test_group_bars_per_host (void)
{
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  const char *args[] = { "4", "5", NULL };
  g_autoptr(StatsReference) ref = NULL;
  g_autofree TprofRankSummary *summaries = NULL;
  TprofTopology *topo = hosts_of_four ();
  TprofGroupBar bars[16];
  gsize n_summaries;

  stats_random_samples (20000, 40, &times, &ranks);
  ref = stats_reference_run ("host-summaries", times, ranks, 20000, args);
  summaries = summaries_without (times, ranks, 20000, 5, &n_summaries);
  g_assert_cmpuint (n_summaries, ==, 39);
  g_assert_cmpuint (tprof_topology_group_bars (topo, TPROF_TOPOLOGY_HOST, summaries, n_summaries, false, 16, bars),
                    ==, 10);
  for (gsize h = 0; h < 10; h++)
    {
      g_autofree char *name = g_strdup_printf ("host_%zu", h);
      gsize n;

      g_assert_cmpuint (bars[h].first_group, ==, h);
      g_assert_cmpuint (bars[h].last_group, ==, h);
      g_assert_cmpuint (bars[h].top_group, ==, h);
      g_assert_cmpuint (bars[h].ranks_shown, ==, h == 1 ? 3 : 4);
      g_assert_cmpint (bars[h].summary.rank, ==, (int32_t) h * 4);
      assert_summary (&bars[h].summary, stats_reference_get (ref, name, &n));
    }
  tprof_topology_free (topo);
}

/* The host of hosts @first..@last (of @ref) with the largest value
 * (@column 1: sum, 2: mean). */
static gsize
largest_host (StatsReference *ref,
              gsize           first,
              gsize           last,
              int             column)
{
  gsize top = first;

  for (gsize h = first; h <= last; h++)
    {
      g_autofree char *name = g_strdup_printf ("host_%zu", h);
      g_autofree char *top_name = g_strdup_printf ("host_%zu", top);
      gsize n;

      if (stats_reference_get (ref, name, &n)[column] > stats_reference_get (ref, top_name, &n)[column])
        top = h;
    }
  return top;
}

/* 10 hosts into 4 bars: hosts 0-2, 3-4, 5-7, 8-9 (as bin_groups puts
 * them); each bar shows its host of largest total, or mean. */
static void
test_group_bars_runs (void)
{
  g_autofree double *times = NULL;
  g_autofree int32_t *ranks = NULL;
  const char *args[] = { "4", NULL };
  g_autoptr(StatsReference) ref = NULL;
  g_autofree TprofRankSummary *summaries = NULL;
  TprofTopology *topo = hosts_of_four ();
  const gsize first[] = { 0, 3, 5, 8 }, last[] = { 2, 4, 7, 9 };
  TprofGroupBar bars[4];
  gsize n_summaries;

  stats_random_samples (20000, 40, &times, &ranks);
  /* host 6 slower: its bar's top */
  for (gsize i = 0; i < 20000; i++)
    if (ranks[i] / 4 == 6)
      times[i] *= 3;
  ref = stats_reference_run ("host-summaries", times, ranks, 20000, args);
  summaries = summaries_without (times, ranks, 20000, -1, &n_summaries);
  for (int by_mean = 0; by_mean < 2; by_mean++)
    {
      g_assert_cmpuint (tprof_topology_group_bars (topo, TPROF_TOPOLOGY_HOST, summaries, n_summaries, by_mean, 4,
                                                   bars), ==, 4);
      for (gsize b = 0; b < 4; b++)
        {
          gsize top = largest_host (ref, first[b], last[b], by_mean ? 2 : 1);
          g_autofree char *name = g_strdup_printf ("host_%zu", top);
          gsize n;

          g_assert_cmpuint (bars[b].first_group, ==, first[b]);
          g_assert_cmpuint (bars[b].last_group, ==, last[b]);
          g_assert_cmpuint (bars[b].top_group, ==, top);
          assert_summary (&bars[b].summary, stats_reference_get (ref, name, &n));
        }
      g_assert_cmpuint (bars[2].top_group, ==, 6);
    }
  /* nothing shown: no bar */
  g_assert_cmpuint (tprof_topology_group_bars (topo, TPROF_TOPOLOGY_HOST, summaries, 0, false, 4, bars), ==, 0);
  tprof_topology_free (topo);
}

/* The 4 bars of test_group_bars_runs (host 6 slower) given the values of
 * another run (a baseline: other samples, rank 5 left out, host 6 without
 * samples): each bar's host summarised over that run as numpy does, and
 * host 6's bar count 0 with NaN sum and mean. */
static void
test_bar_summaries (void)
{
  g_autofree double *times = NULL, *other = NULL;
  g_autofree int32_t *ranks = NULL;
  const char *args[] = { "4", "5", NULL };
  g_autoptr(StatsReference) ref = NULL;
  g_autofree TprofRankSummary *summaries = NULL, *base = NULL;
  TprofTopology *topo = hosts_of_four ();
  TprofGroupBar bars[4];
  TprofRankSummary out[4];
  gsize n_summaries, n_base, kept = 0;

  stats_random_samples (20000, 40, &times, &ranks);
  other = g_new (double, 20000);
  for (gsize i = 0; i < 20000; i++)
    {
      other[i] = times[(i * 7919) % 20000] * 0.5 + 1e-3;
      if (ranks[i] / 4 == 6)
        times[i] *= 3;
    }
  summaries = summaries_without (times, ranks, 20000, -1, &n_summaries);
  g_assert_cmpuint (tprof_topology_group_bars (topo, TPROF_TOPOLOGY_HOST, summaries, n_summaries, false, 4, bars),
                    ==, 4);
  g_assert_cmpuint (bars[2].top_group, ==, 6);
  ref = stats_reference_run ("host-summaries", other, ranks, 20000, args);
  base = summaries_without (other, ranks, 20000, 5, &n_base);
  for (gsize i = 0; i < n_base; i++)
    if (base[i].rank / 4 != 6)
      base[kept++] = base[i];
  g_assert_true (tprof_topology_bar_summaries (topo, TPROF_TOPOLOGY_HOST, bars, 4, base, kept, out));
  for (gsize b = 0; b < 4; b++)
    {
      g_autofree char *name = g_strdup_printf ("host_%zu", bars[b].top_group);
      gsize n;

      if (bars[b].top_group == 6)
        {
          g_assert_cmpuint (out[b].count, ==, 0);
          g_assert_true (isnan (out[b].sum) && isnan (out[b].mean));
          continue;
        }
      assert_summary (&out[b], stats_reference_get (ref, name, &n));
    }
  tprof_topology_free (topo);
}

/* A breakdown of 3 parts (2 children, then self time) on 40 ranks (10
 * hosts of 4, rank 5 without the operation, rank 13's self time unknown)
 * as bars of hosts: one per host, each part summed over the host's ranks
 * as numpy sums them; then 4 bars of runs of hosts (as bin_groups puts
 * them), each the host of largest total, host 6 made the slowest. */
static void
test_group_breakdown (void)
{
  enum { PARTS = 3, WORLD = 40 };
  TprofTopology *topo = hosts_of_four ();
  TprofBreakdown b = { .n_parts = PARTS };
  size_t children[] = { 4, 7 };
  int32_t ranks[WORLD];
  double values[PARTS * WORLD];
  double times[PARTS * WORLD];
  int32_t column_ranks[PARTS * WORLD];
  const char *args[] = { "3", "4", NULL };
  g_autoptr(StatsReference) ref = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (29);
  TprofGroupBar bars[16];
  TprofBreakdown *hosts;
  size_t n = 0;

  for (int32_t r = 0; r < WORLD; r++)
    if (r != 5)
      ranks[n++] = r;
  b.n_ranks = n;
  b.children = children;
  b.ranks = ranks;
  b.values = values;
  for (size_t k = 0; k < n; k++)
    for (size_t p = 0; p < PARTS; p++)
      {
        double v = g_rand_double_range (rand, 0.5, 2.0) * (ranks[k] / 4 == 6 ? 3 : 1);

        if (p == PARTS - 1 && ranks[k] == 13)
          v = NAN;
        values[p * n + k] = v;
        times[k * PARTS + p] = v;
        column_ranks[k * PARTS + p] = ranks[k];
      }
  ref = stats_reference_run ("breakdown-hosts", times, column_ranks, n * PARTS, args);

  hosts = tprof_topology_group_breakdown (topo, TPROF_TOPOLOGY_HOST, &b, 16, bars);
  g_assert_nonnull (hosts);
  g_assert_cmpuint (hosts->n_ranks, ==, 10);
  g_assert_cmpuint (hosts->n_parts, ==, PARTS);
  g_assert_cmpuint (hosts->children[1], ==, 7);
  for (gsize h = 0; h < 10; h++)
    {
      g_autofree char *name = g_strdup_printf ("host_%zu", h);
      gsize got;
      const double *want = stats_reference_get (ref, name, &got);

      g_assert_cmpuint (got, ==, PARTS + 1);
      g_assert_cmpuint (bars[h].first_group, ==, h);
      g_assert_cmpuint (bars[h].top_group, ==, h);
      g_assert_cmpuint (bars[h].ranks_shown, ==, h == 1 ? 3 : 4);
      g_assert_cmpint (hosts->ranks[h], ==, (int32_t) h * 4);
      for (gsize p = 0; p < PARTS; p++)
        stats_assert_close (hosts->values[p * 10 + h], want[p], 1e-12);
      stats_assert_close (bars[h].summary.sum, want[PARTS], 1e-12);
    }
  g_assert_true (isnan (hosts->values[2 * 10 + 3]));
  tprof_breakdown_free (hosts);

  hosts = tprof_topology_group_breakdown (topo, TPROF_TOPOLOGY_HOST, &b, 4, bars);
  g_assert_nonnull (hosts);
  g_assert_cmpuint (hosts->n_ranks, ==, 4);
  for (gsize j = 0; j < 4; j++)
    {
      gsize top = bars[j].first_group;

      for (gsize h = bars[j].first_group; h <= bars[j].last_group; h++)
        {
          g_autofree char *name = g_strdup_printf ("host_%zu", h);
          g_autofree char *top_name = g_strdup_printf ("host_%zu", top);
          gsize got;

          if (stats_reference_get (ref, name, &got)[PARTS] > stats_reference_get (ref, top_name, &got)[PARTS])
            top = h;
        }
      g_assert_cmpuint (bars[j].top_group, ==, top);
      {
        g_autofree char *name = g_strdup_printf ("host_%zu", top);
        gsize got;
        const double *want = stats_reference_get (ref, name, &got);

        for (gsize p = 0; p < PARTS; p++)
          stats_assert_close (hosts->values[p * 4 + j], want[p], 1e-12);
      }
    }
  g_assert_cmpuint (bars[2].top_group, ==, 6);
  g_assert_cmpuint (bars[3].last_group, ==, 9);
  tprof_breakdown_free (hosts);
  tprof_topology_free (topo);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/topology-rows/one-per-group", test_bin_one_per_group);
  g_test_add_func ("/stats/topology-rows/blocks", test_bin_blocks);
  g_test_add_func ("/stats/topology-rows/merge", test_merge_rows);
  g_test_add_func ("/stats/topology-rows/summaries", test_group_summaries);
  g_test_add_func ("/stats/topology-rows/bars-per-host", test_group_bars_per_host);
  g_test_add_func ("/stats/topology-rows/bars-runs", test_group_bars_runs);
  g_test_add_func ("/stats/topology-rows/bar-summaries", test_bar_summaries);
  g_test_add_func ("/stats/topology-rows/breakdown", test_group_breakdown);
  return g_test_run ();
}
