/* tprof-cli-top-json.c — `tprof top --format json`: one refresh as one JSON object on one line, its keys those tprof.1 documents. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "tprof-cli-top.h"

static void
key (GString    *out,
     const char *name)
{
  if (out->len > 1)
    g_string_append (out, ", ");
  tprof_cli_json_append_string (out, name);
  g_string_append (out, ": ");
}

/* [{"name", "count", "mean", "total"}], in the order they were first seen. */
static void
append_operations (GString         *out,
                   const TprofLive *live)
{
  g_string_append_c (out, '[');
  for (gsize op = 0; op < tprof_live_n_operations (live); op++)
    {
      TprofSummary s = { 0 };
      gboolean known = tprof_live_summary (live, op, &s);

      g_string_append (out, op > 0 ? ", {\"name\": " : "{\"name\": ");
      tprof_cli_json_append_string (out, tprof_live_operation_name (live, op));
      g_string_append_printf (out, ", \"count\": %zu, \"mean\": ", known ? s.count : 0);
      tprof_cli_json_append_double (out, known ? s.mean : NAN);
      g_string_append (out, ", \"total\": ");
      tprof_cli_json_append_double (out, known ? s.sum : 0);
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, ']');
}

/* {"verdict", "rank", "level", "group", "late", "occurrences",
 * "expected_late", "p_value"}: verdict "rank", "group", "none" (no clear
 * straggler, or no complete occurrence yet) or "unknown". */
static void
append_straggler (GString              *out,
                  const TprofSpillLive *sl)
{
  TprofTopology *topo;
  TprofStragglers *s;
  TprofStragglerVerdict v;
  gboolean known = tprof_cli_top_verdict (sl, &topo, &s, &v);
  gboolean group = known && v.kind == TPROF_STRAGGLER_VERDICT_GROUP, rank = known && v.kind == TPROF_STRAGGLER_VERDICT_RANK;

  g_string_append (out, "{\"verdict\": ");
  tprof_cli_json_append_string (out, !known ? "unknown" : group ? "group" : rank ? "rank" : "none");
  g_string_append (out, ", \"rank\": ");
  if (rank)
    g_string_append_printf (out, "%d", v.rank);
  else
    g_string_append (out, "null");
  g_string_append (out, ", \"level\": ");
  if (group)
    tprof_cli_json_append_string (out, tprof_topology_level_name (topo, v.level));
  else
    g_string_append (out, "null");
  g_string_append (out, ", \"group\": ");
  if (group)
    tprof_cli_json_append_string (out, tprof_topology_group_name (topo, v.level, v.group));
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ", \"late\": %" PRIu64 ", \"occurrences\": %" PRIu64 ", \"expected_late\": ",
                          group ? v.late_count : rank ? tprof_stragglers_late_count (s)[v.rank] : 0,
                          known ? v.occurrences : 0);
  tprof_cli_json_append_double (out, group ? v.expected_late : known ? tprof_stragglers_expected_late (s) : NAN);
  g_string_append (out, ", \"p_value\": ");
  tprof_cli_json_append_double (out, group ? v.p_value : rank ? v.rank_p_value : NAN);
  g_string_append_c (out, '}');
  tprof_stragglers_free (s);
  tprof_topology_free (topo);
}

static void
append_ranks_where (GString              *out,
                    const TprofSpillLive *sl,
                    double                now,
                    gboolean              stopped)
{
  guint n = 0;

  g_string_append_c (out, '[');
  for (int r = 0; r < sl->job->world_size; r++)
    if (stopped ? _tprof_spill_live_stopped (sl, r, now) : !sl->ranks[r].has_file)
      g_string_append_printf (out, n++ > 0 ? ", %d" : "%d", r);
  g_string_append_c (out, ']');
}

/* [{"rank", "path", "offset", "problem"}] */
static void
append_damaged (GString              *out,
                const TprofSpillLive *sl)
{
  guint n = 0;

  g_string_append_c (out, '[');
  for (int r = 0; r < sl->job->world_size; r++)
    if (sl->ranks[r].has_file && sl->ranks[r].damaged)
      {
        g_string_append_printf (out, "%s{\"rank\": %d, \"path\": ", n++ > 0 ? ", " : "", r);
        tprof_cli_json_append_string (out, _tprof_spill_reader_path (sl->job->readers[r]));
        g_string_append_printf (out, ", \"offset\": %" PRIu64 ", \"problem\": ", sl->ranks[r].damaged_offset);
        tprof_cli_json_append_string (out, sl->ranks[r].problem);
        g_string_append_c (out, '}');
      }
  g_string_append_c (out, ']');
}

/* [{"path", "problem"}] */
static void
append_not_used (GString              *out,
                 const TprofSpillLive *sl)
{
  g_string_append_c (out, '[');
  for (size_t i = 0; i < sl->job->n_refused; i++)
    {
      g_string_append (out, i > 0 ? ", {\"path\": " : "{\"path\": ");
      tprof_cli_json_append_string (out, sl->job->refused[i].path);
      g_string_append (out, ", \"problem\": ");
      tprof_cli_json_append_string (out, sl->job->refused[i].problem);
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, ']');
}

char *
tprof_cli_top_render_json (const TprofSpillLive      *sl,
                           const TprofCliTopProgress *progress,
                           double                     now)
{
  GString *out = g_string_new ("{");
  gboolean ended = _tprof_spill_live_ended (sl);
  const char *label = sl->job->readers[0] != NULL ? _tprof_spill_reader_header (sl->job->readers[0])->label : NULL;

  key (out, "time");
  tprof_cli_json_append_double (out, now);
  key (out, "job");
  tprof_cli_json_append_string (out, sl->job->token);
  key (out, "world_size");
  g_string_append_printf (out, "%d", sl->job->world_size);
  key (out, "label");
  if (label != NULL)
    tprof_cli_json_append_string (out, label);
  else
    g_string_append (out, "null");
  key (out, "operations");
  append_operations (out, sl->live);
  key (out, "straggler");
  append_straggler (out, sl);
  key (out, "progress");
  g_string_append (out, "{\"operation\": ");
  if (progress->op >= 0)
    tprof_cli_json_append_string (out, tprof_live_operation_name (sl->live, (gsize) progress->op));
  else
    g_string_append (out, "null");
  g_string_append (out, ", \"rate\": ");
  tprof_cli_json_append_double (out, progress->op >= 0 ? progress->rate : NAN);
  g_string_append_c (out, '}');
  key (out, "stopped_ranks");
  append_ranks_where (out, sl, now, TRUE);
  key (out, "missing_ranks");
  append_ranks_where (out, sl, now, FALSE);
  key (out, "damaged");
  append_damaged (out, sl);
  key (out, "not_used");
  append_not_used (out, sl);
  key (out, "ended");
  g_string_append (out, ended ? "true" : "false");
  key (out, "profile");
  if (ended && tprof_cli_top_profile (sl) != NULL)
    tprof_cli_json_append_string (out, tprof_cli_top_profile (sl));
  else
    g_string_append (out, "null");
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}
