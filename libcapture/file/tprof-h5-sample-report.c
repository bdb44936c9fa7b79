/* tprof-h5-sample-report.c — the readers' message for an invalid sample, by operation and index (formats 1, 2) or by row (format 3). */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "tprof-h5-reader-private.h"

int
_tprof_h5_report_invalid (const TprofProfileFile *pf,
                          const char             *op,
                          double                  time,
                          const char             *rank_text,
                          size_t                  i,
                          TprofError             *error)
{
  if (!isfinite (time) || time < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': times[%zu] is %s (%g), expected a finite time >= 0",
                            pf->path, op, i,
                            isnan (time) ? "NaN" : isinf (time) ? "infinite" : "negative", time);
  return tprof_error_set (error, TPROF_ERROR_FORMAT,
                          "%s: operation '%s': ranks[%zu] is %s, outside [0, %d) (world_size %d)",
                          pf->path, op, i, rank_text, pf->world_size, pf->world_size);
}

int
_tprof_h5_report_invalid_row (const TprofProfileFile *pf,
                              const char             *op,
                              double                  time,
                              uint64_t                row,
                              TprofError             *error)
{
  return tprof_error_set (error, TPROF_ERROR_FORMAT,
                          "%s: samples/times[%llu]: is %s (%g), expected a finite time >= 0 (operation '%s')",
                          pf->path, (unsigned long long) row,
                          isnan (time) ? "NaN" : isinf (time) ? "infinite" : "negative", time, op);
}
