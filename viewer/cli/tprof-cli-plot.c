/* tprof-cli-plot.c — `tprof plot`: the time views of one operation (heat map of ranks x occurrences, trend across ranks) as a picture or CSV. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"
#include "tprof-plot.h"

#define DEFAULT_WIDTH  1000
#define DEFAULT_HEIGHT 650
#define MAX_SIDE       20000

typedef struct
{
  char             *op;
  char             *output;
  char             *kind;
  TprofPlotKind     kind_id;    /* what kind names */
  char             *value_text;
  char             *ranks_expr;
  char             *title;
  char             *by;         /* --by LEVEL: a row per host (or group of LEVEL); NULL: per rank */
  char             *topology_path;
  TprofTopology    *topo;       /* with --by: the ranks grouped */
  size_t            level;
  gboolean          log;
  gboolean          time_axis;
  int               width;
  int               height;
  TprofPlotFormat   format;
  TprofHeatmapValue value;
} PlotOptions;

static void
plot_options_clear (PlotOptions *o)
{
  g_free (o->op);
  g_free (o->output);
  g_free (o->kind);
  g_free (o->value_text);
  g_free (o->ranks_expr);
  g_free (o->title);
  g_free (o->by);
  g_free (o->topology_path);
  if (o->topo != NULL)
    tprof_topology_free (o->topo);
}

static gboolean
check_options (PlotOptions *o,
               int         *status)
{
  if (o->op == NULL)
    *status = tprof_cli_usage_error ("plot", _("missing --op NAME"));
  else if (o->output == NULL)
    *status = tprof_cli_usage_error ("plot", _("missing -o OUT"));
  else if (o->kind == NULL)
    *status = tprof_cli_usage_error ("plot", _("missing --kind heatmap|trend|breakdown"));
  else if (!tprof_plot_kind_from_name (o->kind, &o->kind_id))
    *status = tprof_cli_usage_error ("plot", _("unknown --kind \"%s\": use heatmap, trend or breakdown"), o->kind);
  else if (o->value_text != NULL && !g_str_equal (o->value_text, "duration")
           && !g_str_equal (o->value_text, "deviation"))
    *status = tprof_cli_usage_error ("plot", _("unknown --value \"%s\": use duration or deviation"),
                                     o->value_text);
  else if ((o->format = tprof_plot_format_from_path (o->output)) == TPROF_PLOT_FORMAT_UNKNOWN)
    *status = tprof_cli_usage_error ("plot", _("cannot tell the format of \"%s\": "
                                               "use a name ending in .png, .svg, .pdf or .csv"), o->output);
  else if ((o->by != NULL || o->topology_path != NULL) && o->kind_id != TPROF_PLOT_KIND_HEATMAP)
    *status = tprof_cli_usage_error ("plot", _("--by and --topology group the rows of --kind heatmap only"));
  else if (o->width < 1 || o->width > MAX_SIDE || o->height < 1 || o->height > MAX_SIDE)
    *status = tprof_cli_usage_error ("plot", _("invalid size %d×%d: --width and --height must be "
                                               "from 1 to %d pixels"), o->width, o->height, MAX_SIDE);
  else
    {
      o->value = o->value_text != NULL && g_str_equal (o->value_text, "deviation") ? TPROF_HEATMAP_DEVIATION
                                                                                     : TPROF_HEATMAP_DURATION;
      return TRUE;
    }
  return FALSE;
}

/* @csv (the chart's numbers) to o->output; takes @csv. */
static int
write_csv_text (const PlotOptions *o,
                char              *csv)
{
  GError *error = NULL;
  int status = TPROF_CLI_EXIT_OK;

  if (!tprof_plot_save_text (o->output, csv, &error))
    {
      status = tprof_cli_write_error (o->output, error);
      g_error_free (error);
    }
  g_free (csv);
  return status;
}

static int
write_picture (const PlotOptions      *o,
               const TprofPlotHeatmap *plot)
{
  GError *error = NULL;

  if (tprof_plot_export (o->output, o->width, o->height, tprof_plot_heatmap_draw_default, (gpointer) plot, &error))
    return TPROF_CLI_EXIT_OK;
  {
    int status = tprof_cli_write_error (o->output, error);

    g_error_free (error);
    return status;
  }
}

/* --by: @plot's rows of ranks @rows gathered into the groups of o->level
 * (a CSV gets every group; a picture at most its rows of 3 px), drawn or
 * written as the plain heat map is. */
