/* tprof-cli-hist.c — `tprof hist`: one operation's histogram as PNG, SVG, PDF or its numbers as CSV. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"
#include "tprof-plot.h"

#define DEFAULT_WIDTH  1000
#define DEFAULT_HEIGHT 650
#define MAX_SIDE       20000
#define MAX_BINS       1000000

typedef struct
{
  char    *op;
  char    *output;
  char    *bins_text;
  char    *ranks_expr;
  gboolean separate_ranks;
  gboolean log_x;
  gboolean log_y;
  int      width;
  int      height;
  char    *title;
  /* derived */
  gsize           bins;
  TprofPlotFormat format;
} HistOptions;

static void
hist_options_clear (HistOptions *options)
{
  g_free (options->op);
  g_free (options->output);
  g_free (options->bins_text);
  g_free (options->ranks_expr);
  g_free (options->title);
}

/* The checks that need no file, so that a typo is reported before a slow load. */
static gboolean
check_options (HistOptions *options,
               int         *status)
{
  if (options->op == NULL)
    {
      *status = tprof_cli_usage_error ("hist", _("missing --op NAME"));
      return FALSE;
    }
  if (options->output == NULL)
    {
      *status = tprof_cli_usage_error ("hist", _("missing -o OUT"));
      return FALSE;
    }
  options->format = tprof_plot_format_from_path (options->output);
  if (options->format == TPROF_PLOT_FORMAT_UNKNOWN)
    {
      *status = tprof_cli_usage_error ("hist", _("cannot tell the format of \"%s\": "
                                                 "use a name ending in .png, .svg, .pdf or .csv"),
                                       options->output);
      return FALSE;
    }
  options->bins = TPROF_HISTOGRAM_AUTO_BINS;
  if (options->bins_text != NULL && !g_str_equal (options->bins_text, "auto"))
    {
      guint64 bins = 0;

      if (!g_ascii_string_to_unsigned (options->bins_text, 10, 1, MAX_BINS, &bins, NULL))
        {
          *status = tprof_cli_usage_error ("hist", _("invalid --bins \"%s\": expected auto or a "
                                                     "number of bins from 1 to %d"),
                                           options->bins_text, MAX_BINS);
          return FALSE;
        }
      options->bins = bins;
    }
  if (options->width < 1 || options->width > MAX_SIDE
      || options->height < 1 || options->height > MAX_SIDE)
    {
      *status = tprof_cli_usage_error ("hist", _("invalid size %d×%d: --width and --height must be "
                                                 "from 1 to %d pixels"),
                                       options->width, options->height, MAX_SIDE);
      return FALSE;
    }
  return TRUE;
}

/* What the chart shows of the selection: the subtitle's count, mean and
 * std, and the extremes. A full summary's quantiles and rank totals would
 * go unused, and the subtitle is given, so no count of ranks either. */
static void
describe_selection (const TprofGatheredTime *selection,
                    TprofSummary            *summary)
{
  summary->count = tprof_gathered_time_count (selection);
  summary->rank_count = 0;
  summary->sum = tprof_gathered_time_sum (selection);
  summary->mean = summary->count > 0 ? summary->sum / summary->count : NAN;
  summary->std = tprof_gathered_time_std (selection);
  summary->min = tprof_gathered_time_min (selection);
  summary->max = tprof_gathered_time_max (selection);
  summary->median = summary->p95 = summary->p99 = summary->imbalance = summary->imbalance_time = NAN;
  summary->slowest_rank = -1;
}

static int
write_picture (const HistOptions       *options,
               const TprofGatheredTime *selection,
               const TprofHistogram    *hist,
               const GArray            *ranks,
               int                      world_size)
{
  TprofPlotHistogram plot;
  TprofSummary summary;
  TprofRankSummary *rank_summaries = NULL;
  size_t n_rank_summaries = 0;
  char *subtitle, *title = NULL;
  GError *error = NULL;
  int status = TPROF_CLI_EXIT_OK;

  describe_selection (selection, &summary);
  if (options->separate_ranks)
    {
      n_rank_summaries = tprof_gathered_time_rank_summaries (selection, &rank_summaries);
      if (n_rank_summaries == (size_t) -1)
        return tprof_cli_file_error (options->output, "%s", g_strerror (ENOMEM));
    }

  tprof_plot_histogram_init (&plot);
  plot.hist = hist;
  plot.summary = &summary;
  plot.rank_summaries = rank_summaries;
  plot.n_rank_summaries = n_rank_summaries;
  plot.separate_ranks = options->separate_ranks;
  plot.log_x = options->log_x;
  plot.log_y = options->log_y;
  if (options->title == NULL)
    /* TRANSLATORS: the chart title; %s is the operation name */
    title = g_strdup_printf (_("Time Distribution: %s"), options->op);
  plot.title = options->title != NULL ? options->title : title;
  subtitle = tprof_plot_format_selection (&summary,
                                          ranks != NULL ? (const gint32 *) ranks->data : NULL,
                                          ranks != NULL ? ranks->len : 0, world_size);
  plot.subtitle = subtitle;

  if (!tprof_plot_export (options->output, options->width, options->height,
                          tprof_plot_histogram_draw_default, &plot, &error))
    {
      status = tprof_cli_write_error (options->output, error);
      g_error_free (error);
    }
  g_free (subtitle);
  g_free (title);
  free (rank_summaries);
  return status;
}

