/* tprof-hang-comms.c — names of communicators that every member agrees on: WORLD, SELF, and PARENT.n for the n-th creation on a parent. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-hang-comms-private.h"

HangCommEntry _tprof_hang_comms[TPROF_HANG_COMMS];
static unsigned comms_used;
static pthread_mutex_t comms_lock = PTHREAD_MUTEX_INITIALIZER;
static int32_t world_size;

static unsigned
comm_hash (TprofHangComm comm)
{
  uint64_t h = (uint64_t) comm * 0x9e3779b97f4a7c15ull;

  return (unsigned) (h >> 40) % TPROF_HANG_COMMS;
}

/* Lock-free: entries become LIVE only once filled, and a handle freed is
 * marked DEAD, never reused, so a probe sees a consistent entry. */
int32_t
_tprof_hang_comm_find (TprofHangComm comm)
{
  unsigned i = comm_hash (comm);

  for (unsigned probes = 0; probes < TPROF_HANG_COMMS; probes++, i = (i + 1) % TPROF_HANG_COMMS)
    {
      int state = __atomic_load_n (&_tprof_hang_comms[i].state, __ATOMIC_ACQUIRE);

      if (state == HANG_COMM_EMPTY)
        return -1;
      if (state == HANG_COMM_LIVE && _tprof_hang_comms[i].handle == comm)
        return (int32_t) i;
    }
  return -1;
}

/* Adds @comm under @label; the lock held. -1 when the table is full. */
static int32_t
comm_insert_locked (TprofHangComm comm, const char *label, const int32_t *members, size_t n_members)
{
  unsigned i = comm_hash (comm);
  HangCommEntry *e;

  if (comms_used + 1 >= TPROF_HANG_COMMS)
    return -1;
  while (_tprof_hang_comms[i].state != HANG_COMM_EMPTY)
    i = (i + 1) % TPROF_HANG_COMMS;
  e = &_tprof_hang_comms[i];
  e->handle = comm;
  snprintf (e->label, sizeof e->label, "%s", label);
  e->n_members = n_members;
  e->members = NULL;
  if (members != NULL && n_members > 0 && (e->members = malloc (n_members * sizeof *members)) != NULL)
    memcpy (e->members, members, n_members * sizeof *members);
  comms_used++;
  __atomic_store_n (&e->state, HANG_COMM_LIVE, __ATOMIC_RELEASE);
  return (int32_t) i;
}

int32_t
_tprof_hang_comm_find_or_add (TprofHangComm comm)
{
  int32_t index = _tprof_hang_comm_find (comm);

  if (index >= 0)
    return index;
  pthread_mutex_lock (&comms_lock);
  index = _tprof_hang_comm_find (comm);
  if (index < 0)
    index = comm_insert_locked (comm, "unnamed", NULL, 0);
  pthread_mutex_unlock (&comms_lock);
  return index;
}

void
_tprof_hang_comms_start (int32_t size, TprofHangComm world, TprofHangComm self, int32_t rank)
{
  pthread_mutex_lock (&comms_lock);
  world_size = size;
  comm_insert_locked (world, "WORLD", NULL, (size_t) size);
  comm_insert_locked (self, "SELF", &rank, 1);
  pthread_mutex_unlock (&comms_lock);
}

/* "PARENT.n", and "#LOWEST" for a part of the parent: the parts a split
 * makes share n, and differ by their lowest member. */
static void
child_label (char *label, size_t size, const HangCommEntry *parent, uint32_t n, const int32_t *members,
             size_t n_members)
{
  int32_t lowest = members != NULL && n_members > 0 ? members[0] : -1;

  for (size_t m = 1; m < n_members && members != NULL; m++)
    if (members[m] < lowest)
      lowest = members[m];
  if (lowest >= 0 && n_members < parent->n_members)
    snprintf (label, size, "%s.%u#%d", parent->label, n, (int) lowest);
  else
    snprintf (label, size, "%s.%u", parent->label, n);
}

void
_tprof_hang_comm_created (TprofHangComm parent, TprofHangComm child, int child_valid, const int32_t *members,
                          size_t n_members)
{
  int32_t p;

  if (!__atomic_load_n (&_tprof_hang_tracking, __ATOMIC_RELAXED))
    return;
  p = _tprof_hang_comm_find_or_add (parent);
  pthread_mutex_lock (&comms_lock);
  if (p >= 0)
    {
      uint32_t n = ++_tprof_hang_comms[p].children;
      char label[TPROF_HANG_LABEL];

      child_label (label, sizeof label, &_tprof_hang_comms[p], n, members, n_members);
      if (child_valid && _tprof_hang_comm_find (child) < 0)
        comm_insert_locked (child, label, members, n_members);
    }
  pthread_mutex_unlock (&comms_lock);
}

void
_tprof_hang_comm_freed (TprofHangComm comm)
{
  int32_t index;

  if (!__atomic_load_n (&_tprof_hang_tracking, __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock (&comms_lock);
  index = _tprof_hang_comm_find (comm);
  if (index >= 0)
    __atomic_store_n (&_tprof_hang_comms[index].state, HANG_COMM_DEAD, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&comms_lock);
}

void
_tprof_hang_comm_name (TprofHangComm comm, const char *name, const int32_t *members, size_t n_members)
{
  pthread_mutex_lock (&comms_lock);
  if (_tprof_hang_comm_find (comm) < 0)
    comm_insert_locked (comm, name, members, n_members);
  pthread_mutex_unlock (&comms_lock);
}

const char *
_tprof_hang_comm_label (TprofHangComm comm)
{
  int32_t index = _tprof_hang_comm_find (comm);

  return index >= 0 ? _tprof_hang_comms[index].label : NULL;
}

const char *
_tprof_hang_comm_at (int32_t index, const int32_t **members, size_t *n_members)
{
  const HangCommEntry *e;

  *members = NULL;
  *n_members = 0;
  if (index < 0 || index >= TPROF_HANG_COMMS)
    return "";
  e = &_tprof_hang_comms[index];
  if (__atomic_load_n (&e->state, __ATOMIC_ACQUIRE) == HANG_COMM_EMPTY)
    return "";
  *members = e->members;
  *n_members = e->members != NULL ? e->n_members : 0;
  return e->label;
}