static int
write_grouped (const PlotOptions *o,
               const char        *file,
               TprofPlotHeatmap  *plot,
               const gint32      *rows)
{
  guint room = o->format == TPROF_PLOT_FORMAT_CSV
               ? G_MAXUINT
               : (guint) (tprof_plot_heatmap_cells_height (o->width, o->height, plot, NULL) / TPROF_PLOT_HEATMAP_MIN_ROW);
  TprofPlotHeatmapRows *groups = tprof_plot_heatmap_rows_new_at (plot->cells, rows, plot->n_rows, plot->n_cols, o->topo,
                                                                 o->level, room);
  int status;

  if (groups == NULL)
    return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
  tprof_plot_heatmap_use_rows (plot, groups);
  status = o->format == TPROF_PLOT_FORMAT_CSV ? write_csv_text (o, tprof_plot_heatmap_to_csv (plot)) : write_picture (o, plot);
  tprof_plot_heatmap_rows_free (groups);
  return status;
}

static int draw_trend (const PlotOptions *o, const char *file, TprofGatheredTime *gt,
                       const TprofPlotHeatmap *map, const double *column_starts);

/* The heat map's rows: every rank from the lowest to the highest with
 * samples (or asked for), so that the rank axis stays true. */
static int
draw_heatmap (const PlotOptions  *o,
              const char         *file,
              TprofGatheredTime  *gt,
              int                 world_size)
{
  TprofError error = { 0 };
  TprofOccurrences *occ = tprof_occurrences_new (gt, world_size, &error);
  TprofPlotHeatmap plot = { 0 };
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree gint32 *rows = NULL;
  g_autofree double *cells = NULL;
  g_autofree double *column_starts = NULL;
  const int32_t *present;
  size_t n_present, n, n_cols;
  int status;

  if (occ == NULL)
    return tprof_cli_library_error (file, &error);
  present = tprof_occurrences_ranks (occ);
  n_present = tprof_occurrences_n_ranks (occ);
  n = tprof_heatmap_occurrences (occ);
  plot.first_rank = present[0];
  plot.n_rows = (guint) (present[n_present - 1] - present[0] + 1);
  rows = g_new (gint32, plot.n_rows);
  for (guint i = 0; i < plot.n_rows; i++)
    rows[i] = plot.first_rank + (gint32) i;
  /* at most a column per pixel of the picture */
  n_cols = MIN (n, (size_t) o->width);
  cells = g_new (double, (gsize) plot.n_rows * n_cols);
  n_cols = tprof_heatmap_fill (occ, rows, plot.n_rows, n_cols, o->value, cells);
  /* a trend against the timeline: where each column begins */
  if (n_cols > 0 && o->time_axis)
    {
      column_starts = g_new (double, n_cols);
      tprof_heatmap_column_starts (occ, n_cols, column_starts);
    }
  tprof_occurrences_free (occ);
  if (n_cols == 0)
    return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));

  plot.cells = cells;
  plot.n_cols = (guint) n_cols;
  plot.first_occurrence = 0;
  plot.n_occurrences = n;
  plot.value = o->value;
  plot.log = o->log;
  {
    g_autofree char *name = tprof_escape_text (o->op);

    /* TRANSLATORS: the chart title; %s is the operation name */
    title = g_strdup_printf (_("Heat Map: %s"), name);
  }
  plot.title = o->title != NULL ? o->title : title;
  subtitle = g_strdup_printf (o->value == TPROF_HEATMAP_DEVIATION
                                ? _("Deviation from each occurrence's median over the ranks; %zu occurrences, the slowest of each column shown")
                                : _("Duration of each occurrence; %zu occurrences, the slowest of each column shown"),
                              n);
  plot.subtitle = subtitle;
  if (o->kind_id == TPROF_PLOT_KIND_TREND)
    status = draw_trend (o, file, gt, &plot, column_starts);
  else if (o->topo != NULL)
    status = write_grouped (o, file, &plot, rows);
  else
    status = o->format == TPROF_PLOT_FORMAT_CSV ? write_csv_text (o, tprof_plot_heatmap_to_csv (&plot)) : write_picture (o, &plot);
  return status;
}

