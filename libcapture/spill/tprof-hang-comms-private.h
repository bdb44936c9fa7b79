/* tprof-hang-comms-private.h — the communicator table the call tracking and the state encoder share. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include "tprof-hang-watch-internal.h"

enum
{
  HANG_COMM_EMPTY = 0,
  HANG_COMM_LIVE,
  HANG_COMM_DEAD,    /* freed: kept for the labels of past calls */
};

typedef struct
{
  int           state;
  TprofHangComm handle;
  uint64_t      sequence;    /* collectives begun on it */
  uint32_t      children;    /* communicators created over it */
  size_t        n_members;   /* its size; members listed unless NULL */
  int32_t      *members;     /* world ranks, NULL for WORLD */
  char          label[TPROF_HANG_LABEL];
} HangCommEntry;

extern HangCommEntry _tprof_hang_comms[TPROF_HANG_COMMS] __attribute__((visibility ("hidden")));

/* The table index of @comm, -1 when unknown; lock-free. */
int32_t _tprof_hang_comm_find (TprofHangComm comm) __attribute__((visibility ("hidden")));
/* The same, adding an "unnamed" entry for a communicator never seen. */
int32_t _tprof_hang_comm_find_or_add (TprofHangComm comm) __attribute__((visibility ("hidden")));
/* Names WORLD (@size ranks) and SELF (this rank alone). */
void _tprof_hang_comms_start (int32_t size, TprofHangComm world, TprofHangComm self, int32_t rank)
  __attribute__((visibility ("hidden")));
