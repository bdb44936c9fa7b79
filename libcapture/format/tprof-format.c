/* tprof-format.c — the table of format 3's columns that the writer, the readers and their checks iterate. */
/* SPDX-License-Identifier: MIT */
#include "tprof-format.h"

#define COL(group, name, type, length, required, per_sample, rule) \
  { group, name, group "/" name, TPROF_COLTYPE_##type, TPROF_LEN_##length, required, per_sample, TPROF_RULE_##rule }

const TprofColumnInfo _tprof_columns[TPROF_N_COLUMNS] = {
  [TPROF_COL_OP_NAME]        = COL ("operations", "name",     STRING,  K,          true,  false, NAME),
  [TPROF_COL_OP_COUNT]       = COL ("operations", "count",    INT64,   K,          true,  false, COUNT),
  [TPROF_COL_OP_SUM]         = COL ("operations", "sum",      FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_MEAN]        = COL ("operations", "mean",     FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_STD]         = COL ("operations", "std",      FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_MIN]         = COL ("operations", "min",      FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_MAX]         = COL ("operations", "max",      FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_MEDIAN]      = COL ("operations", "median",   FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_P95]         = COL ("operations", "p95",      FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_P99]         = COL ("operations", "p99",      FLOAT64, K,          true,  false, STAT),
  [TPROF_COL_OP_SEGMENTS]    = COL ("operations", "segments", INT64,   K_PLUS_1,   true,  false, BOUNDS),
  [TPROF_COL_SEG_RANK]       = COL ("segments",   "rank",     INT32,   S,          true,  false, RANK),
  [TPROF_COL_SEG_OFFSET]     = COL ("segments",   "offset",   INT64,   S_PLUS_1,   true,  false, BOUNDS),
  [TPROF_COL_SEG_SUM]        = COL ("segments",   "sum",      FLOAT64, S,          true,  false, STAT),
  [TPROF_COL_SEG_MIN]        = COL ("segments",   "min",      FLOAT64, S,          true,  false, STAT),
  [TPROF_COL_SEG_MAX]        = COL ("segments",   "max",      FLOAT64, S,          true,  false, STAT),
  [TPROF_COL_SEG_RECORDED]   = COL ("segments",   "recorded", INT64,   S,          false, false, COUNT),
  [TPROF_COL_TIMES]          = COL ("samples",    "times",    FLOAT64, N,          true,  true,  TIME),
  [TPROF_COL_STARTS]         = COL ("samples",    "starts",   FLOAT64, N,          false, true,  FINITE),
  [TPROF_COL_THREADS]        = COL ("samples",    "threads",  INT32,   N,          false, true,  NONNEG),
};

const char *const _tprof_column_groups[TPROF_N_COLUMN_GROUPS] = { "operations", "segments", "samples" };

uint64_t
_tprof_column_length (TprofColumn c,
                      uint64_t    k,
                      uint64_t    s,
                      uint64_t    n)
{
  switch (_tprof_columns[c].length)
    {
    case TPROF_LEN_K:
      return k;
    case TPROF_LEN_K_PLUS_1:
      return k + 1;
    case TPROF_LEN_S:
      return s;
    case TPROF_LEN_S_PLUS_1:
      return s + 1;
    case TPROF_LEN_N:
    default:
      return n;
    }
}

size_t
_tprof_column_value_size (TprofColumn c)
{
  switch (_tprof_columns[c].type)
    {
    case TPROF_COLTYPE_INT32:
      return 4;
    case TPROF_COLTYPE_INT64:
    case TPROF_COLTYPE_FLOAT64:
      return 8;
    case TPROF_COLTYPE_STRING:
    default:
      return 0;
    }
}