static int
draw_trend (const PlotOptions      *o,
            const char             *file,
            TprofGatheredTime      *gt,
            const TprofPlotHeatmap *map,
            const double           *column_starts)
{
  TprofPlotTrendModel *model;
  TprofPlotTrend plot;
  gint32 series_ranks[TPROF_PLOT_TREND_MAX_SERIES];
  guint n_series = 0;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *name = tprof_escape_text (o->op);
  TprofRankSummary *summaries = NULL;
  size_t n_ranks = tprof_gathered_time_rank_summaries (gt, &summaries);
  int status;

  if (n_ranks != (size_t) -1)
    n_series = tprof_plot_trend_pick_series (summaries, n_ranks, series_ranks);
  free (summaries);
  model = tprof_plot_trend_model_new (map->cells, map->n_rows, map->n_cols, map->first_rank, map->n_occurrences,
                                      column_starts, series_ranks, n_series);
  if (model == NULL)
    return tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
  plot = model->plot;
  plot.first_occurrence = map->first_occurrence;
  plot.column_starts = model->column_starts;
  /* TRANSLATORS: the chart title; %s is the operation name */
  title = g_strdup_printf (_("Trend: %s"), name);
  plot.title = o->title != NULL ? o->title : title;
  subtitle = g_strdup_printf (plot.n_series == map->n_rows
                                ? _("%zu occurrences; every rank drawn")
                                : _("%zu occurrences; the slowest ranks drawn"),
                              map->n_occurrences);
  plot.subtitle = subtitle;
  if (o->format == TPROF_PLOT_FORMAT_CSV)
    status = write_csv_text (o, tprof_plot_trend_to_csv (&plot));
  else
    {
      GError *error = NULL;

      status = TPROF_CLI_EXIT_OK;
      if (!tprof_plot_export (o->output, o->width, o->height, tprof_plot_trend_draw_default, &plot, &error))
        {
          status = tprof_cli_write_error (o->output, error);
          g_error_free (error);
        }
    }
  tprof_plot_trend_model_free (model);
  return status;
}

/* Operation @op's time on each rank, split into the operations whose
 * parent it is (docs/analysis.md: their time on that rank) and its own self
 * time: every operation is read, for the nesting. */
/* Each operation's count and total on every rank, as the engine's
 * breakdown takes them (world_size entries each); FALSE when memory is
 * exhausted. */
static gboolean
rank_totals_of (TprofGatheredTime *const *gts,
                size_t                    n_ops,
                int                       world,
                gint64                  **counts,
                double                  **sums)
{
  for (size_t i = 0; i < n_ops; i++)
    {
      TprofRankSummary *mine = NULL;
      size_t n_mine = tprof_gathered_time_rank_summaries (gts[i], &mine);

      if (n_mine == (size_t) -1)
        return FALSE;
      counts[i] = g_new0 (gint64, MAX (world, 1));
      sums[i] = g_new0 (double, MAX (world, 1));
      for (size_t k = 0; k < n_mine; k++)
        {
          counts[i][mine[k].rank] = (gint64) mine[k].count;
          sums[i][mine[k].rank] = mine[k].sum;
        }
      free (mine);
    }
  return TRUE;
}

/* Draws (or writes as CSV) the engine's breakdown of @op: @plot's parts
 * named after the operations inside it, then its self time. */
static int
write_breakdown (const PlotOptions      *o,
                 TprofProfileFile       *profile,
                 const TprofBreakdown   *matrix)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *name = tprof_escape_text (o->op);
  /* TRANSLATORS: the chart title; %s is the operation name */
  g_autofree char *title = g_strdup_printf (_("Breakdown per Rank: %s"), name);
  TprofPlotBreakdown plot = { 0 };
  GError *gerror = NULL;
  int status = TPROF_CLI_EXIT_OK;

  for (size_t c = 0; c + 1 < matrix->n_parts; c++)
    g_ptr_array_add (names, g_strdup (tprof_profile_file_operation_name (profile, matrix->children[c])));
  /* TRANSLATORS: the part of an operation's time spent outside the operations inside it; %s is its name */
  g_ptr_array_add (names, g_strdup_printf (_("%s (self)"), o->op));
  plot.ranks = matrix->ranks;
  plot.n_ranks = (guint) matrix->n_ranks;
  plot.part_names = (const char *const *) names->pdata;
  plot.n_parts = names->len;
  plot.values = matrix->values;
  plot.title = o->title != NULL ? o->title : title;
  if (o->format == TPROF_PLOT_FORMAT_CSV)
    return write_csv_text (o, tprof_plot_breakdown_to_csv (&plot));
  if (!tprof_plot_export (o->output, o->width, o->height, tprof_plot_breakdown_draw_default, &plot, &gerror))
    {
      status = tprof_cli_write_error (o->output, gerror);
      g_error_free (gerror);
    }
  return status;
}

