/* tprof-cli-compare.h — what the files of `tprof compare` share: the runs of each side, the rows compared, their renderings, the calibration. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-cli.h"

G_BEGIN_DECLS

/* One line of the comparison: an operation, or a rank of one operation. */
typedef struct
{
  char            *name;    /* operation mode */
  int              rank;    /* per-rank mode */
  double           change;  /* mean total of a new run - mean total of a base run, seconds */
  TprofComparison  c;
} TprofCliCompareRow;

typedef struct
{
  GPtrArray  *base_paths;   /* of const char *, one or more */
  GPtrArray  *new_paths;
  const char *op;           /* per-rank mode: the operation */
  gboolean    world_sizes_differ;
  int         base_world;
  int         new_world;
  gboolean    calibrated;   /* --noise gave the run-to-run spread */
  GArray     *rows;         /* of TprofCliCompareRow */
} TprofCliComparison;

/* ---- renderings (tprof-cli-compare-output.c) ---- */

char *tprof_cli_compare_table (const TprofCliComparison *cmp);
char *tprof_cli_compare_csv (const TprofCliComparison *cmp);
char *tprof_cli_compare_json (const TprofCliComparison *cmp);
/* JUnit XML: a testcase per row, a failure for each "slower". */
char *tprof_cli_compare_junit (const TprofCliComparison *cmp);

/* ---- calibration (tprof-cli-compare-noise.c) ---- */

/* The spread of each operation between @paths (identical runs), rendered
 * in @format; 0, or an exit status after printing why not. */
int tprof_cli_compare_calibrate (GPtrArray      *paths,
                                 const char     *ranks_expr,
                                 TprofCliFormat  format);
/* Reads the CSV that --calibrate writes: operation name -> TprofRunSpread
 * (g_free'd by the table). NULL, after printing why, on a bad file. */
GHashTable *tprof_cli_compare_read_noise (const char *path);

G_END_DECLS
