/* app-test-util.h — fixtures and numpy references shared by the tprof-viewer tests. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>


G_BEGIN_DECLS

typedef enum
{
  /* 8 ranks on two hosts; forward (rank 5 slow), allreduce (no rank 7),
   * io/checkpoint (ranks 0 and 4), empty, constant, zeros, big (16000 tied samples) */
  APP_TEST_PROFILE_BASIC,
  /* 16 ranks of a training loop, for the screenshot */
  APP_TEST_PROFILE_REALISTIC,
  /* 1024 ranks of a training step, rank 777 slow, for the overlay screenshot */
  APP_TEST_PROFILE_MANY_RANKS,
  /* a bounded capture (docs/file-format.md) on 3 ranks: "step" keeps
   * APP_TEST_SAMPLED_KEPT samples of each rank; rank 0 recorded 1000
   * (sum 25 s, min 0.5 ms, max 0.2 s), rank 1 400 (sum 12 s, min 1 ms,
   * max 0.3 s), rank 2 only those it kept; "plain" is not sampled */
  APP_TEST_PROFILE_SAMPLED,
} AppTestProfile;

#define APP_TEST_SAMPLED_KEPT 30
/* The sum of rank 2's samples of "step", all it recorded. */
double      app_test_sampled_rank2_sum (void);

#define APP_TEST_BASIC_WORLD 8
#define APP_TEST_BASIC_N_OPS 7

/* Writes the profile into @dir as @name with tprof_profiled_time_save; returns its path. */
char       *app_test_make_profile (const char     *dir,
                                   const char     *name,
                                   AppTestProfile  profile);

/* Runs reference.py on @file; returns line name -> GArray of double. */
GHashTable *app_test_reference    (const char *file,
                                   const char *command,
                                   const char *op,
                                   const char *ranks,
                                   const char *arg1,
                                   const char *arg2);
/* Runs every query of @queries (each a NULL-terminated array: command, op,
 * ranks, args) in one reference.py process and keeps the answers, which
 * app_test_reference() then returns without starting Python again. */
void        app_test_reference_prefetch (const char         *file,
                                         const char * const *const *queries,
                                         guint               n_queries);

/* The values of line @name; fails the test when absent. */
GArray     *app_test_reference_get (GHashTable *reference,
                                    const char *name);

/* Relative closeness; NaN equals NaN. */
void        app_test_assert_close (double      got,
                                   double      want,
                                   double      rtol,
                                   const char *what);

/* Iterates the default main context until @done returns TRUE; fails after a minute. */
void        app_test_wait         (gboolean  (*done) (gpointer data),
                                   gpointer    data);

/* A fresh temporary directory, removed with app_test_remove_dir(). */
char       *app_test_make_dir     (void);
void        app_test_remove_dir   (const char *dir);

G_END_DECLS