static int
write_csv (const HistOptions    *options,
           const TprofHistogram *hist)
{
  char *csv = tprof_plot_histogram_to_csv (hist);
  GError *error = NULL;
  int status = TPROF_CLI_EXIT_OK;

  if (!tprof_plot_save_text (options->output, csv, &error))
    {
      status = tprof_cli_write_error (options->output, error);
      g_error_free (error);
    }
  g_free (csv);
  return status;
}

static int
run (const HistOptions *options,
     const char        *file)
{
  TprofProfileFile *profile;
  TprofGatheredTime *gt = NULL;
  TprofHistogram *hist = NULL;
  GArray *ranks = NULL;
  int world_size, flags = TPROF_HISTOGRAM_DEFAULT;
  int status = TPROF_CLI_EXIT_FAILED;
  size_t op;

  profile = tprof_cli_open (file);
  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  world_size = tprof_profile_file_world_size (profile);
  if (!tprof_cli_parse_ranks ("hist", options->ranks_expr, world_size, profile, &ranks, &status))
    goto out;
  status = TPROF_CLI_EXIT_FAILED;
  /* only this operation's samples, only on the ranks asked for */
  if (!tprof_cli_find_operation (profile, options->op, &op)
      || (gt = tprof_cli_read_operation (profile, op, ranks)) == NULL)
    goto out;

  if (tprof_gathered_time_is_empty (gt))
    {
      if (ranks != NULL)
        tprof_cli_file_error (file, _("operation \"%s\" has no samples on ranks %s"),
                              options->op, options->ranks_expr);
      else
        tprof_cli_file_error (file, _("operation \"%s\" has no samples"), options->op);
      goto out;
    }

  if (options->separate_ranks)
    flags |= TPROF_HISTOGRAM_SEPARATE_RANKS;
  if (options->log_x)
    flags |= TPROF_HISTOGRAM_LOG;
  hist = tprof_histogram_compute (gt, options->bins, (TprofHistogramFlags) flags);
  if (hist == NULL)
    {
      tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
      goto out;
    }
  if (hist->n_bins == 0)
    {
      tprof_cli_file_error (file, _("operation \"%s\" has no samples above 0 s to show on a log axis"),
                            options->op);
      goto out;
    }

  if (options->format == TPROF_PLOT_FORMAT_CSV)
    status = write_csv (options, hist);
  else
    status = write_picture (options, gt, hist, ranks, world_size);

out:
  if (hist != NULL)
    tprof_histogram_free (hist);
  if (gt != NULL)
    tprof_gathered_time_free (gt);
  if (ranks != NULL)
    g_array_unref (ranks);
  tprof_profile_file_close (profile);
  return status;
}

int
tprof_cli_hist (int    argc,
                char **argv)
{
  HistOptions options = { .width = DEFAULT_WIDTH, .height = DEFAULT_HEIGHT };
  /* TRANSLATORS: the --bins option; the numbers are the largest bin count and the cap on the automatic one */
  char *bins_help = g_strdup_printf (_("Number of bins from 1 to %d, or auto (default): numpy's rule, "
                                       "at most %d bins"), MAX_BINS, TPROF_HISTOGRAM_MAX_AUTO_BINS);
  char *description = g_strdup_printf (_("Bins follow numpy.histogram: equal widths over [min, max], the "
                                         "last bin closed. The automatic bin count is numpy's 'auto' rule "
                                         "capped at %d bins, since a single far outlier can make it ask "
                                         "for millions; give --bins N for more."),
                                       TPROF_HISTOGRAM_MAX_AUTO_BINS);
  const GOptionEntry entries[] = {
    { "op", 0, 0, G_OPTION_ARG_STRING, &options.op, N_("The operation to draw (required)"), N_("NAME") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output,
      N_("Where to write (required): a .png, .svg, .pdf picture or the .csv numbers"), N_("OUT") },
    { "bins", 'b', 0, G_OPTION_ARG_STRING, &options.bins_text,
      bins_help, N_("N|auto") },
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &options.ranks_expr,
      N_("Only these ranks, e.g. 0-3,8,12-15"), N_("EXPR") },
    { "separate-ranks", 0, 0, G_OPTION_ARG_NONE, &options.separate_ranks,
      N_("Overlay one histogram per rank on shared bins (CSV: one rank_N column each)"), NULL },
    { "log-x", 0, 0, G_OPTION_ARG_NONE, &options.log_x,
      N_("Log duration axis with bins equally spaced in log10 (samples of 0 s are left out)"), NULL },
    { "log-y", 0, 0, G_OPTION_ARG_NONE, &options.log_y, N_("Log count axis"), NULL },
    { "width", 'W', 0, G_OPTION_ARG_INT, &options.width,
      N_("Picture width in pixels (default 1000)"), N_("PX") },
    { "height", 'H', 0, G_OPTION_ARG_INT, &options.height,
      N_("Picture height in pixels (default 650)"), N_("PX") },
    { "title", 't', 0, G_OPTION_ARG_STRING, &options.title,
      N_("Chart title (default: Time Distribution: NAME)"), N_("TEXT") },
    { NULL }
  };
  GOptionContext *context;
  const char *file = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("hist", _("FILE"),
                                   _("Draws the histogram of one operation's durations, all ranks "
                                     "together or one overlaid histogram per rank, and writes it as a "
                                     "picture or as CSV numbers (columns left,right,count and, with "
                                     "--separate-ranks, rank_N; times in seconds)."),
                                   description, entries);
  if (tprof_cli_parse (context, "hist", &argc, &argv, 1, (const char *[]) { "FILE" }, &file, &status)
      && check_options (&options, &status))
    status = run (&options, file);

  g_option_context_free (context);
  hist_options_clear (&options);
  g_free (bins_help);
  g_free (description);
  return status;
}
