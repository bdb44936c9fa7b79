/* tprof-preload.c — libtprof-preload.so's life cycle: profiling starts in MPI_Init and the profile is gathered and saved in MPI_Finalize. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <tprof/capture-mpi.h>

#include "tprof-preload-private.h"

TprofTimeManager *_tprof_preload_manager;

/* $TPROF_SAMPLE_LIMIT: keep at most that many samples per MPI function
 * and thread (a uniform random subset past it, with exact counts and
 * sums), so that a long run's memory stays bounded. Unset, empty or 0:
 * every sample. Anything else that is not a number is said once on
 * stderr and ignored: the program runs on, profiled unbounded. */
static void
preload_apply_sample_limit (TprofTimeManager *tm)
{
  const char *text = getenv ("TPROF_SAMPLE_LIMIT");
  unsigned long long limit;
  char *end;

  if (text == NULL || *text == '\0')
    return;
  errno = 0;
  limit = strtoull (text, &end, 10);
  if (errno != 0 || *end != '\0' || text[0] == '-' || limit > SIZE_MAX)
    {
      fprintf (stderr, "tprof: TPROF_SAMPLE_LIMIT=%.64s is not a number of samples; keeping every sample\n",
               text);
      return;
    }
  tprof_time_manager_set_sample_limit (tm, (size_t) limit);
}

/* The manager lives until the process exits: it stays enabled on the thread
 * that called MPI_Init, so that the application's own TPROF_SCOPE regions
 * of that thread land in the same profile, and disabling it at
 * MPI_Finalize could pop a manager the application enabled after it. */
static TprofTimeManager *
preload_start (void)
{
  TprofTimeManager *tm = tprof_time_manager_new ();

  if (tm == NULL)
    {
      fputs ("tprof: out of memory; MPI calls will not be profiled\n", stderr);
      return NULL;
    }
  preload_apply_sample_limit (tm);
  tprof_time_manager_enable (tm);
  return tm;
}

/* Times MPI_Init itself (often the slowest call of a short run) and starts
 * recording once MPI is up. */
static int
preload_init (TprofSite *site, int (*init) (void *), void *data)
{
  TprofTimeManager *tm = preload_start ();
  TprofTimer timer;
  int rc;

  if (tm == NULL)
    return init (data);
  timer = _tprof_timer_start_site (tm, site);
  rc = init (data);
  tprof_timer_stop (&timer);
  if (rc == MPI_SUCCESS)
    {
      _tprof_preload_spill_start (tm);
      __atomic_store_n (&_tprof_preload_manager, tm, __ATOMIC_RELEASE);
    }
  return rc;
}

typedef struct
{
  int    *argc;
  char ***argv;
  int     required;
  int    *provided;
} InitArgs;

static int
call_init (void *data)
{
  InitArgs *args = data;

  return PMPI_Init (args->argc, args->argv);
}

static int
call_init_thread (void *data)
{
  InitArgs *args = data;

  return PMPI_Init_thread (args->argc, args->argv, args->required, args->provided);
}

int
MPI_Init (int *argc, char ***argv)
{
  static TprofSite site = { "MPI_Init", 0 };
  InitArgs args = { argc, argv, 0, NULL };

  return preload_init (&site, call_init, &args);
}

int
MPI_Init_thread (int *argc, char ***argv, int required, int *provided)
{
  static TprofSite site = { "MPI_Init_thread", 0 };
  InitArgs args = { argc, argv, required, provided };

  return preload_init (&site, call_init_thread, &args);
}

/* $TPROF_OUTPUT, or tprof-PID.h5 in the working directory (rank 0's PID:
 * only rank 0 writes). */
static const char *
output_path (char *buffer, size_t size)
{
  const char *path = getenv ("TPROF_OUTPUT");

  if (path != NULL && path[0] != '\0')
    return path;
  snprintf (buffer, size, "tprof-%ld.h5", (long) getpid ());
  return buffer;
}

/* Where this rank knows the profile was written, for its spill's end. */
static char written[PATH_MAX];

/* Rank 0 saves the gathered profile and says where, in one line. */
static void
save_profile (TprofProfiledTime *pt)
{
  char default_path[64];
  char *resolved = written;
  const char *path = output_path (default_path, sizeof default_path);
  TprofError error = { 0 };

  if (tprof_profiled_time_save (pt, path, &error) != 0)
    {
      fprintf (stderr, "tprof: no profile written: %s\n", error.message);
      return;
    }
  if (realpath (path, resolved) == NULL)
    snprintf (resolved, sizeof written, "%s", path);
  fprintf (stderr, "tprof: profile of %d rank%s (%zu operation%s) written to %s\n",
           tprof_profiled_time_world_size (pt),
           tprof_profiled_time_world_size (pt) == 1 ? "" : "s",
           tprof_profiled_time_len (pt), tprof_profiled_time_len (pt) == 1 ? "" : "s", resolved);
}

/* $TPROF_SAVE: "gather" (the default) or "parallel"; what else is named
 * and gathering goes on. Every rank reads the same environment. */
static bool
parallel_wanted (int rank)
{
  const char *how = getenv ("TPROF_SAVE");

  if (how == NULL || how[0] == '\0' || strcmp (how, "gather") == 0)
    return false;
  if (strcmp (how, "parallel") == 0)
    return true;
  if (rank == 0)
    fprintf (stderr, "tprof: TPROF_SAVE=%s is neither 'gather' nor 'parallel': gathering to rank 0\n", how);
  return false;
}

/* Every rank writes its own samples into the one file: rank 0's PID names
 * it by default, so every rank must learn it. */
static void
save_parallel (TprofTimeManager *tm, int rank)
{
  char default_path[64];
  char *resolved = written;
  long pid = (long) getpid ();
  const char *path;
  TprofError error = { 0 };
  int size = 1;

  PMPI_Bcast (&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  PMPI_Comm_size (MPI_COMM_WORLD, &size);
  snprintf (default_path, sizeof default_path, "tprof-%ld.h5", pid);
  path = getenv ("TPROF_OUTPUT") != NULL && getenv ("TPROF_OUTPUT")[0] != '\0' ? getenv ("TPROF_OUTPUT")
                                                                               : default_path;
  if (tprof_time_manager_save_parallel (tm, MPI_COMM_WORLD, path, &error) != 0)
    {
      if (rank == 0)
        fprintf (stderr, "tprof: no profile written: %s\n", error.message);
      return;
    }
  if (realpath (path, resolved) == NULL)
    snprintf (resolved, sizeof written, "%s", path);
  if (rank == 0)
    fprintf (stderr, "tprof: profile of %d rank%s written in parallel to %s\n", size, size == 1 ? "" : "s",
             resolved);
}

int
MPI_Finalize (void)
{
  TprofTimeManager *tm = __atomic_exchange_n (&_tprof_preload_manager, NULL, __ATOMIC_ACQ_REL);

  if (tm != NULL)
    {
      int rank = 0;

      PMPI_Comm_rank (MPI_COMM_WORLD, &rank);
      if (parallel_wanted (rank))
        save_parallel (tm, rank);
      else
        {
          TprofError error = { 0 };
          TprofProfiledTime *pt = tprof_time_manager_gather (tm, MPI_COMM_WORLD, 0, &error);

          if (pt != NULL)
            save_profile (pt);
          else if (error.code != 0 && rank == 0)
            fprintf (stderr, "tprof: no profile written: %s\n", error.message);
          tprof_profiled_time_free (pt);
        }
      _tprof_preload_spill_end (tm, written[0] != '\0' ? written : NULL);
    }
  return PMPI_Finalize ();
}
