/* tprof-cli.h — what the commands of the tprof command line share: exit codes, parsing, loading, output. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <tprof/capture.h>

#include "tprof-text.h"

G_BEGIN_DECLS

typedef enum
{
  TPROF_CLI_EXIT_OK = 0,
  TPROF_CLI_EXIT_FAILED = 1,  /* bad file or failed output */
  TPROF_CLI_EXIT_USAGE = 2,
  TPROF_CLI_EXIT_SLOWER = 3,  /* tprof compare --fail-on-slower found a slower operation */
  TPROF_CLI_EXIT_HANG = 4,    /* tprof hang saw a hang */
} TprofCliExit;

typedef enum
{
  TPROF_CLI_FORMAT_TABLE,
  TPROF_CLI_FORMAT_CSV,
  TPROF_CLI_FORMAT_JSON,
} TprofCliFormat;

/* The commands; @argv[0] is the command name. Each returns an exit status. */
int tprof_cli_summary (int argc, char **argv);
int tprof_cli_hist (int argc, char **argv);   /* in tprof-draw */
int tprof_cli_ranks (int argc, char **argv);
int tprof_cli_compare (int argc, char **argv);
int tprof_cli_trace (int argc, char **argv);
int tprof_cli_plot (int argc, char **argv);   /* in tprof-draw */
int tprof_cli_stragglers (int argc, char **argv);
int tprof_cli_convert (int argc, char **argv);
int tprof_cli_hang (int argc, char **argv);
int tprof_cli_merge (int argc, char **argv);
int tprof_cli_top (int argc, char **argv);

/* ---- processes (tprof-cli-run.c, tprof-cli-draw.c) ---- */

/* Sets the locale and the translations up; unless @writes_hdf5, HDF5
 * skips its clean-up at exit. */
void tprof_cli_init (gboolean writes_hdf5);
/* Runs @run on @argv (@argv[0] the command's name), as "tprof @name"
 * for GOption's messages; its exit status. */
int tprof_cli_run (const char *name,
                   int       (*run) (int argc, char **argv),
                   int         argc,
                   char      **argv);
/* Replaces this process by the helper tprof-draw running command @name
 * (hist or plot) on @argv (@argv[0] the command's name), so that only
 * the commands that draw load cairo and pango; returns only when it
 * cannot be run, after printing why, with TPROF_CLI_EXIT_FAILED. */
int tprof_cli_draw (const char *name, int argc, char **argv);

/* ---- errors (tprof-cli-common.c) ---- */

/* Prints one line "tprof: MESSAGE; see "tprof COMMAND --help"" and returns
 * TPROF_CLI_EXIT_USAGE. */
