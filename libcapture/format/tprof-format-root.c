/* tprof-format-root.c — the tables of the root attributes and of /ranks' members that the writer and the readers iterate. */
/* SPDX-License-Identifier: MIT */
#include "tprof-format.h"

#define ROOT(name, type, required, rule) \
  { name, TPROF_COLTYPE_##type, required, TPROF_RULE_##rule }

const TprofRootAttrInfo _tprof_root_attrs[TPROF_N_ROOT_ATTRS] = {
  [TPROF_ROOT_FORMAT]          = ROOT ("format",          STRING, true,  FORMAT),
  [TPROF_ROOT_FORMAT_VERSION]  = ROOT ("format_version",  INT64,  true,  VERSION),
  [TPROF_ROOT_WORLD_SIZE]      = ROOT ("world_size",      INT64,  true,  WORLD),
  [TPROF_ROOT_CREATED]         = ROOT ("created",         STRING, false, TEXT),
  [TPROF_ROOT_PRODUCER]        = ROOT ("producer",        STRING, false, TEXT),
  [TPROF_ROOT_CLOCK]           = ROOT ("clock",           STRING, false, TEXT),
  [TPROF_ROOT_TIMELINE_ORIGIN] = ROOT ("timeline_origin", STRING, false, TEXT),
};

#define RANKS(name, type, rule) \
  { name, "/" TPROF_RANKS_GROUP "/" name, TPROF_COLTYPE_##type, TPROF_RULE_##rule }

const TprofRanksMemberInfo _tprof_ranks_members[TPROF_N_RANKS_MEMBERS] = {
  [TPROF_RANKS_HOSTNAME]           = RANKS ("hostname",           STRING,  TEXT),
  [TPROF_RANKS_CLOCK_OFFSET]       = RANKS ("clock_offset",       FLOAT64, FINITE),
  [TPROF_RANKS_CLOCK_OFFSET_ERROR] = RANKS ("clock_offset_error", FLOAT64, TIME),
  [TPROF_RANKS_DATA_UNTIL]         = RANKS ("data_until",         FLOAT64, FINITE_OR_NAN),
};