static int
draw_breakdown (const PlotOptions *o,
                const char        *file,
                TprofProfileFile  *profile,
                size_t             op,
                const GArray      *selected)
{
  size_t n_ops = tprof_profile_file_n_operations (profile);
  int world = tprof_profile_file_world_size (profile);
  TprofGatheredTime **gts = g_new0 (TprofGatheredTime *, MAX (n_ops, 1));
  g_autofree gint64 *parents = g_new (gint64, MAX (n_ops, 1));
  gint64 **counts = g_new0 (gint64 *, MAX (n_ops, 1));
  double **sums = g_new0 (double *, MAX (n_ops, 1));
  g_autofree double *self = g_new0 (double, MAX (world, 1));
  TprofNesting *nesting = NULL;
  TprofBreakdown *matrix = NULL;
  TprofError error = { 0 };
  int status = TPROF_CLI_EXIT_FAILED;

  for (size_t i = 0; i < n_ops; i++)
    {
      if ((gts[i] = tprof_cli_read_operation (profile, i, selected)) == NULL)
        goto out;
      if (tprof_gathered_time_count (gts[i]) > 0 && tprof_gathered_time_starts (gts[i]) == NULL)
        {
          tprof_cli_no_timeline_error (file);
          goto out;
        }
    }
  if ((nesting = tprof_nesting_new ((const TprofGatheredTime *const *) gts, n_ops, &error)) == NULL)
    {
      tprof_cli_library_error (file, &error);
      goto out;
    }
  for (size_t i = 0; i < n_ops; i++)
    {
      size_t parent;

      parents[i] = tprof_nesting_parent_operation (nesting, i, &parent) ? (gint64) parent : -1;
    }
  if (!rank_totals_of (gts, n_ops, world, counts, sums)
      || !tprof_nesting_rank_self_sums (nesting, op, gts[op], world, self)
      || (matrix = tprof_breakdown_new (op, n_ops, (const int64_t *) parents, (const int64_t *const *) counts,
                                        (const double *const *) sums, self, NULL, (size_t) world)) == NULL)
    {
      tprof_cli_file_error (file, "%s", g_strerror (ENOMEM));
      goto out;
    }
  if (matrix->n_parts == 1)
    tprof_cli_file_error (file, _("no operation runs inside \"%s\": there is nothing to break down "
                                  "(tprof summary shows the operations as a tree)"), o->op);
  else
    status = write_breakdown (o, profile, matrix);

out:
  tprof_breakdown_free (matrix);
  tprof_nesting_free (nesting);
  for (size_t i = 0; i < n_ops; i++)
    {
      tprof_gathered_time_free (gts[i]);
      g_free (counts[i]);
      g_free (sums[i]);
    }
  g_free (gts);
  g_free (counts);
  g_free (sums);
  return status;
}

static int
run (PlotOptions *o,
     const char  *file)
{
  TprofProfileFile *profile = tprof_cli_open (file);
  TprofGatheredTime *gt = NULL;
  GArray *ranks = NULL;
  int status = TPROF_CLI_EXIT_FAILED;
  size_t op;

  if (profile == NULL)
    return TPROF_CLI_EXIT_FAILED;
  if (!tprof_cli_parse_ranks ("plot", o->ranks_expr, tprof_profile_file_world_size (profile), profile, &ranks,
                              &status))
    goto out;
  status = TPROF_CLI_EXIT_FAILED;
  if (!tprof_cli_find_operation (profile, o->op, &op))
    goto out;
  if (o->by != NULL || o->topology_path != NULL)
    {
      o->topo = tprof_cli_topology_load (profile, file, o->topology_path, &status);
      if (o->topo == NULL || !tprof_cli_topology_level ("plot", file, o->topo, o->by, &o->level, &status))
        goto out;
      status = TPROF_CLI_EXIT_FAILED;
      /* --by rank: the plain heat map */
      if (o->level == TPROF_TOPOLOGY_RANK)
        g_clear_pointer (&o->topo, tprof_topology_free);
    }
  if (o->kind_id == TPROF_PLOT_KIND_BREAKDOWN)
    {
      status = draw_breakdown (o, file, profile, op, ranks);
      goto out;
    }
  if ((gt = tprof_cli_read_operation (profile, op, ranks)) == NULL)
    goto out;
  if (tprof_gathered_time_is_empty (gt))
    {
      tprof_cli_file_error (file, _("operation \"%s\" has no samples"), o->op);
      goto out;
    }
  status = draw_heatmap (o, file, gt, tprof_profile_file_world_size (profile));

out:
  tprof_gathered_time_free (gt);
  if (ranks != NULL)
    g_array_unref (ranks);
  tprof_profile_file_close (profile);
  return status;
}

