/* tprof-follow.h — TprofFollow: a running job followed through its spill directory, polled on a timer, each poll reading only what the files gained. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "tprof-profile.h"

G_BEGIN_DECLS

/* Milliseconds between polls; TPROF_VIEWER_FOLLOW_INTERVAL_MS in the
 * environment overrides it, as does the "interval" property. */
#define TPROF_FOLLOW_DEFAULT_INTERVAL_MS 2000

#define TPROF_TYPE_FOLLOW (tprof_follow_get_type ())
G_DECLARE_FINAL_TYPE (TprofFollow, tprof_follow, TPROF, FOLLOW, GObject)

/* Opens the job whose spill files are in @directory and reads what they
 * hold: NULL with @error naming the directory and what is wrong. It polls
 * once started. Signals: "updated" after a poll that found something new
 * (samples, a rank's file, end, damage, a rank that stopped reporting),
 * and again once a worker computed the std and quantiles of the samples
 * it kept (a poll finding more meanwhile drops that result and starts
 * another);
 * "ended" once every rank wrote its end (polling stops); "error" (a
 * message) when the files cannot be read any more (polling stops). */
TprofFollow  *_tprof_follow_new           (GFile        *directory,
                                           GError      **error);
GFile        *_tprof_follow_get_directory (TprofFollow  *self);
void          _tprof_follow_start         (TprofFollow  *self);
/* Stops polling (no timer, no file read) until resumed; resuming polls at once. */
void          _tprof_follow_set_paused    (TprofFollow  *self,
                                           gboolean      paused);
gboolean      _tprof_follow_get_paused    (TprofFollow  *self);
guint         _tprof_follow_get_interval  (TprofFollow  *self);
void          _tprof_follow_set_interval  (TprofFollow  *self,
                                           guint         interval_ms);
/* One poll now (what the timer does): TRUE when it found something new. */
gboolean      _tprof_follow_poll          (TprofFollow  *self);
/* How many polls read the files so far. */
guint64       _tprof_follow_get_n_reads   (TprofFollow  *self);

/* A new profile holding what has arrived (tprof-profile-live.h), with
 * the std and quantiles computed last. */
TprofProfile *_tprof_follow_snapshot      (TprofFollow  *self);
/* A worker computes the std and quantiles of what arrived: until it is
 * done, a snapshot shows those of an earlier poll. Also while a worker
 * readies the memory the next poll will write. */
gboolean      _tprof_follow_is_computing  (TprofFollow  *self);
/* Once the samples kept for the charts reached their cap
 * (TPROF_VIEWER_FOLLOW_MAX_SAMPLES, tprof-follow-samples.h): a notice
 * saying so; NULL before. */
char         *_tprof_follow_dup_samples_notice (TprofFollow *self);
/* Wall time (g_get_real_time()) of the last poll that found something new. */
gint64        _tprof_follow_get_updated   (TprofFollow  *self);
gboolean      _tprof_follow_has_ended     (TprofFollow  *self);
/* Once ended: the profile the job wrote, as its END records name it
 * (relative names resolved against the spill directory and its parent);
 * NULL when the job wrote none. *@found: it exists. */
char         *_tprof_follow_dup_profile   (TprofFollow  *self,
                                           gboolean     *found);
/* One line per rank whose journal has a damaged tail (its file, where and
 * what), NULL when none. */
char         *_tprof_follow_dup_damage    (TprofFollow  *self);
/* The ranks whose spill file has not appeared long after the job started
 * (_tprof_spill_live_not_reporting()): left out of the arrival until it
 * does. A rank expression, NULL when none; *@n (may be NULL): how many. */
char         *_tprof_follow_dup_not_reporting (TprofFollow *self,
                                               guint       *n);
/* The ranks whose spill file has not appeared (yet; once the job ended:
 * ever), as a rank expression, NULL when none; *@n (may be NULL): how many. */
char         *_tprof_follow_dup_no_file   (TprofFollow  *self,
                                           guint        *n);
/* The ranks that stopped reporting, as a rank expression ("3,5-7"), NULL
 * when none; *@n (may be NULL): how many. */
char         *_tprof_follow_dup_stopped   (TprofFollow  *self,
                                           guint        *n);

G_END_DECLS
