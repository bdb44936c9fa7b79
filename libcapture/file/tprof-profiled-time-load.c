/* tprof-profiled-time-load.c — tprof_profiled_time_load() and _load_isolated(): a whole profile, read through TprofProfileFile: format 3's columns in blocks of many operations, older files one operation at a time. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profile-file.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-reader-private.h"
#include "tprof-profiled-time-internal.h"

/* Moves what @pf knows beyond the samples into @pt. */
static int
tprof_profiled_time_take_metadata (TprofProfiledTime *pt,
                                   TprofProfileFile  *pf,
                                   TprofError        *error)
{
  if (pf->hostnames != NULL
      && tprof_profiled_time_set_hostnames (pt, (const char *const *) pf->hostnames, error) < 0)
    return -1;
  _tprof_profiled_time_take_info (pt, pf->created, pf->producer, pf->clock);
  pf->created = pf->producer = pf->clock = NULL;
  if (tprof_profile_file_clock_offsets (pf) != NULL)
    {
      tprof_profiled_time_set_timeline_take (pt, pf->clock_offsets, pf->clock_offset_errors, pf->timeline_origin);
      pf->clock_offsets = pf->clock_offset_errors = NULL;
      pf->timeline_origin = NULL;
    }
  _tprof_profiled_time_set_data_until_take (pt, pf->data_until);
  pf->data_until = NULL;
  return 0;
}

/* @pf's table of its operations by name, which it no longer finds by
 * name after (nothing of the load asks it to). */
static size_t *
tprof_profile_file_take_index (TprofProfileFile *pf)
{
  size_t *slots = pf->name_slots;

  pf->name_slots = NULL;
  return slots;
}

typedef struct
{
  TprofProfiledTime *pt;
  TprofProfileFile  *pf;
  size_t             taken;  /* operations 0 to taken - 1, names and all */
} LoadInto;

/* The names the profile took (and frees, or holds in its block of
 * names) are no longer the file's to free. */
static void
tprof_profile_file_let_go_names (TprofProfileFile *pf,
                                 size_t            taken)
{
  for (size_t k = 0; k < taken; k++)
    pf->ops[k].name = NULL;
}

/* tprof_profile_file_read_all()'s callback: each operation appended,
 * its name moved from the file into the profile (the file lets go of
 * the names taken after the read: a block's operations are taken while
 * another thread may still check them, and name them if refused). */
static bool
tprof_profiled_time_take_operation (size_t             op,
                                    TprofGatheredTime *gt,
                                    void              *user_data,
                                    TprofError        *error)
{
  LoadInto *into = user_data;

  into->taken++;
  if (_tprof_profiled_time_append_take (into->pt, into->pf->ops[op].name, gt))
    return true;
  tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation %zu", into->pf->path, op);
  return false;
}

/* _tprof_profile_file_read_views()'s callback: an operation taken as
 * the view of its rows, its selection made only when asked for. */
static bool
tprof_profiled_time_take_view (size_t                   op,
                               const TprofProfiledView *rows,
                               void                    *user_data,
                               TprofError              *error)
{
  LoadInto *into = user_data;

  into->taken++;
  if (_tprof_profiled_time_append_view_take (into->pt, into->pf->ops[op].name, rows))
    return true;
  tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory reading operation %zu", into->pf->path, op);
  return false;
}

/* Every operation of the file at @path, opened by @open, read by
 * tprof_profile_file_read_all(): format 3's columns in blocks of many
 * operations, older files an operation at a time. */
static TprofProfiledTime *
tprof_profiled_time_load_with (const char        *path,
                               TprofProfileFile *(*open) (const char *, TprofError *),
                               const char        *caller,
                               TprofError        *error)
{
  TprofProfileFile *pf;
  LoadInto into = { NULL, NULL, 0 };

  tprof_error_clear (error);
  if (path == NULL || path[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the path is empty", caller);
      return NULL;
    }
  pf = open (path, error);
  if (pf == NULL)
    return NULL;
  into.pf = pf;
  into.pt = tprof_profiled_time_new (pf->world_size);
  /* the file's index of the names becomes the profile's: every
   * operation is appended in the file's order */
  if (into.pt != NULL
      && !_tprof_profiled_time_reserve_indexed (into.pt, pf->n_ops, tprof_profile_file_take_index (pf),
                                                pf->name_mask + 1, pf->name_seed))
    {
      tprof_profiled_time_free (into.pt);
      into.pt = NULL;
    }
  if (into.pt == NULL)
    tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
  /* the names' block goes with the names (pf->names_in_block stays:
   * the names not handed over are not freed alone either) */
  else if (pf->names_block != NULL)
    {
      _tprof_profiled_time_adopt_names (into.pt, pf->names_block, pf->n_ops);
      pf->names_block = NULL;
    }
  if (into.pt != NULL)
    {
      int read = _tprof_profile_file_read_views (pf, tprof_profiled_time_take_operation,
                                                 tprof_profiled_time_take_view, &into, error);

      tprof_profile_file_let_go_names (pf, into.taken);
      if (read < 0 || tprof_profiled_time_take_metadata (into.pt, pf, error) < 0)
        {
          tprof_profiled_time_free (into.pt);
          into.pt = NULL;
        }
    }
  tprof_profile_file_close (pf);
  return into.pt;
}

TprofProfiledTime *
tprof_profiled_time_load (const char *path,
                          TprofError *error)
{
  return tprof_profiled_time_load_with (path, _tprof_profile_file_open_for_load, "tprof_profiled_time_load", error);
}

TprofProfiledTime *
tprof_profiled_time_load_isolated (const char *path,
                                   TprofError *error)
{
  return tprof_profiled_time_load_with (path, tprof_profile_file_open_isolated,
                                        "tprof_profiled_time_load_isolated", error);
}
