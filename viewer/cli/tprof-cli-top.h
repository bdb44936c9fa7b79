/* tprof-cli-top.h — `tprof top`: what one refresh shows, shared by the command and its rendering. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "tprof-cli.h"
#include "tprof-spill-live-internal.h"

G_BEGIN_DECLS

/* The job's rate of progress between two refreshes. */
typedef struct
{
  guint64 *occurrences;   /* per operation at the last refresh */
  gsize    n_ops;
  gint64   when;          /* g_get_monotonic_time() of the last refresh, 0 before the first */
  double   rate;          /* occurrences of @op per second since the refresh before; NaN when unknown */
  gssize   op;            /* the busiest synchronising operation (or the busiest), -1 when none */
} TprofCliTopProgress;

/* Measures the progress since the last call. */
void tprof_cli_top_progress_update (TprofCliTopProgress *p,
                                    const TprofLive     *live,
                                    gint64               now);

/* The straggler decision of the complete occurrences so far, by the
 * hosts' topology at its default level: TRUE with *@v filled; *@topo and
 * *@s are to be freed either way (either may be NULL). */
gboolean tprof_cli_top_verdict (const TprofSpillLive  *sl,
                                TprofTopology        **topo,
                                TprofStragglers      **s,
                                TprofStragglerVerdict *v);

/* The profile the job's ranks named in their END records, NULL when none
 * did (the job could not write it). */
const char *tprof_cli_top_profile (const TprofSpillLive *sl);

/* One refresh as one line of JSON (docs: tprof.1, "top"). */
char *tprof_cli_top_render_json (const TprofSpillLive      *sl,
                                 const TprofCliTopProgress *progress,
                                 double                     now);

/* The text of one refresh at wall time @now (seconds since the epoch). */
char *tprof_cli_top_render (const TprofSpillLive      *sl,
                            const TprofCliTopProgress *progress,
                            double                     now);

G_END_DECLS
