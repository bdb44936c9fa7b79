/* tprof-clock-sync.h — the clock alignment of a gather, transport aside: who pings whom, and the offset a round trip gives. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* Round trips a rank makes to its parent: the shortest bounds the offset
 * best. */
#define TPROF_CLOCK_SYNC_PINGS 12

/* The ranks form a binary tree: rank r's parent is r minus its lowest set
 * bit. In the measuring rounds (step 1, 2, 4, ... below the world size)
 * each parent answers the pings of its child rank + step; in the composing
 * rounds (the same steps, widest first) each parent sends its offset to
 * rank 0 down to that child, which adds its own. A rank is a parent only
 * in rounds before the one where it is a child, so no round waits on
 * another: ceil(log2 size) rounds each way. Any transport that can send
 * a double between two ranks runs it. */
typedef enum
{
  TPROF_CLOCK_SYNC_IDLE,    /* nothing to do in this round */
  TPROF_CLOCK_SYNC_PARENT,  /* answers (measuring) or sends to (composing) *peer */
  TPROF_CLOCK_SYNC_CHILD,   /* pings (measuring) or receives from (composing) *peer */
} TprofClockSyncRole;

/* The role of @rank among @size ranks in the round of @step (a power of
 * two below @size); stores the other rank in *@peer (may be NULL) unless
 * idle. */
TPROF_EXPORT TprofClockSyncRole tprof_clock_sync_role (int  rank,
                                                       int  size,
                                                       int  step,
                                                       int *peer);

/* Seconds to add to one clock to read another's, and a bound on the
 * error of that figure. */
typedef struct
{
  double offset;
  double error;
} TprofClockOffset;

/* From @n round trips (n >= 1): this rank read its clock at @sent[i],
 * its parent read its own at @theirs[i] on receiving, this rank read its
 * clock again at @received[i] on the answer. The round trip with the
 * shortest delay d gives the offset (the parent's reading minus the
 * midpoint of the trip) and d / 2 as its bound: the parent read its clock
 * somewhere within the trip. */
TPROF_EXPORT TprofClockOffset tprof_clock_offset_estimate (const double *sent,
                                                           const double *theirs,
                                                           const double *received,
                                                           size_t        n);

/* The offset to rank 0 of a child, from its offset to its parent and its
 * parent's to rank 0: offsets add, and so do their bounds. */
TPROF_EXPORT TprofClockOffset tprof_clock_offset_compose (TprofClockOffset to_parent,
                                                          TprofClockOffset parent_to_root);

TPROF_END_DECLS
