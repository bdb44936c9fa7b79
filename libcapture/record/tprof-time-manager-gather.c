/* tprof-time-manager-gather.c — one process's records as a profile of one rank. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-profiled-time-private.h"
#include "tprof-time-manager-private.h"

TprofProfiledTime *
tprof_time_manager_gather_local (TprofTimeManager *tm)
{
  TprofProfiledTime *pt;
  const char **names = NULL;
  size_t n_names;

  if (tm == NULL)
    return NULL;
  pt = tprof_profiled_time_new (1);
  if (pt == NULL)
    return NULL;

  n_names = _tprof_time_manager_list_names (tm, &names);
  if (n_names == (size_t) -1)
    goto failed;
  for (size_t i = 0; i < n_names; i++)
    {
      double *times = NULL;
      size_t n = _tprof_time_manager_get_time (tm, names[i], &times);
      /* calloc: every sample is rank 0 */
      int32_t *ranks = n != 0 && n != (size_t) -1 ? calloc (n, sizeof *ranks) : NULL;
      TprofGatheredTime *gt;

      if (n == (size_t) -1 || (n != 0 && ranks == NULL))
        {
          free (times);
          free (ranks);
          goto failed;
        }
      gt = tprof_gathered_time_new_take (times, ranks, n);
      if (gt == NULL || !_tprof_profiled_time_append (pt, names[i], gt))
        goto failed;
    }
  free (names);
  return pt;

failed:
  free (names);
  tprof_profiled_time_free (pt);
  return NULL;
}
