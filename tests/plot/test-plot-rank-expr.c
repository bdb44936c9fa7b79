/* test-plot-rank-expr.c — parsing and formatting rank expressions such as "0-3,8,12-15". */
/* SPDX-License-Identifier: MIT */
#include "tprof-plot.h"

static void
assert_parses (const char *expr, int world_size, const gint32 *expected, gsize n_expected)
{
  GError *error = NULL;
  GArray *ranks = NULL;

  g_assert_true (tprof_rank_expr_parse (expr, world_size, &ranks, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (ranks->data, ranks->len * sizeof (gint32), expected, n_expected * sizeof (gint32));
  g_array_unref (ranks);
}

static void
assert_fails (const char *expr, int world_size, int code, const char *message)
{
  GError *error = NULL;
  GArray *ranks = NULL;

  if (tprof_rank_expr_parse (expr, world_size, &ranks, &error))
    g_error ("\"%s\" was accepted", expr);
  g_assert_null (ranks);
  g_assert_error (error, TPROF_RANK_EXPR_ERROR, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
}

static void
test_parse_valid (void)
{
  const gint32 mixed[] = { 0, 1, 2, 3, 8, 12, 13, 14, 15 };
  const gint32 unsorted[] = { 1, 3, 5, 6, 7 };
  const gint32 last[] = { 63 };

  assert_parses ("0-3,8,12-15", 16, mixed, G_N_ELEMENTS (mixed));
  /* spaces around items, duplicates and overlaps are fine */
  assert_parses (" 3 , 1,1,5 - 7,6 ", 8, unsorted, G_N_ELEMENTS (unsorted));
  assert_parses ("63", 64, last, 1);
  assert_parses ("63-63", 64, last, 1);
  /* open-ended: from a rank to the last one */
  assert_parses ("63-", 64, last, 1);
  assert_parses ("5- ,1", 8, (const gint32[]) { 1, 5, 6, 7 }, 4);
}

static void
test_parse_invalid (void)
{
  assert_fails ("3-1", 16, TPROF_RANK_EXPR_ERROR_SYNTAX,
                "invalid rank range \"3-1\": start is greater than end");
  assert_fails ("x", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("-1", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("16-", 16, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 16 is out of range: the profile has 16 ranks (0-15)");
  assert_fails ("1-2-3", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("+1", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("1.5", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("1 2", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("1-2 3", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("64", 64, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 64 is out of range: the profile has 64 ranks (0-63)");
  assert_fails ("0-3,70", 64, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 70 is out of range: the profile has 64 ranks (0-63)");
  assert_fails ("60-70", 64, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 70 is out of range: the profile has 64 ranks (0-63)");
  assert_fails ("1", 1, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 1 is out of range: the profile has 1 rank (0)");
  /* huge ranks are quoted as written, not as the saturated number */
  assert_fails ("99999999999999999999", 64, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 99999999999999999999 is out of range: the profile has 64 ranks (0-63)");
  assert_fails ("0- 99999999999", 64, TPROF_RANK_EXPR_ERROR_RANGE,
                "rank 99999999999 is out of range: the profile has 64 ranks (0-63)");
  assert_fails ("0,,3", 16, TPROF_RANK_EXPR_ERROR_SYNTAX,
                "empty item in rank expression \"0,,3\"");
  assert_fails ("0,", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails (",0", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
  assert_fails ("  ", 16, TPROF_RANK_EXPR_ERROR_SYNTAX, NULL);
}

static void
assert_formats (const gint32 *ranks, gsize n, const char *expected)
{
  char *text = tprof_rank_expr_format (ranks, n);

  g_assert_cmpstr (text, ==, expected);
  g_free (text);
}

/* A host name selects the ranks on that host; digits stay ranks. */
static void
test_hosts (void)
{
  const char *const hosts[] = { "node-a", "node-a", "node-b", "node-b", "7", NULL };
  g_autoptr(GArray) ranks = NULL;
  GError *error = NULL;

  g_assert_true (tprof_rank_expr_parse_hosts ("node-b, 0", 5, hosts, &ranks, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (ranks->data, ranks->len * sizeof (gint32), ((const gint32[]) { 0, 2, 3 }), 3 * sizeof (gint32));
  g_clear_pointer (&ranks, g_array_unref);
  /* "7" is a rank (out of range here), not the host named "7" */
  g_assert_false (tprof_rank_expr_parse_hosts ("7", 5, hosts, &ranks, &error));
  g_assert_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (tprof_rank_expr_parse_hosts ("node-c", 5, hosts, &ranks, &error));
  g_assert_error (error, TPROF_RANK_EXPR_ERROR, TPROF_RANK_EXPR_ERROR_SYNTAX);
  g_clear_error (&error);
  /* without host names a name is an error */
  g_assert_false (tprof_rank_expr_parse_hosts ("node-a", 5, NULL, &ranks, &error));
  g_clear_error (&error);
}

static void
test_format (void)
{
  const gint32 mixed[] = { 0, 1, 2, 3, 8, 12, 13, 14, 15 };
  const gint32 pair[] = { 4, 5, 9 };

  assert_formats (mixed, G_N_ELEMENTS (mixed), "0-3,8,12-15");
  assert_formats (pair, G_N_ELEMENTS (pair), "4,5,9");
  assert_formats (pair + 2, 1, "9");
  assert_formats (NULL, 0, "");
}

/* format then parse gives back the same ranks, for many random sets */
static void
test_round_trip (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (int trial = 0; trial < 200; trial++)
    {
      GArray *ranks = g_array_new (FALSE, FALSE, sizeof (gint32));
      GArray *parsed = NULL;
      GError *error = NULL;
      char *text;

      for (gint32 r = 0; r < 100; r++)
        if (g_rand_int_range (rand, 0, 3) == 0)
          g_array_append_val (ranks, r);
      if (ranks->len == 0)
        {
          g_array_unref (ranks);
          continue;
        }
      text = tprof_rank_expr_format ((const gint32 *) ranks->data, ranks->len);
      g_assert_true (tprof_rank_expr_parse (text, 100, &parsed, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (parsed->data, parsed->len * sizeof (gint32),
                       ranks->data, ranks->len * sizeof (gint32));
      g_free (text);
      g_array_unref (parsed);
      g_array_unref (ranks);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/rank-expr/parse-valid", test_parse_valid);
  g_test_add_func ("/plot/rank-expr/parse-invalid", test_parse_invalid);
  g_test_add_func ("/plot/rank-expr/hosts", test_hosts);
  g_test_add_func ("/plot/rank-expr/format", test_format);
  g_test_add_func ("/plot/rank-expr/round-trip", test_round_trip);
  return g_test_run ();
}
