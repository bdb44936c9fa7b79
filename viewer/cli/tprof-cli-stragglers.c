/* tprof-cli-stragglers.c — `tprof stragglers`: the ranks that kept the others waiting at synchronising operations, named from arrival. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <errno.h>
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli-blame.h"

/* --top's default: the table shows this many rows */
#define DEFAULT_TOP 10


typedef struct
{
  TprofCliBlame *blame;
  gboolean       no_timeline;
} Collecting;

/* One operation's arrival, and its blame where it synchronises. */
static bool
collect_one (size_t             op,
             TprofGatheredTime *gt,
             void              *user_data,
             TprofError        *error)
{
  Collecting *c = user_data;
  TprofArrival arrival;
  gboolean ok;

  if (tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL)
    {
      tprof_gathered_time_free (gt);
      c->no_timeline = TRUE;
      return false;
    }
  ok = tprof_stragglers_add (c->blame->stragglers, gt, &arrival);
  tprof_gathered_time_free (gt);
  if (!ok)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s", g_strerror (ENOMEM));
      return false;
    }
  if (arrival.synchronising)
    g_ptr_array_add (c->blame->synchronising, g_strdup (tprof_profile_file_operation_name (c->blame->profile, op)));
  return true;
}

/* Every operation's arrival, and the blame of the synchronising ones. */
static int
collect (const char       *file,
         TprofProfileFile *profile,
         TprofCliBlame    *blame)
{
  Collecting c = { blame, FALSE };
  TprofError error = { 0 };

  if (tprof_profile_file_read_all (profile, NULL, 0, collect_one, &c, &error) == 0)
    return TPROF_CLI_EXIT_OK;
  if (c.no_timeline)
    return tprof_cli_no_timeline_error (file);
  return tprof_cli_library_error (file, &error);
}

/* The verdict and the blame per group of the chosen level. */
static int
decide (TprofCliBlame *b)
{
  b->n_groups = tprof_topology_n_groups (b->topo, b->level);
  b->late_count = g_new (uint64_t, b->n_groups);
  b->wait_caused = g_new (double, b->n_groups);
  tprof_stragglers_group_blame (b->stragglers, b->topo, b->level, b->late_count, b->wait_caused, NULL);
  b->order = tprof_cli_blame_sort (b->wait_caused, b->n_groups);
  for (size_t g = 0; g < b->n_groups; g++)
    b->total_wait += b->wait_caused[g];
  b->top = MIN (b->top, b->n_groups);
  b->expected_late = tprof_stragglers_expected_late (b->stragglers);
  if (!tprof_stragglers_decide (b->stragglers, b->topo, b->level, &b->verdict))
    return tprof_cli_file_error (b->file, "%s", g_strerror (ENOMEM));
  return TPROF_CLI_EXIT_OK;
}

static void
blame_clear (TprofCliBlame *b)
{
  tprof_stragglers_free (b->stragglers);
  tprof_topology_free (b->topo);
  g_free (b->late_count);
  g_free (b->wait_caused);
  g_free (b->order);
  if (b->synchronising != NULL)
    g_ptr_array_unref (b->synchronising);
  if (b->profile != NULL)
    tprof_profile_file_close (b->profile);
}

static int
run (TprofCliBlame  *b,
     const char     *by,
     const char     *topology_path,
     TprofCliFormat  format)
{
  char *text = NULL;
  int status = TPROF_CLI_EXIT_OK;

  b->profile = tprof_cli_open (b->file);
  if (b->profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  b->topo = tprof_cli_topology_load (b->profile, b->file, topology_path, &status);
  if (b->topo == NULL || !tprof_cli_topology_level ("stragglers", b->file, b->topo, by, &b->level, &status))
    return status;
  b->stragglers = tprof_stragglers_new (tprof_profile_file_world_size (b->profile));
  if (b->stragglers == NULL)
    return tprof_cli_file_error (b->file, "%s", g_strerror (ENOMEM));
  b->synchronising = g_ptr_array_new_with_free_func (g_free);
  status = collect (b->file, b->profile, b);
  if (status == TPROF_CLI_EXIT_OK)
    status = decide (b);
  if (status != TPROF_CLI_EXIT_OK)
    return status;
  text = format == TPROF_CLI_FORMAT_JSON ? tprof_cli_blame_json (b)
         : format == TPROF_CLI_FORMAT_CSV ? tprof_cli_blame_csv (b)
         : tprof_cli_blame_table (b);
  status = tprof_cli_print (text);
  g_free (text);
  return status;
}

/* --top N: a whole number of rows, at least 1. */
static gboolean
parse_top (const char    *text,
           TprofCliBlame *b,
           int           *status)
{
  guint64 n = DEFAULT_TOP;

  b->top_given = text != NULL;
  if (text != NULL && (!g_ascii_string_to_unsigned (text, 10, 1, G_MAXSIZE, &n, NULL)))
    {
      *status = tprof_cli_usage_error ("stragglers", _("--top \"%s\": not a whole number of rows, 1 or more"),
                                       text);
      return FALSE;
    }
  b->top = (size_t) n;
  return TRUE;
}

int
tprof_cli_stragglers (int    argc,
                      char **argv)
{
  char *format_text = NULL, *by = NULL, *topology_path = NULL, *top_text = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default), csv or json"), N_("FORMAT") },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("Group the blame by rank, host or a level of the topology (default: the highest level of two "
         "groups or more, else rank)"), N_("LEVEL") },
    { "topology", 0, 0, G_OPTION_ARG_FILENAME, &topology_path,
      N_("A topology file placing hosts or ranks in higher levels (switch, rack)"), N_("FILE") },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text,
      N_("Rows to show (default 10 in the table; every one in CSV and JSON)"), N_("N") },
    { NULL }
  };
  GOptionContext *context;
  TprofCliFormat format;
  TprofCliBlame blame = { 0 };
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("stragglers", _("FILE"),
                                   _("Names what kept the other ranks waiting — a host whose ranks were "
                                     "late together, or one rank — from when each rank arrived at the "
                                     "operations that synchronise them (a collective, a barrier), not "
                                     "from durations: at a collective the late rank waits least."),
                                   _("Occurrence k of an operation is the k-th sample of each rank by "
                                     "start. An operation synchronises the ranks when the median spread "
                                     "of its ends is at most half the median spread of its "
                                     "starts. At each of its occurrences the rank that arrived last is "
                                     "charged the wait it caused: the sum over the other ranks of how "
                                     "long before it they arrived; a host (or a group of --by's level) "
                                     "is charged what its ranks were. The group charged most is named "
                                     "when it came last significantly more often than chance (a binomial "
                                     "test, p < 0.001 after Bonferroni's correction over the groups) and "
                                     "no one of its members holds significantly more than its share of "
                                     "those lates (its ranks were late together); when one does, that "
                                     "member is tested in turn. Otherwise the rank charged most is named "
                                     "when it came last significantly more often than chance, or the "
                                     "output says there is no clear straggler. Needs a profile with a "
                                     "timeline."),
                                   entries);
  if (tprof_cli_parse (context, "stragglers", &argc, &argv, 1, (const char *[]) { "FILE" }, &blame.file,
                       &status)
      && tprof_cli_parse_format ("stragglers", format_text, &format, &status)
      && parse_top (top_text, &blame, &status))
    status = run (&blame, by, topology_path, format);
  blame_clear (&blame);
  g_option_context_free (context);
  g_free (format_text);
  g_free (by);
  g_free (topology_path);
  g_free (top_text);
  return status;
}
