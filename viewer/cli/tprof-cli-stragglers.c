/* tprof-cli-stragglers.c — `tprof stragglers`: the ranks that kept the others waiting at synchronising operations, named from arrival. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <errno.h>
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef struct
{
  int              world_size;
  TprofStragglers *stragglers;
  const double    *wait_caused;   /* per rank, the engine's */
  const uint64_t  *late_count;
  int             *order;         /* ranks by wait caused, largest first */
  GPtrArray       *synchronising; /* operation names */
  uint64_t         occurrences;   /* of the synchronising operations, in all */
  double           expected_late; /* late counts one rank gets by chance over them */
  int              straggler;     /* -1: none stands out */
  double           p_value;
} Blame;

static const double *sorting_waits;

static int
compare_wait (const void *a,
              const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  double wx = sorting_waits[x], wy = sorting_waits[y];

  return wx != wy ? (wx < wy) - (wx > wy) : (x > y) - (x < y);
}

static char *
render_table (TprofProfileFile *profile,
              const Blame      *blame)
{
  const char *headers[] = { _("Rank"), _("Host"), _("Late"), _("Wait caused"), _("Share") };
  gboolean left[G_N_ELEMENTS (headers)] = { [1] = TRUE };
  TprofCliTable *table = tprof_cli_table_new (G_N_ELEMENTS (headers), headers, left);
  GString *out = g_string_new (NULL);
  double total = 0.0;
  char *text;

  for (int r = 0; r < blame->world_size; r++)
    total += blame->wait_caused[r];
  for (int k = 0; k < blame->world_size; k++)
    {
      int r = blame->order[k];
      const char *host = tprof_profile_file_hostname (profile, r);
      char *cells[] = {
        g_strdup_printf ("%d", r),
        g_strdup (host != NULL ? host : "—"),
        g_strdup_printf ("%" G_GUINT64_FORMAT, blame->late_count[r]),
        tprof_cli_cell_duration (blame->wait_caused[r]),
        total > 0 ? g_strdup_printf ("%.0f%%", 100.0 * blame->wait_caused[r] / total) : g_strdup ("—"),
      };

      tprof_cli_table_add_row (table, cells);
    }
  text = tprof_cli_table_free_to_string (table);
  if (blame->synchronising->len == 0)
    g_string_append (out, _("No operation synchronises the ranks (they leave none of them together "
                            "after arriving apart): no straggler can be named from arrival.\n"));
  else
    {
      g_autofree char *ops = NULL;
      int worst = blame->order[0];

      g_ptr_array_add (blame->synchronising, NULL);
      ops = g_strjoinv (", ", (char **) blame->synchronising->pdata);
      g_ptr_array_remove_index (blame->synchronising, blame->synchronising->len - 1);
      g_string_append_printf (out, _("Synchronising operations: %s\n"), ops);
      if (blame->straggler >= 0)
        {
          g_autofree char *wait = tprof_cli_cell_duration (blame->wait_caused[worst]);

          g_string_append_printf (out, _("Straggler: rank %d, last to arrive %" PRIu64 " of %"
                                         PRIu64 " times (by chance: %.1f), keeping the other ranks "
                                         "waiting %s in all.\n"),
                                  worst, blame->late_count[worst], blame->occurrences, blame->expected_late,
                                  wait);
        }
      else if (blame->wait_caused[worst] > 0)
        g_string_append_printf (out, _("No clear straggler: the last rank to arrive varies. Rank %d caused "
                                       "the most wait but came last %" PRIu64 " of %"
                                       PRIu64 " times, no more often than chance allows (%.1f).\n"),
                                worst, blame->late_count[worst], blame->occurrences, blame->expected_late);
      else
        g_string_append (out, _("No clear straggler: the ranks arrived together.\n"));
      g_string_append_c (out, '\n');
      g_string_append (out, text);
    }
  g_free (text);
  return g_string_free (out, FALSE);
}

