/* tprof-cli-blame.h — what `tprof stragglers` computes and its renderers (table, CSV, JSON) print. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-cli.h"

G_BEGIN_DECLS

typedef struct
{
  const char           *file;
  TprofProfileFile     *profile;
  TprofTopology        *topo;
  size_t                level;          /* --by: rows at this level, the verdict from it down */
  TprofStragglers      *stragglers;
  GPtrArray            *synchronising;  /* operation names */
  TprofStragglerVerdict verdict;
  double                expected_late;  /* late counts one rank gets by chance */
  size_t                n_groups;       /* at level */
  uint64_t             *late_count;     /* per group of level */
  double               *wait_caused;
  size_t               *order;          /* groups by wait caused, largest first */
  double                total_wait;
  size_t                top;            /* rows shown */
  gboolean              top_given;      /* --top: CSV and JSON are cut too */
} TprofCliBlame;

/* The rows CSV and JSON print: --top's, or every one. */
static inline size_t
tprof_cli_blame_machine_rows (const TprofCliBlame *b)
{
  return b->top_given ? b->top : b->n_groups;
}

/* Indices 0 .. @n - 1 by @wait descending (ties: the lower index first);
 * free with g_free(). */
size_t *tprof_cli_blame_sort (const double *wait, size_t n);
/* The ranks of group @g of @level as an expression ("512-519"). */
char *tprof_cli_blame_ranks_text (const TprofCliBlame *b, size_t level, size_t g);

char *tprof_cli_blame_table (const TprofCliBlame *b);
char *tprof_cli_blame_csv (const TprofCliBlame *b);
char *tprof_cli_blame_json (const TprofCliBlame *b);

G_END_DECLS
