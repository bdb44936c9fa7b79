/* tprof-hang-comms.c — names of communicators that every member agrees on: WORLD, SELF, PARENT.n for the n-th creation on a parent, and the names of group-made and inter-communicators. */
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

/* How many communicators named so far, freed or not, have a label that
 * begins with @prefix and ends with @suffix, and the members @members:
 * the k-th of a kind is numbered k on every member. The lock held. */
static uint32_t
count_named_locked (const char *prefix, const char *suffix, const int32_t *members, size_t n_members)
{
  size_t lp = strlen (prefix), ls = strlen (suffix);
  uint32_t n = 0;

  for (unsigned i = 0; i < TPROF_HANG_COMMS; i++)
    {
      const HangCommEntry *e = &_tprof_hang_comms[i];
      size_t len = strlen (e->label);

      if (e->state != HANG_COMM_EMPTY && len >= lp + ls && strncmp (e->label, prefix, lp) == 0
          && strcmp (e->label + len - ls, suffix) == 0 && e->n_members == n_members && e->members != NULL
          && memcmp (e->members, members, n_members * sizeof *members) == 0)
        n++;
    }
  return n;
}

static int32_t
lowest_of (const int32_t *members, size_t n_members)
{
  int32_t lowest = n_members > 0 ? members[0] : -1;

  for (size_t m = 1; m < n_members; m++)
    lowest = members[m] < lowest ? members[m] : lowest;
  return lowest;
}

void
_tprof_hang_comm_created_group (TprofHangComm parent, TprofHangComm child, int tag, const int32_t *members,
                                size_t n_members)
{
  int32_t p;

  if (!__atomic_load_n (&_tprof_hang_tracking, __ATOMIC_RELAXED) || members == NULL || n_members == 0)
    return;
  p = _tprof_hang_comm_find_or_add (parent);
  pthread_mutex_lock (&comms_lock);
  if (p >= 0 && _tprof_hang_comm_find (child) < 0)
    {
      char prefix[TPROF_HANG_LABEL], suffix[24], label[2 * TPROF_HANG_LABEL];

      snprintf (prefix, sizeof prefix, "%s.g%d:", _tprof_hang_comms[p].label, tag);
      snprintf (suffix, sizeof suffix, "#%d", (int) lowest_of (members, n_members));
      snprintf (label, sizeof label, "%s%u%s", prefix, count_named_locked (prefix, suffix, members, n_members) + 1,
                suffix);
      comm_insert_locked (child, label, members, n_members);
    }
  pthread_mutex_unlock (&comms_lock);
}

void
_tprof_hang_intercomm_created (TprofHangComm parent, TprofHangComm child, const int32_t *local, size_t n_local,
                               const int32_t *remote, size_t n_remote)
{
  int32_t *members;
  int32_t low_local = lowest_of (local, n_local), low_remote = lowest_of (remote, n_remote);
  int first_local = low_local < low_remote;

  if (!__atomic_load_n (&_tprof_hang_tracking, __ATOMIC_RELAXED) || n_local == 0 || n_remote == 0
      || (members = malloc ((n_local + n_remote) * sizeof *members)) == NULL)
    return;
  /* the group of the lowest rank first: both sides list them alike */
  memcpy (members, first_local ? local : remote, (first_local ? n_local : n_remote) * sizeof *members);
  memcpy (members + (first_local ? n_local : n_remote), first_local ? remote : local,
          (first_local ? n_remote : n_local) * sizeof *members);
  if (parent != 0)
    {
      int32_t p = _tprof_hang_comm_find_or_add (parent);

      pthread_mutex_lock (&comms_lock);
      if (p >= 0)
        _tprof_hang_comms[p].children++;  /* a creation over it, as any other */
      pthread_mutex_unlock (&comms_lock);
    }
  pthread_mutex_lock (&comms_lock);
  if (_tprof_hang_comm_find (child) < 0)
    {
      char suffix[32], label[TPROF_HANG_LABEL];

      snprintf (suffix, sizeof suffix, "#%d+%d", (int) (first_local ? low_local : low_remote),
                (int) (first_local ? low_remote : low_local));
      snprintf (label, sizeof label, "INTER:%u%s",
                count_named_locked ("INTER:", suffix, members, n_local + n_remote) + 1, suffix);
      comm_insert_locked (child, label, members, n_local + n_remote);
    }
  pthread_mutex_unlock (&comms_lock);
  free (members);
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