int
tprof_cli_plot (int    argc,
                char **argv)
{
  PlotOptions options = { .width = DEFAULT_WIDTH, .height = DEFAULT_HEIGHT };
  const GOptionEntry entries[] = {
    { "op", 0, 0, G_OPTION_ARG_STRING, &options.op, N_("The operation to draw (required)"), N_("NAME") },
    { "kind", 'k', 0, G_OPTION_ARG_STRING, &options.kind,
      N_("What to draw (required): heatmap (ranks x occurrences), trend (occurrence by occurrence) or "
         "breakdown (each rank's time by the operations inside)"),
      N_("KIND") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output,
      N_("Where to write (required): a .png, .svg, .pdf picture or the .csv numbers"), N_("OUT") },
    { "value", 0, 0, G_OPTION_ARG_STRING, &options.value_text,
      N_("Colour by duration (default) or by deviation from each occurrence's median"), N_("WHICH") },
    { "log", 0, 0, G_OPTION_ARG_NONE, &options.log, N_("Logarithmic colour scale (durations)"), NULL },
    { "time-axis", 0, 0, G_OPTION_ARG_NONE, &options.time_axis,
      N_("Trend: time on the profile's timeline across, instead of occurrences"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &options.by,
      N_("Heat map: a row per host (or per group of a --topology level) instead of per rank, holding its "
         "slowest rank's value"),
      N_("LEVEL") },
    { "topology", 0, 0, G_OPTION_ARG_FILENAME, &options.topology_path,
      N_("A topology file placing hosts or ranks in higher levels (switch, rack)"), N_("FILE") },
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &options.ranks_expr,
      N_("Only these ranks, e.g. 0-3,8,12-15"), N_("EXPR") },
    { "width", 'W', 0, G_OPTION_ARG_INT, &options.width, N_("Picture width in pixels (default 1000)"), N_("PX") },
    { "height", 'H', 0, G_OPTION_ARG_INT, &options.height,
      N_("Picture height in pixels (default 650)"), N_("PX") },
    { "title", 't', 0, G_OPTION_ARG_STRING, &options.title,
      N_("Chart title (default: Heat Map: NAME)"), N_("TEXT") },
    { NULL }
  };
  GOptionContext *context;
  const char *file = NULL;
  int status = TPROF_CLI_EXIT_OK;

  context = tprof_cli_context_new ("plot", _("FILE"),
                                   _("Draws when an operation was slow on which rank: its heat map has a "
                                     "row per rank and a column per occurrence (the k-th sample of each "
                                     "rank by start: one iteration of an SPMD program), coloured by "
                                     "duration or by deviation from the occurrence's median. A chronic "
                                     "straggler is a row, a one-off stall a dot, a bad node a block of "
                                     "neighbouring ranks, a slowdown a gradient."),
                                   _("The trend shows, occurrence by occurrence, the median over the ranks, "
                                     "their 5th-95th percentile and min-max bands, and a line for each rank "
                                     "(for more than 8 ranks, the 3 slowest). With more occurrences than "
                                     "pixels, a column covers several and shows the largest of them, so that "
                                     "no stall is lost; with --by host a row is a host (a run of hosts when "
                                     "rows of 3 pixels do not fit) and shows its slowest rank. CSV: for "
                                     "heatmap rank,first,last,duration (or deviation), one line per cell "
                                     "(host instead of rank with --by host); for trend first,last,ranks,min,p5,"
                                     "median,p95,max and rank_N columns; for breakdown rank and a column "
                                     "per part; seconds. The breakdown stacks, on each rank, the time of "
                                     "the operations whose parent NAME is (tprof summary's tree) and NAME's "
                                     "self time."),
                                   entries);
  if (tprof_cli_parse (context, "plot", &argc, &argv, 1, (const char *[]) { "FILE" }, &file, &status)
      && check_options (&options, &status))
    status = run (&options, file);
  g_option_context_free (context);
  plot_options_clear (&options);
  return status;
}