static char *
render_csv (TprofProfileFile *profile,
            const Blame      *blame)
{
  GString *out = g_string_new ("rank,hostname,late_count,wait_caused\n");

  for (int k = 0; k < blame->world_size; k++)
    {
      int r = blame->order[k];
      const char *host = tprof_profile_file_hostname (profile, r);

      g_string_append_printf (out, "%d,", r);
      if (host != NULL)
        tprof_cli_csv_append_string (out, host);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",", blame->late_count[r]);
      tprof_cli_csv_append_double (out, blame->wait_caused[r]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static char *
render_json (const char       *file,
             TprofProfileFile *profile,
             const Blame      *blame)
{
  GString *out = g_string_new ("{\"file\": ");

  tprof_cli_json_append_string (out, file);
  g_string_append_printf (out, ", \"world_size\": %d, \"synchronising\": [", blame->world_size);
  for (guint i = 0; i < blame->synchronising->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      tprof_cli_json_append_string (out, g_ptr_array_index (blame->synchronising, i));
    }
  g_string_append (out, "], \"straggler\": ");
  if (blame->straggler >= 0)
    g_string_append_printf (out, "%d", blame->straggler);
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ", \"occurrences\": %" G_GUINT64_FORMAT ", \"p_value\": ", blame->occurrences);
  tprof_cli_json_append_double (out, blame->p_value);
  g_string_append (out, ", \"ranks\": [");
  for (int k = 0; k < blame->world_size; k++)
    {
      int r = blame->order[k];
      const char *host = tprof_profile_file_hostname (profile, r);

      g_string_append_printf (out, "%s{\"rank\": %d, \"hostname\": ", k > 0 ? ", " : "", r);
      if (host != NULL)
        tprof_cli_json_append_string (out, host);
      else
        g_string_append (out, "null");
      g_string_append_printf (out, ", \"late_count\": %" G_GUINT64_FORMAT ", \"wait_caused\": ",
                              blame->late_count[r]);
      tprof_cli_json_append_double (out, blame->wait_caused[r]);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

/* Every operation's arrival, and the blame of the synchronising ones. */
static int
collect (const char       *file,
         TprofProfileFile *profile,
         Blame            *blame)
{
  for (size_t op = 0; op < tprof_profile_file_n_operations (profile); op++)
    {
      TprofGatheredTime *gt = tprof_cli_read_operation (profile, op, NULL);
      TprofArrival arrival;
      gboolean ok;

      if (gt == NULL)
        return TPROF_CLI_EXIT_FAILED;
      if (tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL)
        {
          tprof_gathered_time_free (gt);
          return tprof_cli_file_error (file, _("has no timeline (no 'starts', when each sample began): save "
                                               "it with this tprof's gather, over MPI or torch.distributed"));
        }
      ok = tprof_stragglers_add (blame->stragglers, gt, &arrival);
      tprof_gathered_time_free (gt);
      if (!ok)
        return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
      if (arrival.synchronising)
        g_ptr_array_add (blame->synchronising, g_strdup (tprof_profile_file_operation_name (profile, op)));
    }
  return TPROF_CLI_EXIT_OK;
}

static int
run (const char     *file,
     TprofCliFormat  format)
{
  TprofProfileFile *profile = tprof_cli_open (file);
  Blame blame = { 0 };
  char *text = NULL;
  int status;

  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  blame.world_size = tprof_profile_file_world_size (profile);
  blame.stragglers = tprof_stragglers_new (blame.world_size);
  if (blame.stragglers == NULL)
    {
      tprof_profile_file_close (profile);
      return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
    }
  blame.wait_caused = tprof_stragglers_wait_caused (blame.stragglers);
  blame.late_count = tprof_stragglers_late_count (blame.stragglers);
  blame.order = g_new (int, blame.world_size);
  blame.synchronising = g_ptr_array_new_with_free_func (g_free);
  status = collect (file, profile, &blame);
  if (status == TPROF_CLI_EXIT_OK)
    {
      for (int r = 0; r < blame.world_size; r++)
        blame.order[r] = r;
      sorting_waits = blame.wait_caused;
      qsort (blame.order, (size_t) blame.world_size, sizeof *blame.order, compare_wait);
      sorting_waits = NULL;
      blame.straggler = tprof_stragglers_name (blame.stragglers, &blame.p_value);
      blame.occurrences = tprof_stragglers_occurrences (blame.stragglers);
      blame.expected_late = tprof_stragglers_expected_late (blame.stragglers);
      text = format == TPROF_CLI_FORMAT_JSON ? render_json (file, profile, &blame)
             : format == TPROF_CLI_FORMAT_CSV ? render_csv (profile, &blame)
             : render_table (profile, &blame);
      status = tprof_cli_print (text);
    }
  g_free (text);
  tprof_stragglers_free (blame.stragglers);
  g_free (blame.order);
  g_ptr_array_unref (blame.synchronising);
  tprof_profile_file_close (profile);
  return status;
}

int
tprof_cli_stragglers (int    argc,
                      char **argv)
{
  char *format_text = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output format: table (default), csv or json"), N_("FORMAT") },
    { NULL }
  };
  GOptionContext *context;
  TprofCliFormat format;
  const char *file = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("stragglers", _("FILE"),
                                   _("Names the ranks that kept the others waiting, from when each rank "
                                     "arrived at the operations that synchronise them (a collective, a "
                                     "barrier), not from durations: at a collective the late rank waits "
                                     "least."),
                                   _("Occurrence k of an operation is the k-th sample of each rank by "
                                     "start. An operation synchronises the ranks when the median spread "
                                     "of its ends is at most half the median spread of its "
                                     "starts. At each of its occurrences the rank that arrived last is "
                                     "charged the wait it caused: the sum over the other ranks of how "
                                     "long before it they arrived. The rank charged most is named the "
                                     "straggler when it came last significantly more often than chance "
                                     "(a binomial test, p < 0.001 after Bonferroni's correction over the "
                                     "ranks); otherwise the output says there is no clear straggler. "
                                     "Needs a profile with a timeline."),
                                   entries);
  if (tprof_cli_parse (context, "stragglers", &argc, &argv, 1, (const char *[]) { "FILE" }, &file, &status)
      && tprof_cli_parse_format ("stragglers", format_text, &format, &status))
    status = run (file, format);
  g_option_context_free (context);
  g_free (format_text);
  return status;
}
