/* tprof-text.h — what tprof writes as text: durations in units, exact doubles, CSV fields, escaped names, rank expressions, files written whole (no cairo). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <tprof/capture.h>

G_BEGIN_DECLS

/* ---- errors of the writes and exports of viewer/plot ---- */

#define TPROF_PLOT_ERROR (tprof_plot_error_quark ())
GQuark tprof_plot_error_quark (void);

typedef enum
{
  TPROF_PLOT_ERROR_FORMAT,   /* unknown output suffix */
  TPROF_PLOT_ERROR_WRITE,    /* the output could not be written */
  TPROF_PLOT_ERROR_EMPTY,    /* nothing to draw */
} TprofPlotError;

/* ---- CSV ---- */

/* @text as one CSV field: escaped as tprof_escape_text() does (control
 * characters, bidirectional overrides: a record is one line and shows as
 * it is), then quoted (quotes doubled) when it holds a comma or a quote. */
void  tprof_csv_append_text (GString    *out,
                             const char *text);

/* ---- the operations table as CSV: tprof summary's and the viewer's ---- */

/* The header of the operations table's CSV (no line break):
 * name,count,rank_count,sum,mean,std,min,max,median,p95,p99,imbalance,
 * slowest_rank,parent,self_sum,sampled,stored; times in seconds. */
#define TPROF_SUMMARY_CSV_HEADER \
  "name,count,rank_count,sum,mean,std,min,max,median,p95,p99,imbalance,slowest_rank,parent,self_sum,sampled,stored"

/* Appends one row (no line break) of the table: @s of the operation
 * @name, its @parent's name (NULL: none), its @self_sum (NaN: unknown),
 * whether the file keeps a random subset of its samples (@sampled) and
 * how many it keeps (@stored). Unknown numbers are empty fields. */
void tprof_summary_csv_append_row (GString            *out,
                                   const char         *name,
                                   const TprofSummary *s,
                                   const char         *parent,
                                   double              self_sum,
                                   gboolean            sampled,
                                   guint64             stored);

/* Appends @value in the shortest decimal form that reads back as exactly
 * @value ("0.000988567", not "0.00098856700000000009"), with the C
 * locale's decimal point whatever the user's: what CSV and JSON readers
 * expect. */
void tprof_append_exact_double (GString *out,
                                double   value);

/* ---- units ---- */

/* "250 µs", "1.25 s", "3.00 ns": a duration in the unit that suits it, to
 * @digits significant digits (0: 3), trailing zeros kept so that every
 * value shown has one precision ("10.0 ms" beside "10.5 ms"); past 100 s
 * in minutes and hours. NaN gives "—". Free with g_free(). */
char *tprof_format_duration (double secs, int digits);
/* The unit that suits values up to @max_secs: its name ("ms") and how many
 * of it make a second (1e3). */
const char *tprof_duration_unit (double max_secs, double *per_second);
/* What g_strdup_printf ("%.*f", @decimals, @v) gives, in a fraction of its
 * time (a table formats numbers by the hundred thousand). Free with
 * g_free(). */
char *tprof_format_fixed (double v, int decimals);

/* ---- rank expressions ---- */

/* Parses "0-3,8,12-15" into a sorted, duplicate-free array of ranks, each in
 * [0, @world_size). Rejects empty items, reversed ranges ("3-1"), negative or
 * non-numeric ranks and ranks >= @world_size with an error naming the item. */
gboolean tprof_rank_expr_parse (const char *expr,
                                int         world_size,
                                GArray    **ranks_out,  /* of gint32 */
                                GError    **error);
/* The same, where an item may also be a host name from @hostnames
 * (@world_size entries, or NULL for none): the ranks on that host. A bad
 * node is a group of ranks. */
gboolean tprof_rank_expr_parse_hosts (const char        *expr,
                                      int                world_size,
                                      const char *const *hostnames,
                                      GArray           **ranks_out,
                                      GError           **error);
/* The shortest expression for @ranks (sorted): "0-3,8". Free with g_free(). */
char *tprof_rank_expr_format (const gint32 *ranks, gsize n_ranks);

#define TPROF_RANK_EXPR_ERROR (tprof_rank_expr_error_quark ())
GQuark tprof_rank_expr_error_quark (void);

typedef enum
{
  TPROF_RANK_EXPR_ERROR_SYNTAX,  /* empty item, not a number, reversed range */
  TPROF_RANK_EXPR_ERROR_RANGE,   /* a rank outside [0, world_size) */
} TprofRankExprError;

/* ---- names as a terminal shows them ---- */

/* @text (an operation or host name, a file name) as a terminal or a
 * label can show it whole: control characters escaped (\n, \t, \x1b,
 * \u0085), bidirectional overrides and isolates too (\u202e: they would
 * reorder what follows), invalid UTF-8 replaced. Free with g_free(). */
char *tprof_escape_text (const char *text);
/* TRUE when tprof_escape_text() would give @text unchanged. */
gboolean tprof_text_shows_as_is (const char *text);
/* TRUE for the characters above written \uXXXX: C1 controls and the
 * bidirectional embeddings, overrides and isolates. */
gboolean tprof_unichar_is_hidden_control (gunichar c);

/* ---- files written piece by piece ---- */

/* An export too big to build in memory (a trace): written piece by piece,
 * gzip-compressed when @compress, into a temporary file beside @path that
 * tprof_plot_stream_commit() renames into place (and frees @stream);
 * tprof_plot_stream_abort() removes it. Errors name @path. */
typedef struct _TprofPlotStream TprofPlotStream;

TprofPlotStream *tprof_plot_stream_open (const char  *path,
                                         gboolean     compress,
                                         GError     **error);
gboolean tprof_plot_stream_write (TprofPlotStream  *stream,
                                  const void       *data,
                                  gsize             length,
                                  GError          **error);
gboolean tprof_plot_stream_commit (TprofPlotStream  *stream,
                                   GError          **error);
void tprof_plot_stream_abort (TprofPlotStream *stream);

G_END_DECLS
