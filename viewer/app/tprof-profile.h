/* tprof-profile.h — TprofProfile: a profile file opened off the UI thread on its cached statistics, each operation's samples read when needed. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>
#include <tprof/capture.h>

#include "tprof-operation-samples.h"

G_BEGIN_DECLS

/* The largest world the viewer lists rank by rank. */
#define TPROF_PROFILE_MAX_RANKS (1 << 20)

/* A profile of at most this many samples in all is read whole while it
 * opens: every chart is then at hand at once. A larger one opens on its
 * cached statistics, and an operation's samples are read when it is
 * selected. TPROF_VIEWER_EAGER_SAMPLES in the environment overrides it. */
#define TPROF_PROFILE_EAGER_SAMPLES 4000000

/* Memory kept for the samples of operations read earlier (the last one
 * read is always kept): past it, the least recently used are dropped and
 * read again when selected again. */
#define TPROF_PROFILE_KEEP_BYTES ((gsize) 256 << 20)

#define TPROF_PROFILE_ERROR (_tprof_profile_error_quark ())
GQuark _tprof_profile_error_quark (void);

#define TPROF_TYPE_PROFILE (tprof_profile_get_type ())
G_DECLARE_FINAL_TYPE (TprofProfile, tprof_profile, TPROF, PROFILE, GObject)

TprofProfile *_tprof_profile_new              (GFile        *file);
GFile        *_tprof_profile_get_file         (TprofProfile *self);

/* Opening: the metadata and cached statistics (computed from the samples
 * for files of format 1), in a worker thread; then, for a small profile,
 * every operation's samples. */
