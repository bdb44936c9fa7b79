/* tprof-profile-live.h — a TprofProfile made from what a running job's spill files held at one refresh. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-profile.h"
#include "tprof-spill-live-internal.h"

G_BEGIN_DECLS

/* A loaded profile, named after @directory, holding what @sl's TprofLive
 * knows now: each operation's statistics (count, sum, mean, extremes,
 * balance; std and quantiles unknown) and per-rank totals, the blame from
 * arrival over the complete occurrences, and the hosts of the files'
 * headers. It keeps no samples: it does not change as @sl goes on. */
TprofProfile *_tprof_profile_new_live (GFile                *directory,
                                       const TprofSpillLive *sl);
/* TRUE for such a snapshot: its samples cannot be read. */
gboolean      _tprof_profile_is_live  (TprofProfile         *self);

G_END_DECLS
