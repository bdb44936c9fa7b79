/* test-topology-rows.c — a chart's rows gathered by host, a heat map's rows merged by their largest value, per-host totals and means, against hand-computed values. */
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/topology-rows/one-per-group", test_bin_one_per_group);
  g_test_add_func ("/stats/topology-rows/blocks", test_bin_blocks);
  g_test_add_func ("/stats/topology-rows/merge", test_merge_rows);
  g_test_add_func ("/stats/topology-rows/summaries", test_group_summaries);
  return g_test_run ();
}
