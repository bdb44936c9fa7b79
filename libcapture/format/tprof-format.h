/* tprof-format.h — the profile file's members in tables: the root attributes, /ranks, the columns of format 3 (path, type, length, rules); docs/file-format.md says what each means. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TPROF_FORMAT_NAME "tprof-profile"
/* The version writers write; readers read 1 up to it. */
#define TPROF_FORMAT_VERSION 3

/* The name of the attribute holding a column's CRC-32C (uint32). */
#define TPROF_FORMAT_CRC_ATTR "crc32c"

/* Every column of format 3, in the order the table below lists them. */
typedef enum
{
  TPROF_COL_OP_NAME,
  TPROF_COL_OP_COUNT,
  TPROF_COL_OP_SUM,      /* the eight statistics, in TprofCacheFloat's order */
  TPROF_COL_OP_MEAN,
  TPROF_COL_OP_STD,
  TPROF_COL_OP_MIN,
  TPROF_COL_OP_MAX,
  TPROF_COL_OP_MEDIAN,
  TPROF_COL_OP_P95,
  TPROF_COL_OP_P99,
  TPROF_COL_OP_SEGMENTS,
  TPROF_COL_SEG_RANK,
  TPROF_COL_SEG_OFFSET,
  TPROF_COL_SEG_SUM,
  TPROF_COL_SEG_MIN,
  TPROF_COL_SEG_MAX,
  TPROF_COL_SEG_RECORDED,
  TPROF_COL_TIMES,
  TPROF_COL_STARTS,
  TPROF_COL_THREADS,
  TPROF_N_COLUMNS
} TprofColumn;

/* How a column is stored by writers; readers accept any width of the
 * same class (integers of any size and sign, floats of 4 or 8 bytes). */
typedef enum
{
  TPROF_COLTYPE_STRING,   /* variable-length UTF-8 (fixed length read too) */
  TPROF_COLTYPE_INT32,
  TPROF_COLTYPE_INT64,
  TPROF_COLTYPE_FLOAT64,
} TprofColumnType;

/* A column's length, in terms of K operations, S segments, N samples. */
typedef enum
{
  TPROF_LEN_K,
  TPROF_LEN_K_PLUS_1,
  TPROF_LEN_S,
  TPROF_LEN_S_PLUS_1,
  TPROF_LEN_N,
} TprofColumnLength;

/* What a reader checks of a column's values (each refusal names the
 * column and the index). */
typedef enum
{
  TPROF_RULE_NAME,      /* valid UTF-8, not empty, no name twice */
  TPROF_RULE_COUNT,     /* >= 0; the samples recorded (cache check) */
  TPROF_RULE_STAT,      /* a statistic: checked against the others and the samples */
  TPROF_RULE_BOUNDS,    /* [0] = 0, non-decreasing, last = length of what it indexes */
  TPROF_RULE_RANK,      /* in [0, world_size), strictly ascending within an operation */
  TPROF_RULE_TIME,      /* finite and >= 0 */
  TPROF_RULE_FINITE,    /* finite */
  TPROF_RULE_NONNEG,    /* >= 0 */
  TPROF_RULE_FINITE_OR_NAN,  /* finite, or NaN for "none" */
  TPROF_RULE_TEXT,      /* any string */
  TPROF_RULE_FORMAT,    /* exactly TPROF_FORMAT_NAME: else not a profile */
  TPROF_RULE_VERSION,   /* in [1, TPROF_FORMAT_VERSION]: larger is a newer file */
  TPROF_RULE_WORLD,     /* in [1, INT_MAX] */
} TprofColumnRule;

typedef struct
{
  const char       *group;     /* "operations" */
  const char       *name;      /* "sum" */
  const char       *path;      /* "operations/sum": how messages name it */
  TprofColumnType   type;
  TprofColumnLength length;
  bool              required;
  bool              per_sample;  /* read on demand; the rest is read at open */
  TprofColumnRule   rule;
} TprofColumnInfo;

extern const TprofColumnInfo _tprof_columns[TPROF_N_COLUMNS];

/* The groups holding the columns, in the order a writer creates them. */
extern const char *const _tprof_column_groups[];
#define TPROF_N_COLUMN_GROUPS 3

/* The length of column @c given the table sizes; bytes of one value as
 * a writer stores it (0 for strings). */
uint64_t _tprof_column_length (TprofColumn c,
                               uint64_t    k,
                               uint64_t    s,
                               uint64_t    n);
size_t   _tprof_column_value_size (TprofColumn c);

/* The root attributes, in the order writers write them. */
typedef enum
{
  TPROF_ROOT_FORMAT,
  TPROF_ROOT_FORMAT_VERSION,
  TPROF_ROOT_WORLD_SIZE,
  TPROF_ROOT_CREATED,
  TPROF_ROOT_PRODUCER,
  TPROF_ROOT_CLOCK,
  TPROF_ROOT_TIMELINE_ORIGIN,
  TPROF_N_ROOT_ATTRS
} TprofRootAttr;

/* A scalar attribute of the file's root. */
typedef struct
{
  const char      *name;
  TprofColumnType  type;      /* STRING or INT64 */
  bool             required;
  TprofColumnRule  rule;
} TprofRootAttrInfo;

extern const TprofRootAttrInfo _tprof_root_attrs[TPROF_N_ROOT_ATTRS];

/* The members of the optional group /ranks: world_size values each,
 * rank r's at index r; each optional. */
typedef enum
{
  TPROF_RANKS_HOSTNAME,
  TPROF_RANKS_CLOCK_OFFSET,
  TPROF_RANKS_CLOCK_OFFSET_ERROR,
  TPROF_RANKS_DATA_UNTIL,
  TPROF_N_RANKS_MEMBERS
} TprofRanksMember;

#define TPROF_RANKS_GROUP "ranks"

typedef struct
{
  const char      *name;      /* "clock_offset" */
  const char      *path;      /* "/ranks/clock_offset": how messages name it */
  TprofColumnType  type;      /* STRING or FLOAT64 */
  TprofColumnRule  rule;
} TprofRanksMemberInfo;

extern const TprofRanksMemberInfo _tprof_ranks_members[TPROF_N_RANKS_MEMBERS];