int tprof_cli_usage_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Prints one line "tprof: FILE: MESSAGE" and returns TPROF_CLI_EXIT_FAILED. */
int tprof_cli_file_error (const char *file, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* The refusal of a command that needs the timeline, for a file whose
 * samples have no starts: what it lacks and how to get it. Returns
 * TPROF_CLI_EXIT_FAILED. */
int tprof_cli_no_timeline_error (const char *file);

/* ---- parsing (tprof-cli-common.c) ---- */

/* A GOptionContext for @command with the given help texts; @parameters
 * names the arguments after the options ("FILE", "BASE NEW"). */
GOptionContext *tprof_cli_context_new (const char         *command,
                                       const char         *parameters,
                                       const char         *summary,
                                       const char         *description,
                                       const GOptionEntry *entries);
/* Parses the options and exactly @n_files file arguments (named @names in
 * messages) into @files. On a usage error prints it and returns FALSE
 * with *@status set. */
gboolean tprof_cli_parse (GOptionContext     *context,
                          const char         *command,
                          int                *argc,
                          char             ***argv,
                          guint               n_files,
                          const char *const  *names,
                          const char        **files,
                          int                *status);
gboolean tprof_cli_parse_format (const char     *command,
                                 const char     *text,
                                 TprofCliFormat *format,
                                 int            *status);

/* Prints libcapture's @error about @file, naming the file once; returns
 * TPROF_CLI_EXIT_FAILED. */
int tprof_cli_library_error (const char *file, const TprofError *error);
/* Prints that @path could not be written, for @error of the chart
 * library's writes (naming the file once); returns TPROF_CLI_EXIT_FAILED. */
int tprof_cli_write_error (const char *path, const GError *error);
/* Opens @file (metadata and cached statistics only), or prints why not. */
TprofProfileFile *tprof_cli_open (const char *file);
/* The samples of operation @op on @ranks (NULL: all), or prints why not. */
TprofGatheredTime *tprof_cli_read_operation (TprofProfileFile *profile,
                                             size_t            op,
                                             const GArray     *ranks);
/* The index of operation @name of @profile in *@op, or prints "no
 * operation named" and returns FALSE. */
gboolean tprof_cli_find_operation (const TprofProfileFile *profile,
                                   const char             *name,
                                   size_t                 *op);
/* Parses --ranks @expr (NULL: every rank, *@ranks stays NULL); with
 * @profile, its host names select their ranks too. */
gboolean tprof_cli_parse_ranks (const char       *command,
                                const char       *expr,
                                int               world_size,
                                TprofProfileFile *profile,
                                GArray          **ranks,
                                int              *status);

/* ---- topology (tprof-cli-topology.c) ---- */

/* @profile's ranks grouped by its host names, plus the levels of the
 * topology file at @topology_path (may be NULL); NULL with *@status set
 * after printing why. */
TprofTopology *tprof_cli_topology_load (TprofProfileFile *profile,
                                        const char       *file,
                                        const char       *topology_path,
                                        int              *status);
/* --by @by (NULL: tprof_topology_default_level()) as a level of
 * @topo; FALSE with *@status set after printing why. */
gboolean tprof_cli_topology_level (const char          *command,
                                   const char          *file,
                                   const TprofTopology *topo,
                                   const char          *by,
                                   size_t              *level,
                                   int                 *status);

/* `tprof summary --by LEVEL` (tprof-cli-summary-groups.c): each
 * operation's count, sum and mean per group of @topo's @level, over
 * @ranks (NULL: all); prints it and returns the exit status. */
int tprof_cli_summary_groups (TprofProfileFile    *profile,
                              const char          *file,
                              const TprofTopology *topo,
                              size_t               level,
                              const GArray        *ranks,
                              TprofCliFormat       format);

/* ---- output (tprof-cli-output.c) ---- */

/* Writes @text to standard output; a failed write is reported and gives
 * TPROF_CLI_EXIT_FAILED. */
int tprof_cli_print (const char *text);
/* @text (UTF-8) with every control character written as an escape (\n,
 * \t, \r, \x1b, \u0085), so that a name from a file can neither break a
 * line nor drive the terminal. Free with g_free(). */
char *tprof_cli_escape (const char *text);
/* Columns a terminal gives @text: wide (East Asian) characters count 2,
 * combining marks 0. */
glong tprof_cli_display_width (const char *text);

/* A text table: columns aligned, numbers right-aligned. */
typedef struct _TprofCliTable TprofCliTable;
TprofCliTable *tprof_cli_table_new (guint n_columns, const char *const *headers, const gboolean *left_aligned);
/* Takes ownership of the @n_columns strings in @cells (not of the array). */
void tprof_cli_table_add_row (TprofCliTable *table, char **cells);
char *tprof_cli_table_free_to_string (TprofCliTable *table);

/* Human cells: "250 µs", "—" for NaN. */
char *tprof_cli_cell_duration (double secs);
char *tprof_cli_cell_ratio (double value);
/* @value in decimal, as %lld writes it, without printf's cost. */
char *tprof_cli_cell_int (gint64 value);

void tprof_cli_csv_append_string (GString *out, const char *text);
/* In seconds, the shortest digits that read back exactly; NaN as an empty field. */
void tprof_cli_csv_append_double (GString *out, double value);

void tprof_cli_json_append_string (GString *out, const char *text);
/* The shortest digits that read back exactly; NaN and infinities as null. */
void tprof_cli_json_append_double (GString *out, double value);
/* An integer in decimal, as %lld would write it, without printf's cost
 * (a summary of many operations writes several per operation). */
void tprof_cli_json_append_int (GString *out, gint64 value);

/* The operation tree of `tprof summary` (tprof-cli-summary-tree.c). */
typedef struct
{
  gboolean computed;   /* FALSE: the profile has no timeline, or it was not asked for */
  gssize  *parents;    /* per operation: its parent operation, -1 for none */
  double  *self_sums;  /* per operation: sum of its samples' self times (NaN: unknown) */
} TprofCliTree;

/* Fills @tree from the nesting of every operation's samples on @ranks
 * (NULL: all), reading them all. A profile without a timeline leaves
 * tree->computed FALSE and succeeds. FALSE, after printing why, when a
 * read fails. Free with tprof_cli_tree_clear(). */
gboolean tprof_cli_summary_tree (TprofProfileFile *profile,
                                 const GArray     *ranks,
                                 TprofCliTree     *tree);
void tprof_cli_tree_clear (TprofCliTree *tree);

G_END_DECLS