void          _tprof_profile_load_async       (TprofProfile        *self,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* The error message is libcapture's, which names the file and the fault. */
gboolean      _tprof_profile_load_finish      (TprofProfile  *self,
                                               GAsyncResult  *result,
                                               GError       **error);
/* 0..1 while loading; while the helper process opens the file, no
 * fraction is known and _tprof_profile_get_is_reading() is TRUE. */
double        _tprof_profile_get_progress     (TprofProfile *self);
gboolean      _tprof_profile_get_is_reading   (TprofProfile *self);
/* Stops the work the profile does in the background (finding the
 * straggler, reading samples): call it when the profile is put away. */
void          _tprof_profile_close            (TprofProfile *self);

/* What the file says, once loaded (0 and NULL before). */
int           _tprof_profile_get_world_size   (TprofProfile *self);
gsize         _tprof_profile_get_n_operations (TprofProfile *self);
/* Name of operation @op; NULL when out of range. */
const char   *_tprof_profile_get_name         (TprofProfile *self,
                                               gsize         op);
/* Host of @rank, or NULL when the file does not say. */
const char   *_tprof_profile_get_hostname     (TprofProfile *self,
                                               int           rank);
/* Samples of @op in the file (0 when out of range). */
guint64       _tprof_profile_get_sample_count (TprofProfile *self,
                                               gsize         op);
/* The statistics of every sample of @op, from the file's cache; NULL when
 * out of range. */
const TprofSummary *_tprof_profile_get_summary (TprofProfile *self,
                                                gsize         op);
/* The statistics of @op on the ranks @mask selects (NULL: all), from
 * @samples when given (every statistic), otherwise from the cached
 * per-rank totals (std and the quantiles NaN). Any thread. */
void          _tprof_profile_summarize        (TprofProfile                *self,
                                               gsize                        op,
                                               const TprofOperationSamples *samples,
                                               const guint8                *mask,
                                               TprofSummary                *out);

/* The samples of @op when they are in memory, or NULL. Main thread. */
TprofOperationSamples *_tprof_profile_ref_samples (TprofProfile *self,
                                                   gsize         op);
/* Reads and indexes the samples of @op in a worker (one read at a time:
 * a later one waits for, or after cancelling, the earlier); the result is
 * kept within TPROF_PROFILE_KEEP_BYTES for _tprof_profile_ref_samples(). */
void          _tprof_profile_read_samples_async (TprofProfile        *self,
                                                 gsize                op,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
TprofOperationSamples *_tprof_profile_read_samples_finish (TprofProfile  *self,
                                                           GAsyncResult  *result,
                                                           GError       **error);
/* 0..1: how far the latest read has come. */
double        _tprof_profile_get_read_progress (TprofProfile *self);

/* Blame from arrival (docs/analysis.md) over every operation, and the first
 * synchronising operation (or -1); NULL for a profile without a timeline,
 * and while it is being found. */
const TprofStragglers *_tprof_profile_get_stragglers (TprofProfile *self,
                                                      gssize       *first_synchronising);
/* What explains the late arrivals, as the engine decides it at the host
 * level (rank when no host holds two ranks): a host, a rank, or nothing.
 * *@topology gets the ranks grouped by host (owned by @self). FALSE while
 * the blame is not known, without a timeline, or when memory runs out. */
gboolean _tprof_profile_decide_straggler (TprofProfile           *self,
                                          TprofStragglerVerdict  *verdict,
                                          const TprofTopology   **topology);
/* The ranks grouped by host (owned by @self), once loaded; NULL before,
 * or when memory runs out. Main thread. */
const TprofTopology *_tprof_profile_get_topology (TprofProfile *self);
/* TRUE while the straggler is being found: a large profile's samples are
 * read once, operation after operation, in the background (yielding to
 * the reads of selected operations); "stragglers-found" is emitted when
 * that ends. */
gboolean      _tprof_profile_is_finding_stragglers (TprofProfile *self);
double        _tprof_profile_get_straggler_progress (TprofProfile *self);

/* The operation tree (docs/analysis.md): built from the nesting of every sample
 * (about 300 ns and 80 bytes a sample), so it needs every operation read:
 * while opening a profile read whole of at most
 * TPROF_PROFILE_TREE_AT_ONCE_SAMPLES, else by a background pass that reads
 * every operation once (the one that finds the straggler of a large
 * profile), so that opening does not wait for it; "tree-found" is
 * emitted when that ends. Only for profiles of at most
 * TPROF_PROFILE_TREE_MAX_SAMPLES samples, which are held at once. */
#define TPROF_PROFILE_TREE_AT_ONCE_SAMPLES 1000000   /* TPROF_VIEWER_TREE_AT_ONCE_SAMPLES overrides it */
#define TPROF_PROFILE_TREE_MAX_SAMPLES 10000000
/* ... and at most this many (operation, rank) self-time sums. */
#define TPROF_PROFILE_TREE_MAX_RANK_CELLS ((guint64) 1 << 26)

/* TRUE when the tree is known (a profile with a timeline). */
gboolean      _tprof_profile_has_tree           (TprofProfile *self);
/* TRUE while the background pass builds it. */
gboolean      _tprof_profile_is_building_tree   (TprofProfile *self);
/* The parent operation of @op, -1 at the top level or without a tree. */
gssize        _tprof_profile_get_parent         (TprofProfile *self,
                                                 gsize         op);
/* @op's self time (its time minus that of the samples inside it) summed
 * over the ranks @mask selects (NULL: all); NaN without a tree. */
double        _tprof_profile_get_self_time      (TprofProfile *self,
                                                 gsize         op,
                                                 const guint8 *mask);
/* @op's self time on each rank (world_size entries), NULL without a tree. */
const double *_tprof_profile_get_rank_self_sums (TprofProfile *self,
                                                 gsize         op);
/* What the file's cache knows of @op (per-rank counts and totals); NULL
 * when out of range. */
/* Whether operation @op's file keeps a random subset of what the ranks
 * recorded (a sample limit, docs/file-format.md): its std and quantiles are
 * estimates, its count, sum, mean, min and max exact. */
gboolean _tprof_profile_is_sampled (TprofProfile *self,
                                    gsize         op);
const TprofOperationStats *_tprof_profile_get_stats (TprofProfile *self,
                                                     gsize         op);

G_END_DECLS
