/* tprof-hosts-view.h — TprofHostsView: the per-rank card's Per Host mode, each host's total, mean and late count, slowest first. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-chart.h"

G_BEGIN_DECLS

#define TPROF_TYPE_HOSTS_VIEW (tprof_hosts_view_get_type ())
G_DECLARE_FINAL_TYPE (TprofHostsView, tprof_hosts_view, TPROF, HOSTS_VIEW, TprofChart)

/* What is drawn (every host with a rank shown, slowest first); NULL when
 * nothing is (no operation, no host holding two ranks). The title is not
 * set. */
const TprofPlotHosts *_tprof_hosts_view_get_plot (TprofHostsView *self);

G_END_DECLS
