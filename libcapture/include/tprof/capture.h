/* capture.h — the one header an application includes to use libtprof-capture. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <tprof/tprof-arrival.h>
#include <tprof/tprof-breakdown.h>
#include <tprof/tprof-clock.h>
#include <tprof/tprof-clock-sync.h>
#include <tprof/tprof-compare.h>
#include <tprof/tprof-error.h>
#include <tprof/tprof-gathered-time.h>
#include <tprof/tprof-hang.h>
#include <tprof/tprof-heatmap.h>
#include <tprof/tprof-histogram.h>
#include <tprof/tprof-live.h>
#include <tprof/tprof-macros.h>
#include <tprof/tprof-nesting.h>
#include <tprof/tprof-occurrences.h>
#include <tprof/tprof-operation-index.h>
#include <tprof/tprof-outliers.h>
#include <tprof/tprof-profile-file.h>
#include <tprof/tprof-profiled-time.h>
#include <tprof/tprof-slowest.h>
#include <tprof/tprof-spill.h>
#include <tprof/tprof-time-manager.h>
#include <tprof/tprof-timer.h>
#include <tprof/tprof-topology.h>
#include <tprof/tprof-version.h>
