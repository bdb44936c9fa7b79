/* tprof-profile-index-private.h — the layout of a profile index, shared by the files that compute on it. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-profile-index.h"

G_BEGIN_DECLS

typedef struct
{
  char             *name;
  gsize             n_samples;
  double           *sorted;          /* n_samples: grouped by rank (ascending), ascending within a rank */
  gsize             n_ranks;         /* ranks with at least one sample */
  gint32           *ranks;           /* n_ranks, ascending */
  gsize            *offsets;         /* n_ranks + 1, into sorted */
  TprofRankSummary *rank_summaries;  /* n_ranks */
  double           *rank_m2;         /* n_ranks: sum of squared deviations from the rank's mean */
  TprofSummary      summary;         /* all ranks */
} TprofOpIndex;

struct _TprofProfileIndex
{
  int           world_size;
  char        **hostnames;   /* world_size entries, or NULL */
  gsize         n_ops;
  TprofOpIndex *ops;
};

/* A sorted run of samples (one rank's), with a search window used by selection. */
typedef struct
{
  const double *values;
  gsize         len;
  gsize         lo;
  gsize         hi;
  gsize         pos;
  gsize         rank_index;   /* into TprofOpIndex.ranks */
} TprofRun;

/* The runs of the ranks of @op selected by @mask; returns how many (g_free @runs). */
gsize  _tprof_op_index_select_runs (const TprofOpIndex *op,
                                    const guint8       *mask,
                                    TprofRun          **runs);
/* The @k-th smallest (0-based) value of the union of @runs, holding @total values. */
double _tprof_runs_select_kth      (TprofRun *runs,
                                    gsize     n_runs,
                                    gsize     total,
                                    gsize     k);
/* numpy 'linear' quantile @q of the union of @runs, mapped through the
 * increasing function @map (NULL: as they are), i.e. numpy.quantile (map
 * (values), q); NaN when @total is 0. */
double _tprof_runs_quantile        (TprofRun *runs,
                                    gsize     n_runs,
                                    gsize     total,
                                    double    q,
                                    double  (*map) (double));
/* First index in [@from, @len) of @values whose value is >= @x (or > @x when
 * @inclusive), galloping from @from since callers advance monotonically. */
gsize  _tprof_sorted_search        (const double *values,
                                    gsize         from,
                                    gsize         len,
                                    double        x,
                                    gboolean      inclusive);
/* Sorts @n non-negative doubles ascending; @scratch holds @n values. */
void   _tprof_sort_nonnegative     (double *values,
                                    gsize   n,
                                    double *scratch);

G_END_DECLS
